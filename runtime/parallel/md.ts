// The MD non-bonded forces over worker threads (issue 7). After each pair search the packed kernel
// inputs move to SharedArrayBuffers and the i-entries of the pair list are cut into contiguous
// ranges of about equal j-entry count (the kernel's work). The calling thread computes the first
// range itself and each pool worker one other, every range with the same generated kernel into
// its own force, energy and shift-force arrays; the caller then sums those. Half-list kernels
// also write j-forces, so ranges cannot share a force array: the sums are the only difference
// from the single-thread run (round-off).
//
// WebAssembly variants (MdWasmThreads) work the same way with one instance and memory per
// worker: each thread writes the call's positions into its instance and gathers its forces out;
// where the caller's positions and forces are in shared memory (the engine's update workspace on
// threads), the workers read the positions there, and the threads add the workers' forces into
// the caller's, each for a range of atoms, once all are gathered (sumInto).
// By default their threads claim the list's i-entries in chunks as they go (issue 16): on a
// shared host one thread often runs slower for a while, and a fixed split then waits for it.
// Which thread computes which chunk varies from run to run, and so do the forces' round-off;
// `reproducible` keeps the fixed split (the same numbers run after run).
//
// One force call must stay synchronous (MdEngine.simulate is): the caller posts one message per
// worker and blocks in Atomics.wait on a shared counter that each worker raises when done.
import type { MdArgs, Real } from '../../generated/md-nonbonded/ts/abi.ts';
import { need, type PolledChannel } from '../platform.ts';
import { Pool, toShared, type Task } from './pool.ts';
import { chunkArenas, clusterAtoms, clusterColumns, columnRanges, columnWork, joinPart, searchColumnChunks, type ChunkPart, type ListArrays, type ClusterJob, type ClusterSplit, type ColumnSplit, type ListPart, type SearchInput } from '../md/clusters.ts';
import { blocksOf, wasmModule, WASM_F_WORDS, WASM_XQ_WORDS, type WasmList, type WasmMd, type WasmReals } from '../md/wasm.ts';
import { mdShape } from '../md/kernels.ts';
import { SETTLE_ACC_WORDS, settleRange, type SettleJob, type SettleSplit } from '../md/settle.ts';
import { UPDATE_MAX_RANGES, UPDATE_PAR_WORDS, updatePar, type UpdateRanges, type UpdateWorkspace } from '../md/settle-simd.ts';
import type { MeshRecipe } from '../pme/prepared.ts';

export type MdInputs = Omit<MdArgs, 'f' | 'energy' | 'fshift'>;

/** Control block words: finished workers, error flag, error text length; the text follows. */
export const MD_CTL_DONE = 0;
export const MD_CTL_ERROR = 1;
export const MD_CTL_ERRLEN = 2;
export const MD_CTL_TEXT_OFFSET = 16;
const ERR_BYTES = 4096;
/** A worker that has not answered after this long is taken for dead. */
const STEP_TIMEOUT_MS = 600_000;

/**
 * Per worker, a word of a shared array: its state, and a claim's step (the op) with it. After a
 * force call a worker spins for the next one for up to WORKER_SPIN_MS instead of going back to
 * its event loop: a thread woken from sleep every step (after the caller's update) starts late
 * and, on this VM, slow (measured: 1.3x instead of 1.8x on 2 threads). The caller claims a
 * spinning worker through shared memory (SPIN_SPINNING -> SPIN_CLAIMED + op, in one
 * compare-exchange: a claim that fails leaves another's op alone), or posts a message to an
 * idle one.
 */
export const SPIN_IDLE = 0;
export const SPIN_SPINNING = 1;
export const SPIN_CLAIMED = 2;
export const WORKER_SPIN_MS = 5;
/** What a claimed or posted step does (the spin argument word): forces, forces and energies, or SETTLE on the worker's molecules (issue 16). */
export const OP_FORCES = 0;
export const OP_ENERGIES = 1;
export const OP_SETTLE = 2;
/** A range of the kick and drift and SETTLE on a shared update workspace (MdWorkers.update). */
export const OP_UPDATE = 3;
/** Added to OP_FORCES or OP_ENERGIES: worker 0 computes the long-range part first (MdWasmThreads.overlapLongRange). */
export const OP_WITH_MESH = 4;
/** Added to OP_FORCES: the threads sum the forces into the caller's shared array, each a range of atoms (MdWasmThreads.sumShare). */
export const OP_SUM = 8;
/**
 * Not a step: run the tasks posted to this worker (MdWorkers.takePosted), all of them, in order,
 * from the spin loop where the worker's platform reads posted messages synchronously (setRunPosted),
 * else back in the event loop.
 */
export const OP_TASKS = 16;
/** Added to OP_SUM: the sums leave out the kick of sumInto this call (the engine leaves it to the next kick and drift). */
export const OP_NO_KICK = 32;
/** Flag of a force-only call with the sums: the threads hand back the lines they read of the others' (handBack; HandBackChoice decides). */
export const OP_HAND_BACK = 64;
/** The caller spins this long for the workers' results before it sleeps. */
const CALLER_SPIN_MS = 20;

/** Outputs of one range. */
export interface MdChunk {
  ci: Int32Array;
  f: Real;
  energy: Float64Array;
  fshift: Float64Array;
}

/** What a worker keeps between force calls (md-setup) and runs on each (md-step). */
export interface MdSetupArgs {
  keyF: string;
  keyE: string;
  args: MdInputs;
  f: Real;
  energy: Float64Array;
  fshift: Float64Array;
  ctl: Int32Array;
  /** The spin words (one per worker) and this worker's index. */
  spin: Int32Array;
  w: number;
}


/** A worker's part of the SETTLE calls (md-settle-setup): the job's arrays (shared), its molecules [m0, m1), its sums; per call the scalars in `par` (invdt, doV, virial). */
export interface MdSettleSetupArgs {
  job: SettleJob;
  m0: number;
  m1: number;
  acc: Float64Array;
  par: Float64Array;
}

/** A worker's range of the split update (md-update-setup): the workspace's memory, the atoms [a0, a1) and molecules [m0, m1), its range index k (its sums' place); the scalars of each call in `par`. */
export interface MdUpdateSetupArgs {
  memory: WebAssembly.Memory;
  nAtoms: number;
  a0: number;
  a1: number;
  m0: number;
  m1: number;
  k: number;
  par: Float64Array;
}

/** Worker side: one update call on this worker's range. */
export function runUpdatePart(s: MdUpdateSetupArgs & { ranges: UpdateRanges }): void {
  s.ranges.run(s.par, s.a0, s.a1, s.m0, s.m1, s.k);
}

/** Worker side: one SETTLE call on this worker's molecules, with the scalars of this call. */
export function runSettlePart(s: MdSettleSetupArgs): void {
  const p = s.par;
  s.job.invdt = p[0]!;
  s.job.doV = p[1] === 1;
  s.job.virial = p[2] === 1;
  settleRange(s.job, s.m0, s.m1, s.acc);
}

const isShared = (a: ArrayBufferView | undefined): boolean => a === undefined || a.buffer instanceof SharedArrayBuffer;

/** Move the kernel inputs to shared memory, in place (the object may be cached by its MdProblem). */
export function shareMdInputs(a: MdInputs): void {
  a.xq = toShared(a.xq);
  a.type = toShared(a.type);
  a.ljp = toShared(a.ljp);
  a.nbfp = toShared(a.nbfp);
  a.ci = toShared(a.ci);
  a.cj = toShared(a.cj);
  a.excl = toShared(a.excl);
  a.shiftVec = toShared(a.shiftVec);
  a.params = { ...a.params, tabF: toShared(a.params.tabF), tabV: toShared(a.params.tabV) };
}

/**
 * Boundaries b[0] = 0 <= b[1] <= ... <= b[parts] = n of the i-entries (4 ints each in ci) so that
 * each range holds about the same work: its j-entries plus one per i-entry.
 */
export function splitByWork(ci: Int32Array, parts: number): number[] {
  return splitAtWork(ci, Array.from({ length: parts - 1 }, (_, p) => (p + 1) / parts));
}

/**
 * Boundaries 0 <= b[1] <= ... <= n of the i-entries at these fractions (increasing, in (0, 1)) of
 * the work (its j-entries plus one per i-entry), then n.
 */
export function splitAtWork(ci: Int32Array, fractions: number[]): number[] {
  const n = ci.length >> 2;
  let total = 0;
  for (let e = 0; e < n; e++) total += ci[4 * e + 3]! - ci[4 * e + 2]! + 1;
  const b = [0];
  let acc = 0;
  let e = 0;
  for (const fr of fractions) {
    const target = total * fr;
    while (e < n && acc + (ci[4 * e + 3]! - ci[4 * e + 2]! + 1) / 2 < target) {
      acc += ci[4 * e + 3]! - ci[4 * e + 2]! + 1;
      e++;
    }
    b.push(e);
  }
  b.push(n);
  return b;
}

