// The PME mesh as the MD engine runs it: the generated pme-mesh spread and gather kernels of one
// variant (runtime/pme/targets.ts runs them per target) around the solve (FFT and influence
// function, reference.ts PmeSolver: in f64, or in f32 in an f32 wasm variant's module).
// createPmeMesh picks, verifies once and prepares a variant; compute() is then one spread, one
// solve and one gather per call.
//
// The CPU kernels (TypeScript, WebAssembly) read a layout made here: per atom its grid cell and
// the fraction within it per dimension (in f64 from the positions), the charges, and an atom
// order (tile by tile of t^3 cells when the variant's tile axis is t > 0); they spread onto a
// grid padded by the order (padded point c + a, a = 0..p-1, for an atom in cell c: no periodic
// wrap inside the kernels), which fold() adds onto the periodic grid; gather reads phi unfolded
// onto the same padded grid.
import { meshShape, type Box3 } from './layout.ts';
import { defaultPmeMeshKey } from './defaults.ts';
import { verifyPmeKey } from './gate.ts';
import { checkPmeParams, type PmeParams } from './reference.ts';
import { prepareMesh, REFERENCE_MESH, type PmeMesh } from './prepared.ts';

export { prepareMesh, REFERENCE_MESH, type MeshRecipe, type PmeMesh } from './prepared.ts';

/** Options of createPmeMesh. */
export interface PmeMeshOptions {
  /** A pme-mesh variant key, or REFERENCE_MESH (default: defaultPmeMeshKey(order): the fastest CPU target here for orders 4..6, the reference otherwise). */
  variant?: string;
  /** The tuned artefact the default variant is read from (default KERNFORGE_TUNED or ./kernforge-tuned.json; see defaultPmeMeshKey). */
  tuned?: string;
  /** Skip the one-time check against the f64 reference (default false: checked once per key and order). */
  unverified?: boolean;
  /**
   * The run's precision when no variant is given (default f64): f32 takes the f32 default
   * (defaultPmeMeshKey), or the f64 one when that fails the gate; f64 runs keep an f64 mesh.
   */
  precision?: 'f64' | 'f32';
}

/**
 * The PME mesh of a run with the generated pme-mesh kernels: box (nm), params (beta, grid,
 * order 4..6 for the kernels, epsfac), n atoms. The variant is opts.variant or the default for
 * the order (the fastest CPU target available here, runtime/pme/defaults.ts); it is checked
 * once against the f64 reference (runtime/pme/gate.ts) before it is used.
 *
 * ```ts
 * const mesh = await createPmeMesh(box, { beta, grid, order: 4, epsfac }, n);
 * const { energy, virial } = mesh.compute(x, q, f); // adds the forces to f
 * ```
 */
export async function createPmeMesh(box: Box3, params: PmeParams, n: number, opts: PmeMeshOptions = {}): Promise<PmeMesh> {
  checkPmeParams(params, 'createPmeMesh');
  let key = opts.variant ?? (await defaultPmeMeshKey(params.order, { tuned: opts.tuned, precision: opts.precision }));
  if (opts.variant === undefined && opts.precision === 'f32' && !opts.unverified && key !== REFERENCE_MESH && (await meshShape(key)).precision === 'f32' && !(await verifyPmeKey(key)).ok) {
    key = await defaultPmeMeshKey(params.order, { tuned: opts.tuned });
  }
  return prepareMesh(key, box, params, n, opts.unverified);
}
