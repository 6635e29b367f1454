// The tuning report: reads every tune cache file of a folder (one per device fingerprint, as
// `kernforge tune` writes them) and renders ONE self-contained HTML page with Chart.js inlined
// (no network): (a) time per variant per family/problem, failures marked; (b) time against each
// tuning axis per family; (c) search convergence per strategy, from the recorded runs and from
// offline replays over the exhaustive result sets; (d) the devices side by side.
//
// Also the shared pieces of bench/tuner.ts: cache loading and validation, exhaustive result sets,
// replays turned into best-so-far curves, quantiles.
import { keyTarget } from '../keys.ts';
import { KernforgeError } from '../errors.ts';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve, basename } from 'node:path';
import { replayStrategy } from './strategies.ts';
import { DEFAULT_CACHE_DIR, type CacheRun } from './cache.ts';
import { writeFileAtomic } from '../files.ts';

export type TuneStatus = 'ok' | 'wrong' | 'compile-error' | 'timeout' | 'device-lost' | 'error';
export type Strategy = 'random' | 'annealing' | 'bandit' | 'descent' | 'model' | 'exhaustive';
export type ParamValue = string | number;

export interface CacheResult {
  family: string;
  problem: string;
  key: string;
  status: TuneStatus | string;
  detail?: string;
  medianMs?: number;
  minMs?: number;
  spread?: number;
  samples?: number[];
  verifyError?: number;
  params: Record<string, ParamValue>;
  at: string;
}

/** Runs are read as the tuner writes them (runtime/tune/cache.ts). */
export type { CacheRun };

export interface TuneCacheFile {
  format: 'kernforge-tune-cache';
  version: 1;
  device: { fingerprint: string; id: string; target: string; name: string; details?: unknown };
  results: Record<string, CacheResult>;
  runs: CacheRun[];
}

export interface LoadedCache {
  /** Absolute path of the cache file. */
  file: string;
  cache: TuneCacheFile;
}

/**
 * The signature of runtime/tune/strategies.ts's replayStrategy (async there; a plain result is
 * accepted too). Its result is normalized by evaluationTimes.
 */
export type ReplayFn = (
  strategy: Strategy,
  recorded: Map<string, number | null>,
  budget: number,
  seed: number,
  params?: Map<string, Record<string, ParamValue>>,
) => unknown;

/** The tuner's own replay (runtime/tune/strategies.ts). */
export const defaultReplay: ReplayFn = replayStrategy;

/** A problem with the cache folder or one of its files; the message is for the user as it stands. */
export class ReportInputError extends KernforgeError {}

export const NON_EXHAUSTIVE: Strategy[] = ['random', 'annealing', 'bandit', 'descent', 'model'];
export const STRATEGIES: Strategy[] = [...NON_EXHAUSTIVE, 'exhaustive'];
export { DEFAULT_CACHE_DIR };

// ---------------------------------------------------------------------------------------------
// Loading

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** Check one parsed cache file; throws ReportInputError naming the file and the first problem. */
export function validateCache(v: unknown, file: string): TuneCacheFile {
  const bad = (why: string): never => {
    throw new ReportInputError(`${file}: ${why}`);
  };
  if (!isObj(v)) return bad('not a kernforge tune cache (the JSON is not an object)');
  if (v.format !== 'kernforge-tune-cache') return bad(`not a kernforge tune cache (format is ${JSON.stringify(v.format)}, expected "kernforge-tune-cache")`);
  if (v.version !== 1) return bad(`tune cache version ${JSON.stringify(v.version)}; this report reads version 1`);
  const d = v.device;
  if (!isObj(d) || typeof d.fingerprint !== 'string' || !d.fingerprint) return bad('"device.fingerprint" is missing');
  if (!isObj(v.results)) return bad('"results" is not an object');
  for (const [k, r] of Object.entries(v.results)) {
    if (!isObj(r)) return bad(`result "${k}" is not an object`);
    for (const f of ['family', 'problem', 'key', 'status'] as const) if (typeof r[f] !== 'string') bad(`result "${k}": "${f}" is missing or not a string`);
    if (r.status === 'ok' && !isNum(r.medianMs)) bad(`result "${k}": status ok but "medianMs" is not a finite number`);
    if (r.params !== undefined && !isObj(r.params)) bad(`result "${k}": "params" is not an object`);
  }
  const runs = v.runs ?? [];
  if (!Array.isArray(runs)) return bad('"runs" is not an array');
  runs.forEach((r, i) => {
    if (!isObj(r)) return bad(`runs[${i}] is not an object`);
    for (const f of ['family', 'problem', 'strategy'] as const) if (typeof r[f] !== 'string') bad(`runs[${i}]: "${f}" is missing or not a string`);
    if (!Array.isArray(r.evaluations)) bad(`runs[${i}]: "evaluations" is not an array`);
    (r.evaluations as unknown[]).forEach((e, j) => {
      if (!isObj(e) || typeof e.key !== 'string' || !(e.medianMs === null || isNum(e.medianMs))) bad(`runs[${i}].evaluations[${j}] is not { key, medianMs: number | null }`);
    });
  });
  const cache = v as unknown as TuneCacheFile;
  for (const r of Object.values(cache.results)) r.params ??= {};
  cache.runs = runs as CacheRun[];
  cache.device.id ??= '?';
  cache.device.target ??= '?';
  cache.device.name ??= cache.device.fingerprint;
  return cache;
}

