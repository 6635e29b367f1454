// The registry of tunable families: one line per family module (each family's tuning module
// lives in its own folder: runtime/<md|gem|bigdft|pme>/family.ts). Extra modules (each exporting
// `family` or a default TuningFamily) can be added without touching this file through the
// environment variable KERNFORGE_TUNE_FAMILIES (comma-separated paths), as the tests do.
import { platform } from '../../platform.ts';
import type { TuningFamily } from '../family.ts';

const BUILTIN: (() => Promise<TuningFamily>)[] = [
  async () => (await import('../../md/family.ts')).family,
  async () => (await import('../../gem/family.ts')).family,
  async () => (await import('../../bigdft/family.ts')).family,
  async () => (await import('../../pme/family.ts')).family,
];

let all: Promise<TuningFamily[]> | undefined;

/** Every registered family, built-in first, then those named in KERNFORGE_TUNE_FAMILIES. */
export function tuningFamilies(): Promise<TuningFamily[]> {
  all ??= (async () => {
    const out = await Promise.all(BUILTIN.map((f) => f()));
    for (const p of (platform().env('KERNFORGE_TUNE_FAMILIES') ?? '').split(',').map((s) => s.trim()).filter(Boolean)) {
      const m = (await platform().importModule(p)) as { family?: TuningFamily; default?: TuningFamily };
      const f = m.family ?? m.default;
      if (!f?.family) throw new Error(`KERNFORGE_TUNE_FAMILIES: ${p} exports no TuningFamily (export const family = ...)`);
      out.push(f);
    }
    return out;
  })();
  return all;
}

/** One family by name (undefined when not registered). */
export async function tuningFamily(name: string): Promise<TuningFamily | undefined> {
  return (await tuningFamilies()).find((f) => f.family === name);
}
