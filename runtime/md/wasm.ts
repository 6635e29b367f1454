// md-nonbonded WebAssembly SIMD variants (templates/wasm/md-nonbonded): the kernel works on an
// M x 4 cluster layout in linear memory, one 4-atom cluster as x[4] y[4] z[4] q[4] sqrtC6[4]
// sqrtC12[4] and forces fx[4] fy[4] fz[4]. This module packs MdArgs (f32) into that layout,
// calls the kernel and adds its outputs back, so a wasm variant has the TS kernel interface
// (`kernel(a: MdArgs)`, outputs accumulated) and runs wherever a TS variant does.
import type { MdArgs } from '../../generated/md-nonbonded/ts/abi.ts';
import { wasmBytes } from '../variants.ts';
import type { MdProblem } from './problem.ts';
import type { MdResult } from './reference.ts';
import { checkShape, mdShape, type MdTsModule } from './kernels.ts';

/** Bytes per 4-atom cluster: coordinates, charges, LJ parameters; forces (generator/families/md-nonbonded.ts). */
const XQ_BYTES = 96;
const F_BYTES = 48;
const PAGE = 65536;

type KernelFn = (
  nci: number, ciP: number, cjP: number, exP: number, xP: number, fP: number, svP: number, eP: number, fsP: number,
  rc2: number, sh6: number, sh12: number, krf: number, crf: number,
) => void;

interface Instance {
  memory: WebAssembly.Memory;
  run: KernelFn;
  /** The list arrays last copied in, and where: skipped while the problem's list is the same. */
  list?: { ci: Int32Array; cj: Int32Array; excl: Uint32Array; ljp: MdArgs['ljp']; layout: Layout };
}

interface Layout {
  nc: number;
  xP: number;
  fP: number;
  ciP: number;
  cjP: number;
  exP: number;
  svP: number;
  eP: number;
  fsP: number;
  bytes: number;
}

const up16 = (n: number): number => (n + 15) & ~15;

function layoutFor(np: number, a: Pick<MdArgs, 'ci' | 'cj' | 'excl'>): Layout {
  const nc = np >> 2;
  let o = 0;
  const take = (n: number): number => {
    const at = o;
    o = up16(o + n);
    return at;
  };
  const xP = take(nc * XQ_BYTES);
  const fP = take(nc * F_BYTES);
  const ciP = take(4 * a.ci.length);
  const cjP = take(4 * a.cj.length);
  const exP = take(4 * a.excl.length);
  const svP = take(4 * 81);
  const eP = take(16);
  const fsP = take(8 * 81);
  return { nc, xP, fP, ciP, cjP, exP, svP, eP, fsP, bytes: o };
}

const instances = new Map<string, Promise<Instance>>();

async function instantiate(bytes: Uint8Array): Promise<Instance> {
  const module = await WebAssembly.compile(bytes as Uint8Array<ArrayBuffer>);
  const instance = await WebAssembly.instantiate(module, {});
  const ex = instance.exports as { memory: WebAssembly.Memory; kernel: KernelFn };
  return { memory: ex.memory, run: ex.kernel };
}

async function instanceOf(key: string): Promise<Instance> {
  let p = instances.get(key);
  if (!p) {
    p = wasmBytes(key).then(instantiate);
    p.catch(() => instances.delete(key));
    instances.set(key, p);
  }
  return p;
}

