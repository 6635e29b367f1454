// The kernforge web app (issue 14): devices, a tune of the quick problem classes, the report's
// charts, the GEM potential on a rotatable 3-D surface, a live MD run, and the tuned artefact to
// download. The page only shows things: every long job runs in a worker (web/src/worker.ts), one
// worker per job, terminated to cancel. window.kernforgeApp exposes the state to the tests.
import { Chart, registerables } from 'chart.js';
import { buildReportData, renderReportHtml, validateCache, type LoadedCache } from '../../runtime/tune/report.ts';
import { MAX_INPUT_BYTES, type Job, type Reply, type RowOut, type TuneJob } from './protocol.ts';
import { SurfaceView, drawColourBar } from './surface-view.ts';
import { deviceFacts, type DeviceFact } from './devices.ts';
import { cachesFromTuned } from './artefacts.ts';

Chart.register(...registerables);
Chart.defaults.animation = false;

const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;

interface AppState {
  facts?: DeviceFact[];
  devices?: unknown[];
  tune?: { running: boolean; done: number; total: number; label: string; rows?: RowOut[]; interrupted?: boolean; resumed: boolean; seconds?: number; notes?: string[]; error?: string };
  gem?: { running: boolean; name?: string; n?: number; key?: string; target?: string; source?: string; phi?: number[]; check?: { ok: boolean; worst: number }; clamp?: number; ms?: number; error?: string; params?: Record<string, number> };
  md?: { running: boolean; rows: { step: number; values: Record<string, number> }[]; stepsPerSecond?: number; key?: string; error?: string; plotted?: number };
  report?: { charts: number; devices: number; error?: string };
  errors: string[];
  view?: SurfaceView;
  /** The files kept in this browser: the tuning caches and the tuned artefact. */
  kept(): Promise<{ caches: { file: string; text: string }[]; tuned?: string }>;
}
const app: AppState = { errors: [], kept: () => keptFiles() };
(window as unknown as { kernforgeApp: AppState }).kernforgeApp = app;

// ------------------------------------------------------------------------------------------
// Messages: errors in the page, never in the console alone.

function showError(box: HTMLElement, message: string | undefined): void {
  box.textContent = message ?? '';
  box.hidden = !message;
}
window.addEventListener('error', (e) => {
  e.preventDefault();
  app.errors.push(String(e.message));
  showError($('banner'), `Something went wrong in the page: ${e.message}`);
});
window.addEventListener('unhandledrejection', (e) => {
  e.preventDefault();
  const m = (e.reason as Error)?.message ?? String(e.reason);
  app.errors.push(m);
  showError($('banner'), `Something went wrong in the page: ${m}`);
});

// ------------------------------------------------------------------------------------------
// Jobs

interface Running {
  done: Promise<void>;
  cancel(): void;
  worker: Worker;
}

/** Run a job in a fresh worker; `on` gets every reply; resolves at 'done', rejects at 'error' (Error.message as the worker said it). */
function runJob(job: Job, on: (r: Reply) => void = () => {}): Running {
  const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module', name: `kernforge ${job.job}` });
  let settle: { resolve(): void; reject(e: Error): void } | undefined;
  const done = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
  const end = () => worker.terminate();
  worker.onmessage = (e: MessageEvent<Reply>) => {
    const r = e.data;
    if (r.type === 'done') {
      end();
      settle!.resolve();
    } else if (r.type === 'tuned' && r.interrupted) {
      on(r);
    } else if (r.type === 'error') {
      end();
      settle!.reject(Object.assign(new Error(r.message), { user: r.user }));
    } else on(r);
  };
  worker.onerror = (e) => {
    e.preventDefault();
    end();
    settle!.reject(new Error(`the worker failed: ${e.message || 'its script did not load'}`));
  };
  worker.postMessage(job);
  return {
    done,
    worker,
    cancel() {
      // a tune stops after the measurement in flight and writes what it has; other jobs end now
      if (job.job === 'tune') {
        worker.postMessage({ type: 'cancel' });
        setTimeout(end, 10_000);
      } else end();
      settle!.reject(Object.assign(new Error('cancelled'), { cancelled: true }));
    },
  };
}

// ------------------------------------------------------------------------------------------
// Devices

