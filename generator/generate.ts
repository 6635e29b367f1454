// The generator pipeline: specs -> validated variant spaces -> rendered, type-checked files
// -> bundled library + manifest. Output is a pure function of specs and templates; it is
// written to a temporary folder (a unique name beside the output folder) and moved into place
// only when everything succeeded. By the output policy (runtime/output.ts checkOutputFolder) the
// output folder is replaced only when it is new, empty or a previous kernforge output, unless
// `force`; a file is never replaced by a folder; a failed write (a full disk, a file-size limit)
// leaves the previous output as it was and is one OutputError.
import { fileURLToPath } from 'node:url';
import { mkdirSync, mkdtempSync, writeFileSync, rmSync, renameSync, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, dirname, resolve, relative, basename } from 'node:path';
import { checkOutputFolder, writeError } from '../runtime/output.ts';
import { createHash } from 'node:crypto';
import { loadSpec, SpecError, type Spec } from './spec.ts';
import { libraryVariants, variantKey, checkAxisOrder, type Variant } from './space.ts';
import { loadTemplates, banner, type TemplateSet } from './render.ts';
import { familyModule, familyNames } from './families/index.ts';
import { typeCheck } from './check.ts';
import { bundle } from './bundle.ts';
import { postStep } from './post.ts';

/** The generator's version, written into every generated banner and the manifest. */
export const GENERATOR_VERSION = '0.1.0';
export const SPEC_ROOT = fileURLToPath(new URL('../specs/', import.meta.url));

/** One generated file in memory, path relative to the output folder. */
export interface OutFile {
  /** Path relative to the output folder, e.g. `md-nonbonded/ts/<rest of key>.ts`. */
  path: string;
  /** The file's text. */
  text: string;
  /** Binary content (a post-step's output); written instead of `text` when present. */
  bytes?: Uint8Array;
}

/** One variant in generated/manifest.json. */
export interface ManifestEntry {
  /** The canonical variant key. */
  key: string;
  /** Its family. */
  family: string;
  /** Its target: ts, wgsl, wasm or gpujs. */
  target: string;
  /** Its axis values. */
  params: Variant;
  /** Its file, relative to the library folder. */
  file: string;
  /** sha256 of the file's content (hex). */
  sha256: string;
}

/** generated/manifest.json: every variant of the library, and the specs it came from. */
export interface Manifest {
  /** GENERATOR_VERSION of the generator that wrote it. */
  generator: string;
  /** The specs, one per family. */
  specs: {
    /** The family. */
    family: string;
    /** The spec file's base name. */
    file: string;
    /** sha256 of the spec text (hex). */
    sha256: string;
  }[];
  /** Every variant, in key order. */
  variants: ManifestEntry[];
}

const sha = (s: string): string => createHash('sha256').update(s).digest('hex');

/** Load and fully validate a spec (schema, family checks, axis order). */
export function loadAndValidate(path: string): Spec {
  const spec = loadSpec(path);
  const mod = familyModule(spec.family);
  if (!mod) throw new SpecError(spec.file, spec.where(['family']), 'family', `no family module "${spec.family}"; known: ${familyNames().join(', ')}`);
  const order = checkAxisOrder(spec);
  if (order) throw new SpecError(spec.file, spec.where(order.path), order.path.join('.'), order.message);
  mod.validate(spec);
  // keys read as <family>.<target>.<...> (runtime/keys.ts), and files go to <family>/<target>/
  if (spec.axes[0]?.name !== 'target') throw new SpecError(spec.file, spec.where(['axes']), 'axes', `the first axis must be "target" (keys and files are <family>.<target>...); found ${spec.axes[0] ? `"${spec.axes[0].name}"` : 'no axes'}`);
  return spec;
}

/** Path of a variant's file relative to the output folder: <family>/<target>/<rest of key>.<ext>. */
export function variantFile(spec: Spec, v: Variant, ext: string): string {
  const key = variantKey(spec, v);
  const rest = key.slice(spec.family.length + 1 + String(v.target).length + 1);
  return `${spec.family}/${v.target}/${rest}.${ext}`;
}

