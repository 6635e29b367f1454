// The MD workload benchmark (issue 3), in one run on one machine:
//  - LJ fluid, the classic LAMMPS `in.lj` (32,000 atoms, fcc 0.8442, lj/cut 2.5, skin 0.3, list every
//    20 steps, NVE, 1,000 steps): LAMMPS single-thread (`lmp -in in.lj`, Debian package) against
//    kernforge's engine with its fastest LJ variant; steps per second and the ratio.
//  - SPC/E water, 12,000+ atoms, reaction-field rc 1.0 nm, leap-frog, SETTLE, Verlet buffer for
//    0.005 kJ/mol/ps: GROMACS (`gmx mdrun -nb cpu -ntmpi 1 -ntomp 1`, its SSE4.1 4x4 kernels) against
//    kernforge on the same equilibrated input; non-bonded time per step and the ratio.
// Candidate variants are first timed on a short run, the fastest runs the full length. Where the
// time goes (search, kernel, integration) is printed for both codes.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { prepareRun, type MdOptions } from '../runtime/md/setup.ts';
import { MdEngine, type MdOutcome } from '../runtime/md/engine.ts';
import { gromacsWaterBench, type GromacsWaterResult } from './md-gromacs.ts';

const HERE = new URL('.', import.meta.url).pathname;

export interface MdWorkloadBenchOptions {
  workDir: string;
  ljCells?: number;
  ljSteps?: number;
  waterMolecules?: number;
  waterSteps?: number;
  /** Steps of the short selection runs. */
  trialSteps?: number;
  ljCandidates?: string[];
  waterCandidates?: string[];
  skipLj?: boolean;
  skipWater?: boolean;
  /** Also time the data orderings and half vs full 1x1 lists on the LJ fluid (seed 004). */
  orderings?: boolean;
  log?: (line: string) => void;
}

export interface LammpsResult {
  available: boolean;
  why?: string;
  seconds: number;
  stepsPerSecond: number;
  /** Pair / Neigh / Comm / Modify / Output / Other seconds. */
  breakdown: Record<string, number>;
  version: string;
}

/**
 * LJ force variants worth trying: TypeScript f64 (LAMMPS computes in double precision) and the
 * WebAssembly SIMD f32 kernels (reported separately: single precision).
 */
export const LJ_CANDIDATES = [
  ...['1x1.half.mask.branch', '1x1.half.mask.mask', '2x2.mask.branch', '4x2.branch.branch', '4x4.mask.branch'].map((s) => `md-nonbonded.ts.lj.geom.plain.f64.f.${s}`),
  ...['4x4.mask.mask', '4x4.mask.branch', '8x4.mask.mask'].map((s) => `md-nonbonded.wasm.lj.geom.plain.f32.f.${s}`),
];
/** Water force variants (f32 is what GROMACS's mixed precision computes in). */
export const WATER_CANDIDATES = [
  ...['f32.f.4x2.mask.branch', 'f32.f.2x2.mask.branch', 'f64.f.4x2.mask.branch', 'f64.f.4x4.mask.branch'].map((s) => `md-nonbonded.ts.lj-rf.geom.shift.${s}`),
  ...['4x4.mask.mask', '4x4.mask.branch', '8x4.mask.mask'].map((s) => `md-nonbonded.wasm.lj-rf.geom.shift.f32.f.${s}`),
];

/** What a LAMMPS run that gave no timing reports (with `why`). */
const none: LammpsResult = { available: false, seconds: NaN, stepsPerSecond: NaN, breakdown: {}, version: '' };

/** Run LAMMPS's in.lj (copied from bench/lammps) single-threaded and parse its timing summary. */
export function runLammps(workDir: string, steps: number, cells: number): LammpsResult {
  const which = spawnSync('sh', ['-c', 'command -v lmp'], { encoding: 'utf8' });
  if (which.status !== 0) return { ...none, why: 'lmp not found (Debian package lammps)' };
  const input = readFileSync(join(HERE, 'lammps/in.lj'), 'utf8').replace(/^variable\s+n\s+equal.*$/m, `variable n equal ${cells}`).replace(/^run\s+\d+/m, `run ${steps}`);
  mkdirSync(workDir, { recursive: true });
  writeFileSync(join(workDir, 'in.lj'), input);
  const r = spawnSync('lmp', ['-in', 'in.lj', '-log', 'none'], { cwd: workDir, encoding: 'utf8', env: { ...process.env, OMP_NUM_THREADS: '1' } });
  if (r.status !== 0) return { ...none, why: `lmp exited with ${r.status}: ${(r.stderr || r.stdout).slice(-400)}` };
  return parseLammpsOutput(r.stdout);
}

