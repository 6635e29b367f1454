// A non-bonded problem ready for the kernels: cluster layout, pair list, packed arrays of
// one precision, interaction constants; and the post-processing that turns kernel outputs
// (padded forces, energies, shift forces) into atom forces, energies and the virial.
import type { MdArgs, MdParams, Real } from '../../generated/md-nonbonded/ts/abi.ts';
import type { MdSystem } from './system.ts';
import { buildClusters, buildPairList, ljAtoms, type ClusterLayout, type ClusterOptions, type ClusterSplit, type ColumnSplit, type ListBuffers, type PairList } from './clusters.ts';
import { toFullList } from './fulllist.ts';
import { derive, selfEnergy, tableC6C12, ewaldCorrection, type Derived, type MdSettings } from './interaction.ts';
import type { MdResult } from './reference.ts';

/** Arithmetic precision of a kernel's inputs and forces (energies and shift forces are always accumulated in f64). */
export type Precision = 'f32' | 'f64';

/** Ewald table points per nm: linear-interpolation error ~ h^2/8 |g''| stays below the precision's own. */
export const EWALD_TABLE_SCALE: Record<Precision, number> = { f32: 2000, f64: 20000 };

/** Ewald correction tables by precision, beta and rc: the same for every search of a run (the kernels only read them). */
const ewaldCache = new Map<string, { tabF: Real; tabV: Real }>();

/** The Ewald correction tables (V and F per point, EWALD_TABLE_SCALE points per nm up to rc), built once per precision, beta and rc. */
function ewaldTables(beta: number, rc: number, precision: Precision): { tabF: Real; tabV: Real } {
  const key = `${precision} ${beta} ${rc}`;
  let t = ewaldCache.get(key);
  if (!t) {
    const Arr = precision === 'f64' ? Float64Array : Float32Array;
    const scale = EWALD_TABLE_SCALE[precision];
    const nt = Math.floor(rc * scale) + 2;
    t = { tabF: new Arr(nt), tabV: new Arr(nt) };
    for (let k = 0; k < nt; k++) {
      const [gV, gF] = ewaldCorrection(beta, k / scale);
      t.tabV[k] = gV;
      t.tabF[k] = gF;
    }
    // A few settings per process at most; bounded all the same.
    if (ewaldCache.size >= 16) ewaldCache.clear();
    ewaldCache.set(key, t);
  }
  return t;
}

/** m's value for k, made and kept on first use. */
function cachedIn<K, V>(m: Map<K, V>, k: K, make: () => V): V {
  let v = m.get(k);
  if (v === undefined) {
    v = make();
    m.set(k, v);
  }
  return v;
}

/** ljAtoms() per topology: the engine's searches share the type array and LJ types, only positions change. */
const ljCache = new WeakMap<Int32Array, { ljTypes: MdSystem['ljTypes']; nbfp: MdSystem['nbfp']; lj: boolean[] }>();

/** ljAtoms(sys), computed once per type array, LJ types and C6/C12 table. */
function ljFlags(sys: MdSystem): boolean[] {
  const hit = ljCache.get(sys.type);
  if (hit && hit.ljTypes === sys.ljTypes && hit.nbfp === sys.nbfp) return hit.lj;
  const lj = ljAtoms(sys);
  ljCache.set(sys.type, { ljTypes: sys.ljTypes, nbfp: sys.nbfp, lj });
  return lj;
}

/**
 * A non-bonded problem ready for the kernels: cluster layout and pair list of one shape (M x N), packed inputs
 * per precision, and the post-processing of kernel outputs. Throws when rlist is not below half the smallest box
 * edge.
 */
export class MdProblem {
  /** The atoms in M x N clusters. */
  readonly layout: ClusterLayout;
  /** The cluster-pair list (half, or full when asked) within rlist. */
  readonly list: PairList;
  /** Constants derived from the settings (derive()). */
  readonly d: Derived;
  private packed = new Map<Precision, Omit<MdArgs, 'f' | 'energy' | 'fshift'>>();
  private packedParticles = new Map<Precision, Pick<MdArgs, 'xq' | 'type' | 'ljp'>>();

  constructor(
    /** The system (positions in nm, charges in e). */
    readonly sys: MdSystem,
    /** The interaction settings. */
    readonly settings: MdSettings,
    M: number,
    N: number,
    /** Pair-list radius (nm, >= settings.rc; default rc). */
    readonly rlist = settings.rc,
    /**
     * full: hold a full list (each ordered pair once, runtime/md/fulllist.ts) for the `list: full`
     * variants; columnOrder: memory order of the grid columns (data orderings, seed 004); cluster:
     * the clustering's passes on worker threads (same layout); split:
     * search column ranges on worker threads (same list), joined into `join` where given (the
     * list is then overwritten two searches later); orderHint: an earlier layout's atomOf
     * of the same atoms, which makes the clustering's sorts cheaper (same layout).
     */
    opts: { full?: boolean; columnOrder?: ClusterOptions['columnOrder']; cluster?: ClusterSplit; split?: ColumnSplit; join?: ListBuffers; orderHint?: Int32Array; meanwhile?: (p: MdProblem) => void } = {},
  ) {
    this.d = derive(settings);
    this.layout = buildClusters(sys, M, N, { columnOrder: opts.columnOrder, ljFirst: ljFlags(sys), orderHint: opts.orderHint, shared: opts.split !== undefined, split: opts.cluster });
    // meanwhile: work on the layout alone (the particles' packing, say), done while worker threads search.
    const meanwhile = opts.meanwhile;
    const half = buildPairList(sys, this.layout, rlist, { split: opts.split, join: opts.join, meanwhile: meanwhile && (() => meanwhile(this)) });
    this.list = opts.full ? toFullList(half, this.layout) : half;
  }

