// Batches on Slurm (issue 17; Node only): `kernforge batch <command ...> --shards N --slurm [sbatch
// options]` writes `<out>/slurm/array.sh` (task K runs `<node> <entry> <command ...> --shard K/N`
// with the same Node and kernforge entry as the `kernforge batch` process, in the same folder) and
// `<out>/slurm/gather.sh` (`kernforge gather <out>`), submits the array (`sbatch --array=0-(N-1)`)
// and the gather job (`--dependency=afterany:<array>`: it runs when every task has ended, and
// refuses to merge when a shard is missing), and records both in `<out>/batch.json`. `batch
// status` judges every shard from its folder (runtime/batch/gather.ts) and, for the ones not
// finished, asks Slurm (sacct; without accounting storage, squeue, which remembers ended jobs for
// MinJobAge, 300 s by default); `--resubmit` submits the failed and missing ones again with a new
// gather job (a still-pending gather job of before is cancelled with scancel).
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { writeOutput } from '../output.ts';
import { BatchInputError, parseShardName, shardName } from './shard.ts';
import { kernforgeVersion } from './store.ts';
import { judgeBatch, scanBatch } from './gather.ts';
import { BATCH_FORMAT, BATCH_VERSION, readBatchRecord, writeBatchRecord, type BatchRecord, type Launcher, type Submission } from './record.ts';
import type { BatchWork } from './manifest.ts';

/** The --out-dir of a shard command when it names none. */
export const DEFAULT_OUT_DIR = 'kernforge-batch';

/** A shard command understood: what it computes and its output folder. */
export interface BatchCommand {
  work: BatchWork;
  command: string[];
  outDir: string;
}

/** Check a command for `kernforge batch`: run gem, run md --replicas R, or tune; no --shard of its own. */
export function parseBatchCommand(command: string[]): BatchCommand {
  const [a, b] = command;
  const work: BatchWork | undefined = a === 'run' && b === 'gem' ? 'gem' : a === 'run' && b === 'md' ? 'md' : a === 'tune' ? 'tune' : undefined;
  if (!work) throw new BatchInputError(`batch: ${command.length ? `"${command.slice(0, 2).join(' ')}"` : 'no command'}: the batchable commands are run gem (--batch list.txt, or one molecule's vertices), run md --replicas R, and tune`);
  if (command.some((t) => t === '--shard' || t.startsWith('--shard='))) throw new BatchInputError('batch: the command has a --shard of its own; batch adds --shard K/N to every task (give --shards N)');
  if (work === 'md' && !command.some((t) => t === '--replicas' || t.startsWith('--replicas='))) throw new BatchInputError('batch run md: give --replicas R (the replicas are split between the shards)');
  let outDir = DEFAULT_OUT_DIR;
  command.forEach((t, i) => {
    if (t === '--out-dir') {
      if (command[i + 1] === undefined) throw new BatchInputError('batch: --out-dir needs a folder');
      outDir = command[i + 1]!;
    } else if (t.startsWith('--out-dir=')) outDir = t.slice('--out-dir='.length);
  });
  return { work, command, outDir };
}

