// pme-mesh's default variant for an order (createPmeMesh without a variant): f64, untiled, on
// WebAssembly SIMD where this JavaScript engine has it, else TypeScript. The form is each target's
// faster one in `kernforge bench pme-mesh` (12,288 charges, 42^3, 25 rounds): wasm with loops over
// the x and y offsets (order 4: 2.10 ms spread + gather against 2.42 straight-line; order 6: 4.36
// against 6.86, whose unrolled gather is large code), TypeScript straight-line (order 4: 4.4 ms
// against 7.1 with loops).
import { backend } from '../backends/registry.ts';
import { keyTarget } from '../keys.ts';
import { libraryKeys } from '../variants.ts';

/** The preferred key of a target, order and precision (no tiles; wasm with loops but f32 order 4 straight-line, TypeScript straight-line). */
export function preferredPmeMeshKey(order: number, target: 'ts' | 'wasm' = 'wasm', precision: 'f64' | 'f32' = 'f64'): string {
  const form = target === 'ts' || (precision === 'f32' && order === 4) ? 'full' : 'loop';
  return `pme-mesh.${target}.order${order}.${precision}.${form}.tile0`;
}

/**
 * The default variant of an order: the CPU winner of `kernforge tune pme-mesh` for the order's
 * problem class (water-mesh: order 4, water-mesh-order6: order 6) in the tuned artefact (`tuned`:
 * its path; default KERNFORGE_TUNED or ./kernforge-tuned.json), else the preferred wasm key when
 * WebAssembly SIMD runs here, else the TypeScript one; for orders the kernels do not cover (3,
 * 7..12), 'reference' (the f64 reference spread and gather, mesh.ts REFERENCE_MESH).
 * precision 'f32' (an f32 MD run, GROMACS's mixed precision) prefers the f32 wasm variant where
 * WebAssembly SIMD runs here: order 4 straight-line (1.49 ms spread + gather against 1.64 with
 * loops and 1.70 for the f64 default, bench pme-mesh), orders 5 and 6 with loops (2.46 and 3.26
 * ms against 2.83 / 3.95 straight-line, 2.93 / 3.86 f64); otherwise, and for f64 (the default), as above.
 */
export async function defaultPmeMeshKey(order: number, o: { tuned?: string; precision?: 'f64' | 'f32' } = {}): Promise<string> {
  if (order < 4 || order > 6) return 'reference';
  if (o.precision === 'f32' && (await backend('wasm').available()).ok) {
    const key = preferredPmeMeshKey(order, 'wasm', 'f32');
    if (libraryKeys('pme-mesh').includes(key)) return key;
  }
  // the winner of `kernforge tune pme-mesh` on this machine for the order's problem class, if any
  const problem = order === 4 ? 'water-mesh' : order === 6 ? 'water-mesh-order6' : undefined;
  if (problem) {
    const { loadTuned } = await import('../tune/tuned.ts');
    const t = await loadTuned('pme-mesh', problem, { load: false, path: o.tuned, warn: () => {}, notice: () => {} });
    if (t.tuned && keyTarget(t.key) !== 'wgsl' && t.key.includes(`.order${order}.`)) return t.key;
  }
  const simd = await backend('wasm').available();
  const key = preferredPmeMeshKey(order, simd.ok ? 'wasm' : 'ts');
  return libraryKeys('pme-mesh').includes(key) ? key : preferredPmeMeshKey(order, 'ts');
}
