// `kernforge report` and `kernforge bench tuner` on synthetic tune caches (test/tune/fixtures: two
// devices, two families, failures of every kind, recorded runs): cache loading and its errors, the
// report's data, the page itself in headless Chromium (no console or page errors, no network,
// every chart drawn with the expected number of data points), and the strategy benchmark's numbers
// on landscapes where the answer is known.
import { describe, it, expect, vi, afterEach, beforeAll } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync, mkdirSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../cli/main.ts';
import {
  buildReportData,
  evaluationTimes,
  exhaustiveSets,
  loadCaches,
  quantile,
  relativeBestSoFar,
  renderReportHtml,
  ReportInputError,
  writeReport,
  type LoadedCache,
  type ReplayFn,
  type TuneCacheFile,
} from '../../runtime/tune/report.ts';
import { benchTuner, budgetFor, formatTunerBench } from '../../bench/tuner.ts';

const FIXTURES = new URL('./fixtures/', import.meta.url).pathname;
const CHROMIUM = '/usr/bin/chromium';
const tmp = () => mkdtempSync(join(tmpdir(), 'kf-report-'));

async function cli(...args: string[]): Promise<{ status: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void out.push(a.join(' ')));
  const error = vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void err.push(a.join(' ')));
  try {
    const status = await main(args);
    return { status, out: out.join('\n'), err: err.join('\n') };
  } finally {
    log.mockRestore();
    error.mockRestore();
  }
}

afterEach(() => vi.restoreAllMocks());

const fixtureFiles = readdirSync(FIXTURES).filter((f) => f.endsWith('.json'));
const fixtures = fixtureFiles.map((f) => JSON.parse(readFileSync(join(FIXTURES, f), 'utf8')) as TuneCacheFile);

/** Axes with more than one value among a family's successes, as the report draws them. */
function expectedAxisPoints(): number {
  let n = 0;
  const families = new Set(fixtures.flatMap((c) => Object.values(c.results).map((r) => r.family)));
  for (const family of families) {
    const ok = fixtures.flatMap((c) => Object.values(c.results).filter((r) => r.family === family && r.status === 'ok'));
    const axes = new Set(ok.flatMap((r) => Object.keys(r.params)));
    for (const a of axes) if (new Set(ok.filter((r) => a in r.params).map((r) => String(r.params[a]))).size > 1) n += ok.filter((r) => a in r.params).length;
  }
  return n;
}

