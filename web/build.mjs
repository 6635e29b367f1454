#!/usr/bin/env node
// `node web/build.mjs [--out <dir>]`: the web app (issue 14) as a static folder, by default
// dist/web, which `kernforge serve` serves. esbuild bundles the page (web/src/main.ts -> app.js)
// and its worker (web/src/worker.ts -> worker.js: tuning, GEM, MD, devices) for the browser,
// and the browser platform's task worker (runtime/platform/browser-worker.ts -> browser-worker.js),
// with the portable core (runtime/core.ts) and the browser platform inside; index.html and
// style.css are copied beside them, and the runtime's assets (generated/ and data/, which the
// browser platform fetches) are copied where the bundles' `new URL('../generated/', import.meta.url)`
// point: the bundles live in <out>/js/, the assets in <out>/generated and <out>/data.
//
// The report's charts are drawn by runtime/tune/report.ts itself (the `kernforge report` code
// path): buildReportData and renderReportHtml run in the page. That module reads Chart.js's UMD
// file with node:fs at run time; here node:fs, node:module and node:path are replaced, for that
// module and runtime/gem/picture.ts only (whose colour map the page reuses), by small shims whose
// readFileSync returns the bundled Chart.js text. Any other Node built-in in the bundle is an error.
import { build } from 'esbuild';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const outIdx = args.indexOf('--out');
const out = outIdx >= 0 ? resolve(args[outIdx + 1]) : join(root, 'dist', 'web');
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

rmSync(out, { recursive: true, force: true });
mkdirSync(join(out, 'js'), { recursive: true });
const result = await build({
  absWorkingDir: root,
  entryPoints: { app: 'web/src/main.ts', worker: 'web/src/worker.ts', 'browser-worker': 'runtime/platform/browser-worker.ts' },
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

cpSync(join(root, 'web', 'index.html'), join(out, 'index.html'));
cpSync(join(root, 'web', 'style.css'), join(out, 'style.css'));
// the runtime's assets, as the Node build lays them out (scripts/build.mjs): no per-variant .ts or .wat
// sources; specs/ for the variant keys outside the library that the MD engine derives (its energy kernels)
const keep = (src) => {
  if (statSync(src).isDirectory()) return true;
  const rel = relative(join(root, 'generated'), src);
  if (rel.startsWith('..')) return true;
  return !/\/ts\/[^/]+\.ts$/.test(rel) && !rel.endsWith('.wat');
};
for (const dir of ['generated', 'data', 'specs']) cpSync(join(root, dir), join(out, dir), { recursive: true, filter: keep });
writeFileSync(join(out, 'build.json'), JSON.stringify({ format: 'kernforge-web', version: 1, built: new Date().toISOString() }, null, 2) + '\n');

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