/**
 * Fractions of the work where the chunks the threads claim end (splitAtWork): each chunk takes
 * 1 / (GUIDED_SHARE threads) of the work left, down to 1 / (GUIDED_MIN threads) of the whole,
 * so the first chunks are large (few claims) and the last small (the threads end within a
 * small chunk of each other).
 */
export function guidedFractions(threads: number): number[] {
  const out: number[] = [];
  const min = 1 / (GUIDED_MIN * threads);
  let done = 0;
  for (;;) {
    done += Math.max((1 - done) / (GUIDED_SHARE * threads), min);
    if (done >= 1 - min / 2) return out;
    out.push(done);
  }
}
const GUIDED_SHARE = 2;
const GUIDED_MIN = 64;

/**
 * threads - 1 pool workers that run one task each per force call while this thread computes its
 * own part, synchronised through a shared control block (the caller blocks in Atomics.wait).
 */
export abstract class MdWorkers {
  protected readonly ctl = new Int32Array(new SharedArrayBuffer(MD_CTL_TEXT_OFFSET + ERR_BYTES));
  protected readonly spin: Int32Array;
  protected closed = false;

  protected constructor(
    readonly threads: number,
    protected readonly pool: Pool,
  ) {
    this.spin = new Int32Array(new SharedArrayBuffer(4 * Math.max(1, threads - 1)));
  }

  /**
   * Send spinning workers back to their event loops, which then run the tasks posted them (in
   * order, before any later step). Called after the posts: a worker that got back to its event
   * loop before a message arrived would sleep there, and waking it costs about 0.1 ms.
   */
  protected stopSpinning(): void {
    for (let w = 0; w < this.threads - 1; w++) Atomics.store(this.spin, w, SPIN_IDLE);
  }

  /**
   * Have the workers run the tasks just posted them (synchronous tasks only), in order before
   * any later step: a spinning worker is claimed for them (OP_TASKS) and runs them in its spin
   * loop, where its platform can, then spins on; the others run them from their event loops.
   * Starting a task from the event loop took 0.1-0.2 ms here, from the spin loop a few
   * microseconds.
   */
  protected takePosted(): void {
    for (let w = 0; w < this.threads - 1; w++) {
      Atomics.compareExchange(this.spin, w, SPIN_SPINNING, SPIN_CLAIMED + OP_TASKS);
    }
  }

  protected static async startPool(threads: number, load: Task): Promise<Pool> {
    if (!(Number.isInteger(threads) && threads >= 2)) throw new RangeError(`MD worker threads need 2 or more threads, got ${threads}`);
    const pool = await Pool.create(threads - 1);
    try {
      await pool.run(Array.from({ length: pool.size }, () => load));
    } catch (e) {
      await pool.close();
      throw e;
    }
    return pool;
  }

  protected checkOpen(): void {
    if (this.closed) throw new Error('the MD worker threads are closed');
  }

  /**
   * The pair search split over the threads: CHUNKS_PER_THREAD chunks of columns per thread, of
   * about equal work (the last search's, else atom counts), claimed from a shared counter by this
   * thread and the workers as they go (inputs in shared memory, the workers' parts back through
   * a port each); this thread runs `meanwhile` before it claims any. The parts joined in chunk
   * order are the list one thread makes: each thread copies its own parts into `into` once all
   * are searched, where the list fits there (joinOwnParts; else the caller joins them all).
   */
  readonly search: ColumnSplit = (inp, meanwhile, into) => {
    const bounds = toShared(Int32Array.from(columnRanges(inp.grid, this.threads * CHUNKS_PER_THREAD, this.work)));
    const nChunks = bounds.length - 1;
    const join: MdSearchJoin | undefined = into && isShared(into.ci) && isShared(into.cj) && isShared(into.excl) ? { ...into, sizes: new Int32Array(new SharedArrayBuffer(8 * nChunks)), ctl: new Int32Array(new SharedArrayBuffer(8)), maskWords: inp.maskWords } : undefined;
    const next = this.searchNext;
    Atomics.store(next, 0, 0);
    const claim = (): number => Atomics.add(next, 0, 1);
    const g = inp.grid;
    const shared: SearchInput = {
      ...inp,
      shiftVec: toShared(inp.shiftVec), bbI: toShared(inp.bbI), bbJ: toShared(inp.bbJ), x: toShared(inp.x),
      atomOf: toShared(inp.atomOf), slotOf: toShared(inp.slotOf), exStart: toShared(inp.exStart), exList: toShared(inp.exList),
      grid: { ...g, columns: toShared(g.columns), colStart: toShared(g.colStart), colEnd: toShared(g.colEnd) },
    };
    const chunks: ChunkPart[] = [];
    this.dispatch('md-search', { inp: shared, bounds, next, ctl: this.ctl, join }, () => {
      try {
        // The caller's other work first: the workers take more chunks meanwhile.
        meanwhile?.();
        chunks.push(...searchColumnChunks(inp, bounds, claim, this.searchArenas));
      } catch (e) {
        if (join) abortJoin(join);
        throw e;
      }
      if (join) joinOwnParts(chunks, join);
    });
    // Each worker sent one message per chunk it searched, all before it reported done.
    for (const port of this.ports) {
      for (let m = port.poll(); m; m = port.poll()) {
        const { chunk, ...part } = m.message as ListPart & { chunk: number };
        chunks.push({ chunk, part });
      }
    }
    chunks.sort((a, b) => a.chunk - b.chunk);
    if (chunks.length !== bounds.length - 1 || chunks.some((c, k) => c.chunk !== k)) throw new Error(`MD worker threads: ${chunks.length} of ${bounds.length - 1} pair-search chunks came back`);
    const parts = chunks.map((c) => c.part);
    this.work = columnWork(inp.grid, inp.M, parts);
    const t = join && joinTotals(join);
    if (!t?.fits) return { parts };
    this.searchesJoinedHere++;
    return { parts, joined: { ci: join!.ci.subarray(0, t.ci), cj: join!.cj.subarray(0, t.cj), excl: join!.excl.subarray(0, t.cj * join!.maskWords) } };
  };

  /** Split searches whose parts the threads joined themselves (the others: the caller joined them). */
  searchesJoinedHere = 0;

  /**
   * The clustering before each pair search over the threads (issue 16): its pass by atoms and its
   * pass by columns in CLUSTER_CHUNKS_PER_THREAD chunks per thread each, claimed from shared
   * counters by this thread and the workers as they go (clusterPart); between them this thread
   * alone sorts the atoms by column (`middle`). The same layout as on one thread.
   */
  readonly cluster: ClusterSplit = (job, middle) => {
    const ctl = this.clusterCtl;
    ctl.fill(0);
    const chunks = this.threads * CLUSTER_CHUNKS_PER_THREAD;
    const atoms = toShared(Int32Array.from({ length: chunks + 1 }, (_, k) => atomCut(job.n, chunks, k)));
    const columns = new Int32Array(new SharedArrayBuffer(4 * (chunks + 1)));
    job.X = toShared(job.X);
    // A row of counts per thread (the caller's first).
    job.counts = new Int32Array(new SharedArrayBuffer(4 * this.threads * job.ncx * job.ncy));
    const args: MdClusterArgs = { job, ctl, atoms, columns, row: 0, ctlDone: this.ctl };
    this.dispatch('md-cluster', (w) => ({ ...args, row: w + 1 }) as unknown as Record<string, unknown>, () => {
      clusterPart(args, () => {
        middle();
        // The columns' ranges of about equal atom counts, from the counting sort's starts.
        const ncol = job.ncx * job.ncy;
        for (let k = 1, c = 0; k < chunks; k++) {
          while (c < ncol && job.first[c]! < (job.n * k) / chunks) c++;
          columns[k] = c;
        }
        columns[chunks] = ncol;
      });
    });
    return true;
  };

  /** The clustering's claim counters and flags (clusterPart). */
  private readonly clusterCtl = new Int32Array(new SharedArrayBuffer(4 * CLUSTER_CTL_WORDS));

  /** This thread's arenas for its chunks of the pair search (joined before the next search). */
  private readonly searchArenas = chunkArenas();

  /** The claim counter of the pair search's chunks (shared). */
  private readonly searchNext = new Int32Array(new SharedArrayBuffer(4));

