// The web app's worker: every long job of the page runs here, one job per worker (the page ends
// the worker afterwards, or terminates it to cancel), so the tab never freezes. It installs the
// browser platform (runtime/platform/browser.ts): assets fetched from the served folder, the
// files the runtime writes (the tuning cache, kernforge-tuned.json) kept in IndexedDB, WebGPU
// from navigator.gpu, worker threads from js/browser-worker.js. Everything else is the core:
// tune() (every candidate verified against the f64 reference before it is timed), open() (the
// tuned winner), the GEM surface generator and the MD engine.
import { installBrowserPlatform, type BrowserPlatform } from '../../runtime/platform/browser.ts';
import { platform } from '../../runtime/platform.ts';
import { tune } from '../../runtime/tune/tuner.ts';
import { detectDevices, type DeviceId } from '../../runtime/tune/devices.ts';
import type { Progress } from '../../runtime/tune/progress.ts';
import { open } from '../../runtime/open.ts';
import { bundledMolecule, BUNDLED_MOLECULES, type BundledMolecule } from '../../runtime/data.ts';
import { parsePqr, parseVert, type GemAtoms, type GemVertices } from '../../runtime/gem/io.ts';
import { generateSurface } from '../../runtime/gem/surface.ts';
import { checkGemPotentials, GEM_VERIFY_RTOL } from '../../runtime/gem/gate.ts';
import { isUserError } from '../../runtime/errors.ts';
import { DEFAULT_CACHE_DIR } from '../../runtime/tune/cache.ts';
import { DEFAULT_TUNED_FILE } from '../../runtime/tune/tuned.ts';
import { MAX_INPUT_BYTES, type Job, type Reply, type RowOut, type TuneJob, type GemJob, type MdJob } from './protocol.ts';

/**
 * One quick problem class per family, those whose candidates span the most targets (and the MD
 * panel's default run, the LJ fluid in f32, takes the md-nonbonded one).
 */
export const ONE_PER_FAMILY: Record<string, string> = { 'md-nonbonded': 'lj-fluid-f32-small', 'gem-potential': 'surface-small', 'bigdft-conv': 'magic-f32-small' };

const scope = self as unknown as { postMessage(m: Reply, transfer?: Transferable[]): void; onmessage: ((e: MessageEvent) => void) | null };
const post = (m: Reply, transfer: Transferable[] = []) => scope.postMessage(m, transfer);
const log = (line: string) => post({ type: 'log', line });
const status = (text: string) => post({ type: 'status', text });

let controller: AbortController | undefined;

/** Install the browser platform; `webgpu` false: the page found no WebGPU, so this worker asks for no adapter either. */
async function install(preload?: { families?: string[]; data?: string[] } | false, webgpu = true): Promise<BrowserPlatform> {
  return installBrowserPlatform({
    // the task worker entry web/build.mjs puts beside this bundle
    workerUrl: new URL('./browser-worker.js', import.meta.url),
    stderr: log,
    ...(webgpu ? {} : { webgpu: false as const }),
    ...(preload === undefined ? {} : { preload: preload === false ? false : { families: preload.families, data: preload.data ?? [] } }),
  });
}

async function devicesJob(webgpu: boolean): Promise<void> {
  await install(false, webgpu);
  const devices = await detectDevices(webgpu ? ['cpu', 'webgpu'] : ['cpu']);
  post({ type: 'devices', devices: JSON.parse(JSON.stringify(devices)) });
}

async function tuneJob(j: TuneJob): Promise<void> {
  status('fetching the kernels');
  const bp = await install({ families: j.families, data: j.families.includes('gem-potential') ? ['data/gem/mb_hhelix.pqr', 'data/gem/mb_hhelix.vert'] : [] }, j.devices.includes('webgpu'));
  controller = new AbortController();
  let done = 0;
  let total = 0;
  const progress: Progress = {
    start(t) {
      total = t;
      post({ type: 'progress', done, total, label: 'starting' });
    },
    tick(label) {
      done++;
      post({ type: 'progress', done, total, label });
    },
    setTotal(t) {
      total = t;
      post({ type: 'progress', done, total, label: '' });
    },
    log,
    stop() {},
  };
  const t0 = performance.now();
  status('tuning');
  if (!platform().worker) log('no worker threads here (the page is not cross-origin isolated): every family is tuned on one thread');
  // every family tunes its thread counts here: this is a dedicated worker, where the browser
  // platform gives the threaded MD engine its polled channel (runtime/platform/shared-channel.ts)
  const outcome = await tune({
    families: j.families,
    devices: j.devices as DeviceId[],
    problems: j.problems === 'quick' ? ['quick'] : j.families.map((f) => ONE_PER_FAMILY[f]!).filter(Boolean),
    maxEvals: j.maxEvals,
    reps: j.reps,
    warmup: 1,
    strategy: 'random',
    seed: 1,
    // without worker threads (a page that is not cross-origin isolated) every family runs on one
    ...(j.threads ? { threads: j.threads } : !platform().worker ? { threads: [1] } : {}),
    log,
    progress,
    signal: controller.signal,
  });
  await bp.flush();
  const rows: RowOut[] = outcome.rows.map((r) => ({
    device: r.device, family: r.family, problem: r.problem, candidates: r.candidates, bestKey: r.bestKey, bestMs: r.bestMs, chosenKey: r.chosenKey,
    defaultKey: r.defaultKey, defaultMs: r.defaultMs, speedup: r.speedup, measured: r.measured, cached: r.cached, failed: r.failed, note: r.note, bestByTarget: r.bestByTarget,
  }));
  post({ type: 'tuned', rows: JSON.parse(JSON.stringify(rows)), interrupted: outcome.interrupted, notes: outcome.notes, seconds: (performance.now() - t0) / 1000 });
}

