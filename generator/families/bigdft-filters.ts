// The BigDFT filters as the bigdft-conv generator uses them (data/bigdft/filters.json through
// runtime/data.ts): the one owner of the filter type of the family's render contexts (TypeScript,
// WGSL, wasm, gpu.js).
import { RAW_FILTERS, FILTERS_FILE } from '../../runtime/data.ts';

/** A filter: coefficient k multiplies x[(i + k + offset) mod n]. */
export interface Filter {
  taps: number;
  offset: number;
  coefficients: number[];
}

export const FILTER_KEYS = { magic: 'magicFilter', 'magic-t': 'magicFilterTransposed', kinetic: 'secondDerivative' } as const;
export type FilterName = keyof typeof FILTER_KEYS;

let filterCache: Record<FilterName, Filter> | undefined;
/** The three filters of filters.json, decimal strings parsed to the nearest double. */
export function filters(): Record<FilterName, Filter> {
  if (!filterCache) {
    const raw = RAW_FILTERS;
    const one = (k: string): Filter => {
      const r = raw[k];
      if (!r || r.coefficients.length !== r.taps) throw new Error(`${FILTERS_FILE}: filter ${k} missing or with a wrong tap count`);
      // The wrap table and the split loops assume the output point lies under the filter.
      if (r.lowestOffset > 0 || r.lowestOffset <= -r.taps) throw new Error(`${FILTERS_FILE}: filter ${k} has lowestOffset ${r.lowestOffset} outside (-taps, 0]`);
      return { taps: r.taps, offset: r.lowestOffset, coefficients: r.coefficients.map(Number) };
    };
    filterCache = { magic: one(FILTER_KEYS.magic), 'magic-t': one(FILTER_KEYS['magic-t']), kinetic: one(FILTER_KEYS.kinetic) };
  }
  return filterCache;
}
