// Render context of the gem-potential family (seed 003): the region and salt pick the pair
// formula (no branch in the inner loop), the unroll factor gives k vertices their own locals,
// the rsqrt form and the atom block size only change speed. gpu.js variants are one thread per
// vertex, the problem's constants folded on the host, run through the backend named by `mode`.
import { SpecError, type Spec } from '../spec.ts';
import type { Variant } from '../space.ts';
import { GPUJS_MODES, type FamilyModule } from './types.ts';

const AXES = ['target', 'region', 'precision', 'salt', 'unroll', 'rsqrt', 'block'];

function validate(spec: Spec): void {
  for (const a of AXES) {
    if (!spec.axes.some((x) => x.name === a)) throw new SpecError(spec.file, spec.where(['axes']), 'axes', `gem-potential needs an axis "${a}"`);
  }
  const check = (axis: string, ok: (v: unknown) => boolean, allowed: string): void => {
    spec.axes.find((a) => a.name === axis)!.values.forEach((v, i) => {
      if (!ok(v)) throw new SpecError(spec.file, spec.where(['axes', axis, 'values', i]), `axes.${axis}.values.${i}`, `"${v}" is not allowed; allowed: ${allowed}`);
    });
  };
  check('target', (v) => v === 'ts' || v === 'wgsl' || v === 'gpujs' || v === 'wasm', 'ts, wgsl, gpujs, wasm');
  if (spec.axes.some((a) => a.name === 'mode')) check('mode', (v) => GPUJS_MODES.includes(v as string), GPUJS_MODES.join(', '));
  if (spec.axes.some((a) => a.name === 'workgroup')) check('workgroup', (v) => Number.isInteger(v) && (v as number) >= 1 && (v as number) <= 256, 'integers 1 to 256');
  if (spec.axes.some((a) => a.name === 'atoms')) check('atoms', (v) => Number.isInteger(v) && (v as number) >= 1 && (v as number) <= 16, 'integers 1 to 16');
  check('region', (v) => v === 1 || v === 2 || v === 3, '1, 2, 3');
  check('precision', (v) => v === 'f32' || v === 'f64', 'f32, f64');
  check('salt', (v) => v === 'zero' || v === 'nonzero', 'zero, nonzero');
  check('unroll', (v) => Number.isInteger(v) && (v as number) >= 1 && (v as number) <= 16, 'integers 1 to 16');
  check('rsqrt', (v) => v === 'div' || v === 'nr', 'div, nr');
  check('block', (v) => Number.isInteger(v) && (v as number) >= 0, 'integers >= 0 (0 = no blocking)');
}

function context(spec: Spec, v: Variant): Record<string, unknown> {
  const K = Number(v.unroll);
  const region = Number(v.region);
  // WGSL: atoms per tile in workgroup memory (0: read from the storage buffer), atoms per inner
  // step held in registers against the K vertices.
  const wg = Number(v.workgroup ?? 0);
  const tile = v.target === 'wgsl' ? Number(v.block) : 0;
  const M = tile > 0 ? Number(v.atoms ?? 1) : 1;
  if (tile > 0 && (tile % wg !== 0 || tile % M !== 0)) {
    throw new SpecError(spec.file, spec.where(['rules']), 'rules', `WGSL tile ${tile} must be a multiple of the workgroup size ${wg} and of atoms ${M}`);
  }
  return {
    K,
    block: Number(v.block),
    blocked: Number(v.block) > 0,
    arr: v.precision === 'f64' ? 'Float64Array' : 'Float32Array',
    r1: region === 1,
    r2: region === 2,
    r3: region === 3,
    salt: v.salt === 'nonzero',
    nr: v.rsqrt === 'nr',
    // gpu.js: the backend.
    mode: v.mode ?? '',
    // WGSL: invocations per workgroup (each takes K consecutive vertices).
    workgroup: v.workgroup ?? 0,
    tiled: tile > 0,
    tile,
    M,
    // Tile loads per invocation: tile / workgroup, at these offsets from its local index.
    loads: tile > 0 ? Array.from({ length: tile / wg }, (_, r) => ({ off: r * wg })) : [],
    atomList: Array.from({ length: M }, (_, m) => ({ m })),
    // Per (atom m, vertex u) pair of the register tile: the names of its locals.
    pairs: Array.from({ length: M }, (_, m) => Array.from({ length: K }, (_, u) => {
      const t = `${u}_${m}`;
      return { u, m, aj: `a${m}.xyz`, qj: `a${m}.w`, dv: `dv${t}`, d2: `d2_${t}`, rd: `rd${t}`, dx: `dx${t}`, e2: `e2_${t}`, dp: `dp${t}`, h2: `h2_${t}`, rh: `rh${t}` };
    })).flat(),
    // Per unrolled vertex: its index and the names of its locals.
    uList: Array.from({ length: K }, (_, u) => ({
      u,
      first: u === 0,
      d2: `d2_${u}`,
      rd: `rd${u}`,
      h2: `h2_${u}`,
      rh: `rh${u}`,
      e2: `e2_${u}`,
      re: `re${u}`,
    })),
  };
}

export const gemPotential: FamilyModule = { family: 'gem-potential', validate, context };