async function filesJob(): Promise<void> {
  const bp = await install(false);
  const p = platform();
  const dir = p.resolve(DEFAULT_CACHE_DIR);
  const caches = bp.files().filter((f) => f.startsWith(`${dir}/`) && f.endsWith('.json')).map((file) => ({ file, text: p.readText(file) }));
  const tunedFile = p.resolve(DEFAULT_TUNED_FILE);
  post({ type: 'files', caches, ...(p.exists(tunedFile) ? { tuned: p.readText(tunedFile) } : {}) });
}

/** The text of a file the user gave, refused (one line) when it is far too large. */
async function textOf(f: File): Promise<string> {
  if (f.size > MAX_INPUT_BYTES) throw new InputError(`${f.name} is ${(f.size / 2 ** 20).toFixed(0)} MiB; the page reads files up to ${MAX_INPUT_BYTES / 2 ** 20} MiB`);
  return f.text();
}

class InputError extends Error {}

/** Atom-vertex pairs the page's own check against the f64 reference covers at most. */
const CHECK_PAIRS = 5e7;

async function gemJob(j: GemJob): Promise<void> {
  let atoms: GemAtoms;
  let verts: GemVertices | undefined;
  let name: string;
  if (j.molecule) {
    if (!(BUNDLED_MOLECULES as readonly string[]).includes(j.molecule)) throw new InputError(`no bundled molecule "${j.molecule}" (allowed: ${BUNDLED_MOLECULES.join(', ')})`);
    const m = bundledMolecule(j.molecule as BundledMolecule);
    const rel = (p: string) => `data/gem/${p.split('/').pop()}`;
    status('fetching the molecule and the kernels');
    await install({ families: ['gem-potential'], data: [rel(m.pqr), ...(m.vert ? [rel(m.vert)] : [])] }, j.webgpu);
    name = j.molecule;
    atoms = parsePqr(platform().readText(m.pqr), `${j.molecule}.pqr`);
    if (m.vert) verts = parseVert(platform().readText(m.vert), `${j.molecule}.vert`);
  } else {
    const files = j.files ?? [];
    const pqr = files.filter((f) => /\.pqr$/i.test(f.name));
    const vert = files.filter((f) => /\.vert$/i.test(f.name));
    const other = files.filter((f) => !/\.(pqr|vert)$/i.test(f.name));
    if (other.length > 0) throw new InputError(`${other.map((f) => f.name).join(', ')}: not a .pqr or .vert file (give one .pqr and optionally its MSMS .vert)`);
    if (pqr.length !== 1) throw new InputError(`${pqr.length === 0 ? 'no .pqr file' : `${pqr.length} .pqr files`} given: give one .pqr (atoms: x y z charge radius) and optionally its .vert`);
    if (vert.length > 1) throw new InputError(`${vert.length} .vert files given: at most one`);
    name = pqr[0]!.name;
    status(`reading ${name}`);
    const texts = await Promise.all([textOf(pqr[0]!), ...(vert[0] ? [textOf(vert[0])] : [])]);
    await install({ families: ['gem-potential'], data: [] }, j.webgpu);
    atoms = parsePqr(texts[0]!, pqr[0]!.name);
    if (vert[0]) verts = parseVert(texts[1]!, vert[0].name);
  }
  let generated = false;
  if (!verts) {
    status(`generating the surface of ${atoms.n} atoms`);
    const s = generateSurface(atoms);
    log(`surface generated: ${s.n} vertices, ${s.totalArea.toFixed(0)} A^2, in ${s.seconds.toFixed(1)} s`);
    verts = { n: s.n, x: s.x, y: s.y, z: s.z, nx: s.nx, ny: s.ny, nz: s.nz };
    generated = true;
  }
  status(`computing the potential on ${verts.n} vertices`);
  const kf = await open({ log, targets: j.webgpu ? ['ts', 'wasm', 'wgsl', 'gpujs'] : ['ts', 'wasm', 'gpujs'] });
  const t0 = performance.now();
  const r = await kf.gem.potential(atoms, verts, { epsIn: 1, epsOut: 80, salt: 0 });
  const ms = performance.now() - t0;
  // the f64 reference on every vertex, or on vertices spread over the surface up to CHECK_PAIRS
  // atom-vertex pairs (the nucleosome's 25,086 atoms x 250,974 vertices would take minutes)
  const m = Math.min(verts.n, Math.max(1, Math.floor(CHECK_PAIRS / atoms.n)));
  status(m === verts.n ? 'checking every vertex against the f64 reference' : `checking ${m} vertices spread over the surface against the f64 reference`);
  const idx = Array.from({ length: m }, (_, i) => Math.floor((i * verts.n) / m));
  const precision = /\.f64\./.test(r.key) ? 'f64' : 'f32';
  const check = checkGemPotentials(idx.map((i) => r.phi[i]!), idx, GEM_VERIFY_RTOL[precision], atoms, verts, r.params, r.region);
  const xyz = new Float32Array(3 * verts.n);
  const normals = new Float32Array(3 * verts.n);
  for (let i = 0; i < verts.n; i++) {
    xyz.set([verts.x[i]!, verts.y[i]!, verts.z[i]!], 3 * i);
    normals.set([verts.nx[i]!, verts.ny[i]!, verts.nz[i]!], 3 * i);
  }
  const params = Object.fromEntries(Object.entries(r.params).filter(([, v]) => typeof v === 'number')) as Record<string, number>;
  post({ type: 'gem', name, atoms: atoms.n, n: verts.n, xyz, normals, phi: r.phi, key: r.key, target: r.target, source: r.source, generated, ms, check: { ok: check.ok, worst: check.worst, maxAbs: check.maxAbs, detail: check.detail, vertices: m }, params }, [xyz.buffer, normals.buffer]);
  await kf.close();
}

