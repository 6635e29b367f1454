// Running md-nonbonded variants on a problem, on any target, through one interface.
import type { MdArgs } from '../../generated/md-nonbonded/ts/abi.ts';
import { variantParams } from '../variants.ts';
import { backend } from '../backends/registry.ts';
import { MdProblem, type Precision } from './problem.ts';
import type { MdResult } from './reference.ts';
import type { MdSystem } from './system.ts';
import type { MdSettings } from './interaction.ts';
import { isFullList } from './fulllist.ts';

/** A generated md-nonbonded TypeScript variant as loaded: its key, cluster shape and kernel function. */
export interface MdTsModule {
  /** The variant key. */
  key: string;
  /** Atoms per i-cluster. */
  M: number;
  /** Atoms per j-cluster. */
  N: number;
  /** Present (true) on the `list: full` variants. */
  fullList?: boolean;
  /** Run once over the whole pair list, accumulating into the output arrays of `a` (forces, and energies and shift forces by output level). */
  kernel(a: MdArgs): void;
}

export type ListKind = 'half' | 'full';

/** Cluster shape, precision, output level and neighbour-list kind of a variant, read from its key. */
export async function mdShape(key: string): Promise<{
  /** Atoms per i-cluster. */
  M: number;
  /** Atoms per j-cluster. */
  N: number;
  /** Arithmetic precision, f32 or f64. */
  precision: Precision;
  /** Output level: f (forces), fe (+ energies), fev (+ shift forces for the virial). */
  output: string;
  /** ts, wasm, wgsl or gpujs. */
  target: string;
  /** half (each pair once, Newton's third law) or full (each ordered pair, forces on i only). */
  list: ListKind;
}> {
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
  const mod = (await backend('ts').load(key)) as MdTsModule;
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
