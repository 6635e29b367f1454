// md-nonbonded gpu.js variants (templates/gpujs/md-nonbonded): a gpu.js kernel function with one
// thread per (i-atom, i-entry) of a full list, compiled by gpu.js for the backend the key's
// `mode` names (runtime/backends/gpujs.ts). gpu.js takes float arrays only, so the list goes in
// as f32 (indices are exact below 2^24) and the exclusion masks as one small integer per j-entry
// and i-atom (the N bits of its row). Each thread returns its atom's force over its entry (and
// an energy); the host adds them per atom, halves energies and shift forces (a full list visits
// every pair twice), in f64. Behind the TS kernel interface's outputs: forces, energies and
// shift forces are accumulated into MdArgs' f, energy, fshift.
import type { MdArgs } from '../../generated/md-nonbonded/ts/abi.ts';
import { callKernel, gpujsFor, GpujsModeError, type GpujsMode } from '../backends/gpujs.ts';
import { gpujsModule, variantParams } from '../variants.ts';
import { backend } from '../backends/registry.ts';
import type { MdProblem } from './problem.ts';
import type { MdResult } from './reference.ts';
import { checkShape, mdShape } from './kernels.ts';

/** A generated md-nonbonded gpu.js module. */
export interface MdGpujsModule {
  key: string;
  M: number;
  N: number;
  /** The kernel's arguments in order (names of the arrays built here, and `nt`). */
  ARGS: string[];
  ENERGIES: boolean;
  kernel: (...args: unknown[]) => unknown;
}

/** A gpu.js variant bound to its backend: one pass adds its outputs into a's f, energy and fshift. */
export interface MdGpujsKernel {
  key: string;
  M: number;
  N: number;
  mode: GpujsMode;
  /** One pass over a full list in f32 (MdProblem.args('f32') with { full: true }); outputs accumulated. */
  run(a: MdArgs): Promise<void>;
  /** Release the gpu.js instance (textures, buffers). */
  destroy(): void;
}

/** The list in the kernel's form: f32 entries and j-clusters, one mask row per (j-entry, i-atom). */
interface PackedList {
  from: { ci: Int32Array; cj: Int32Array; excl: Uint32Array };
  ent: Float32Array;
  cj: Float32Array;
  rm: Float32Array;
  nE: number;
  /** The most j-entries of one i-entry (the kernel's loop bound; WebGL compiles it in). */
  maxJ: number;
}

function packList(a: MdArgs, M: number, N: number): PackedList {
  const nE = a.ci.length >> 2;
  const nJ = a.cj.length;
  const W = nJ > 0 ? a.excl.length / nJ : 1;
  const rm = new Float32Array(nJ * M);
  const rowMask = 2 ** N - 1;
  for (let k = 0; k < nJ; k++) {
    for (let ii = 0; ii < M; ii++) {
      const b = ii * N; // N divides 32: a row never straddles two words
      rm[k * M + ii] = (a.excl[k * W + (b >> 5)]! >>> (b & 31)) & rowMask;
    }
  }
  let maxJ = 0;
  for (let e = 0; e < nE; e++) maxJ = Math.max(maxJ, a.ci[4 * e + 3]! - a.ci[4 * e + 2]!);
  return { from: { ci: a.ci, cj: a.cj, excl: a.excl }, ent: Float32Array.from(a.ci), cj: Float32Array.from(a.cj), rm, nE, maxJ };
}

/** The interaction constants the kernels read (this.constants), folded on the host. */
function constantsOf(p: MdArgs['params']): Record<string, number> {
  return {
    rc2: p.rc2,
    sh6: p.sh6,
    sh12: p.sh12,
    krf: p.krf,
    crf: p.crf,
    twoKrf: 2 * p.krf,
    beta: p.beta,
    c2bsp: (2 * p.beta) / Math.sqrt(Math.PI),
    shEw: p.shEwald,
    tabScale: p.tabScale,
  };
}

const f32 = (a: ArrayLike<number>): Float32Array => (a instanceof Float32Array ? a : Float32Array.from(a));
/** gpu.js inputs need at least one element. */
const nonEmpty = (a: Float32Array): Float32Array => (a.length > 0 ? a : new Float32Array(1));

/**
 * A gpu.js variant ready to run in the mode its key names; GpujsModeError when that mode does not
 * run here. `source` replaces the variant's module text (tests of the gate with a broken kernel).
 */
