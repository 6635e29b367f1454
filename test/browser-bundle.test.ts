// The `browser` build of the package, as a web app gets it: `npm pack`, laid out in an empty
// folder as npm installs it, a tiny app that imports 'kernforge' bundled with esbuild (platform
// browser: the package's `browser` condition, dist/runtime/core.js) and with Vite, served by the
// installed package's `kernforge serve` (cross-origin isolated) and opened in headless Debian
// Chromium with WebGPU on SwiftShader. In the page: no console error, no failed request,
// crossOriginIsolated; the GEM potential of the bundled 1uwo_A through open() on wasm within the
// f32 bar of the f64 reference, the same on 2 worker threads (Web Workers over
// SharedArrayBuffer); BigDFT's kinetic filter on TypeScript with 2 threads through the documented
// workerUrl (the package's dist/runtime/platform/browser-worker.js, whose bundled core must find
// the manifest at the assets URL) equal to 1 thread and to the f64 reference; a WGSL variant
// passes the gate on SwiftShader, and a gpu.js WebGL-mode; wasm GEM on one thread in a page served
// without the isolation headers (no SharedArrayBuffer);
// variant on the page's WebGL2; the Vite build computes Mb.Hhelix's; a quick tune reloaded in its
// middle continues from the cache kept in IndexedDB; two pages tuning halves of the same family's
// candidates at once both end up in the stored cache (the Web Lock); MD on 2 threads in a
// dedicated Web Worker (the polled channel over shared memory) equals 1 thread. Also printed (not asserted: speed goals live
// in bench/): the same wasm GEM kernel timed in the page and in Node from the same installed
// package, and their ratio.
import { describe, it, expect, beforeAll, afterAll, beforeEach } from 'vitest';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import * as esbuild from 'esbuild';
import type { Browser, Page } from 'playwright-core';

const root = new URL('..', import.meta.url).pathname;
const CHROMIUM = '/usr/bin/chromium';
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const haveChromium = existsSync(CHROMIUM);
const inCi = !!process.env.CI && process.env.CI !== 'false';
if (!haveChromium && !inCi) console.warn(`browser-bundle.test.ts: skipped: ${CHROMIUM} is absent and this is not CI (apt-get install -y chromium)`);

// The timing code, the same text in the page and in Node: the default wasm GEM variant on 1uwo_A,
// one thread, one untimed call then `reps` timed ones; the median in ms.
const TIMING = `
  async function timeGem(kf, atoms, vertices, reps) {
    await kf.gem.potential(atoms, vertices, { threads: 1 });
    const t = [];
    for (let i = 0; i < reps; i++) { const t0 = performance.now(); await kf.gem.potential(atoms, vertices, { threads: 1 }); t.push(performance.now() - t0); }
    t.sort((a, b) => a - b);
    return t[t.length >> 1];
  }
  function worstOf(phi, ref) { let w = 0, s = 0; for (let i = 0; i < ref.length; i++) { w = Math.max(w, Math.abs(phi[i] - ref[i])); s = Math.max(s, Math.abs(ref[i])); } return { worst: w, scale: s }; }
`;

// MD on 1 and 2 threads in a dedicated Web Worker (the page's mode mdthreads starts it).
const MD_WORKER = `
  import { installBrowserPlatform, open, platform } from 'kernforge';
  onmessage = async () => {
    const lines = [];
    try {
      await installBrowserPlatform({ assets: '/node_modules/kernforge/dist/', workerUrl: '/node_modules/kernforge/dist/runtime/platform/browser-worker.js', preload: false, storage: false, stderr: (l) => lines.push(l) });
      const kf = await open({ tuned: false, targets: ['ts'], log: (l) => lines.push(l) });
      const runs = [];
      for (const threads of [1, 2]) {
        const s = await kf.md.run({ system: 'lj', cells: 5, steps: 30, thermo: 10, threads, log: (l) => lines.push(l) });
        runs.push({ threads: s.outcome.nonbonded.threads, searches: s.outcome.pairSearches, x: Array.from(s.outcome.x), thermo: s.outcome.thermo });
      }
      postMessage({ channel: !!platform().channel, runs, lines });
    } catch (e) {
      postMessage({ error: String(e && e.stack || e), lines });
    }
  };
`;

