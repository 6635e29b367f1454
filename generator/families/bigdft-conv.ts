// Render context of the bigdft-conv family (seed 002). TypeScript: one of three algorithms
// (direct triple sum, separable passes in place, transposing passes), unrolled over a
// columns x lines block of outputs and over every filter tap; each input value of a block is
// loaded once and feeds every accumulator that needs it, so templates only print the load,
// update and store lists built here. WGSL: one transposing pass per dispatch through a padded
// workgroup buffer (the paper's GPU scheme), the taps unrolled with f32 literals.
import { SpecError, type Spec } from '../spec.ts';
import type { Variant } from '../space.ts';
import { GPUJS_MODES, type FamilyModule } from './types.ts';
import { wasmContext } from './bigdft-conv-wasm.ts';
import { gpujsContext } from './bigdft-conv-gpujs.ts';
import { filters, FILTER_KEYS, type Filter, type FilterName } from './bigdft-filters.ts';

/** Shortest round-trip decimal of a double: the literal reads back as exactly the same value. */
export const tsNumber = (v: number): string => (Object.is(v, -0) ? '0' : String(v));

/** An f32 WGSL literal that reads back as exactly fround(v). */
export function wgslF32(v: number): string {
  const s = String(Math.fround(v));
  const d = /[.e]/.test(s) ? (s.includes('e') && !s.includes('.') ? s.replace('e', '.0e') : s) : `${s}.0`;
  return `${d}f`;
}

const AXES = ['target', 'filter', 'boundary', 'precision', 'algorithm', 'unroll', 'coeffs', 'wrap', 'workgroup', 'outputs'];

function validate(spec: Spec): void {
  for (const a of AXES) {
    if (!spec.axes.some((x) => x.name === a)) throw new SpecError(spec.file, spec.where(['axes']), 'axes', `bigdft-conv needs an axis "${a}"`);
  }
  const check = (axis: string, ok: (v: string) => boolean, allowed: string): void => {
    spec.axes.find((a) => a.name === axis)!.values.forEach((v, i) => {
      if (!ok(String(v))) throw new SpecError(spec.file, spec.where(['axes', axis, 'values', i]), `axes.${axis}.values.${i}`, `"${v}" is not supported; allowed: ${allowed}`);
    });
  };
  check('target', (v) => v === 'ts' || v === 'wgsl' || v === 'wasm' || v === 'gpujs', 'ts, wgsl, wasm, gpujs');
  if (spec.axes.some((a) => a.name === 'mode')) check('mode', (v) => (GPUJS_MODES as readonly string[]).includes(v), GPUJS_MODES.join(', '));
  check('filter', (v) => v in FILTER_KEYS, Object.keys(FILTER_KEYS).join(', '));
  check('boundary', (v) => v === 'periodic' || v === 'free', 'periodic, free');
  check('algorithm', (v) => ['direct', 'separable', 'separable-t'].includes(v), 'direct, separable, separable-t');
  check('coeffs', (v) => v === 'inline' || v === 'array', 'inline, array');
  check('wrap', (v) => v === 'table' || v === 'split', 'table, split');
  check('unroll', (v) => /^([1-9]|1[0-2])x([1-9]|1[0-2])$/.test(v), 'CxL with C, L in 1..12');
  check('workgroup', (v) => {
    const m = /^(\d+)x(\d+)$/.exec(v);
    return !!m && Number(m[1]) >= 1 && Number(m[2]) >= 1 && Number(m[1]) * Number(m[2]) <= 256;
  }, 'LxP with L * P <= 256 invocations');
  check('outputs', (v) => /^[1-8]$/.test(v), 'integers 1 to 8');
}

type Algorithm = 'direct' | 'separable' | 'separable-t';

interface Load {
  v: string;
  expr: string;
  updates: { acc: string; coef: string }[];
}

interface BlockOpts {
  f: Filter;
  C: number;
  L: number;
  /** Index without the table (interior of split loops). */
  direct: boolean;
  free: boolean;
  algorithm: Algorithm;
  kinetic: boolean;
  coef: (k: number) => string;
}

const plus = (e: string, k: number): string => (k === 0 ? e : k > 0 ? `${e} + ${k}` : `${e} - ${-k}`);

/**
 * One unrolled block of C columns x L lines: accumulator declarations, loads with the updates
 * each feeds, and the stores. Line r's base index is r<r> (set by the caller); the block's
 * first position is i.
 */
