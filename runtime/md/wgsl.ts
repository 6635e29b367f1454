// md-nonbonded WGSL variants: pack a problem into the four storage buffers and the uniform
// block the kernels declare, dispatch, read back and post-process like the TS variants.
import { storage, readBack, mapReadBuffer, uniform, bindBuffers, grid2d, runPass } from '../backends/webgpu.ts';
import { backend } from '../backends/registry.ts';
import { variantParams } from '../variants.ts';
import type { MdProblem } from './problem.ts';
import type { MdResult } from './reference.ts';
import { checkShape, mdShape } from './kernels.ts';

/** A problem uploaded to the GPU for one WGSL md-nonbonded variant: dispatch it repeatedly (timing), read the result, then destroy it. */
export interface PreparedWgsl {
  /** Zero the accumulators, dispatch once, wait for completion. */
  dispatch(): Promise<void>;
  /** Read the outputs of the last dispatch. */
  result(): Promise<MdResult>;
  /** Free the GPU buffers; the WebGPU device itself stays for the process. */
  destroy(): void;
  /** The WebGPU adapter's name and backend, e.g. `llvmpipe (LLVM 15.0.6, 256 bits) / opengles`. */
  adapterName: string;
}

/** Upload a problem for one WGSL variant. */
export async function prepareWgsl(key: string, problem: MdProblem): Promise<PreparedWgsl> {
  const shape = await mdShape(key);
  checkShape(key, shape, problem);
  const p = await variantParams(key);
  const wg = Number(p.workgroup);
  const pairScheme = p.scheme === 'pair';
  const jsplit = pairScheme ? 1 : Number(p.jsplit);
  const { ctx, pipeline: pl } = await backend('wgsl').pipeline(key, ['read-only-storage', 'read-only-storage', 'read-only-storage', 'storage', 'uniform']);
  const { device } = ctx;
  const a = problem.args('f32');
  const np = problem.layout.nPadded;
  const nE = a.ci.length / 4;

  const particles = new Float32Array(8 * np);
  particles.set(a.xq);
  const ints = new Int32Array(particles.buffer);
  for (let q = 0; q < np; q++) {
    particles[4 * (np + q)] = a.ljp[2 * q]!;
    particles[4 * (np + q) + 1] = a.ljp[2 * q + 1]!;
    ints[4 * (np + q) + 2] = a.type[q]!;
  }
  const list = new Uint32Array(a.ci.length + a.cj.length + a.excl.length);
  list.set(a.ci);
  list.set(a.cj, a.ci.length);
  list.set(a.excl, a.ci.length + a.cj.length);
  const tab = a.params.tabF.length;
  const tables = new Float32Array(a.nbfp.length + 2 * tab + 4);
  tables.set(a.nbfp);
  for (let k = 0; k < tab; k++) {
    tables[a.nbfp.length + 2 * k] = a.params.tabF[k]!;
    tables[a.nbfp.length + 2 * k + 1] = a.params.tabV[k]!;
  }
  // entry scheme: nE * jsplit invocations; pair scheme: wg / (M N) i-entries per workgroup.
  const groups = pairScheme ? Math.ceil(nE / (wg / (shape.M * shape.N))) : Math.ceil((nE * jsplit) / wg);
  const g = grid2d(ctx, groups);
  const { gx, gy } = g;
  const shiftOff = 3 * np;
  const energyOff = shiftOff + 81;
  const accWords = energyOff + 2 * gx * gy * wg;

  const uni = new ArrayBuffer(80 + 27 * 16);
  const uf = new Float32Array(uni);
  const uu = new Uint32Array(uni);
  const pr = a.params;
  uf.set([pr.rc2, pr.sh6, pr.sh12, pr.krf, pr.crf, pr.beta, pr.shEwald, pr.tabScale], 0);
  uu.set([nE, a.ci.length, a.ci.length + a.cj.length, 0, a.nbfp.length, a.ntype, shiftOff, energyOff, np, gx * wg, 0, 0], 8);
  for (let s = 0; s < 27; s++) uf.set([a.shiftVec[3 * s]!, a.shiftVec[3 * s + 1]!, a.shiftVec[3 * s + 2]!, 0], 20 + 4 * s);

  const bufs = {
    particles: storage(device, particles),
    list: storage(device, list),
    tables: storage(device, tables),
    acc: storage(device, new Uint32Array(accWords), true),
    uniform: uniform(device, uni),
    // kept for every result() of this preparation (the tuner's and an MD run's repeated reads)
    staging: mapReadBuffer(device, accWords * 4),
  };
  const bind = await bindBuffers(device, pl, [bufs.particles, bufs.list, bufs.tables, bufs.acc, bufs.uniform], key);
  return {
    adapterName: ctx.adapterName,
    async dispatch() {
      await runPass(device, pl, bind, g, bufs.acc);
    },
    async result() {
      const raw = new Float32Array(await readBack(device, bufs.acc, accWords * 4, bufs.staging));
      const energy = new Float64Array(2);
      for (let t = 0; t < gx * gy * wg; t++) {
        energy[0] += raw[energyOff + 2 * t]!;
        energy[1] += raw[energyOff + 2 * t + 1]!;
      }
      const fshift = Float64Array.from(raw.subarray(shiftOff, shiftOff + 81));
      return problem.finish('f32', { f: raw.slice(0, 3 * np), energy, fshift });
    },
    destroy() {
      Object.values(bufs).forEach((b) => b.destroy());
    },
  };
}

/** Run a WGSL variant once. */
export async function runWgsl(key: string, problem: MdProblem): Promise<MdResult> {
  const prep = await prepareWgsl(key, problem);
  try {
    await prep.dispatch();
    return await prep.result();
  } finally {
    prep.destroy();
  }
}