/** One call: pack (x, y, z, q every call; list and LJ parameters when they changed), run, add the outputs into a.f, a.energy, a.fshift. */
function call(inst: Instance, M: number, a: MdArgs): void {
  if (!(a.xq instanceof Float32Array)) throw new Error('wasm md-nonbonded kernels take f32 arrays (MdProblem.args("f32"))');
  const np = a.xq.length >> 2;
  if (np % M !== 0 || np % 4 !== 0) throw new Error(`wasm kernel: ${np} padded particles is not a whole number of ${M}-atom clusters`);
  const cached = inst.list;
  const fresh = !cached || cached.ci !== a.ci || cached.cj !== a.cj || cached.excl !== a.excl || cached.ljp !== a.ljp || cached.layout.nc !== np >> 2;
  const L = fresh ? layoutFor(np, a) : cached.layout;
  const need = Math.ceil(L.bytes / PAGE);
  const have = inst.memory.buffer.byteLength / PAGE;
  if (need > have) inst.memory.grow(need - have);
  const buf = inst.memory.buffer;
  const mf = new Float32Array(buf);
  const xq = a.xq;
  const x0 = L.xP >> 2;
  for (let p = 0; p < np; p++) {
    const b = x0 + 24 * (p >> 2) + (p & 3);
    mf[b] = xq[4 * p]!;
    mf[b + 4] = xq[4 * p + 1]!;
    mf[b + 8] = xq[4 * p + 2]!;
    mf[b + 12] = xq[4 * p + 3]!;
  }
  if (fresh) {
    const ljp = a.ljp;
    for (let p = 0; p < np; p++) {
      const b = x0 + 24 * (p >> 2) + (p & 3);
      mf[b + 16] = ljp[2 * p]!;
      mf[b + 20] = ljp[2 * p + 1]!;
    }
    new Int32Array(buf, L.ciP, a.ci.length).set(a.ci);
    new Int32Array(buf, L.cjP, a.cj.length).set(a.cj);
    new Uint32Array(buf, L.exP, a.excl.length).set(a.excl);
    inst.list = { ci: a.ci, cj: a.cj, excl: a.excl, ljp: a.ljp, layout: L };
  }
  mf.set(a.shiftVec.subarray(0, 81), L.svP >> 2);
  mf.fill(0, L.fP >> 2, (L.fP >> 2) + 12 * L.nc);
  const md = new Float64Array(buf);
  md.fill(0, L.eP >> 3, (L.eP >> 3) + 2);
  md.fill(0, L.fsP >> 3, (L.fsP >> 3) + 81);
  const pr = a.params;
  inst.run(a.ci.length >> 2, L.ciP, L.cjP, L.exP, L.xP, L.fP, L.svP, L.eP, L.fsP, pr.rc2, pr.sh6, pr.sh12, pr.krf, pr.crf);
  const f = a.f;
  const f0 = L.fP >> 2;
  for (let p = 0; p < np; p++) {
    const b = f0 + 12 * (p >> 2) + (p & 3);
    f[3 * p] += mf[b]!;
    f[3 * p + 1] += mf[b + 4]!;
    f[3 * p + 2] += mf[b + 8]!;
  }
  if (a.energy) {
    a.energy[0] += md[L.eP >> 3]!;
    a.energy[1] += md[(L.eP >> 3) + 1]!;
  }
  if (a.fshift) for (let k = 0; k < 81; k++) a.fshift[k] += md[(L.fsP >> 3) + k]!;
}

/**
 * A wasm variant behind the TS kernel interface (key, M, N, kernel(MdArgs)); one instance and
 * memory per key, reused (memory grows when a larger problem comes). `bytes` replaces the
 * variant's binary with another build of it (an uncached instance: tests of the gate).
 */
export async function loadWasmKernel(key: string, bytes?: Uint8Array): Promise<MdTsModule> {
  const shape = await mdShape(key);
  if (shape.target !== 'wasm') throw new Error(`variant ${key} is a ${shape.target} variant, not WebAssembly`);
  const inst = bytes ? await instantiate(bytes) : await instanceOf(key);
  return { key, M: shape.M, N: shape.N, kernel: (a: MdArgs) => call(inst, shape.M, a) };
}

/** Run a wasm variant once over the problem's list (f32) and post-process its outputs, as runTs does. */
export async function runWasm(key: string, problem: MdProblem): Promise<MdResult> {
  return runWasmWith(key, problem);
}

/** runWasm with the variant's binary replaced by `bytes` (when given). */
export async function runWasmWith(key: string, problem: MdProblem, bytes?: Uint8Array): Promise<MdResult> {
  const mod = await loadWasmKernel(key, bytes);
  const shape = await mdShape(key);
  checkShape(key, shape, problem);
  const out = problem.outputs('f32');
  mod.kernel({ ...problem.args('f32'), ...out });
  return problem.finish('f32', out);
}
