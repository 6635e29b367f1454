// Semantic vs tuning axes, read from a family's spec: candidates for a problem are the library
// variants whose semantic axes (what is computed) equal those of a reference key, so only tuning
// axes (how fast) vary, whatever axes the spec grows later.
import { libraryKeys, manifest, variantParams } from '../variants.ts';

const cache = new Map<string, Promise<Set<string>>>();

/** Names of the semantic axes of a family (from its spec). */
export function semanticAxes(family: string): Promise<Set<string>> {
  let p = cache.get(family);
  if (!p) {
    p = (async () => {
      const gen = await import('../../generator/index.ts');
      const path = gen.projectSpecs().find((s: string) => s.endsWith(`/${family}.yaml`));
      if (!path) throw new Error(`no spec for family "${family}"`);
      const spec = gen.loadAndValidate(path);
      return new Set(spec.axes.filter((a: { kind: string }) => a.kind === 'semantic').map((a: { name: string }) => a.name));
    })();
    cache.set(family, p);
  }
  return p;
}

/** The semantic axis values of a key. */
export async function semanticParams(key: string): Promise<Record<string, string | number>> {
  const sem = await semanticAxes(key.split('.')[0]!);
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
  const family = reference.split('.')[0]!;
  if (space === 'full') {
    const gen = await import('../../generator/index.ts');
    const path = gen.projectSpecs().find((s: string) => s.endsWith(`/${family}.yaml`))!;
    const spec = gen.loadAndValidate(path);
    const choices = Object.fromEntries(Object.entries(want).map(([a, v]) => [a, [v]]));
    return gen.expand(spec, choices).map((v: Record<string, string | number>) => gen.variantKey(spec, v)).sort();
  }
  const m = manifest();
  return libraryKeys(family, String(want.target)).filter((k) => {
    const p = m.get(k)!.params;
    return Object.entries(want).every(([a, v]) => String(p[a]) === String(v));
  });
}
