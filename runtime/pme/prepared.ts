// One PME mesh variant made ready for a box, grid and atom count (createPmeMesh in mesh.ts picks
// the variant; this module does not read the tuned defaults, so a worker thread can prepare the
// variant its caller chose: runtime/parallel/tasks.ts). compute() is then one spread, one solve
// (PmeSolver: FFT and influence function) and one gather per call.
import { meshShape, periodicGrid, type Box3, type PreparedMesh } from './layout.ts';
import { verifyPmeKey } from './gate.ts';
import { PME_TARGETS } from './targets.ts';
import { PmeInputError, PmeSolver, checkPmeArrays, gatherReference, spreadReference, type PmeParams, type PmeResult } from './reference.ts';

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

/** What prepareMesh needs to make the same mesh in another thread (plain data). */
export interface MeshRecipe {
  /** The variant (as prepared: a key, or REFERENCE_MESH). */
  variant: string;
  box: [number, number, number];
  params: PmeParams;
  /** The charges (e). */
  q: Float64Array;
}

/**
 * The mesh of variant `key` (a pme-mesh key or REFERENCE_MESH) for box, params and n atoms:
 * checked once against the f64 reference unless `unverified` (a thread preparing the variant its
 * caller checked).
 */
export async function prepareMesh(key: string, box: Box3, params: PmeParams, n: number, unverified = false): Promise<PmeMesh> {
  let prep: PreparedMesh;
  let sync = true;
  if (key === REFERENCE_MESH) {
    prep = referenceMesh(box, params);
  } else {
    const shape = await meshShape(key);
    if (shape.order !== params.order) throw new PmeInputError(`createPmeMesh: variant ${key} has order ${shape.order}, the mesh order ${params.order} (allowed: a pme-mesh variant of order ${params.order})`);
    if (!unverified) {
      const v = await verifyPmeKey(key);
      if (!v.ok) throw new Error(`pme-mesh variant ${key} does not match the f64 reference: ${v.detail}`);
    }
    prep = await PME_TARGETS.get(shape.target, 'the PME mesh').prepare(key, box, params.grid, n);
    sync = shape.target !== 'wgsl';
  }
  const solver = new PmeSolver(box, params, prep.fft);
  // the real grid where the variant's FFT keeps its arrays (a wasm variant's memory: its layout
  // work and the FFT's copies then stay in the module)
  const grid = periodicGrid(prep, params.grid);
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