async function showDevices(): Promise<void> {
  const facts = await deviceFacts();
  app.facts = facts;
  const body = $('devices').querySelector('tbody')!;
  body.replaceChildren();
  for (const f of facts) {
    const tr = document.createElement('tr');
    const td = (text: string, cls?: string) => {
      const c = document.createElement('td');
      c.textContent = text;
      if (cls) c.className = cls;
      tr.appendChild(c);
    };
    td(f.what);
    td(f.ok ? 'yes' : 'no', f.ok ? 'ok' : 'missing');
    td(f.ok ? f.detail : f.why ?? '');
    tr.dataset.fact = f.id;
    body.appendChild(tr);
  }
  const webgpu = facts.find((f) => f.id === 'webgpu')?.ok ?? false;
  if (!webgpu) {
    for (const i of document.querySelectorAll<HTMLInputElement>('input[name=device][value=webgpu]')) {
      i.checked = false;
      i.disabled = true;
    }
  }
  // the core's view: fingerprints, targets, gpu.js modes, and why a target is missing
  const box = $('core-devices');
  try {
    const j = runJob({ job: 'devices', webgpu }, (r) => {
      if (r.type === 'devices') {
        app.devices = r.devices;
        box.replaceChildren(...r.devices.map((d) => deviceLine(d as CoreDevice)));
      }
    });
    await j.done;
  } catch (e) {
    box.textContent = `the kernforge device check failed: ${(e as Error).message}`;
    box.className = 'error';
  }
}

interface CoreDevice {
  id: string;
  name: string;
  available: boolean;
  why?: string;
  fingerprint: string;
  targets: string[];
  gpujsModes?: string[];
  unavailableTargets?: Record<string, string>;
}

function deviceLine(d: CoreDevice): HTMLElement {
  const p = document.createElement('p');
  p.dataset.device = d.id;
  const missing = Object.entries(d.unavailableTargets ?? {}).map(([t, why]) => `${t}: ${why}`);
  p.textContent = d.available
    ? `kernforge ${d.id}: ${d.name} (fingerprint ${d.fingerprint}): targets ${d.targets.join(', ')}${d.gpujsModes?.length ? ` (gpu.js modes ${d.gpujsModes.join(', ')})` : ''}${missing.length ? `; not here: ${missing.join('; ')}` : ''}`
    : `kernforge ${d.id}: not available: ${d.why}`;
  return p;
}

// ------------------------------------------------------------------------------------------
// Tune

const RESUME_KEY = 'kernforge-web:tune';
let tuneJob: Running | undefined;

function tuneOptions(): TuneJob {
  const form = $<HTMLFormElement>('tune-form');
  const checked = (name: string) => [...form.querySelectorAll<HTMLInputElement>(`input[name=${name}]:checked`)].map((i) => i.value);
  const num = (name: string, min: number, max: number): number => {
    const el = form.querySelector<HTMLInputElement>(`[name=${name}]`)!;
    const v = Number(el.value);
    if (!Number.isInteger(v) || v < min || v > max) throw new Error(`${name}: ${JSON.stringify(el.value)} is not an integer from ${min} to ${max}`);
    return v;
  };
  const families = checked('family');
  const devices = checked('device') as TuneJob['devices'];
  if (families.length === 0) throw new Error('choose at least one family');
  if (devices.length === 0) throw new Error('choose at least one device');
  const params = new URLSearchParams(location.search);
  const threads = params.get('threads');
  return {
    job: 'tune',
    families,
    devices,
    problems: form.querySelector<HTMLSelectElement>('[name=problems]')!.value === 'one' ? 'one' : 'quick',
    maxEvals: num('maxEvals', 1, 500),
    reps: num('reps', 1, 50),
    ...(threads ? { threads: threads.split(',').map(Number) } : {}),
  };
}

function applyOptions(o: TuneJob): void {
  const form = $<HTMLFormElement>('tune-form');
  for (const i of form.querySelectorAll<HTMLInputElement>('input[name=family]')) i.checked = o.families.includes(i.value);
  for (const i of form.querySelectorAll<HTMLInputElement>('input[name=device]')) i.checked = !i.disabled && o.devices.includes(i.value as 'cpu');
  form.querySelector<HTMLSelectElement>('[name=problems]')!.value = o.problems;
  form.querySelector<HTMLInputElement>('[name=maxEvals]')!.value = String(o.maxEvals);
  form.querySelector<HTMLInputElement>('[name=reps]')!.value = String(o.reps);
}

