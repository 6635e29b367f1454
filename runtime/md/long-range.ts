// The long-range part of the MD forces as the engine and the non-bonded threads see it (PME's
// mesh: runtime/md/pme.ts PmeLongRange). Types only, so the threads' modules can name them
// without importing the mesh's defaults.
import type { MeshRecipe } from '../pme/prepared.ts';

/** What the long-range part returns on energy steps. */
export interface LongRangeEnergy {
  /** Coul. recip. (kJ/mol), with the net-charge term. */
  recip: number;
  /** Its virial (3x3, -0.5 sum r (x) F). */
  virial: Float64Array;
}

/** Time spent in the long-range part. */
export interface LongRangeTimers {
  /** Milliseconds in the mesh (spread, solve, gather). */
  mesh: number;
  /** Calls made. */
  calls: number;
}

/** The long-range part of the forces as the engine calls it every step after the short-range kernels. */
export interface LongRangeForce {
  /** Adds the reciprocal forces at x (any periodic image) to f; with energies, returns Coul. recip. (with the net-charge term) and its virial. */
  compute(x: Float64Array, f: Float64Array, energies: boolean): LongRangeEnergy | null;
  /** Milliseconds spent and calls made. */
  readonly timers: LongRangeTimers;
  /** What the mesh runs, for the run's report. */
  readonly description: string;
  /**
   * How another thread prepares the same mesh (runtime/pme/prepared.ts prepareMesh: the same
   * numbers from the same positions), or undefined where it cannot (an asynchronous mesh).
   */
  recipe?(): MeshRecipe | undefined;
  /** compute()'s energy and virial from that mesh's (the terms it adds, such as the net-charge one). */
  fromMesh?(energy: number, virial: ArrayLike<number>): LongRangeEnergy;
}
