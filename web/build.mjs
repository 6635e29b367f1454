#!/usr/bin/env node
// The web app (issue 14) as a static folder. esbuild bundles the page (web/src/main.ts -> app.js)
// and its job worker (web/src/worker.ts -> worker.js: tuning, GEM, MD, devices) for the browser,
// with the portable core and the browser platform inside, into <folder>/js/; index.html and
// style.css go to <folder>/, the browser platform's task worker (runtime/platform/browser-worker.ts)
// to <folder>/js/browser-worker.js. The browser platform fetches the runtime's assets from
// `new URL('../', <bundle>)`, i.e. <folder>/generated, <folder>/data and <folder>/specs: the
// package's own layout.
//
//   node web/build.mjs --out <dir>        a page that stands alone: the assets the page uses are
//                                         copied into <dir> (the tests; any static host)
//   node web/build.mjs --package <dist>   the page inside the built package (scripts/build.mjs):
//                                         <dist> already holds generated/, data/ and specs/ for
//                                         Node, which the page shares; `kernforge serve` serves it
//
// The report's charts are drawn by runtime/tune/report.ts itself (the `kernforge report` code
// path): buildReportData and renderReportHtml run in the page. That module reads Chart.js's UMD
// file with node:fs at run time; here node:fs, node:module and node:path are replaced, for that
// module and runtime/gem/picture.ts only (whose colour map the page reuses), by small shims whose
// readFileSync returns the bundled Chart.js text. Any other Node built-in in the bundle is an error.
import { build } from 'esbuild';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const flag = (name) => (args.indexOf(name) >= 0 ? resolve(args[args.indexOf(name) + 1] ?? '') : undefined);
const standalone = flag('--out');
const packaged = flag('--package');
if (!standalone === !packaged) {
  console.error('usage: node web/build.mjs --out <dir> (a page with its assets) | --package <dist> (the page inside the built package)');
  process.exit(2);
}
const out = standalone ?? packaged;
if (packaged && !existsSync(join(packaged, 'generated', 'manifest.json'))) {
  console.error(`web/build.mjs: ${packaged}/generated/manifest.json is missing: --package builds the page into a built package (npm run build)`);
  process.exit(2);
}
const t0 = performance.now();

const SHIMMED = new Set(['runtime/tune/report.ts', 'runtime/gem/picture.ts']);
const chartUmd = join(root, 'node_modules', 'chart.js', 'dist', 'chart.umd.min.js');
const SHIMS = {
  'node:fs': `const text = ${JSON.stringify(readFileSync(chartUmd, 'utf8'))};
export function readFileSync() { return text; }
export function readdirSync() { throw new Error('no file system in the browser'); }
export function statSync() { throw new Error('no file system in the browser'); }`,
  'node:module': `export function createRequire() { return { resolve: () => '/chart.js/dist/chart.cjs' }; }`,
  'node:path': `export const dirname = (p) => p.replace(/\\/[^/]*$/, '') || '/';
export const join = (...p) => p.join('/').replace(/\\/+/g, '/');
export const resolve = (...p) => p.join('/');
export const basename = (p) => p.replace(/^.*\\//, '');
export const extname = (p) => (/\\.[^./]*$/.exec(p) || [''])[0];`,
  'node:zlib': `export function deflateSync() { throw new Error('PNG encoding is not available in the browser'); }`,
};

/** node:* imports of report.ts and picture.ts -> the shims above; any other Node built-in fails the build. */
const nodeShims = {
  name: 'kernforge-web-node-shims',
  setup(b) {
    b.onResolve({ filter: /^node:/ }, (a) => {
      const from = relative(root, a.importer).split('\\').join('/');
      if (SHIMMED.has(from) && SHIMS[a.path]) return { path: a.path, namespace: 'kf-shim' };
      return { errors: [{ text: `${a.path} imported by ${from}: the web app bundles no Node built-in (only ${[...SHIMMED].join(' and ')} have shims)` }] };
    });
    b.onLoad({ filter: /.*/, namespace: 'kf-shim' }, (a) => ({ contents: SHIMS[a.path], loader: 'js', resolveDir: root }));
  },
};

if (standalone) rmSync(out, { recursive: true, force: true });
rmSync(join(out, 'js'), { recursive: true, force: true });
mkdirSync(join(out, 'js'), { recursive: true });
const result = await build({
  absWorkingDir: root,
  entryPoints: { app: 'web/src/main.ts', worker: 'web/src/worker.ts' },
  outdir: join(out, 'js'),
  bundle: true,
  format: 'esm',
  platform: 'browser',
  conditions: ['browser'],
  target: 'es2022',
  splitting: false,
  minify: true,
  // the gpu.js backend checks the kernel class gpu.js chose by its name
  keepNames: true,
  sourcemap: false,
  legalComments: 'none',
  // the core's Node-platform loader computes its URL at run time; nothing else is left out
  logLevel: 'warning',
  metafile: true,
  plugins: [nodeShims],
  define: { 'process.env.NODE_ENV': '"production"' },
});
if (result.errors.length > 0) process.exit(1);
// the browser platform's task worker, beside the page's bundles: its core then finds the assets at
// new URL('../', <its URL>), the page's folder (the package's dist/runtime/platform/browser-worker.js
// sits one level deeper, where the task worker's core looks for them under runtime/)
await build({
  absWorkingDir: root,
  entryPoints: ['runtime/platform/browser-worker.ts'],
  outfile: join(out, 'js', 'browser-worker.js'),
  bundle: true,
  platform: 'browser',
  format: 'esm',
  target: 'es2022',
  // task workers run TypeScript and wasm kernels only (as scripts/build.mjs bundles it)
  external: ['gpu.js'],
  minify: true,
  logLevel: 'warning',
});

cpSync(join(root, 'web', 'index.html'), join(out, 'index.html'));
cpSync(join(root, 'web', 'style.css'), join(out, 'style.css'));
// standalone: the assets the page uses, as the Node build lays them out (scripts/build.mjs): the
// library without its per-variant .ts and .wat sources, the specs (the MD engine derives variant
// keys from them), the GEM molecules and the water box
if (standalone) {
  const keep = (src) => {
    if (statSync(src).isDirectory()) return true;
    const rel = relative(join(root, 'generated'), src);
    if (rel.startsWith('..')) return true;
    return !/\/ts\/[^/]+\.ts$/.test(rel) && !rel.endsWith('.wat');
  };
  for (const dir of ['generated', 'specs', 'data/gem']) cpSync(join(root, dir), join(out, dir), { recursive: true, filter: keep });
  cpSync(join(root, 'data', 'md', 'spce-884.gro'), join(out, 'data', 'md', 'spce-884.gro'));
}

let files = 0, bytes = 0;
const walk = (d) => {
  for (const e of readdirSync(d, { withFileTypes: true })) {
    const p = join(d, e.name);
    if (e.isDirectory()) walk(p);
    else (files++, (bytes += statSync(p).size));
  }
};
walk(out);
const js = Object.entries(result.metafile.outputs).map(([f, o]) => `${f.split('/').pop()} ${(o.bytes / 2 ** 10).toFixed(0)} KiB`).join(', ');
console.error(`built ${relative(process.cwd(), out) || '.'}: ${files} files, ${(bytes / 2 ** 20).toFixed(1)} MiB (${js}), in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
