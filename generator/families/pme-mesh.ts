// Render context of the pme-mesh family (issue 15): PME charge spreading and force gathering.
// The order p is fixed per variant, so the B-spline recursion (Essmann et al. 1995, eq. 4.1) is
// written out as straight-line code for each target's syntax: level k's weights M_k(w + j),
// j = 0..k-1, from level k-1's, then the derivatives M_p'(w + j) = M_{p-1}(w + j) - M_{p-1}(w + j - 1).
// On the CPU the grid is padded by the order, so a charge in cell c reaches padded points
// c .. c + p - 1 with weights W[a] = M_p(w + p - 1 - a) (no periodic wrap in the inner loops);
// WGSL works on the periodic grid and reads M_p(w + j) at point c - j.
import { SpecError, type Spec } from '../spec.ts';
import type { Variant } from '../space.ts';
import type { FamilyModule } from './types.ts';

const AXES = ['target', 'order', 'precision'];

function validate(spec: Spec): void {
  for (const a of AXES) {
    if (!spec.axes.some((x) => x.name === a)) throw new SpecError(spec.file, spec.where(['axes']), 'axes', `pme-mesh needs an axis "${a}"`);
  }
  const check = (axis: string, ok: (v: unknown) => boolean, allowed: string): void => {
    const ax = spec.axes.find((a) => a.name === axis);
    ax?.values.forEach((v, i) => {
      if (!ok(v)) throw new SpecError(spec.file, spec.where(['axes', axis, 'values', i]), `axes.${axis}.values.${i}`, `"${v}" is not allowed; allowed: ${allowed}`);
    });
  };
  check('target', (v) => v === 'ts' || v === 'wasm' || v === 'wgsl', 'ts, wasm, wgsl');
  check('order', (v) => Number.isInteger(v) && (v as number) >= 3 && (v as number) <= 12, 'integers 3 to 12');
  check('precision', (v) => v === 'f32' || v === 'f64', 'f32, f64');
  check('unroll', (v) => v === 'full' || v === 'loop', 'full, loop');
  check('tile', (v) => Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 64, 'integers 0 to 64 (0 = atoms as given)');
  check('workgroup', (v) => Number.isInteger(v) && (v as number) >= 1 && (v as number) <= 256, 'integers 1 to 256');
  check('split', (v) => Number.isInteger(v) && (v as number) >= 1 && (v as number) <= 8, 'integers 1 to 8');
}

type Lang = 'ts' | 'wgsl' | 'wat';

/** A number literal of the target: WGSL floats need a decimal point. */
function lit(x: number, lang: Lang): string {
  const s = String(x);
  if (lang === 'wat') return `(f64.const ${s})`;
  return lang === 'wgsl' && !/[.e]/.test(s) ? `${s}.0` : s;
}

/**
 * Straight-line B-spline weights of order p for one dimension: statements defining
 * `${d}M${j}` = M_p(w + j) and, with deriv, `${d}D${j}` = M_p'(w + j), j = 0..p-1, where w is the
 * variable `w` names (a local of the target). ts: const; wgsl: let; wat: local.set of f64 locals
 * (their names are in `locals`).
 */
function splineCode(p: number, d: string, w: string, lang: Lang, deriv: boolean): { lines: string[]; locals: string[] } {
  const lines: string[] = [];
  const locals: string[] = [];
  const name = (k: number, j: number): string => `${d}${k}_${j}`;
  const get = (v: string): string => (lang === 'wat' ? `(local.get $${v})` : v);
  const def = (v: string, e: string): void => {
    locals.push(v);
    if (lang === 'ts') lines.push(`const ${v} = ${e};`);
    else if (lang === 'wgsl') lines.push(`let ${v} = ${e};`);
    else lines.push(`(local.set $${v} ${e})`);
  };
  const mul = (a: string, b: string): string => (lang === 'wat' ? `(f64.mul ${a} ${b})` : `${a} * ${b}`);
  const add = (a: string, b: string): string => (lang === 'wat' ? `(f64.add ${a} ${b})` : `(${a} + ${b})`);
  const sub = (a: string, b: string): string => (lang === 'wat' ? `(f64.sub ${a} ${b})` : `(${a} - ${b})`);
  def(name(2, 0), get(w));
  def(name(2, 1), sub(lit(1, lang), get(w)));
  for (let k = 3; k <= p; k++) {
    const div = 1 / (k - 1);
    for (let j = 0; j < k; j++) {
      // M_k(w + j) = ((w + j) M_{k-1}(w + j) + (k - j - w) M_{k-1}(w + j - 1)) / (k - 1)
      const terms: string[] = [];
      if (j < k - 1) terms.push(mul(j === 0 ? get(w) : add(get(w), lit(j, lang)), get(name(k - 1, j))));
      if (j > 0) terms.push(mul(sub(lit(k - j, lang), get(w)), get(name(k - 1, j - 1))));
      const sum = terms.length === 2 ? (lang === 'wat' ? `(f64.add ${terms[0]} ${terms[1]})` : `${terms[0]} + ${terms[1]}`) : terms[0]!;
      def(name(k, j), lang === 'wat' ? `(f64.mul ${lit(div, lang)} ${sum})` : `${lit(div, lang)} * (${sum})`);
    }
  }
  for (let j = 0; j < p; j++) def(`${d}M${j}`, get(name(p, j)));
  if (deriv) {
    for (let j = 0; j < p; j++) {
      const a = j < p - 1 ? get(name(p - 1, j)) : lit(0, lang);
      const e = j === 0 ? a : j < p - 1 ? sub(a, get(name(p - 1, j - 1))) : lang === 'wat' ? `(f64.neg ${get(name(p - 1, j - 1))})` : `-${name(p - 1, j - 1)}`;
      def(`${d}D${j}`, e);
    }
  }
  return { lines, locals };
}