describe('tune cache loading', () => {
  it('reads the fixture caches: two devices, all statuses, runs', () => {
    const caches = loadCaches(FIXTURES);
    expect(caches.map((c) => c.cache.device.id).sort()).toEqual(['cpu', 'webgpu']);
    const statuses = new Set(caches.flatMap((c) => Object.values(c.cache.results).map((r) => r.status)));
    expect([...statuses].sort()).toEqual(['compile-error', 'device-lost', 'error', 'ok', 'timeout', 'wrong']);
    // three family/problem sets have a finished exhaustive run; the GPU's gem-potential set has none
    expect(exhaustiveSets(caches).map((s) => `${s.device.id}:${s.family}`).sort()).toEqual(['cpu:gem-potential', 'cpu:md-nonbonded', 'webgpu:md-nonbonded']);
    expect(exhaustiveSets(caches, true)).toHaveLength(4);
  });

  it('says where it looked when there is no cache file', () => {
    const empty = tmp();
    writeFileSync(join(empty, 'notes.txt'), 'not a cache');
    expect(() => loadCaches(empty)).toThrow(ReportInputError);
    expect(() => loadCaches(empty)).toThrow(`looked for *.json in ${empty}`);
    expect(() => loadCaches(join(empty, 'missing'))).toThrow(`the folder ${join(empty, 'missing')} does not exist`);
  });

  it('names a corrupt or foreign file', () => {
    const dir = tmp();
    copyFileSync(join(FIXTURES, fixtureFiles[0]!), join(dir, 'a.json'));
    writeFileSync(join(dir, 'b.json'), '{"format": "kernforge-tune-cache", "version": 1, "device": {');
    expect(() => loadCaches(dir)).toThrow(/b\.json is corrupt \(not valid JSON/);
    writeFileSync(join(dir, 'b.json'), JSON.stringify({ format: 'something-else', version: 1 }));
    expect(() => loadCaches(dir)).toThrow(/b\.json: not a kernforge tune cache \(format is "something-else"/);
    writeFileSync(join(dir, 'b.json'), JSON.stringify({ ...fixtures[0], version: 2 }));
    expect(() => loadCaches(dir)).toThrow(/b\.json: tune cache version 2; this report reads version 1/);
    const bad = structuredClone(fixtures[0]!);
    const first = Object.keys(bad.results)[0]!;
    delete (bad.results[first] as { medianMs?: number }).medianMs;
    writeFileSync(join(dir, 'b.json'), JSON.stringify(bad));
    expect(() => loadCaches(dir)).toThrow(`b.json: result "${first}": status ok but "medianMs" is not a finite number`);
  });
});

describe('report numbers', () => {
  it('quantiles, best-so-far and replay results', () => {
    expect(quantile([4, 1, 3, 2], 0.5)).toBe(2.5);
    expect(quantile([1, 2, 3, 4, 5], 0.25)).toBe(2);
    expect(quantile([1, Infinity, Infinity], 0.5)).toBe(Infinity);
    expect(relativeBestSoFar([null, 20, 40, 10, null], 10)).toEqual([0, 0.5, 0.5, 1, 1]);
    const rec = new Map<string, number | null>([['a', 2], ['b', null]]);
    expect(evaluationTimes(['b', 'a'], rec)).toEqual([null, 2]);
    expect(evaluationTimes({ evaluations: [{ key: 'a', medianMs: 2 }, { key: 'b', medianMs: null }] }, rec)).toEqual([2, null]);
    expect(() => evaluationTimes(42, rec)).toThrow(/not an evaluation sequence/);
  });

  it('builds every section from the fixtures, with the tuner\'s replays', async () => {
    const d = await buildReportData(loadCaches(FIXTURES), { seeds: 3 });
    expect(d.devices).toHaveLength(2);
    expect(d.variants).toHaveLength(4);
    const ok = fixtures.reduce((n, c) => n + Object.values(c.results).filter((r) => r.status === 'ok').length, 0);
    const failed = fixtures.reduce((n, c) => n + Object.values(c.results).filter((r) => r.status !== 'ok').length, 0);
    expect(d.variants.reduce((n, v) => n + v.ok.length, 0)).toBe(ok);
    expect(d.variants.reduce((n, v) => n + v.failed.length, 0)).toBe(failed);
    for (const v of d.variants) for (let i = 1; i < v.ok.length; i++) expect(v.ok[i]!.ms).toBeGreaterThanOrEqual(v.ok[i - 1]!.ms);
    expect(d.axes.map((a) => `${a.family}:${a.axis}`)).toEqual([
      'gem-potential:block', 'gem-potential:unroll', 'gem-potential:workgroup',
      'md-nonbonded:cluster', 'md-nonbonded:cutoff', 'md-nonbonded:exclusion', 'md-nonbonded:jsplit', 'md-nonbonded:workgroup',
    ]);
    expect(d.axes.find((a) => a.axis === 'cluster')!.values).toEqual(['1x1', '2x2', '4x2', '4x4', '4x8', '8x4', '8x8']);
    expect(d.axes.reduce((n, a) => n + a.points.length, 0)).toBe(expectedAxisPoints());
    expect(d.convergence).toHaveLength(3);
    for (const c of d.convergence) {
      expect(c.note).toBe('');
      expect(c.replays.map((r) => r.strategy)).toEqual(['random', 'annealing', 'bandit', 'descent', 'model', 'exhaustive']);
      for (const r of c.replays) {
        expect(r.median).toHaveLength(c.variants);
        expect(r.median.at(-1)).toBe(1); // the whole set as budget always finds the best
        for (let i = 0; i < r.median.length; i++) expect(r.q1[i]!).toBeLessThanOrEqual(r.q3[i]! + 1e-12);
      }
    }
    expect(d.comparison.problems).toHaveLength(2);
    expect(d.comparison.best.flat().filter(Boolean)).toHaveLength(4);
    // a self-contained page: Chart.js inlined, nothing fetched
    const html = renderReportHtml(d);
    expect(html).toContain('Chart.js v4');
    expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+href=|url\(\s*['"]?https?:/);
    expect(html).toContain(`content="default-src 'none';`); // the page may fetch nothing
  });
});

describe('kernforge report', () => {
  it('writes the page atomically and prints a summary', async () => {
    const dir = tmp();
    const out = join(dir, 'sub', 'report.html');
    const r = await cli('report', '--cache', FIXTURES, '-o', out, '--seeds', '3');
    expect(r.err).toBe('');
    expect(r.status).toBe(0);
    expect(r.out).toContain('read 2 tune cache file(s)');
    expect(r.out).toContain(`wrote ${out}`);
    expect(readFileSync(out, 'utf8')).toMatch(/^<!doctype html>/);
    expect(readdirSync(join(dir, 'sub'))).toEqual(['report.html']); // no temporary file left behind
  });

  it('one-line errors with status 2: no cache, corrupt cache, bad --seeds', async () => {
    const dir = tmp();
    let r = await cli('report', '--cache', dir, '-o', join(dir, 'r.html'));
    expect(r.status).toBe(2);
    expect(r.err).toBe(`kernforge: error: no tune cache files found: looked for *.json in ${dir} (run \`kernforge tune\` first, or pass --cache <dir>)`);
    writeFileSync(join(dir, 'x.json'), 'garbage');
    r = await cli('report', '--cache', dir, '-o', join(dir, 'r.html'));
    expect(r.status).toBe(2);
    expect(r.err).toContain(`tune cache file ${join(dir, 'x.json')} is corrupt`);
    r = await cli('report', '--cache', FIXTURES, '-o', join(dir, 'r.html'), '--seeds', 'many');
    expect(r.status).toBe(2);
    expect(r.err).toContain('--seeds must be an integer');
    expect(existsSync(join(dir, 'r.html'))).toBe(false);
  });
});

// ---------------------------------------------------------------------------------------------
// The page in headless Chromium

const haveChromium = existsSync(CHROMIUM);
const inCi = !!process.env.CI && process.env.CI !== 'false';
if (!haveChromium && !inCi) console.warn(`report.test.ts: browser checks skipped: ${CHROMIUM} is absent and this is not CI (apt-get install -y chromium)`);

describe.skipIf(!haveChromium && !inCi)('the report page in headless Chromium', () => {
  let html = '';
  beforeAll(async () => {
    expect(haveChromium, `${CHROMIUM} is missing in CI: .ci/run must install Debian's chromium`).toBe(true);
    const dir = tmp();
    html = join(dir, 'report.html');
    await writeReport({ cacheDir: FIXTURES, output: html, seeds: 5 });
  });

  it('loads with no errors or requests, and every chart drew its data', async () => {
    const { chromium } = await import('playwright-core');
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless=new', '--no-sandbox', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
    });
    try {
      const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
      const problems: string[] = [];
      const requests: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error' || m.type() === 'warning') problems.push(`console.${m.type()}: ${m.text()}`);
      });
      page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
      page.on('request', (r) => {
        if (!r.url().startsWith('file:')) requests.push(r.url());
      });
      await page.goto(`file://${html}`);
      await page.waitForSelector('body[data-ready]', { timeout: 30_000 });
      const charts = await page.evaluate(() => {
        type ChartLike = { data: { datasets: { data: unknown[] }[] }; getDatasetMeta(i: number): { data: { x: number; y: number }[] } };
        const w = window as unknown as { kernforgeReport: { charts: { section: string; points: number; chart: ChartLike }[] } };
        return w.kernforgeReport.charts.map(({ section, points, chart }) => {
          const canvas = (chart as unknown as { canvas: HTMLCanvasElement }).canvas;
          // elements laid out for non-null values
          let drawn = 0;
          chart.data.datasets.forEach((ds, i) => {
            const meta = chart.getDatasetMeta(i);
            ds.data.forEach((v, j) => {
              const y = v !== null && typeof v === 'object' ? (v as { y: unknown }).y : v;
              const el = meta.data[j];
              if (y !== null && y !== undefined && el && Number.isFinite(el.x) && Number.isFinite(el.y)) drawn++;
            });
          });
          // coloured pixels: data marks (grid lines and text are grey)
          const ctx = canvas.getContext('2d')!;
          const img = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
          let coloured = 0;
          for (let p = 0; p < img.length; p += 4) {
            const [r, g, b, a] = [img[p]!, img[p + 1]!, img[p + 2]!, img[p + 3]!];
            if (a > 128 && Math.max(r, g, b) - Math.min(r, g, b) > 60) coloured++;
          }
          return { section, points, drawn, coloured, width: canvas.width, height: canvas.height };
        });
      });
      expect(problems).toEqual([]);
      expect(requests).toEqual([]);
      const canvases = await page.locator('canvas').count();
      expect(charts).toHaveLength(canvases);
      const by = (s: string) => charts.filter((c) => c.section === s);
      expect(by('variants')).toHaveLength(4);
      expect(by('axes')).toHaveLength(8);
      expect(by('convergence')).toHaveLength(3);
      expect(by('devices')).toHaveLength(1);
      for (const c of charts) {
        expect(c.width * c.height, c.section).toBeGreaterThan(0);
        expect(c.coloured, `${c.section}: coloured pixels`).toBeGreaterThan(200);
      }
      const sum = (s: string) => by(s).reduce((n, c) => n + c.points, 0);
      const ok = fixtures.reduce((n, c) => n + Object.values(c.results).filter((r) => r.status === 'ok').length, 0);
      expect(sum('variants')).toBe(ok);
      // one bar per success; failures are labels without bars
      for (const c of by('variants')) expect(c.drawn).toBe(c.points);
      expect(sum('axes')).toBe(expectedAxisPoints());
      // points plus one median marker per device and axis value
      for (const c of by('axes')) expect(c.drawn).toBeGreaterThan(c.points);
      // recorded evaluations + the four replayed medians over each exhaustive set
      const recorded = fixtures.reduce((n, c) => n + c.runs.reduce((m, u) => m + u.evaluations.length, 0), 0);
      expect(sum('convergence')).toBe(recorded + 6 * (28 + 12 + 24));
      expect(sum('devices')).toBe(4);
      expect(by('devices')[0]!.drawn).toBe(4);
      // failures are listed with their status
      const statuses = await page.locator('table.failures td.status').allTextContents();
      expect(statuses.sort()).toEqual(['compile-error', 'device-lost', 'error', 'timeout', 'wrong']);
    } finally {
      await browser.close();
    }
  });
});

