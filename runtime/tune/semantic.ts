// Semantic vs tuning axes, read from a family's spec: candidates for a problem are the library
// variants whose semantic axes (what is computed) equal those of a reference key, so only tuning
// axes (how fast) vary, whatever axes the spec grows later.
import { keyFamily } from '../keys.ts';
import { familySpec, librarySemanticAxes, libraryKeys, manifest, variantParams } from '../variants.ts';
import { platform } from '../platform.ts';

const cache = new Map<string, Promise<Set<string>>>();

/** Names of the semantic axes of a family (from its spec). */
export function semanticAxes(family: string): Promise<Set<string>> {
  let p = cache.get(family);
  if (!p) {
    // without the generator (a browser platform), from the spec file the library was made from
    p = platform().onDemand ? familySpec(family).then(({ spec }) => new Set(spec.axes.filter((a) => a.kind === 'semantic').map((a) => a.name))) : librarySemanticAxes(family);
    cache.set(family, p);
  }
  return p;
}

/** The semantic axis values of a key. */
export async function semanticParams(key: string): Promise<Record<string, string | number>> {
  const sem = await semanticAxes(keyFamily(key));
  const p = await variantParams(key);
  return Object.fromEntries(Object.entries(p).filter(([a]) => sem.has(a)));
}

/**
 * Variants of the reference key's target whose semantic axes all equal the reference's: from the
 * library (the reference included when it is there), or with space 'full' every valid point of
 * the tuning axes (rules applied), in key order.
 */
export async function sameSemantics(reference: string, space: 'library' | 'full' = 'library'): Promise<string[]> {
  const want = await semanticParams(reference);
  const family = keyFamily(reference);
  // a platform without on-demand generation (a browser) runs library variants only: 'full' is the library there
  if (space === 'full' && platform().onDemand) {
    const { spec, gen } = await familySpec(family);
    const choices = Object.fromEntries(Object.entries(want).map(([a, v]) => [a, [v]]));
    return gen.expand(spec, choices).map((v: Record<string, string | number>) => gen.variantKey(spec, v)).sort();
  }
  const m = manifest();
  return libraryKeys(family, String(want.target)).filter((k) => {
    const p = m.get(k)!.params;
    return Object.entries(want).every(([a, v]) => String(p[a]) === String(v));
  });
}

/**
 * gpu.js variants with the semantic axes of `${stem}.<mode>`, in the given modes only (the mode is
 * a gpu.js key's last axis); none without modes.
 */
export async function inGpujsModes(stem: string, modes: readonly string[] | undefined, space: 'library' | 'full' = 'library'): Promise<string[]> {
  if (!modes?.length) return [];
  return (await sameSemantics(`${stem}.${modes[0]}`, space)).filter((k) => modes.includes(k.slice(k.lastIndexOf('.') + 1)));
}
