// Where an MD step's time goes, kernforge's against a peer's own breakdown (issue 16): the same five
// phases for everyone, mapped from each program's timers, printed as one aligned table per system
// with the ratios and a "limits" line naming the phase that costs kernforge the most time over the
// peer. Ratios are the peer's time over kernforge's: above 1 means kernforge is faster.
//  - kernforge: MdTimers (runtime/md/engine.ts): kernel (packing x, the non-bonded kernels, forces
//    back), search, mesh (PME), integrate (update, thermostat, constraints); other is the rest of
//    the wall time (thermo, output, the blow-up checks).
//  - LAMMPS: "MPI task timing breakdown": Pair, Neigh, Kspace (none in in.lj), Modify (fix nve);
//    other is the loop time less those (Comm, Output, Other).
//  - GROMACS: md.log's cycle and time accounting: Force + NB X/F buffer ops. (the non-bonded kernel
//    and its layout conversions, which kernforge counts in its kernel), Neighbor search + Domain
//    decomp. (the atoms' redistribution on search steps), PME mesh, Update + Constraints; other is
//    Total less those (Rest, Comm. energies, Write traj., ...).

import { loadavg } from 'node:os';
import { loopsPhrase } from './ceiling.ts';
import type { MdEngine } from '../runtime/md/engine.ts';
import type { HandBackCount } from '../runtime/parallel/md.ts';

/** The 1-, 5- and 15-minute load averages: how busy the machine was while the rounds ran. */
export const loadText = (): string => loadavg().map((x) => x.toFixed(2)).join(', ');

/** Milliseconds per step by phase; NaN where a program has no such phase. */
export interface PhaseSplit {
  kernel: number;
  search: number;
  mesh: number;
  integrate: number;
  other: number;
  total: number;
  /**
   * Set where the mesh ran inside the kernel time (on a worker beside the kernels): kernel and
   * mesh together; kernel and mesh are then NaN (not measured apart).
   */
  kernelMesh?: number;
}

export type Phase = Exclude<keyof PhaseSplit, 'kernelMesh'>;

/** Kernel and mesh together: measured so (kernelMesh), else their sum. */
const kernelAndMesh = (s: PhaseSplit): number => s.kernelMesh ?? s.kernel + s.mesh;

/** The phases in the tables' order, with their row names. */
export const PHASES: readonly [Phase, string][] = [
  ['kernel', 'kernel (non-bonded)'],
  ['search', 'pair search'],
  ['mesh', 'mesh (PME)'],
  ['integrate', 'integration + constraints'],
  ['other', 'other'],
  ['total', 'whole step'],
];

/** Which of a peer's rows make each phase (printed under the table). */
export const LAMMPS_ROWS: Partial<Record<Phase, string>> = { kernel: 'Pair', search: 'Neigh', mesh: 'Kspace', integrate: 'Modify', other: 'Comm + Output + Other' };
export const GROMACS_ROWS: Partial<Record<Phase, string>> = {
  kernel: 'Force + NB X/F buffer ops.',
  search: 'Neighbor search + Domain decomp.',
  mesh: 'PME mesh',
  integrate: 'Update + Constraints',
  other: 'Rest and the other rows',
};

/** kernforge's timers per step (the bench's own whole-step wall time); other is what the named phases leave. */
export function oursPhases(t: { msPerStep: number; kernelMs: number; searchMs: number; meshMs?: number; integrateMs: number; meshOnWorker?: boolean }): PhaseSplit {
  // the mesh beside the kernels on a worker: its time is inside the kernel time
  const mesh = t.meshOnWorker ? 0 : (t.meshMs ?? 0);
  const split = { kernel: t.kernelMs, search: t.searchMs, mesh, integrate: t.integrateMs, other: t.msPerStep - t.kernelMs - t.searchMs - mesh - t.integrateMs, total: t.msPerStep };
  return t.meshOnWorker ? { ...split, kernel: NaN, mesh: NaN, kernelMesh: t.kernelMs } : split;
}

/** LAMMPS's breakdown (seconds over `steps` steps, loop time `seconds`) per step. */
export function lammpsPhases(breakdown: Record<string, number>, seconds: number, steps: number): PhaseSplit {
  const ms = (k: string): number => (k in breakdown ? (1000 * breakdown[k]!) / steps : NaN);
  const total = (1000 * seconds) / steps;
  const kernel = ms('Pair');
  const search = ms('Neigh');
  const mesh = 'Kspace' in breakdown ? ms('Kspace') : 0;
  const integrate = ms('Modify');
  return { kernel, search, mesh, integrate, other: total - kernel - search - mesh - integrate, total };
}

