// gem-potential WebAssembly SIMD variants (templates/wasm/gem-potential): the kernel reads
// structure-of-arrays vertices and atoms from its linear memory and writes phi there. A prepared
// problem lays the inputs out once (vertices padded to a multiple of the unroll with copies of
// the last one, atoms to a multiple of 4 with zero charges far away), folds the atom-independent
// terms on the host in f64 (gemWgslConstants, as for WGSL and gpu.js) and copies the image into
// an instance's memory once; each run then only calls the kernel and reads phi back.
// With threads > 1 the vertices are split over a runtime/parallel pool (ranges on multiples of
// the unroll): each worker holds its own instance with the same image, computes its range and
// writes it into a shared result. A vertex is computed the same way in any range (lanes do not
// mix), so the result is identical to one thread's bit for bit. On one thread the image is a plain
// ArrayBuffer: a page that is not cross-origin isolated has no SharedArrayBuffer, and needs none.
import { variantParams, wasmModule } from '../variants.ts';
import { backend } from '../backends/registry.ts';
import { Pool, parseThreads, splitRange } from '../parallel/pool.ts';
import type { GemAtoms, GemVertices } from './io.ts';
import { gemParams, type GemParams, type GemRegion } from './model.ts';
import { checkVariant, gemVariantInfo, type GemPrecision, type GemRunOptions, type GemRunResult } from './run.ts';
import { gemWgslConstants } from './wgsl.ts';

type KernelFn = (i0: number, i1: number, na: number, ...ptrsThenConstants: number[]) => void;

/** Where padding atoms sit (Angstrom): far from any molecule, near enough that 1/d stays a normal f32. */
const PAD_AT = 1e4;
const PAGE = 65536;
/** The input arrays in the order of the kernel's pointer arguments (phi last). */
const ARRAYS = ['vx', 'vy', 'vz', 'nx', 'ny', 'nz', 'ax', 'ay', 'az', 'aq', 'phi'] as const;

/** What a wasm key fixes about the memory layout. */
export interface GemWasmShape {
  precision: GemPrecision;
  /** Vertices per outer iteration (the vertex count is padded to a multiple of it). */
  K: number;
}

/** One problem laid out as the kernel reads it. */
export interface GemWasmImage {
  /** The memory image from byte 0 (shared when worker threads read it, so they need no copy; else a plain ArrayBuffer). */
  bytes: SharedArrayBuffer | ArrayBuffer;
  /** Byte offsets of vx vy vz nx ny nz ax ay az aq phi. */
  ptrs: number[];
  /** Kernel constants: p, ion radius, kappa, g, h, kc, scale, phi0. */
  constants: number[];
  nv: number;
  nvPad: number;
  naPad: number;
  precision: GemPrecision;
}

/** The key's layout, or an error naming what the key is when it is not a gem-potential wasm variant. */
export async function gemWasmShape(key: string): Promise<GemWasmShape> {
  const p = await variantParams(key);
  if (!key.startsWith('gem-potential.')) throw new Error(`${key} is not a gem-potential variant`);
  if (p.target !== 'wasm') throw new Error(`variant ${key} is a ${p.target} variant, not WebAssembly (use runGem, runGemWgsl or runGemGpujs)`);
  return { precision: p.precision as GemPrecision, K: Number(p.unroll) };
}

/**
 * Lay out a problem for a variant of this shape (constants folded for `region` and salt); `shared`:
 * on a SharedArrayBuffer for worker threads (default), else on an ArrayBuffer (one thread).
 */
export function gemWasmImage(shape: GemWasmShape, atoms: GemAtoms, v: GemVertices, P: GemParams, region: GemRegion, salt: boolean, shared = true): GemWasmImage {
  const eb = shape.precision === 'f64' ? 8 : 4;
  const nvPad = Math.ceil(v.n / shape.K) * shape.K;
  const naPad = Math.ceil(atoms.n / 4) * 4;
  const ptrs: number[] = [];
  let o = 0;
  for (const name of ARRAYS) {
    ptrs.push(o);
    o += (((name.startsWith('a') ? naPad : nvPad) * eb + 15) & ~15);
  }
  const bytes = shared ? new SharedArrayBuffer(Math.max(o, 16)) : new ArrayBuffer(Math.max(o, 16));
  const view = (k: number, n: number): Float32Array | Float64Array =>
    shape.precision === 'f64' ? new Float64Array(bytes, ptrs[k]!, n) : new Float32Array(bytes, ptrs[k]!, n);
  [v.x, v.y, v.z, v.nx, v.ny, v.nz].forEach((src, k) => {
    const dst = view(k, nvPad);
    dst.set(src);
    if (v.n > 0) dst.fill(src[v.n - 1]!, v.n);
  });
  [atoms.x, atoms.y, atoms.z, atoms.q].forEach((src, k) => {
    const dst = view(6 + k, naPad);
    dst.set(src);
    dst.fill(k === 3 ? 0 : PAD_AT, atoms.n);
  });
  const c = gemWgslConstants(atoms, P, region, salt);
  const constants = [P.p, P.ionRadius, salt ? P.kappa : 0, c.g, c.h, c.kc, c.scale, c.phi0];
  return { bytes, ptrs, constants, nv: v.n, nvPad, naPad, precision: shape.precision };
}

/** A kernel instance with the image of one problem in its memory. */
export interface GemWasmInstance {
  /** Compute vertices [i0, i1) (a multiple of the unroll apart, or empty). */
  run(i0: number, i1: number): void;
  /** phi of vertices [i0, min(i1, nv)) into out at the same indices. */
  read(out: Float64Array, i0: number, i1: number): void;
}

