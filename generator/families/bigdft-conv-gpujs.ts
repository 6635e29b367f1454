// Render context of the bigdft-conv gpu.js variants: one gpu.js thread per output point of a
// transposing 1-D pass, y[i*m + j] = sum_k f[k] x[j*n + b(i + k + off)], the taps unrolled with
// the coefficients as literals. wrap `table`: every tap wraps (periodic) or is masked (free);
// `split`: threads whose taps all lie inside the line take direct indices, the others wrap.
import type { Variant } from '../space.ts';
import type { Filter } from './bigdft-filters.ts';

/** A JavaScript literal that gpu.js reads as a float (a decimal point or exponent with one). */
function floatLiteral(v: number): string {
  const s = Object.is(v, -0) ? '0' : String(v);
  if (s.includes('.')) return s;
  return s.includes('e') ? s.replace('e', '.0e') : `${s}.0`;
}

/** i + k written without a `+ -`. */
const plus = (e: string, k: number): string => (k === 0 ? e : k > 0 ? `${e} + ${k}` : `${e} - ${-k}`);

export function gpujsContext(v: Variant, f: Filter, name: string): Record<string, unknown> {
  return {
    filter: name,
    taps: f.taps,
    offset: f.offset,
    kinetic: name === 'kinetic',
    free: v.boundary === 'free',
    split: v.wrap === 'split',
    // split: i in [lo, n - hi) reads positions i + offset .. i + offset + taps - 1, all in [0, n)
    lo: -f.offset,
    hi: f.taps - 1 + f.offset,
    tapList: f.coefficients.map((c, k) => ({ k, lit: floatLiteral(c), pos: plus('i', k + f.offset) })),
  };
}