// ---------------------------------------------------------------------------------------------
// bench/tuner.ts

/** A one-device cache over keys k00..k(n-1) with the given times (null: failed) and a finished exhaustive run. */
function landscape(times: (number | null)[], withExhaustiveRun = true): LoadedCache {
  const results: TuneCacheFile['results'] = {};
  const keys = times.map((_, i) => `k${String(i).padStart(2, '0')}`);
  keys.forEach((key, i) => {
    const t = times[i]!;
    results[`fam|prob|${key}`] = { family: 'fam', problem: 'prob', key, status: t === null ? 'wrong' : 'ok', ...(t === null ? {} : { medianMs: t }), params: { a: i % 4, b: Math.floor(i / 4) }, at: '2025-01-01T00:00:00Z' };
  });
  const runs = withExhaustiveRun
    ? [{ id: 'x', family: 'fam', problem: 'prob', strategy: 'exhaustive', seed: 0, maxEvals: keys.length, started: '2025-01-01T00:00:00Z', finished: '2025-01-01T00:01:00Z', evaluations: keys.map((k, i) => ({ key: k, medianMs: times[i]! })) }]
    : [];
  return { file: '/synthetic.json', cache: { format: 'kernforge-tune-cache', version: 1, device: { fingerprint: '0123456789abcdef', id: 'cpu', target: 'ts', name: 'synthetic' }, results, runs } };
}

