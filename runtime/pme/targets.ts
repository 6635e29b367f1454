// pme-mesh's runners, one per target, behind one interface (runtime/backends/table.ts): prepare
// lays out a box, grid and atom count for a variant; spread and gather then run its kernels (see
// mesh.ts PreparedMesh). The gate, createPmeMesh, the tuning family and the benchmark look a key's
// target up here. There are no gpu.js pme-mesh variants: that line answers with the error.
import { backend } from '../backends/registry.ts';
import { MissingRunnerError, TargetTable } from '../backends/table.ts';
import { cellsAndFractions, fold, meshShape, paddedDims, tileOrder, unfold, type Box3, type PreparedMesh } from './layout.ts';
import { WasmFftOps, WasmLineFft, realFft3dBytes, type WasmFftExports, type WasmFftOpExports } from './fft.ts';

/** pme-mesh's runner for one target. */
export interface PmeTargetRunner {
  /** Prepare variant `key` for a box (nm), a grid and n atoms. */
  prepare(key: string, box: Box3, grid: readonly [number, number, number], n: number): Promise<PreparedMesh>;
}

/** The argument object of the TypeScript kernels (generated/pme-mesh/ts/abi.ts PmeMeshArgs). */
interface TsArgs {
  n: number;
  order: Int32Array | null;
  cell: Int32Array;
  frac: Float64Array | Float32Array;
  q: Float64Array | Float32Array;
  dims: readonly [number, number, number];
  grid: Float64Array | Float32Array;
  f: Float64Array;
  scale: readonly [number, number, number];
}
interface TsModule {
  spread(a: TsArgs): void;
  gather(a: TsArgs): void;
}

/** TypeScript: the variant's module on this thread. */
const tsRunner: PmeTargetRunner = {
  async prepare(key, box, grid, n) {
    const s = await meshShape(key);
    const mod = (await backend('ts').load(key)) as TsModule;
    const Arr = s.precision === 'f64' ? Float64Array : Float32Array;
    const dims = paddedDims(grid, s.order);
    const a: TsArgs = {
      n,
      order: s.tile > 0 ? new Int32Array(n) : null,
      cell: new Int32Array(3 * n),
      frac: new Arr(3 * n),
      q: new Arr(n),
      dims,
      grid: new Arr(dims[0] * dims[1] * dims[2]),
      f: new Float64Array(0),
      scale: [grid[0] / box[0], grid[1] / box[1], grid[2] / box[2]],
    };
    return {
      spread(x, q, out) {
        cellsAndFractions(x, box, grid, a.cell, a.frac);
        a.q.set(q);
        if (a.order) tileOrder(a.cell, grid, s.tile, a.order);
        mod.spread(a);
        fold(a.grid, grid, s.order, out);
      },
      gather(phi, f) {
        unfold(phi, grid, s.order, a.grid);
        a.f = f;
        mod.gather(a);
        a.f = new Float64Array(0);
      },
      dispose() {},
      device: 'TypeScript (this process, one thread)',
      precision: s.precision,
    };
  },
};

interface WasmExports {
  memory: WebAssembly.Memory;
  spread(n: number, hasOrd: number, ordP: number, cellP: number, fracP: number, qP: number, gridP: number, py: number, pz: number, scratchP: number): void;
  gather(n: number, hasOrd: number, ordP: number, cellP: number, fracP: number, qP: number, phiP: number, fP: number, py: number, pz: number, sx: number, sy: number, sz: number, scratchP: number): void;
  /** layout.ts cellsAndFractions, fold and unfold on the module's memory (generator/families/pme-mesh.ts watGridOps). */
  cells(xP: number, n: number, cellP: number, fracP: number, lx: number, ly: number, lz: number, nx: number, ny: number, nz: number): void;
  fold(padP: number, gridP: number, nx: number, ny: number, nz: number, pz: number, p1: number): void;
  unfold(padP: number, gridP: number, nx: number, ny: number, nz: number, pz: number, p1: number): void;
}

