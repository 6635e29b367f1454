// Render context of the gem-potential family (seed 003): the region and salt pick the pair
// formula (no branch in the inner loop), the unroll factor gives k vertices their own locals,
// the rsqrt form and the atom block size only change speed. gpu.js variants are one thread per
// vertex, the problem's constants folded on the host, run through the backend named by `mode`.
// wasm variants are WebAssembly SIMD text (f32x4 / f64x2 lanes over vertices or atoms, the
// constants folded on the host as well), assembled to binaries at generate time.
import { SpecError, type Spec } from '../spec.ts';
import type { Variant } from '../space.ts';
import { GPUJS_MODES, type FamilyModule } from './types.ts';

/** The tuned Newton step's factor a as the f32 constant the kernels hold (nrA). */
const NR_A = Math.fround(0.703952253);

const AXES = ['target', 'region', 'precision', 'salt', 'unroll', 'rsqrt', 'block'];

function validate(spec: Spec): void {
  for (const a of AXES) {
    if (!spec.axes.some((x) => x.name === a)) throw new SpecError(spec.file, spec.where(['axes']), 'axes', `gem-potential needs an axis "${a}"`);
  }
  const check = (axis: string, ok: (v: unknown) => boolean, allowed: string): void => {
    spec.axes.find((a) => a.name === axis)!.values.forEach((v, i) => {
      if (!ok(v)) throw new SpecError(spec.file, spec.where(['axes', axis, 'values', i]), `axes.${axis}.values.${i}`, `"${v}" is not allowed; allowed: ${allowed}`);
    });
  };
  check('target', (v) => v === 'ts' || v === 'wgsl' || v === 'gpujs' || v === 'wasm', 'ts, wgsl, gpujs, wasm');
  if (spec.axes.some((a) => a.name === 'mode')) check('mode', (v) => (GPUJS_MODES as readonly string[]).includes(v as string), GPUJS_MODES.join(', '));
  if (spec.axes.some((a) => a.name === 'workgroup')) check('workgroup', (v) => Number.isInteger(v) && (v as number) >= 1 && (v as number) <= 256, 'integers 1 to 256');
  if (spec.axes.some((a) => a.name === 'atoms')) check('atoms', (v) => Number.isInteger(v) && (v as number) >= 1 && (v as number) <= 16, 'integers 1 to 16');
  check('region', (v) => v === 1 || v === 2 || v === 3, '1, 2, 3');
  check('precision', (v) => v === 'f32' || v === 'f64', 'f32, f64');
  check('salt', (v) => v === 'zero' || v === 'nonzero', 'zero, nonzero');
  check('unroll', (v) => Number.isInteger(v) && (v as number) >= 1 && (v as number) <= 16, 'integers 1 to 16');
  check('rsqrt', (v) => v === 'div' || v === 'nr' || v === 'mix', 'div, nr, mix');
  check('block', (v) => Number.isInteger(v) && (v as number) >= 0, 'integers >= 0 (0 = no blocking)');
  if (spec.axes.some((a) => a.name === 'simd')) check('simd', (v) => v === 'simd128' || v === 'relaxed', 'simd128, relaxed');
}

