// `kernforge batch <command ...> --shards N [--slurm [sbatch options ...]]`, `kernforge batch status
// <folder> [--resubmit]` and `kernforge gather <folder>` (issue 17). Parses and prints; the work is
// runtime/batch/ (slurm.ts: scripts, sbatch, status; gather.ts: the merge).
import type { Command } from 'commander';
import { realpathSync } from 'node:fs';
import { BatchInputError, parseShardCount } from '../../runtime/batch/shard.ts';

const USAGE = 'usage: kernforge batch <command ...> --shards N [--slurm [sbatch options ...]], or kernforge batch status <folder> [--resubmit]';

/** Split `batch`'s words: --shards N and --slurm (everything after it goes to sbatch) from the command. */
export function splitBatchArgs(args: string[]): { command: string[]; shards?: number; slurm: boolean; sbatch: string[] } {
  const command: string[] = [];
  let shards: number | undefined;
  let slurm = false;
  const sbatch: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const t = args[i]!;
    if (slurm) sbatch.push(t);
    else if (t === '--slurm') slurm = true;
    else if (t === '--shards') {
      if (args[i + 1] === undefined) throw new BatchInputError('--shards needs a number of shards');
      shards = parseShardCount(args[++i]!);
    } else if (t.startsWith('--shards=')) shards = parseShardCount(t.slice('--shards='.length));
    else command.push(t);
  }
  return { command, shards, slurm, sbatch };
}

/** The Node and kernforge entry of this process, for the tasks to run the same kernforge. */
function launcher() {
  let entry = process.argv[1] ?? '';
  try {
    entry = realpathSync(entry); // node_modules/.bin/kernforge is a link to dist/cli/bin.js
  } catch {
    // keep it as given
  }
  return { node: process.execPath, execArgv: process.execArgv, entry, cwd: process.cwd() };
}

async function batchCommand(args: string[]): Promise<number> {
  const log = (l: string) => console.log(l);
  if (args[0] === 'status') {
    const rest = args.slice(1);
    const resubmit = rest.includes('--resubmit');
    const noSlurm = rest.includes('--no-slurm');
    const folders = rest.filter((a) => a !== '--resubmit' && a !== '--no-slurm');
    const bad = folders.find((a) => a.startsWith('-'));
    if (bad) throw new BatchInputError(`batch status: unknown option ${bad} (allowed: --resubmit, --no-slurm)`);
    if (folders.length !== 1) throw new BatchInputError(`batch status: give one batch folder (the --out-dir of the command); ${USAGE}`);
    const { batchStatus } = await import('../../runtime/batch/slurm.ts');
    const r = batchStatus(folders[0]!, { resubmit, slurm: !noSlurm });
    for (const l of r.lines) log(l);
    if (resubmit) return 0;
    return r.shards.every((s) => s.state === 'done') ? 0 : 1;
  }
  const a = splitBatchArgs(args);
  if (a.shards === undefined) throw new BatchInputError(`batch: give --shards N; ${USAGE}`);
  const { submitBatch } = await import('../../runtime/batch/slurm.ts');
  const r = submitBatch({ command: a.command, n: a.shards, sbatch: a.sbatch, submit: a.slurm, log, ...launcher() });
  if (a.slurm) return 0;
  // without --slurm: the scripts, for a look or to submit by hand
  process.stdout.write(`${r.array}\n`);
  log(`# the gather job (submit it with --dependency=afterany:<array job id>):`);
  process.stdout.write(r.gather.split('\n').map((l) => (l === '' ? l : `# ${l}`)).join('\n'));
  log(`# with --slurm, kernforge writes these under ${r.record.outDir}/slurm/ and submits them`);
  return 0;
}

/** Add `batch` and `gather` to the program; `setStatus` receives the exit status. */
export function registerBatch(program: Command, setStatus: (s: number) => void): void {
  program
    .command('batch')
    .description('run a command as N shards: write a Slurm job array (task K runs the command with --shard K/N) and a gather job, and submit them with --slurm; `batch status <folder>` lists done, failed and missing shards (--resubmit submits those again)')
    .argument('<command...>', 'run gem ... | run md --replicas R ... | tune ..., then --shards N [--slurm [sbatch options ...]]; or: status <folder> [--resubmit]')
    .allowUnknownOption()
    .helpOption('-h, --help', 'show this help')
    .action(async (args: string[]) => setStatus(await batchCommand(args)));
  program
    .command('gather')
    .description("merge a batch's shards (<folder>/shards/K-of-N): GEM potentials per molecule in input order, MD replicas into one table, tuning caches into one; refuses a missing, duplicated, other-inputs, unverified or corrupt shard")
    .argument('<folder>', 'the --out-dir of the shards')
    .action(async (folder: string) => {
      const { gatherBatch } = await import('../../runtime/batch/gather.ts');
      const r = gatherBatch(folder);
      for (const l of r.lines) console.log(l);
      setStatus(0);
    });
}