/** Loop time, steps/s, the timing breakdown and the version from LAMMPS's screen output. */
export function parseLammpsOutput(out: string): LammpsResult {
  const loop = /Loop time of ([\d.eE+-]+) on 1 procs for (\d+) steps/.exec(out);
  if (!loop) return { ...none, why: 'no "Loop time ... on 1 procs" line in the LAMMPS output' };
  const breakdown: Record<string, number> = {};
  for (const m of out.matchAll(/^(Pair|Neigh|Comm|Modify|Output|Other)\s*\|\s*([\d.eE+-]+)/gm)) breakdown[m[1]!] = Number(m[2]);
  const version = /LAMMPS \(([^)]+)\)/.exec(out)?.[1] ?? '';
  return { available: true, seconds: Number(loop[1]), stepsPerSecond: Number(loop[2]) / Number(loop[1]), breakdown, version };
}

interface Timed {
  key: string;
  msPerStep: number;
  searchMs: number;
  kernelMs: number;
  integrateMs: number;
  outcome: MdOutcome;
}

async function timeRun(o: MdOptions, steps: number): Promise<Timed> {
  const p = await prepareRun(o);
  const eng = await MdEngine.create(p.run);
  const t = performance.now();
  const out = eng.simulate(steps);
  const ms = performance.now() - t;
  const tm = out.timers;
  return { key: p.run.keyF, msPerStep: ms / steps, searchMs: tm.search / steps, kernelMs: tm.kernel / steps, integrateMs: tm.integrate / steps, outcome: out };
}

const f2 = (x: number) => (Number.isFinite(x) ? x.toFixed(2) : '-');

async function timeAll(base: MdOptions, keys: string[], steps: number, log: (l: string) => void): Promise<Timed[]> {
  const out: Timed[] = [];
  for (const key of keys) {
    const t = await timeRun({ ...base, variant: key }, steps);
    log(`  trial ${key.split('.').slice(1).join('.').padEnd(44)} ${f2(t.msPerStep).padStart(8)} ms/step (search ${f2(t.searchMs)}, kernel ${f2(t.kernelMs)}, integration ${f2(t.integrateMs)})`);
    out.push(t);
  }
  return out;
}

async function pickFastest(base: MdOptions, keys: string[], steps: number, log: (l: string) => void): Promise<string> {
  const all = await timeAll(base, keys, steps, log);
  return all.sort((a, b) => a.msPerStep - b.msPerStep)[0]!.key;
}