function context(spec: Spec, v: Variant): Record<string, unknown> {
  const K = Number(v.unroll);
  const region = Number(v.region);
  // WGSL: atoms per tile in workgroup memory (0: read from the storage buffer), atoms per inner
  // step held in registers against the K vertices.
  const wg = Number(v.workgroup ?? 0);
  const tile = v.target === 'wgsl' ? Number(v.block) : 0;
  const M = tile > 0 ? Number(v.atoms ?? 1) : 1;
  if (tile > 0 && (tile % wg !== 0 || tile % M !== 0)) {
    throw new SpecError(spec.file, spec.where(['rules']), 'rules', `WGSL tile ${tile} must be a multiple of the workgroup size ${wg} and of atoms ${M}`);
  }
  const newton = v.rsqrt === 'nr' || v.rsqrt === 'mix';
  return {
    K,
    block: Number(v.block),
    blocked: Number(v.block) > 0,
    arr: v.precision === 'f64' ? 'Float64Array' : 'Float32Array',
    r1: region === 1,
    r2: region === 2,
    r3: region === 3,
    salt: v.salt === 'nonzero',
    nr: v.rsqrt === 'nr',
    // wasm: 1/d from the estimate and Newton steps, region 1's g/sqrt(d^2 + h) by sqrt and div
    mix: v.rsqrt === 'mix',
    newton,
    // wasm: the Newton units of the loops with q/d per pair (region 1's at p = 0 and regions 2 and
    // 3, all without salt) take 2/(a^3 sqrt(d^2)), a the tuned step's factor, and scale their sums
    // by a^3/2 after the loop (rsqrt.hbs `folded`, scale.hbs): two multiplies less per vector
    scaled: newton && v.salt !== 'nonzero',
    // wasm: a*b+c as relaxed_madd (relaxed SIMD; fused or not, as the engine does it)
    fma: v.simd === 'relaxed',
    // gpu.js: the backend.
    mode: v.mode ?? '',
    // WebAssembly SIMD: lane type, vector units and constants (false on other targets).
    wasm: v.target === 'wasm' ? wasmContext(spec, v) : false,
    // WGSL: invocations per workgroup (each takes K consecutive vertices).
    workgroup: v.workgroup ?? 0,
    tiled: tile > 0,
    tile,
    M,
    // Tile loads per invocation: tile / workgroup, at these offsets from its local index.
    loads: tile > 0 ? Array.from({ length: tile / wg }, (_, r) => ({ off: r * wg })) : [],
    atomList: Array.from({ length: M }, (_, m) => ({ m })),
    // Per (atom m, vertex u) pair of the register tile: the names of its locals.
    pairs: Array.from({ length: M }, (_, m) => Array.from({ length: K }, (_, u) => {
      const t = `${u}_${m}`;
      return { u, m, aj: `a${m}.xyz`, qj: `a${m}.w`, dv: `dv${t}`, d2: `d2_${t}`, rd: `rd${t}`, dx: `dx${t}`, e2: `e2_${t}`, dp: `dp${t}`, h2: `h2_${t}`, rh: `rh${t}` };
    })).flat(),
    // Per unrolled vertex: its index and the names of its locals.
    uList: Array.from({ length: K }, (_, u) => ({
      u,
      first: u === 0,
      d2: `d2_${u}`,
      rd: `rd${u}`,
      h2: `h2_${u}`,
      rh: `rh${u}`,
      e2: `e2_${u}`,
      re: `re${u}`,
    })),
  };
}

export const gemPotential: FamilyModule = { family: 'gem-potential', validate, context };

/** 1/n! for n = 0..deg, highest first (Horner order of exp's Taylor polynomial). */
const factorials = (deg: number): string[] => {
  const out: string[] = [];
  let f = 1;
  for (let n = 1; n <= deg; n++) f *= n;
  for (let n = deg; n >= 0; n--) {
    out.push(String(1 / f));
    f /= Math.max(n, 1);
  }
  return out;
};

/**
 * The wasm (128-bit SIMD) shape: f32x4 or f64x2 lanes; vector `vertices` holds consecutive
 * vertices in the lanes (unroll / lanes vectors per outer iteration, atoms broadcast), vector
 * `atoms` holds consecutive atoms (unroll vertices broadcast, one horizontal sum per vertex).
 * exp (region 3 with salt) is 2^k times a Taylor polynomial on [-ln2/2, ln2/2], accurate to the
 * lane precision; nr is a bit-level estimate with Moroz et al.'s tuned first Newton step plus
 * one plain step (relative error below 8e-7).
 */
