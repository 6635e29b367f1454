// The data kernforge ships (data/ at the package root): the bundled molecules of the GEM
// workload and the BigDFT filter coefficients. Nothing of the product reads outside the package.
import filtersJson from '../data/bigdft/filters.json' with { type: 'json' };

/** The folder of the bundled data (data/ at the package root). */
// a folder, not an asset for a bundler to copy (@vite-ignore: Vite leaves it to run time)
export const DATA_URL = new URL(/* @vite-ignore */ '../data/', import.meta.url);

/** The bundled molecules: GEM's Mb.Hhelix and 1UWO chain A with their MSMS surfaces, and a nucleosome (atoms only). */
export const BUNDLED_MOLECULES = ['mb_hhelix', '1uwo_A', 'nucleosome'] as const;
/** The name of a bundled molecule (one of BUNDLED_MOLECULES). */
export type BundledMolecule = (typeof BUNDLED_MOLECULES)[number];

/** Paths of a bundled molecule's .pqr and, when it has one, its MSMS .vert surface. */
export function bundledMolecule(name: BundledMolecule): {
  /** Absolute path of the .pqr file (atoms: coordinates in Angstrom, charges, radii). */
  pqr: string;
  /** Absolute path of the MSMS .vert surface; undefined for the nucleosome, which ships atoms only. */
  vert?: string;
} {
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

/**
 * The bundled SPC/E water box: 884 molecules equilibrated with GROMACS (NVT, 300 K; the
 * commands are in the repository's test/fixtures/gromacs/spce/make.sh).
 */
export const BUNDLED_WATER_GRO = decodeURIComponent(new URL('md/spce-884.gro', DATA_URL).pathname);
