// Finding and loading generated variants by canonical key. Library variants come from the
// committed bundle and files listed in generated/manifest.json; any other valid point of a
// spec's space is rendered on demand through the generator's narrow renderVariant interface.
// Files are read and the generator reached through the platform (runtime/platform.ts): a platform
// without on-demand generation (a browser) runs library variants only.
import { keyFamily } from './keys.ts';
import { KernforgeError } from './errors.ts';
import { assetPath, platform, type OnDemand } from './platform.ts';

/** The committed kernel library (generated/ at the package root), with a trailing separator. */
export const GENERATED_ROOT = assetPath(new URL(/* @vite-ignore */ '../generated/', import.meta.url));

export interface ManifestEntry {
  key: string;
  family: string;
  target: string;
  params: Record<string, string | number>;
  file: string;
  sha256: string;
}

/** A variant key that names nothing loadable. */
export class UnknownVariantError extends KernforgeError {}

/** The platform's on-demand generation; where there is none, an UnknownVariantError saying `why` it was needed. */
function onDemand(why: string): OnDemand {
  const p = platform();
  if (!p.onDemand) throw new UnknownVariantError(`${why}: variants outside the library cannot be made on the ${p.name} platform`);
  return p.onDemand;
}

let manifestCache: Map<string, ManifestEntry> | undefined;
/** Library variants by key. */
export function manifest(): Map<string, ManifestEntry> {
  if (!manifestCache) {
    const m = JSON.parse(platform().readText(`${GENERATED_ROOT}manifest.json`)) as { variants: ManifestEntry[] };
    manifestCache = new Map(m.variants.map((v) => [v.key, v]));
  }
  return manifestCache;
}

/** Library variants of one family and target, in key order. */
export function libraryKeys(family: string, target?: string): string[] {
  return [...manifest().values()].filter((v) => v.family === family && (!target || v.target === target)).map((v) => v.key).sort();
}

const bundles = new Map<string, Promise<Record<string, unknown>>>();

/** The module of a TypeScript variant: from the library bundle, or rendered and compiled on demand. */
export async function loadTsModule<T>(key: string): Promise<T> {
  const entry = manifest().get(key);
  if (entry) {
    if (entry.target !== 'ts') throw new UnknownVariantError(`variant ${key} is a ${entry.target} variant, not TypeScript`);
    let b = bundles.get(entry.family);
    if (!b) {
      b = platform().importModule(`${GENERATED_ROOT}${entry.family}/ts.bundle.js`) as Promise<Record<string, unknown>>;
      bundles.set(entry.family, b);
    }
    const mod = ((await b).variants as Record<string, T>)[key];
    if (!mod) throw new UnknownVariantError(`variant ${key} is in the manifest but not in the bundle: run kernforge generate`);
    return mod;
  }
  return (await onDemand(`variant ${key} is not in the library`).tsModule(key, async () => {
    const { text, target } = await renderOnDemand(key);
    if (target !== 'ts') throw new UnknownVariantError(`variant ${key} is a ${target} variant, not TypeScript`);
    return text;
  })) as T;
}

/** The source text of a WGSL variant (library file, or rendered on demand). */
export async function wgslSource(key: string): Promise<string> {
  const entry = manifest().get(key);
  if (entry) {
    if (entry.target !== 'wgsl') throw new UnknownVariantError(`variant ${key} is a ${entry.target} variant, not WGSL`);
    return platform().readText(`${GENERATED_ROOT}${entry.file}`);
  }
  const r = await renderOnDemand(key);
  if (r.target !== 'wgsl') throw new UnknownVariantError(`variant ${key} is a ${r.target} variant, not WGSL`);
  return r.text;
}