  /**
   * SETTLE on positions over the threads (issue 16): molecule ranges of about equal size, the
   * first here, the others on the workers that still spin after the last force call (claimed
   * through shared memory); the range of a worker that does not spin is done here too, after
   * this thread's own (waking a sleeping thread costs more than it saves, and on a busy host a
   * descheduled worker would hold the step up). The job's arrays must be in shared memory (else
   * undefined: constrain here). Returns each range's sums in range order: the same numbers
   * whichever thread computed a range.
   */
  readonly settle: SettleSplit = (job, nMols) => {
    if (!isShared(job.xOld) || !isShared(job.xNew) || !isShared(job.v)) return undefined;
    const t = this.threads;
    const b = Array.from({ length: t + 1 }, (_, k) => Math.round((nMols * k) / t));
    const st = this.settleState;
    if (!st || st.job.xOld !== job.xOld || st.job.xNew !== job.xNew || st.job.v !== job.v || st.job.mols !== job.mols || st.nMols !== nMols) {
      // New arrays: each worker gets its range and outputs (in order before the next claimed or posted step).
      const par = new Float64Array(new SharedArrayBuffer(3 * 8));
      const accs = Array.from({ length: t }, () => new Float64Array(new SharedArrayBuffer(SETTLE_ACC_WORDS * 8)));
      const mols = toShared(job.mols);
      for (let w = 0; w < t - 1; w++) {
        const a: MdSettleSetupArgs = { job: { ...job, mols }, m0: b[w + 1]!, m1: b[w + 2]!, acc: accs[w + 1]!, par };
        this.pool.post(w, { task: 'md-settle-setup', args: a as unknown as Record<string, unknown> });
      }
      this.takePosted();
      this.settleState = { job: { ...job }, nMols, par, accs };
    }
    const { par, accs } = this.settleState!;
    par[0] = job.invdt;
    par[1] = job.doV ? 1 : 0;
    par[2] = job.virial ? 1 : 0;
    this.settleOnWorkers += this.claimSpinning(OP_SETTLE, (w) => settleRange(job, b[w + 1]!, b[w + 2]!, accs[w + 1]!), () => settleRange(job, 0, b[1]!, accs[0]!));
    return accs;
  };

  /** Ranges of SETTLE calls the workers have run (the others ran here). */
  settleOnWorkers = 0;

  /**
   * A step's kick and drift, then SETTLE (`job`, if any), on a shared update workspace, split
   * over the threads (issue 16): range k takes atoms [a_k, a_k+1) and the molecules whose atoms
   * lie there (in blocks of 4, as the module takes them); without SETTLE, the atoms of the force
   * sums' range k. With `measure`, each range also measures its atoms' largest displacement
   * since the search, for the run's check before the next force call (UpdateWorkspace.measured;
   * not where molecules are left to constrain here). This thread runs range 0;
   * the workers that still spin after the last force call run theirs (claimed through shared
   * memory), and this thread runs the ranges of the others. The last molecules (fewer than 4)
   * are constrained here after, in TypeScript. Positions and velocities are those of one thread
   * bit for bit; the result is each range's SETTLE sums in molecule order (SettleSplit's).
   * Undefined (nothing done: the caller runs the step itself) where the workspace is not
   * shared, the job's arrays are not the workspace's, or the molecules do not lie in contiguous
   * ranges of atoms.
   */
  readonly update = (ws: UpdateWorkspace, lambda: number, scale: number, dt: number, keep: boolean, job: SettleJob | undefined, measure = false, twice = false): Float64Array[] | undefined => {
    if (!ws.shared || this.threads > UPDATE_MAX_RANGES) return undefined;
    if (job && (job.xOld !== ws.xOld || job.xNew !== ws.x || (job.doV && job.v !== ws.v))) return undefined;
    const mols = job?.mols ?? NO_MOLECULES;
    let st = this.updateState;
    if (!st || st.ws !== ws || st.mols !== mols) {
      // Without SETTLE, the atoms cut as the force sums cut them (MdSumShare): each thread kicks
      // and drifts the atoms whose forces it summed.
      const plan = updateRanges(ws.nAtoms, this.threads, mols);
      // Each range's sums in the workspace, then (fewer than 4 molecules left) the last ones' here.
      const sums = Array.from({ length: this.threads }, (_, k) => ws.ranges.accOf(k));
      if (plan && plan.m[this.threads]! < mols.length / 3) sums.push(new Float64Array(SETTLE_ACC_WORDS));
      st = this.updateState = { ws, mols, plan, par: new Float64Array(new SharedArrayBuffer(8 * UPDATE_PAR_WORDS)), sums };
      if (plan) {
        if (job) ws.holdMols(mols);
        // Each worker's range (in order before the next claimed or posted step).
        for (let w = 0; w < this.threads - 1; w++) {
          const k = w + 1;
          const a: MdUpdateSetupArgs = { memory: ws.memory, nAtoms: ws.nAtoms, a0: plan.a[k]!, a1: plan.a[k + 1]!, m0: plan.m[k]!, m1: plan.m[k + 1]!, k, par: st.par };
          this.pool.post(w, { task: 'md-update-setup', args: a as unknown as Record<string, unknown> });
        }
        this.takePosted();
      }
    }
    const { plan, par, sums } = st;
    if (!plan) return undefined;
    // The displacement measured by the ranges, unless molecules are left to constrain here after.
    const leftover = job !== undefined && sums.length > this.threads;
    updatePar(par, lambda, scale, dt, keep, job, measure && !leftover, twice);
    const range = (k: number): void => ws.ranges.run(par, plan.a[k]!, plan.a[k + 1]!, plan.m[k]!, plan.m[k + 1]!, k);
    this.updateOnWorkers += this.claimSpinning(OP_UPDATE, (w) => range(w + 1), () => range(0));
    if (leftover) settleRange(job, plan.m[this.threads]!, job.mols.length / 3, sums[this.threads]!);
    else if (measure) {
      let d2 = 0;
      for (let k = 0; k < this.threads; k++) d2 = Math.max(d2, ws.measuredOf(k));
      ws.measured = d2;
    }
    return sums;
  };

  /** Ranges of split updates the workers have run (the others ran here). */
  updateOnWorkers = 0;

  private updateState: { ws: UpdateWorkspace; mols: Int32Array; plan: UpdatePlan | undefined; par: Float64Array; sums: Float64Array[] } | undefined;

  private settleState: { job: SettleJob; nMols: number; par: Float64Array; accs: Float64Array[] } | undefined;

  /** Work per column position in the last search: the next one is split by it. */
  private work: Float64Array | undefined;

  private readonly ports: PolledChannel[] = [];

  /** Give each worker the port its search results go back through (read here without waiting: platform channel()). */
  protected openPorts(): void {
    const channel = need('channel', 'polled message channels');
    for (let w = 0; w < this.threads - 1; w++) {
      const c = channel();
      this.ports.push(c);
      this.pool.post(w, { task: 'md-search-port', args: { port: c.port } }, [c.port]);
    }
  }

  /**
   * One force call: each worker that spins is claimed through shared memory, an idle one gets
   * `task` posted; `mine` runs here; returns once all are done.
   */
  protected dispatchStep(task: string, op: number, mine: () => void): void {
    this.checkOpen();
    Atomics.store(this.ctl, MD_CTL_DONE, 0);
    Atomics.store(this.ctl, MD_CTL_ERROR, 0);
    const spin = this.spin;
    for (let w = 0; w < this.threads - 1; w++) {
      if (!claim(spin, w, op)) this.pool.post(w, { task, args: { op } });
    }
    this.finish(mine);
  }

  /**
   * Claim the workers that spin for `op`; run `mine` here, then `rest(w)` here for each worker
   * that did not spin; return (the number claimed) once the claimed ones are done.
   */
  protected claimSpinning(op: number, rest: (w: number) => void, mine: () => void): number {
    this.checkOpen();
    Atomics.store(this.ctl, MD_CTL_DONE, 0);
    Atomics.store(this.ctl, MD_CTL_ERROR, 0);
    const spin = this.spin;
    const idle: number[] = [];
    for (let w = 0; w < this.threads - 1; w++) {
      if (!claim(spin, w, op)) idle.push(w);
    }
    this.finish(() => {
      mine();
      for (const w of idle) rest(w);
    }, this.threads - 1 - idle.length);
    return this.threads - 1 - idle.length;
  }

  /** Post `task` to every worker (`args` per worker), run `mine` here, and return once all workers are done (rethrowing any error). */
  protected dispatch(task: string, args: Record<string, unknown> | ((w: number) => Record<string, unknown>), mine: () => void): void {
    this.checkOpen();
    Atomics.store(this.ctl, MD_CTL_DONE, 0);
    Atomics.store(this.ctl, MD_CTL_ERROR, 0);
    for (let w = 0; w < this.threads - 1; w++) this.pool.post(w, { task, args: typeof args === 'function' ? args(w) : args });
    this.takePosted();
    this.finish(mine);
  }

