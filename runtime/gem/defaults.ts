// GEM's default variant for a region and salt (`kernforge run gem` without --variant, the
// gem-potential tuning family's default): the preferred key of the CPU target if the library has
// it, else the closest library variant, else the preferred key rendered on demand.
import { libraryKeys, manifest } from '../variants.ts';
import type { GemRegion } from './model.ts';

const PREFERRED = { precision: 'f32', unroll: 4, rsqrt: 'div', block: 0 } as const;

/** Targets `run gem --target` accepts (gpu.js variants are given with --variant). */
export const GEM_DEFAULT_TARGETS = ['ts', 'wasm', 'wgsl'] as const;
export type GemDefaultTarget = (typeof GEM_DEFAULT_TARGETS)[number];

/**
 * The key GEM's workload prefers for a region and salt: f32, exact division, no blocking; TS
 * unrolled by 4, wasm by 8 (two f32x4 vectors of vertices, SIMD128 only: relaxed SIMD is a tuned
 * choice where the engine has it; in the library for every region and salt); WGSL unrolled by 4,
 * one vertex per invocation in workgroups of 64, no atom tile (in the library for every region
 * and salt; the tuner's WGSL default).
 */
export function preferredGemKey(region: GemRegion, salt: 'zero' | 'nonzero', target: GemDefaultTarget = 'ts'): string {
  if (target === 'wasm') return `gem-potential.wasm.region${region}.f32.${salt}.unroll8.div.block0.vertices.simd128`;
  if (target === 'wgsl') return `gem-potential.wgsl.region${region}.f32.${salt}.unroll4.div.block0.workgroup64`;
  return `gem-potential.ts.region${region}.${PREFERRED.precision}.${salt}.unroll${PREFERRED.unroll}.${PREFERRED.rsqrt}.block${PREFERRED.block}`;
}

/**
 * The default variant for a region and salt: the preferred key if the library has it, else any
 * library variant of that region and salt (f32 first, then unroll 4), else the preferred key
 * rendered on demand.
 */
export function chooseGemVariant(region: GemRegion, salt: 'zero' | 'nonzero', target: GemDefaultTarget = 'ts'): { key: string; source: 'library' | 'on-demand' } {
  const want = preferredGemKey(region, salt, target);
  const lib = libraryKeys('gem-potential', target);
  if (lib.includes(want)) return { key: want, source: 'library' };
  const m = manifest();
  const matching = lib.filter((k) => String(m.get(k)!.params.region) === String(region) && m.get(k)!.params.salt === salt);
  const rank = (k: string): number => {
    const p = m.get(k)!.params;
    return (p.precision === 'f32' ? 0 : 2) + (Number(p.unroll) === 4 ? 0 : 1);
  };
  matching.sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  if (matching.length > 0) return { key: matching[0]!, source: 'library' };
  return { key: want, source: 'on-demand' };
}
