// Running md-nonbonded variants on a problem, on any target, through one interface.
import type { MdArgs } from '../../generated/md-nonbonded/ts/abi.ts';
import { loadTsModule, variantParams } from '../variants.ts';
import { MdProblem, type Precision } from './problem.ts';
import type { MdResult } from './reference.ts';
import type { MdSystem } from './system.ts';
import type { MdSettings } from './interaction.ts';
import { isFullList } from './fulllist.ts';

export interface MdTsModule {
  key: string;
  M: number;
  N: number;
  /** Present (true) on the `list: full` variants. */
  fullList?: boolean;
  kernel(a: MdArgs): void;
}

export type ListKind = 'half' | 'full';

/** Cluster shape, precision, output level and neighbour-list kind of a variant, read from its key. */
export async function mdShape(key: string): Promise<{ M: number; N: number; precision: Precision; output: string; target: string; list: ListKind }> {
  const p = await variantParams(key);
  const [M, N] = String(p.cluster).split('x').map(Number) as [number, number];
  return { M, N, precision: p.precision as Precision, output: String(p.output), target: String(p.target), list: p.list === 'full' ? 'full' : 'half' };
}

/** The problem a variant runs on: clusters of its shape, and a full list for the `list: full` variants. */
export async function problemFor(key: string, sys: MdSystem, settings: MdSettings, rlist = settings.rc): Promise<MdProblem> {
  const shape = await mdShape(key);
  return new MdProblem(sys, settings, shape.M, shape.N, rlist, { full: shape.list === 'full' });
}

/** Run a TypeScript variant once over the problem's list and post-process its outputs. */
export async function runTs(key: string, problem: MdProblem): Promise<MdResult> {
  const mod = await loadTsModule<MdTsModule>(key);
  const shape = await mdShape(key);
  checkShape(key, shape, problem);
  const out = problem.outputs(shape.precision);
  mod.kernel({ ...problem.args(shape.precision), ...out });
  return problem.finish(shape.precision, out);
}

/** The problem must have the variant's cluster shape and list kind (a half-list kernel on a full list counts every pair twice). */
export function checkShape(key: string, shape: { M: number; N: number; list?: ListKind }, problem: MdProblem): void {
  if (shape.M !== problem.layout.M || shape.N !== problem.layout.N) {
    throw new Error(`variant ${key} is ${shape.M}x${shape.N} but the problem was built for ${problem.layout.M}x${problem.layout.N}`);
  }
  const want = shape.list ?? 'half';
  const have: ListKind = isFullList(problem.list) ? 'full' : 'half';
  if (want !== have) {
    throw new Error(`variant ${key} needs a ${want} neighbour list but the problem holds a ${have} one (new MdProblem(..., { full: ${want === 'full'} }), or problemFor)`);
  }
}