  /** Run `mine`, then wait for the workers (spinning first, then sleeping) and report errors. */
  private finish(mine: () => void, nw = this.threads - 1): void {
    const ctl = this.ctl;
    let err: unknown;
    try {
      mine();
    } catch (e) {
      err = e;
    }
    // Wait for the workers even when this thread failed: they must be done before the next call.
    const done = awaitCount(ctl, MD_CTL_DONE, nw);
    if (done < nw) {
      this.closed = true;
      void this.pool.close();
      throw new Error(`MD worker threads: ${nw - done} of ${nw} workers did not finish a force call within ${STEP_TIMEOUT_MS / 1000} s`);
    }
    if (err !== undefined) throw err;
    if (Atomics.load(ctl, MD_CTL_ERROR) !== 0) {
      const len = Atomics.load(ctl, MD_CTL_ERRLEN);
      const text = new TextDecoder().decode(new Uint8Array(ctl.buffer, MD_CTL_TEXT_OFFSET, len).slice());
      throw new Error(`MD worker thread failed: ${text}`);
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stopSpinning();
    for (const p of this.ports) p.close();
    await this.pool.close();
  }
}

/** The force calls of one NonbondedForce with TypeScript variants spread over `threads` threads (this one and threads - 1 workers). */
export class MdThreads extends MdWorkers {
  private args: MdInputs | undefined;
  /** chunks[0] is computed by this thread, chunks[w + 1] by worker w. */
  chunks: MdChunk[] = [];

  private constructor(
    threads: number,
    pool: Pool,
    readonly keyF: string,
    readonly keyE: string,
  ) {
    super(threads, pool);
    this.openPorts();
  }

  /** Start threads - 1 workers with both variants loaded. */
  static async create(threads: number, keyF: string, keyE: string): Promise<MdThreads> {
    const pool = await MdWorkers.startPool(threads, { task: 'load', args: { keys: keyF === keyE ? [keyF] : [keyF, keyE] } });
    return new MdThreads(threads, pool, keyF, keyE);
  }

  /**
   * New inputs (after a pair search): shared in place, split by work, fresh per-range outputs
   * of `nPadded` particles, and handed to the workers.
   */
  setup(args: MdInputs, nPadded: number): void {
    this.checkOpen();
    shareMdInputs(args);
    this.args = args;
    const b = splitByWork(args.ci, this.threads);
    const f32 = args.xq instanceof Float32Array;
    this.chunks = [];
    for (let c = 0; c < this.threads; c++) {
      const fbuf = new SharedArrayBuffer(3 * nPadded * (f32 ? 4 : 8));
      this.chunks.push({
        ci: args.ci.subarray(4 * b[c]!, 4 * b[c + 1]!),
        f: f32 ? new Float32Array(fbuf) : new Float64Array(fbuf),
        energy: new Float64Array(new SharedArrayBuffer(2 * 8)),
        fshift: new Float64Array(new SharedArrayBuffer(81 * 8)),
      });
    }
    for (let w = 0; w < this.threads - 1; w++) {
      const c = this.chunks[w + 1]!;
      const s: MdSetupArgs = { keyF: this.keyF, keyE: this.keyE, args: { ...args, ci: c.ci }, f: c.f, energy: c.energy, fshift: c.fshift, ctl: this.ctl, spin: this.spin, w };
      this.pool.post(w, { task: 'md-setup', args: s as unknown as Record<string, unknown> });
    }
    this.takePosted();
  }

  /**
   * One force call on the current inputs (positions already written into the shared xq): each
   * range's outputs are zeroed and computed; `kernel` is the variant on this thread (force-only,
   * or with energies when `energies`). Returns when every range is done.
   */
  run(kernel: (a: MdArgs) => void, energies: boolean): MdChunk[] {
    const args = this.args;
    if (!args) throw new Error('MdThreads.run before setup');
    this.dispatchStep('md-step', energies ? OP_ENERGIES : OP_FORCES, () => {
      const c = this.chunks[0]!;
      c.f.fill(0);
      c.energy.fill(0);
      c.fshift.fill(0);
      kernel({ ...args, ci: c.ci, f: c.f, energy: c.energy, fshift: c.fshift });
    });
    return this.chunks;
  }
}

/**
 * Chunks of grid columns per thread when the threads claim the pair search's work as they go:
 * of about equal work, so the last one a thread takes ends at most one chunk after the others.
 * The kernels' chunks were 16 per thread of equal work too (water, 12,177 atoms, 2 threads,
 * 2026-11-24: kernel 5.42 ms/step against 5.92 with the fixed split; 8, 32 and 64 per thread
 * were no better); they are now guided (guidedFractions: 2026-11-25, kernel 3.73-3.77 against
 * 3.80-3.86 ms/step in three alternating pairs). Guided chunks did not change the search.
 */
export const CHUNKS_PER_THREAD = 16;

/**
 * One thread's share of a WebAssembly force call on `inst` (its outputs zeroed first). With
 * `next` (claimed work): the chunks [bounds[c], bounds[c + 1]) of i-entries, each taken by
 * raising next[0], until none is left. Without: the fixed range [bounds[own], bounds[own + 1]).
 */
export function runWasmShare(inst: WasmMd, params: WasmList['params'], bounds: Int32Array, next: Int32Array | undefined, own: number): void {
  inst.zero();
  if (!next) {
    inst.accumulate(params, bounds[own]!, bounds[own + 1]!);
    return;
  }
  const chunks = bounds.length - 1;
  for (let c = Atomics.add(next, 0, 1); c < chunks; c = Atomics.add(next, 0, 1)) inst.accumulate(params, bounds[c]!, bounds[c + 1]!);
}

/** What a worker holds for the WebAssembly force calls (md-wasm-setup) and runs on each (md-wasm-step). */
export interface MdWasmSetupArgs {
  keyF: string;
  keyE: string;
  /** The whole list (shared); this worker computes its share of it (runWasmShare with bounds, next and own w + 1). */
  list: WasmList;
  nPadded: number;
  bounds: Int32Array;
  next: Int32Array | undefined;
  /**
   * Particle data in the wasm cluster layout (WASM_XQ_WORDS per 4-atom cluster, reals of the
   * variants' precision) as of the list's search: charges, LJ parameters and the dummies'
   * coordinates, written by the caller before the first step on the list and copied into an
   * instance when it takes the list.
   */
  xq: WasmReals;
  /** The positions of each step (3 per atom, f64, written by the caller), and the slots' atoms and image offsets: each thread writes its instance's positions itself (writePositions). */
  x: Float64Array;
  atomOf: Int32Array;
  offset: Float64Array;
  /** This worker's outputs: forces in the wasm layout (WASM_F_WORDS per cluster; energy steps), energies, shift forces. */
  f: WasmReals;
  energy: Float64Array;
  fshift: Float64Array;
  /** Force-only steps: this worker's forces gathered into atom order (3 per atom, reals of the variant's precision: an f32 kernel's own numbers) through slotOf. */
  fAtoms: WasmReals;
  slotOf: Int32Array;
  /** This worker's share of the force sums (MdWasmThreads.sumInto; replaced by md-wasm-sum), and the count of threads arrived at them. */
  sum: MdSumShare | undefined;
  gate: Int32Array;
  ctl: Int32Array;
  /** The spin words (one per worker) and this worker's index. */
  spin: Int32Array;
  w: number;
}

/**
 * The PME mesh on worker 0 (MdWasmThreads.overlapLongRange), in shared memory: the positions (3
 * per atom, written by the caller before each call), the forces (3 per atom, overwritten by the
 * worker), and on energy steps the mesh's energy and 9 virial components.
 */
export interface MdMeshShared {
  x: Float64Array;
  f: Float64Array;
  out: Float64Array;
}

/** What worker 0 prepares its mesh from (md-mesh-setup). */
export interface MdMeshSetupArgs extends MdMeshShared {
  recipe: MeshRecipe;
}

/** Outputs of one worker's range: forces in the wasm layout (energy steps) or in atom order (force-only steps), energies, shift forces. */
export interface MdWasmChunk {
  f: WasmReals;
  fAtoms: WasmReals;
  energy: Float64Array;
  fshift: Float64Array;
}

/**
 * The force calls of one NonbondedForce with WebAssembly variants over `threads` threads. Each
 * worker has its own instances (and memories) of both variants: per pair search it copies the
 * list and the particle block as of the search in; per force call it writes the positions from
 * the shared copy of x into its instance, computes its share of the i-entries (chunks claimed as
 * it goes, or with `reproducible` a fixed range), and
 * gathers its forces into atom order in shared memory (energy steps: copies them out in the wasm
 * layout). This thread computes its share in its own instance; the caller sums.
 */
export class MdWasmThreads extends MdWorkers {
  /** Particle block handed to the workers (as of the search: see MdWasmSetupArgs.xq), and their outputs (worker w: chunks[w]). */
  xq: WasmReals = new Float32Array(0);
  /**
   * The positions of the next force call (3 per atom) the workers read: written by the caller
   * before run(), or the caller's own shared array (setup's `x`), which it then passes to each call.
   */
  x: Float64Array = new Float64Array(0);