export async function benchMdWorkload(o: MdWorkloadBenchOptions): Promise<{ lj?: { lammps: LammpsResult; ours: Timed; ratio: number }; water?: { gromacs: GromacsWaterResult; ours: Timed; ratio: number } }> {
  const log = o.log ?? ((l: string) => console.log(l));
  const res: Awaited<ReturnType<typeof benchMdWorkload>> = {};
  mkdirSync(o.workDir, { recursive: true });
  const trial = o.trialSteps ?? 40;
  if (!o.skipLj) {
    const cells = o.ljCells ?? 20;
    const steps = o.ljSteps ?? 1000;
    log(`LJ fluid (LAMMPS in.lj): ${4 * cells ** 3} atoms, ${steps} steps, rc 2.5, skin 0.3, list every 20 steps, NVE`);
    const lammps = runLammps(join(o.workDir, 'lammps'), steps, cells);
    if (lammps.available) {
      const b = lammps.breakdown;
      log(`  LAMMPS ${lammps.version}, 1 thread: ${lammps.seconds.toFixed(2)} s, ${lammps.stepsPerSecond.toFixed(1)} steps/s; per step: pair ${f2((1000 * (b.Pair ?? NaN)) / steps)} ms, neighbour ${f2((1000 * (b.Neigh ?? NaN)) / steps)} ms, integration (Modify) ${f2((1000 * (b.Modify ?? NaN)) / steps)} ms`);
    } else log(`  LAMMPS unavailable: ${lammps.why}`);
    const base: MdOptions = { system: 'lj', cells, nstcalcenergy: steps };
    const cands = o.ljCandidates ?? LJ_CANDIDATES;
    const trials = await timeAll(base, cands, trial, log);
    // The best double-precision variant (LAMMPS's precision) and the best of all, if different.
    const f64 = trials.filter((t) => t.key.includes('.f64.')).sort((a, b) => a.msPerStep - b.msPerStep)[0];
    const any = [...trials].sort((a, b) => a.msPerStep - b.msPerStep)[0]!;
    for (const pick of [...new Set([f64?.key, any.key].filter((k): k is string => !!k))]) {
      const ours = await timeRun({ ...base, variant: pick }, steps);
      const sps = 1000 / ours.msPerStep;
      const ratio = lammps.available ? sps / lammps.stepsPerSecond : NaN;
      log(`  kernforge ${pick.split('.').slice(1).join('.')}: ${((ours.msPerStep * steps) / 1000).toFixed(2)} s, ${sps.toFixed(1)} steps/s; per step: kernel ${f2(ours.kernelMs)} ms, search ${f2(ours.searchMs)} ms, integration ${f2(ours.integrateMs)} ms`);
      const last = ours.outcome.thermo.at(-1)!;
      log(`  final T ${last.T.toPrecision(7)}, U/N ${(last.epot / (4 * cells ** 3)).toPrecision(7)}, P ${last.P.toPrecision(7)}`);
      log(`  => LJ (${pick.includes('.f64.') ? 'f64, as LAMMPS' : 'f32'}): kernforge / LAMMPS (single thread) = ${f2(ratio)}x steps per second (goal 1.0x)`);
      if (!res.lj || ratio > res.lj.ratio) res.lj = { lammps, ours, ratio };
    }
  }
  if (o.orderings !== false && !o.skipLj) {
    const cells = o.ljCells ?? 20;
    const steps = 2 * (o.trialSteps ?? 40);
    log(`\nData orderings (seed 004), LJ fluid ${4 * cells ** 3} atoms, ${steps} steps each: time per step by column order and list type`);
    const rows: [string, Partial<MdOptions>][] = [];
    for (const ordering of ['row-major', 'hilbert', 'morton', 'hilbert-rm', 'morton-rm']) rows.push([`1x1 half, ${ordering}`, { cluster: '1x1', list: 'half', ordering }]);
    rows.push(['1x1 full, row-major', { cluster: '1x1', list: 'full' }]);
    rows.push(['4x4, hilbert', { cluster: '4x4', ordering: 'hilbert' }], ['4x4, row-major', { cluster: '4x4' }]);
    let half = NaN;
    for (const [name, extra] of rows) {
      const t = await timeRun({ system: 'lj', cells, nstcalcenergy: steps, ...extra }, steps);
      if (name === '1x1 half, row-major') half = t.kernelMs;
      const rel = Number.isFinite(half) ? ` (${(t.kernelMs / half).toFixed(2)}x the row-major half-list kernel)` : '';
      log(`  ${name.padEnd(22)} ${f2(t.msPerStep).padStart(8)} ms/step: kernel ${f2(t.kernelMs)}${rel}, search ${f2(t.searchMs)}`);
    }
  }
  if (!o.skipWater) {
    const steps = o.waterSteps ?? 200;
    log(`\nSPC/E water, reaction-field rc 1.0 nm, leap-frog dt 2 fs, SETTLE, nstlist 10, Verlet buffer for 0.005 kJ/mol/ps`);
    const gromacs = await gromacsWaterBench({ molecules: o.waterMolecules ?? 4100, steps: 2 * steps, workDir: join(o.workDir, 'gromacs') });
    if (!gromacs.available) {
      log(`  GROMACS unavailable: ${gromacs.why}`);
      return res;
    }
    log(`  GROMACS ${gromacs.version} (${gromacs.kernel}), 1 thread, ${gromacs.natoms} atoms: ${f2(gromacs.msPerStep)} ms/step; non-bonded ${f2(gromacs.nonbondedMsPerStep)} ms, search ${f2(gromacs.searchMsPerStep)} ms`);
    const base: MdOptions = { system: 'water', gro: gromacs.gro, nstlist: 10, verletTolerance: 0.005, nstcalcenergy: steps };
    const key = await pickFastest(base, o.waterCandidates ?? WATER_CANDIDATES, Math.max(10, Math.round(trial / 2)), log);
    const ours = await timeRun({ ...base, variant: key }, steps);
    const ratio = gromacs.nonbondedMsPerStep / ours.kernelMs;
    log(`  kernforge ${key.split('.').slice(1).join('.')}: ${f2(ours.msPerStep)} ms/step; non-bonded ${f2(ours.kernelMs)} ms, search ${f2(ours.searchMs)} ms, integration + SETTLE ${f2(ours.integrateMs)} ms`);
    log(`  => water non-bonded: kernforge / GROMACS SSE4.1 4x4 = ${f2(ratio)}x speed (goal 0.5x); whole step ${f2(gromacs.msPerStep / ours.msPerStep)}x`);
    res.water = { gromacs, ours, ratio };
  }
  return res;
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  const dir = process.argv[2] ?? '.kernforge/bench-md';
  if (!existsSync(dir)) mkdirSync(dir, { recursive: true });
  await benchMdWorkload({ workDir: dir, ljSteps: Number(process.argv[3] ?? 1000), waterSteps: Number(process.argv[4] ?? 200) });
}