/** A word quoted for bash (single quotes). */
export const shq = (s: string): string => (/^[A-Za-z0-9_./:=@%+,-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

/** Array task ids as sbatch --array takes them: "0-3", "1,4-6". */
export function arraySpec(ks: number[]): string {
  const s = [...new Set(ks)].sort((x, y) => x - y);
  const parts: string[] = [];
  for (let i = 0; i < s.length; ) {
    let j = i;
    while (j + 1 < s.length && s[j + 1] === s[j]! + 1) j++;
    parts.push(i === j ? `${s[i]}` : `${s[i]}-${s[j]}`);
    i = j + 1;
  }
  return parts.join(',');
}

/** `#SBATCH` lines for the user's sbatch options (an option's separate value joins it). */
function sbatchLines(opts: string[]): string[] {
  const lines: string[] = [];
  for (const t of opts) {
    if (!t.startsWith('-') && lines.length > 0) lines[lines.length - 1] += ` ${t}`;
    else lines.push(t);
  }
  return lines.map((l) => `#SBATCH ${l}`);
}

const launch = (l: Launcher): string => [l.node, ...l.execArgv, l.entry].map(shq).join(' ');

/** The array script: task K runs the command with --shard K/N. */
export function arrayScript(r: Pick<BatchRecord, 'work' | 'n' | 'command' | 'outDir' | 'sbatch' | 'kernforge'> & Launcher): string {
  return [
    '#!/bin/bash',
    `# kernforge batch (kernforge ${r.kernforge}): task K of this Slurm job array runs shard K/${r.n} of`,
    `#   kernforge ${r.command.join(' ')}`,
    `# into ${r.outDir}/shards/K-of-${r.n}/ (a finished shard is not run again).`,
    `#SBATCH --job-name=kf-${r.work}`,
    `#SBATCH --array=0-${r.n - 1}`,
    `#SBATCH --output=${join(r.outDir, 'slurm', 'logs', '%A_%a.out')}`,
    ...sbatchLines(r.sbatch),
    'set -eu',
    `cd ${shq(r.cwd)}`,
    `exec ${launch(r)} ${r.command.map(shq).join(' ')} --shard "\${SLURM_ARRAY_TASK_ID}/${r.n}"`,
    '',
  ].join('\n');
}

/** The gather script: `kernforge gather <out>`. */
export function gatherScript(r: Pick<BatchRecord, 'work' | 'outDir' | 'sbatch' | 'kernforge'> & Launcher): string {
  return [
    '#!/bin/bash',
    `# kernforge batch (kernforge ${r.kernforge}): merge the shards of ${r.outDir} once the array has ended`,
    `#SBATCH --job-name=kf-${r.work}-gather`,
    `#SBATCH --output=${join(r.outDir, 'slurm', 'logs', 'gather-%j.out')}`,
    ...sbatchLines(r.sbatch),
    'set -eu',
    `cd ${shq(r.cwd)}`,
    `exec ${launch(r)} gather ${shq(r.outDir)}`,
    '',
  ].join('\n');
}

/** Run a Slurm command; its stdout, or a BatchInputError with its stderr (one line). */
function slurm(cmd: string, args: string[]): string {
  const r = spawnSync(cmd, args, { encoding: 'utf8' });
  if (r.error) {
    const code = (r.error as NodeJS.ErrnoException).code;
    throw new BatchInputError(code === 'ENOENT' ? `${cmd} not found: Slurm's commands are not on this machine's PATH (without --slurm, batch prints the script)` : `${cmd}: ${r.error.message}`);
  }
  if (r.status !== 0) throw new BatchInputError(`${cmd} ${args.join(' ')} failed (exit ${r.status}): ${(r.stderr || r.stdout).trim().split('\n').join(' ')}`);
  return r.stdout;
}

/** sbatch --parsable; the job id. */
function sbatch(args: string[]): string {
  const out = slurm('sbatch', ['--parsable', ...args]).trim();
  const id = out.split(';')[0]!.trim();
  if (!/^\d+$/.test(id)) throw new BatchInputError(`sbatch printed "${out}", not a job id`);
  return id;
}

/** Options of submitBatch. */
export interface SubmitOptions extends Launcher {
  command: string[];
  n: number;
  sbatch: string[];
  /** Submit (true) or only return the scripts. */
  submit: boolean;
  log?: (line: string) => void;
}

/** Write and (with submit) submit a batch; returns the record (and the scripts' text). */
export function submitBatch(o: SubmitOptions): { record: BatchRecord; array: string; gather: string } {
  const c = parseBatchCommand(o.command);
  const outDir = isAbsolute(c.outDir) ? c.outDir : resolve(o.cwd, c.outDir);
  const base = { kernforge: kernforgeVersion(), work: c.work, n: o.n, command: o.command, outDir, sbatch: o.sbatch, node: o.node, execArgv: o.execArgv, entry: o.entry, cwd: o.cwd };
  const array = arrayScript(base);
  const gather = gatherScript(base);
  const scripts = { array: join(outDir, 'slurm', 'array.sh'), gather: join(outDir, 'slurm', 'gather.sh') };
  const record: BatchRecord = { format: BATCH_FORMAT, version: BATCH_VERSION, ...base, scripts, submissions: [] };
  if (!o.submit) return { record, array, gather };
  const before = readBatchRecord(outDir);
  if (before && (before.n !== o.n || before.command.join('\0') !== o.command.join('\0'))) {
    throw new BatchInputError(`${join(outDir, 'batch.json')} records another batch (kernforge ${before.command.join(' ')}, ${before.n} shards); not replacing it: give another --out-dir, or \`kernforge batch status ${c.outDir} --resubmit\``);
  }
  mkdirSync(join(outDir, 'slurm', 'logs'), { recursive: true });
  writeOutput(scripts.array, array);
  writeOutput(scripts.gather, gather);
  if (before) record.submissions = before.submissions;
  const all = Array.from({ length: o.n }, (_, k) => k);
  submit(record, all, o.log);
  return { record, array, gather };
}

/** sbatch the array for shards `ks` and a gather job after it; recorded in batch.json. */
function submit(r: BatchRecord, ks: number[], log: (l: string) => void = () => {}): Submission {
  const array = sbatch([`--array=${arraySpec(ks)}`, ...r.sbatch, r.scripts.array]);
  // recorded at once: should the gather job's sbatch fail, status still finds the array
  const s: Submission = { at: new Date().toISOString(), array, tasks: ks };
  r.submissions.push(s);
  writeBatchRecord(r.outDir, r);
  s.gather = sbatch([`--dependency=afterany:${array}`, ...r.sbatch, r.scripts.gather]);
  writeBatchRecord(r.outDir, r);
  const gather = s.gather;
  log(`submitted job array ${array} (shards ${arraySpec(ks)} of ${r.n}) and gather job ${gather} (after the array): kernforge batch status ${r.outDir}`);
  return s;
}

/** A Slurm task's state as Slurm says (PENDING, RUNNING, COMPLETED, CANCELLED, FAILED, TIMEOUT, ...). */
export interface TaskState {
  job: string;
  state: string;
}

/**
 * The state of every array task and job of `jobs`: from sacct when accounting storage is there,
 * else from squeue (the jobs it still remembers). `source` says which; `note` why not sacct.
 */
export function slurmStates(jobs: string[]): { tasks: Map<string, TaskState>; source: 'sacct' | 'squeue'; note?: string } {
  const tasks = new Map<string, TaskState>();
  const add = (id: string, state: string) => tasks.set(id, { job: id, state: state.split(/\s/)[0]!.replace(/\+$/, '') });
  const acct = spawnSync('sacct', ['-n', '-P', '-X', '-j', jobs.join(','), '-o', 'JobID,State'], { encoding: 'utf8' });
  const said = `${acct.stdout ?? ''}${acct.stderr ?? ''}`;
  if (!acct.error && acct.status === 0 && !/accounting storage is disabled/i.test(said)) {
    for (const l of acct.stdout.split('\n')) {
      const [id, state] = l.trim().split('|');
      if (id && state) add(id, state);
    }
    return { tasks, source: 'sacct' };
  }
  const note = acct.error ? 'sacct not found' : /accounting storage is disabled/i.test(said) ? 'Slurm accounting storage is disabled, so sacct knows nothing' : `sacct failed: ${said.trim().split('\n')[0]}`;
  const q = spawnSync('squeue', ['-h', '-r', '--states=all', '-j', jobs.join(','), '-o', '%i|%T'], { encoding: 'utf8' });
  if (q.error || q.status !== 0) {
    // squeue exits non-zero for job ids it has forgotten: ask for each then
    for (const j of jobs) {
      const one = spawnSync('squeue', ['-h', '-r', '--states=all', '-j', j, '-o', '%i|%T'], { encoding: 'utf8' });
      if (!one.error && one.status === 0) for (const l of one.stdout.split('\n')) if (l.includes('|')) add(...(l.trim().split('|') as [string, string]));
    }
  } else for (const l of q.stdout.split('\n')) if (l.includes('|')) add(...(l.trim().split('|') as [string, string]));
  return { tasks, source: 'squeue', note: `${note}; squeue remembers ended jobs for MinJobAge, 300 s by default` };
}

const ENDED_BADLY = new Set(['FAILED', 'CANCELLED', 'TIMEOUT', 'NODE_FAIL', 'OUT_OF_MEMORY', 'BOOT_FAIL', 'DEADLINE', 'PREEMPTED', 'REVOKED', 'COMPLETED']);

/** One shard's line in batch status. */
export interface ShardStatus {
  k: number;
  /** done: finished and usable; bad: finished but unusable (corrupt, other inputs, unverified); running/pending: Slurm says so; failed: its Slurm task ended without finishing it; missing: not finished, and nothing known. */
  state: 'done' | 'bad' | 'running' | 'pending' | 'failed' | 'missing';
  detail: string;
}

/** batch status: every shard's state; with resubmit, submits the failed and missing ones again. */
export function batchStatus(out: string, o: { resubmit?: boolean; slurm?: boolean; log?: (l: string) => void } = {}): { shards: ShardStatus[]; lines: string[]; resubmitted?: Submission } {
  const rec = readBatchRecord(out);
  // Slurm first, the folders second: a task that ends in between is then seen done, not failed
  let states: ReturnType<typeof slurmStates> | undefined;
  if (rec && rec.submissions.length > 0 && o.slurm !== false) states = slurmStates(rec.submissions.flatMap((s) => [s.array, ...(s.gather ? [s.gather] : [])]));
  const scan = scanBatch(out, { hashes: true });
  const { good, refusals } = judgeBatch(scan);
  const lines: string[] = [];
  lines.push(`batch ${out}: ${rec ? `kernforge ${rec.command.join(' ')}` : 'shards run without `kernforge batch --slurm` (no batch.json)'}; ${scan.n} shards`);
  if (rec && states) {
    lines.push(`Slurm jobs: ${rec.submissions.map((s) => `array ${s.array} (shards ${arraySpec(s.tasks)}), gather ${s.gather ?? '-'}`).join('; ')}; ${states.source}${states.note ? ` (${states.note})` : ''}`);
  }
  const shards: ShardStatus[] = [];
  for (let k = 0; k < scan.n; k++) {
    const name = shardName({ k, n: scan.n });
    const g = good.get(k);
    const partial = scan.partial.filter((p) => p.shard === name);
    const half = partial.length ? `; half-written attempt${partial.length > 1 ? 's' : ''} left: ${partial.map((p) => `${p.name} (pid ${p.pid} on ${p.host})`).join(', ')}` : '';
    if (g) {
      shards.push({ k, state: 'done', detail: `${g.items.length} item${g.items.length === 1 ? '' : 's'}, verified, ${g.timings.seconds.toFixed(1)} s on ${g.device.host}, finished ${g.timings.finished}` });
      continue;
    }
    const refusal = refusals.find((r) => r.includes(`shard ${name} `));
    if (refusal) {
      shards.push({ k, state: 'bad', detail: `${refusal}; remove that folder to run it again` });
      continue;
    }
    // the latest submission that ran this shard
    const sub = rec?.submissions.filter((s) => s.tasks.includes(k)).at(-1);
    const t = sub && states ? states.tasks.get(`${sub.array}_${k}`) : undefined;
    if (t && (t.state === 'RUNNING' || t.state === 'PENDING' || t.state === 'COMPLETING' || t.state === 'CONFIGURING' || t.state === 'REQUEUED')) {
      shards.push({ k, state: t.state === 'PENDING' ? 'pending' : 'running', detail: `Slurm task ${sub!.array}_${k} ${t.state}${half}` });
    } else if (t && ENDED_BADLY.has(t.state)) {
      shards.push({ k, state: 'failed', detail: `Slurm task ${sub!.array}_${k} ${t.state}${t.state === 'COMPLETED' ? ' without finishing the shard' : ''}: not finished (log ${join(out, 'slurm', 'logs', `${sub!.array}_${k}.out`)})${half}` });
    } else {
      shards.push({ k, state: 'missing', detail: `not finished${sub ? `; Slurm no longer knows task ${sub.array}_${k}` : ''}${half}` });
    }
  }
  for (const s of shards) lines.push(`  ${shardName({ k: s.k, n: scan.n }).padEnd(10)} ${s.state.padEnd(8)} ${s.detail}`);
  for (const b of scan.bad) if (parseShardName(b.name)?.n !== scan.n) lines.push(`  also: ${b.why}`);
  const count = (st: ShardStatus['state']) => shards.filter((s) => s.state === st).length;
  const again = shards.filter((s) => s.state === 'failed' || s.state === 'missing').map((s) => s.k);
  lines.push(`${count('done')} done, ${count('running') + count('pending')} running or pending, ${count('failed')} failed, ${count('missing')} missing${count('bad') ? `, ${count('bad')} unusable` : ''}`);
  let resubmitted: Submission | undefined;
  if (o.resubmit) {
    if (!rec) throw new BatchInputError(`batch status ${out} --resubmit: no batch.json here (the shards were not submitted by \`kernforge batch --slurm\`): run the missing shards with --shard K/${scan.n}`);
    if (again.length === 0) lines.push('nothing to resubmit (no failed or missing shard)');
    else {
      // a gather job of before that still waits would merge too early or refuse: cancel it
      const last = rec.submissions.at(-1);
      if (last?.gather && states?.tasks.get(last.gather)?.state === 'PENDING') spawnSync('scancel', [last.gather]);
      resubmitted = submit(rec, again, (l) => lines.push(l));
    }
  } else if (again.length > 0 && rec) lines.push(`\`kernforge batch status ${out} --resubmit\` submits ${again.map((k) => shardName({ k, n: scan.n })).join(', ')} again`);
  return { shards, lines, resubmitted };
}