  /** Shared positions of this object for n atoms (a new array only when the atom count changes). */
  private positionsFor(n: number): Float64Array {
    if (this.ownX.length !== 3 * n) this.ownX = new Float64Array(new SharedArrayBuffer(24 * n));
    return this.ownX;
  }
  /** This object's shared positions (`x` unless the caller's are shared: setup), the mesh's too. */
  private ownX: Float64Array = new Float64Array(0);
  /** Lists set up so far: a new one needs the block's charges and LJ parameters written again. */
  setups = 0;
  chunks: MdWasmChunk[] = [];
  private chunks0: MdWasmChunk[] = [];
  /** Boundaries of the i-entry ranges (fixed split: one per thread, this thread's first; else the guided chunks: guidedFractions). */
  bounds = new Int32Array(0);
  /** The claim counter of the chunks (shared), or undefined with the fixed split. */
  readonly next: Int32Array | undefined;
  /** The mesh worker 0 computes before it claims chunks (overlapLongRange), if any. */
  longRange: MdMeshShared | undefined;

  private constructor(
    threads: number,
    pool: Pool,
    readonly keyF: string,
    readonly keyE: string,
    /** The variants' precision: the reals of the shared blocks. */
    readonly precision: 'f32' | 'f64',
    /** The fixed split: the same ranges on the same threads every call, so the same numbers run after run. */
    readonly reproducible: boolean,
  ) {
    super(threads, pool);
    this.next = reproducible ? undefined : new Int32Array(new SharedArrayBuffer(4));
    this.openPorts();
  }

  static async create(threads: number, keyF: string, keyE: string, reproducible = false): Promise<MdWasmThreads> {
    // The workers instantiate this thread's compiled modules (shared code), not their own builds.
    const modules: Record<string, WebAssembly.Module> = {};
    for (const k of new Set([keyF, keyE])) modules[k] = await wasmModule(k);
    const pool = await MdWorkers.startPool(threads, { task: 'md-wasm-load', args: { modules } });
    return new MdWasmThreads(threads, pool, keyF, keyE, (await mdShape(keyF)).precision, reproducible);
  }

  /**
   * A new list (after a pair search) of nPadded particles, atom a in slot slotOf[a]: split by
   * work and handed to the workers.
   */
  setup(list: WasmList, nPadded: number, slotOf: Int32Array, atomOf: Int32Array, offset: Float64Array, x?: Float64Array): void {
    this.checkOpen();
    // Positions the caller keeps in shared memory (its update workspace's) are read from there:
    // the force calls then pass that array and copy nothing (run()).
    this.x = x && x.buffer instanceof SharedArrayBuffer && x.length === 3 * slotOf.length ? x : this.positionsFor(slotOf.length);
    if (this.fSum?.length !== 3 * slotOf.length) this.fSum = undefined;
    const shared = { ci: toShared(list.ci), cj: toShared(list.cj), excl: toShared(list.excl), shiftVec: toShared(list.shiftVec), params: list.params };
    const slots = toShared(slotOf);
    const atoms = { atomOf: toShared(atomOf), offset: toShared(offset) };
    const n3 = 3 * slotOf.length;
    this.bounds = toShared(Int32Array.from(this.next ? splitAtWork(list.ci, guidedFractions(this.threads)) : splitByWork(list.ci, this.threads)));
    const nc = blocksOf(nPadded);
    const reals = (n: number): WasmReals => (this.precision === 'f64' ? new Float64Array(new SharedArrayBuffer(8 * n)) : new Float32Array(new SharedArrayBuffer(4 * n)));
    // The particle block and the forces in the wasm layout are kept while the block count stays
    // (most searches), and the atom-order force arrays while the atom count stays (every search):
    // fresh pages cost more than the copies into them on some hosts. The block's charges and LJ
    // parameters are those of the new list from the next force call on (setups counts the lists).
    if (this.xq.length !== WASM_XQ_WORDS * nc) this.xq = reals(WASM_XQ_WORDS * nc);
    this.setups++;
    this.chunks0 = this.chunks;
    this.chunks = [];
    for (let w = 0; w < this.threads - 1; w++) {
      const old = this.chunks0[w];
      const c: MdWasmChunk = {
        f: old?.f.length === WASM_F_WORDS * nc ? old.f : reals(WASM_F_WORDS * nc),
        fAtoms: this.chunks0[w]?.fAtoms.length === n3 ? this.chunks0[w]!.fAtoms : reals(n3),
        energy: new Float64Array(new SharedArrayBuffer(2 * 8)),
        fshift: new Float64Array(new SharedArrayBuffer(81 * 8)),
      };
      this.chunks.push(c);
    }
    if (this.ownAtoms.length !== n3) this.ownAtoms = reals(n3);
    this.nAtoms = slotOf.length;
    this.ownSum = this.sumOf(0);
    for (let w = 0; w < this.threads - 1; w++) {
      const s: MdWasmSetupArgs = { keyF: this.keyF, keyE: this.keyE, list: shared, nPadded, bounds: this.bounds, next: this.next, xq: this.xq, x: this.x, ...atoms, ...this.chunks[w]!, slotOf: slots, sum: this.sumOf(w + 1), gate: this.gate, ctl: this.ctl, spin: this.spin, w };
      this.pool.post(w, { task: 'md-wasm-setup', args: s as unknown as Record<string, unknown> });
    }
    this.takePosted();
  }

  /** Atoms of the last list. */
  private nAtoms = 0;
  /**
   * This thread's forces in atom order on force-only calls with the sums over the threads (3 per
   * atom, reals of the variant's precision; shared): its sumHere's `forces` write them here, and
   * each thread adds them with the workers' for its range of atoms. In f32 from f32 kernels, so
   * that half the bytes cross between the cores; f64 holds them exactly.
   */
  ownAtoms: WasmReals = new Float32Array(0);
  /** The caller's forces where the threads sum them (sumInto), and the count of threads at the sums' start. */
  private fSum: Float64Array | undefined;
  private readonly gate = new Int32Array(new SharedArrayBuffer(4));

  /** This thread's share of the sums (sumOf(0)), made when fSum or the chunks change. */
  private ownSum: MdSumShare | undefined;

  /** This thread's range of x's numbers on force-only calls with the sums over the threads (its sums' atoms): WasmMd.positions's `own`. */
  get ownCoords(): [number, number] | undefined {
    return this.ownSum && sumCoords(this.ownSum);
  }

  /** Whether the threads hand lines back, per force-only call with the sums (HandBackChoice). */
  readonly handBack = new HandBackChoice();
  /** Whether the current call hands back (run() sets it before `mine` runs). */
  handingBack = false;

  /** Thread k's share of the sums into fSum (k = 0: this thread), if any. */
  private sumOf(k: number): MdSumShare | undefined {
    if (!this.fSum) return undefined;
    const n = this.nAtoms;
    return { f: this.fSum, parts: [this.ownAtoms, ...this.chunks.map((c) => c.fAtoms)], own: k, a0: atomCut(n, this.threads, k), a1: atomCut(n, this.threads, k + 1), parties: this.threads, kick: this.kick, sq: this.sq };
  }

  /** The velocities' kick fused into the sums (sumInto), if any. */
  private kick: MdKick | undefined;
  /** Each thread's sum of the squares of the forces it summed (slot k: thread k), this thread's first. */
  private readonly sq = new Float64Array(new SharedArrayBuffer(8 * this.threads));

  /**
   * The sum of the squares of the last force-only call's forces as the threads summed them
   * (their partial sums added in thread order): the engine's guard takes it for its own pass
   * over the forces (engine.ts forcesWithin). A NaN or infinite force makes it NaN or infinite.
   */
  sumSq(): number {
    let t = 0;
    for (let k = 0; k < this.threads; k++) t += this.sq[k]!;
    return t;
  }

