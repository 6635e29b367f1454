#!/usr/bin/env node
// `npm run build`: compile runtime/, cli/ and generator/ to dist/ (ESM JavaScript, .d.ts, source
// maps: tsconfig.build.json), then copy beside them what they read at run time, so that dist/
// has the repository's layout and every `new URL('../x/', import.meta.url)` resolves the same:
//   data/                 the bundled molecules and filter coefficients
//   generated/            the committed kernel library: manifest, TypeScript bundles, .wasm
//                         binaries, WGSL and gpu.js sources (not the per-variant .ts and .wat
//                         sources, which the bundles and binaries already hold)
//   specs/, templates/    for `kernforge generate` and variants rendered on demand
//   runtime/platform/browser-worker.js   rebuilt as one self-contained module (esbuild), the
//                         browser platform's worker entry
// The package ships dist/ (package.json `files`); nothing else of the repository.
import { execFileSync } from 'node:child_process';
import { cpSync, rmSync, existsSync, chmodSync, readdirSync, statSync, renameSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const final = join(root, 'dist');
// Built beside dist/ and swapped in at the end: a build running at the same time (two test files
// packing the package at once) never sees dist/ half removed or half written.
const dist = join(root, `.dist-build-${process.pid}`);
const t0 = performance.now();

rmSync(dist, { recursive: true, force: true });
process.on('exit', () => rmSync(dist, { recursive: true, force: true })); // a failed build leaves nothing behind
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
// tsc's diagnostics to stderr: stdout stays clean for `npm pack --json`
execFileSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json'), '--outDir', dist], { stdio: ['ignore', 2, 2], cwd: root });

const keep = (src) => {
  if (statSync(src).isDirectory()) return true;
  const rel = relative(join(root, 'generated'), src);
  if (rel.startsWith('..')) return true; // not under generated/
  if (/\/ts\/abi\.ts$/.test(rel)) return false; // compiled by tsc already
  return !/\/ts\/[^/]+\.ts$/.test(rel) && !rel.endsWith('.wat');
};
for (const dir of ['data', 'generated', 'specs', 'templates']) cpSync(join(root, dir), join(dist, dir), { recursive: true, filter: keep });
// The browser platform's task worker (runtime/platform/browser.ts workerUrl) as one self-contained
// module: a page serves this file as it is (a bundler never sees it), so it carries the core it runs.
const esbuild = await import('esbuild');
await esbuild.build({
  entryPoints: [join(root, 'runtime', 'platform', 'browser-worker.ts')],
  outfile: join(dist, 'runtime', 'platform', 'browser-worker.js'),
  allowOverwrite: true,
  bundle: true,
  platform: 'browser',
  format: 'esm',
  target: 'es2022',
  // task workers run TypeScript and wasm kernels only: gpu.js (a dynamic import the bundle would inline) stays out
  external: ['gpu.js'],
  minify: true,
  banner: { js: '// kernforge: the browser platform task worker (runtime/platform/browser-worker.ts), bundled' },
  logLevel: 'warning',
});
// The web app (web/build.mjs --package): index.html, style.css and js/ beside the assets above,
// which the page shares with Node; `kernforge serve` serves dist/.
execFileSync(process.execPath, [join(root, 'web', 'build.mjs'), '--package', dist], { stdio: ['ignore', 2, 2], cwd: root });
// The benches need the repository (C peers, fixtures): they are not part of the package.
rmSync(join(dist, 'bench'), { recursive: true, force: true });

const bin = join(dist, 'cli', 'bin.js');
if (!existsSync(bin)) throw new Error(`build: ${bin} was not produced`);
chmodSync(bin, 0o755);

// the swap: the old dist/ aside, the new one in place, the old one removed (another build that
// swaps in between makes the rename fail: try again)
const olds = [];
for (let attempt = 0; ; attempt++) {
  try {
    if (existsSync(final)) {
      olds.push(join(root, `.dist-old-${process.pid}-${attempt}`));
      renameSync(final, olds.at(-1));
    }
    renameSync(dist, final);
    break;
  } catch (e) {
    if (attempt >= 20) throw e;
  }
}
for (const o of olds) rmSync(o, { recursive: true, force: true });

let files = 0, bytes = 0;
const walk = (d) => {
  for (const e of readdirSync(d, { withFileTypes: true })) {
    const p = join(d, e.name);
    if (e.isDirectory()) walk(p);
    else (files++, (bytes += statSync(p).size));
  }
};
walk(final);
console.error(`built dist/: ${files} files, ${(bytes / 2 ** 20).toFixed(1)} MiB, in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
