// The data kernforge ships (data/ at the package root): the bundled molecules of the GEM
// workload and the BigDFT filter coefficients. Nothing of the product reads outside the package.
import filtersJson from '../data/bigdft/filters.json' with { type: 'json' };

/** The folder of the bundled data (data/ at the package root). */
export const DATA_URL = new URL('../data/', import.meta.url);

/** The bundled molecules: GEM's Mb.Hhelix and 1UWO chain A with their MSMS surfaces, and a nucleosome (atoms only). */
export const BUNDLED_MOLECULES = ['mb_hhelix', '1uwo_A', 'nucleosome'] as const;
export type BundledMolecule = (typeof BUNDLED_MOLECULES)[number];

/** Paths of a bundled molecule's .pqr and, when it has one, its MSMS .vert surface. */
export function bundledMolecule(name: BundledMolecule): { pqr: string; vert?: string } {
  const dir = decodeURIComponent(new URL('gem/', DATA_URL).pathname);
  return { pqr: `${dir}${name}.pqr`, vert: name === 'nucleosome' ? undefined : `${dir}${name}.vert` };
}

/** The folder of the bundled molecules (GEM). */
export const GEM_DATA_DIR = decodeURIComponent(new URL('gem/', DATA_URL).pathname);

/** filters.json as parsed: per filter its taps, lowest offset and decimal coefficients. */
export type RawFilters = Record<string, { taps: number; lowestOffset: number; coefficients: string[] }>;
/** The BigDFT filter coefficients (data/bigdft/filters.json). */
export const RAW_FILTERS: RawFilters = filtersJson as unknown as RawFilters;
/** Where RAW_FILTERS came from, for messages. */
export const FILTERS_FILE = 'data/bigdft/filters.json';
