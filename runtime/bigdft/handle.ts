// The bigdft-conv handle of open(): one 3-D filter application, and the local Hamiltonian
// (H psi = T psi + MF^T (V . MF psi)), each filter with its tuned winner on whatever target it
// is, every variant verified once per session by the family's gate (runtime/bigdft/verify.ts).
import { ApiInputError, finiteArray, finiteNumber, integer, oneOf, options, show } from '../args.ts';
import type { Choice, Session } from '../session.ts';
import { targetOfKey } from '../session.ts';
import type { FilterName } from './filters.ts';
import type { Boundary, Dims } from './reference.ts';
import { bigdftApiMemory, checkMemory } from '../limits.ts';

const FILTERS: readonly FilterName[] = ['magic', 'magic-t', 'kinetic'];
const BOUNDARIES: readonly Boundary[] = ['periodic', 'free'];
const PRECISIONS = ['f64', 'f32'] as const;

/** Options of BigdftHandle.apply. */
export interface BigdftApplyOptions {
  /** periodic (default) or free (zero outside the grid). */
  boundary?: Boundary;
  /** f64 (default) or f32 (a TypeScript f32 or gpu.js variant). */
  precision?: 'f64' | 'f32';
  /** Grid spacing h (kinetic filter: scale -1/(2h^2) per axis; default 1). */
  h?: number;
  /** A bigdft-conv variant key; default: the tuned winner for the filter, else the documented default. */
  variant?: string;
  /** Worker threads (ts and wasm variants); default: open()'s, else the tuned count, else 1. */
  threads?: number;
}

/** A filter application's result and how it was computed. */
export interface BigdftResult extends Choice {
  /** The output grid, x[(i3*n2 + i2)*n1 + i1]. */
  y: Float64Array;
}

/** The local Hamiltonian applied to psi. */
export interface HamiltonianResult {
  /** H psi on the grid. */
  hpsi: Float64Array;
  /** <psi|T psi> / <psi|psi> and <MF psi|V MF psi> / <psi|psi> (hartree). */
  ekin: number;
  /** Potential energy <MF psi|V MF psi> / <psi|psi> (hartree), V the local potential on the grid. */
  epot: number;
  /** The variant each filter ran with. */
  variants: {
    /** The magic filter (psi to the real-space grid). */
    mf: Choice;
    /** The transposed magic filter (back from the real-space grid). */
    mft: Choice;
    /** The kinetic filter (T psi). */
    kin: Choice;
  };
}

/** BigDFT through open(): `kf.bigdft.apply(filter, field, dims)` and `kf.bigdft.hamiltonian(psi, potential, dims)`. */
export interface BigdftHandle {
  /** One 3-D application of `filter` to `field` on an n1 x n2 x n3 grid (i1 fastest). */
  apply(filter: FilterName, field: ArrayLike<number>, dims: readonly [number, number, number], options?: BigdftApplyOptions): Promise<BigdftResult>;
  /** H psi = T psi + MF^T (V . MF psi) on a periodic grid, with the energies. */
  hamiltonian(psi: ArrayLike<number>, potential: ArrayLike<number>, dims: readonly [number, number, number], options?: Omit<BigdftApplyOptions, 'variant' | 'boundary'>): Promise<HamiltonianResult>;
}

/** Three integers >= 1 whose grid fits the session's memory limit (runtime/limits.ts: ResourceLimitError). */
function checkDims(name: string, dims: unknown, s: Session, call: 'apply' | 'hamiltonian'): Dims {
  if (!Array.isArray(dims) || dims.length !== 3) throw new ApiInputError(`${name}: got ${show(dims)}; allowed: [n1, n2, n3], three integers`);
  const d = dims.map((n, i) => integer(`${name}[${i}]`, n, 1)) as unknown as Dims;
  checkMemory(`${name}: a ${d.join('x')} grid (${d[0] * d[1] * d[2]} points)`, bigdftApiMemory(d, call), s.maxMemory, "open({ maxMemory: '<size>' })", 'a smaller grid');
  return d;
}