function wasmContext(spec: Spec, v: Variant): Record<string, unknown> {
  const f64 = v.precision === 'f64';
  const lanes = f64 ? 2 : 4;
  const bytes = f64 ? 8 : 4;
  const K = Number(v.unroll);
  const byVertex = (v.vector ?? 'vertices') === 'vertices';
  if (byVertex && K % lanes !== 0) {
    throw new SpecError(spec.file, spec.where(['rules']), 'rules', `wasm vector 'vertices' needs unroll to be a multiple of ${lanes} lanes (got ${K})`);
  }
  const units = byVertex ? K / lanes : K;
  const vt = f64 ? 'f64x2' : 'f32x4';
  /** A constant vector with x in every lane. */
  const vc = (x: string | number): string => `(v128.const ${vt} ${Array(lanes).fill(String(x)).join(' ')})`;
  const ex = f64
    ? { coeffs: factorials(12), hi: 708, lo: -708, ln2hi: '0.6931471803691238', ln2lo: '1.9082149292705877e-10', bias: 1023, mant: 52 }
    : { coeffs: factorials(6), hi: 88, lo: -87, ln2hi: '0.693359375', ln2lo: '-2.12194440e-4', bias: 127, mant: 23 };
  const t = f64 ? 'f64' : 'f32';
  const nr64 = f64 && v.rsqrt === 'nr';
  return {
    f64,
    t,
    /** f64 with rsqrt nr: the estimate from the f32 divider, one f64 Newton step (rsqrt.hbs, qd.hbs, step64.hbs). */
    nr64,
    /** The kernel's parameters in order (func.hbs, and region 1's exported kernel that passes them on). */
    params: [
      ...['i0', 'i1', 'na', 'vxP', 'vyP', 'vzP', 'nxP', 'nyP', 'nzP', 'axP', 'ayP', 'azP', 'aqP', 'phiP'].map((n) => ({ n, t: 'i32' })),
      ...['pp', 'ion', 'kappa', 'g', 'h', 'kc', 'scale', 'phi0'].map((n) => ({ n, t })),
    ],
    vt,
    it: f64 ? 'i64x2' : 'i32x4',
    lanes,
    bytes,
    shift: f64 ? 3 : 2,
    splat: f64 ? 'v128.load64_splat' : 'v128.load32_splat',
    byVertex,
    /** Bytes the atom pointer advances per inner step: one atom (broadcast) or one vector of atoms. */
    atomStep: byVertex ? bytes : 16,
    /**
     * Per unit (a vector of vertices, or one vertex): its index and byte offset in the vertex
     * arrays, and whether a loop with one root per pair takes its 1/sqrt(d^2) by sqrt and div
     * (`oneRootDiv`): always with rsqrt div, never with nr; with mix the odd units do (with two
     * or more units), the even ones take the estimate and Newton steps, so the divider and the
     * multiply-add pipes work side by side.
     */
    units: Array.from({ length: units }, (_, u) => ({
      u,
      off: u * (byVertex ? 16 : bytes),
      oneRootDiv: v.rsqrt === 'div' || (v.rsqrt === 'mix' && u % 2 === 1),
      /**
       * f64 with rsqrt nr, in the loops with one root per pair (qd.hbs): units pair up, the first
       * keeps its d^2 ($d2p) and the second takes both estimates from one f32x4 (`pairs`, the
       * partner's index `p`); a unit left without a partner takes its own estimate (rsqrt.hbs).
       */
      ...(nr64 ? { holds: u % 2 === 0 && u + 1 < units, pairs: u % 2 === 1, p: u - 1 } : {}),
    })),
    /**
     * Axis sums = 2: in the loops with q/d per pair, the divider units' second step of each atom
     * loop iteration sums into its own accumulator ($s<u>b), added to $s<u> after the loop.
     */
    split: v.sums === 2,
    /** Lanes of a vector for the horizontal sum (vector atoms). */
    laneList: Array.from({ length: lanes }, (_, l) => ({ l, first: l === 0 })),
    c: {
      zero: vc(0),
      one: vc(1),
      half: vc(0.5),
      threeHalves: vc(1.5),
      // Moroz, Samotyy, Horyachyy et al.: magic constant and the tuned first Newton step y * a * (b - x y^2)
      nrMagic: '(v128.const i32x4 0x5f1ffff9 0x5f1ffff9 0x5f1ffff9 0x5f1ffff9)',
      nrA: vc('0.703952253'),
      nrB: vc('2.38924456'),
      // The loops that sum q/d (rsqrt.hbs `folded`): the plain step on y = a u is (a^3/2) u (3/a^2 - x u^2)
      // times 2, so a moves out of the loop (a as the f32 constant above holds it).
      // (f64: the estimate y from the f32 divider, the plain step y (3 - x y^2) / 2, the 1/2 after the loop)
      threeFold: f64 ? vc(3) : vc(3 / NR_A ** 2),
      halfFold: f64 ? vc(0.5) : vc(NR_A ** 3 / 2),
      /** f32 ones for the f64 kernels' f32 estimate (rsqrt nr). */
      onef: '(v128.const f32x4 1 1 1 1)',
    },
    exp: {
      hi: vc(ex.hi),
      lo: vc(ex.lo),
      log2e: vc(String(Math.LOG2E)),
      ln2hi: vc(ex.ln2hi),
      ln2lo: vc(ex.ln2lo),
      /** Taylor coefficients 1/n!, highest first: the first starts Horner's scheme, the others are added. */
      first: vc(ex.coeffs[0]!),
      rest: ex.coeffs.slice(1).map((c) => ({ c: vc(c) })),
      bias: ex.bias,
      mant: ex.mant,
    },
  };
}