/** WebAssembly SIMD: one instance whose memory holds the layout, the padded grid and the forces. */
const wasmRunner: PmeTargetRunner = {
  async prepare(key, box, grid, n) {
    const s = await meshShape(key);
    const module = (await backend('wasm').load(key)) as WebAssembly.Module;
    const inst = await WebAssembly.instantiate(module, {});
    const ex = inst.exports as unknown as WasmExports;
    const dims = paddedDims(grid, s.order);
    const cells = dims[0] * dims[1] * dims[2];
    const f32 = s.precision === 'f32';
    // byte layout, 16-byte aligned: scratch, ord, cell, frac, q, f, grid
    const al = (b: number): number => (b + 15) & ~15;
    const scratchP = 0;
    const ordP = al(scratchP + 32 * s.order);
    const cellP = al(ordP + 4 * n);
    const fracP = al(cellP + 12 * n);
    const qP = al(fracP + 24 * n);
    const fP = al(qP + 8 * n);
    const xP = al(fP + 24 * n);
    const gridP = al(xP + 24 * n);
    // then the FFT's work arrays and twiddles (RealFft3d on the module's SIMD passes), in the
    // variant's precision: an f32 variant's solve runs in f32, as GROMACS's mixed precision
    const bytes = f32 ? 4 : 8;
    const fftP = al(gridP + bytes * cells + 16);
    const end = fftP + realFft3dBytes(grid, bytes);
    const have = ex.memory.buffer.byteLength;
    if (end > have) ex.memory.grow(Math.ceil((end - have) / 65536));
    const buf = ex.memory.buffer;
    const ord = new Int32Array(buf, ordP, n);
    const cell = new Int32Array(buf, cellP, 3 * n);
    const frac = new Float64Array(buf, fracP, 3 * n);
    const qv = new Float64Array(buf, qP, n);
    const fv = new Float64Array(buf, fP, 3 * n);
    const xv = new Float64Array(buf, xP, 3 * n);
    const g = f32 ? new Float32Array(buf, gridP, cells) : new Float64Array(buf, gridP, cells);
    const hasOrd = s.tile > 0 ? 1 : 0;
    let top = fftP;
    const alloc = (length: number): Float64Array | Float32Array => {
      const off = top;
      top = al(top + bytes * length);
      if (top > ex.memory.buffer.byteLength) throw new Error(`pme-mesh ${key}: the FFT's arrays do not fit the memory reserved for them`);
      return f32 ? new Float32Array(ex.memory.buffer, off, length) : new Float64Array(ex.memory.buffer, off, length);
    };
    const fftExports = inst.exports as unknown as WasmFftExports;
    return {
      fft: { alloc, lines: (len: number) => new WasmLineFft(len, fftExports, ex.memory, alloc), ops: new WasmFftOps(inst.exports as unknown as WasmFftOpExports, ex.memory, bytes) },
      // the layout work runs in the module where the periodic grid is in its memory (prepareMesh
      // allocates it there: fft.alloc), in TypeScript otherwise; both give the same numbers
      spread(x, q, out) {
        xv.set(x);
        ex.cells(xP, n, cellP, fracP, box[0], box[1], box[2], grid[0], grid[1], grid[2]);
        qv.set(q);
        if (hasOrd) tileOrder(cell, grid, s.tile, ord);
        g.fill(0);
        ex.spread(n, hasOrd, ordP, cellP, fracP, qP, gridP, dims[1], dims[2], scratchP);
        if (out.buffer === ex.memory.buffer && out.BYTES_PER_ELEMENT === bytes) ex.fold(gridP, out.byteOffset, grid[0], grid[1], grid[2], dims[2], s.order - 1);
        else fold(g, grid, s.order, out);
      },
      gather(phi, f) {
        if (phi.buffer === ex.memory.buffer && phi.BYTES_PER_ELEMENT === bytes) ex.unfold(gridP, phi.byteOffset, grid[0], grid[1], grid[2], dims[2], s.order - 1);
        else unfold(phi, grid, s.order, g);
        fv.fill(0);
        ex.gather(n, hasOrd, ordP, cellP, fracP, qP, gridP, fP, dims[1], dims[2], grid[0] / box[0], grid[1] / box[1], grid[2] / box[2], scratchP);
        for (let i = 0; i < 3 * n; i++) f[i] += fv[i]!;
      },
      dispose() {},
      device: 'WebAssembly SIMD (this process, one thread)',
      precision: s.precision,
    };
  },
};

/** WGSL: the atoms sorted by cell on the host, three passes of one shader (runtime/pme/wgsl.ts). */
const wgslRunner: PmeTargetRunner = {
  async prepare(key, box, grid, n) {
    const { prepareMeshWgsl } = await import('./wgsl.ts');
    return prepareMeshWgsl(key, box, grid, n);
  },
};

/** gpu.js: pme-mesh has no gpu.js variants. */
const gpujsRunner: PmeTargetRunner = {
  prepare(key) {
    return Promise.reject(new MissingRunnerError(`pme-mesh has no gpujs variants (${key}); it has runners for ts, wasm, wgsl`));
  },
};

/** pme-mesh's runners by target, one line each. */
export const PME_TARGETS = new TargetTable<PmeTargetRunner>('pme-mesh', {
  ts: tsRunner,
  wasm: wasmRunner,
  wgsl: wgslRunner,
  gpujs: gpujsRunner,
});
