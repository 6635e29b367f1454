// `kernforge bench browser`: the wasm kernels in a page against the same kernels in Node (issue 14's
// goal: at least 0.9x). A tiny page that imports the portable core (runtime/core.ts, bundled with
// esbuild for the browser) is served from the repository by runtime/serve.ts (cross-origin
// isolated) and opened in headless Debian Chromium (playwright-core); the baseline is this Node
// process with the Node platform. Both compute the GEM potential of the bundled 1uwo_A (1441 atoms
// x 16529 vertices) with the default wasm variant through open(), one thread, timed by the same
// function, in rounds that alternate between the page and Node (a loaded machine slows both
// alike); each round is the median of --reps calls after one untimed call. Printed: every round,
// the best and the median round of each side, and page speed / Node speed for both.
import { mkdirSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import { serve } from '../runtime/serve.ts';
import { open, readPqr, readVert, bundledMolecule } from '../runtime/index.ts';
import { UserError } from '../runtime/errors.ts';

const root = new URL('..', import.meta.url).pathname;
const CHROMIUM = '/usr/bin/chromium';

/** The timing function, the same text in the page and here. */
const TIMING = `
  async function timeGem(kf, atoms, vertices, reps) {
    await kf.gem.potential(atoms, vertices, { threads: 1 });
    const t = [];
    for (let i = 0; i < reps; i++) { const t0 = performance.now(); await kf.gem.potential(atoms, vertices, { threads: 1 }); t.push(performance.now() - t0); }
    t.sort((a, b) => a - b);
    return t[t.length >> 1];
  }
`;

const APP = `
  import { installBrowserPlatform, open, platform, bundledMolecule, parsePqr, parseVert } from '${root}runtime/core.ts';
  ${TIMING}
  (async () => {
    await installBrowserPlatform({ assets: '/', storage: false, stderr: () => {}, preload: { targets: [], data: ['data/gem/1uwo_A.pqr', 'data/gem/1uwo_A.vert'] } });
    const m = bundledMolecule('1uwo_A');
    const atoms = parsePqr(platform().readText(m.pqr)), vertices = parseVert(platform().readText(m.vert));
    const kf = await open({ tuned: false, targets: ['wasm'], log: () => {} });
    window.bench = { key: (await kf.gem.potential(atoms, vertices)).key, time: (reps) => timeGem(kf, atoms, vertices, reps), agent: navigator.userAgent };
  })().catch((e) => { window.bench = { error: String(e && e.stack || e) }; });
`;

const median = (a: number[]) => [...a].sort((x, y) => x - y)[a.length >> 1]!;

export async function benchBrowser(o: { rounds?: number; reps?: number } = {}): Promise<void> {
  const rounds = o.rounds ?? 8;
  const reps = o.reps ?? 5;
  if (!existsSync(CHROMIUM)) throw new UserError(`kernforge bench browser needs Debian's chromium at ${CHROMIUM} (apt-get install -y chromium)`);
  // the page lives in .kernforge/ of the repository, which is served whole: generated/, data/ and specs/ are the assets
  const page = join(root, '.kernforge', 'bench-browser');
  rmSync(page, { recursive: true, force: true });
  mkdirSync(page, { recursive: true });
  writeFileSync(join(page, 'main.js'), APP);
  writeFileSync(join(page, 'index.html'), '<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>kernforge bench</title></head><body><script type="module" src="app.js"></script></body></html>\n');
  await esbuild.build({ entryPoints: [join(page, 'main.js')], bundle: true, platform: 'browser', format: 'esm', target: 'es2022', outfile: join(page, 'app.js'), logLevel: 'error' });
  const server = await serve({ dir: root, port: 0 });
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless=new', '--no-sandbox', '--enable-unsafe-webgpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'] });
  try {
    const tab = await browser.newPage();
    await tab.goto(`${server.url}.kernforge/bench-browser/index.html`);
    await tab.waitForFunction(() => (window as unknown as { bench?: unknown }).bench, undefined, { timeout: 120_000 });
    const info = await tab.evaluate(() => {
      const b = (window as unknown as { bench: { key?: string; agent?: string; error?: string } }).bench;
      return { key: b.key, agent: b.agent, error: b.error };
    });
    if (info.error) throw new Error(`the page failed: ${info.error}`);
    const { timeGem } = new Function(`${TIMING}; return { timeGem };`)() as { timeGem: (kf: unknown, a: unknown, v: unknown, reps: number) => Promise<number> };
    const m = bundledMolecule('1uwo_A');
    const atoms = readPqr(m.pqr), vertices = readVert(m.vert!);
    const kf = await open({ tuned: false, targets: ['wasm'], log: () => undefined });
    const key = (await kf.gem.potential(atoms, vertices)).key;
    if (key !== info.key) throw new Error(`the page runs ${info.key}, Node ${key}: not the same kernel`);
    const chrome = /Chrome\/([\d.]+)/.exec(info.agent ?? '')?.[1] ?? '?';
    console.log(`wasm GEM kernel ${key} on 1uwo_A (1441 atoms x 16529 vertices), 1 thread; ${rounds} rounds alternating the page (Chromium ${chrome}) and Node ${process.version}, each the median of ${reps} calls`);
    const page: number[] = [], node: number[] = [];
    for (let r = 0; r < rounds; r++) {
      page.push(await tab.evaluate((n) => (window as unknown as { bench: { time(n: number): Promise<number> } }).bench.time(n), reps));
      node.push(await timeGem(kf, atoms, vertices, reps));
      console.log(`  round ${r + 1}: page ${page[r]!.toFixed(1)} ms, Node ${node[r]!.toFixed(1)} ms`);
    }
    const best = (a: number[]) => Math.min(...a);
    console.log(`best round:   page ${best(page).toFixed(1)} ms, Node ${best(node).toFixed(1)} ms: page speed / Node speed ${(best(node) / best(page)).toFixed(2)}x (goal: at least 0.9x)`);
    console.log(`median round: page ${median(page).toFixed(1)} ms, Node ${median(node).toFixed(1)} ms: page speed / Node speed ${(median(node) / median(page)).toFixed(2)}x`);
  } finally {
    await browser.close();
    await server.close();
    rmSync(page, { recursive: true, force: true });
  }
}
