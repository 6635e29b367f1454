// The tasks a pool worker runs (runtime/parallel/pool.ts). Each works on a range of independent
// items of arrays shared with the main thread: the same variant code as the single-thread path,
// called on subarrays, so every output value is computed exactly as there.
import { loadTsModule } from '../variants.ts';
import type { GemTsModule } from '../gem/run.ts';
import type { GemParams } from '../gem/model.ts';
import type { ConvTsModule } from '../bigdft/conv.ts';
import type { MdTsModule } from '../md/kernels.ts';
import { abortJoin, addSumShare, arriveAtSums, clusterPart, joinOwnParts, mdStepDone, runSettlePart, runUpdatePart, runWasmShare, spinForSteps, OP_ENERGIES, OP_HAND_BACK, OP_NO_KICK, OP_SETTLE, OP_SUM, OP_UPDATE, OP_WITH_MESH, SPIN_SPINNING, sumCoords, type MdClusterArgs, type MdMeshSetupArgs, type MdSearchJoin, type MdSettleSetupArgs, type MdSetupArgs, type MdUpdateSetupArgs, type MdWasmSetupArgs } from './md.ts';
import { UpdateRanges } from '../md/settle-simd.ts';
import type { PmeMesh } from '../pme/prepared.ts';

/**
 * A worker's side of the MD force calls: compute this call with the kernels `loaded` resolves to,
 * report it through the control block (an error, the loading one included, goes there too, so
 * the caller never waits for nothing), then spin for the next calls the caller hands over
 * (runtime/parallel/md.ts: spinForSteps).
 */
async function serveForceCalls<K>(s: { ctl: Int32Array; spin: Int32Array; w: number }, op: number, loaded: Promise<K>, compute: (kernels: K, energies: boolean, op: number) => void): Promise<void> {
  let kernels: K | undefined;
  let loadErr: unknown;
  try {
    kernels = await loaded;
  } catch (e) {
    loadErr = e ?? new Error('unknown error');
  }
  const step = (o: number): void => {
    let err: unknown = o === OP_SETTLE || o === OP_UPDATE ? undefined : loadErr;
    try {
      if (o === OP_SETTLE) {
        if (!settle) throw new Error('a SETTLE call before md-settle-setup');
        runSettlePart(settle);
      } else if (o === OP_UPDATE) {
        if (!update) throw new Error('an update call before md-update-setup');
        runUpdatePart(update);
      } else if (kernels !== undefined) compute(kernels, (o & ~OP_WITH_MESH) === OP_ENERGIES, o);
    } catch (x) {
      err = x ?? new Error('unknown error');
    }
    mdStepDone(s.ctl, err);
  };
  Atomics.store(s.spin, s.w, SPIN_SPINNING);
  step(op);
  spinForSteps(s.spin, s.w, step);
}
import { adoptWasmModule, readyWasmInstance, wasmInstance, type WasmMd } from '../md/wasm.ts';
import { chunkArenas, searchColumnChunks, type ChunkArenas, type SearchInput } from '../md/clusters.ts';
import type { MessagePort } from 'node:worker_threads';

type Real = Float32Array | Float64Array;
export type TaskFn = (args: Record<string, unknown>) => unknown;

const modules = new Map<string, Promise<unknown>>();
function load<T>(key: string): Promise<T> {
  let m = modules.get(key);
  if (!m) {
    m = loadTsModule<T>(key);
    modules.set(key, m);
  }
  return m as Promise<T>;
}

/** Worker-local scratch arrays, one per slot and precision, grown on demand. */
const scratch = new Map<string, Real>();
function scratchArray(slot: number, like: Real, length: number): Real {
  const f32 = like instanceof Float32Array;
  const name = `${slot}.${f32 ? 'f32' : 'f64'}`;
  let a = scratch.get(name);
  if (!a || a.length < length) {
    a = f32 ? new Float32Array(length) : new Float64Array(length);
    scratch.set(name, a);
  }
  return a.subarray(0, length);
}

