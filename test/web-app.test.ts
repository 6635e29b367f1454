// The web app (issue 14, web/) in headless Debian Chromium (playwright-core, WebGPU on
// SwiftShader), built by web/build.mjs into a temporary folder and served from localhost by
// runtime/serve.ts (the `kernforge serve` server: COOP/COEP). One browser profile for the whole
// file, in order: the page loads with the devices and no console error or failed request; a quick
// tune (one quick class per family, a few candidates) is interrupted by a reload and resumes from
// the cache kept in IndexedDB, and ends with verified winners on WGSL and wasm; the report draws
// the page's caches beside a fixture device's; the downloaded artefact loads in Node's open() and
// `kernforge merge-tuned` takes it; the GEM potential of 1uwo_A in the page matches the f64
// reference within the f32 bar on every vertex; the Mb.Hhelix surface holds both ends of the
// colour scale (the screenshot is docs/img/web-gem-mb_hhelix.png); an MD run plots its energies;
// a malformed PQR, a file far too large and a browser without WebGPU each get one clear message.
// The per-family winners and speed-ups of the tune are printed (the measurement of issue 14).
import { describe, it, expect, beforeAll, afterAll, vi } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync, mkdirSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import type { BrowserContext, Page } from 'playwright-core';
import { serve, type StaticServer } from '../runtime/serve.ts';
import { readPqr, readVert, bundledMolecule, open } from '../runtime/index.ts';
import { checkGemPotentials, GEM_VERIFY_RTOL } from '../runtime/gem/gate.ts';
import { readTunedFile } from '../runtime/tune/tuned.ts';
import type { GemParams } from '../runtime/gem/model.ts';
import { main } from '../cli/main.ts';

const CHROMIUM = '/usr/bin/chromium';
const root = new URL('..', import.meta.url).pathname;
const haveChromium = existsSync(CHROMIUM);
const inCi = !!process.env.CI && process.env.CI !== 'false';
if (!haveChromium && !inCi) console.warn(`web-app.test.ts: skipped: ${CHROMIUM} is absent and this is not CI (apt-get install -y chromium)`);

const ARGS = ['--headless=new', '--no-sandbox', '--enable-unsafe-webgpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'];

interface Row {
  device: string;
  family: string;
  problem: string;
  candidates: number;
  bestKey?: string;
  bestMs?: number;
  chosenKey?: string;
  defaultKey?: string;
  defaultMs?: number;
  speedup?: number;
  measured: number;
  cached: number;
  failed: number;
  bestByTarget?: Record<string, { key: string; medianMs: number }>;
}

type AppState = {
  facts?: { id: string; ok: boolean; why?: string }[];
  devices?: { id: string; available: boolean; fingerprint: string }[];
  tune?: { running: boolean; done: number; total: number; resumed: boolean; rows?: Row[]; interrupted?: boolean; error?: string; seconds?: number };
  gem?: { running: boolean; name?: string; n?: number; key?: string; target?: string; source?: string; phi?: number[]; check?: { ok: boolean; worst: number }; clamp?: number; error?: string; params?: Record<string, number> };
  md?: { running: boolean; rows: { step: number; values: Record<string, number> }[]; error?: string; key?: string; plotted?: number };
  report?: { charts: number; devices: number; error?: string };
  errors: string[];
};

/** Problems seen anywhere in the run: console errors, page errors, failed requests, HTTP errors. */
const problems: string[] = [];
let server: StaticServer;
let context: BrowserContext;
let page: Page;
let served = '';
let reloading = false;

function watch(p: Page): void {
  p.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console.error: ${m.text()}`);
  });
  p.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  // a reload aborts the requests in flight (net::ERR_ABORTED): not a failure of the page
  p.on('requestfailed', (r) => {
    if (!(reloading && r.failure()?.errorText === 'net::ERR_ABORTED')) problems.push(`request failed: ${r.url()} (${r.failure()?.errorText})`);
  });
  p.on('response', (r) => {
    if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`);
  });
  // nothing beyond the server: every request must be to it (or a blob:/data: URL of the page)
  p.on('request', (r) => {
    const u = r.url();
    if (!u.startsWith(served) && !/^(blob|data|about):/.test(u)) problems.push(`request outside the served folder: ${u}`);
  });
}

