// Running gem-potential variants: the caller's settings become the kernel's params, the
// variant's region and salt are checked against them, and the data is laid out in the
// variant's precision as structure of arrays.
import type { GemArgs } from '../../generated/gem-potential/ts/abi.ts';
import { loadTsModule, variantParams } from '../variants.ts';
import type { GemAtoms, GemVertices } from './io.ts';
import { gemParams, selectRegion, type GemParams, type GemRegion, type GemSettings } from './model.ts';

export type GemPrecision = 'f32' | 'f64';

export interface GemTsModule {
  key: string;
  K: number;
  BLOCK: number;
  kernel(a: GemArgs): void;
}

/** What a variant's key fixes: region, precision, salt. */
export interface GemVariantInfo {
  region: GemRegion;
  precision: GemPrecision;
  salt: 'zero' | 'nonzero';
}

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

/** Errors when a variant cannot compute these settings: wrong region, or salt where the variant folded kappa to 0. */
export function checkVariant(key: string, info: GemVariantInfo, P: GemParams): void {
  const want = selectRegion(P.A, P.p, P.ionRadius);
  if (info.region !== want) throw new Error(`variant ${key} computes region ${info.region}, but A = ${P.A} and p = ${P.p} give region ${want}`);
  if (info.salt === 'zero' && P.kappa !== 0) throw new Error(`variant ${key} has zero salt folded in, but kappa = ${P.kappa}: use a nonzero-salt variant`);
}

export interface GemRunOptions extends GemSettings {
  /** Kernel constants to use as they are (overrides the settings). */
  params?: GemParams;
}

export interface GemRunResult {
  phi: Float64Array;
  params: GemParams;
  region: GemRegion;
}

/** Run one TypeScript variant over all vertices and atoms. */
export async function runGem(key: string, atoms: GemAtoms, vertices: GemVertices, opts: GemRunOptions = {}): Promise<GemRunResult> {
  const info = await gemVariantInfo(key);
  const params = opts.params ?? gemParams(atoms, opts);
  checkVariant(key, info, params);
  const mod = await loadTsModule<GemTsModule>(key);
  const args = gemArgs(atoms, vertices, params, info.precision);
  mod.kernel(args);
  return { phi: Float64Array.from(args.phi), params, region: info.region };
}