/** Copy t (n rows of cnt values, t[i*cnt + jj]) into columns j0.. of y (n rows of m values). */
function scatter(t: Real, y: Real, n: number, m: number, j0: number, cnt: number): void {
  for (let i = 0; i < n; i++) y.set(t.subarray(i * cnt, i * cnt + cnt), i * m + j0);
}

export interface GemTaskArgs {
  key: string;
  vx: Real; vy: Real; vz: Real; nx: Real; ny: Real; nz: Real;
  ax: Real; ay: Real; az: Real; aq: Real;
  phi: Real;
  params: GemParams;
  /** Vertices [v0, v1) of this task. */
  v0: number;
  v1: number;
}

/** separable-t: lines [j0, j1) of one transposing pass over m lines of n points. */
export interface ConvTPassArgs {
  key: string;
  x: Real; y: Real; n: number; m: number; j0: number; j1: number;
  yin?: Real; xt?: Real; scale?: number;
}

/** separable: one strided pass on the part of the grid from `off` (groups and lines of that part). */
export interface ConvSPassArgs {
  key: string;
  x: Real; y: Real; off: number;
  n: number; ps: number; groups: number; gs: number; lines: number; ls: number;
  yin?: Real; scale?: number;
}

/** The MD force range this worker holds (md-setup) and computes on each md-step (runtime/parallel/md.ts). */
let md: { s: MdSetupArgs; mods: Promise<[MdTsModule, MdTsModule]> } | undefined;
/** Where this worker's pair-search entries go (runtime/parallel/md.ts reads them synchronously). */
let searchPort: MessagePort | undefined;
/** This worker's arenas for its chunks of the pair search (the caller joins them before the next search). */
let searchArenas: ChunkArenas | undefined;
/** The same for the WebAssembly variants (instances are per thread: runtime/md/wasm.ts). */
let mdWasm: MdWasmSetupArgs | undefined;
/** The instances that hold the current setup's particle block (copied in at their first call on it). */
let xqHeld = new Set<WasmMd>();
/** The PME mesh this worker computes before its share of the force calls (worker 0; MdWasmThreads.overlapLongRange). */
let mesh: { s: MdMeshSetupArgs; mesh: PmeMesh } | undefined;
/** This worker's part of the SETTLE calls (runtime/parallel/md.ts: MdWorkers.settle), run when a step's op is OP_SETTLE. */
let settle: MdSettleSetupArgs | undefined;
/** This worker's range of the split updates (runtime/parallel/md.ts: MdWorkers.update), run when a step's op is OP_UPDATE. */
let update: (MdUpdateSetupArgs & { ranges: UpdateRanges }) | undefined;