  /** Inputs of the kernels in one precision (cached). */
  args(precision: Precision): Omit<MdArgs, 'f' | 'energy' | 'fshift'> {
    return cachedIn(this.packed, precision, () => this.pack(precision));
  }

  /**
   * The particles in one precision as the kernels read them (cached): coordinates and scaled
   * charges (4 per slot), LJ types, LJ parameters (2 per slot). Needs the layout only (not the
   * list), so it can be made during a split search (the constructor's `meanwhile`).
   */
  particles(precision: Precision): Pick<MdArgs, 'xq' | 'type' | 'ljp'> {
    return cachedIn(this.packedParticles, precision, () => this.packParticles(precision));
  }

  private packParticles(precision: Precision): Pick<MdArgs, 'xq' | 'type' | 'ljp'> {
    const Arr = precision === 'f64' ? Float64Array : Float32Array;
    const { layout: L, sys, d, settings: s } = this;
    const np = L.nPadded;
    const xq = new Arr(4 * np);
    const type = new Int32Array(np);
    const ljp = new Arr(2 * np);
    const sq = Math.sqrt(d.epsfac);
    // Per-atom LJ parameters from a per-type table (the same values, computed once per type).
    const ljT = new Float64Array(2 * sys.ljTypes.length);
    sys.ljTypes.forEach((t, k) => {
      if (s.comb === 'lb') {
        ljT[2 * k] = t.sigma / 2;
        ljT[2 * k + 1] = Math.sqrt(4 * t.epsilon);
      } else {
        ljT[2 * k] = Math.sqrt(4 * t.epsilon * t.sigma ** 6);
        ljT[2 * k + 1] = Math.sqrt(4 * t.epsilon * t.sigma ** 12);
      }
    });
    const { x: lx, atomOf } = L;
    const { q, type: typeOf } = sys;
    for (let p = 0; p < np; p++) {
      xq[4 * p] = lx[3 * p]!;
      xq[4 * p + 1] = lx[3 * p + 1]!;
      xq[4 * p + 2] = lx[3 * p + 2]!;
      const a = atomOf[p]!;
      if (a < 0) continue;
      xq[4 * p + 3] = q[a]! * sq;
      const ty = typeOf[a]!;
      type[p] = ty;
      ljp[2 * p] = ljT[2 * ty]!;
      ljp[2 * p + 1] = ljT[2 * ty + 1]!;
    }
    return { xq, type, ljp };
  }

  private pack(precision: Precision): Omit<MdArgs, 'f' | 'energy' | 'fshift'> {
    const Arr = precision === 'f64' ? Float64Array : Float32Array;
    const { sys, d, settings: s } = this;
    const params: MdParams = {
      rc2: d.rc2,
      sh6: d.sh6,
      sh12: d.sh12,
      krf: d.krf,
      crf: d.crf,
      beta: d.beta,
      shEwald: d.shEwald,
      tabF: new Arr(0),
      tabV: new Arr(0),
      tabScale: EWALD_TABLE_SCALE[precision],
    };
    if (d.beta > 0) {
      const t = ewaldTables(d.beta, s.rc, precision);
      params.tabF = t.tabF;
      params.tabV = t.tabV;
    }
    return {
      ...this.particles(precision),
      nbfp: Arr.from(tableC6C12(sys)),
      ntype: sys.ljTypes.length,
      ci: this.list.ci,
      cj: this.list.cj,
      excl: this.list.excl,
      shiftVec: Arr.from(this.list.shiftVec),
      params,
    };
  }

  /** Fresh zeroed outputs for one kernel call. */
  outputs(precision: Precision): {
    /** Forces per padded slot, 3 each (kJ/mol/nm). */
    f: Real;
    /** V_LJ and V_Coulomb (kJ/mol). */
    energy: Float64Array;
    /** Shift forces per periodic shift, 3 each, for the virial. */
    fshift: Float64Array;
  } {
    const Arr = precision === 'f64' ? Float64Array : Float32Array;
    return { f: new Arr(3 * this.layout.nPadded), energy: new Float64Array(2), fshift: new Float64Array(27 * 3) };
  }

  /** Atom forces, energies (+ self term) and virial from kernel outputs. */
  finish(precision: Precision, out: { f: Real; energy: Float64Array; fshift: Float64Array }): MdResult {
    const L = this.layout;
    const n = this.sys.q.length;
    const f = new Float64Array(3 * n);
    for (let a = 0; a < n; a++) {
      const p = L.slotOf[a]!;
      f[3 * a] = out.f[3 * p]!;
      f[3 * a + 1] = out.f[3 * p + 1]!;
      f[3 * a + 2] = out.f[3 * p + 2]!;
    }
    // Virial from shift forces: -1/2 (sum_p x_p (x) F_p + sum_s shift_s (x) fshift_s), with x as the kernel saw it.
    const xq = this.args(precision).xq;
    const virial = new Float64Array(9);
    for (let p = 0; p < L.nPadded; p++) {
      if (L.atomOf[p]! < 0) continue;
      for (let a = 0; a < 3; a++) for (let b = 0; b < 3; b++) virial[3 * a + b] -= 0.5 * xq[4 * p + a]! * out.f[3 * p + b]!;
    }
    const sv = this.list.shiftVec;
    for (let s = 0; s < 27; s++) {
      for (let a = 0; a < 3; a++) for (let b = 0; b < 3; b++) virial[3 * a + b] -= 0.5 * sv[3 * s + a]! * out.fshift[3 * s + b]!;
    }
    return { f, vdw: out.energy[0]!, coul: out.energy[1]! + selfEnergy(this.sys, this.settings, this.d), virial };
  }
}
