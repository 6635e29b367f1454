// The default variants of the local Hamiltonian workload (runtime/bigdft/hamiltonian.ts): per
// filter, the variant tuned on this machine (`kernforge tune bigdft-conv`, carried over to the
// precision), else the library defaults (runtime/bigdft/filters.ts defaultVariants); and the
// thread count the tuned variants won with.
import { siblingKey, variantParams } from '../variants.ts';
import { defaultVariants, defaultWgslVariants, type FilterName } from './filters.ts';

export { defaultVariants, defaultWasmVariants, defaultWgslVariants } from './filters.ts';

/**
 * The default keys of the workload: per filter not given explicitly, the variant tuned on this
 * machine's CPU (kernforge tune bigdft-conv, carried over to the precision), else defaultVariants;
 * `device` 'webgpu': the f32 winners tuned on the WebGPU adapter, else its defaults (the plain
 * 16x16 WGSL tile).
 */
export async function tunedVariants(precision: 'f64' | 'f32', given: { variantMf?: string; variantMft?: string; variantKin?: string } = {}, device: 'cpu' | 'webgpu' = 'cpu'): Promise<{ mf: string; mft: string; kin: string }> {
  const def = device === 'webgpu' ? defaultWgslVariants() : defaultVariants(precision);
  const pick = async (f: FilterName, explicit: string | undefined, fallback: string): Promise<string> => {
    if (explicit) return fallback;
    const t = device === 'webgpu' ? await wgslEntry(f) : await tunedEntry(f, precision, false);
    if (!t.tuned) return fallback;
    try {
      const k = precision === 'f64' ? t.key : await siblingKey(t.key, { precision });
      await variantParams(k); // a key from an older spec (e.g. before the boundary axis) falls back
      return k;
    } catch {
      return fallback;
    }
  };
  return { mf: await pick('magic', given.variantMf, def.mf), mft: await pick('magic-t', given.variantMft, def.mft), kin: await pick('kinetic', given.variantKin, def.kin) };
}

/** The tuned entry of a filter's f32 class on the WebGPU adapter (its fingerprint, else the nearest adapter's). */
async function wgslEntry(f: FilterName) {
  const { loadTuned } = await import('../tune/tuned.ts');
  return loadTuned('bigdft-conv', `${f}-f32`, { device: 'webgpu', load: false, warn: () => {} });
}

/** The tuned entry of a filter: f32, the f32 class's winner (TS or gpu.js), else the f64 class's; `quiet`: no fallback warning. */
async function tunedEntry(f: FilterName, precision: string | undefined, quiet: boolean) {
  const { loadTuned } = await import('../tune/tuned.ts');
  const t = precision === 'f32' ? await loadTuned('bigdft-conv', `${f}-f32`, { load: false, warn: () => {} }) : undefined;
  return t?.tuned ? t : loadTuned('bigdft-conv', f, { load: false, ...(quiet ? { warn: () => {} } : {}) });
}

/** The largest thread count among the tuned filters whose variant the workload takes from tuning (1 when none). */
export async function tunedThreads(given: { precision?: string; variantMf?: string; variantMft?: string; variantKin?: string }): Promise<number> {
  let n = 1;
  for (const [f, explicit] of [['magic', given.variantMf], ['magic-t', given.variantMft], ['kinetic', given.variantKin]] as const) {
    if (explicit) continue;
    const t = await tunedEntry(f, given.precision, true);
    if (t.tuned) n = Math.max(n, t.threads);
  }
  return n;
}