/** Every `*.json` cache file of `dir`, parsed and checked, sorted by file name. */
export function loadCaches(dir: string): LoadedCache[] {
  const where = resolve(dir);
  let names: string[];
  try {
    if (!statSync(where).isDirectory()) throw new ReportInputError(`${where} is not a folder; --cache names the tune cache folder (default ${DEFAULT_CACHE_DIR})`);
    names = readdirSync(where).filter((n) => n.endsWith('.json')).sort();
  } catch (e) {
    if (e instanceof ReportInputError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new ReportInputError(`no tune cache files found: the folder ${where} does not exist (run \`kernforge tune\` first, or pass --cache <dir>)`);
    throw new ReportInputError(`cannot read the tune cache folder ${where}: ${(e as Error).message}`);
  }
  if (names.length === 0) throw new ReportInputError(`no tune cache files found: looked for *.json in ${where} (run \`kernforge tune\` first, or pass --cache <dir>)`);
  return names.map((n) => {
    const file = join(where, n);
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (e) {
      throw new ReportInputError(`cannot read tune cache file ${file}: ${(e as Error).message}`);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (e) {
      throw new ReportInputError(`tune cache file ${file} is corrupt (not valid JSON: ${(e as Error).message})`);
    }
    return { file, cache: validateCache(parsed, file) };
  });
}

// ---------------------------------------------------------------------------------------------
// Numbers

/** Quantile q of finite-or-infinite values (linear interpolation between order statistics). */
export function quantile(values: number[], q: number): number {
  if (values.length === 0) return NaN;
  const s = [...values].sort((a, b) => a - b);
  const pos = (s.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  if (lo === hi || s[lo] === s[hi]) return s[lo]!;
  return s[lo]! + (s[hi]! - s[lo]!) * (pos - lo);
}

/** Best-so-far performance relative to `best` (best / best time so far; 0 before the first success). */
export function relativeBestSoFar(times: (number | null)[], best: number): number[] {
  let cur = Infinity;
  return times.map((t) => {
    if (t !== null && Number.isFinite(t) && t < cur) cur = t;
    return Number.isFinite(cur) ? Math.min(1, best / cur) : 0;
  });
}

/**
 * A replay's result -> the time of each evaluation in order (null: failed or unknown). Accepts an
 * array of keys, of { key, medianMs? } records, or an object with such an array under
 * `evaluations` / `sequence`.
 */
export function evaluationTimes(seq: unknown, recorded: Map<string, number | null>): (number | null)[] {
  const list = Array.isArray(seq) ? seq : isObj(seq) ? (seq.evaluations ?? seq.sequence) : undefined;
  if (!Array.isArray(list)) throw new Error(`replayStrategy returned ${typeof seq}, not an evaluation sequence`);
  return list.map((e: unknown) => {
    if (typeof e === 'string') return recorded.get(e) ?? null;
    if (isObj(e)) {
      if (e.medianMs === null || isNum(e.medianMs)) return e.medianMs as number | null;
      if (typeof e.key === 'string') return recorded.get(e.key) ?? null;
    }
    throw new Error(`replayStrategy returned an evaluation that is neither a key nor { key, medianMs }: ${JSON.stringify(e)}`);
  });
}

/** One device's complete (exhaustive) result set for a family/problem: what replays run over. */
export interface ResultSet {
  file: string;
  device: TuneCacheFile['device'];
  family: string;
  problem: string;
  /** Every variant tried: key -> median ms, null where it failed. */
  recorded: Map<string, number | null>;
  params: Map<string, Record<string, ParamValue>>;
  /** Best median of the set (ms). */
  best: number;
  bestKey: string;
  /** A finished exhaustive run covers this family/problem. */
  exhaustive: boolean;
}

/** Results of one cache grouped by family/problem (insertion order kept). */
export function resultSets(c: LoadedCache): ResultSet[] {
  const by = new Map<string, ResultSet>();
  for (const r of Object.values(c.cache.results)) {
    const id = `${r.family}|${r.problem}`;
    let s = by.get(id);
    if (!s) {
      const exhaustive = c.cache.runs.some((u) => u.family === r.family && u.problem === r.problem && u.strategy === 'exhaustive' && !!u.finished);
      s = { file: c.file, device: c.cache.device, family: r.family, problem: r.problem, recorded: new Map(), params: new Map(), best: Infinity, bestKey: '', exhaustive };
      by.set(id, s);
    }
    const t = r.status === 'ok' && isNum(r.medianMs) ? r.medianMs : null;
    s.recorded.set(r.key, t);
    s.params.set(r.key, r.params ?? {});
    if (t !== null && t < s.best) {
      s.best = t;
      s.bestKey = r.key;
    }
  }
  return [...by.values()];
}

/** Result sets a replay can run over: a finished exhaustive run (or `assumeExhaustive`) and at least one success. */
export function exhaustiveSets(caches: LoadedCache[], assumeExhaustive = false): ResultSet[] {
  return caches.flatMap(resultSets).filter((s) => (s.exhaustive || assumeExhaustive) && Number.isFinite(s.best));
}

/** Relative best-so-far after each of `budget` evaluations of one replay (padded with its last value if it stopped early). */
export async function replayCurve(replay: ReplayFn, set: ResultSet, strategy: Strategy, budget: number, seed: number): Promise<number[]> {
  const times = evaluationTimes(await replay(strategy, set.recorded, budget, seed, set.params), set.recorded).slice(0, budget);
  const curve = relativeBestSoFar(times, set.best);
  const last = curve.at(-1) ?? 0;
  while (curve.length < budget) curve.push(last);
  return curve;
}

export interface QuantileCurve {
  strategy: Strategy;
  seeds: number;
  q1: number[];
  median: number[];
  q3: number[];
}

/** Median and quartiles over seeds 0..seeds-1 of the replayed best-so-far curve over the whole set. */
export async function replayQuantiles(replay: ReplayFn, set: ResultSet, strategy: Strategy, seeds: number): Promise<QuantileCurve> {
  const n = set.recorded.size;
  const curves: number[][] = [];
  for (let s = 0; s < seeds; s++) curves.push(await replayCurve(replay, set, strategy, n, s));
  const at = (q: number) => Array.from({ length: n }, (_, i) => quantile(curves.map((c) => c[i]!), q));
  return { strategy, seeds, q1: at(0.25), median: at(0.5), q3: at(0.75) };
}

// ---------------------------------------------------------------------------------------------
// Report data

export interface ReportOptions {
  /** Offline replays (default: the tuner's replayStrategy); null: none, section (c) shows the recorded runs only. */
  replay?: ReplayFn | null;
  /** Seeds per strategy for the replays (default 9). */
  seeds?: number;
  /** Treat every family/problem result set as exhaustive (default: only those with a finished exhaustive run). */
  assumeExhaustive?: boolean;
  /** Shown in the page header. */
  cacheDir?: string;
  /** Fixed timestamp (tests). */
  now?: Date;
}

export interface DeviceInfo {
  label: string;
  fingerprint: string;
  id: string;
  target: string;
  name: string;
  details: string;
  file: string;
  counts: Record<string, number>;
  runs: number;
}

export interface VariantChart {
  device: number;
  family: string;
  problem: string;
  ok: { key: string; ms: number; spread: number | null; params: Record<string, ParamValue> }[];
  failed: { key: string; status: string; detail: string }[];
}

export interface AxisChart {
  family: string;
  axis: string;
  values: string[];
  /** One point per successful result: device, axis value index, time relative to the best of its device and problem. */
  points: { device: number; x: number; rel: number; key: string; problem: string }[];
}

export interface ConvergenceChart {
  device: number;
  family: string;
  problem: string;
  variants: number;
  bestMs: number;
  bestKey: string;
  exhaustive: boolean;
  recorded: { id: string; strategy: string; seed: number; rel: number[] }[];
  replays: QuantileCurve[];
  note: string;
}

export interface DeviceComparison {
  problems: { family: string; problem: string }[];
  /** [device][problem] -> best ms and key, or null when the device has no success there. */
  best: ({ ms: number; key: string } | null)[][];
}

export interface ReportData {
  generated: string;
  cacheDir: string;
  devices: DeviceInfo[];
  variants: VariantChart[];
  axes: AxisChart[];
  convergence: ConvergenceChart[];
  comparison: DeviceComparison;
  replay: { available: boolean; seeds: number };
}

function deviceDetails(d: unknown): string {
  if (d === undefined || d === null) return '';
  if (typeof d === 'string') return d;
  if (isObj(d))
    return Object.entries(d)
      .map(([k, v]) => `${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`)
      .join('; ');
  return JSON.stringify(d);
}

const axisOrder = (vals: ParamValue[]): string[] => {
  const uniq = [...new Set(vals.map(String))];
  if (uniq.every((v) => v !== '' && Number.isFinite(Number(v)))) return uniq.sort((a, b) => Number(a) - Number(b));
  // cluster shapes "MxN": by M*N, then M
  if (uniq.every((v) => /^\d+x\d+$/.test(v))) {
    const mn = (s: string) => s.split('x').map(Number) as [number, number];
    return uniq.sort((a, b) => mn(a)[0] * mn(a)[1] - mn(b)[0] * mn(b)[1] || mn(a)[0] - mn(b)[0]);
  }
  return uniq.sort();
};

/** Everything the page plots, computed from the loaded caches. */
export async function buildReportData(caches: LoadedCache[], o: ReportOptions = {}): Promise<ReportData> {
  const seeds = o.seeds ?? 9;
  const replay = o.replay === null ? undefined : (o.replay ?? defaultReplay);
  const devices: DeviceInfo[] = caches.map((c) => {
    const d = c.cache.device;
    const counts: Record<string, number> = {};
    for (const r of Object.values(c.cache.results)) counts[r.status] = (counts[r.status] ?? 0) + 1;
    return {
      // the targets the results came from (the CPU: ts, wasm, gpujs), not only the primary one
      label: `${d.name} (${d.id}/${[...new Set(Object.values(c.cache.results).map((r) => keyTarget(r.key)))].sort().join('+') || d.target}, ${d.fingerprint.slice(0, 8)})`,
      fingerprint: d.fingerprint,
      id: d.id,
      target: d.target,
      name: d.name,
      details: deviceDetails(d.details),
      file: basename(c.file),
      counts,
      runs: c.cache.runs.length,
    };
  });
  // Two files with the same label (copies of one device): tell them apart by file name.
  for (const d of devices) if (devices.filter((e) => e.label === d.label).length > 1) d.label += ` [${d.file}]`;

  const sets = caches.map(resultSets);
  const variants: VariantChart[] = [];
  sets.forEach((ss, di) => {
    for (const s of ss) {
      const ok: VariantChart['ok'] = [];
      const failed: VariantChart['failed'] = [];
      for (const r of Object.values(caches[di]!.cache.results)) {
        if (r.family !== s.family || r.problem !== s.problem) continue;
        if (r.status === 'ok') ok.push({ key: r.key, ms: r.medianMs!, spread: isNum(r.spread) ? r.spread : null, params: r.params });
        else failed.push({ key: r.key, status: r.status, detail: r.detail ?? '' });
      }
      ok.sort((a, b) => a.ms - b.ms || (a.key < b.key ? -1 : 1));
      failed.sort((a, b) => (a.status + a.key < b.status + b.key ? -1 : 1));
      variants.push({ device: di, family: s.family, problem: s.problem, ok, failed });
    }
  });

  // (b) per family and axis: every success, relative to the best of its device and problem.
  const families = [...new Set(variants.map((v) => v.family))].sort();
  const axes: AxisChart[] = [];
  for (const family of families) {
    const vs = variants.filter((v) => v.family === family);
    const names = [...new Set(vs.flatMap((v) => v.ok.flatMap((r) => Object.keys(r.params))))].sort();
    for (const axis of names) {
      const values = axisOrder(vs.flatMap((v) => v.ok.filter((r) => axis in r.params).map((r) => r.params[axis]!)));
      if (values.length < 2) continue;
      const points: AxisChart['points'] = [];
      for (const v of vs) {
        const best = v.ok[0]?.ms;
        if (best === undefined) continue;
        for (const r of v.ok) if (axis in r.params) points.push({ device: v.device, x: values.indexOf(String(r.params[axis])), rel: r.ms / best, key: r.key, problem: v.problem });
      }
      axes.push({ family, axis, values, points });
    }
  }

  // (c) convergence: recorded runs and offline replays.
  const convergence: ConvergenceChart[] = [];
  for (const [di, ss] of sets.entries()) {
    const c = caches[di]!.cache;
    for (const s of ss) {
      const runs = c.runs.filter((u) => u.family === s.family && u.problem === s.problem && u.evaluations.length > 0);
      const runBest = Math.min(...runs.flatMap((u) => u.evaluations.map((e) => e.medianMs ?? Infinity)));
      const ref = Math.min(s.best, runBest);
      if (!Number.isFinite(ref)) continue;
      const replays: QuantileCurve[] = [];
      const notes: string[] = [];
      const canReplay = s.exhaustive || !!o.assumeExhaustive;
      if (!replay) notes.push('offline replays left out');
      else if (!canReplay) notes.push('no finished exhaustive run for this problem: no offline replays');
      else
        for (const strategy of STRATEGIES) {
          try {
            replays.push(await replayQuantiles(replay, s, strategy, strategy === 'exhaustive' ? 1 : seeds));
          } catch (e) {
            notes.push(`replay ${strategy} failed: ${(e as Error).message}`);
          }
        }
      if (runs.length === 0 && replays.length === 0) continue;
      convergence.push({
        device: di,
        family: s.family,
        problem: s.problem,
        variants: s.recorded.size,
        bestMs: ref,
        bestKey: s.bestKey,
        exhaustive: s.exhaustive,
        recorded: runs.map((u) => ({ id: u.id, strategy: u.strategy, seed: u.seed, rel: relativeBestSoFar(u.evaluations.map((e) => e.medianMs), ref) })),
        replays,
        note: notes.join('; '),
      });
    }
  }

  // (d) best time per device for each family/problem.
  const problems = [...new Map(variants.map((v) => [`${v.family}|${v.problem}`, { family: v.family, problem: v.problem }])).values()].sort((a, b) =>
    `${a.family}|${a.problem}` < `${b.family}|${b.problem}` ? -1 : 1,
  );
  const best = devices.map((_, di) =>
    problems.map((p) => {
      const v = variants.find((x) => x.device === di && x.family === p.family && x.problem === p.problem);
      return v && v.ok.length > 0 ? { ms: v.ok[0]!.ms, key: v.ok[0]!.key } : null;
    }),
  );

  return {
    generated: (o.now ?? new Date()).toISOString(),
    cacheDir: o.cacheDir ?? '',
    devices,
    variants,
    axes,
    convergence,
    comparison: { problems, best },
    replay: { available: !!replay, seeds },
  };
}

// ---------------------------------------------------------------------------------------------
// HTML

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** JSON that is safe inside a <script> element. */
const scriptJson = (v: unknown) => JSON.stringify(v).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');

let chartJsSource: string | undefined;
function chartJs(): string {
  if (chartJsSource === undefined) {
    const require = createRequire(import.meta.url);
    // the package's exports hide dist/; its CommonJS entry lies next to the UMD build
    const file = join(dirname(require.resolve('chart.js')), 'chart.umd.min.js');
    chartJsSource = readFileSync(file, 'utf8').replace(/<\/script/gi, '<\\/script').replace(/\/\/# sourceMappingURL=\S*\s*$/, '');
  }
  return chartJsSource;
}

// The page's own script: builds every chart from the embedded data. Errors go to the console
// (one chart failing does not stop the others). window.kernforgeReport lists the charts drawn.
const PAGE_SCRIPT = String.raw`
(function () {
  'use strict';
  var D = JSON.parse(document.getElementById('report-data').textContent);
  var drawn = [];
  window.kernforgeReport = { charts: drawn, data: D };
  Chart.defaults.animation = false;
  Chart.defaults.font.size = 11;
  var PALETTE = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#17becf', '#8c564b', '#e377c2', '#7f7f7f', '#bcbd22'];
  var STRAT = { random: '#1f77b4', annealing: '#d62728', bandit: '#2ca02c', exhaustive: '#7f7f7f' };
  var FAIL = { wrong: '#d62728', 'compile-error': '#9467bd', timeout: '#ff7f0e', 'device-lost': '#8c564b', error: '#e377c2' };
  function color(i) { return PALETTE[i % PALETTE.length]; }
  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    if (attrs) for (var k in attrs) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function fmt(ms) { return ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms >= 1 ? ms.toFixed(2) : ms.toPrecision(3); }
  function commonPrefix(keys) {
    if (keys.length < 2) return '';
    var parts = keys.map(function (k) { return k.split('.'); });
    var n = 0;
    while (parts.every(function (p) { return p.length > n + 1 && p[n] === parts[0][n]; })) n++;
    return n > 0 ? parts[0].slice(0, n).join('.') + '.' : '';
  }
  function chart(section, parent, height, config, points) {
    var box = el('div', { 'class': 'chart', style: 'height:' + height + 'px' });
    var canvas = el('canvas', { 'data-section': section, 'data-points': String(points) });
    box.appendChild(canvas);
    parent.appendChild(box);
    try {
      var c = new Chart(canvas, config);
      drawn.push({ section: section, id: canvas.id || '', points: points, chart: c });
    } catch (e) {
      console.error('chart in section ' + section + ' failed: ' + (e && e.stack || e));
    }
  }

  // (a) time per variant
  var secA = document.getElementById('sec-variants');
  D.variants.forEach(function (v) {
    var dev = D.devices[v.device];
    var fig = el('figure');
    fig.appendChild(el('figcaption', null, v.family + ' / ' + v.problem + ' on ' + dev.label + ': ' + v.ok.length + ' ok, ' + v.failed.length + ' failed'));
    var all = v.ok.map(function (r) { return r.key; }).concat(v.failed.map(function (r) { return r.key; }));
    var pre = commonPrefix(all);
    var labels = v.ok.map(function (r) { return r.key.slice(pre.length); })
      .concat(v.failed.map(function (r) { return '\u2717 ' + r.key.slice(pre.length) + ' [' + r.status + ']'; }));
    var data = v.ok.map(function (r) { return r.ms; }).concat(v.failed.map(function () { return null; }));
    var okCount = v.ok.length;
    // 16 px per variant; thinner (labels skipped) for very large sets, so the canvas stays within browser limits
    var rowPx = labels.length <= 400 ? 16 : Math.max(3, 6400 / labels.length);
    chart('variants', fig, 60 + rowPx * labels.length, {
      type: 'bar',
      data: { labels: labels, datasets: [{ label: 'median ms', data: data, backgroundColor: v.ok.map(function (_, i) { return i === 0 ? '#2ca02c' : '#1f77b4'; }) }] },
      options: {
        indexAxis: 'y', responsive: true, maintainAspectRatio: false,
        plugins: { legend: { display: false }, tooltip: { callbacks: {
          title: function (items) { var i = items[0].dataIndex; return (i < okCount ? v.ok[i].key : v.failed[i - okCount].key); },
          label: function (item) { var i = item.dataIndex; return i < okCount ? fmt(v.ok[i].ms) + ' ms' + (v.ok[i].spread !== null ? ' (spread ' + (100 * v.ok[i].spread).toFixed(1) + '%)' : '') : v.failed[i - okCount].status + ': ' + v.failed[i - okCount].detail; } } } },
        scales: {
          x: { title: { display: true, text: 'median time (ms)' + (pre ? '   keys: ' + pre + '\u2026' : '') }, beginAtZero: true },
          y: { ticks: { autoSkip: rowPx < 12, color: function (ctx) { var i = ctx.index; return i < okCount ? '#333' : (FAIL[v.failed[i - okCount].status] || '#d62728'); } } }
        }
      }
    }, okCount);
    if (v.failed.length > 0) {
      var t = el('table', { 'class': 'failures' });
      var h = el('tr'); ['variant', 'status', 'detail'].forEach(function (s) { h.appendChild(el('th', null, s)); }); t.appendChild(h);
      v.failed.forEach(function (f) {
        var tr = el('tr');
        tr.appendChild(el('td', null, f.key));
        var st = el('td', { 'class': 'status' }, f.status); st.style.color = FAIL[f.status] || '#d62728'; tr.appendChild(st);
        tr.appendChild(el('td', null, f.detail));
        t.appendChild(tr);
      });
      fig.appendChild(t);
    }
    secA.appendChild(fig);
  });
  if (D.variants.length === 0) secA.appendChild(el('p', null, 'No results.'));

  // (b) time against each tuning axis
  var secB = document.getElementById('sec-axes');
  D.axes.forEach(function (a) {
    var fig = el('figure');
    fig.appendChild(el('figcaption', null, a.family + ': time against ' + a.axis + ' (' + a.points.length + ' successful variants; 1 = the best of its device and problem; bar = median)'));
    var devs = []; a.points.forEach(function (p) { if (devs.indexOf(p.device) < 0) devs.push(p.device); }); devs.sort();
    var nd = devs.length;
    var datasets = [];
    devs.forEach(function (d, j) {
      var off = nd > 1 ? (j - (nd - 1) / 2) * (0.6 / nd) : 0;
      var pts = a.points.filter(function (p) { return p.device === d; });
      // deterministic jitter so the same report always looks the same
      var xs = pts.map(function (p, i) { return { x: p.x + off + ((i * 0.6180339887) % 1 - 0.5) * (0.3 / nd), y: p.rel, key: p.key, problem: p.problem }; });
      datasets.push({ type: 'scatter', label: D.devices[d].label, data: xs, backgroundColor: color(d) + '99', borderColor: color(d), pointRadius: 3 });
      var med = [];
      a.values.forEach(function (_, xi) {
        var ys = pts.filter(function (p) { return p.x === xi; }).map(function (p) { return p.rel; }).sort(function (u, w) { return u - w; });
        if (ys.length) med.push({ x: xi + off, y: ys.length % 2 ? ys[(ys.length - 1) / 2] : (ys[ys.length / 2 - 1] + ys[ys.length / 2]) / 2 });
      });
      datasets.push({ type: 'scatter', label: D.devices[d].label + ' median', data: med, pointStyle: 'line', pointRadius: 14, borderWidth: 3, borderColor: color(d), backgroundColor: color(d) });
    });
    chart('axes', fig, 320, {
      type: 'scatter',
      data: { datasets: datasets },
      options: {
        responsive: true, maintainAspectRatio: false,
        plugins: { tooltip: { callbacks: { label: function (item) { var r = item.raw; return (r.key ? r.key + ' (' + r.problem + '): ' : 'median: ') + r.y.toFixed(3) + 'x'; } } } },
        scales: {
          x: { type: 'linear', min: -0.5, max: a.values.length - 0.5, title: { display: true, text: a.axis },
               afterBuildTicks: function (s) { s.ticks = a.values.map(function (_, i) { return { value: i }; }); },
               ticks: { callback: function (val) { return a.values[val] !== undefined ? a.values[val] : ''; } } },
          y: { type: 'logarithmic', title: { display: true, text: 'time / best (log)' } }
        }
      }
    }, a.points.length);
    secB.appendChild(fig);
  });
  if (D.axes.length === 0) secB.appendChild(el('p', null, 'No tuning axis with more than one value among the successful variants.'));

  // (c) convergence
  var secC = document.getElementById('sec-convergence');
  D.convergence.forEach(function (c) {
    var fig = el('figure');
    fig.appendChild(el('figcaption', null, c.family + ' / ' + c.problem + ' on ' + D.devices[c.device].label + ': ' + c.variants + ' variants, best ' + fmt(c.bestMs) + ' ms (' + c.bestKey + ')' + (c.exhaustive ? ', exhaustive set' : '')));
    var datasets = [];
    var pts = 0;
    var maxX = 1;
    c.replays.forEach(function (r) {
      var col = STRAT[r.strategy] || '#000';
      var xy = function (arr) { return arr.map(function (y, i) { return { x: i + 1, y: y }; }); };
      maxX = Math.max(maxX, r.median.length);
      datasets.push({ type: 'line', label: 'replay ' + r.strategy + ' q1', data: xy(r.q1), borderColor: col + '00', backgroundColor: col + '22', pointRadius: 0, fill: false, kfLegend: false });
      datasets.push({ type: 'line', label: 'replay ' + r.strategy + ' q3', data: xy(r.q3), borderColor: col + '00', backgroundColor: col + '22', pointRadius: 0, fill: '-1', kfLegend: false });
      datasets.push({ type: 'line', label: 'replay ' + r.strategy + ' (median of ' + r.seeds + ' seed' + (r.seeds > 1 ? 's' : '') + ')', data: xy(r.median), borderColor: col, borderDash: [6, 4], borderWidth: 2, pointRadius: 0, fill: false });
      pts += r.median.length;
    });
    c.recorded.forEach(function (u) {
      var col = STRAT[u.strategy] || '#000';
      maxX = Math.max(maxX, u.rel.length);
      datasets.push({ type: 'line', label: 'run ' + u.id + ' (' + u.strategy + ', seed ' + u.seed + ')', data: u.rel.map(function (y, i) { return { x: i + 1, y: y }; }), borderColor: col, backgroundColor: col, borderWidth: 2, pointRadius: 2, stepped: true, fill: false });
      pts += u.rel.length;
    });
    datasets.push({ type: 'line', label: '95% of best', data: [{ x: 1, y: 0.95 }, { x: maxX, y: 0.95 }], borderColor: '#999', borderWidth: 1, borderDash: [2, 2], pointRadius: 0, fill: false, kfLegend: false });
    chart('convergence', fig, 320, {
      type: 'line',
      data: { datasets: datasets },
      options: {
        responsive: true, maintainAspectRatio: false, parsing: true,
        plugins: { legend: { labels: { filter: function (item, data) { return data.datasets[item.datasetIndex].kfLegend !== false; } } } },
        scales: {
          x: { type: 'linear', min: 1, max: maxX, ticks: { precision: 0 }, title: { display: true, text: 'evaluations' } },
          y: { min: 0, max: 1.02, title: { display: true, text: 'best so far (fraction of the best time)' } }
        }
      }
    }, pts);
    if (c.note) fig.appendChild(el('p', { 'class': 'note' }, c.note));
    secC.appendChild(fig);
  });
  if (D.convergence.length === 0) secC.appendChild(el('p', null, 'No recorded runs and no exhaustive result sets.'));

  // (d) devices side by side
  var secD = document.getElementById('sec-devices');
  var P = D.comparison.problems;
  if (P.length > 0 && D.devices.length > 0) {
    var fig = el('figure');
    fig.appendChild(el('figcaption', null, 'best time per device for each family / problem (log scale)'));
    var n = 0;
    var datasets = D.devices.map(function (d, di) {
      var row = D.comparison.best[di];
      n += row.filter(function (b) { return b !== null; }).length;
      return { label: d.label, data: row.map(function (b) { return b ? b.ms : null; }), backgroundColor: color(di) };
    });
    chart('devices', fig, 120 + 28 * P.length * Math.max(1, D.devices.length), {
      type: 'bar',
      data: { labels: P.map(function (p) { return p.family + ' / ' + p.problem; }), datasets: datasets },
      options: {
        indexAxis: 'y', responsive: true, maintainAspectRatio: false,
        plugins: { tooltip: { callbacks: { label: function (item) { var b = D.comparison.best[item.datasetIndex][item.dataIndex]; return b ? D.devices[item.datasetIndex].label + ': ' + fmt(b.ms) + ' ms, ' + b.key : 'no success'; } } } },
        scales: { x: { type: 'logarithmic', title: { display: true, text: 'best median time (ms, log)' } } }
      }
    }, n);
    var t = el('table');
    var h = el('tr'); h.appendChild(el('th', null, 'family / problem'));
    D.devices.forEach(function (d) { h.appendChild(el('th', null, d.label)); });
    t.appendChild(h);
    P.forEach(function (p, pi) {
      var tr = el('tr'); tr.appendChild(el('td', null, p.family + ' / ' + p.problem));
      var bests = D.comparison.best.map(function (r) { return r[pi]; });
      var top = Math.min.apply(null, bests.filter(Boolean).map(function (b) { return b.ms; }));
      bests.forEach(function (b) {
        var td = el('td', null, b ? fmt(b.ms) + ' ms' + (b.ms > top ? ' (' + (b.ms / top).toFixed(2) + 'x)' : ' (fastest)') : '\u2014');
        if (b) td.title = b.key;
        tr.appendChild(td);
      });
      t.appendChild(tr);
    });
    fig.appendChild(t);
    secD.appendChild(fig);
  }
  document.body.setAttribute('data-ready', String(drawn.length));
})();
`;

const PAGE_STYLE = `
body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5em auto; max-width: 1200px; padding: 0 1em; color: #222; }
h1 { font-size: 1.5em; } h2 { margin-top: 2em; border-bottom: 1px solid #ccc; }
figure { margin: 1.5em 0; } figcaption { font-weight: 600; margin-bottom: .4em; }
.chart { position: relative; width: 100%; }
table { border-collapse: collapse; margin: .5em 0; font-size: 12px; }
td, th { border: 1px solid #ddd; padding: 2px 8px; text-align: left; vertical-align: top; }
th { background: #f4f4f4; } .note { color: #666; font-style: italic; }
`;

/** The whole self-contained page. */
export function renderReportHtml(data: ReportData): string {
  const devRows = data.devices
    .map((d) => {
      const counts = Object.entries(d.counts)
        .map(([s, n]) => `${esc(s)} ${n}`)
        .join(', ');
      return `<tr><td>${esc(d.label)}</td><td>${esc(d.fingerprint)}</td><td>${esc(d.details)}</td><td>${esc(d.file)}</td><td>${counts}</td><td>${d.runs}</td></tr>`;
    })
    .join('\n');
  const replayNote = data.replay.available
    ? `Offline replays: replayStrategy over each exhaustive result set, median and quartiles over ${data.replay.seeds} seeds (exhaustive: 1).`
    : 'Offline replays: left out; recorded runs only.';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:">
<title>kernforge tuning report</title>
<style>${PAGE_STYLE}</style>
</head>
<body>
<h1>kernforge tuning report</h1>
<p>Generated ${esc(data.generated)} from ${data.devices.length} tune cache file(s) in <code>${esc(data.cacheDir)}</code>.</p>
<table>
<tr><th>device</th><th>fingerprint</th><th>details</th><th>file</th><th>results</th><th>runs</th></tr>
${devRows}
</table>
<h2 id="variants">(a) Time per variant</h2>
<p>Median time of every variant per family and problem, fastest first (green). Variants that did not run correctly are listed last, marked &#x2717; with their status.</p>
<div id="sec-variants"></div>
<h2 id="axes">(b) Time against each tuning parameter</h2>
<p>Every successful variant's time relative to the best of its device and problem, grouped by the value of one axis.</p>
<div id="sec-axes"></div>
<h2 id="convergence">(c) Search convergence</h2>
<p>Best time found so far, as a fraction of the best known time (1 = found it), against the number of evaluations. Solid steps: runs recorded by <code>kernforge tune</code>. Dashed: ${esc(replayNote)} Shaded: interquartile range.</p>
<div id="sec-convergence"></div>
<h2 id="devices">(d) Devices side by side</h2>
<div id="sec-devices"></div>
<script>${chartJs()}</script>
<script type="application/json" id="report-data">${scriptJson(data)}</script>
<script>${PAGE_SCRIPT}</script>
</body>
</html>
`;
}


export interface WriteReportResult {
  output: string;
  data: ReportData;
  bytes: number;
}

/** Read the cache folder, build the page, write it atomically. */
export async function writeReport(o: { cacheDir?: string; output?: string; seeds?: number; replay?: ReplayFn | null; assumeExhaustive?: boolean; now?: Date }): Promise<WriteReportResult> {
  const cacheDir = resolve(o.cacheDir ?? DEFAULT_CACHE_DIR);
  const caches = loadCaches(cacheDir);
  const data = await buildReportData(caches, { replay: o.replay, seeds: o.seeds, assumeExhaustive: o.assumeExhaustive, cacheDir, now: o.now });
  const html = renderReportHtml(data);
  const output = resolve(o.output ?? 'report.html');
  writeFileAtomic(output, html);
  return { output, data, bytes: Buffer.byteLength(html) };
}