/** GROMACS's accounting rows (ms per timed step, parseMdLog in bench/md-gromacs.ts) and its Total per step. */
export function gromacsPhases(rowsMsPerStep: Record<string, number>, msPerStep: number): PhaseSplit {
  const r = (k: string): number => rowsMsPerStep[k] ?? 0;
  if (!('Force' in rowsMsPerStep)) throw new Error('GROMACS accounting has no Force row');
  const kernel = r('Force') + r('NB X/F buffer ops.');
  const search = r('Neighbor search') + r('Domain decomp.');
  const mesh = r('PME mesh');
  const integrate = r('Update') + r('Constraints');
  return { kernel, search, mesh, integrate, other: msPerStep - kernel - search - mesh - integrate, total: msPerStep };
}

/** The fastest (least whole step) of several splits of one program's runs. */
export function fastest(splits: PhaseSplit[]): PhaseSplit {
  return splits.reduce((b, s) => (s.total < b.total ? s : b));
}

export interface PhaseColumn {
  label: string;
  split: PhaseSplit;
}

/** A ratio column: column `num`'s time over column `den`'s (peer over kernforge: speed of `den` relative to `num`). */
export interface RatioColumn {
  label: string;
  num: number;
  den: number;
}

const f2 = (x: number): string => (Number.isFinite(x) ? x.toFixed(2) : '-');
const ratio = (a: number, b: number): string => (Number.isFinite(a) && Number.isFinite(b) && a > 0 && b > 0 ? `${(a / b).toFixed(2)}x` : '-');

/**
 * One aligned table: a row per phase (the mesh left out when no column has one), a column per
 * program's split (ms/step) and per ratio; `indent` before every line.
 */
export function phaseTable(columns: PhaseColumn[], ratios: RatioColumn[] = [], indent = '  '): string[] {
  const hasMesh = columns.some((c) => (Number.isFinite(c.split.mesh) && c.split.mesh > 0) || c.split.kernelMesh !== undefined);
  const phases = PHASES.filter(([p]) => p !== 'mesh' || hasMesh);
  const head = ['ms/step', ...columns.map((c) => c.label), ...ratios.map((r) => r.label)];
  const row = (name: string, v: (s: PhaseSplit) => number): string[] => [
    name,
    ...columns.map((c) => f2(v(c.split))),
    ...ratios.map((r) => ratio(v(columns[r.num]!.split), v(columns[r.den]!.split))),
  ];
  const rows = phases.map(([p, name]) => row(name, (s) => s[p]));
  // a column whose mesh ran inside its kernel time: kernel and mesh compared together as well
  if (columns.some((c) => c.split.kernelMesh !== undefined)) rows.splice(phases.findIndex(([p]) => p === 'mesh') + 1, 0, row('kernel + mesh', kernelAndMesh));
  const width = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]): string => indent + cells.map((c, i) => (i === 0 ? c.padEnd(width[i]!) : c.padStart(width[i]!))).join('  ');
  return [line(head), ...rows.map(line)];
}

/**
 * "limits: pair search, 2.41 ms/step over GROMACS's (Neighbor search + Domain decomp.), 0.47x;
 * then kernel (non-bonded) +1.20 ms" — the phases ordered by kernforge's time over the peer's.
 */
export function limitsLine(ours: PhaseSplit, peer: PhaseSplit, peerName: string, peerRows: Partial<Record<Phase, string>>): string {
  const excess = PHASES.filter(([p]) => p !== 'total' && Number.isFinite(ours[p]) && Number.isFinite(peer[p]) && (ours[p] > 0 || peer[p] > 0))
    .map(([p, name]) => ({ p, name, d: ours[p] - peer[p], r: ratio(peer[p], ours[p]) }))
    .sort((a, b) => b.d - a.d);
  const top = excess[0];
  if (!top) return `limits: no phase to compare with ${peerName}`;
  const whole = `whole step ${ratio(peer.total, ours.total)}`;
  if (top.d <= 0) return `limits: no phase costs more than ${peerName}'s (least margin: ${top.name}, ${f2(-top.d)} ms/step under, ${top.r}); ${whole}`;
  const next = excess.slice(1).filter((e) => e.d > 0).map((e) => `${e.name} +${f2(e.d)} ms (${e.r})`);
  return `limits: ${top.name}, ${f2(top.d)} ms/step over ${peerName}'s ${peerRows[top.p] ?? top.p} (${top.r})${next.length ? `; then ${next.join(', ')}` : ''}; ${whole}`;
}

/** A peer's column in a system's table: its split, the table's column label and the ratio column's label. */
export interface PeerColumn {
  label: string;
  ratioLabel: string;
  split: PhaseSplit;
}