function context(spec: Spec, v: Variant): Record<string, unknown> {
  const P = Number(v.order);
  const target = String(v.target);
  const lang: Lang = target === 'ts' ? 'ts' : target === 'wgsl' ? 'wgsl' : 'wat';
  const split = Number(v.split ?? 1);
  if (target === 'wgsl' && (v.workgroup === undefined || v.split === undefined)) {
    throw new SpecError(spec.file, spec.where(['axes']), 'axes', 'WGSL pme-mesh variants need the workgroup and split axes');
  }
  const splines = (deriv: boolean): { lines: string[]; locals: string[] } => {
    const parts = ['x', 'y', 'z'].map((d) => splineCode(P, d, `w${d}`, lang, deriv));
    return { lines: parts.flatMap((s) => s.lines), locals: parts.flatMap((s) => s.locals) };
  };
  const spread = splines(false);
  const gather = splines(true);
  // CPU: padded point c + a takes W[a] = M_p(w + p - 1 - a) and its derivative.
  // wasm: the z run of p points as ceil(p/2) f64x2 vectors (an odd p pads the last with a zero weight).
  // f32: the run as ceil(p/4) f32x4 vectors (the lanes past p take zero weights); the weights are
  // computed in f64 and rounded to f32 as the vectors are made.
  const f64 = v.precision === 'f64';
  const lanes = f64 ? 2 : 4;
  const vt = f64 ? 'f64x2' : 'f32x4';
  /** A z vector from the f64 scalars `${s}${P - 1 - a}` of its lanes a (zero past p). */
  const zvec = (k: number, s: string): string => {
    const lane = (l: number): string => {
      const a = lanes * k + l;
      if (a >= P) return f64 ? '(f64.const 0)' : '(f32.const 0)';
      return f64 ? `(local.get $${s}${P - 1 - a})` : `(f32.demote_f64 (local.get $${s}${P - 1 - a}))`;
    };
    let e = `(${vt}.splat ${lane(0)})`;
    for (let l = 1; l < lanes; l++) e = `(${vt}.replace_lane ${l} ${e} ${lane(l)})`;
    return e;
  };
  const vecs = Array.from({ length: Math.ceil(P / lanes) }, (_, k) => ({
    k,
    off: 16 * k,
    first: k === 0,
    wz: zvec(k, 'zM'),
    dz: zvec(k, 'zD'),
  }));
  /** The sum of a vector's lanes as an f64 expression. */
  const hsum = (e: string): string => {
    const ls = Array.from({ length: lanes }, (_, l) => (f64 ? `(f64x2.extract_lane ${l} ${e})` : `(f64.promote_f32 (f32x4.extract_lane ${l} ${e}))`));
    return ls.reduce((acc, x) => `(f64.add ${acc} ${x})`);
  };
  // per offset a: its weight index m, its byte offset in a scratch row, and (for the nested
  // x-then-y loops of the straight-line forms) the inner offsets with the outer one's index
  const row = Array.from({ length: P }, (_, a) => ({ a, m: P - 1 - a, first: a === 0, b8: 8 * a }));
  const offs = row.map((x) => ({ ...x, vecs, inner: row.map((y) => ({ ...y, mx: x.m, vecs })) }));
  const ab = row.flatMap((x) => row.map((y) => ({ a: x.a, b: y.a, mx: x.m, my: y.m, first: x.a === 0 && y.a === 0 })));
  return {
    P,
    P1: P - 1,
    f64,
    /** wasm: the vector type, the grid element's byte shift, a splat of an f64 scalar (open and close), the force sums. */
    vt,
    esh: f64 ? 3 : 2,
    splatOpen: f64 ? '(f64x2.splat ' : '(f32x4.splat (f32.demote_f64 ',
    splatClose: f64 ? ')' : '))',
    sumFx: hsum('(local.get $fxv)'),
    sumFy: hsum('(local.get $fyv)'),
    sumFz: hsum('(local.get $fzv)'),
    arr: v.precision === 'f64' ? 'Float64Array' : 'Float32Array',
    full: (v.unroll ?? 'full') === 'full',
    /** wasm f32 straight-line: the y weights as f32x4 splats per atom, the gather summed over y per x offset before the z weights. */
    f32full: target === 'wasm' && !f64 && (v.unroll ?? 'full') === 'full',
    tile: Number(v.tile ?? 0),
    offs,
    ab,
    vecs,
    /** wasm: grid points of a z run (ceil(p/2) f64x2 or ceil(p/4) f32x4 vectors). */
    zrun: lanes * Math.ceil(P / lanes),
    /** wasm: the FFT's Stockham passes (f64x2 over pairs of lines), forward f<p> and backward b<p> per radix. */
    fft: target === 'wasm' ? [...FFT_RADICES.flatMap((p) => [watPass(p, -1, `f${p}`, f64), watPass(p, 1, `b${p}`, f64)]), ...watFftOps(f64), ...watGridOps(f64)] : [],
    /** wasm scratch: byte offsets of the y weights, the x derivatives and the y derivatives (x weights at 0). */
    scrY: 8 * P,
    scrDx: 16 * P,
    scrDy: 24 * P,
    spreadSplines: spread.lines,
    spreadLocals: spread.locals,
    gatherSplines: gather.lines,
    gatherLocals: gather.locals,
    // WGSL
    workgroup: Number(v.workgroup ?? 0),
    split,
    points: Array.from({ length: split }, (_, i) => ({ i })),
    /** WGSL spread: the z cells an invocation of `split` points walks (p + split - 1). */
    zcells: P + split - 1,
    js: Array.from({ length: P }, (_, j) => ({ j })),
  };
}