/** The source text of a gpu.js variant, a JavaScript module (library file, or rendered on demand). */
export async function gpujsSource(key: string): Promise<string> {
  const entry = manifest().get(key);
  if (entry) {
    if (entry.target !== 'gpujs') throw new UnknownVariantError(`variant ${key} is a ${entry.target} variant, not gpu.js`);
    return platform().readText(`${GENERATED_ROOT}${entry.file}`);
  }
  const r = await renderOnDemand(key);
  if (r.target !== 'gpujs') throw new UnknownVariantError(`variant ${key} is a ${r.target} variant, not gpu.js`);
  return r.text;
}

const gpujsModules = new Map<string, Promise<unknown>>();
/**
 * The module of a gpu.js variant, imported from its text (it has no imports of its own; its
 * `kernel` is a gpu.js kernel function). `text` replaces the variant's source (uncached: tests
 * of the gate with a broken kernel).
 */
export function gpujsModule<T>(key: string, text?: string): Promise<T> {
  const load = async (t: string): Promise<T> => (await import(/* @vite-ignore */ /* webpackIgnore: true */ `data:text/javascript,${encodeURIComponent(t)}`)) as T;
  if (text !== undefined) return load(text);
  let m = gpujsModules.get(key);
  if (!m) {
    m = gpujsSource(key).then(load);
    m.catch(() => gpujsModules.delete(key));
    gpujsModules.set(key, m);
  }
  return m as Promise<T>;
}

/**
 * The binary of a WebAssembly variant: the committed .wasm of a library variant, or any other
 * point of the space rendered and assembled on demand (cached per key for the process).
 */
const wasmCache = new Map<string, Promise<Uint8Array>>();
export function wasmBytes(key: string): Promise<Uint8Array> {
  let b = wasmCache.get(key);
  if (!b) {
    b = (async () => {
      const entry = manifest().get(key);
      if (entry) {
        if (entry.target !== 'wasm') throw new UnknownVariantError(`variant ${key} is a ${entry.target} variant, not WebAssembly`);
        return platform().readBytes(`${GENERATED_ROOT}${entry.file}`);
      }
      const r = await renderOnDemand(key);
      if (r.target !== 'wasm') throw new UnknownVariantError(`variant ${key} is a ${r.target} variant, not WebAssembly`);
      const gen = await onDemand(`variant ${key} is not in the library`).generator();
      return gen.assembleWat(`${key}.wat`, r.text);
    })();
    b.catch(() => wasmCache.delete(key));
    wasmCache.set(key, b);
  }
  return b;
}

const compiled = new Map<string, Promise<WebAssembly.Module>>();
/**
 * The compiled module of a WebAssembly variant (wasmBytes, compiled once per key and thread; a
 * compiled module can be posted to workers, which then share the optimized code), or of given
 * `bytes` (uncached: tests of a gate with another build).
 */
export function wasmModule(key: string, bytes?: Uint8Array): Promise<WebAssembly.Module> {
  if (bytes) return WebAssembly.compile(bytes as Uint8Array<ArrayBuffer>);
  let m = compiled.get(key);
  if (!m) {
    const entry = manifest().get(key);
    const p = platform();
    // a platform that compiles from its source (a browser: streaming from the network) gets the library's binaries
    m = entry?.target === 'wasm' && p.compileWasm ? p.compileWasm(`${GENERATED_ROOT}${entry.file}`) : wasmBytes(key).then((b) => WebAssembly.compile(b as Uint8Array<ArrayBuffer>));
    m.catch(() => compiled.delete(key));
    compiled.set(key, m);
  }
  return m;
}

/** Parameters of any valid key (library or not). */
export async function variantParams(key: string): Promise<Record<string, string | number>> {
  const entry = manifest().get(key);
  if (entry) return entry.params;
  const { spec, gen } = await specFor(key);
  try {
    return gen.parseVariantKey(spec, key);
  } catch (e) {
    throw new UnknownVariantError((e as Error).message);
  }
}

