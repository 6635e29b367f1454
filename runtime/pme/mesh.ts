// The PME mesh as the MD engine runs it: the generated pme-mesh spread and gather kernels of one
// variant (runtime/pme/targets.ts runs them per target) around the f64 solve (FFT and influence
// function, reference.ts PmeSolver). createPmeMesh picks, verifies once and prepares a variant;
// compute() is then one spread, one solve and one gather per call.
//
// The CPU kernels (TypeScript, WebAssembly) read a layout made here: per atom its grid cell and
// the fraction within it per dimension (in f64 from the positions), the charges, and an atom
// order (tile by tile of t^3 cells when the variant's tile axis is t > 0); they spread onto a
// grid padded by the order (padded point c + a, a = 0..p-1, for an atom in cell c: no periodic
// wrap inside the kernels), which fold() adds onto the periodic grid; gather reads phi unfolded
// onto the same padded grid.
import { meshShape, type Box3, type PreparedMesh } from './layout.ts';
import { defaultPmeMeshKey } from './defaults.ts';
import { verifyPmeKey } from './gate.ts';
import { PME_TARGETS } from './targets.ts';
import { PmeInputError, PmeSolver, checkPmeArrays, checkPmeParams, gatherReference, spreadReference, type PmeParams, type PmeResult } from './reference.ts';

/** The variant name of the f64 reference mesh (reference.ts spreadReference and gatherReference): createPmeMesh's choice for orders without generated kernels (3, 7..12). */
export const REFERENCE_MESH = 'reference';

/** The reference spread and gather behind the PreparedMesh interface. */
function referenceMesh(box: Box3, p: PmeParams): PreparedMesh {
  let xs: Float64Array = new Float64Array(0);
  let qs: Float64Array = new Float64Array(0);
  return {
    spread(x, q, out) {
      xs = x;
      qs = q;
      spreadReference(x, q, box, p.grid, p.order, out);
    },
    gather(phi, f) {
      gatherReference(xs, qs, box, p.grid, p.order, phi, f);
    },
    dispose() {},
    device: 'TypeScript f64 reference (this process, one thread)',
    precision: 'f64',
  };
}

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

/** The mesh of one run: compute() is the reciprocal part with the chosen variant. */
export interface PmeMesh {
  /** The variant run. */
  readonly key: string;
  /** What it runs on, for reports. */
  readonly device: string;
  /** Milliseconds in spread, solve (FFT and influence function) and gather, and the calls. */
  readonly timers: { spread: number; solve: number; gather: number; calls: number };
  /**
   * The reciprocal energy and virial of charges q at x (3N, nm, any periodic image); adds the
   * forces to f when given. energies false (with f) skips the energy and virial sums (they come
   * back as NaN): the MD steps that print nothing. Synchronous on the CPU targets (ts, wasm); a
   * WGSL variant needs computeAsync.
   */
  compute(x: Float64Array, q: Float64Array, f?: Float64Array, energies?: boolean): PmeResult;
  /** compute() for any target. */
  computeAsync(x: Float64Array, q: Float64Array, f?: Float64Array, energies?: boolean): Promise<PmeResult>;
  /** Frees the variant's buffers. */
  dispose(): void;
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
  let prep: PreparedMesh;
  let sync = true;
  if (key === REFERENCE_MESH) {
    prep = referenceMesh(box, params);
  } else {
    const shape = await meshShape(key);
    if (shape.order !== params.order) throw new PmeInputError(`createPmeMesh: variant ${key} has order ${shape.order}, the mesh order ${params.order} (allowed: a pme-mesh variant of order ${params.order})`);
    if (!opts.unverified) {
      const v = await verifyPmeKey(key);
      if (!v.ok) throw new Error(`pme-mesh variant ${key} does not match the f64 reference: ${v.detail}`);
    }
    prep = await PME_TARGETS.get(shape.target, 'the PME mesh').prepare(key, box, params.grid, n);
    sync = shape.target !== 'wgsl';
  }
  const solver = new PmeSolver(box, params, prep.fft);
  const grid = new Float64Array(params.grid[0] * params.grid[1] * params.grid[2]);
  const timers = { spread: 0, solve: 0, gather: 0, calls: 0 };
  const after = <T>(v: void | Promise<void>, then: () => T): T | Promise<T> => (v instanceof Promise ? v.then(then) : then());
  const run = (x: Float64Array, q: Float64Array, f?: Float64Array, energies = true): PmeResult | Promise<PmeResult> => {
    checkPmeArrays(x, q, f, 'PmeMesh.compute');
    if (q.length !== n) throw new PmeInputError(`PmeMesh.compute: ${q.length} charges for a mesh made for ${n} atoms`);
    const t0 = performance.now();
    return after(prep.spread(x, q, grid), () => {
      const t1 = performance.now();
      const r = solver.solve(grid, energies || !f);
      const t2 = performance.now();
      timers.spread += t1 - t0;
      timers.solve += t2 - t1;
      timers.calls++;
      if (!f) return r;
      return after(prep.gather(grid, f), () => {
        timers.gather += performance.now() - t2;
        return r;
      }) as PmeResult;
    }) as PmeResult | Promise<PmeResult>;
  };
  return {
    key,
    device: prep.device,
    timers,
    compute(x, q, f, energies) {
      if (!sync) throw new PmeInputError(`PmeMesh.compute: variant ${key} runs on WGSL (asynchronous); use computeAsync, or a ts or wasm variant`);
      return run(x, q, f, energies) as PmeResult;
    },
    computeAsync: async (x, q, f, energies) => run(x, q, f, energies),
    dispose: () => prep.dispose(),
  };
}