const templateCache = new Map<string, TemplateSet>();
function templatesFor(target: string, family: string): TemplateSet {
  const k = `${target}/${family}`;
  if (!templateCache.has(k)) templateCache.set(k, loadTemplates(target, family));
  return templateCache.get(k)!;
}

/** Render one point of a spec's space (library or not): the on-demand path the tuner uses. */
export function renderVariant(spec: Spec, v: Variant): OutFile {
  const mod = familyModule(spec.family)!;
  const t = templatesFor(String(v.target), spec.family);
  const key = variantKey(spec, v);
  const ctx = {
    ...mod.context(spec, v),
    key,
    banner: banner({ specFile: spec.file, specHash: spec.hash, templates: t, generatorVersion: GENERATOR_VERSION, key, ext: t.kernelExt }),
  };
  return { path: variantFile(spec, v, t.kernelExt), text: t.kernel(ctx) };
}

/** Render a whole spec's default library, its once-per-target files and per-target index. */
export function renderLibrary(spec: Spec): {
  /** Every file of the family's library: variants, per-target shared files and indexes. */
  files: OutFile[];
  /** The manifest entries of its variants. */
  entries: ManifestEntry[];
} {
  const variants = libraryVariants(spec);
  const files: OutFile[] = [];
  const entries: ManifestEntry[] = [];
  const targets = [...new Set(variants.map((v) => String(v.target)))].sort();
  for (const target of targets) {
    const t = templatesFor(target, spec.family);
    for (const [name, tpl] of t.once) {
      const ext = name.split('.').pop();
      files.push({ path: `${spec.family}/${target}/${name}`, text: tpl({ banner: banner({ specFile: spec.file, specHash: spec.hash, templates: t, generatorVersion: GENERATOR_VERSION, ext }) }) });
    }
    const mine = variants.filter((v) => v.target === target);
    for (const v of mine) {
      const f = renderVariant(spec, v);
      files.push(f);
      entries.push({ key: variantKey(spec, v), family: spec.family, target, params: v, file: f.path, sha256: sha(f.text) });
    }
    if (t.kernelExt === 'ts') files.push(tsIndex(spec, target, mine, t));
  }
  return { files, entries };
}

// A static index per family/target: key -> module namespace. esbuild bundles from it.
function tsIndex(spec: Spec, target: string, vs: Variant[], t: TemplateSet): OutFile {
  const lines = [banner({ specFile: spec.file, specHash: spec.hash, templates: t, generatorVersion: GENERATOR_VERSION }), ''];
  vs.forEach((v, i) => lines.push(`import * as v${i} from './${variantFile(spec, v, 'ts').split('/').pop()}';`));
  lines.push('', '/** Every variant of the default library, by canonical key. */', 'export const variants = {');
  vs.forEach((v, i) => lines.push(`  '${variantKey(spec, v)}': v${i},`));
  lines.push('} as const;', '');
  return { path: `${spec.family}/${target}/index.ts`, text: lines.join('\n') };
}

/** Options of generate(). */
export interface GenerateOptions {
  /** The spec files. */
  specs: string[];
  /** The output folder: new, empty or a previous kernforge output (see `force`). */
  out: string;
  /** Compare with what is in `out` instead of writing; returns the differing paths. */
  check?: boolean;
  /** Progress lines. */
  log?: (msg: string) => void;
  /** Replace `out` even when it is a folder that is not empty and holds no previous kernforge output. */
  force?: boolean;
}

