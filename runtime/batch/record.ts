// `<out>/batch.json` (issue 17; Node only): what `kernforge batch ... --slurm` submitted, so that
// `kernforge batch status` can ask Slurm about the tasks and `--resubmit` can submit some again:
//   { "format": "kernforge-batch", "version": 1, "kernforge": "0.1.0", "work": "gem", "n": 4,
//     "command": ["run", "gem", ...],          // the shard command, without --shard
//     "cwd": "/home/me/proj", "node": "/usr/bin/node", "execArgv": [], "entry": ".../cli/kernforge.mjs",
//     "sbatch": ["--partition=cpu"], "scripts": { "array": "<out>/slurm/array.sh", "gather": "<out>/slurm/gather.sh" },
//     "submissions": [ { "at": "<ISO>", "array": "123", "tasks": [0, 1, 2, 3], "gather": "124" } ] }
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeOutput } from '../output.ts';
import { BatchInputError } from './shard.ts';
import type { BatchWork } from './manifest.ts';

export const BATCH_FORMAT = 'kernforge-batch';
export const BATCH_VERSION = 1;
export const BATCH_RECORD = 'batch.json';

/** One sbatch of the array (all tasks, or the ones resubmitted) and its gather job. */
export interface Submission {
  at: string;
  /** The array job's id. */
  array: string;
  /** The shard indices (array task ids) it ran. */
  tasks: number[];
  /** The dependent gather job's id. */
  gather?: string;
}

/** How the shards' command is started again on a node: the same Node and kernforge entry. */
export interface Launcher {
  /** process.execPath of the `kernforge batch` process. */
  node: string;
  /** Its Node options (process.execArgv). */
  execArgv: string[];
  /** The kernforge entry script it ran (cli/kernforge.mjs in a clone, dist/cli/bin.js in the package). */
  entry: string;
  /** The working folder (relative paths of the command are read from it). */
  cwd: string;
}

export interface BatchRecord extends Launcher {
  format: typeof BATCH_FORMAT;
  version: typeof BATCH_VERSION;
  kernforge: string;
  work: BatchWork;
  n: number;
  /** The shard command, without --shard. */
  command: string[];
  /** The --out-dir of the command, absolute. */
  outDir: string;
  /** Options given to every sbatch (the array and the gather job). */
  sbatch: string[];
  scripts: { array: string; gather: string };
  submissions: Submission[];
}

/** `<out>/batch.json`, or undefined when there is none; a corrupt one is a BatchInputError. */
export function readBatchRecord(out: string): BatchRecord | undefined {
  const f = join(out, BATCH_RECORD);
  if (!existsSync(f)) return undefined;
  let r: BatchRecord;
  try {
    r = JSON.parse(readFileSync(f, 'utf8')) as BatchRecord;
  } catch (e) {
    throw new BatchInputError(`${f} does not parse (${(e as Error).message.split('\n')[0]})`);
  }
  if (r?.format !== BATCH_FORMAT || r.version !== BATCH_VERSION) throw new BatchInputError(`${f} is not a ${BATCH_FORMAT} version ${BATCH_VERSION} file`);
  if (!Number.isInteger(r.n) || r.n < 1 || !Array.isArray(r.command) || !Array.isArray(r.submissions)) throw new BatchInputError(`${f}: n, command or submissions is missing`);
  return r;
}

/** Write `<out>/batch.json` atomically. */
export function writeBatchRecord(out: string, r: BatchRecord): void {
  writeOutput(join(out, BATCH_RECORD), `${JSON.stringify(r, null, 1)}\n`);
}
