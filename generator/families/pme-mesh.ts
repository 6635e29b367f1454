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
  const vecs = Array.from({ length: Math.ceil(P / 2) }, (_, k) => ({
    k,
    off: 16 * k,
    lo: P - 1 - 2 * k,
    hi: 2 * k + 1 < P ? P - 2 - 2 * k : -1,
    pair: 2 * k + 1 < P,
    first: k === 0,
  }));
  // per offset a: its weight index m, its byte offset in a scratch row, and (for the nested
  // x-then-y loops of the straight-line forms) the inner offsets with the outer one's index
  const row = Array.from({ length: P }, (_, a) => ({ a, m: P - 1 - a, first: a === 0, b8: 8 * a }));
  const offs = row.map((x) => ({ ...x, vecs, inner: row.map((y) => ({ ...y, mx: x.m, vecs })) }));
  const ab = row.flatMap((x) => row.map((y) => ({ a: x.a, b: y.a, mx: x.m, my: y.m, first: x.a === 0 && y.a === 0 })));
  return {
    P,
    P1: P - 1,
    f64: v.precision === 'f64',
    arr: v.precision === 'f64' ? 'Float64Array' : 'Float32Array',
    full: (v.unroll ?? 'full') === 'full',
    tile: Number(v.tile ?? 0),
    offs,
    ab,
    vecs,
    /** wasm: bytes of a padded z run (ceil(p/2) vectors). */
    zrun: 2 * Math.ceil(P / 2),
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

export const pmeMesh: FamilyModule = { family: 'pme-mesh', validate, context };