const state = (p: Page = page) => p.evaluate(() => (window as unknown as { kernforgeApp: AppState }).kernforgeApp) as Promise<AppState>;
/**
 * Wait for `fn` to hold in the page; on a timeout, fail with what the page shows (its state
 * without the long arrays, and the status lines of its panels) so a stall says where it stopped.
 */
async function until(p: Page, fn: string, timeout: number): Promise<void> {
  try {
    await p.waitForFunction(fn, null, { timeout, polling: 250 });
  } catch (e) {
    const seen = await p
      .evaluate(() => {
        const app = (window as unknown as { kernforgeApp: Record<string, unknown> }).kernforgeApp;
        const text = (id: string) => document.getElementById(id)?.textContent?.slice(0, 300);
        return JSON.stringify({ app, status: { tune: text('tune-status'), gem: text('gem-status'), md: text('md-status') } }, (k, v) => (k === 'phi' || k === 'rows' ? `[${(v as unknown[]).length}]` : v));
      })
      .catch((err: Error) => `(the page did not answer: ${err.message})`);
    throw new Error(`${(e as Error).message.split('\n')[0]}\nwaiting for ${fn}; the page shows ${seen}`);
  }
}

async function cli(...args: string[]): Promise<{ status: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void out.push(a.join(' ')));
  const error = vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void err.push(a.join(' ')));
  try {
    return { status: await main(args), out: out.join('\n'), err: err.join('\n') };
  } finally {
    log.mockRestore();
    error.mockRestore();
  }
}