  /**
   * From the next force-only call on `f` (shared, 3 per atom of the list) on, the threads sum the
   * forces there: each adds every thread's forces in atom order (this thread's, then the workers'
   * in worker order: the numbers of adding them all here) for a range of atoms, and writes only
   * that range of f; with `kick` (shared too) it kicks those atoms' velocities with the sums
   * (MdKick). What crosses between the cores per call is each thread's forces of the others'
   * ranges, in the kernels' precision. Returns whether they do; false where f or the kick's arrays are not
   * shared or not of the list's atoms (the caller then adds the forces after run(), and kicks).
   */
  sumInto(f: Float64Array, kick?: MdKick): boolean {
    if (f === this.fSum && kick === this.kick) return true;
    const fits = (a: Float64Array) => isShared(a) && a.length === 3 * this.nAtoms;
    if (!fits(f) || (kick && !(fits(kick.v) && fits(kick.h)))) return false;
    this.checkOpen();
    this.fSum = f;
    this.kick = kick;
    this.ownSum = this.sumOf(0);
    // The workers' shares (in order before the next claimed or posted step).
    for (let w = 0; w < this.threads - 1; w++) this.pool.post(w, { task: 'md-wasm-sum', args: { sum: this.sumOf(w + 1) } });
    this.takePosted();
    return true;
  }

  /**
   * This thread's side of a force-only call run with `sum` (run()'s `mine`): `forces` puts this
   * thread's forces into ownAtoms; then, once every thread has its forces in place, this thread
   * sums all threads' for its range of atoms into fSum (and kicks them: sumInto; not with `kick` false).
   */
  sumHere(forces: () => void, kick = true): void {
    try {
      forces();
    } finally {
      arriveAtSums(this.gate);
    }
    addSumShare(this.ownSum!, this.gate, kick, this.handingBack);
  }

  /**
   * From the next force call on, worker 0 computes the PME mesh (prepared from `recipe`, for n
   * atoms) first, then claims chunks of the list with the others: the threads end together, and
   * the mesh no longer waits for the kernels. With the fixed split (`reproducible`) nothing
   * changes (false): worker 0 would then end late by the mesh's time. False too where the worker
   * cannot prepare the mesh.
   */
  async overlapLongRange(recipe: MeshRecipe, n: number): Promise<boolean> {
    this.checkOpen();
    if (!this.next) return false;
    const sh = (k: number) => new Float64Array(new SharedArrayBuffer(8 * k));
    // the mesh reads this object's positions: the kernels' workers' too, unless the caller's are shared (one copy of x per call)
    const m: MdMeshShared = { x: this.positionsFor(n), f: sh(3 * n), out: sh(10) };
    const args: MdMeshSetupArgs = { ...m, recipe: { ...recipe, q: toShared(recipe.q) } };
    // Built before any claimed step (a spinning worker reads no messages). Where worker 0 cannot
    // build it, the caller keeps computing it.
    try {
      const built = this.pool.run([{ task: 'md-mesh-setup', args: args as unknown as Record<string, unknown> }]);
      this.stopSpinning();
      await built;
    } catch {
      return false;
    }
    this.longRange = m;
    return true;
  }

  /** This thread's share of a force call on `inst` (runWasmShare), inside run()'s `mine`. */
  share(inst: WasmMd, params: WasmList['params']): void {
    runWasmShare(inst, params, this.bounds, this.next, 0);
  }