/** The radices the wasm variants' FFT passes cover (others run the TypeScript passes). */
export const FFT_RADICES = [2, 3, 4, 5, 7, 11];

/**
 * WAT of one Stockham pass of radix p (direction sgn): out_q = sum_r W^{qr} tw_r v_r over B lines,
 * two at a time (f64x2) or four (f32x4, then two in a last half vector when B % 4 = 2). B is even.
 */
export function watPass(p: number, sgn: number, name: string, f64 = true): string {
  const L: string[] = [];
  const vt = f64 ? 'f64x2' : 'f32x4';
  const e = f64 ? 8 : 4;
  const v = (x: number | string): string => `(v128.const ${vt} ${Array.from({ length: 16 / e }, () => x).join(' ')})`;
  L.push(`  (func (export "${name}") (param $xr i32) (param $xi i32) (param $yr i32) (param $yi i32) (param $B i32) (param $m i32) (param $ns i32) (param $twr i32) (param $twi i32)`);
  L.push('    (local $j i32) (local $k i32) (local $in i32) (local $out i32) (local $ob i32) (local $sB i32) (local $oB i32) (local $Bb i32) (local $t i32) (local $a i32) (local $c i32)');
  for (let r = 1; r < p; r++) L.push(`    (local $wr${r} v128) (local $wi${r} v128)`);
  for (let r = 0; r < p; r++) L.push(`    (local $vr${r} v128) (local $vi${r} v128)`);
  for (let k = 1; k < p; k++) L.push(`    (local $C${k} v128) (local $S${k} v128)`);
  L.push('    (local $tr v128) (local $ti v128) (local $sr v128) (local $si v128)');
  for (let k = 1; k < p; k++) {
    L.push(`    (local.set $C${k} ${v(Math.cos((2 * Math.PI * k) / p))})`);
    L.push(`    (local.set $S${k} ${v(sgn * Math.sin((2 * Math.PI * k) / p))})`);
  }
  L.push(`    (local.set $Bb (i32.shl (local.get $B) (i32.const ${Math.log2(e)})))`);
  L.push('    (local.set $sB (i32.mul (local.get $m) (local.get $Bb)))');
  L.push('    (local.set $oB (i32.mul (local.get $ns) (local.get $Bb)))');
  L.push('    (block $jdone (loop $jl');
  L.push('      (br_if $jdone (i32.ge_u (local.get $j) (local.get $m)))');
  L.push('      (local.set $k (i32.rem_u (local.get $j) (local.get $ns)))');
  L.push('      (local.set $in (i32.mul (local.get $j) (local.get $Bb)))');
  L.push(`      (local.set $out (i32.mul (i32.add (i32.mul (i32.sub (local.get $j) (local.get $k)) (i32.const ${p})) (local.get $k)) (local.get $Bb)))`);
  L.push(`      (local.set $t (i32.shl (i32.mul (local.get $k) (i32.const ${p - 1})) (i32.const ${Math.log2(e)})))`);
  for (let r = 1; r < p; r++) {
    L.push(`      (local.set $wr${r} (v128.load${8 * e}_splat offset=${e * (r - 1)} (i32.add (local.get $twr) (local.get $t))))`);
    L.push(`      (local.set $wi${r} (v128.load${8 * e}_splat offset=${e * (r - 1)} (i32.add (local.get $twi) (local.get $t))))`);
  }
  // one step of the b loop: 16 bytes of lines (whole vectors) or, for f32, the last 8 (two lines)
  const step = (tw: boolean, half: boolean): void => {
    const load = (addr: string): string => (half ? `(v128.load64_zero ${addr})` : `(v128.load ${addr})`);
    const store = (addr: string, x: string): string => (half ? `(v128.store64_lane 0 ${addr} ${x})` : `(v128.store ${addr} ${x})`);
    L.push('        (local.set $a (i32.add (local.get $in) (local.get $ob)))');
    L.push(`        (local.set $vr0 ${load('(i32.add (local.get $xr) (local.get $a))')})`);
    L.push(`        (local.set $vi0 ${load('(i32.add (local.get $xi) (local.get $a))')})`);
    for (let r = 1; r < p; r++) {
      L.push('        (local.set $a (i32.add (local.get $a) (local.get $sB)))');
      L.push(`        (local.set $tr ${load('(i32.add (local.get $xr) (local.get $a))')})`);
      L.push(`        (local.set $ti ${load('(i32.add (local.get $xi) (local.get $a))')})`);
      if (tw) {
        L.push(`        (local.set $vr${r} (${vt}.sub (${vt}.mul (local.get $tr) (local.get $wr${r})) (${vt}.mul (local.get $ti) (local.get $wi${r}))))`);
        L.push(`        (local.set $vi${r} (${vt}.add (${vt}.mul (local.get $tr) (local.get $wi${r})) (${vt}.mul (local.get $ti) (local.get $wr${r}))))`);
      } else {
        L.push(`        (local.set $vr${r} (local.get $tr))`);
        L.push(`        (local.set $vi${r} (local.get $ti))`);
      }
    }
    L.push('        (local.set $c (i32.add (local.get $out) (local.get $ob)))');
    if (p % 2 === 1) {
      // odd p: pair r with p - r (W^{q(p-r)} is the conjugate of W^{qr}), half the multiplies:
      // out_q = v_0 + sum_{r <= (p-1)/2} (C (v_r + v_{p-r}) + i S (v_r - v_{p-r}))
      const h = (p - 1) / 2;
      for (let r = 1; r <= h; r++) {
        L.push(`        (local.set $tr (${vt}.add (local.get $vr${r}) (local.get $vr${p - r})))`);
        L.push(`        (local.set $vr${p - r} (${vt}.sub (local.get $vr${r}) (local.get $vr${p - r})))`);
        L.push(`        (local.set $vr${r} (local.get $tr))`);
        L.push(`        (local.set $ti (${vt}.add (local.get $vi${r}) (local.get $vi${p - r})))`);
        L.push(`        (local.set $vi${p - r} (${vt}.sub (local.get $vi${r}) (local.get $vi${p - r})))`);
        L.push(`        (local.set $vi${r} (local.get $ti))`);
      }
      // now vr_r, vi_r (r <= h) hold the sums, vr_{p-r}, vi_{p-r} the differences
      for (let q = 0; q < p; q++) {
        let sr = '(local.get $vr0)';
        let si = '(local.get $vi0)';
        for (let r = 1; r <= h; r++) {
          const k = (q * r) % p;
          if (k === 0) {
            sr = `(${vt}.add ${sr} (local.get $vr${r}))`;
            si = `(${vt}.add ${si} (local.get $vi${r}))`;
          } else {
            sr = `(${vt}.add ${sr} (${vt}.sub (${vt}.mul (local.get $vr${r}) (local.get $C${k})) (${vt}.mul (local.get $vi${p - r}) (local.get $S${k}))))`;
            si = `(${vt}.add ${si} (${vt}.add (${vt}.mul (local.get $vr${p - r}) (local.get $S${k})) (${vt}.mul (local.get $vi${r}) (local.get $C${k}))))`;
          }
        }
        L.push(`        ${store('(i32.add (local.get $yr) (local.get $c))', sr)}`);
        L.push(`        ${store('(i32.add (local.get $yi) (local.get $c))', si)}`);
        if (q < p - 1) L.push('        (local.set $c (i32.add (local.get $c) (local.get $oB)))');
      }
    } else {
      // even p (2, 4): W^k is +-1 or +-i, so every term is an add or a subtract (no multiply by
      // cos = 6e-17 or sin = 1.2e-16 where the exact value is 0)
      const exact = (x: number): number => (Math.abs(x) < 1e-12 ? 0 : Math.abs(Math.abs(x) - 1) < 1e-12 ? Math.sign(x) : x);
      // acc + f * v for an exact f of 0, 1 or -1 (others multiply by the constant's local)
      const axpy = (acc: string, f: number, x: string, local: string): string =>
        f === 0 ? acc : f === 1 ? `(${vt}.add ${acc} ${x})` : f === -1 ? `(${vt}.sub ${acc} ${x})` : `(${vt}.add ${acc} (${vt}.mul ${x} (local.get ${local})))`;
      for (let q = 0; q < p; q++) {
        let sr = '(local.get $vr0)';
        let si = '(local.get $vi0)';
        for (let r = 1; r < p; r++) {
          const k = (q * r) % p;
          const c = k === 0 ? 1 : exact(Math.cos((2 * Math.PI * k) / p));
          const sn = k === 0 ? 0 : exact(sgn * Math.sin((2 * Math.PI * k) / p));
          if (c !== 0 && sn !== 0 && Math.abs(c) !== 1 && Math.abs(sn) !== 1) {
            sr = `(${vt}.add ${sr} (${vt}.sub (${vt}.mul (local.get $vr${r}) (local.get $C${k})) (${vt}.mul (local.get $vi${r}) (local.get $S${k}))))`;
            si = `(${vt}.add ${si} (${vt}.add (${vt}.mul (local.get $vr${r}) (local.get $S${k})) (${vt}.mul (local.get $vi${r}) (local.get $C${k}))))`;
            continue;
          }
          // real: c vr - s vi; imaginary: s vr + c vi
          sr = axpy(axpy(sr, c, `(local.get $vr${r})`, `$C${k}`), -sn, `(local.get $vi${r})`, `$S${k}`);
          si = axpy(axpy(si, sn, `(local.get $vr${r})`, `$S${k}`), c, `(local.get $vi${r})`, `$C${k}`);
        }
        L.push(`        ${store('(i32.add (local.get $yr) (local.get $c))', sr)}`);
        L.push(`        ${store('(i32.add (local.get $yi) (local.get $c))', si)}`);
        if (q < p - 1) L.push('        (local.set $c (i32.add (local.get $c) (local.get $oB)))');
      }
    }
  };
  // the b loop twice: for k = 0 (every j of the first pass, 1/ns of the others) the twiddles are
  // 1 and the loop skips their multiplies
  const bLoop = (tw: boolean): void => {
    const s = tw ? 1 : 0;
    L.push('      (local.set $ob (i32.const 0))');
    L.push(`      (block $bdone${s} (loop $bl${s}`);
    L.push(`        (br_if $bdone${s} (i32.gt_u (i32.add (local.get $ob) (i32.const 16)) (local.get $Bb)))`);
    step(tw, false);
    L.push('        (local.set $ob (i32.add (local.get $ob) (i32.const 16)))');
    L.push(`        (br $bl${s})))`);
    if (!f64) {
      L.push('      (if (i32.lt_u (local.get $ob) (local.get $Bb)) (then');
      step(tw, true);
      L.push('      ))');
    }
  };
  L.push('      (if (i32.eqz (local.get $k)) (then');
  bLoop(false);
  L.push('      ) (else');
  bLoop(true);
  L.push('      ))');
  L.push('      (local.set $j (i32.add (local.get $j) (i32.const 1)))');
  L.push('      (br $jl)))');
  L.push('  )');
  return L.join('\n');
}