/** The variant for one filter: given, tuned (its boundary sibling), or the default of an allowed target. */
async function choose(s: Session, filter: FilterName, o: Partial<BigdftApplyOptions>, where: string): Promise<Choice> {
  const precision = o.precision === undefined ? 'f64' : oneOf(`${where}.precision`, o.precision, PRECISIONS);
  const boundary = o.boundary === undefined ? 'periodic' : oneOf(`${where}.boundary`, o.boundary, BOUNDARIES);
  const { variantParams, siblingKey } = await import('../variants.ts');
  let pick: { key: string; threads?: number; source: Choice['source'] } | undefined;
  if (o.variant !== undefined) {
    if (typeof o.variant !== 'string' || !o.variant.startsWith('bigdft-conv.')) throw new ApiInputError(`${where}.variant: got ${show(o.variant)}; allowed: a bigdft-conv variant key (kernforge list bigdft-conv)`);
    const p = await variantParams(o.variant);
    if (p.filter !== filter) throw new ApiInputError(`${where}.variant: ${o.variant} applies the ${p.filter} filter, not ${filter}`);
    pick = { key: o.variant, source: 'given' };
  } else {
    const t = await s.tunedKey('bigdft-conv', precision === 'f64' ? filter : `${filter}-f32`);
    if (t) {
      try {
        pick = { key: boundary === 'periodic' ? t.key : await siblingKey(t.key, { boundary }), threads: t.threads, source: t.source };
      } catch {
        s.note(`kernforge: the tuned ${t.key} has no ${boundary}-boundary sibling; using the default`);
      }
    }
    if (!pick) {
      const { defaultVariants, defaultWasmVariants } = await import('./filters.ts');
      const byFilter = (v: { mf: string; mft: string; kin: string }) => (filter === 'magic' ? v.mf : filter === 'magic-t' ? v.mft : v.kin);
      let key = precision === 'f64' && s.allows('wasm') && !s.allows('ts') ? byFilter(defaultWasmVariants()) : byFilter(defaultVariants(precision));
      if (!s.allows(await targetOfKey(key))) throw new ApiInputError(`${where}: open({ targets: [${s.targets.join(', ')}] }) allows no target with a ${precision} default; allowed: add ts${precision === 'f64' ? ' or wasm' : ''}, or give a variant`);
      if (boundary !== 'periodic') key = await siblingKey(key, { boundary });
      pick = { key, source: 'default' };
      if (s.tunedPath !== false) s.note(`kernforge: bigdft-conv ${filter} runs the default ${key} (nothing tuned applies; run \`kernforge tune bigdft-conv\`)`);
    }
  }
  const p = await variantParams(pick.key);
  if (p.precision !== precision && o.precision !== undefined) throw new ApiInputError(`${where}.variant: ${pick.key} is ${p.precision}, but precision ${precision} was asked`);
  const target = await targetOfKey(pick.key);
  if (!s.allows(target)) throw new ApiInputError(`${where}.variant: ${pick.key} runs on ${target}; allowed by open(): ${s.targets.join(', ')}`);
  return { key: pick.key, target, threads: await s.threadsFor(target, o.threads, pick.threads), source: pick.source };
}

/** One application of a filter with its variant, verified once per session. */
async function applyOne(s: Session, filter: FilterName, x: ArrayLike<number>, dims: Dims, o: Partial<BigdftApplyOptions>, where: string, c?: Choice): Promise<BigdftResult> {
  const choice = c ?? (await choose(s, filter, o, where));
  const h = o.h === undefined ? 1 : finiteNumber(`${where}.h`, o.h, { min: 0, exclusiveMin: true });
  const { verifyConv } = await import('./verify.ts');
  await s.verifyOnce(choice.key, async () => {
    const r = await verifyConv(choice.key, { h });
    return { ok: r.ok, detail: `max error ${r.maxError.toExponential(2)} > tolerance ${r.tolerance.toExponential(2)} on ${r.dims.join('x')}` };
  });
  // apply3d runs the key on its target's runner (runtime/bigdft/targets.ts)
  const { apply3d } = await import('./apply.ts');
  const y = await apply3d(choice.key, x, dims[0], dims[1], dims[2], { h: [h, h, h], threads: choice.threads });
  return { ...choice, y };
}

/** The BigDFT handle of a session. */
export function bigdftHandle(s: Session): BigdftHandle {
  return {
    async apply(filter, field, dims, opts) {
      s.check('bigdft.apply');
      const f = oneOf('bigdft.apply: filter', filter, FILTERS);
      const d = checkDims('bigdft.apply: dims', dims, s, 'apply');
      finiteArray('bigdft.apply: field', field, d[0] * d[1] * d[2]);
      return applyOne(s, f, field, d, options<BigdftApplyOptions>('bigdft.apply: options', opts), 'bigdft.apply: options');
    },

    async hamiltonian(psi, potential, dims, opts) {
      s.check('bigdft.hamiltonian');
      const d = checkDims('bigdft.hamiltonian: dims', dims, s, 'hamiltonian');
      const n = d[0] * d[1] * d[2];
      finiteArray('bigdft.hamiltonian: psi', psi, n);
      finiteArray('bigdft.hamiltonian: potential', potential, n);
      const o = options<BigdftApplyOptions>('bigdft.hamiltonian: options', opts);
      const where = 'bigdft.hamiltonian: options';
      const [mf, mft, kin] = [await choose(s, 'magic', o, where), await choose(s, 'magic-t', o, where), await choose(s, 'kinetic', o, where)];
      const psir = (await applyOne(s, 'magic', psi, d, o, where, mf)).y;
      let epot = 0;
      for (let i = 0; i < n; i++) {
        const v = potential[i]! * psir[i]!;
        epot += psir[i]! * v;
        psir[i] = v;
      }
      const a = (await applyOne(s, 'magic-t', psir, d, o, where, mft)).y;
      const tpsi = (await applyOne(s, 'kinetic', psi, d, o, where, kin)).y;
      let norm = 0, ekin = 0;
      const hpsi = new Float64Array(n);
      for (let i = 0; i < n; i++) {
        hpsi[i] = a[i]! + tpsi[i]!;
        norm += psi[i]! * psi[i]!;
        ekin += psi[i]! * tpsi[i]!;
      }
      if (!(norm > 0)) throw new ApiInputError('bigdft.hamiltonian: psi is zero everywhere; allowed: a wavefunction with a nonzero norm');
      return { hpsi, ekin: ekin / norm, epot: epot / norm, variants: { mf, mft, kin } };
    },
  };
}
