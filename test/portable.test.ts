// The portable core (issue 12, item 4): runtime/core.ts bundles for a browser. esbuild bundles it
// with `platform: 'browser'` (static and dynamic imports alike) and the build must reach no Node
// built-in and no Node-only package, resolve every import, and leave out the Node platform, the
// generator, the CLI and the benches; the runtime's own sources in the bundle use no Node global
// (process, Buffer, setImmediate, require). The Node entry runtime/index.ts still exports what it
// did and installs the Node platform.
import { describe, it, expect } from 'vitest';
import { builtinModules } from 'node:module';
import { readFileSync } from 'node:fs';
import * as esbuild from 'esbuild';
import type { Platform } from '../runtime/platform.ts';

const root = new URL('..', import.meta.url).pathname;
/** Packages that run under Node only (native addons, the terminal, the build tools). */
const NODE_ONLY = ['webgpu', 'gl', 'esbuild', 'cli-progress', 'tsx', 'ts-morph', 'wabt', 'handlebars', 'commander', 'dpdm'];
const BUILTIN = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
const packageOf = (p: string): string => (p.startsWith('@') ? p.split('/').slice(0, 2).join('/') : p.split('/')[0]!);

interface Reached {
  what: string;
  importer: string;
  kind: string;
}

async function bundleCore(): Promise<{ reached: Reached[]; errors: string[]; inputs: string[] }> {
  const reached: Reached[] = [];
  const flag: esbuild.Plugin = {
    name: 'node-only',
    setup(b) {
      b.onResolve({ filter: /.*/ }, (a) => {
        if (a.path.startsWith('.') || a.path.startsWith('/')) return undefined;
        const pkg = packageOf(a.path);
        if (BUILTIN.has(a.path) || BUILTIN.has(pkg) || a.path.startsWith('node:')) reached.push({ what: `Node built-in ${a.path}`, importer: a.importer, kind: a.kind });
        else if (NODE_ONLY.includes(pkg)) reached.push({ what: `Node-only package ${pkg}`, importer: a.importer, kind: a.kind });
        else return undefined;
        return { path: a.path, external: true };
      });
    },
  };
  try {
    const r = await esbuild.build({ entryPoints: [`${root}runtime/core.ts`], absWorkingDir: root, bundle: true, platform: 'browser', format: 'esm', write: false, metafile: true, outfile: 'core.js', logLevel: 'silent', plugins: [flag] });
    return { reached, errors: [], inputs: Object.keys(r.metafile.inputs) };
  } catch (e) {
    const errors = ((e as { errors?: esbuild.Message[] }).errors ?? [{ text: String(e) } as esbuild.Message]).map((m) => `${m.location?.file ?? '?'}: ${m.text}`);
    return { reached, errors, inputs: [] };
  }
}

describe('runtime/core.ts bundled for a browser', () => {
  const bundle = bundleCore();

  it('reaches no Node built-in and no Node-only package, and every import resolves', async () => {
    const { reached, errors } = await bundle;
    const rel = (f: string) => f.replace(root, '');
    expect([...new Set(reached.map((r) => `${rel(r.importer)} -(${r.kind})-> ${r.what}`))].sort()).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('leaves out the Node platform, the generator, the CLI and the benches', async () => {
    const { inputs } = await bundle;
    expect(inputs.length).toBeGreaterThan(50);
    expect(inputs).toContain('runtime/platform.ts');
    expect(inputs.filter((f) => f === 'runtime/platform/node.ts' || /^(generator|cli|bench)\//.test(f))).toEqual([]);
  });

  it("the runtime's own sources in it use no Node global", async () => {
    const { inputs } = await bundle;
    const hits: string[] = [];
    for (const f of inputs.filter((x) => x.startsWith('runtime/'))) {
      const code = (await esbuild.transform(readFileSync(`${root}${f}`, 'utf8'), { loader: 'ts' })).code; // comments and types gone
      for (const m of code.matchAll(/\b(process\s*\.|Buffer\b|setImmediate\s*\(|require\s*\(|__dirname|__filename)/g)) hits.push(`${f}: ${m[0]}`);
    }
    expect(hits).toEqual([]);
  });
});

describe('the Node entry runtime/index.ts', () => {
  it('installs the Node platform', async () => {
    const { platform, setPlatform } = await import('../runtime/platform.ts');
    // Under Node the platform is there before any entry runs (runtime/platform.ts installs it) ...
    expect(platform().name).toBe('node');
    // ... and importing the entry installs it explicitly, whatever was set before.
    const stand = { ...platform(), name: 'stand-in' } as Platform;
    setPlatform(stand);
    expect(platform().name).toBe('stand-in');
    const kf = await import('../runtime/index.ts');
    expect(platform()).toBe(kf.nodePlatform);
    expect(platform().name).toBe('node');
  });

  it('exports the portable core and the Node-only readers', async () => {
    const kf = await import('../runtime/index.ts');
    const core = await import('../runtime/core.ts');
    for (const name of ['open', 'TARGETS', 'readPqr', 'readVert', 'parsePqr', 'readGro', 'bundledMolecule', 'manifest', 'loadTsModule', 'gpu', 'runGem', 'apply3d', 'verifyVariant', 'cpuDevice', 'tune', 'TuneCache', 'loadTuned', 'tuningFamilies', 'STRATEGIES', 'platform', 'setPlatform', 'nodePlatform']) {
      expect(kf, name).toHaveProperty(name);
    }
    for (const name of Object.keys(core)) expect(kf, name).toHaveProperty(name);
    expect(Object.keys(core)).not.toContain('readPqr');
    expect(Object.keys(core)).not.toContain('nodePlatform');
    // the platform serves the core: files, CPU facts, hashing
    expect(kf.manifest().size).toBeGreaterThan(0);
    expect(kf.cpuDevice({ wasmSimd: { ok: true } }).fingerprint).toMatch(/^[0-9a-f]{16}$/);
    expect(kf.nodePlatform.sha256('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('is what `kernforge` resolves to under Node; browsers get the core', () => {
    const pkg = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as { exports: Record<string, Record<string, unknown>> };
    const dot = pkg.exports['.']!;
    expect(dot.node).toEqual({ types: './dist/runtime/index.d.ts', default: './dist/runtime/index.js' });
    expect(dot.browser).toEqual({ types: './dist/runtime/core.d.ts', default: './dist/runtime/core.js' });
    expect(dot.default).toBe('./dist/runtime/index.js');
    expect(dot.types).toBe('./dist/runtime/index.d.ts');
  });
});
