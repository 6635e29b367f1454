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
    fft: target === 'wasm' ? FFT_RADICES.flatMap((p) => [watPass(p, -1, `f${p}`), watPass(p, 1, `b${p}`)]) : [],
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

/** WAT of one Stockham pass of radix p (direction sgn): out_q = sum_r W^{qr} tw_r v_r over B lines, two at a time. */
export function watPass(p: number, sgn: number, name: string): string {
  const L: string[] = [];
  const v = (x: number | string): string => `(v128.const f64x2 ${x} ${x})`;
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
  L.push('    (local.set $Bb (i32.shl (local.get $B) (i32.const 3)))');
  L.push('    (local.set $sB (i32.mul (local.get $m) (local.get $Bb)))');
  L.push('    (local.set $oB (i32.mul (local.get $ns) (local.get $Bb)))');
  L.push('    (block $jdone (loop $jl');
  L.push('      (br_if $jdone (i32.ge_u (local.get $j) (local.get $m)))');
  L.push('      (local.set $k (i32.rem_u (local.get $j) (local.get $ns)))');
  L.push('      (local.set $in (i32.mul (local.get $j) (local.get $Bb)))');
  L.push(`      (local.set $out (i32.mul (i32.add (i32.mul (i32.sub (local.get $j) (local.get $k)) (i32.const ${p})) (local.get $k)) (local.get $Bb)))`);
  L.push(`      (local.set $t (i32.shl (i32.mul (local.get $k) (i32.const ${p - 1})) (i32.const 3)))`);
  for (let r = 1; r < p; r++) {
    L.push(`      (local.set $wr${r} (v128.load64_splat offset=${8 * (r - 1)} (i32.add (local.get $twr) (local.get $t))))`);
    L.push(`      (local.set $wi${r} (v128.load64_splat offset=${8 * (r - 1)} (i32.add (local.get $twi) (local.get $t))))`);
  }
  // the b loop twice: for k = 0 (every j of the first pass, 1/ns of the others) the twiddles are
  // 1 and the loop skips their multiplies
  const bLoop = (tw: boolean): void => {
    L.push('      (local.set $ob (i32.const 0))');
    L.push(`      (block $bdone${tw ? 1 : 0} (loop $bl${tw ? 1 : 0}`);
    L.push(`        (br_if $bdone${tw ? 1 : 0} (i32.ge_u (local.get $ob) (local.get $Bb)))`);
    L.push('        (local.set $a (i32.add (local.get $in) (local.get $ob)))');
    L.push('        (local.set $vr0 (v128.load (i32.add (local.get $xr) (local.get $a))))');
    L.push('        (local.set $vi0 (v128.load (i32.add (local.get $xi) (local.get $a))))');
    for (let r = 1; r < p; r++) {
      L.push('        (local.set $a (i32.add (local.get $a) (local.get $sB)))');
      L.push('        (local.set $tr (v128.load (i32.add (local.get $xr) (local.get $a))))');
      L.push('        (local.set $ti (v128.load (i32.add (local.get $xi) (local.get $a))))');
      if (tw) {
        L.push(`        (local.set $vr${r} (f64x2.sub (f64x2.mul (local.get $tr) (local.get $wr${r})) (f64x2.mul (local.get $ti) (local.get $wi${r}))))`);
        L.push(`        (local.set $vi${r} (f64x2.add (f64x2.mul (local.get $tr) (local.get $wi${r})) (f64x2.mul (local.get $ti) (local.get $wr${r}))))`);
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
        L.push(`        (local.set $tr (f64x2.add (local.get $vr${r}) (local.get $vr${p - r})))`);
        L.push(`        (local.set $vr${p - r} (f64x2.sub (local.get $vr${r}) (local.get $vr${p - r})))`);
        L.push(`        (local.set $vr${r} (local.get $tr))`);
        L.push(`        (local.set $ti (f64x2.add (local.get $vi${r}) (local.get $vi${p - r})))`);
        L.push(`        (local.set $vi${p - r} (f64x2.sub (local.get $vi${r}) (local.get $vi${p - r})))`);
        L.push(`        (local.set $vi${r} (local.get $ti))`);
      }
      // now vr_r, vi_r (r <= h) hold the sums, vr_{p-r}, vi_{p-r} the differences
      for (let q = 0; q < p; q++) {
        let sr = '(local.get $vr0)';
        let si = '(local.get $vi0)';
        for (let r = 1; r <= h; r++) {
          const k = (q * r) % p;
          if (k === 0) {
            sr = `(f64x2.add ${sr} (local.get $vr${r}))`;
            si = `(f64x2.add ${si} (local.get $vi${r}))`;
          } else {
            sr = `(f64x2.add ${sr} (f64x2.sub (f64x2.mul (local.get $vr${r}) (local.get $C${k})) (f64x2.mul (local.get $vi${p - r}) (local.get $S${k}))))`;
            si = `(f64x2.add ${si} (f64x2.add (f64x2.mul (local.get $vr${p - r}) (local.get $S${k})) (f64x2.mul (local.get $vi${r}) (local.get $C${k}))))`;
          }
        }
        L.push(`        (v128.store (i32.add (local.get $yr) (local.get $c)) ${sr})`);
        L.push(`        (v128.store (i32.add (local.get $yi) (local.get $c)) ${si})`);
        if (q < p - 1) L.push('        (local.set $c (i32.add (local.get $c) (local.get $oB)))');
      }
    } else {
      // even p (2, 4): W^k is +-1 or +-i, so every term is an add or a subtract (no multiply by
      // cos = 6e-17 or sin = 1.2e-16 where the exact value is 0)
      const exact = (x: number): number => (Math.abs(x) < 1e-12 ? 0 : Math.abs(Math.abs(x) - 1) < 1e-12 ? Math.sign(x) : x);
      // acc + f * v for an exact f of 0, 1 or -1 (others multiply by the constant's local)
      const axpy = (acc: string, f: number, v: string, local: string): string =>
        f === 0 ? acc : f === 1 ? `(f64x2.add ${acc} ${v})` : f === -1 ? `(f64x2.sub ${acc} ${v})` : `(f64x2.add ${acc} (f64x2.mul ${v} (local.get ${local})))`;
      for (let q = 0; q < p; q++) {
        let sr = '(local.get $vr0)';
        let si = '(local.get $vi0)';
        for (let r = 1; r < p; r++) {
          const k = (q * r) % p;
          const c = k === 0 ? 1 : exact(Math.cos((2 * Math.PI * k) / p));
          const sn = k === 0 ? 0 : exact(sgn * Math.sin((2 * Math.PI * k) / p));
          if (c !== 0 && sn !== 0 && Math.abs(c) !== 1 && Math.abs(sn) !== 1) {
            sr = `(f64x2.add ${sr} (f64x2.sub (f64x2.mul (local.get $vr${r}) (local.get $C${k})) (f64x2.mul (local.get $vi${r}) (local.get $S${k}))))`;
            si = `(f64x2.add ${si} (f64x2.add (f64x2.mul (local.get $vr${r}) (local.get $S${k})) (f64x2.mul (local.get $vi${r}) (local.get $C${k}))))`;
            continue;
          }
          // real: c vr - s vi; imaginary: s vr + c vi
          sr = axpy(axpy(sr, c, `(local.get $vr${r})`, `$C${k}`), -sn, `(local.get $vi${r})`, `$S${k}`);
          si = axpy(axpy(si, sn, `(local.get $vr${r})`, `$S${k}`), c, `(local.get $vi${r})`, `$C${k}`);
        }
        L.push(`        (v128.store (i32.add (local.get $yr) (local.get $c)) ${sr})`);
        L.push(`        (v128.store (i32.add (local.get $yi) (local.get $c)) ${si})`);
        if (q < p - 1) L.push('        (local.set $c (i32.add (local.get $c) (local.get $oB)))');
      }
    }
    L.push('        (local.set $ob (i32.add (local.get $ob) (i32.const 16)))');
    L.push(`        (br $bl${tw ? 1 : 0})))`);
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

export const pmeMesh: FamilyModule = { family: 'pme-mesh', validate, context };