  /**
   * One force call: the workers start on the positions in `x` (written by the caller, or the
   * caller's own array given to setup), `mine` runs here; returns when all are done. `sum`
   * (force-only calls after sumInto): the threads sum the forces into fSum, `mine` through sumHere;
   * `kick` false: without sumInto's kick this call (OP_NO_KICK).
   */
  run(energies: boolean, mine: () => void, sum = false, kick = true): MdWasmChunk[] {
    if (this.next) Atomics.store(this.next, 0, 0);
    if (sum && (energies || !this.fSum)) throw new Error('MdWasmThreads.run: sums over the threads are for force-only calls after sumInto');
    Atomics.store(this.gate, 0, 0);
    this.handingBack = sum && this.handBack.next(performance.now());
    this.dispatchStep('md-wasm-step', (energies ? OP_ENERGIES : OP_FORCES) | (this.longRange ? OP_WITH_MESH : 0) | (sum ? OP_SUM : 0) | (sum && !kick ? OP_NO_KICK : 0) | (this.handingBack ? OP_HAND_BACK : 0), mine);
    return this.chunks;
  }
}

/**
 * The join of a split search by its threads (MdWorkers.search): the list's arrays (shared, of
 * some capacity), each chunk's i-entry words and j-entries (sizes[2c], sizes[2c + 1]), and the
 * control words: ctl[0] the chunks searched so far, ctl[1] 1 once a thread failed.
 */
export interface MdSearchJoin extends ListArrays {
  sizes: Int32Array;
  ctl: Int32Array;
  maskWords: number;
}

/** A thread failed in the search: the others stop waiting for its chunks (joinOwnParts). */
export function abortJoin(j: MdSearchJoin): void {
  Atomics.store(j.ctl, 1, 1);
  Atomics.notify(j.ctl, 0);
}

/** The list's lengths from the chunks' sizes, and whether it fits the join's arrays (every chunk searched, none failed). */
function joinTotals(j: MdSearchJoin): { ci: number; cj: number; fits: boolean } {
  let ci = 0;
  let cj = 0;
  for (let k = 0; k < j.sizes.length; k += 2) {
    ci += j.sizes[k]!;
    cj += j.sizes[k + 1]!;
  }
  return { ci, cj, fits: Atomics.load(j.ctl, 0) === j.sizes.length / 2 && Atomics.load(j.ctl, 1) === 0 && ci <= j.ci.length && cj <= j.cj.length && cj * j.maskWords <= j.excl.length };
}

/**
 * One thread's side of the join of a split search (MdWorkers.search): its chunks' sizes in, then,
 * once every chunk is searched, its own parts copied into the list's arrays at their place in
 * chunk order (joinPart: the list joinParts makes), if the list fits; nothing where a thread
 * failed (the caller reports it).
 */
export function joinOwnParts(own: ChunkPart[], j: MdSearchJoin): void {
  for (const { chunk, part } of own) {
    j.sizes[2 * chunk] = part.ci.length;
    j.sizes[2 * chunk + 1] = part.cj.length;
  }
  Atomics.add(j.ctl, 0, own.length);
  const n = j.sizes.length / 2;
  // Wait for the other threads' chunks (or a failure), spinning: they are searching their last ones.
  const deadline = performance.now() + STEP_TIMEOUT_MS;
  while (Atomics.load(j.ctl, 0) < n && Atomics.load(j.ctl, 1) === 0) {
    if (performance.now() > deadline) return;
  }
  if (own.length === 0 || !joinTotals(j).fits) return;
  const mine = new Map(own.map((c) => [c.chunk, c.part]));
  let oi = 0;
  let oj = 0;
  for (let c = 0; c < n; c++) {
    const p = mine.get(c);
    if (p) joinPart(p, j, oi, oj, j.maskWords);
    oi += j.sizes[2 * c]!;
    oj += j.sizes[2 * c + 1]!;
  }
}

/**
 * Where range k starts when n atoms are cut into `parts` ranges of about equal size: the force
 * sums' ranges (MdSumShare) and a split update's without SETTLE, which must cut alike, and the
 * clustering's chunks of atoms.
 */
function atomCut(n: number, parts: number, k: number): number {
  return Math.round((n * k) / parts);
}

/** The molecules of an update without SETTLE (MdWorkers.update). */
const NO_MOLECULES = new Int32Array(0);

/** Chunks per thread of each of the clustering's passes (MdWorkers.cluster). */
export const CLUSTER_CHUNKS_PER_THREAD = 8;

/**
 * The clustering's shared control words: the next chunk of atoms to claim and the chunks of
 * atoms done; the go flag (1: the columns' ranges are set, 2: stop, the caller failed); the next
 * chunk of columns and the chunks of columns done.
 */
const CLUSTER_CTL_WORDS = 5;
const CL_NEXT_A = 0;
const CL_DONE_A = 1;
const CL_GO = 2;
const CL_NEXT_C = 3;
const CL_DONE_C = 4;

/** One thread's view of a split clustering (md-cluster): the job, its control words, the chunks' bounds (atoms; columns, set by the caller between the passes), this thread's row of counts. */
export interface MdClusterArgs {
  job: ClusterJob;
  ctl: Int32Array;
  atoms: Int32Array;
  columns: Int32Array;
  row: number;
  /** The workers' step control block (mdStepDone). */
  ctlDone: Int32Array;
}

/**
 * One thread's part of a split clustering: chunks of atoms (clusterAtoms) while any are left;
 * then on the calling thread (`middle` given), once all are done, `middle` and the go flag; on
 * the others, a wait for the flag; then chunks of columns (clusterColumns) while any are left. A
 * chunk counts as done even when it fails, and the flag is set even when `middle` fails, so no
 * thread waits for ever; the calling thread returns once all chunks of columns are done.
 */
export function clusterPart(a: MdClusterArgs, middle?: () => void): void {
  const { job, ctl, atoms, columns } = a;
  const ncol = job.ncx * job.ncy;
  const count = job.counts.subarray(a.row * ncol, (a.row + 1) * ncol);
  const nA = atoms.length - 1;
  for (let k = Atomics.add(ctl, CL_NEXT_A, 1); k < nA; k = Atomics.add(ctl, CL_NEXT_A, 1)) {
    try {
      clusterAtoms(job, atoms[k]!, atoms[k + 1]!, count);
    } finally {
      Atomics.add(ctl, CL_DONE_A, 1);
      Atomics.notify(ctl, CL_DONE_A);
    }
  }
  if (middle) {
    let go = 2;
    try {
      if (awaitCount(ctl, CL_DONE_A, nA) < nA) throw new Error(`MD worker threads: the clustering's atoms were not all binned within ${STEP_TIMEOUT_MS / 1000} s`);
      middle();
      go = 1;
    } finally {
      Atomics.store(ctl, CL_GO, go);
      Atomics.notify(ctl, CL_GO);
    }
  } else if (awaitCount(ctl, CL_GO, 1) !== 1) return;
  const nC = columns.length - 1;
  for (let k = Atomics.add(ctl, CL_NEXT_C, 1); k < nC; k = Atomics.add(ctl, CL_NEXT_C, 1)) {
    try {
      clusterColumns(job, columns[k]!, columns[k + 1]!);
    } finally {
      Atomics.add(ctl, CL_DONE_C, 1);
      Atomics.notify(ctl, CL_DONE_C);
    }
  }
  if (middle && awaitCount(ctl, CL_DONE_C, nC) < nC) throw new Error(`MD worker threads: the clustering's columns were not all placed within ${STEP_TIMEOUT_MS / 1000} s`);
}

/** The ranges of a split update: range k has atoms [a[k], a[k + 1]) and molecules [m[k], m[k + 1]). */
export interface UpdatePlan {
  a: number[];
  m: number[];
}

/**
 * Ranges of about equal size for a split update of nAtoms atoms over `parts` threads: the
 * molecules [0, m[parts]) (those in blocks of 4) cut at multiples of 4, and the atoms cut at the
 * first atom of each cut's molecules, if every molecule's atoms then lie in its range's
 * (undefined if not: the update is not split). Without molecules, the atoms cut evenly.
 */
export function updateRanges(nAtoms: number, parts: number, mols: Int32Array): UpdatePlan | undefined {
  // no molecules (no SETTLE): the atoms cut evenly
  if (mols.length === 0) return { a: Array.from({ length: parts + 1 }, (_, k) => atomCut(nAtoms, parts, k)), m: new Array<number>(parts + 1).fill(0) };
  const blocks = Math.floor(mols.length / 12);
  const m = Array.from({ length: parts + 1 }, (_, k) => 4 * Math.round((blocks * k) / parts));
  // The first atom of the molecules from each cut on (the cut of an empty range is the next one's).
  const a = [0];
  for (let k = 1; k < parts; k++) {
    let lo = nAtoms;
    for (let t = 3 * m[k]!; t < 3 * m[parts]!; t++) lo = Math.min(lo, mols[t]!);
    a.push(Math.max(lo, a[k - 1]!));
  }
  a.push(nAtoms);
  for (let k = 0; k < parts; k++) {
    for (let t = 3 * m[k]!; t < 3 * m[k + 1]!; t++) {
      const i = mols[t]!;
      if (!(i >= a[k]! && i < a[k + 1]!)) return undefined;
    }
  }
  return { a, m };
}

/**
 * Claim worker w for a step (`op`) if it spins: true when claimed. A claim for posted tasks that
 * the worker has not taken yet (OP_TASKS) is waited out first: those tasks come before the step.
 */
function claim(spin: Int32Array, w: number, op: number): boolean {
  // A spinning worker takes its tasks within microseconds; one that never does has failed (its
  // step, posted instead, then times out in the caller's wait).
  const giveUp = performance.now() + CALLER_SPIN_MS;
  for (;;) {
    const state = Atomics.compareExchange(spin, w, SPIN_SPINNING, SPIN_CLAIMED + op);
    if (state === SPIN_SPINNING) return true;
    if (state !== SPIN_CLAIMED + OP_TASKS || performance.now() > giveUp) return false;
  }
}

/**
 * How this worker runs the tasks posted to it without returning to its event loop: every message
 * queued, in order (the Node worker entry, runtime/parallel/worker.ts: receiveMessageOnPort).
 * Unset (a browser worker): the tasks wait for the event loop.
 */
let runPosted: (() => void) | undefined;

/** The worker entry's synchronous runner of posted tasks (see OP_TASKS); undefined: none. */
export function setRunPosted(f: (() => void) | undefined): void {
  runPosted = f;
}

/**
 * Worker side, after a force call: spin for the next one (claimed by the caller through `spin`)
 * for up to WORKER_SPIN_MS, running each with `step`; return to the event loop when none comes
 * or the caller sends the worker back (SPIN_IDLE). `step` reports its own end (mdStepDone).
 * Claimed for OP_TASKS, the worker runs the tasks posted to it here and spins on (or, where it
 * cannot read them here, returns to its event loop, which runs them).
 */
export function spinForSteps(spin: Int32Array, w: number, step: (op: number) => void): void {
  for (;;) {
    const until = performance.now() + WORKER_SPIN_MS;
    let state = Atomics.load(spin, w);
    while (state === SPIN_SPINNING && performance.now() < until) state = Atomics.load(spin, w);
    if (state === SPIN_SPINNING) state = Atomics.compareExchange(spin, w, SPIN_SPINNING, SPIN_IDLE);
    if (state < SPIN_CLAIMED) return;
    const op = state - SPIN_CLAIMED;
    if (op === OP_TASKS && !runPosted) {
      Atomics.store(spin, w, SPIN_IDLE);
      return;
    }
    // Spinning again before the step reports done: the caller only claims or stops a worker after that.
    Atomics.store(spin, w, SPIN_SPINNING);
    if (op === OP_TASKS) runPosted!();
    else step(op);
  }
}

/**
 * Velocity Verlet's second half kick, v += h F (h: dt/(2m) per coordinate), done by the threads
 * that sum the forces, each for its atoms as it sums them: runtime/md/engine.ts kick's numbers
 * (the same product and sum per coordinate), without a pass of its own over the arrays.
 */
export interface MdKick {
  v: Float64Array;
  h: Float64Array;
}

/**
 * A thread's share of the force sums (MdWasmThreads.sumInto): atoms [a0, a1) of f get the sum of
 * every thread's forces in atom order (`parts`: the calling thread's, then the workers' in
 * worker order), and with `kick` the atoms' velocities kicked with the sums.
 */
export interface MdSumShare {
  f: Float64Array;
  parts: WasmReals[];
  /** This thread's index (0: the caller). */
  own: number;
  a0: number;
  a1: number;
  /** Threads taking part (all of them). */
  parties: number;
  /** The kick fused into the sums, if any. */
  kick: MdKick | undefined;
  /** Where the sum of the squares of this share's forces goes (slot `own`). */
  sq: Float64Array;
}

/** A thread has its forces in place for the sums (with an error too: the others must not wait for it). */
export function arriveAtSums(gate: Int32Array): void {
  Atomics.add(gate, 0, 1);
  Atomics.notify(gate, 0);
}

/** A share's range of the numbers of x and f (3 per atom): WasmMd.positions's `own`. */
export function sumCoords(s: MdSumShare): [number, number] {
  return [3 * s.a0, 3 * s.a1];
}

/** Force calls with the threads' sums so far, and those that handed lines back (HandBackChoice). */
export interface HandBackCount {
  on: number;
  calls: number;
}

/**
 * Wait until all threads have arrived at the sums, then add this thread's share (kicking with it
 * unless `kick` is false); with `back`, then hand the other threads' forces of this range back
 * (handBack): their next gather takes those lines over from this core as fast as a private write.
 */
export function addSumShare(s: MdSumShare, gate: Int32Array, kick = true, back = false): void {
  const parties = s.parties;
  const c = awaitCount(gate, 0, parties);
  if (c < parties) throw new Error(`MD worker threads: ${parties - c} of ${parties} threads did not reach the force sums within ${STEP_TIMEOUT_MS / 1000} s`);
  s.sq[s.own] = sumParts(s.f, s.parts, 3 * s.a0, 3 * s.a1, kick ? s.kick : undefined);
  if (!back) return;
  s.parts.forEach((p, k) => {
    if (k !== s.own) handBack(p, 3 * s.a0, 3 * s.a1);
  });
}

/**
 * Whether the threads hand lines back (handBack, WasmMd.positions's `own`) on the next force
 * call, decided from the time between force calls (a whole step: the update after a call pays
 * for what that call left shared). Handing back costs a copy per call, and on a host where a
 * core takes lines back from the other cheaply it gains nothing; where that costs 10x (a 2-vCPU
 * EPYC VM, in some states that change within minutes) it saves more than it costs. So both are
 * timed: windows of `window` calls with and without, alternating at the start and again every
 * `retry` calls (the current choice, then the other); each window's fastest period counts (the
 * slow periods of search and energy steps drop out), and the choice goes to the faster. The
 * forces are the same either way, bit for bit.
 */
export class HandBackChoice {
  /** Hand back on the next call. */
  on = true;
  /** Calls so far, and those with the hand-back. */
  calls = 0;
  onCalls = 0;
  /** When the last call started, its mode, and its place in its trial window (1-based; 0: not in a trial). */
  private last = NaN;
  private lastOn = true;
  private lastIdx = 0;
  /** Trial windows still to start (their modes, in order), and the fastest period of each mode in this trial. */
  private plan: boolean[] = [true, false, true, false];
  private best = { on: Infinity, off: Infinity };
  private sinceTrial = 0;