/** Generate everything into `out`. Throws SpecError for user mistakes; writes nothing then. */
export async function generate(o: GenerateOptions): Promise<{
  /** The manifest written (or that would be written, with check). */
  manifest: Manifest;
  /** Number of files generated. */
  files: number;
  /** With check: the paths that differ from what is in `out`; otherwise empty. */
  diffs: string[];
}> {
  const log = o.log ?? (() => {});
  if (!o.check) checkOutputFolder(o.out, { force: o.force });
  const specs = o.specs.map((p) => loadAndValidate(p));
  const seen = new Map<string, string>();
  for (const s of specs) {
    if (seen.has(s.family)) throw new SpecError(s.file, s.file, 'family', `family "${s.family}" is also defined by ${seen.get(s.family)}`);
    seen.set(s.family, s.file);
  }
  const files: OutFile[] = [];
  const manifest: Manifest = { generator: GENERATOR_VERSION, specs: [], variants: [] };
  for (const s of specs) {
    const r = renderLibrary(s);
    log(`${s.family}: ${r.entries.length} variants`);
    files.push(...r.files);
    manifest.specs.push({ family: s.family, file: s.file, sha256: s.hash });
    manifest.variants.push(...r.entries);
  }
  await applyPostSteps(files, manifest.variants);
  const problems = typeCheck(files.filter((f) => f.path.endsWith('.ts')));
  if (problems.length > 0) {
    throw new Error(`generator bug: generated TypeScript does not type-check:\n${problems.slice(0, 20).join('\n')}`);
  }
  log(`type-checked ${files.filter((f) => f.path.endsWith('.ts')).length} TypeScript files`);
  files.push({ path: 'manifest.json', text: `${JSON.stringify(manifest, null, 1)}\n` });

  const out = resolve(o.out);
  const existed = existsSync(out);
  // a unique temporary folder beside the output (never a name of the user's), removed whatever happens
  let tmp: string;
  try {
    mkdirSync(dirname(out), { recursive: true });
    tmp = mkdtempSync(join(dirname(out), `.${basename(out)}.${process.pid}.`));
  } catch (e) {
    throw writeError(o.out, e, existed, 'output');
  }
  try {
    try {
      for (const f of files) {
        mkdirSync(dirname(join(tmp, f.path)), { recursive: true });
        writeFileSync(join(tmp, f.path), f.bytes ?? f.text); // every byte, or an error
      }
      for (const s of specs) {
        if (files.some((f) => f.path === `${s.family}/ts/index.ts`)) {
          const text = await bundle(tmp, `${s.family}/ts/index.ts`);
          writeFileSync(join(tmp, `${s.family}/ts.bundle.js`), text);
        }
      }
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code) throw writeError(o.out, e, existed && !o.check, 'output');
      throw e;
    }
    if (o.check) return { manifest, files: files.length, diffs: diffTrees(tmp, out) };
    // Swap in the finished tree: a failure above leaves the previous output untouched.
    const old = `${tmp}.old`;
    try {
      if (existed) renameSync(out, old);
      try {
        renameSync(tmp, out);
      } catch (e) {
        if (existed) renameSync(old, out);
        throw e;
      }
    } catch (e) {
      throw writeError(o.out, e, existed, 'output');
    }
    rmSync(old, { recursive: true, force: true });
    return { manifest, files: files.length, diffs: [] };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/**
 * Variant files whose extension has a post-step (e.g. .wat -> .wasm) get a binary sibling; the
 * manifest entry then names the binary and its sha256, and the text stays for reading.
 */
async function applyPostSteps(files: OutFile[], entries: ManifestEntry[]): Promise<void> {
  const byPath = new Map(entries.map((e) => [e.file, e]));
  for (const f of [...files]) {
    const step = postStep(f.path.split('.').pop() ?? '');
    const entry = byPath.get(f.path);
    if (!step || !entry) continue;
    const path = `${f.path.slice(0, f.path.lastIndexOf('.'))}.${step.ext}`;
    const bytes = await step.run(f.path, f.text);
    files.push({ path, text: '', bytes });
    entry.file = path;
    entry.sha256 = createHash('sha256').update(bytes).digest('hex');
  }
}

function listTree(root: string): string[] {
  if (!existsSync(root)) return [];
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const n of readdirSync(d)) {
      const p = join(d, n);
      if (statSync(p).isDirectory()) walk(p);
      else out.push(relative(root, p));
    }
  };
  walk(root);
  return out.sort();
}

/** Paths that differ between two trees (added, removed or changed). */
export function diffTrees(a: string, b: string): string[] {
  const la = listTree(a);
  const lb = listTree(b);
  const all = [...new Set([...la, ...lb])].sort();
  return all.filter((p) => !la.includes(p) || !lb.includes(p) || !readFileSync(join(a, p)).equals(readFileSync(join(b, p))));
}

/** All spec files of the project. */
export function projectSpecs(): string[] {
  return readdirSync(SPEC_ROOT).filter((f) => f.endsWith('.yaml') || f.endsWith('.yml')).sort().map((f) => join(SPEC_ROOT, f));
}