function fmtS(s: number): string {
  if (!Number.isFinite(s)) return '?';
  return s < 60 ? `${s.toFixed(0)} s` : `${Math.floor(s / 60)} min ${String(Math.round(s % 60)).padStart(2, '0')} s`;
}

async function startTune(o: TuneJob, resumed = false): Promise<void> {
  if (tuneJob) return;
  showError($('tune-error'), undefined);
  localStorage.setItem(RESUME_KEY, JSON.stringify(o));
  const st: NonNullable<AppState['tune']> = (app.tune = { running: true, done: 0, total: 0, label: '', resumed });
  const bar = $<HTMLProgressElement>('tune-progress');
  const text = $('tune-status');
  const logBox = $('tune-log');
  logBox.textContent = '';
  $<HTMLButtonElement>('tune-start').disabled = true;
  $<HTMLButtonElement>('tune-cancel').disabled = false;
  text.textContent = resumed ? 'resuming the interrupted tune from the measurements kept in this browser' : 'starting';
  let t0 = 0;
  let first = 0;
  tuneJob = runJob(o, (r) => {
    if (r.type === 'progress') {
      if (t0 === 0) {
        t0 = performance.now();
        first = r.done;
      }
      Object.assign(st, { done: r.done, total: r.total, label: r.label || st.label });
      bar.max = Math.max(1, r.total);
      bar.value = r.done;
      const el = (performance.now() - t0) / 1000;
      const rate = (r.done - first) / Math.max(el, 1e-3);
      const eta = r.done > first && r.done < r.total ? `, ETA ${fmtS((r.total - r.done) / rate)}` : '';
      text.textContent = `${r.done} / ${r.total} evaluations${eta}: ${st.label}`;
    } else if (r.type === 'status') text.textContent = r.text;
    else if (r.type === 'log') logBox.textContent += `${r.line}\n`;
    else if (r.type === 'tuned') {
      Object.assign(st, { rows: r.rows, interrupted: r.interrupted, seconds: r.seconds, notes: r.notes });
      showRows(r.rows);
      for (const n of r.notes) logBox.textContent += `${n}\n`;
    }
  });
  try {
    await tuneJob.done;
    localStorage.removeItem(RESUME_KEY);
    text.textContent = `done: ${st.done} evaluations in ${fmtS(st.seconds ?? 0)}${st.rows?.some((x) => x.cached > 0) ? ' (measurements kept from before were reused)' : ''}`;
    $<HTMLButtonElement>('download').disabled = false;
    void drawReport();
  } catch (e) {
    const err = e as Error & { cancelled?: boolean };
    if (err.cancelled) {
      localStorage.removeItem(RESUME_KEY);
      text.textContent = `cancelled after ${st.done} of ${st.total} evaluations (what was measured is kept: Tune goes on from there)`;
    } else {
      st.error = err.message;
      text.textContent = 'failed';
      showError($('tune-error'), `The tune stopped: ${err.message}`);
    }
  } finally {
    st.running = false;
    tuneJob = undefined;
    $<HTMLButtonElement>('tune-start').disabled = false;
    $<HTMLButtonElement>('tune-cancel').disabled = true;
  }
}

/** A key less its family, and a tuned thread count ("@2t") in words. */
const shortKey = (k: string | undefined) => (k ? k.split('.').slice(1).join('.').replace(/@(\d+)t$/, (_, n: string) => ` (${n} threads)`) : '-');
const ms = (x: number | undefined) => (x === undefined ? '-' : x < 10 ? x.toFixed(3) : x.toFixed(2));

function showRows(rows: RowOut[]): void {
  const body = $('tune-rows').querySelector('tbody')!;
  body.replaceChildren(
    ...rows.map((r) => {
      const tr = document.createElement('tr');
      tr.dataset.family = r.family;
      tr.dataset.problem = r.problem;
      tr.dataset.device = r.device;
      const cells = [r.device, r.family, r.problem, r.bestKey ? shortKey(r.bestKey) : r.note ?? 'nothing verified', ms(r.bestMs), shortKey(r.defaultKey), ms(r.defaultMs), r.speedup === undefined ? '-' : `${r.speedup.toFixed(2)}x`, `${r.measured + r.cached} of ${r.candidates} (${r.measured} / ${r.cached} / ${r.failed})`];
      for (const c of cells) {
        const td = document.createElement('td');
        td.textContent = c;
        tr.appendChild(td);
      }
      if (r.bestKey && r.chosenKey && r.chosenKey !== r.bestKey) tr.title = `kept the default: ${r.note ?? ''}`;
      return tr;
    }),
  );
}

