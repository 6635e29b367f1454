// The BigDFT filters for the runtime and the references, from the bundled data/bigdft/filters.json
// (runtime/data.ts). The runtime never imports the generator; both parse the same decimal strings
// to the nearest double.
import { RAW_FILTERS, FILTERS_FILE } from '../data.ts';

/** Filters of the bigdft-conv family, named as on its `filter` axis. */
export type FilterName = 'magic' | 'magic-t' | 'kinetic';

/** Coefficient k multiplies x[(i + k + offset) mod n]. */
export interface Filter {
  /** The filter's name on the family's `filter` axis. */
  name: FilterName;
  /** Number of coefficients; every grid dimension must have at least this many points. */
  taps: number;
  /** The lowest offset (negative: the filter reaches back this many points). */
  offset: number;
  /** The coefficients, from data/bigdft/filters.json (parsed to the nearest double). */
  coefficients: Float64Array;
}

const JSON_KEY: Record<FilterName, string> = { magic: 'magicFilter', 'magic-t': 'magicFilterTransposed', kinetic: 'secondDerivative' };

let cache: Map<FilterName, Filter> | undefined;

/** One filter of filters.json. */
export function filter(name: FilterName): Filter {
  if (!cache) {
    const raw = RAW_FILTERS;
    cache = new Map();
    for (const [n, k] of Object.entries(JSON_KEY) as [FilterName, string][]) {
      const r = raw[k];
      if (!r || r.coefficients.length !== r.taps) throw new Error(`${FILTERS_FILE}: filter ${k} missing or with a wrong tap count`);
      cache.set(n, { name: n, taps: r.taps, offset: r.lowestOffset, coefficients: Float64Array.from(r.coefficients, Number) });
    }
  }
  const f = cache.get(name);
  if (!f) throw new Error(`unknown filter "${name}"; known: ${Object.keys(JSON_KEY).join(', ')}`);
  return f;
}

/** Library-style default keys of the workload (the 8x1 inline table patterns) for a precision. */
export function defaultVariants(precision: 'f64' | 'f32'): { mf: string; mft: string; kin: string } {
  const k = (f: FilterName) => `bigdft-conv.ts.${f}.periodic.${precision}.separable-t.8x1.inline.table`;
  return { mf: k('magic'), mft: k('magic-t'), kin: k('kinetic') };
}

/**
 * The default WebAssembly SIMD keys: f64x2 lines, 2 positions x 2 lines (the fastest measured on
 * the benchmark grid; wider blocks run out of V8's 16 xmm registers). `kernforge tune` may pick others.
 */
export function defaultWasmVariants(): { mf: string; mft: string; kin: string } {
  const k = (f: FilterName) => `bigdft-conv.wasm.${f}.periodic.f64.separable-t.2x2.inline.lines`;
  return { mf: k('magic'), mft: k('magic-t'), kin: k('kinetic') };
}

/** The default WGSL key of a filter (f32): the plain 16x16 tile, one output per invocation, as the paper's GPU scheme. */
export const defaultWgslKey = (f: FilterName): string => `bigdft-conv.wgsl.${f}.periodic.f32.separable-t.16x16.outputs1`;

/** The default WGSL keys (`run bigdft --target wgsl` where the adapter has no tuned winners). */
export function defaultWgslVariants(): { mf: string; mft: string; kin: string } {
  return { mf: defaultWgslKey('magic'), mft: defaultWgslKey('magic-t'), kin: defaultWgslKey('kinetic') };
}
