// GEM's verification gate: a variant of any target (TypeScript, WebAssembly SIMD, WGSL, gpu.js:
// its target's runner in runtime/gem/targets.ts) is run on a subset of the vertices spread over
// the surface and compared with the f64 reference (runtime/gem/model.ts gemReference), per
// vertex relative to the sum of the magnitudes of its per-atom terms. `kernforge run gem` runs it
// before using a variant; the gem-potential tuning family and `kernforge verify` use the same gate.
import { variantParams } from '../variants.ts';
import type { GemAtoms, GemVertices } from './io.ts';
import { gemReference, pairPotential, type GemParams, type GemRegion } from './model.ts';
import { gemArgs, gemVariantInfo, type GemPrecision, type GemTsModule } from './run.ts';
import { GEM_TARGETS } from './targets.ts';

export interface GemVerification {
  ok: boolean;
  /** Vertices checked. */
  vertices: number;
  /** Worst error as a fraction of the tolerance (<= 1 passes). */
  worst: number;
  /** Largest absolute difference from the f64 reference. */
  maxAbs: number;
  detail: string;
}

/** The vertices `idx` of v. */
function subsetVertices(v: GemVertices, idx: number[]): GemVertices {
  const pick = (a: Float64Array) => Float64Array.from(idx, (i) => a[i]!);
  return { n: idx.length, x: pick(v.x), y: pick(v.y), z: pick(v.z), nx: pick(v.nx), ny: pick(v.ny), nz: pick(v.nz) };
}

/**
 * Tolerance per vertex, relative to the sum of the magnitudes of its per-atom terms (the scale
 * rounding errors grow with, whatever the cancellation between charges): f32 accumulates over all
 * atoms in single precision, f64 in double.
 */
export const GEM_VERIFY_RTOL: Record<GemPrecision, number> = { f32: 5e-6, f64: 1e-11 };

/** `count` vertex indices spread evenly over the surface (every vertex when there are fewer). */
function spreadVertices(n: number, count: number): number[] {
  const m = Math.min(count, n);
  return Array.from({ length: m }, (_, i) => Math.floor((i * n) / m));
}

/**
 * Compare potentials computed on the vertices `idx` of v with the f64 reference there: each
 * vertex within rtol of the sum of the magnitudes of its per-atom terms. NaN or infinity fails.
 */
export function checkGemPotentials(got: ArrayLike<number>, idx: number[], rtol: number, atoms: GemAtoms, v: GemVertices, P: GemParams, region: GemRegion): GemVerification {
  const m = idx.length;
  const sub = subsetVertices(v, idx);
  const ref = gemReference(atoms, sub, P, region);
  let worst = 0, maxAbs = 0, detail = '';
  for (let i = 0; i < m; i++) {
    // The scale: sum over atoms of |term| at this vertex, from the same formula as the reference.
    const px = sub.x[i]! + P.p * sub.nx[i]!, py = sub.y[i]! + P.p * sub.ny[i]!, pz = sub.z[i]! + P.p * sub.nz[i]!;
    const ex = sub.x[i]! + P.ionRadius * sub.nx[i]!, ey = sub.y[i]! + P.ionRadius * sub.ny[i]!, ez = sub.z[i]! + P.ionRadius * sub.nz[i]!;
    let scale = 0;
    for (let j = 0; j < atoms.n; j++) {
      const d = Math.hypot(px - atoms.x[j]!, py - atoms.y[j]!, pz - atoms.z[j]!);
      const dp = Math.hypot(ex - atoms.x[j]!, ey - atoms.y[j]!, ez - atoms.z[j]!);
      scale += Math.abs(pairPotential(region, P, P.qScale * atoms.q[j]!, d, dp));
    }
    const g = got[i]!;
    const err = Math.abs(g - ref[i]!);
    const frac = Number.isFinite(g) ? err / (rtol * scale + Number.MIN_VALUE) : Infinity;
    if (Number.isFinite(err)) maxAbs = Math.max(maxAbs, err);
    if (!(frac <= worst)) {
      worst = frac;
      detail = `vertex ${idx[i]! + 1}: ${g} vs reference ${ref[i]} (|diff| ${err.toExponential(2)}, tolerance ${(rtol * scale).toExponential(2)})`;
    }
  }
  return { ok: worst <= 1, vertices: m, worst, maxAbs, detail };
}

/**
 * Check a loaded variant against the f64 reference on `count` vertices spread evenly over the
 * surface (every vertex when there are fewer). NaN or infinity always fails.
 */
export function verifyGemModule(mod: GemTsModule, precision: GemPrecision, atoms: GemAtoms, v: GemVertices, P: GemParams, region: GemRegion, count = 200): GemVerification {
  const idx = spreadVertices(v.n, count);
  const args = gemArgs(atoms, subsetVertices(v, idx), P, precision);
  mod.kernel(args);
  return checkGemPotentials(args.phi, idx, GEM_VERIFY_RTOL[precision], atoms, v, P, region);
}

/**
 * Check a wasm variant (one run on the `count` spread vertices, this thread) against the f64
 * reference with the tolerance of its precision (f32x4 computes and accumulates in float).
 * `bytes` replaces the variant's binary (tests of the gate).
 */
export async function verifyGemWasm(key: string, atoms: GemAtoms, v: GemVertices, P: GemParams, region: GemRegion, count = 200, bytes?: Uint8Array): Promise<GemVerification> {
  const { runGemWasm } = await import('./wasm.ts');
  const info = await gemVariantInfo(key);
  const idx = spreadVertices(v.n, count);
  const { phi } = await runGemWasm(key, atoms, subsetVertices(v, idx), { params: P, bytes });
  return checkGemPotentials(phi, idx, GEM_VERIFY_RTOL[info.precision], atoms, v, P, region);
}

/**
 * The workload's gate for a key of any target (TS, wasm, WGSL, gpu.js, or any other with a runner
 * in GEM_TARGETS): the variant runs on its target's runner over `count` vertices spread over the
 * surface, and each is compared with the f64 reference, with the tolerance of the precision the
 * runner computes in (WGSL and gpu.js: f32). WGSL computes and accumulates in f32, yet its worst
 * vertex on the bundled molecules (every library variant, region and salt) is at 0.12 of that tolerance.
 */
export async function verifyGemKey(key: string, atoms: GemAtoms, v: GemVertices, P: GemParams, region: GemRegion, count = 200): Promise<GemVerification> {
  const runner = GEM_TARGETS.get(String((await variantParams(key)).target), 'verification');
  const idx = spreadVertices(v.n, count);
  const prep = await runner.prepare(key, atoms, subsetVertices(v, idx), { params: P });
  let phi: Float64Array;
  try {
    await prep.run();
    phi = await prep.result();
  } finally {
    await prep.dispose();
  }
  return checkGemPotentials(phi, idx, GEM_VERIFY_RTOL[prep.precision], atoms, v, P, region);
}