function block(o: BlockOpts) {
  const { f, C, L, algorithm } = o;
  const strided = algorithm === 'separable';
  const acc = (c: number, r: number): string => (algorithm === 'direct' ? `t${c}_${r}` : `a${c}_${r}`);
  const loads: Load[] = [];
  const prelude: string[] = [];
  if (strided && o.direct) prelude.push('const ip = i * ps;');
  for (let r = 0; r < L; r++) {
    for (let p = 0; p < C + f.taps - 1; p++) {
      const updates = [];
      for (let c = 0; c < C; c++) {
        const k = p - c;
        if (k >= 0 && k < f.taps) updates.push({ acc: acc(c, r), coef: o.coef(k) });
      }
      let expr: string;
      if (o.direct) expr = strided ? `x[r${r} + ip + d${p}]!` : `x[${plus(`r${r} + i`, p + f.offset)}]!`;
      else expr = `x[r${r} + w[${plus('i', p)}]!]!${o.free ? ` * z[${plus('i', p)}]!` : ''}`;
      loads.push({ v: `x${r}_${p}`, expr, updates });
    }
  }
  // The body: each input loaded once and fed to every accumulator that needs it. (Ordering
  // the updates by tap instead, to reuse each coefficient C times, measured the same in V8.)
  const body: string[] = [];
  for (const l of loads) {
    body.push(`const ${l.v} = ${l.expr};`);
    for (const u of l.updates) body.push(`${u.acc} += ${u.coef} * ${l.v};`);
  }
  const stores: string[] = [];
  for (let c = 0; c < C; c++) {
    for (let r = 0; r < L; r++) {
      const a = acc(c, r);
      if (algorithm === 'separable-t') {
        const yi = `${plus('(i', c)}) * m + ${plus('j', r)}`;
        if (o.kinetic) {
          stores.push(`y[${yi}] = yin[${plus(`r${r} + i`, c)}]! + s * ${a};`);
          // x at position i + c is the load p with p + offset = c
          stores.push(`xt[${yi}] = x${r}_${c - f.offset};`);
        } else stores.push(`y[${yi}] = ${a};`);
      } else if (strided) {
        const yi = `r${r} + ${c === 0 ? 'i' : plus('(i', c) + ')'} * ps`;
        stores.push(o.kinetic ? `y[${yi}] = yin[${yi}]! + s * ${a};` : `y[${yi}] = ${a};`);
      } else {
        stores.push(`a${c}_${r} += q${r} * ${a};`);
      }
    }
  }
  return {
    C,
    L,
    lines: Array.from({ length: L }, (_, r) => ({ r })),
    accs: Array.from({ length: C * L }, (_, t) => ({ acc: acc(t % C, Math.floor(t / C)), out: `a${t % C}_${Math.floor(t / C)}` })),
    prelude,
    body,
    stores,
    // direct: the final stores of the block's sums
    outs: Array.from({ length: C * L }, (_, t) => {
      const c = t % C;
      const r = Math.floor(t / C);
      return { stmt: `y[${plus(`(i3 * n2 + ${plus('j', r)}) * n1 + i`, c)}] = a${c}_${r};` };
    }),
  };
}

function tsContext(v: Variant, f: Filter, name: FilterName): Record<string, unknown> {
  const algorithm = String(v.algorithm) as Algorithm;
  const [C, L] = String(v.unroll).split('x').map(Number) as [number, number];
  const inline = v.coeffs === 'inline';
  const coef = (k: number): string => (inline ? `(${tsNumber(f.coefficients[k]!)})` : `F[${k}]!`);
  const split = v.wrap === 'split';
  const free = v.boundary === 'free';
  const kinetic = name === 'kinetic';
  const b = (c: number, l: number, direct: boolean) => block({ f, C: c, L: l, direct, free, algorithm, kinetic, coef });
  // line r's base index: separable lines are strided (group base gb, line stride ls); the
  // transposing pass reads m lines of n points. Direct blocks set r<r> per (k3, k2) instead.
  const base = (r: number): string => (algorithm === 'separable' ? `gb + (${plus('j', r)}) * ls` : `${plus('(j', r)}) * n`);
  const withBase = (blk: ReturnType<typeof block>) => ({ ...blk, lines: blk.lines.map(({ r }) => ({ r, base: base(r) })) });
  return {
    filter: name,
    taps: f.taps,
    offset: f.offset,
    C,
    L,
    arr: v.precision === 'f64' ? 'Float64Array' : 'Float32Array',
    precision: v.precision,
    kinetic,
    free,
    algorithm,
    transposed: algorithm === 'separable-t',
    strided: algorithm === 'separable',
    direct: algorithm === 'direct',
    inline,
    needF: !inline || algorithm === 'direct',
    coefList: f.coefficients.map((c, k) => ({ k, lit: tsNumber(c), last: k === f.taps - 1 })),
    split,
    // Split loops: i in [-offset, n - taps - offset] reads no index outside [0, n).
    interiorLo: -f.offset,
    interiorSpan: f.taps - 1 + f.offset,
    // separable + split: d<p> = (p + offset) * ps, the interior load offsets
    dList: Array.from({ length: C + f.taps - 1 }, (_, p) => ({ p, off: p + f.offset })),
    blocks: {
      main: withBase(b(C, L, split)),
      col: withBase(b(1, L, false)),
      line: withBase(b(C, 1, split)),
      one: withBase(b(1, 1, false)),
    },
  };
}

function wgslContext(v: Variant, f: Filter, name: FilterName): Record<string, unknown> {
  const [WL, WP] = String(v.workgroup).split('x').map(Number) as [number, number];
  const U = Number(v.outputs);
  const TI = WP * U;
  const P = TI + f.taps - 1;
  const S = P % 2 === 1 ? P : P + 1;
  const kinetic = name === 'kinetic';
  return {
    filter: name,
    taps: f.taps,
    offset: f.offset,
    kinetic,
    free: v.boundary === 'free',
    WL,
    WP,
    U,
    TI,
    P,
    S,
    YS: TI % 2 === 1 ? TI : TI + 1,
    // n + offset (>= 0 since n >= taps > -offset): the periodic wrap of position i0 + pos + offset
    // periodic: (i0 + pos + offset) mod n, written as (i0 + pos + n - (-offset)) mod n
    wrapSub: -f.offset,
    outs: Array.from({ length: U }, (_, u) => ({
      u,
      taps: f.coefficients.map((c, k) => ({ k, lit: wgslF32(c) })),
      self: -f.offset,
    })),
  };
}

function context(_spec: Spec, v: Variant): Record<string, unknown> {
  const name = String(v.filter) as FilterName;
  const f = filters()[name];
  if (v.target === 'wasm') return wasmContext(v, f, name);
  if (v.target === 'gpujs') return gpujsContext(v, f, name);
  return v.target === 'wgsl' ? wgslContext(v, f, name) : tsContext(v, f, name);
}

export const bigdftConv: FamilyModule = { family: 'bigdft-conv', validate, context };