/** The compiled module of a variant (cached per key); `bytes` replaces its binary (uncached: tests of the gate). */
export const gemWasmModule = wasmModule;

/** A fresh instance of `module` holding `img` (its memory grown to fit, the image copied in once). */
export async function gemWasmInstance(module: WebAssembly.Module, img: GemWasmImage): Promise<GemWasmInstance> {
  const inst = await WebAssembly.instantiate(module, {});
  const ex = inst.exports as { memory: WebAssembly.Memory; kernel: KernelFn };
  const need = Math.ceil(img.bytes.byteLength / PAGE);
  const have = ex.memory.buffer.byteLength / PAGE;
  if (need > have) ex.memory.grow(need - have);
  new Uint8Array(ex.memory.buffer).set(new Uint8Array(img.bytes));
  const phiP = img.ptrs[ARRAYS.length - 1]!;
  const Arr = img.precision === 'f64' ? Float64Array : Float32Array;
  return {
    run(i0, i1) {
      if (i1 > i0) ex.kernel(i0, i1, img.naPad, ...img.ptrs, ...img.constants);
    },
    read(out, i0, i1) {
      const end = Math.min(i1, img.nv);
      if (end > i0) out.set(new Arr(ex.memory.buffer, phiP, img.nvPad).subarray(i0, end), i0);
    },
  };
}

/** Arguments of the pool task `gem-wasm` (runtime/parallel/tasks.ts). */
export interface GemWasmTaskArgs {
  /** The problem's id: a worker copies the image in when it sees a new one. */
  id: string;
  module: WebAssembly.Module;
  image: GemWasmImage;
  i0: number;
  i1: number;
  /** Shared phi of every vertex; the task writes [i0, min(i1, nv)). */
  out: Float64Array;
}

/** The problem a worker holds (one at a time). */
let held: { id: string; inst: Promise<GemWasmInstance> } | undefined;

/** The pool task: compute one range of vertices in this worker's instance of the problem. */
export async function gemWasmTask(a: GemWasmTaskArgs): Promise<void> {
  if (held?.id !== a.id) held = { id: a.id, inst: gemWasmInstance(a.module, a.image) };
  const inst = await held.inst;
  inst.run(a.i0, a.i1);
  inst.read(a.out, a.i0, a.i1);
}

export interface GemWasmOptions extends GemRunOptions {
  /** Replace the variant's binary (tests of the verification gate). */
  bytes?: Uint8Array;
}

export interface PreparedGemWasm {
  /** Run the kernel once over every vertex; returns phi (widened to f64). */
  run(): Promise<Float64Array>;
  /** Close the worker pool this problem started (a pool passed in stays open). */
  destroy(): Promise<void>;
  params: GemParams;
  region: GemRegion;
  /** Threads the vertices are split over (1: this thread). */
  threads: number;
}

/** Lay out one problem for a wasm variant and load it into an instance (or every worker's). */
export async function prepareGemWasm(key: string, atoms: GemAtoms, v: GemVertices, opts: GemWasmOptions = {}): Promise<PreparedGemWasm> {
  const shape = await gemWasmShape(key);
  const info = await gemVariantInfo(key);
  const params = opts.params ?? gemParams(atoms, opts);
  checkVariant(key, info, params);
  const threads = opts.pool ? opts.pool.size : parseThreads(opts.threads ?? 1, 'threads');
  const img = gemWasmImage(shape, atoms, v, params, info.region, info.salt === 'nonzero', threads > 1);
  const module = opts.bytes ? await gemWasmModule(key, opts.bytes) : await backend('wasm').load(key);
  const base = { params, region: info.region, threads };
  if (threads === 1) {
    const inst = await gemWasmInstance(module, img);
    return {
      ...base,
      async run() {
        const out = new Float64Array(v.n);
        inst.run(0, img.nvPad);
        inst.read(out, 0, img.nvPad);
        return out;
      },
      async destroy() {},
    };
  }
  const own = opts.pool ? undefined : await Pool.create(threads);
  const pool = opts.pool ?? own!;
  const id = globalThis.crypto.randomUUID(); // Web Crypto: Node and browsers alike
  const out = new Float64Array(new SharedArrayBuffer(8 * Math.max(v.n, 1)), 0, v.n);
  const units = img.nvPad / shape.K;
  const parts = splitRange(units, pool.size).map(([a, b]) => [a * shape.K, b * shape.K] as const);
  const runParts = (load: boolean) =>
    pool.run(parts.map(([i0, i1]) => ({ task: 'gem-wasm', args: { id, module, image: img, i0, i1: load ? i0 : i1, out } as unknown as Record<string, unknown> })));
  try {
    await runParts(true); // every worker copies the image in now, outside the timed runs
  } catch (e) {
    await own?.close();
    throw e;
  }
  return {
    ...base,
    async run() {
      await runParts(false);
      return Float64Array.from(out);
    },
    async destroy() {
      await own?.close();
    },
  };
}

/** Run one wasm variant over all vertices and atoms (the wasm counterpart of runGem). */
export async function runGemWasm(key: string, atoms: GemAtoms, vertices: GemVertices, opts: GemWasmOptions = {}): Promise<GemRunResult> {
  const prep = await prepareGemWasm(key, atoms, vertices, opts);
  try {
    return { phi: await prep.run(), params: prep.params, region: prep.region };
  } finally {
    await prep.destroy();
  }
}