/**
 * WAT of the 3-D real FFT's data moves between its line transforms and of the solve's product
 * with the influence function (runtime/pme/fft.ts RealFft3d and WasmFftOps, reference.ts
 * PmeSolver) in the variant's precision, 16 bytes at a time (an f32 run of even length ends with
 * 8), with the same operations in the same order as their TypeScript loops (so the same numbers:
 * each TypeScript expression rounds once to the array's precision):
 * - xsplit: the x transform's packed lines Z = A + iC (h lines, [nx][h]) into the half spectra of
 *   A and C ([nxc][B], A in lines 0..h-1, C in h..2h-1): A(k) = (Z(k) + conj Z(-k))/2,
 *   C(k) = (Z(k) - conj Z(-k))/(2i);
 * - xjoin: its inverse for the backward transform: the planes kx >= nxc are the conjugates of
 *   nx - kx, and Z = A + iC;
 * - tp: the transpose dst[c][r] = src[r][c] of real and imaginary parts (rows x cols, both even),
 *   in 2 x 2 blocks;
 * - scale: re[k] *= g[k], im[k] *= g[k] for k < n (n even).
 * h must be even (the runtime checks; other shapes run the TypeScript loops).
 */
export function watFftOps(f64 = true): string[] {
  const vt = f64 ? 'f64x2' : 'f32x4';
  const e = f64 ? 8 : 4;
  const sh = Math.log2(e);
  const half = `(v128.const ${vt} ${f64 ? '0.5 0.5' : '0.5 0.5 0.5 0.5'})`;
  const mhalf = `(v128.const ${vt} ${f64 ? '-0.5 -0.5' : '-0.5 -0.5 -0.5 -0.5'})`;
  // a loop over the bytes [0, $end) of a run in 16-byte steps, then (f32) the last 8: body(ld, st)
  // gets the load and store of the step's width; $b is the byte offset in the run
  const run = (label: string, end: string, body: (ld: (a: string) => string, st: (a: string, x: string) => string) => string[], ind: string): string[] => {
    const full = body((a) => `(v128.load ${a})`, (a, x) => `(v128.store ${a} ${x})`);
    const tail = body((a) => `(v128.load64_zero ${a})`, (a, x) => `(v128.store64_lane 0 ${a} ${x})`);
    return [
      `${ind}(local.set $b (i32.const 0))`,
      `${ind}(block $${label}done (loop $${label}l`,
      `${ind}  (br_if $${label}done (i32.gt_u (i32.add (local.get $b) (i32.const 16)) (local.get ${end})))`,
      ...full.map((l) => `${ind}  ${l}`),
      `${ind}  (local.set $b (i32.add (local.get $b) (i32.const 16)))`,
      `${ind}  (br $${label}l)))`,
      ...(f64 ? [] : [`${ind}(if (i32.lt_u (local.get $b) (local.get ${end})) (then`, ...tail.map((l) => `${ind}  ${l}`), `${ind}))`]),
    ];
  };
  const at = (base: string, off: string): string => `(i32.add (local.get ${base}) (i32.add (local.get ${off}) (local.get $b)))`;
  const xsplit = [
    '  (func (export "xsplit") (param $ar i32) (param $ai i32) (param $tr i32) (param $ti i32) (param $nx i32) (param $nxc i32) (param $h i32) (param $B i32)',
    '    (local $kx i32) (local $zk i32) (local $zn i32) (local $o i32) (local $oh i32) (local $b i32) (local $hb i32)',
    '    (local $zr v128) (local $zi v128) (local $wr v128) (local $wi v128)',
    `    (local.set $hb (i32.shl (local.get $h) (i32.const ${sh})))`,
    '    (block $kdone (loop $kl',
    '      (br_if $kdone (i32.ge_u (local.get $kx) (local.get $nxc)))',
    '      (local.set $zk (i32.mul (local.get $kx) (local.get $hb)))',
    '      (local.set $zn (i32.mul (select (i32.const 0) (i32.sub (local.get $nx) (local.get $kx)) (i32.eqz (local.get $kx))) (local.get $hb)))',
    `      (local.set $o (i32.shl (i32.mul (local.get $kx) (local.get $B)) (i32.const ${sh})))`,
    '      (local.set $oh (i32.add (local.get $o) (local.get $hb)))',
    ...run('b', '$hb', (ld, st) => [
      `(local.set $zr ${ld(at('$ar', '$zk'))})`,
      `(local.set $zi ${ld(at('$ai', '$zk'))})`,
      `(local.set $wr ${ld(at('$ar', '$zn'))})`,
      `(local.set $wi (${vt}.neg ${ld(at('$ai', '$zn'))}))`,
      st(at('$tr', '$o'), `(${vt}.mul ${half} (${vt}.add (local.get $zr) (local.get $wr)))`),
      st(at('$ti', '$o'), `(${vt}.mul ${half} (${vt}.add (local.get $zi) (local.get $wi)))`),
      st(at('$tr', '$oh'), `(${vt}.mul ${half} (${vt}.sub (local.get $zi) (local.get $wi)))`),
      st(at('$ti', '$oh'), `(${vt}.mul ${mhalf} (${vt}.sub (local.get $zr) (local.get $wr)))`),
    ], '      '),
    '      (local.set $kx (i32.add (local.get $kx) (i32.const 1)))',
    '      (br $kl)))',
    '  )',
  ].join('\n');
  const join = (conj: boolean): string[] => run(conj ? 'c' : 'd', '$hb', (ld, st) => [
    `(local.set $aR ${ld(at('$tr', '$src'))})`,
    `(local.set $aI ${conj ? `(${vt}.neg ${ld(at('$ti', '$src'))})` : ld(at('$ti', '$src'))})`,
    `(local.set $cR ${ld(at('$tr', '$srch'))})`,
    `(local.set $cI ${conj ? `(${vt}.neg ${ld(at('$ti', '$srch'))})` : ld(at('$ti', '$srch'))})`,
    st(at('$ar', '$dst'), `(${vt}.sub (local.get $aR) (local.get $cI))`),
    st(at('$ai', '$dst'), `(${vt}.add (local.get $aI) (local.get $cR))`),
  ], '        ');
  const xjoin = [
    '  (func (export "xjoin") (param $tr i32) (param $ti i32) (param $ar i32) (param $ai i32) (param $nx i32) (param $nxc i32) (param $h i32) (param $B i32)',
    '    (local $kx i32) (local $src i32) (local $srch i32) (local $dst i32) (local $b i32) (local $hb i32)',
    '    (local $aR v128) (local $aI v128) (local $cR v128) (local $cI v128)',
    `    (local.set $hb (i32.shl (local.get $h) (i32.const ${sh})))`,
    '    (block $kdone (loop $kl',
    '      (br_if $kdone (i32.ge_u (local.get $kx) (local.get $nx)))',
    `      (local.set $src (i32.shl (i32.mul (select (i32.sub (local.get $nx) (local.get $kx)) (local.get $kx) (i32.ge_u (local.get $kx) (local.get $nxc))) (local.get $B)) (i32.const ${sh})))`,
    '      (local.set $srch (i32.add (local.get $src) (local.get $hb)))',
    '      (local.set $dst (i32.mul (local.get $kx) (local.get $hb)))',
    '      (if (i32.ge_u (local.get $kx) (local.get $nxc)) (then',
    ...join(true),
    '      ) (else',
    ...join(false),
    '      ))',
    '      (local.set $kx (i32.add (local.get $kx) (i32.const 1)))',
    '      (br $kl)))',
    '  )',
  ].join('\n');
  // 2 x 2 blocks: rows r, r+1 at columns c, c+1 become rows c, c+1 at columns r, r+1 (16 bytes
  // per row pair in f64, 8 in f32)
  const bytes = (from: number): string => Array.from({ length: e }, (_, i) => from + i).join(' ');
  const rest = (n: number): string => Array.from({ length: 16 - 2 * e }, () => n).join(' ');
  const lo = f64 ? `${bytes(0)} ${bytes(16)}` : `${bytes(0)} ${bytes(16)} ${rest(0)}`;
  const hi = f64 ? `${bytes(8)} ${bytes(24)}` : `${bytes(4)} ${bytes(20)} ${rest(0)}`;
  const ldPair = f64 ? 'v128.load' : 'v128.load64_zero';
  const stPair = (a: string, x: string): string => (f64 ? `(v128.store ${a} ${x})` : `(v128.store64_lane 0 ${a} ${x})`);
  const block = (s: string, d: string): string[] => [
    `          (local.set $x0 (${ldPair} (i32.add (local.get ${s}) (local.get $ia))))`,
    `          (local.set $x1 (${ldPair} (i32.add (local.get ${s}) (local.get $ib))))`,
    `          ${stPair(`(i32.add (local.get ${d}) (local.get $oa))`, `(i8x16.shuffle ${lo} (local.get $x0) (local.get $x1))`)}`,
    `          ${stPair(`(i32.add (local.get ${d}) (local.get $ob))`, `(i8x16.shuffle ${hi} (local.get $x0) (local.get $x1))`)}`,
  ];
  const tp = [
    '  (func (export "tp") (param $sr i32) (param $si i32) (param $dr i32) (param $di i32) (param $rows i32) (param $cols i32)',
    '    (local $r i32) (local $c i32) (local $ia i32) (local $ib i32) (local $oa i32) (local $ob i32) (local $rb i32) (local $cb i32) (local $x0 v128) (local $x1 v128)',
    `    (local.set $rb (i32.shl (local.get $rows) (i32.const ${sh})))`,
    `    (local.set $cb (i32.shl (local.get $cols) (i32.const ${sh})))`,
    '    (block $rdone (loop $rl',
    '      (br_if $rdone (i32.ge_u (local.get $r) (local.get $rows)))',
    '      (local.set $ia (i32.mul (local.get $r) (local.get $cb)))',
    `      (local.set $oa (i32.shl (local.get $r) (i32.const ${sh})))`,
    '      (local.set $c (i32.const 0))',
    '      (block $cdone (loop $cl',
    '        (br_if $cdone (i32.ge_u (local.get $c) (local.get $cols)))',
    '          (local.set $ib (i32.add (local.get $ia) (local.get $cb)))',
    '          (local.set $ob (i32.add (local.get $oa) (local.get $rb)))',
    ...block('$sr', '$dr'),
    ...block('$si', '$di'),
    `        (local.set $ia (i32.add (local.get $ia) (i32.const ${2 * e})))`,
    '        (local.set $oa (i32.add (local.get $oa) (i32.shl (local.get $rb) (i32.const 1))))',
    '        (local.set $c (i32.add (local.get $c) (i32.const 2)))',
    '        (br $cl)))',
    '      (local.set $r (i32.add (local.get $r) (i32.const 2)))',
    '      (br $rl)))',
    '  )',
  ].join('\n');
  const scale = [
    '  (func (export "scale") (param $re i32) (param $im i32) (param $g i32) (param $n i32)',
    '    (local $b i32) (local $nb i32) (local $w v128) (local $zero i32)',
    `    (local.set $nb (i32.shl (local.get $n) (i32.const ${sh})))`,
    ...run('s', '$nb', (ld, st) => [
      `(local.set $w ${ld(at('$g', '$zero'))})`,
      st(at('$re', '$zero'), `(${vt}.mul ${ld(at('$re', '$zero'))} (local.get $w))`),
      st(at('$im', '$zero'), `(${vt}.mul ${ld(at('$im', '$zero'))} (local.get $w))`),
    ], '    '),
    '  )',
  ].join('\n');
  return [xsplit, xjoin, tp, scale];
}