  constructor(
    readonly window = 12,
    readonly retry = 600,
  ) {}

  /** A force call starts now (performance.now()): returns whether it hands back. */
  next(now: number): boolean {
    const period = now - this.last;
    this.last = now;
    // The last call's period, unless it was the first of its window (a call's period also holds
    // what the call before it left: the mode before the window's).
    if (this.lastIdx >= 2 && Number.isFinite(period)) {
      const k = this.lastOn ? 'on' : 'off';
      this.best[k] = Math.min(this.best[k], period);
    }
    let idx = 0;
    if (this.lastIdx > 0 && this.lastIdx <= this.window) idx = this.lastIdx + 1;
    else if (this.plan.length > 0) {
      // the next window of the trial
      this.on = this.plan.shift()!;
      idx = 1;
    } else {
      if (this.lastIdx > 0) {
        // the trial's end: the faster mode
        if (Number.isFinite(this.best.on) && Number.isFinite(this.best.off)) this.on = this.best.on <= this.best.off;
        this.sinceTrial = 0;
      } else if (++this.sinceTrial >= this.retry) {
        // time the current choice again, then the other
        this.best = { on: Infinity, off: Infinity };
        this.plan = [!this.on];
        idx = 1;
      }
    }
    this.lastIdx = idx;
    this.lastOn = this.on;
    this.calls++;
    if (this.on) this.onCalls++;
    return this.on;
  }
}

/** Per thread: the copy handBack goes through, in each precision. */
const handBackScratch: { f32: Float32Array; f64: Float64Array } = { f32: new Float32Array(0), f64: new Float64Array(0) };

/**
 * Write a[i0, i1) back into a, the same bits (through a copy), so that lines this thread has
 * read and another thread writes next leave this core modified instead of shared: the other
 * core's next write then takes them over as fast as a private write, where taking back shared
 * lines cost about 10x on a 2-vCPU EPYC VM in some states (docs/performance-log.md, "handing lines
 * back"). Only where nothing writes a[i0, i1) meanwhile (then any reader sees the same values).
 */
export function handBack(a: WasmReals, i0: number, i1: number): void {
  const n = i1 - i0;
  if (n <= 0) return;
  const f32 = a instanceof Float32Array;
  let t: WasmReals = f32 ? handBackScratch.f32 : handBackScratch.f64;
  if (t.length < n) {
    t = f32 ? new Float32Array(n) : new Float64Array(n);
    if (t instanceof Float32Array) handBackScratch.f32 = t;
    else handBackScratch.f64 = t;
  }
  const c = t.subarray(0, n);
  c.set(a.subarray(i0, i1));
  a.set(c, i0);
}

/**
 * f[i] = the parts' g[i] summed in f64 in part order (the first part's, plus the second's, ...)
 * for i in [i0, i1), whole atoms (i0, i1 multiples of 3); with `kick`, then v[i] += h[i] f[i]
 * (engine.ts kick's numbers). Two parts at least. Parts in f32 (an f32 kernel's forces) are
 * widened exactly: the sums are those of the f64 copies.
 * Returns the sum of the squares of the new f[i]. One pass over the range: the kick and the
 * guard's sum of squares were two more on the calling thread (docs/performance-log.md, run S).
 */
export function sumParts(f: Float64Array, parts: WasmReals[], i0: number, i1: number, kick?: MdKick): number {
  if (parts.length < 2) throw new Error(`sumParts: ${parts.length} part(s); the sums are over two threads or more`);
  if (parts.length === 2) return kick ? addKicked(f, parts[0]!, parts[1]!, i0, i1, kick.v, kick.h) : addPart(f, parts[0]!, parts[1]!, i0, i1);
  // 3 threads or more: element by element.
  let ss = 0;
  const [first, ...rest] = parts;
  for (let i = i0; i < i1; i++) {
    let x = first![i]!;
    for (const p of rest) x += p[i]!;
    f[i] = x;
    ss += x * x;
    if (kick) kick.v[i] = kick.v[i]! + kick.h[i]! * x;
  }
  return ss;
}

// Two threads (sumParts): whole atoms a time, with three sums of squares (a single chain would
// wait on its last addition at every element). The loop with the kick and the one without are
// kept apart: for 16,000 atoms they take 0.040 and 0.055 ms, one loop that tests for the kick
// per atom 0.068 and 0.105 ms (and more inside the general loop's function).

function addPart(f: Float64Array, e: WasmReals, g: WasmReals, i0: number, i1: number): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  for (let i = i0; i < i1; i += 3) {
    const x = e[i]! + g[i]!;
    const y = e[i + 1]! + g[i + 1]!;
    const z = e[i + 2]! + g[i + 2]!;
    f[i] = x;
    f[i + 1] = y;
    f[i + 2] = z;
    s0 += x * x;
    s1 += y * y;
    s2 += z * z;
  }
  return s0 + s1 + s2;
}

function addKicked(f: Float64Array, e: WasmReals, g: WasmReals, i0: number, i1: number, v: Float64Array, h: Float64Array): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  for (let i = i0; i < i1; i += 3) {
    const x = e[i]! + g[i]!;
    const y = e[i + 1]! + g[i + 1]!;
    const z = e[i + 2]! + g[i + 2]!;
    f[i] = x;
    f[i + 1] = y;
    f[i + 2] = z;
    s0 += x * x;
    s1 += y * y;
    s2 += z * z;
    v[i] = v[i]! + h[i]! * x;
    v[i + 1] = v[i + 1]! + h[i + 1]! * y;
    v[i + 2] = v[i + 2]! + h[i + 2]! * z;
  }
  return s0 + s1 + s2;
}

/**
 * Wait until a[i] >= n (raised by other threads, with Atomics.notify): spinning for up to
 * CALLER_SPIN_MS (they usually get there within it), then sleeping in Atomics.wait, for at most
 * STEP_TIMEOUT_MS. Returns a[i] as last read (below n after the timeout).
 */
function awaitCount(a: Int32Array, i: number, n: number): number {
  const spinUntil = performance.now() + CALLER_SPIN_MS;
  while (Atomics.load(a, i) < n && performance.now() < spinUntil) {
    /* spin */
  }
  const deadline = Date.now() + STEP_TIMEOUT_MS;
  for (;;) {
    const c = Atomics.load(a, i);
    if (c >= n || Date.now() > deadline) return c;
    Atomics.wait(a, i, c, 1000);
  }
}

/** Worker side: report the end of one md-step (and its error, if any) through the control block. */
export function mdStepDone(ctl: Int32Array, error?: unknown): void {
  if (error !== undefined && Atomics.compareExchange(ctl, MD_CTL_ERROR, 0, 1) === 0) {
    const msg = error instanceof Error ? error.message : String(error);
    const bytes = new TextEncoder().encode(msg).subarray(0, ERR_BYTES);
    new Uint8Array(ctl.buffer, MD_CTL_TEXT_OFFSET, ERR_BYTES).set(bytes);
    Atomics.store(ctl, MD_CTL_ERRLEN, bytes.length);
  }
  Atomics.add(ctl, MD_CTL_DONE, 1);
  Atomics.notify(ctl, MD_CTL_DONE);
}