/**
 * A system's table: kernforge on one thread (and on more, `more`, when it ran), the peers, each
 * peer's time over kernforge's single thread, and the single thread's time over the threaded run's.
 */
export function systemTable(one: PhaseSplit, more: { threads: number; split: PhaseSplit } | undefined, peers: PeerColumn[], indent = '  '): string[] {
  const cols: PhaseColumn[] = [{ label: 'kernforge 1T', split: one }];
  if (more) cols.push({ label: `kernforge ${more.threads}T`, split: more.split });
  const p0 = cols.length;
  cols.push(...peers.map((p) => ({ label: p.label, split: p.split })));
  const ratios: RatioColumn[] = peers.map((p, i) => ({ label: p.ratioLabel, num: p0 + i, den: 0 }));
  if (more) ratios.push({ label: `${more.threads}T speed-up`, num: 0, den: 1 });
  return phaseTable(cols, ratios, indent);
}

/**
 * "limits on 2 threads: pair search, 1.10 ms/step over half of one thread's (1.31x); then ..." —
 * the phases ordered by the threaded run's time over an even split of the single thread's; with
 * `ceiling` (bench/ceiling.ts: what independent compute loops reached on as many threads in the
 * same rounds), the whole step's speed-up is set beside it.
 */
export function threadsLimitsLine(one: PhaseSplit, more: PhaseSplit, threads: number, ceiling?: number): string {
  const phases = PHASES.filter(([p]) => p !== 'total' && Number.isFinite(one[p]) && Number.isFinite(more[p]) && (one[p] > 0 || more[p] > 0))
    .map(([p, name]) => ({ name, one: one[p], more: more[p] }));
  // the threaded run's mesh inside its kernel time: kernel and mesh compared together
  if (more.kernelMesh !== undefined) phases.unshift({ name: 'kernel + mesh', one: kernelAndMesh(one), more: more.kernelMesh });
  const excess = phases.map((e) => ({ name: e.name, d: e.more - e.one / threads, r: ratio(e.one, e.more) })).sort((a, b) => b.d - a.d);
  const parts = excess.filter((e) => e.d > 0).map((e) => `${e.name} +${f2(e.d)} ms (${e.r})`);
  const whole = `whole step ${ratio(one.total, more.total)} (ideal ${threads.toFixed(2)}x${loopsPhrase(ceiling)})`;
  if (!parts.length) return `limits on ${threads} threads: every phase at or under 1/${threads} of one thread's; ${whole}`;
  return `limits on ${threads} threads, time over 1/${threads} of one thread's (speed-up): ${parts.join(', ')}; ${whole}`;
}

/** The timed steps' force calls with the threads' sums, and those that handed lines back (NonbondedForce.handBack before and after); undefined on one thread. */
function handBackOf(before: HandBackCount | undefined, after: HandBackCount | undefined): HandBackCount | undefined {
  return before && after ? { on: after.on - before.on, calls: after.calls - before.calls } : undefined;
}

/** "; lines handed back in 40 of 1000 force calls" (the threads' hand-back, HandBackChoice), or nothing. */
export function handBackText(h: HandBackCount | undefined): string {
  return h && h.calls > 0 ? `; lines handed back between the cores in ${h.on} of ${h.calls} force calls` : '';
}

/**
 * `steps` timed steps of an engine after `warm` untimed ones (bench md's water and PME rounds take
 * as many as they time, as GROMACS is timed here with -resethway): the first steps pay for code
 * the engine compiles on first use, on each new engine's worker threads too. Milliseconds per
 * step, of the whole step and of the phases in the timed steps only (the long-range mesh's when
 * given), and the timed run's outcome.
 */
export function timeSteps(eng: MdEngine, steps: number, warm: number, longRange?: { timers: { mesh: number } }) {
  if (warm > 0) eng.simulate(warm);
  const nb0 = { ...eng.nb.timers };
  const hb0 = eng.nb.handBack;
  const mesh0 = longRange?.timers.mesh ?? 0;
  const t = performance.now();
  const outcome = eng.simulate(steps);
  const ms = performance.now() - t;
  return {
    msPerStep: ms / steps,
    kernelMs: (eng.nb.timers.kernel - nb0.kernel) / steps,
    searchMs: (eng.nb.timers.search - nb0.search) / steps,
    integrateMs: outcome.timers.integrate / steps,
    meshMs: ((longRange?.timers.mesh ?? 0) - mesh0) / steps,
    handBack: handBackOf(hb0, eng.nb.handBack),
    outcome,
  };
}