/**
 * WAT of the mesh's layout work around the spread and gather kernels (runtime/pme/layout.ts
 * cellsAndFractions, fold and unfold; runtime/pme/targets.ts runs these where the periodic grid
 * lies in the module's memory), with the same operations in the same order as those TypeScript
 * functions, so the same numbers:
 * - cells: per atom and dimension u = n (x/L - floor(x/L)), the cell floor(u) (n - 1 at most)
 *   and the fraction u - floor(u);
 * - fold: the padded grid summed onto the periodic grid of the same precision (zeroed first),
 *   the z runs two points at a time, then the wrapped points;
 * - unfold: the periodic grid copied onto the padded one.
 * The padded point a of an axis is the periodic point a - (p - 1) modulo n (p the order).
 */
export function watGridOps(f64: boolean): string[] {
  const ln = (xs: string[]): string => xs.join('\n');
  const e = f64 ? 8 : 4;
  const ft = f64 ? 'f64' : 'f32';
  const sh = Math.log2(e);
  const dim = (d: string, k: number): string[] => [
    `      (local.set $s (f64.div (f64.load offset=${8 * k} (local.get $xa)) (local.get $l${d})))`,
    '      (local.set $s (f64.sub (local.get $s) (f64.floor (local.get $s))))',
    `      (local.set $u (f64.mul (local.get $s) (f64.convert_i32_s (local.get $n${d}))))`,
    '      (local.set $c (f64.floor (local.get $u)))',
    `      (f64.store offset=${8 * k} (local.get $fa) (f64.sub (local.get $u) (local.get $c)))`,
    '      (local.set $ci (i32.trunc_f64_s (local.get $c)))',
    `      (i32.store offset=${4 * k} (local.get $ca) (select (i32.sub (local.get $ci) (local.get $n${d})) (local.get $ci) (i32.ge_s (local.get $ci) (local.get $n${d}))))`,
  ];
  const cells = ln([
    '  (func (export "cells") (param $xP i32) (param $n i32) (param $cellP i32) (param $fracP i32) (param $lx f64) (param $ly f64) (param $lz f64) (param $nx i32) (param $ny i32) (param $nz i32)',
    '    (local $i i32) (local $xa i32) (local $fa i32) (local $ca i32) (local $s f64) (local $u f64) (local $c f64) (local $ci i32)',
    '    (local.set $xa (local.get $xP))',
    '    (local.set $fa (local.get $fracP))',
    '    (local.set $ca (local.get $cellP))',
    '    (block $done (loop $l',
    '      (br_if $done (i32.ge_u (local.get $i) (local.get $n)))',
    ...dim('x', 0),
    ...dim('y', 1),
    ...dim('z', 2),
    '      (local.set $xa (i32.add (local.get $xa) (i32.const 24)))',
    '      (local.set $fa (i32.add (local.get $fa) (i32.const 24)))',
    '      (local.set $ca (i32.add (local.get $ca) (i32.const 12)))',
    '      (local.set $i (i32.add (local.get $i) (i32.const 1)))',
    '      (br $l)))',
    '  )',
  ]);
  // the periodic index of padded point $v of an axis of n points: v - p1, then into [0, n)
  const wrap = (v: string, n: string, out: string): string[] => [
    `      (local.set ${out} (i32.sub (local.get ${v}) (local.get $p1)))`,
    `      (if (i32.lt_s (local.get ${out}) (i32.const 0)) (then (local.set ${out} (i32.add (local.get ${out}) (local.get ${n})))))`,
    `      (if (i32.ge_s (local.get ${out}) (local.get ${n})) (then (local.set ${out} (i32.sub (local.get ${out}) (local.get ${n})))))`,
  ];
  // the loops over padded rows (a, b): $src the padded row's first point (bytes), $dst the periodic row's
  const rows = (body: string[]): string[] => [
    '    (local.set $px (i32.add (local.get $nx) (local.get $p1)))',
    '    (local.set $py (i32.add (local.get $ny) (local.get $p1)))',
    '    (local.set $a (i32.const 0))',
    '    (block $adone (loop $al',
    '      (br_if $adone (i32.ge_u (local.get $a) (local.get $px)))',
    ...wrap('$a', '$nx', '$ma'),
    '      (local.set $b (i32.const 0))',
    '      (block $bdone (loop $bl',
    '      (br_if $bdone (i32.ge_u (local.get $b) (local.get $py)))',
    ...wrap('$b', '$ny', '$mb'),
    `      (local.set $src (i32.add (local.get $padP) (i32.mul (i32.mul (i32.add (i32.mul (local.get $a) (local.get $py)) (local.get $b)) (local.get $pz)) (i32.const ${e}))))`,
    `      (local.set $dst (i32.add (local.get $gridP) (i32.shl (i32.mul (i32.add (i32.mul (local.get $ma) (local.get $ny)) (local.get $mb)) (local.get $nz)) (i32.const ${sh}))))`,
    ...body,
    '      (local.set $b (i32.add (local.get $b) (i32.const 1)))',
    '      (br $bl)))',
    '      (local.set $a (i32.add (local.get $a) (i32.const 1)))',
    '      (br $al)))',
  ];
  const params = '(param $padP i32) (param $gridP i32) (param $nx i32) (param $ny i32) (param $nz i32) (param $pz i32) (param $p1 i32)';
  const locals = '    (local $px i32) (local $py i32) (local $a i32) (local $b i32) (local $ma i32) (local $mb i32) (local $src i32) (local $dst i32) (local $c i32) (local $o i32) (local $k i32)';
  // the z points c < p1 and c >= p1 + nz of a padded row, and their periodic point k
  const wraps = (each: string[]): string[] => [
    '      (local.set $c (i32.const 0))',
    '      (block $wdone (loop $wl',
    '        (br_if $wdone (i32.ge_u (local.get $c) (local.get $pz)))',
    '        (if (i32.eq (local.get $c) (local.get $p1)) (then (local.set $c (i32.add (local.get $c) (local.get $nz)))))',
    '        (if (i32.lt_u (local.get $c) (local.get $pz)) (then',
    '          (local.set $k (i32.sub (local.get $c) (local.get $p1)))',
    '          (if (i32.lt_s (local.get $k) (i32.const 0)) (then (local.set $k (i32.add (local.get $k) (local.get $nz)))))',
    '          (if (i32.ge_s (local.get $k) (local.get $nz)) (then (local.set $k (i32.sub (local.get $k) (local.get $nz)))))',
    ...each,
    '        ))',
    '        (local.set $c (i32.add (local.get $c) (i32.const 1)))',
    '        (br $wl)))',
  ];
  // two points: 16 bytes (f64x2) or 8 (the low half of an f32x4)
  const vt = f64 ? 'f64x2' : 'f32x4';
  const pairLoad = (addr: string): string => (f64 ? `(v128.load ${addr})` : `(v128.load64_zero ${addr})`);
  const pairStore = (addr: string, v: string): string => (f64 ? `(v128.store ${addr} ${v})` : `(v128.store64_lane 0 ${addr} ${v})`);
  const at = (base: string, idx: string): string => `(i32.add (local.get ${base}) (i32.shl (local.get ${idx}) (i32.const ${sh})))`;
  const fold = ln([
    `  (func (export "fold") ${params}`,
    locals,
    '    (local.set $o (local.get $gridP))',
    `    (local.set $k (i32.add (local.get $gridP) (i32.shl (i32.mul (i32.mul (local.get $nx) (local.get $ny)) (local.get $nz)) (i32.const ${sh}))))`,
    '    (block $zdone (loop $zl',
    '      (br_if $zdone (i32.ge_u (local.get $o) (local.get $k)))',
    `      (${ft}.store (local.get $o) (${ft}.const 0))`,
    `      (local.set $o (i32.add (local.get $o) (i32.const ${e})))`,
    '      (br $zl)))',
    ...rows([
      // the real points, c = p1 .. p1 + nz - 1 onto 0 .. nz - 1, two at a time
      `      (local.set $o (i32.add (local.get $src) (i32.mul (local.get $p1) (i32.const ${e}))))`,
      '      (local.set $c (i32.const 0))',
      '      (block $mdone (loop $ml',
      '        (br_if $mdone (i32.gt_u (i32.add (local.get $c) (i32.const 2)) (local.get $nz)))',
      `        ${pairStore('(local.get $dst)', `(${vt}.add ${pairLoad('(local.get $dst)')} ${pairLoad('(local.get $o)')})`)}`,
      `        (local.set $o (i32.add (local.get $o) (i32.const ${2 * e})))`,
      `        (local.set $dst (i32.add (local.get $dst) (i32.const ${2 * e})))`,
      '        (local.set $c (i32.add (local.get $c) (i32.const 2)))',
      '        (br $ml)))',
      '      (if (i32.lt_u (local.get $c) (local.get $nz)) (then',
      `        (${ft}.store (local.get $dst) (${ft}.add (${ft}.load (local.get $dst)) (${ft}.load (local.get $o))))))`,
      // back to the row's first periodic point
      `      (local.set $dst (i32.sub (local.get $dst) (i32.shl (local.get $c) (i32.const ${sh}))))`,
      ...wraps([
        `          (local.set $o ${at('$dst', '$k')})`,
        `          (${ft}.store (local.get $o) (${ft}.add (${ft}.load (local.get $o)) (${ft}.load ${at('$src', '$c')})))`,
      ]),
    ]),
    '  )',
  ]);
  const unfold = ln([
    `  (func (export "unfold") ${params}`,
    locals,
    ...rows([
      `      (local.set $o (i32.add (local.get $src) (i32.mul (local.get $p1) (i32.const ${e}))))`,
      '      (local.set $c (i32.const 0))',
      '      (block $mdone (loop $ml',
      '        (br_if $mdone (i32.gt_u (i32.add (local.get $c) (i32.const 2)) (local.get $nz)))',
      `        ${pairStore('(local.get $o)', pairLoad('(local.get $dst)'))}`,
      `        (local.set $o (i32.add (local.get $o) (i32.const ${2 * e})))`,
      `        (local.set $dst (i32.add (local.get $dst) (i32.const ${2 * e})))`,
      '        (local.set $c (i32.add (local.get $c) (i32.const 2)))',
      '        (br $ml)))',
      '      (if (i32.lt_u (local.get $c) (local.get $nz)) (then',
      `        (${ft}.store (local.get $o) (${ft}.load (local.get $dst)))))`,
      `      (local.set $dst (i32.sub (local.get $dst) (i32.shl (local.get $c) (i32.const ${sh}))))`,
      ...wraps([
        `          (${ft}.store ${at('$src', '$c')} (${ft}.load ${at('$dst', '$k')}))`,
      ]),
    ]),
    '  )',
  ]);
  return [cells, fold, unfold];
}

export const pmeMesh: FamilyModule = { family: 'pme-mesh', validate, context };
