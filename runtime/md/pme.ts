// The MD workload's Coulomb choice (reaction field or smooth PME) and PME's long-range half as
// the engine calls it. The short-range half is the generated lj-ewald md-nonbonded kernels
// (erfc(beta r)/r with potential shift, the exclusion correction -f q_i q_j erf(beta r)/r for
// excluded pairs and the self term -f beta/sqrt(pi) sum q^2, all in "Coulomb (SR)" as GROMACS
// counts them); the mesh (runtime/pme) gives "Coul. recip.", to which the net-charge correction
// of a charged system is added, as GROMACS does. The checks here refuse a grid too coarse for
// the accuracy asked, an order out of range and a net charge without a correction.
import { ewaldCoeff, pmeGrid, createPmeMesh, ewaldNetCharge, PME_ORDER_MIN, PME_ORDER_MAX, PmeInputError, type PmeMesh } from '../pme/index.ts';
import { MdInputError } from './errors.ts';
import type { LongRangeEnergy, LongRangeForce, LongRangeTimers } from './long-range.ts';
import type { MeshRecipe } from '../pme/prepared.ts';

/** How a run computes electrostatics: the options of `run md --coulomb rf|pme`. */
export interface CoulombOptions {
  /** 'rf' (reaction field, eps_rf = infinity; the default) or 'pme' (smooth particle-mesh Ewald). */
  coulomb?: 'rf' | 'pme';
  /** PME: the largest grid spacing (nm); the grid is rounded up to GROMACS's FFT sizes (default 0.12). */
  fourierSpacing?: number;
  /** PME: B-spline order (default 4). */
  pmeOrder?: number;
  /** PME: erfc(beta rc) = ewald-rtol sets beta (default 1e-5). */
  ewaldRtol?: number;
  /** PME: apply GROMACS's uniform-background correction to a system with a net charge instead of refusing it. */
  netChargeCorrection?: boolean;
}

/** The PME settings of a run, resolved and checked. */
export interface PmeSettings {
  /** Ewald splitting coefficient (nm^-1), GROMACS's calc_ewaldcoeff_q of rc and ewaldRtol. */
  beta: number;
  /** Grid points per dimension (GROMACS's calcFftGrid of the box and fourierSpacing). */
  grid: [number, number, number];
  /** B-spline order. */
  order: number;
  /** The largest grid spacing asked (nm). */
  fourierSpacing: number;
  /** erfc(beta rc). */
  ewaldRtol: number;
  /** The electric factor f / eps_r the mesh uses (the same as the short-range kernels'). */
  epsfac: number;
  /** Net charge (e) and whether its correction is applied. */
  netCharge: number;
  /** Whether the uniform-background correction is applied (a net charge and --net-charge-correction). */
  netChargeCorrection: boolean;
}

/** PME defaults (GROMACS's): spacing 0.12 nm, order 4, ewald-rtol 1e-5. */
export const PME_DEFAULTS = { fourierSpacing: 0.12, pmeOrder: 4, ewaldRtol: 1e-5 } as const;
/** Net charge (e) below which a system counts as neutral. */
export const NET_CHARGE_TOLERANCE = 1e-4;

/**
 * The wave number (nm^-1) where the Ewald Gaussian exp(-k^2 / (4 beta^2)) of the reciprocal sum
 * has fallen to rtol: a grid must reach it (its Nyquist wave number pi / spacing) to represent the
 * reciprocal part to the accuracy the real-space cut-off was given.
 */
export function ewaldKmax(beta: number, rtol: number): number {
  return 2 * beta * Math.sqrt(Math.log(1 / rtol));
}

/**
 * The run's PME settings from the options, checked: beta from rc and ewald-rtol, the grid from
 * the spacing (GROMACS calcFftGrid), the order within GROMACS's 3..12, the grid fine enough for
 * ewald-rtol (see ewaldKmax), and a net charge only with its correction. Errors are MdInputErrors
 * naming the option.
 */
