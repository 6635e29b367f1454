// Render context of the bigdft-conv family (seed 002): one transposing 1-D periodic pass,
// unrolled over a columns x lines block of outputs and over every filter tap. Each input
// value of a block is loaded once and feeds every accumulator that needs it, so templates
// only print the load and update lists built here.
import { readFileSync } from 'node:fs';
import { SpecError, type Spec } from '../spec.ts';
import type { Variant } from '../space.ts';
import type { FamilyModule } from './types.ts';

/** shared/ lies beside the repository (CI clones it at ../shared). */
export const FILTERS_URL = new URL('../../../shared/data/bigdft/filters.json', import.meta.url);

/** A filter: coefficient k multiplies x[(i + k + offset) mod n]. */
export interface Filter {
  taps: number;
  offset: number;
  coefficients: number[];
}

const FILTER_KEYS = { magic: 'magicFilter', 'magic-t': 'magicFilterTransposed', kinetic: 'secondDerivative' } as const;
type FilterName = keyof typeof FILTER_KEYS;

let filterCache: Record<FilterName, Filter> | undefined;
/** The three filters of filters.json, decimal strings parsed to the nearest double. */
export function filters(): Record<FilterName, Filter> {
  if (!filterCache) {
    const raw = JSON.parse(readFileSync(FILTERS_URL, 'utf8')) as Record<string, { taps: number; lowestOffset: number; coefficients: string[] }>;
    const one = (k: string): Filter => {
      const r = raw[k];
      if (!r || r.coefficients.length !== r.taps) throw new Error(`${FILTERS_URL.pathname}: filter ${k} missing or with a wrong tap count`);
      // The wrap table and the split loops assume the output point lies under the filter.
      if (r.lowestOffset > 0 || r.lowestOffset <= -r.taps) throw new Error(`${FILTERS_URL.pathname}: filter ${k} has lowestOffset ${r.lowestOffset} outside (-taps, 0]`);
      return { taps: r.taps, offset: r.lowestOffset, coefficients: r.coefficients.map(Number) };
    };
    filterCache = { magic: one(FILTER_KEYS.magic), 'magic-t': one(FILTER_KEYS['magic-t']), kinetic: one(FILTER_KEYS.kinetic) };
  }
  return filterCache;
}

/** Shortest round-trip decimal of a double: the literal reads back as exactly the same value. */
export const tsNumber = (v: number): string => (Object.is(v, -0) ? '0' : String(v));

function validate(spec: Spec): void {
  for (const a of ['target', 'filter', 'precision', 'algorithm', 'unroll', 'coeffs', 'wrap']) {
    if (!spec.axes.some((x) => x.name === a)) throw new SpecError(spec.file, spec.where(['axes']), 'axes', `bigdft-conv needs an axis "${a}"`);
  }
  const check = (axis: string, ok: (v: string) => boolean, allowed: string): void => {
    spec.axes.find((a) => a.name === axis)!.values.forEach((v, i) => {
      if (!ok(String(v))) throw new SpecError(spec.file, spec.where(['axes', axis, 'values', i]), `axes.${axis}.values.${i}`, `"${v}" is not supported; allowed: ${allowed}`);
    });
  };
  check('filter', (v) => v in FILTER_KEYS, Object.keys(FILTER_KEYS).join(', '));
  check('algorithm', (v) => v === 'separable-t', 'separable-t');
  check('coeffs', (v) => v === 'inline' || v === 'array', 'inline, array');
  check('wrap', (v) => v === 'table' || v === 'split', 'table, split');
  check('unroll', (v) => /^([1-9]|1[0-2])x([1-9]|1[0-2])$/.test(v), 'CxL with C, L in 1..12');
}

interface Load {
  v: string;
  r: number;
  idx: string;
  updates: { acc: string; coef: string }[];
}

/** One unrolled block of C columns x L lines; `direct` blocks index without the wrap table. */
function block(f: Filter, C: number, L: number, direct: boolean, coef: (k: number) => string) {
  const acc = (c: number, r: number): string => `a${c}_${r}`;
  const loads: Load[] = [];
  for (let r = 0; r < L; r++) {
    for (let p = 0; p < C + f.taps - 1; p++) {
      const updates = [];
      for (let c = 0; c < C; c++) {
        const k = p - c;
        if (k >= 0 && k < f.taps) updates.push({ acc: acc(c, r), coef: coef(k) });
      }
      loads.push({ v: `x${r}_${p}`, r, idx: direct ? `i + ${p + f.offset}` : `w[i + ${p}]!`, updates });
    }
  }
  const outs = [];
  for (let c = 0; c < C; c++) {
    // x at position i + c is the load p with p + offset = c
    for (let r = 0; r < L; r++) outs.push({ acc: acc(c, r), c, r, self: `x${r}_${c - f.offset}` });
  }
  return {
    C,
    L,
    lines: Array.from({ length: L }, (_, r) => ({ r })),
    accs: outs.map((o) => ({ acc: o.acc })),
    loads,
    outs,
  };
}

function context(_spec: Spec, v: Variant): Record<string, unknown> {
  const name = String(v.filter) as FilterName;
  const f = filters()[name];
  const [C, L] = String(v.unroll).split('x').map(Number) as [number, number];
  const inline = v.coeffs === 'inline';
  const coef = (k: number): string => (inline ? `(${tsNumber(f.coefficients[k]!)})` : `F[${k}]!`);
  const split = v.wrap === 'split';
  return {
    filter: name,
    taps: f.taps,
    offset: f.offset,
    wrapBase: f.offset < 0 ? `n - ${-f.offset}` : `n + ${f.offset}`,
    C,
    L,
    arr: v.precision === 'f64' ? 'Float64Array' : 'Float32Array',
    precision: v.precision,
    kinetic: name === 'kinetic',
    inline,
    coefList: f.coefficients.map((c, k) => ({ k, lit: tsNumber(c), last: k === f.taps - 1 })),
    split,
    // Split loops: i in [-offset, n - taps - offset] reads no wrapped index.
    interiorLo: -f.offset,
    interiorSpan: f.taps - 1 + f.offset,
    blocks: {
      main: block(f, C, L, split, coef),
      col: block(f, 1, L, false, coef),
      line: block(f, C, 1, split, coef),
      one: block(f, 1, 1, false, coef),
    },
  };
}

export const bigdftConv: FamilyModule = { family: 'bigdft-conv', validate, context };
