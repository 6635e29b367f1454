// GROMACS water benchmark: builds an SPC/E box (gmx solvate -cs spc216.gro), relaxes and
// equilibrates it (the .gro kernforge's engine should run too), then times a single-thread CPU
// mdrun with the same interactions (RF eps_rf = inf, rc 1.0, LJ potential-shift, SETTLE,
// leap-frog dt 0.002, nstlist 10, verlet-buffer-tolerance 0.005) and reads the per-step
// times out of md.log's cycle and time accounting. Inputs: bench/gromacs/*.mdp, water.top.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = join(dirname(fileURLToPath(import.meta.url)), 'gromacs');
/** Water density of spc216.gro as gmx solvate tiles it (molecules per nm^3). */
const SOLVATE_DENSITY = 32.7;

export interface GromacsWaterOptions {
  /** Water molecules wanted (default 4,100: ~12,300 atoms in a ~5.0 nm cube); solvate decides the exact count. */
  molecules?: number;
  /** Timed MD steps (default 500); counters are reset half way (-resethway), so the second half is timed. */
  steps?: number;
  /** Equilibration steps (NVT 300 K, dt 0.002) before the timed run (default 500). */
  equilSteps?: number;
  /** Folder for all GROMACS files; an equilibrated input already there is reused unless rebuild. */
  workDir: string;
  rebuild?: boolean;
  /** GROMACS binary (default `gmx`, mixed precision). */
  gmx?: string;
  /** Electrostatics of the timed run: 'rf' (bench.mdp, default) or 'pme' (bench-pme.mdp: spacing 0.12, order 4, ewald-rtol 1e-5); the same equilibrated input. */
  coulomb?: 'rf' | 'pme';
}

export interface GromacsWaterResult {
  available: boolean;
  why?: string;
  /** Path of the equilibrated input (x and v) that kernforge's engine should run too. */
  gro: string;
  natoms: number;
  nsPerDay: number;
  /** Total wall time per timed step, and the 'Force' (non-bonded kernel) and 'Neighbor search' rows per step. */
  msPerStep: number;
  nonbondedMsPerStep: number;
  searchMsPerStep: number;
  /** The 'PME mesh' row per step (spread, 3D FFTs, solve, gather on this rank); NaN without PME. */
  pmeMsPerStep: number;
  /** Steps the accounting covers (after -resethway). */
  timedSteps: number;
  /** Every accounting row: wall seconds per timed step, in ms (e.g. 'Update', 'Constraints', 'NB X/F buffer ops.'). */
  rowsMsPerStep: Record<string, number>;
  /** e.g. 'SIMD 4x4 nonbonded short-range kernels, SSE4.1 (host supports AVX_512)'. */
  kernel: string;
  version: string;
  /** Path of md.log of the timed run. */
  log: string;
}