export function pmeSettings(o: CoulombOptions, rc: number, box: readonly [number, number, number], q: Float64Array, epsfac: number): PmeSettings {
  const spacing = o.fourierSpacing ?? PME_DEFAULTS.fourierSpacing;
  const order = o.pmeOrder ?? PME_DEFAULTS.pmeOrder;
  const rtol = o.ewaldRtol ?? PME_DEFAULTS.ewaldRtol;
  if (!(Number.isFinite(spacing) && spacing > 0)) throw new MdInputError(`--fourier-spacing ${o.fourierSpacing}: must be a positive grid spacing in nm (GROMACS default 0.12)`);
  if (!(Number.isInteger(order) && order >= PME_ORDER_MIN && order <= PME_ORDER_MAX)) throw new MdInputError(`--pme-order ${o.pmeOrder}: out of range (allowed: an integer ${PME_ORDER_MIN} to ${PME_ORDER_MAX}; GROMACS default 4)`);
  if (!(Number.isFinite(rtol) && rtol > 0 && rtol < 1)) throw new MdInputError(`--ewald-rtol ${o.ewaldRtol}: must be between 0 and 1 (GROMACS default 1e-5)`);
  let beta: number;
  let grid: [number, number, number];
  try {
    beta = ewaldCoeff(rc, rtol);
    grid = pmeGrid(box, spacing);
  } catch (e) {
    if (e instanceof PmeInputError) throw new MdInputError(e.message);
    throw e;
  }
  const kmax = ewaldKmax(beta, rtol);
  for (let d = 0; d < 3; d++) {
    const h = box[d]! / grid[d]!;
    if (Math.PI / h < kmax) {
      const left = Math.exp(-((Math.PI / h) ** 2) / (4 * beta * beta));
      throw new MdInputError(
        `--fourier-spacing ${spacing}: the grid ${grid.join('x')} (spacing ${h.toFixed(4)} nm along ${'xyz'[d]}) is too coarse for --ewald-rtol ${rtol}: it cuts the reciprocal sum where the Ewald Gaussian is still ${left.toExponential(1)} (allowed: a spacing up to ${(Math.PI / kmax).toFixed(4)} nm for rc ${rc} nm, or a larger --ewald-rtol)`,
      );
    }
    if (grid[d]! < order) throw new MdInputError(`--pme-order ${order}: the grid has ${grid[d]} points along ${'xyz'[d]} (allowed: an order up to the smallest grid size)`);
  }
  let net = 0;
  for (let i = 0; i < q.length; i++) net += q[i]!;
  if (Math.abs(net) > NET_CHARGE_TOLERANCE && !o.netChargeCorrection) {
    throw new MdInputError(`the system has a net charge of ${net.toFixed(4)} e: PME needs a neutral system or the uniform-background correction (allowed: add counter-ions, or --net-charge-correction as GROMACS applies it)`);
  }
  return { beta, grid, order, fourierSpacing: spacing, ewaldRtol: rtol, epsfac, netCharge: net, netChargeCorrection: Math.abs(net) > NET_CHARGE_TOLERANCE };
}

export type { LongRangeEnergy, LongRangeForce, LongRangeTimers } from './long-range.ts';

/**
 * PME's reciprocal part for a fixed box and charges: one mesh for the whole run (runtime/pme
 * createPmeMesh: a generated pme-mesh spread/gather variant, verified once against the f64
 * reference, around the variant's FFT solve; or the reference itself), plus the net-charge term.
 */
export class PmeLongRange implements LongRangeForce {
  readonly timers: LongRangeTimers = { mesh: 0, calls: 0 };
  readonly description: string;
  private readonly netTerm: number;

  private constructor(
    /** The box (nm). */
    readonly box: readonly [number, number, number],
    /** The charges (e). */
    readonly q: Float64Array,
    /** The run's PME settings. */
    readonly p: PmeSettings,
    /** The mesh the run uses. */
    readonly mesh: PmeMesh,
  ) {
    this.netTerm = p.netChargeCorrection ? ewaldNetCharge(q, p.beta, box[0] * box[1] * box[2], p.epsfac) : 0;
    this.description =
      `PME grid ${p.grid.join('x')}, order ${p.order}, beta ${p.beta.toFixed(5)} nm^-1 (ewald-rtol ${p.ewaldRtol}); mesh ${mesh.key} (${mesh.device})` +
      (this.netTerm ? `; net charge ${p.netCharge.toFixed(4)} e corrected` : '');
  }

  /**
   * The long-range part of a run: `variant` is a pme-mesh key, 'reference' (the f64 reference
   * spread and gather), or undefined for createPmeMesh's default (the fastest CPU target here
   * for orders 4..6; an f32 wasm mesh when `precision` is the run's f32, an f64 one otherwise).
   * A WGSL variant is refused: the engine's force call is synchronous.
   */
  static async create(box: readonly [number, number, number], q: Float64Array, p: PmeSettings, variant?: string, precision: 'f64' | 'f32' = 'f64'): Promise<PmeLongRange> {
    if (variant !== undefined && /^pme-mesh\.wgsl\./.test(variant)) throw new MdInputError(`--pme-mesh ${variant}: run md runs the mesh synchronously (allowed: a ts or wasm pme-mesh variant, or reference)`);
    let mesh: PmeMesh;
    try {
      mesh = await createPmeMesh([box[0], box[1], box[2]], { beta: p.beta, grid: p.grid, order: p.order, epsfac: p.epsfac }, q.length, { variant, precision });
    } catch (e) {
      if (e instanceof PmeInputError) throw new MdInputError(e.message);
      throw e;
    }
    return new PmeLongRange(box, q, p, mesh);
  }

  /** The mesh is synchronous (create refuses a WGSL variant), so another thread can always prepare it. */
  recipe(): MeshRecipe {
    const p = this.p;
    return { variant: this.mesh.key, box: [this.box[0], this.box[1], this.box[2]], params: { beta: p.beta, grid: p.grid, order: p.order, epsfac: p.epsfac }, q: this.q };
  }

  /** The energy and virial of a mesh call on this run's charges, with the net-charge term. */
  fromMesh(energy: number, meshVirial: ArrayLike<number>): LongRangeEnergy {
    const virial = Float64Array.from(meshVirial);
    // the net-charge energy scales as 1/V: its virial is -E/2 on the diagonal
    if (this.netTerm) for (const k of [0, 4, 8]) virial[k]! -= 0.5 * this.netTerm;
    return { recip: energy + this.netTerm, virial };
  }

  compute(x: Float64Array, f: Float64Array, energies: boolean): LongRangeEnergy | null {
    const t0 = performance.now();
    // force-only steps skip the mesh's energy and virial sums
    const r = this.mesh.compute(x, this.q, f, energies);
    this.timers.mesh += performance.now() - t0;
    this.timers.calls++;
    if (!energies) return null;
    return this.fromMesh(r.energy, r.virial);
  }
}