export async function loadGpujsKernel(key: string, o: { source?: string } = {}): Promise<MdGpujsKernel> {
  const shape = await mdShape(key);
  if (shape.target !== 'gpujs') throw new Error(`variant ${key} is a ${shape.target} variant, not gpu.js`);
  const mode = String((await variantParams(key)).mode) as GpujsMode;
  const mod = (o.source !== undefined ? await gpujsModule(key, o.source) : await backend('gpujs').load(key)) as MdGpujsModule;
  const gpu = await gpujsFor(mode);
  const { M, N } = shape;
  let list: PackedList | undefined;
  let inputs: { from: MdArgs; ntype: number; ljp?: Float32Array; type?: Float32Array; nbfp?: Float32Array; sv: Float32Array; tab?: Float32Array } | undefined;
  let compiled: { id: string; loopMax: number; threads: number; fn: unknown } | undefined;

  const kernelFor = (a: MdArgs, maxJ: number, threads: number): unknown => {
    const constants = { ...constantsOf(a.params), ntype: a.ntype };
    const id = JSON.stringify(constants);
    // WebGL unrolls a loop up to loopMaxIterations: recompile when a list has longer entries.
    if (!compiled || compiled.id !== id || maxJ > compiled.loopMax) {
      const loopMax = 2 ** Math.ceil(Math.log2(Math.max(maxJ, 16)));
      const fn = gpu.createKernel(mod.kernel as never, {
        output: [threads],
        constants,
        constantTypes: Object.fromEntries(Object.keys(constants).map((k) => [k, k === 'ntype' ? 'Integer' : 'Float'])),
        precision: 'single',
        dynamicOutput: true,
        dynamicArguments: true,
        loopMaxIterations: loopMax,
        tactic: 'precision',
      } as never);
      compiled = { id, loopMax, threads, fn };
    } else if (compiled.threads !== threads) {
      (compiled.fn as { setOutput(o: number[]): void }).setOutput([threads]);
      compiled.threads = threads;
    }
    return compiled.fn;
  };

  return {
    key,
    M,
    N,
    mode,
    async run(a: MdArgs) {
      if (!(a.xq instanceof Float32Array)) throw new Error(`gpu.js md-nonbonded kernels take f32 arrays (MdProblem.args('f32')); ${key} got ${a.xq.constructor.name}`);
      if (!list || list.from.ci !== a.ci || list.from.cj !== a.cj || list.from.excl !== a.excl) list = packList(a, M, N);
      if (!inputs || inputs.from.ljp !== a.ljp || inputs.from.nbfp !== a.nbfp || inputs.from.shiftVec !== a.shiftVec || inputs.from.params !== a.params) {
        const p = a.params;
        const tab = new Float32Array(2 * p.tabF.length);
        for (let k = 0; k < p.tabF.length; k++) {
          tab[2 * k] = p.tabF[k]!;
          tab[2 * k + 1] = p.tabV[k]!;
        }
        inputs = { from: a, ntype: a.ntype, ljp: f32(a.ljp), type: Float32Array.from(a.type), nbfp: nonEmpty(f32(a.nbfp)), sv: f32(a.shiftVec), tab: nonEmpty(tab) };
      }
      const { nE } = list;
      if (nE === 0) return;
      const nt = nE * M;
      const threads = mod.ENERGIES ? 2 * nt : nt;
      const fn = kernelFor(a, list.maxJ, threads);
      const named: Record<string, unknown> = { ent: list.ent, cj: nonEmpty(list.cj), rm: nonEmpty(list.rm), xq: a.xq, ljp: inputs.ljp, type: inputs.type, nbfp: inputs.nbfp, sv: inputs.sv, tab: inputs.tab, nt };
      const out = await callKernel<ArrayLike<ArrayLike<number>>>(fn, mod.ARGS.map((n) => named[n]), { mode, key });
      const f = a.f;
      let vlj = 0;
      let vc = 0;
      for (let e = 0; e < nE; e++) {
        const i0 = list.ent[4 * e]! * M;
        const sh = list.ent[4 * e + 1]!;
        for (let ii = 0; ii < M; ii++) {
          const r = out[e * M + ii]!;
          const p = 3 * (i0 + ii);
          f[p] += r[0]!;
          f[p + 1] += r[1]!;
          f[p + 2] += r[2]!;
          if (a.fshift) for (let c = 0; c < 3; c++) a.fshift[3 * sh + c] += 0.5 * r[c]!;
          if (mod.ENERGIES) {
            vlj += r[3]!;
            vc += out[nt + e * M + ii]![3]!;
          }
        }
      }
      if (a.energy && mod.ENERGIES) {
        // every pair was visited twice
        a.energy[0] += 0.5 * vlj;
        a.energy[1] += 0.5 * vc;
      }
    },
    destroy() {
      gpu.destroy();
    },
  };
}

/** Run a gpu.js variant once over the problem's (full) list in f32 and post-process its outputs, as runTs does. */
export async function runGpujs(key: string, problem: MdProblem): Promise<MdResult> {
  return runGpujsWith(key, problem);
}

/** runGpujs with the variant's module text replaced by `source` (when given). */
export async function runGpujsWith(key: string, problem: MdProblem, source?: string): Promise<MdResult> {
  const shape = await mdShape(key);
  checkShape(key, shape, problem);
  const k = await loadGpujsKernel(key, { source });
  try {
    const out = problem.outputs('f32');
    await k.run({ ...problem.args('f32'), ...out });
    return problem.finish('f32', out);
  } finally {
    k.destroy();
  }
}