async function mdJob(j: MdJob): Promise<void> {
  status('fetching the kernels');
  await install({ families: ['md-nonbonded'], data: j.system === 'water' ? ['data/md/spce-884.gro'] : [] });
  const kf = await open({ log, targets: ['ts', 'wasm'] });
  let header: string[] | undefined;
  const thermoEvery = Math.max(1, Math.round(j.steps / 100));
  const s = await kf.md.run({
    system: j.system,
    steps: j.steps,
    precision: j.precision,
    thermo: thermoEvery,
    threads: 1,
    ...(j.system === 'lj' ? { cells: 6 } : { thermostat: 'v-rescale', refT: 300 }),
    log(line) {
      // the thermo table: its header line, then one line per sample, until a blank line
      const f = line.trim().split(/\s+/);
      if (line.trim() === '') header = undefined;
      else if (f[0] === 'Step') header = f;
      else if (header && /^\d+$/.test(f[0]!) && f.length >= header.length - 1) {
        const values: Record<string, number> = {};
        header.forEach((h, i) => {
          const v = Number(f[i]);
          if (h !== 'ETA' && Number.isFinite(v)) values[h] = v;
        });
        post({ type: 'thermo', step: Number(f[0]), values });
        return;
      }
      log(line);
    },
  });
  post({ type: 'md', steps: j.steps, stepsPerSecond: s.stepsPerSecond, key: s.prepared.run.keyF, drift: s.drift });
  await kf.close();
}

async function forgetJob(): Promise<void> {
  const bp = await install(false);
  await bp.clear();
}

scope.onmessage = (e: MessageEvent) => {
  const j = e.data as Job | { type: 'cancel' };
  if ('type' in j) {
    controller?.abort();
    return;
  }
  void (async () => {
    try {
      if (j.job === 'devices') await devicesJob(j.webgpu);
      else if (j.job === 'tune') await tuneJob(j);
      else if (j.job === 'gem') await gemJob(j);
      else if (j.job === 'md') await mdJob(j);
      else if (j.job === 'files') await filesJob();
      else if (j.job === 'forget') await forgetJob();
      post({ type: 'done' });
    } catch (err) {
      const e = err instanceof Error ? err : new Error(String(err));
      const user: boolean = e instanceof InputError || isUserError(err);
      if (!user && e.stack) log(e.stack);
      post({ type: 'error', message: user ? e.message : `${e.name}: ${e.message}`, user });
    }
  })();
};