const specs = new Map<string, Promise<{ spec: import('../generator/spec.ts').Spec; gen: typeof import('../generator/index.ts') }>>();
/** The project spec of a family, loaded and validated once per process (with the generator module). */
export function familySpec(family: string): Promise<{ spec: import('../generator/spec.ts').Spec; gen: typeof import('../generator/index.ts') }> {
  let p = specs.get(family);
  if (!p) {
    p = (async () => {
      const gen = await onDemand(`${family}: the family's spec is needed`).generator();
      const path = gen.projectSpecs().find((f: string) => f.endsWith(`/${family}.yaml`));
      if (!path) throw new UnknownVariantError(`no spec for family "${family}"`);
      return { spec: gen.loadAndValidate(path), gen };
    })();
    p.catch(() => specs.delete(family));
    specs.set(family, p);
  }
  return p;
}

/** The project specs (specs/ at the package root), with a trailing separator. */
export const SPECS_ROOT = assetPath(new URL(/* @vite-ignore */ '../specs/', import.meta.url));

/**
 * Names of a family's semantic axes, read from its spec file as the library was generated from it
 * (the manifest names the file and its SHA-256, checked here), without the generator: for
 * platforms that have none (a browser), where familySpec cannot run.
 */
export async function librarySemanticAxes(family: string): Promise<Set<string>> {
  const p = platform();
  const m = JSON.parse(p.readText(`${GENERATED_ROOT}manifest.json`)) as { specs?: { family: string; file: string; sha256: string }[] };
  const entry = m.specs?.find((s) => s.family === family);
  if (!entry) throw new UnknownVariantError(`no spec for family "${family}" in the library's manifest`);
  const text = p.readText(`${SPECS_ROOT}${entry.file}`);
  if (p.sha256(text) !== entry.sha256) throw new UnknownVariantError(`specs/${entry.file} is not the spec the library was generated from (its SHA-256 differs from the manifest's): run kernforge generate`);
  const { parse } = await import('yaml');
  const axes = (parse(text) as { axes?: Record<string, { kind?: string }> }).axes ?? {};
  return new Set(Object.entries(axes).filter(([, a]) => a?.kind === 'semantic').map(([n]) => n));
}

function specFor(key: string) {
  return familySpec(keyFamily(key));
}

// The one place the runtime reaches into the generator: rendering a point outside the library.
async function renderOnDemand(key: string): Promise<{ text: string; target: string }> {
  const { spec, gen } = await specFor(key);
  let v;
  try {
    v = gen.parseVariantKey(spec, key);
  } catch (e) {
    throw new UnknownVariantError((e as Error).message);
  }
  return { text: gen.renderVariant(spec, v).text, target: String(v.target) };
}

/**
 * The key of the variant that differs from `key` only in the given axis values (e.g. the
 * energy-computing sibling of a force-only variant). Fails clearly if the result breaks a rule.
 */
export async function siblingKey(key: string, changes: Record<string, string | number>): Promise<string> {
  // A library variant's sibling in the library: found in the manifest, without loading the generator.
  const entry = manifest().get(key);
  if (entry) {
    const want = { ...entry.params, ...changes };
    const names = Object.keys(want);
    for (const e of manifest().values()) {
      if (e.family !== entry.family || Object.keys(e.params).length !== names.length) continue;
      if (names.every((n) => String(e.params[n]) === String(want[n]))) return e.key;
    }
  }
  const { spec, gen } = await specFor(key);
  let v;
  try {
    v = { ...gen.parseVariantKey(spec, key), ...changes };
    // axes the changed variant does not have (md-nonbonded's wasm-only `simd` on a ts sibling) go
    for (const a of spec.axes) if (a.when && a.name in v && !gen.evalExpr(a.when, v)) delete v[a.name];
    const bad = gen.violations(spec, v);
    if (bad.length > 0) throw new Error(`${bad.join('; ')}`);
    return gen.variantKey(spec, v);
  } catch (e) {
    throw new UnknownVariantError(`no variant like ${key} with ${JSON.stringify(changes)}: ${(e as Error).message}`);
  }
}