export const TASKS: Record<string, TaskFn> = {
  ping: () => 'ok',
  load: async (a) => {
    for (const k of a.keys as string[]) await load(k);
  },
  gem: async (args) => {
    const a = args as unknown as GemTaskArgs;
    const mod = await load<GemTsModule>(a.key);
    const s = (x: Real): Real => x.subarray(a.v0, a.v1);
    mod.kernel({ vx: s(a.vx), vy: s(a.vy), vz: s(a.vz), nx: s(a.nx), ny: s(a.ny), nz: s(a.nz), ax: a.ax, ay: a.ay, az: a.az, aq: a.aq, phi: s(a.phi), params: a.params });
  },
  // A range of vertices of a gem-potential wasm variant (runtime/gem/wasm.ts).
  'gem-wasm': async (args) => (await import('../gem/wasm.ts')).gemWasmTask(args as unknown as import('../gem/wasm.ts').GemWasmTaskArgs),
  'conv-t': async (args) => {
    const a = args as unknown as ConvTPassArgs;
    const mod = await load<ConvTsModule>(a.key);
    const { n, m, j0, j1 } = a;
    const cnt = j1 - j0;
    const x = a.x.subarray(j0 * n, j1 * n);
    const y = scratchArray(0, a.y, n * cnt);
    if (a.yin) {
      const xt = scratchArray(1, a.y, n * cnt);
      mod.kernel!({ x, y, n, m: cnt, yin: a.yin.subarray(j0 * n, j1 * n), xt, scale: a.scale });
      scatter(xt, a.xt!, n, m, j0, cnt);
    } else mod.kernel!({ x, y, n, m: cnt });
    scatter(y, a.y, n, m, j0, cnt);
  },
  // bigdft-conv wasm: lines [j0, j1) of one pass on the prepared problem's shared wasm memory
  'conv-wasm': async (args) => (await import('../bigdft/wasm.ts')).convWasmTask(args as unknown as import('../bigdft/wasm.ts').ConvWasmTaskArgs),
  'conv-wasm-release': async (args) => (await import('../bigdft/wasm.ts')).convWasmRelease(String(args.memId)),
  // Synchronous, so a following md-step (messages are handled in order) always sees it.
  'md-setup': (args) => {
    const s = args as unknown as MdSetupArgs;
    md = { s, mods: Promise.all([load<MdTsModule>(s.keyF), load<MdTsModule>(s.keyE)]) };
  },
  // One force call, then spin for the next ones (runtime/parallel/md.ts: spinForSteps).
  'md-step': async (args) => {
    const cur = md;
    if (!cur) throw new Error('md-step before md-setup');
    await serveForceCalls(cur.s, Number(args.op), cur.mods, (mods, energies) => {
      // The setup as of this call (a new list's md-setup may have run in the spin loop since).
      const { s } = md!;
      s.f.fill(0);
      s.energy.fill(0);
      s.fshift.fill(0);
      mods[energies ? 1 : 0].kernel({ ...s.args, f: s.f, energy: s.energy, fshift: s.fshift });
    });
  },
  // This worker's chunks of the clustering before a pair search (runtime/parallel/md.ts clusterPart).
  'md-cluster': (args) => {
    const a = args as unknown as MdClusterArgs;
    let err: unknown;
    try {
      clusterPart(a);
    } catch (e) {
      err = e ?? new Error('unknown error');
    }
    mdStepDone(a.ctlDone, err);
  },
  'md-search-port': (a) => {
    searchPort = a.port as MessagePort;
  },
  // Chunks of grid columns of the pair search, claimed from the shared counter as this worker
  // goes; their entries go back through the port (moved, not copied).
  'md-search': (args) => {
    const a = args as unknown as { inp: SearchInput; bounds: Int32Array; next: Int32Array; ctl: Int32Array; join: MdSearchJoin | undefined };
    let err: unknown;
    try {
      if (!searchPort) throw new Error('md-search before md-search-port');
      const own = searchColumnChunks(a.inp, a.bounds, () => Atomics.add(a.next, 0, 1), (searchArenas ??= chunkArenas()));
      // This worker's parts into the list, beside the other threads (before its arrays move).
      if (a.join) joinOwnParts(own, a.join);
      // One flat message per chunk (what a polled channel carries: runtime/platform/shared-channel.ts):
      // views on this worker's shared chunk arenas, valid until its next search; an array that
      // outgrew its arena view is a plain one, moved.
      for (const { chunk, part } of own) {
        const moved = [part.ci.buffer, part.cj.buffer, part.excl.buffer].filter((b): b is ArrayBuffer => !(typeof SharedArrayBuffer === 'function' && b instanceof SharedArrayBuffer));
        searchPort.postMessage({ chunk, ...part }, [...new Set(moved)]);
      }
    } catch (e) {
      err = e ?? new Error('unknown error');
      if (a.join) abortJoin(a.join);
    }
    mdStepDone(a.ctl, err);
  },
  'md-wasm-load': async (a) => {
    for (const [k, m] of Object.entries(a.modules as Record<string, WebAssembly.Module>)) {
      adoptWasmModule(k, m);
      await wasmInstance(k);
    }
  },
  'md-settle-setup': (args) => {
    settle = args as unknown as MdSettleSetupArgs;
  },
  // The workspace's memory is shared: this thread's own instance of the update module on it.
  'md-update-setup': (args) => {
    const a = args as unknown as MdUpdateSetupArgs;
    const ranges = UpdateRanges.attach(a.memory, a.nAtoms);
    if (!ranges) throw new Error('md-update-setup: no WebAssembly SIMD module on a shared memory in this worker');
    update = { ...a, ranges };
  },
  // The force variant's instance takes the new list at once (beside the caller taking it into its
  // own), not at the first call: its particle block comes with that call (the caller writes it then).
  'md-wasm-setup': (args) => {
    const s = args as unknown as MdWasmSetupArgs;
    mdWasm = s;
    xqHeld = new Set();
    readyWasmInstance(s.keyF)?.bindList(s.list, s.nPadded);
  },
  'md-wasm-sum': (args) => {
    if (!mdWasm) throw new Error('md-wasm-sum before md-wasm-setup');
    mdWasm.sum = args.sum as MdWasmSetupArgs['sum'];
  },
  // Prepare the calling thread's PME mesh variant (checked against the f64 reference there, not again
  // here); the caller waits for it.
  'md-mesh-setup': async (args) => {
    const s = args as unknown as MdMeshSetupArgs;
    const r = s.recipe;
    mesh?.mesh.dispose();
    mesh = undefined;
    mesh = { s, mesh: await (await import('../pme/prepared.ts')).prepareMesh(r.variant, r.box, r.params, r.q.length, true) };
  },
  // Copy the caller's particle block in, compute this worker's share, copy the outputs out; then spin
  // for the next force calls (runtime/parallel/md.ts: spinForSteps).
  'md-wasm-step': async (args) => {
    const s0 = mdWasm;
    if (!s0) throw new Error('md-wasm-step before md-wasm-setup');
    const inst = Promise.all([wasmInstance(s0.keyF), wasmInstance(s0.keyE)]);
    await serveForceCalls(s0, Number(args.op), inst, ([wf, we], energies, op) => {
      // The setup as of this call (a new list's md-wasm-setup may have run in the spin loop since).
      const s = mdWasm!;
      const m = mesh;
      // With the sums over the threads (OP_SUM), this thread arrives at them however its part ends.
      const sum = !energies && (op & OP_SUM) !== 0;
      try {
        // The mesh first, the same call the calling thread would make, into zeroed forces.
        if (op & OP_WITH_MESH) {
          if (!m) throw new Error('a force call with the PME mesh before md-mesh-setup');
          m.s.f.fill(0);
          const r = m.mesh.compute(m.s.x, m.s.recipe.q, m.s.f, energies);
          if (energies) {
            m.s.out[0] = r.energy;
            m.s.out.set(r.virial, 1);
          }
        }
        const w = energies ? we : wf;
        // A new list: its particle block (charges, LJ parameters, dummies); every call: the positions.
        w.bindList(s.list, s.nPadded);
        if (!xqHeld.has(w)) {
          w.xqBlock.set(s.xq);
          xqHeld.add(w);
        }
        // With the sums over the threads, the other threads' positions handed back where the caller says so (WasmMd.positions).
        w.positions(s.x, s.atomOf, s.offset, sum && s.sum && (op & OP_HAND_BACK) !== 0 ? sumCoords(s.sum) : undefined);
        runWasmShare(w, s.list.params, s.bounds, s.next, s.w + 1);
        // Force-only steps: into atom order here, beside the caller gathering its own block.
        if (energies) s.f.set(w.forces);
        else w.forcesToAtoms(s.slotOf, s.fAtoms);
        s.energy.set(w.energy);
        s.fshift.set(w.fshift);
      } finally {
        if (sum) arriveAtSums(s.gate);
      }
      if (sum) {
        if (!s.sum) throw new Error('a force call with sums over the threads before md-wasm-sum');
        addSumShare(s.sum, s.gate, (op & OP_NO_KICK) === 0, (op & OP_HAND_BACK) !== 0);
      }
    });
  },
  'conv-s': async (args) => {
    const a = args as unknown as ConvSPassArgs;
    const mod = await load<ConvTsModule>(a.key);
    const { off } = a;
    const geo = { n: a.n, ps: a.ps, groups: a.groups, gs: a.gs, lines: a.lines, ls: a.ls };
    if (a.yin) mod.kernel!({ x: a.x.subarray(off), y: a.y.subarray(off), ...geo, yin: a.yin.subarray(off), scale: a.scale });
    else mod.kernel!({ x: a.x.subarray(off), y: a.y.subarray(off), ...geo });
  },
};