// The app: everything through the package's public API.
const APP = `
  import { installBrowserPlatform, open, platform, bundledMolecule, parsePqr, parseVert, gemReference, libraryKeys, tune, bigdftSeparable } from 'kernforge';
  ${TIMING}
  const q = new URLSearchParams(location.search);
  const out = window.kf = { lines: [], ticks: 0 };
  (async () => {
    const bp = await installBrowserPlatform({ assets: '/node_modules/kernforge/dist/', workerUrl: '/node_modules/kernforge/dist/runtime/platform/browser-worker.js', stderr: (l) => out.lines.push(l) });
    out.isolated = crossOriginIsolated;
    out.platform = platform().name;
    if (q.get('mode') === 'gem') {
      const m = bundledMolecule('1uwo_A');
      const atoms = parsePqr(platform().readText(m.pqr)), vertices = parseVert(platform().readText(m.vert));
      const kf = await open({ tuned: false, targets: ['wasm'], log: (l) => out.lines.push(l) });
      const r = await kf.gem.potential(atoms, vertices);
      const ref = gemReference(atoms, vertices, r.params);
      out.wasm = { key: r.key, target: r.target, n: r.phi.length, ...worstOf(r.phi, ref) };
      const r2 = await kf.gem.potential(atoms, vertices, { threads: 2 });
      let d = 0; for (let i = 0; i < r.phi.length; i++) d = Math.max(d, Math.abs(r.phi[i] - r2.phi[i]));
      out.threads = { threads: r2.threads, maxDiff: d };
      window.kfTime = (reps) => timeGem(kf, atoms, vertices, reps);
      const kw = await open({ tuned: false, targets: ['wgsl'], log: (l) => out.lines.push(l) });
      const wgslKey = libraryKeys('gem-potential', 'wgsl').find((k) => k.includes('.region1.f32.zero.'));
      const g = await kw.gem.potential(atoms, vertices, { variant: wgslKey });
      out.wgsl = { key: g.key, target: g.target, ...worstOf(g.phi, ref) };
      // gpu.js's WebGL mode (keys ending .headlessgl) on the page's own WebGL2
      const kg = await open({ tuned: false, targets: ['gpujs'], log: (l) => out.lines.push(l) });
      const glKey = libraryKeys('gem-potential', 'gpujs').find((k) => k.includes('.region1.f32.zero.') && k.endsWith('.headlessgl'));
      const gl = await kg.gem.potential(atoms, vertices, { variant: glKey });
      out.gpujs = { key: gl.key, target: gl.target, ...worstOf(gl.phi, ref) };
      out.devices = (await kw.devices({ webgpu: true })).map((d) => ({ id: d.id, available: d.available, name: d.name, vendor: d.vendor, architecture: d.architecture, fingerprint: d.fingerprint }));
    } else if (q.get('mode') === 'small') {
      const m = bundledMolecule('mb_hhelix');
      const atoms = parsePqr(platform().readText(m.pqr)), vertices = parseVert(platform().readText(m.vert));
      const kf = await open({ tuned: false, targets: ['wasm'], log: (l) => out.lines.push(l) });
      const r = await kf.gem.potential(atoms, vertices);
      out.small = { key: r.key, n: r.phi.length, ...worstOf(r.phi, gemReference(atoms, vertices, r.params)) };
    } else if (q.get('mode') === 'bigdft') {
      // TypeScript bigdft-conv on the documented task worker: its core loads the variant bundles
      // through the manifest, which it must find at the assets URL wherever the worker is served
      const dims = [30, 32, 34], n = dims[0] * dims[1] * dims[2];
      const x = Float64Array.from({ length: n }, (_, i) => Math.sin(0.37 * i) + 0.1 * Math.cos(1.3 * i));
      const kf = await open({ tuned: false, targets: ['ts'], log: (l) => out.lines.push(l) });
      const r1 = await kf.bigdft.apply('kinetic', x, dims, { h: 0.45, threads: 1 });
      const r2 = await kf.bigdft.apply('kinetic', x, dims, { h: 0.45, threads: 2 });
      const h = -1 / (2 * 0.45 * 0.45);
      const ref = bigdftSeparable('kinetic', x, dims, [h, h, h]);
      let d = 0; for (let i = 0; i < n; i++) d = Math.max(d, Math.abs(r1.y[i] - r2.y[i]));
      out.bigdft = { keys: [r1.key, r2.key], threads: [r1.threads, r2.threads], maxDiff: d, ...worstOf(r2.y, ref) };
    } else if (q.get('mode') === 'tune') {
      out.cacheAtStart = bp.files().filter((f) => f.startsWith('/.kernforge/tune/')).map((f) => Object.keys(JSON.parse(platform().readText(f)).results).length);
      const res = await tune({ families: ['gem-potential'], devices: ['cpu'], problems: ['quick'], reps: 2, threads: [1], log: (l) => out.lines.push(l),
        progress: { start() {}, setTotal() {}, tick() { out.ticks++; }, log: (l) => out.lines.push(l), stop() {} } });
      await bp.flush();
      out.tune = { rows: res.rows.map((r) => ({ winner: r.chosenKey ?? r.bestKey, speedup: r.speedup, candidates: r.candidates, measured: r.measured, cached: r.cached })), tunedFile: res.tunedFile };
      out.tuned = JSON.parse(platform().readText(res.tunedFile));
    } else if (q.get('mode') === 'mdthreads') {
      // MD in a dedicated Web Worker (mdworker.js), where the platform offers the polled channel
      const w = new Worker('mdworker.js', { type: 'module' });
      const r = await new Promise((resolve) => { w.onmessage = (e) => resolve(e.data); w.onerror = (e) => resolve({ error: e.message }); w.postMessage('go'); });
      w.terminate();
      if (r.error) throw new Error(r.error);
      out.md = r;
      out.pageChannel = !!platform().channel;
    } else if (q.get('mode') === 'tune2') {
      // one of two pages tuning the same family at once (started together by the test): page
      // 'part' measures its half of the candidates (every other one, three at most)
      const part = Number(q.get('part'));
      out.locks = !!navigator.locks;
      out.ready = true;
      await new Promise((go) => (window.kfGo = go));
      const res = await tune({ families: ['gem-potential'], devices: ['cpu'], problems: ['quick'], reps: 1, warmup: 0, threads: [1], out: false, log: (l) => out.lines.push(l),
        candidateFilter: (c) => (out.mine = c.filter((_, i) => i % 2 === part).slice(0, 3)).map((x) => x),
        progress: { start() {}, setTotal() {}, tick() { out.ticks++; }, log: (l) => out.lines.push(l), stop() {} } });
      await bp.flush();
      out.mine = out.mine.map((x) => x.key);
      out.rows = res.rows.map((r) => ({ measured: r.measured, cached: r.cached, candidates: r.candidates }));
    }
    out.done = true;
  })().catch((e) => { out.error = String(e && e.stack || e); out.done = true; });
`;