/** 8-bit RGB(A) PNG, not interlaced: the pixels (Playwright's screenshots). */
function decodePng(buf: Buffer): { width: number; height: number; px(x: number, y: number): [number, number, number] } {
  expect([...buf.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  let off = 8, width = 0, height = 0, ch = 0;
  const idat: Buffer[] = [];
  for (;;) {
    const len = buf.readUInt32BE(off);
    const type = buf.toString('latin1', off + 4, off + 8);
    const data = buf.subarray(off + 8, off + 8 + len);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      expect(data[8]).toBe(8);
      ch = data[9] === 2 ? 3 : data[9] === 6 ? 4 : 0;
      expect(ch).toBeGreaterThan(0);
      expect(data[12]).toBe(0);
    } else if (type === 'IDAT') idat.push(data);
    off += 12 + len;
    if (type === 'IEND') break;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * ch;
  const out = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    const f = raw[y * (stride + 1)]!;
    for (let i = 0; i < stride; i++) {
      const x = raw[y * (stride + 1) + 1 + i]!;
      const a = i >= ch ? out[y * stride + i - ch]! : 0;
      const b = y > 0 ? out[(y - 1) * stride + i]! : 0;
      const c = i >= ch && y > 0 ? out[(y - 1) * stride + i - ch]! : 0;
      const p = a + b - c;
      const pr = Math.abs(p - a) <= Math.abs(p - b) && Math.abs(p - a) <= Math.abs(p - c) ? a : Math.abs(p - b) <= Math.abs(p - c) ? b : c;
      out[y * stride + i] = (x + [0, a, b, (a + b) >> 1, pr][f]!) & 255;
    }
  }
  return { width, height, px: (x, y) => [out[y * stride + x * ch]!, out[y * stride + x * ch + 1]!, out[y * stride + x * ch + 2]!] };
}

describe.skipIf(!haveChromium && !inCi)('the web app in headless Chromium', () => {
  beforeAll(async () => {
    expect(haveChromium, `${CHROMIUM} is missing in CI: .ci/run must install Debian's chromium`).toBe(true);
    // KERNFORGE_TEST_WEB_DIR: serve a page built beforehand (node web/build.mjs --out <dir>) instead of building one
    const dir = process.env.KERNFORGE_TEST_WEB_DIR ?? mkdtempSync(join(tmpdir(), 'kf-web-'));
    if (!process.env.KERNFORGE_TEST_WEB_DIR) execFileSync(process.execPath, [join(root, 'web', 'build.mjs'), '--out', dir], { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] });
    server = await serve({ dir, port: 0 });
    served = server.url;
    const { chromium } = await import('playwright-core');
    context = await chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), 'kf-web-profile-')), { executablePath: CHROMIUM, args: ARGS, viewport: { width: 1200, height: 900 }, acceptDownloads: true });
    page = await context.newPage();
    watch(page);
  });
  afterAll(async () => {
    await context?.close();
    await server?.close();
  });

  it('shows the devices, each missing one with its reason, with no console error or failed request', async () => {
    await page.goto(served);
    await page.waitForSelector('body[data-ready]', { timeout: 60_000 });
    const s = await state();
    const fact = (id: string) => s.facts!.find((f) => f.id === id)!;
    // SwiftShader's adapter, WebAssembly SIMD, and threads: the server sends COOP/COEP
    expect(fact('webgpu').ok, fact('webgpu').why).toBe(true);
    expect(fact('wasm-simd').ok).toBe(true);
    expect(fact('threads').ok, fact('threads').why).toBe(true);
    expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
    // the core's devices: the CPU (ts, wasm) and the WebGPU adapter (wgsl)
    expect(s.devices!.map((d) => [d.id, d.available])).toEqual([['cpu', true], ['webgpu', true]]);
    expect(await page.locator('#core-devices [data-device=cpu]').textContent()).toMatch(/targets ts, wasm/);
    expect(await page.locator('#core-devices [data-device=webgpu]').textContent()).toMatch(/targets wgsl/);
    expect(problems).toEqual([]);
  });

  let rows: Row[] = [];
  it('tunes the quick classes in a worker, resumes after a reload from the cache, and verifies winners on WGSL and wasm', { timeout: 300_000 }, async () => {
    // one quick class per family (md-nonbonded lj-fluid-f32-small, gem-potential surface-small,
    // bigdft-conv magic-f32-small), two candidates per class and device besides the default
    await page.selectOption('[name=problems]', 'one');
    await page.fill('[name=maxEvals]', '2');
    await page.fill('[name=reps]', '2');
    await page.click('#tune-start');
    await until(page, '(window.kernforgeApp.tune?.done ?? 0) >= 5 || window.kernforgeApp.tune?.error', 120_000);
    expect((await state()).tune!.error).toBeUndefined();
    // the page stays responsive while the worker tunes
    const t0 = Date.now();
    expect(await page.evaluate(() => document.querySelectorAll('section').length)).toBe(5);
    expect(Date.now() - t0).toBeLessThan(2000);
    const before = (await state()).tune!;
    expect(before.running).toBe(true);
    expect(before.total).toBeGreaterThan(before.done);
    expect(await page.locator('#tune-status').textContent()).toMatch(/\d+ \/ \d+ evaluations/);
    await page.waitForTimeout(500); // the last measurement's write reaches IndexedDB
    reloading = true;
    await page.reload();
    await page.waitForSelector('body[data-ready]', { timeout: 60_000 });
    reloading = false;
    await until(page, 'window.kernforgeApp.tune?.resumed === true', 30_000);
    await until(page, 'window.kernforgeApp.tune && !window.kernforgeApp.tune.running', 240_000);
    const t = (await state()).tune!;
    expect(t.error).toBeUndefined();
    expect(t.interrupted).toBe(false);
    rows = t.rows!;
    // what was measured before the reload came from the cache
    const cached = rows.reduce((n, r) => n + r.cached, 0);
    expect(cached).toBeGreaterThanOrEqual(4);
    expect(await page.locator('#tune-status').textContent()).toMatch(/reused/);
    const row = (device: string, family: string) => rows.find((r) => r.device === device && r.family === family)!;
    // GEM: the fastest verified WGSL variant on the adapter, wasm among the CPU's verified ones
    expect(row('webgpu', 'gem-potential').bestByTarget?.wgsl?.key ?? row('webgpu', 'gem-potential').bestKey).toMatch(/^gem-potential\.wgsl\./);
    expect(row('cpu', 'gem-potential').bestByTarget?.wasm?.key).toMatch(/^gem-potential\.wasm\./);
    for (const r of rows) if (r.candidates > 0) expect(r.bestKey, `${r.device} ${r.family} ${r.problem}`).toBeTruthy();
    // every timed result was verified against the f64 reference first: worst error within the tolerance
    const kept = await page.evaluate(() => (window as unknown as { kernforgeApp: { kept(): Promise<{ caches: { file: string; text: string }[] }> } }).kernforgeApp.kept());
    const results = kept.caches.flatMap((c) => Object.values((JSON.parse(c.text) as { results: Record<string, { status: string; verifyError?: number; key: string }> }).results));
    const ok = results.filter((r) => r.status === 'ok');
    expect(ok.some((r) => r.key.includes('.wgsl.'))).toBe(true);
    expect(ok.some((r) => r.key.includes('.wasm.'))).toBe(true);
    for (const r of ok) expect(r.verifyError, r.key).toBeLessThanOrEqual(1);
    // the measurement: per family the tuned winner and its speed-up over the default, one Chromium run
    const lines = rows.map((r) => `${r.device.padEnd(6)} ${r.family.padEnd(13)} ${r.problem.padEnd(18)} ${(r.bestKey ?? '-').padEnd(72)} ${r.bestMs?.toFixed(3) ?? '-'} ms, default ${r.defaultMs?.toFixed(3) ?? '-'} ms, speed-up ${r.speedup?.toFixed(2) ?? '-'}x (${r.measured} measured, ${r.cached} cached, ${r.failed} failed of ${r.candidates})`);
    console.log(`web app tune in ${(await page.evaluate(() => navigator.userAgent)).match(/Chrome\/[\d.]+/)?.[0]}:\n${lines.join('\n')}`);
    expect(problems).toEqual([]);
  });

  it('draws the report with the charts of kernforge report, devices side by side', async () => {
    await until(page, 'window.kernforgeApp.report?.charts > 0', 30_000);
    const fixtures = join(root, 'test', 'tune', 'fixtures');
    await page.setInputFiles('#report-files', readdirSync(fixtures).filter((f) => f.endsWith('.json')).map((f) => join(fixtures, f)));
    await until(page, 'window.kernforgeApp.report?.devices >= 4', 30_000);
    // a tuned artefact of another machine joins them: its winners and defaults as a device
    const laptop = join(mkdtempSync(join(tmpdir(), 'kf-web-')), 'laptop-tuned.json');
    writeFileSync(laptop, JSON.stringify({
      format: 'kernforge-tuned', version: 1,
      devices: { '0123456789abcdef': { id: 'cpu', target: 'ts', name: 'a laptop', targets: ['ts', 'wasm'] } },
      tuned: { '0123456789abcdef': { 'gem-potential': { 'surface-small': { key: 'gem-potential.wasm.region1.f32.zero.unroll8.div.block0.vertices', medianMs: 0.4, defaultKey: 'gem-potential.ts.region1.f32.zero.unroll4.div.block0', defaultMs: 2.5, speedup: 6.25, when: '2026-11-24T00:00:00Z' } } } },
    }));
    await page.setInputFiles('#report-files', [...readdirSync(fixtures).filter((f) => f.endsWith('.json')).map((f) => join(fixtures, f)), laptop]);
    await until(page, 'window.kernforgeApp.report?.devices >= 5', 30_000);
    expect(await page.frameLocator('#report-frame').locator('table').first().textContent()).toContain('a laptop');
    const r = (await state()).report!;
    expect(r.error).toBeUndefined();
    const frame = page.frameLocator('#report-frame');
    expect(await frame.locator('canvas[data-section=devices]').count()).toBe(1);
    expect(await frame.locator('canvas').count()).toBe(r.charts);
    // a file that is not a cache or an artefact is named in one line
    const bad = join(mkdtempSync(join(tmpdir(), 'kf-web-')), 'notes.json');
    writeFileSync(bad, JSON.stringify({ format: 'something-else' }));
    await page.setInputFiles('#report-files', bad);
    await expect.poll(() => page.locator('#report-error').textContent()).toMatch(/notes\.json: not a kernforge tune cache/);
    expect(problems).toEqual([]);
  });

  it('downloads the tuned artefact; Node open() loads it and kernforge merge-tuned takes it', async () => {
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#download')]);
    expect(download.suggestedFilename()).toBe('kernforge-tuned.json');
    const dir = mkdtempSync(join(tmpdir(), 'kf-web-'));
    const file = join(dir, 'kernforge-tuned.json');
    await download.saveAs(file);
    const tuned = readTunedFile(file);
    const fps = Object.keys(tuned.tuned);
    expect(fps.length).toBe(2);
    for (const r of rows.filter((x) => x.chosenKey)) {
      const fp = fps.find((f) => tuned.devices[f]!.id === r.device)!;
      expect(tuned.tuned[fp]![r.family]![r.problem]!.key).toBe(r.chosenKey!.replace(/@\d+t$/, ''));
    }
    const notes: string[] = [];
    const kf = await open({ tuned: file, log: (l) => notes.push(l) });
    const m = bundledMolecule('1uwo_A');
    const g = await kf.gem.potential(readPqr(m.pqr), readVert(m.vert!));
    expect(g.phi.length).toBeGreaterThan(1000);
    await kf.close();
    const out = join(dir, 'fleet.json');
    const c = await cli('merge-tuned', file, '-o', out);
    expect(c.err).toBe('');
    expect(c.status).toBe(0);
    expect(Object.keys(readTunedFile(out).tuned).sort()).toEqual(fps.sort());
  });

  it('computes the GEM potential of 1uwo_A with the tuned winner, within the f32 bar of the f64 reference on every vertex', async () => {
    await page.selectOption('#gem-molecule', '1uwo_A');
    await page.click('#gem-run');
    await until(page, 'window.kernforgeApp.gem && !window.kernforgeApp.gem.running', 120_000);
    const g = (await state()).gem!;
    expect(g.error).toBeUndefined();
    const m = bundledMolecule('1uwo_A');
    const atoms = readPqr(m.pqr);
    const verts = readVert(m.vert!);
    expect(g.n).toBe(verts.n);
    expect(g.source).toBe('tuned');
    const precision = /\.f64\./.test(g.key!) ? 'f64' : 'f32';
    const params = g.params as unknown as GemParams;
    const region = 1;
    const check = checkGemPotentials(g.phi!, Array.from({ length: verts.n }, (_, i) => i), GEM_VERIFY_RTOL[precision], atoms, verts, params, region);
    expect(check.ok, check.detail).toBe(true);
    expect(g.check!.ok).toBe(true);
    expect(Math.abs(g.check!.worst - check.worst)).toBeLessThan(1e-9);
    console.log(`web app GEM 1uwo_A: ${g.key} on ${g.target} (${g.source}), ${verts.n} vertices: worst ${check.worst.toFixed(3)} of the f32 tolerance, max |diff| ${check.maxAbs.toExponential(2)} kcal/mol/e`);
    expect(problems).toEqual([]);
  });

  it('shows the Mb.Hhelix surface with both ends of the colour scale, and turns it', async () => {
    await page.selectOption('#gem-molecule', 'mb_hhelix');
    await page.click('#gem-run');
    await until(page, 'window.kernforgeApp.gem && !window.kernforgeApp.gem.running && window.kernforgeApp.gem.name === "mb_hhelix"', 120_000);
    const g = (await state()).gem!;
    expect(g.error).toBeUndefined();
    expect(g.n).toBe(5884);
    const canvas = page.locator('#gem-canvas');
    const png = await canvas.screenshot();
    const img = decodePng(png);
    let red = 0, blue = 0, white = 0;
    for (let y = 0; y < img.height; y++) {
      for (let x = 0; x < img.width; x++) {
        const [r, gg, b] = img.px(x, y);
        if (r > 200 && gg < 60 && b < 60) red++;
        if (b > 200 && r < 60 && gg < 60) blue++;
        if (r > 220 && gg > 220 && b > 220) white++;
      }
    }
    // the colour scale's ends: saturated red (phi <= -clamp) and saturated blue (phi >= +clamp)
    expect(red, 'saturated red pixels').toBeGreaterThan(100);
    expect(blue, 'saturated blue pixels').toBeGreaterThan(100);
    expect(white, 'near-zero (white) pixels').toBeGreaterThan(100);
    mkdirSync(join(root, 'docs', 'img'), { recursive: true });
    // the docs' picture (docs/browser.md): written when missing, or refreshed with KERNFORGE_UPDATE_DOCS=1
    const docsImg = join(root, 'docs', 'img', 'web-gem-mb_hhelix.png');
    if (!existsSync(docsImg) || process.env.KERNFORGE_UPDATE_DOCS === '1') writeFileSync(docsImg, png);
    // the colour bar shows the clamp
    expect(await page.locator('#gem-bar .hi').textContent()).toBe(`+${g.clamp!.toPrecision(3)}`);
    // dragging turns it: the picture changes
    const box = (await canvas.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 200, box.y + box.height / 2, { steps: 5 });
    await page.mouse.up();
    await page.waitForTimeout(300);
    expect(Buffer.compare(await canvas.screenshot(), png)).not.toBe(0);
    expect(problems).toEqual([]);
  });

  it('runs MD live with the tuned kernel, energies plotted as it runs', async () => {
    await page.selectOption('#md-system', 'lj');
    await page.selectOption('#md-precision', 'f32');
    await page.fill('#md-steps', '200');
    await page.click('#md-run');
    await until(page, 'window.kernforgeApp.md && !window.kernforgeApp.md.running', 120_000);
    const md = (await state()).md!;
    expect(md.error).toBeUndefined();
    expect(md.rows.length).toBeGreaterThan(50);
    expect(md.rows.at(-1)!.step).toBe(200);
    // the force kernel is the CPU's tuned winner for the LJ fluid in f32 (lj-fluid-f32-small serves lj-fluid-f32)
    const won = rows.find((r) => r.device === 'cpu' && r.problem === 'lj-fluid-f32-small')!;
    expect(md.key).toBe(won.chosenKey!.replace(/@\d+t$/, ''));
    // NVE: the total energy per atom stays within 1% while the potential energy moves
    const e = md.rows.map((r) => r.values['TotEng/N']!);
    expect(Math.max(...e) - Math.min(...e)).toBeLessThan(0.01 * Math.abs(e[0]!));
    // every thermo sample is on the chart: the potential and the total energy per atom
    expect(md.plotted).toBe(2 * md.rows.length);
    expect(problems).toEqual([]);
  });

  it('a malformed PQR and a file far too large get one clear message in the page', async () => {
    await page.setInputFiles('#gem-files', [{ name: 'bad.pqr', mimeType: 'text/plain', buffer: Buffer.from('REMARK test\nATOM      1  N   ALA A   1      1.000   2.000   3.000  0.1000 1.5000\nATOM      2  CA  ALA A   1      1.500   abc   3.000  0.1000 1.5000\n') }]);
    await expect.poll(() => page.locator('#gem-error').textContent(), { timeout: 30_000 }).toBe('bad.pqr:3: y is not a number: "abc"');
    const huge = join(mkdtempSync(join(tmpdir(), 'kf-web-')), 'huge.pqr');
    writeFileSync(huge, Buffer.alloc(65 * 2 ** 20, 32));
    await page.setInputFiles('#gem-files', huge);
    await expect.poll(() => page.locator('#gem-error').textContent(), { timeout: 30_000 }).toBe('huge.pqr is 65 MiB; the page reads files up to 64 MiB');
    expect(await page.evaluate(() => 1 + 1)).toBe(2); // not frozen
    expect(problems).toEqual([]);
  });

  it('without WebGPU: the reason in the page, and GEM still runs on the CPU', { timeout: 200_000 }, async () => {
    const p = await context.newPage();
    watch(p);
    await p.addInitScript(() => Object.defineProperty(Navigator.prototype, 'gpu', { get: () => undefined, configurable: true }));
    await p.goto(served);
    await p.waitForSelector('body[data-ready]', { timeout: 60_000 });
    const s = await state(p);
    // the report of the caches this browser kept is drawn before the page says it is ready: it
    // lies above the GEM panel, and appearing later it moved the Compute button under a click
    expect(s.report?.charts).toBeGreaterThan(0);
    const gpu = s.facts!.find((f) => f.id === 'webgpu')!;
    expect(gpu.ok).toBe(false);
    expect(gpu.why).toMatch(/navigator\.gpu is absent/);
    expect(await p.locator('tr[data-fact=webgpu]').textContent()).toMatch(/navigator\.gpu is absent/);
    expect(await p.locator('input[name=device][value=webgpu]').isDisabled()).toBe(true);
    await p.selectOption('#gem-molecule', 'mb_hhelix');
    await p.click('#gem-run');
    await until(p, 'window.kernforgeApp.gem && !window.kernforgeApp.gem.running', 120_000);
    const g = (await state(p)).gem!;
    console.log(`web app GEM Mb.Hhelix without WebGPU: ${g.key} on ${g.target} (${g.source})`);
    expect(g.error).toBeUndefined();
    expect(g.target).not.toBe('wgsl');
    expect(g.check!.ok).toBe(true);
    await p.close();
    expect(problems).toEqual([]);
  });
});
