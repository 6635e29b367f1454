// Running md-nonbonded variants on a problem, on any target, through one interface.
import type { MdArgs } from '../../generated/md-nonbonded/ts/abi.ts';
import { loadTsModule, variantParams } from '../variants.ts';
import type { MdProblem, Precision } from './problem.ts';
import type { MdResult } from './reference.ts';

export interface MdTsModule {
  key: string;
  M: number;
  N: number;
  kernel(a: MdArgs): void;
}

/** Cluster shape, precision and output level of a variant, read from its key. */
export async function mdShape(key: string): Promise<{ M: number; N: number; precision: Precision; output: string; target: string }> {
  const p = await variantParams(key);
  const [M, N] = String(p.cluster).split('x').map(Number) as [number, number];
  return { M, N, precision: p.precision as Precision, output: String(p.output), target: String(p.target) };
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

export function checkShape(key: string, shape: { M: number; N: number }, problem: MdProblem): void {
  if (shape.M !== problem.layout.M || shape.N !== problem.layout.N) {
    throw new Error(`variant ${key} is ${shape.M}x${shape.N} but the problem was built for ${problem.layout.M}x${problem.layout.N}`);
  }
}