/** Test-only stand-in strategy: the keys in sorted order, rotated to start at index seed. */
const rotating: ReplayFn = (_strategy, recorded, budget, seed) => {
  const keys = [...recorded.keys()].sort();
  const k = seed % keys.length;
  return [...keys.slice(k), ...keys.slice(0, k)].slice(0, budget);
};

describe('bench/tuner.ts', () => {
  // 20 variants: k10 takes 10 ms, all others 20 ms (half as fast)
  const spike = Array.from({ length: 20 }, (_, i) => (i === 10 ? 10 : 20));

  it('budgets: floor of the fraction, at least 1', () => {
    expect([0.1, 0.25, 0.5].map((f) => budgetFor(f, 20))).toEqual([2, 5, 10]);
    expect(budgetFor(0.1, 5)).toBe(1);
    expect(budgetFor(0.25, 12)).toBe(3);
  });

  it('known answer: a rotating scan over one fast variant among 20', async () => {
    const r = await benchTuner({ caches: [landscape(spike)], seeds: 20, strategies: ['random'], replay: rotating });
    expect(r.rows).toHaveLength(1);
    const row = r.rows[0]!;
    expect(row.variants).toBe(20);
    // budget b finds k10 for the b seeds s with (10 - s) mod 20 < b: of 20 seeds, 2, 5 and 10 see 1, the rest 0.5
    const at = Object.fromEntries(row.at.map((a) => [a.fraction, a]));
    expect(at[0.1]).toMatchObject({ budget: 2, q1: 0.5, median: 0.5, q3: 0.5 });
    expect(at[0.25]).toMatchObject({ budget: 5, q1: 0.5, median: 0.5, q3: 0.625 });
    expect(at[0.5]!.budget).toBe(10);
    expect(at[0.5]!.median).toBeCloseTo(0.75, 12);
    // evaluations to 95%: (10 - s) mod 20 + 1 = 1..20 over the seeds
    expect(row.evalsToTarget).toEqual({ q1: 5.75, median: 10.5, q3: 15.25 });
    expect(row.reached).toBe(20);
    expect(row.pass).toBe(false);
    expect(r.summary).toEqual([{ family: 'fam', strategy: 'random', rows: 1, passed: 0, pass: false }]);
    const text = formatTunerBench(r).join('\n');
    expect(text).toMatch(/fam \/ prob\s+random\s+20\s+50\.0% \[50\.0%, 50\.0%\] \(2\)\s+50\.0% \[50\.0%, 62\.5%\] \(5\)\s+75\.0% \[50\.0%, 100\.0%\] \(10\)\s+10\.5 \[5\.75, 15\.25\]\s+FAIL/);
    expect(text).toMatch(/FAIL\s+fam\s+random\s+0\/1 rows/);
  });

  it('known answer: PASS when a quarter of the budget always finds the best', async () => {
    // the best sits in the first 5 sorted keys (k02) and seeds 0..2 start before it
    const t = Array.from({ length: 20 }, (_, i) => (i === 2 ? 10 : i === 7 ? null : 20));
    const r = await benchTuner({ caches: [landscape(t)], seeds: 3, strategies: ['random'], replay: rotating });
    const row = r.rows[0]!;
    expect(row.failed).toBe(1);
    expect(row.at.find((a) => a.fraction === 0.25)!.median).toBe(1);
    expect(row.evalsToTarget).toEqual({ q1: 1.5, median: 2, q3: 2.5 }); // 3, 2, 1 evaluations
    expect(row.pass).toBe(true);
  });

  it('with the tuner\'s replayStrategy: exhaustive scans in key order; the others stay in bounds', async () => {
    const r = await benchTuner({ caches: [landscape(spike)], seeds: 5, strategies: ['exhaustive', 'random', 'annealing', 'bandit'] });
    const ex = r.rows.find((x) => x.strategy === 'exhaustive')!;
    expect(ex.at.map((a) => a.median)).toEqual([0.5, 0.5, 0.5]); // k10 is the 11th key
    expect(ex.evalsToTarget).toEqual({ q1: 11, median: 11, q3: 11 });
    for (const row of r.rows) {
      for (const a of row.at) expect(a.median === 0.5 || a.median === 1 || (a.median > 0.5 && a.median < 1)).toBe(true);
      expect(row.evalsToTarget.median).toBeGreaterThanOrEqual(1);
      expect(row.evalsToTarget.median).toBeLessThanOrEqual(20);
      expect(row.reached).toBe(5);
    }
    // all variants equally fast: every strategy is at 100% after one evaluation
    const flat = await benchTuner({ caches: [landscape(Array(16).fill(7))], seeds: 4 });
    for (const row of flat.rows) {
      expect(row.at.every((a) => a.median === 1)).toBe(true);
      expect(row.evalsToTarget.median).toBe(1);
      expect(row.pass).toBe(true);
    }
  });

  it('refuses caches without an exhaustive set unless told to assume one', async () => {
    await expect(benchTuner({ caches: [landscape(spike, false)], seeds: 2 })).rejects.toThrow(/no exhaustive result set.*--assume-exhaustive/);
    const r = await benchTuner({ caches: [landscape(spike, false)], seeds: 2, assumeExhaustive: true, replay: rotating });
    expect(r.rows).toHaveLength(5);
  });

  it('kernforge bench tuner on the fixture caches prints PASS/FAIL per family and strategy', async () => {
    const r = await cli('bench', 'tuner', '--cache', FIXTURES, '--seeds', '3');
    expect(r.err).toBe('');
    expect(r.status).toBe(0);
    for (const f of ['md-nonbonded', 'gem-potential']) for (const s of ['random', 'annealing', 'bandit']) expect(r.out).toMatch(new RegExp(`(PASS|FAIL)\\s+${f}\\s+${s}\\s+\\d/\\d rows`));
    const bad = await cli('bench', 'tuner', '--cache', join(tmp(), 'none'));
    expect(bad.status).toBe(2);
    expect(bad.err).toMatch(/^kernforge: error: no tune cache files found: the folder .* does not exist/);
  });
});