function run(cmd: string, args: string[], cwd: string, logFile: string): Promise<void> {
  return new Promise((res, rej) => {
    const p = spawn(cmd, args, { cwd, env: { ...process.env, GMX_MAXBACKUP: '-1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    p.stdout.on('data', (d: Buffer) => (out += d.toString()));
    p.stderr.on('data', (d: Buffer) => (out += d.toString()));
    p.on('error', rej);
    p.on('close', (code) => {
      writeFileSync(logFile, `$ ${cmd} ${args.join(' ')}\n${out}\n`, { flag: 'a' });
      if (code === 0) res();
      else rej(new Error(`${cmd} ${args.join(' ')} exited with ${code}:\n${out.split('\n').slice(-25).join('\n')}`));
    });
  });
}

function withSteps(mdp: string, steps: number): string {
  return readFileSync(join(HERE, mdp), 'utf8').replace(/^nsteps\s*=.*$/m, `nsteps          = ${steps}`);
}

/** Parse md.log of a GROMACS 2022 run: accounting rows, performance, SIMD kernel. */
export function parseMdLog(log: string): Pick<GromacsWaterResult, 'nsPerDay' | 'msPerStep' | 'nonbondedMsPerStep' | 'searchMsPerStep' | 'pmeMsPerStep' | 'timedSteps' | 'rowsMsPerStep' | 'kernel'> {
  const start = log.indexOf('R E A L   C Y C L E   A N D   T I M E   A C C O U N T I N G');
  if (start < 0) throw new Error('md.log has no cycle and time accounting table (did mdrun finish?)');
  const table = log.slice(start, log.indexOf('Performance:', start) + 200);
  const rows: Record<string, { calls: number; wall: number }> = {};
  let total = NaN;
  for (const l of table.split('\n')) {
    // " Force                  1    1        251       3.126          7.190  77.9"
    const m = /^ (\S.*?)\s+(\d+)\s+(\d+)\s+(\d+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s*$/.exec(l);
    if (m) rows[m[1]!.trim()] = { calls: Number(m[4]), wall: Number(m[5]) };
    const t = /^ Total\s+([\d.]+)\s+[\d.]+\s+[\d.]+\s*$/.exec(l);
    if (t) total = Number(t[1]);
  }
  const force = rows.Force;
  if (!force || !Number.isFinite(total)) throw new Error('md.log accounting table: no Force or Total row');
  const steps = force.calls;
  const perStep = (wall: number): number => (1000 * wall) / steps;
  const perf = /Performance:\s+([\d.]+)\s+([\d.]+)/.exec(table);
  const kernel = /Using (SIMD \S+ nonbonded short-range kernels|plain C \S+ nonbonded short-range kernels)/.exec(log)?.[1] ?? 'unknown nonbonded kernel';
  const compiled = /SIMD instructions selected at compile time:\s+(\S+)/.exec(log)?.[1] ?? /SIMD instructions:\s+(\S+)/.exec(log)?.[1];
  const host = /Highest SIMD level supported by all nodes in run:\s+(\S+)/.exec(log)?.[1];
  return {
    nsPerDay: perf ? Number(perf[1]) : NaN,
    msPerStep: perStep(total),
    nonbondedMsPerStep: perStep(force.wall),
    searchMsPerStep: perStep(rows['Neighbor search']?.wall ?? 0),
    pmeMsPerStep: rows['PME mesh'] ? perStep(rows['PME mesh'].wall) : NaN,
    timedSteps: steps,
    rowsMsPerStep: Object.fromEntries(Object.entries(rows).map(([k, r]) => [k, perStep(r.wall)])),
    kernel: `${kernel}${compiled ? `, ${compiled}` : ''}${host && host !== compiled ? ` (host supports ${host})` : ''}`,
  };
}

export async function gromacsWaterBench(o: GromacsWaterOptions): Promise<GromacsWaterResult> {
  const gmx = o.gmx ?? 'gmx';
  const molecules = o.molecules ?? 4100;
  const steps = o.steps ?? 500;
  const work = resolve(o.workDir);
  const gro = join(work, `water-${molecules}.gro`);
  const empty: GromacsWaterResult = {
    available: false, gro, natoms: 0, nsPerDay: NaN, msPerStep: NaN, nonbondedMsPerStep: NaN, searchMsPerStep: NaN, pmeMsPerStep: NaN,
    timedSteps: 0, rowsMsPerStep: {}, kernel: '', version: '', log: '',
  };
  const probe = spawnSync(gmx, ['--version'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) {
    return { ...empty, why: `${gmx} not runnable: ${probe.error?.message ?? `exit ${probe.status}`}` };
  }
  const version = /GROMACS version:\s+(.*)/.exec(probe.stdout)?.[1]?.trim() ?? 'unknown';
  mkdirSync(work, { recursive: true });
  const cmdLog = join(work, 'commands.log');
  const top = (n: number): string => {
    const f = join(work, `water-${molecules}.top`);
    writeFileSync(f, `${readFileSync(join(HERE, 'water.top'), 'utf8')}SOL ${n}\n`);
    return f;
  };
  const natomsOf = (f: string): number => Number(readFileSync(f, 'utf8').split('\n')[1]!.trim());
  try {
    if (o.rebuild || !existsSync(gro)) {
      const L = Math.cbrt(molecules / SOLVATE_DENSITY).toFixed(3);
      await run(gmx, ['solvate', '-cs', 'spc216.gro', '-box', L, L, L, '-o', 'solv.gro'], work, cmdLog);
      const t = top(natomsOf(join(work, 'solv.gro')) / 3);
      await run(gmx, ['grompp', '-f', join(HERE, 'em.mdp'), '-c', 'solv.gro', '-p', t, '-o', 'em.tpr', '-po', 'em-out.mdp'], work, cmdLog);
      await run(gmx, ['mdrun', '-s', 'em.tpr', '-deffnm', 'em', '-ntmpi', '1', '-ntomp', '1'], work, cmdLog);
      writeFileSync(join(work, 'equil.mdp'), withSteps('equil.mdp', o.equilSteps ?? 500));
      await run(gmx, ['grompp', '-f', 'equil.mdp', '-c', 'em.gro', '-p', t, '-o', 'equil.tpr', '-po', 'equil-out.mdp'], work, cmdLog);
      await run(gmx, ['mdrun', '-s', 'equil.tpr', '-deffnm', 'equil', '-c', gro, '-ntmpi', '1', '-ntomp', '1'], work, cmdLog);
    }
    const natoms = natomsOf(gro);
    const t = top(natoms / 3);
    const name = o.coulomb === 'pme' ? 'bench-pme' : 'bench';
    writeFileSync(join(work, `${name}.mdp`), withSteps(`${name}.mdp`, steps));
    await run(gmx, ['grompp', '-f', `${name}.mdp`, '-c', gro, '-p', t, '-o', `${name}.tpr`, '-po', `${name}-out.mdp`], work, cmdLog);
    // -pme cpu: the mesh on this rank's CPU thread too (GROMACS would otherwise pick it for us)
    await run(gmx, ['mdrun', '-s', `${name}.tpr`, '-deffnm', name, '-nb', 'cpu', ...(o.coulomb === 'pme' ? ['-pme', 'cpu'] : []), '-ntmpi', '1', '-ntomp', '1', '-nsteps', String(steps), '-notunepme', '-resethway', '-noconfout'], work, cmdLog);
    const log = join(work, `${name}.log`);
    return { available: true, gro, natoms, version, log, ...parseMdLog(readFileSync(log, 'utf8')) };
  } catch (e) {
    return { ...empty, why: `GROMACS run failed (commands and output in ${cmdLog}): ${(e as Error).message}` };
  }
}

// npx tsx bench/md-gromacs.ts [workDir] [steps] [molecules]
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [workDir = '/tmp/kernforge-gromacs-water', steps = '500', molecules = '4100'] = process.argv.slice(2);
  const r = await gromacsWaterBench({ workDir, steps: Number(steps), molecules: Number(molecules) });
  console.log(JSON.stringify(r, null, 2));
}