// ------------------------------------------------------------------------------------------
// Files kept in the browser: the tuning caches and the tuned artefact

async function keptFiles(): Promise<{ caches: { file: string; text: string }[]; tuned?: string }> {
  let out: { caches: { file: string; text: string }[]; tuned?: string } = { caches: [] };
  await runJob({ job: 'files' }, (r) => {
    if (r.type === 'files') out = { caches: r.caches, tuned: r.tuned };
  }).done;
  return out;
}

async function download(): Promise<void> {
  const { tuned } = await keptFiles();
  if (!tuned) {
    showError($('tune-error'), 'Nothing tuned yet in this browser: run a tune first.');
    return;
  }
  const url = URL.createObjectURL(new Blob([tuned], { type: 'application/json' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = 'kernforge-tuned.json';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

// ------------------------------------------------------------------------------------------
// Report: runtime/tune/report.ts's buildReportData and renderReportHtml, in an iframe

const loaded: LoadedCache[] = [];

async function readReportFiles(files: FileList | null): Promise<void> {
  const err = $('report-error');
  showError(err, undefined);
  loaded.length = 0;
  const problems: string[] = [];
  for (const f of [...(files ?? [])]) {
    if (f.size > MAX_INPUT_BYTES) {
      problems.push(`${f.name} is ${(f.size / 2 ** 20).toFixed(0)} MiB; the page reads files up to ${MAX_INPUT_BYTES / 2 ** 20} MiB`);
      continue;
    }
    let data: unknown;
    try {
      data = JSON.parse(await f.text());
    } catch (e) {
      problems.push(`${f.name} is not JSON (${(e as Error).message})`);
      continue;
    }
    try {
      if ((data as { format?: string })?.format === 'kernforge-tuned') loaded.push(...cachesFromTuned(data, f.name));
      else loaded.push({ file: f.name, cache: validateCache(data, f.name) });
    } catch (e) {
      problems.push((e as Error).message);
    }
  }
  if (problems.length) showError(err, problems.join('\n'));
}

async function drawReport(): Promise<void> {
  const status = $('report-status');
  const err = $('report-error');
  status.textContent = 'building the report';
  try {
    const mine = await keptFiles();
    const caches: LoadedCache[] = [];
    for (const c of mine.caches) caches.push({ file: `this browser: ${c.file.split('/').pop()}`, cache: validateCache(JSON.parse(c.text), c.file) });
    // the same device loaded twice (this browser's cache and a file of it): keep this browser's
    const seen = new Set(caches.map((c) => c.cache.device.fingerprint));
    for (const c of loaded) if (!seen.has(c.cache.device.fingerprint)) caches.push(c);
    if (caches.length === 0) {
      status.textContent = 'nothing to draw yet: run a tune, or load tune caches or tuned artefacts';
      return;
    }
    const data = await buildReportData(caches, { seeds: 5, cacheDir: 'this browser and the files loaded' });
    const html = renderReportHtml(data);
    const frame = $<HTMLIFrameElement>('report-frame');
    await new Promise<void>((resolve) => {
      frame.onload = () => resolve();
      frame.srcdoc = html;
      frame.hidden = false;
    });
    const doc = frame.contentDocument!;
    frame.style.height = `${doc.documentElement.scrollHeight + 20}px`;
    const charts = Number(doc.body.getAttribute('data-ready') ?? 0);
    app.report = { charts, devices: data.devices.length };
    status.textContent = `${charts} charts, ${data.devices.length} device(s)`;
  } catch (e) {
    app.report = { charts: 0, devices: 0, error: (e as Error).message };
    status.textContent = '';
    showError(err, `The report could not be drawn: ${(e as Error).message}`);
  }
}

// ------------------------------------------------------------------------------------------
// GEM

let gemJob: Running | undefined;

async function runGem(input: { molecule?: string; files?: File[] }): Promise<void> {
  if (gemJob) gemJob.cancel();
  const err = $('gem-error');
  const status = $('gem-status');
  showError(err, undefined);
  for (const f of input.files ?? []) {
    if (f.size > MAX_INPUT_BYTES) {
      const m = `${f.name} is ${(f.size / 2 ** 20).toFixed(0)} MiB; the page reads files up to ${MAX_INPUT_BYTES / 2 ** 20} MiB`;
      app.gem = { running: false, error: m };
      showError(err, m);
      return;
    }
  }
  const st = (app.gem = { running: true } as NonNullable<AppState['gem']>);
  $<HTMLButtonElement>('gem-cancel').disabled = false;
  const webgpu = app.facts?.find((f) => f.id === 'webgpu')?.ok ?? false;
  const job = (gemJob = runJob({ job: 'gem', ...input, webgpu }, (r) => {
    if (r.type === 'status') status.textContent = r.text;
    else if (r.type === 'gem') {
      app.view ??= new SurfaceView($<HTMLCanvasElement>('gem-canvas'));
      const clamp = app.view.show({ n: r.n, xyz: r.xyz, normals: r.normals, phi: r.phi });
      drawColourBar($('gem-bar'), clamp);
      Object.assign(st, { name: r.name, n: r.n, key: r.key, target: r.target, source: r.source, phi: Array.from(r.phi), check: r.check, clamp, ms: r.ms, params: r.params });
      status.textContent =
        `${r.name}: ${r.atoms} atoms, ${r.n} vertices${r.generated ? ' (surface generated here)' : ''}; ${r.key} on ${r.target} (${r.source}) in ${r.ms.toFixed(0)} ms; ` +
        `against the f64 reference on ${r.check.vertices === r.n ? 'every vertex' : `${r.check.vertices} vertices spread over the surface`}: ${r.check.ok ? 'within' : 'OUTSIDE'} the tolerance (worst ${r.check.worst.toFixed(3)} of it). Drag to rotate, wheel to zoom.`;
    }
  }));
  try {
    await job.done;
  } catch (e) {
    const m = e as Error & { cancelled?: boolean };
    if (m.cancelled) status.textContent = 'cancelled';
    else {
      st.error = m.message;
      status.textContent = '';
      showError(err, m.message);
    }
  } finally {
    st.running = false;
    if (gemJob === job) {
      gemJob = undefined;
      $<HTMLButtonElement>('gem-cancel').disabled = true;
    }
  }
}

// ------------------------------------------------------------------------------------------
// MD

let mdJob: Running | undefined;
let mdChart: Chart | undefined;

async function runMd(): Promise<void> {
  if (mdJob) return;
  const err = $('md-error');
  showError(err, undefined);
  const system = $<HTMLSelectElement>('md-system').value === 'water' ? 'water' : 'lj';
  const precision = $<HTMLSelectElement>('md-precision').value === 'f64' ? 'f64' : 'f32';
  const steps = Number($<HTMLInputElement>('md-steps').value);
  if (!Number.isInteger(steps) || steps < 10 || steps > 100_000) {
    showError(err, `steps: ${JSON.stringify($<HTMLInputElement>('md-steps').value)} is not an integer from 10 to 100000`);
    return;
  }
  const st: NonNullable<AppState['md']> = (app.md = { running: true, rows: [] });
  const status = $('md-status');
  // the energies of the system: per atom for the LJ fluid (MiniMD's units), kJ/mol for water
  const series = system === 'lj' ? ['E_pair/N', 'TotEng/N'] : ['Potential', 'Total', 'Conserved'];
  const colours = ['#1f77b4', '#d62728', '#2ca02c'];
  mdChart?.destroy();
  mdChart = new Chart($<HTMLCanvasElement>('md-chart'), {
    type: 'line',
    data: { datasets: series.map((s, i) => ({ label: s, data: [] as { x: number; y: number }[], borderColor: colours[i], pointRadius: 0, borderWidth: 2 })) },
    options: {
      responsive: true, maintainAspectRatio: false, parsing: false,
      scales: { x: { type: 'linear', title: { display: true, text: 'step' } }, y: { title: { display: true, text: system === 'lj' ? 'energy per atom (LJ units)' : 'energy (kJ/mol)' } } },
    },
  });
  $<HTMLButtonElement>('md-run').disabled = true;
  $<HTMLButtonElement>('md-stop').disabled = false;
  let pending = false;
  mdJob = runJob({ job: 'md', system, steps, precision }, (r) => {
    if (r.type === 'status') status.textContent = r.text;
    else if (r.type === 'log') status.textContent = r.line.slice(0, 200);
    else if (r.type === 'thermo') {
      st.rows.push({ step: r.step, values: r.values });
      series.forEach((s, i) => {
        if (r.values[s] !== undefined) (mdChart!.data.datasets[i]!.data as { x: number; y: number }[]).push({ x: r.step, y: r.values[s]! });
      });
      if (!pending) {
        pending = true;
        requestAnimationFrame(() => {
          pending = false;
          mdChart?.update('none');
          st.plotted = mdChart?.data.datasets.reduce((n, d) => n + d.data.length, 0) ?? 0;
        });
      }
      status.textContent = `step ${r.step} of ${steps}`;
    } else if (r.type === 'md') {
      Object.assign(st, { stepsPerSecond: r.stepsPerSecond, key: r.key });
      status.textContent = `${steps} steps with ${r.key}: ${r.stepsPerSecond.toFixed(0)} steps/s, energy drift ${r.drift.toExponential(2)} per atom per time unit`;
    }
  });
  try {
    await mdJob.done;
  } catch (e) {
    const m = e as Error & { cancelled?: boolean };
    if (m.cancelled) status.textContent = `stopped at step ${st.rows.at(-1)?.step ?? 0}`;
    else {
      (st as { error?: string }).error = m.message;
      showError(err, m.message);
    }
  } finally {
    (st as { running: boolean }).running = false;
    mdJob = undefined;
    mdChart?.update('none');
    st.plotted = mdChart?.data.datasets.reduce((n, d) => n + d.data.length, 0) ?? 0;
    $<HTMLButtonElement>('md-run').disabled = false;
    $<HTMLButtonElement>('md-stop').disabled = true;
  }
}

// ------------------------------------------------------------------------------------------
// Wiring

function wire(): void {
  $('tune-start').addEventListener('click', () => {
    try {
      void startTune(tuneOptions());
    } catch (e) {
      showError($('tune-error'), (e as Error).message);
    }
  });
  $('tune-cancel').addEventListener('click', () => tuneJob?.cancel());
  $('tune-forget').addEventListener('click', async () => {
    tuneJob?.cancel();
    await runJob({ job: 'forget' }).done;
    localStorage.removeItem(RESUME_KEY);
    $('tune-status').textContent = 'the measurements kept in this browser are forgotten';
    $<HTMLButtonElement>('download').disabled = true;
  });
  $('download').addEventListener('click', () => void download().catch((e: Error) => showError($('tune-error'), e.message)));
  $<HTMLInputElement>('report-files').addEventListener('change', async (e) => {
    await readReportFiles((e.target as HTMLInputElement).files);
    await drawReport();
  });
  $('report-draw').addEventListener('click', () => void drawReport());
  $('gem-run').addEventListener('click', () => void runGem({ molecule: $<HTMLSelectElement>('gem-molecule').value }));
  $('gem-cancel').addEventListener('click', () => gemJob?.cancel());
  const drop = $('gem-drop');
  drop.addEventListener('dragover', (e) => {
    e.preventDefault();
    drop.classList.add('over');
  });
  drop.addEventListener('dragleave', () => drop.classList.remove('over'));
  drop.addEventListener('drop', (e) => {
    e.preventDefault();
    drop.classList.remove('over');
    void runGem({ files: [...(e.dataTransfer?.files ?? [])] });
  });
  $<HTMLInputElement>('gem-files').addEventListener('change', (e) => void runGem({ files: [...((e.target as HTMLInputElement).files ?? [])] }));
  $('md-run').addEventListener('click', () => void runMd());
  $('md-stop').addEventListener('click', () => mdJob?.cancel());
}

async function start(): Promise<void> {
  wire();
  await showDevices();
  const params = new URLSearchParams(location.search);
  // a tune interrupted by a reload goes on (the tuner reuses what the cache holds)
  const pending = localStorage.getItem(RESUME_KEY);
  const kept = await keptFiles().catch(() => ({ caches: [], tuned: undefined }));
  if (kept.tuned) $<HTMLButtonElement>('download').disabled = false;
  if (pending && params.get('resume') !== 'no') {
    document.body.dataset.ready = '1';
    try {
      const o = JSON.parse(pending) as TuneJob;
      applyOptions(o);
      void startTune(o, true);
    } catch {
      localStorage.removeItem(RESUME_KEY);
    }
    return;
  }
  // The report of what this browser kept is drawn before the page says it is ready: it lies above
  // the GEM and MD panels and moves them down by its height as it appears (a click aimed at their
  // buttons in between lands on the report).
  if (kept.caches.length > 0) await drawReport();
  document.body.dataset.ready = '1';
}

void start();
