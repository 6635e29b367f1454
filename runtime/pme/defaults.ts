// pme-mesh's default variant for an order (createPmeMesh without a variant, the tuning family's
// default): the straight-line f64 kernels, untiled, on WebAssembly SIMD where this JavaScript
// engine has it (the faster CPU target in bench/pme-fft.ts's mesh timings), else TypeScript.
import { backend } from '../backends/registry.ts';
import { libraryKeys } from '../variants.ts';

/** The preferred key of a target and order (f64, full unroll, no tiles). */
export function preferredPmeMeshKey(order: number, target: 'ts' | 'wasm' = 'wasm'): string {
  return `pme-mesh.${target}.order${order}.f64.full.tile0`;
}

/**
 * The default variant of an order: the preferred wasm key when WebAssembly SIMD runs here, else
 * the TypeScript one; for orders the kernels do not cover (3, 7..12), 'reference' (the f64
 * reference spread and gather, mesh.ts REFERENCE_MESH).
 */
export async function defaultPmeMeshKey(order: number): Promise<string> {
  if (order < 4 || order > 6) return 'reference';
  const simd = await backend('wasm').available();
  const key = preferredPmeMeshKey(order, simd.ok ? 'wasm' : 'ts');
  return libraryKeys('pme-mesh').includes(key) ? key : preferredPmeMeshKey(order, 'ts');
}