describe.skipIf(!haveChromium && !inCi)('the browser build in headless Chromium', () => {
  let dir = '';
  let server: ChildProcess | undefined;
  let url = '';
  let browser: Browser | undefined;
  const problems: string[] = [];
  let reloading = false;

  beforeAll(async () => {
    expect(haveChromium, `${CHROMIUM} is missing in CI: .ci/run must install Debian's chromium`).toBe(true);
    const packs = mkdtempSync(join(tmpdir(), 'kf-bpack-'));
    // prepack builds dist/ (npm run build) first
    const packed = JSON.parse(execFileSync(npm, ['pack', '--json', '--pack-destination', packs], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })) as { filename: string }[];
    dir = mkdtempSync(join(tmpdir(), 'kf-bconsumer-'));
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'web-consumer', private: true, type: 'module' }));
    // The tarball unpacked as node_modules/kernforge, and beside it exactly the dependencies its
    // package.json declares, linked to the repository's installed copies (the lockfile's
    // versions): what `npm install <tarball>` lays out, without its 15-30 s on 2 cores
    // (test/package.test.ts runs the real install). A dependency the package forgot to declare
    // does not resolve here either.
    const pkgDir = join(dir, 'node_modules', 'kernforge');
    mkdirSync(pkgDir, { recursive: true });
    execFileSync('tar', ['xzf', join(packs, packed[0]!.filename), '-C', pkgDir, '--strip-components=1']);
    rmSync(packs, { recursive: true, force: true });
    const deps = Object.keys((JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies);
    for (const d of deps) {
      mkdirSync(dirname(join(dir, 'node_modules', d)), { recursive: true });
      symlinkSync(join(root, 'node_modules', d), join(dir, 'node_modules', d), 'dir');
    }
    // the app, bundled as a web app would: esbuild, platform browser (the `browser` condition)
    mkdirSync(join(dir, 'site'));
    writeFileSync(join(dir, 'site', 'main.js'), APP);
    writeFileSync(join(dir, 'site', 'index.html'), '<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>kernforge</title></head><body><script type="module" src="app.js"></script></body></html>\n');
    writeFileSync(join(dir, 'site', 'mdworker-src.js'), MD_WORKER);
    await esbuild.build({ entryPoints: [join(dir, 'site', 'mdworker-src.js')], absWorkingDir: dir, bundle: true, platform: 'browser', format: 'esm', target: 'es2022', outfile: join(dir, 'site', 'mdworker.js'), logLevel: 'silent' });
    await esbuild.build({ entryPoints: [join(dir, 'site', 'main.js')], absWorkingDir: dir, bundle: true, platform: 'browser', format: 'esm', target: 'es2022', outfile: join(dir, 'site', 'app.js'), logLevel: 'silent' });
    // and with Vite (vitest's own), its defaults but the base
    mkdirSync(join(dir, 'vite'));
    writeFileSync(join(dir, 'vite', 'main.js'), APP);
    writeFileSync(join(dir, 'vite', 'index.html'), '<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>kernforge</title></head><body><script type="module" src="./main.js"></script></body></html>\n');
    const vite = await import('vite');
    const warnings: string[] = [];
    await vite.build({ root: join(dir, 'vite'), base: '/vite/dist/', configFile: false, logLevel: 'warn', customLogger: { ...vite.createLogger('warn'), warn: (m: string) => void (/chunks are larger/.test(m) || warnings.push(m)), warnOnce: (m: string) => void warnings.push(m) }, build: { outDir: join(dir, 'vite', 'dist'), emptyOutDir: true } });
    expect(warnings).toEqual([]);
    // served by the installed package's command, on any free port
    server = spawn(process.execPath, [join(dir, 'node_modules', 'kernforge', 'dist', 'cli', 'bin.js'), 'serve', '--port', '0', '--dir', dir], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    url = await new Promise<string>((resolve, reject) => {
      let text = '';
      server!.stdout!.on('data', (b: Buffer) => {
        text += b.toString();
        const m = /at (http:\/\/\S+\/) /.exec(text);
        if (m) resolve(m[1]!);
      });
      server!.stderr!.on('data', (b: Buffer) => (text += b.toString()));
      server!.once('exit', (code) => reject(new Error(`kernforge serve exited (${code}): ${text}`)));
    });
    // a fresh profile in a temporary folder (playwright's launch makes one per browser)
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless=new', '--no-sandbox', '--enable-unsafe-webgpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
    });
  }, 300_000);

  beforeEach(() => {
    problems.length = 0; // each test answers for its own pages
  });

  afterAll(async () => {
    await browser?.close();
    server?.kill('SIGTERM');
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** A page of the context that records console errors, page errors and failed requests in `problems`. */
  async function newPage(context: Awaited<ReturnType<Browser['newContext']>>): Promise<Page> {
    const page = await context.newPage();
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console.error: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    // a reload aborts what is in flight (net::ERR_ABORTED): not a failure of the page
    page.on('requestfailed', (r) => {
      if (!(reloading && r.failure()?.errorText === 'net::ERR_ABORTED')) problems.push(`request failed: ${r.url()} (${r.failure()?.errorText})`);
    });
    page.on('response', (r) => {
      if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`);
    });
    return page;
  }

  type Out = Record<string, unknown> & { done?: boolean; error?: string; ticks: number; lines: string[] };
  const result = async (page: Page, timeout = 120_000): Promise<Out> => {
    await page.waitForFunction(() => (window as unknown as { kf?: { done?: boolean } }).kf?.done, undefined, { timeout });
    return page.evaluate(() => (window as unknown as { kf: Out }).kf);
  };

  it('serves the page cross-origin isolated; GEM 1uwo_A on wasm (1 and 2 threads) within the f32 bar of the f64 reference; a WGSL variant verified on SwiftShader; gpu.js WebGL mode on the page WebGL2', async () => {
    const context = await browser!.newContext();
    const page = await newPage(context);
    await page.goto(`${url}site/index.html?mode=gem`);
    const out = await result(page);
    expect(out.error).toBeUndefined();
    expect(problems).toEqual([]);
    expect(out.isolated).toBe(true);
    expect(out.platform).toBe('browser');
    const wasm = out.wasm as { key: string; target: string; n: number; worst: number; scale: number };
    expect(wasm.target).toBe('wasm');
    expect(wasm.n).toBe(16529);
    // the f32 bar of the package test (an f32 sum over 1441 atoms): absolute 1e-4 on potentials of order 10
    expect(wasm.worst).toBeLessThan(1e-4);
    expect(wasm.scale).toBeGreaterThan(1);
    // two Web Workers split the vertices: every value is computed as on one thread
    expect(out.threads).toEqual({ threads: 2, maxDiff: 0 });
    const wgsl = out.wgsl as { key: string; target: string; worst: number };
    expect(wgsl.target).toBe('wgsl');
    expect(wgsl.worst).toBeLessThan(1e-4);
    const gpujs = out.gpujs as { key: string; target: string; worst: number };
    expect(gpujs.key).toMatch(/\.headlessgl$/);
    expect(gpujs.worst).toBeLessThan(1e-4);
    const devices = out.devices as { id: string; available: boolean; vendor?: string; architecture?: string; fingerprint: string }[];
    expect(devices.map((d) => [d.id, d.available])).toEqual([['cpu', true], ['webgpu', true]]);
    expect(devices[1]!.architecture).toBe('swiftshader'); // the adapter info feeds the fingerprint
    expect(devices[0]!.fingerprint).toMatch(/^[0-9a-f]{16}$/);

    // the same kernel in Node, from the same installed package (imported here), timed by the same
    // code, in rounds alternating with the page's (the machine's load moves both alike)
    const { timeGem } = new Function(`${TIMING}; return { timeGem };`)() as { timeGem: (kf: unknown, a: unknown, v: unknown, reps: number) => Promise<number> };
    const K = (await import(pathToFileURL(join(dir, 'node_modules', 'kernforge', 'dist', 'runtime', 'index.js')).href)) as typeof import('../runtime/index.ts');
    const m = K.bundledMolecule('1uwo_A');
    const atoms = K.readPqr(m.pqr), vertices = K.readVert(m.vert!);
    const kfn = await K.open({ tuned: false, targets: ['wasm'], log: () => undefined });
    expect((await kfn.gem.potential(atoms, vertices)).key).toBe(wasm.key);
    const rounds: { page: number; node: number }[] = [];
    for (let i = 0; i < 4; i++) rounds.push({ page: await page.evaluate((n) => (window as unknown as { kfTime(n: number): Promise<number> }).kfTime(n), 5), node: await timeGem(kfn, atoms, vertices, 5) });
    await context.close();
    const best = (k: 'page' | 'node') => Math.min(...rounds.map((r) => r[k]));
    expect(best('page')).toBeGreaterThan(0);
    console.log(`browser-bundle: ${wasm.key} on 1uwo_A (1441 atoms x 16529 vertices), 1 thread, 4 alternating rounds of median-of-5: page ${rounds.map((r) => r.page.toFixed(1)).join(' ')} ms, Node ${rounds.map((r) => r.node.toFixed(1)).join(' ')} ms; best page ${best('page').toFixed(1)} ms, best Node ${best('node').toFixed(1)} ms, page speed / Node speed ${(best('node') / best('page')).toFixed(2)}x`);
  }, 180_000);

  it('bundled by Vite instead: the GEM potential of Mb.Hhelix on wasm within the f32 bar', async () => {
    const context = await browser!.newContext();
    const page = await newPage(context);
    await page.goto(`${url}vite/dist/index.html?mode=small`);
    const out = await result(page);
    await context.close();
    expect(out.error).toBeUndefined();
    expect(problems).toEqual([]);
    expect(out.isolated).toBe(true);
    const small = out.small as { key: string; n: number; worst: number; scale: number };
    expect(small.key).toMatch(/^gem-potential\.wasm\./);
    expect(small.n).toBe(5884);
    expect(small.worst).toBeLessThan(1e-4);
    expect(small.scale).toBeGreaterThan(1);
  }, 120_000);

  it('in a page that is not cross-origin isolated (no SharedArrayBuffer): GEM Mb.Hhelix on one-thread wasm within the f32 bar', async () => {
    const context = await browser!.newContext();
    // the same files without the isolation headers
    await context.route('**/*', async (route) => {
      const r = await route.fetch();
      const headers = { ...r.headers() };
      delete headers['cross-origin-opener-policy'];
      delete headers['cross-origin-embedder-policy'];
      await route.fulfill({ response: r, headers });
    });
    const page = await newPage(context);
    await page.goto(`${url}site/index.html?mode=small`);
    const out = await result(page);
    const sab = await page.evaluate(() => typeof SharedArrayBuffer);
    await context.close();
    // before the one-thread image was a plain ArrayBuffer: "ReferenceError: SharedArrayBuffer is not defined"
    expect(out.error).toBeUndefined();
    expect(problems).toEqual([]);
    expect(out.isolated).toBe(false);
    expect(sab).toBe('undefined');
    const small = out.small as { key: string; n: number; worst: number; scale: number };
    expect(small.key).toMatch(/^gem-potential\.wasm\./);
    expect(small.n).toBe(5884);
    expect(small.worst).toBeLessThan(1e-4);
    expect(small.scale).toBeGreaterThan(1);
  }, 120_000);

  it('BigDFT on TypeScript with 2 threads through the documented workerUrl (dist/runtime/platform/browser-worker.js) equals 1 thread and the f64 reference', async () => {
    const context = await browser!.newContext();
    const page = await newPage(context);
    await page.goto(`${url}site/index.html?mode=bigdft`);
    const out = await result(page);
    await context.close();
    // with the mapping before 0d5b8a7 (a path under the assets URL that is not an asset was not tried against the core's root): "worker 0: ENOENT: no such file: .../dist/runtime/generated/manifest.json"
    expect(out.error).toBeUndefined();
    expect(problems).toEqual([]);
    const b = out.bigdft as { keys: string[]; threads: number[]; maxDiff: number; worst: number; scale: number };
    expect(b.keys[0]).toMatch(/^bigdft-conv\.ts\.kinetic\.periodic\.f64\./);
    expect(b.keys[1]).toBe(b.keys[0]);
    expect(b.threads).toEqual([1, 2]);
    expect(b.maxDiff).toBe(0); // the worker threads compute each line as one thread does
    expect(b.scale).toBeGreaterThan(1);
    expect(b.worst).toBeLessThan(1e-11 * b.scale);
  }, 120_000);

  it('a quick tune reloaded in its middle continues from the cache kept in IndexedDB', async () => {
    const context = await browser!.newContext();
    const page = await newPage(context);
    await page.goto(`${url}site/index.html?mode=tune`);
    // reload once a few candidates are measured (the cache is written through after each)
    await page.waitForFunction(() => {
      const kf = (window as unknown as { kf?: { ticks: number; done?: boolean } }).kf;
      return (kf?.ticks ?? 0) >= 6 || kf?.done;
    }, undefined, { timeout: 120_000 });
    const first = await page.evaluate(() => (window as unknown as { kf: Out }).kf);
    expect(first.error).toBeUndefined();
    expect(first.done, 'the tune ended before 6 evaluations').toBeUndefined();
    reloading = true;
    await page.reload();
    reloading = false;
    const out = await result(page);
    await context.close();
    expect(out.error).toBeUndefined();
    expect(problems).toEqual([]);
    const atStart = out.cacheAtStart as number[];
    expect(atStart).toHaveLength(1);
    expect(atStart[0]).toBeGreaterThanOrEqual(4); // what the first load measured survived the reload
    const rows = (out.tune as { rows: { winner?: string; candidates: number; measured: number; cached: number }[] }).rows;
    expect(rows).toHaveLength(1);
    expect(rows[0]!.cached).toBe(atStart[0]);
    expect(rows[0]!.measured + rows[0]!.cached).toBe(rows[0]!.candidates);
    expect(rows[0]!.winner).toMatch(/^gem-potential\.(ts|wasm)\./);
    const tuned = out.tuned as { format: string; tuned: Record<string, Record<string, Record<string, { key: string }>>> };
    expect(tuned.format).toBe('kernforge-tuned');
    expect(Object.values(tuned.tuned)[0]!['gem-potential']!['surface-small']!.key).toBe(rows[0]!.winner);
  }, 180_000);

  it('MD in a dedicated Web Worker on 2 threads (the polled channel over shared memory) equals 1 thread; a page offers no channel', async () => {
    const context = await browser!.newContext();
    const page = await newPage(context);
    await page.goto(`${url}site/index.html?mode=mdthreads`);
    const out = await result(page);
    await context.close();
    expect(out.error).toBeUndefined();
    expect(problems).toEqual([]);
    expect(out.pageChannel).toBe(false); // Atomics.wait is refused on a page's main thread
    const md = out.md as { channel: boolean; runs: { threads: number; searches: number; x: number[]; thermo: Record<string, number>[] }[]; lines: string[] };
    expect(md.channel).toBe(true);
    const [one, two] = md.runs;
    expect([one!.threads, two!.threads]).toEqual([1, 2]);
    expect(two!.searches).toBeGreaterThan(1); // pair searches split over the threads, their parts back through the channel
    expect(two!.searches).toBe(one!.searches);
    expect(two!.x).toHaveLength(one!.x.length);
    let d = 0;
    for (let i = 0; i < one!.x.length; i++) d = Math.max(d, Math.abs(two!.x[i]! - one!.x[i]!));
    expect(d).toBeLessThan(1e-9); // force sums in another order: round-off only
    expect(two!.thermo.length).toBe(one!.thermo.length);
    for (let r = 0; r < one!.thermo.length; r++) for (const [k, v] of Object.entries(one!.thermo[r]!)) if (typeof v === 'number') expect(Math.abs(two!.thermo[r]![k]! - v), `thermo row ${r} ${k}`).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(v)));
  }, 120_000);

  it('two tabs tuning the same family at once: the stored cache holds the results of both (a Web Lock, and the stored copy read again under it)', async () => {
    const context = await browser!.newContext();
    const pages = await Promise.all([0, 1].map(() => newPage(context)));
    await Promise.all(pages.map((p, i) => p.goto(`${url}site/index.html?mode=tune2&part=${i}`)));
    await Promise.all(pages.map((p) => p.waitForFunction(() => (window as unknown as { kf?: { ready?: boolean; done?: boolean } }).kf?.ready || (window as unknown as { kf?: { done?: boolean } }).kf?.done, undefined, { timeout: 60_000 })));
    await Promise.all(pages.map((p) => p.evaluate(() => (window as unknown as { kfGo(): void }).kfGo())));
    const outs = await Promise.all(pages.map((p) => result(p)));
    // what IndexedDB holds once both are done (each flushed its writes)
    const stored = await pages[0]!.evaluate(async () => {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const r = indexedDB.open('kernforge');
        r.onsuccess = () => resolve(r.result);
        r.onerror = () => reject(r.error);
      });
      const st = db.transaction('files').objectStore('files');
      const keys = await new Promise<IDBValidKey[]>((resolve) => (st.getAllKeys().onsuccess = (e) => resolve((e.target as IDBRequest<IDBValidKey[]>).result)));
      const caches = keys.map(String).filter((k) => k.startsWith('/.kernforge/tune/'));
      const text = await new Promise<string>((resolve) => (st.get(caches[0]!).onsuccess = (e) => resolve((e.target as IDBRequest<string>).result)));
      const f = JSON.parse(text) as { results: Record<string, { key: string; status: string }>; runs: unknown[] };
      return { caches, keys: Object.values(f.results).map((r) => r.key), runs: f.runs.length };
    });
    await context.close();
    expect(problems).toEqual([]);
    for (const o of outs) {
      expect(o.error).toBeUndefined();
      expect(o.locks).toBe(true);
      expect(o.lines.filter((l) => /Web Locks/.test(l))).toEqual([]);
    }
    const mine = outs.map((o) => o.mine as string[]);
    expect(mine[0]!.length).toBeGreaterThanOrEqual(2);
    expect(mine[1]!.length).toBeGreaterThanOrEqual(2);
    expect(mine[0]!.filter((k) => mine[1]!.includes(k))).toEqual([]); // disjoint halves
    for (const o of outs) expect((o.rows as { measured: number }[])[0]!.measured).toBeGreaterThanOrEqual(2);
    expect(stored.caches).toHaveLength(1); // one device, one cache file
    // without the lock, the tab that stores last overwrites the other's: its keys are missing
    for (const k of [...mine[0]!, ...mine[1]!]) expect(stored.keys, k).toContain(k);
    expect(stored.runs).toBe(2); // each tab's run record
  }, 120_000);
});
