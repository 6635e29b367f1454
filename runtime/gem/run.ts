// Running gem-potential variants: the caller's settings become the kernel's params, the
// variant's region and salt are checked against them, and the data is laid out in the
// variant's precision as structure of arrays.
import type { GemArgs } from '../../generated/gem-potential/ts/abi.ts';
import { siblingKey, variantParams } from '../variants.ts';
import { backend } from '../backends/registry.ts';
import type { GemAtoms, GemVertices } from './io.ts';
import { gemParams, selectRegion, type GemParams, type GemRegion, type GemSettings } from './model.ts';
import { Pool, withPool, splitRange, toShared, parseThreads } from '../parallel/pool.ts';

/** Arithmetic precision of a gem-potential variant (the result is always returned as f64). */
export type GemPrecision = 'f32' | 'f64';

/** A generated gem-potential TypeScript variant as loaded. */
export interface GemTsModule {
  /** Canonical variant key. */
  key: string;
  /** Vertices per outer iteration (outer-loop unroll). */
  K: number;
  /** Atoms per cache block (0: no blocking). */
  BLOCK: number;
  /** Write the potential of every vertex into a.phi (kcal/mol/e), summing over all atoms. */
  kernel(a: GemArgs): void;
}

/** What a variant's key fixes: region, precision, salt. */
export interface GemVariantInfo {
  region: GemRegion;
  precision: GemPrecision;
  salt: 'zero' | 'nonzero';
}

/** What a gem-potential key fixes (region, precision, salt); throws for a key of another family or outside the spec. */
export async function gemVariantInfo(key: string): Promise<GemVariantInfo> {
  const p = await variantParams(key);
  if (!key.startsWith('gem-potential.')) throw new Error(`${key} is not a gem-potential variant`);
  return { region: Number(p.region) as GemRegion, precision: p.precision as GemPrecision, salt: p.salt as 'zero' | 'nonzero' };
}

/** Kernel arguments in the given precision (phi zeroed). */
export function gemArgs(atoms: GemAtoms, v: GemVertices, params: GemParams, precision: GemPrecision): GemArgs {
  const arr = (x: Float64Array): Float32Array | Float64Array => (precision === 'f64' ? Float64Array.from(x) : Float32Array.from(x));
  return {
    vx: arr(v.x), vy: arr(v.y), vz: arr(v.z), nx: arr(v.nx), ny: arr(v.ny), nz: arr(v.nz),
    ax: arr(atoms.x), ay: arr(atoms.y), az: arr(atoms.z), aq: arr(atoms.q),
    phi: precision === 'f64' ? new Float64Array(v.n) : new Float32Array(v.n),
    params,
  };
}

/**
 * A tuned winner carried over to the region and salt of a problem: its sibling with those
 * semantic axes, its tuning axes kept. The wasm axis `sums` (rsqrt mix) splits only the loops
 * that take q/d by the divider, which salt leaves none of, so a `sums2` winner carries over to
 * salt as its `sums1` sibling: the kernel `sums2` would be there. Fails (UnknownVariantError) where
 * no sibling is valid.
 */
export async function carryOverGemKey(key: string, region: GemRegion, salt: 'zero' | 'nonzero'): Promise<string> {
  try {
    return await siblingKey(key, { region, salt });
  } catch (e) {
    if (salt === 'nonzero' && Number((await variantParams(key)).sums) === 2) return siblingKey(key, { region, salt, sums: 1 });
    throw e;
  }
}

/** Errors when a variant cannot compute these settings: wrong region, or salt where the variant folded kappa to 0. */
export function checkVariant(key: string, info: GemVariantInfo, P: GemParams): void {
  const want = selectRegion(P.A, P.p, P.ionRadius);
  if (info.region !== want) throw new Error(`variant ${key} computes region ${info.region}, but A = ${P.A} and p = ${P.p} give region ${want}`);
  if (info.salt === 'zero' && P.kappa !== 0) throw new Error(`variant ${key} has zero salt folded in, but kappa = ${P.kappa}: use a nonzero-salt variant`);
}

export interface GemRunOptions extends GemSettings {
  /** Kernel constants to use as they are (overrides the settings). */
  params?: GemParams;
  /** Worker threads (default 1: this thread); the vertices are split between them. */
  threads?: number;
  /** A pool to run on (its size is the thread count; left open). */
  pool?: Pool;
}

/** A GEM run's potentials and the constants used. */
export interface GemRunResult {
  /** Potential per vertex (kcal/mol/e), in vertex order. */
  phi: Float64Array;
  /** The kernel constants used (A, p in Angstrom; kappa in 1/Angstrom). */
  params: GemParams;
  /** The region the variant computes. */
  region: GemRegion;
}

/** Run one TypeScript variant over all vertices and atoms (split over worker threads with opts.threads > 1 or opts.pool). */
export async function runGem(key: string, atoms: GemAtoms, vertices: GemVertices, opts: GemRunOptions = {}): Promise<GemRunResult> {
  const info = await gemVariantInfo(key);
  const params = opts.params ?? gemParams(atoms, opts);
  checkVariant(key, info, params);
  const mod = (await backend('ts').load(key)) as GemTsModule;
  const args = gemArgs(atoms, vertices, params, info.precision);
  const threads = opts.pool ? opts.pool.size : parseThreads(opts.threads ?? 1, 'threads');
  if (opts.pool) await runGemParallel(opts.pool, key, args);
  else if (threads > 1) await withPool(threads, (pool) => runGemParallel(pool, key, args));
  else mod.kernel(args);
  return { phi: Float64Array.from(args.phi), params, region: info.region };
}

/**
 * Move the arrays of kernel arguments onto SharedArrayBuffers (arrays already there are kept),
 * so that runGemParallel's workers read them and write phi in place.
 */
export function shareGemArgs(a: GemArgs): GemArgs {
  return {
    vx: toShared(a.vx), vy: toShared(a.vy), vz: toShared(a.vz), nx: toShared(a.nx), ny: toShared(a.ny), nz: toShared(a.nz),
    ax: toShared(a.ax), ay: toShared(a.ay), az: toShared(a.az), aq: toShared(a.aq), phi: toShared(a.phi), params: a.params,
  };
}

/**
 * The kernel of variant `key` on the pool: the vertices are split into one contiguous chunk per
 * worker (boundaries on multiples of the variant's unroll of 4), each worker runs the variant
 * on its chunk against all atoms. Each potential is computed exactly as by one call over every
 * vertex, so the result is identical bit for bit. Arrays not on SharedArrayBuffers are copied
 * there first and phi copied back into a.phi.
 */
export async function runGemParallel(pool: Pool, key: string, a: GemArgs): Promise<void> {
  const s = shareGemArgs(a);
  const n = s.phi.length;
  const parts = splitRange(n, pool.size, 4);
  await pool.run(parts.map(([v0, v1]) => ({ task: 'gem', args: { key, ...s, v0, v1 } as unknown as Record<string, unknown> })));
  if (s.phi !== a.phi) a.phi.set(s.phi);
}
