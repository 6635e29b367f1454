// pme-mesh's WGSL runner: the atoms sorted by cell on the host (a counting sort; cellStart per
// cell), their fractions and charges in f32, then one shader in three modes: 0 the B-spline
// weights of every atom, 1 the spread (one invocation per `split` z grid points, gathering from
// the cells that reach them: no float atomics needed), 2 the gather (one invocation per atom).
// The f64 solve runs on the host between them (grid read back, phi written).
import { backend } from '../backends/registry.ts';
import { grid2d, readBack, mapReadBuffer, runPass, storage, uniform, bindBuffers } from '../backends/webgpu.ts';
import { variantParams } from '../variants.ts';
import { cellsAndFractions, meshShape, type Box3, type PreparedMesh } from './layout.ts';

/** Prepare a WGSL pme-mesh variant for a box, grid and n atoms (buffers allocated once; positions uploaded per spread). */
export async function prepareMeshWgsl(key: string, box: Box3, grid: readonly [number, number, number], n: number): Promise<PreparedMesh> {
  const s = await meshShape(key);
  const p = await variantParams(key);
  const wg = Number(p.workgroup);
  const split = Number(p.split);
  const [nx, ny, nz] = grid;
  const ncell = nx * ny * nz;
  const kinds = ['uniform', 'read-only-storage', 'read-only-storage', 'read-only-storage', 'storage', 'storage', 'storage'] as const;
  const { ctx, pipeline: pl } = await backend('wgsl').pipeline(key, [...kinds]);
  const { device } = ctx;
  const nzs = Math.ceil(nz / split);
  const stride = (groups: number): { g: { gx: number; gy: number }; stride: number } => {
    const g = grid2d(ctx, Math.max(1, groups));
    return { g, stride: g.gx * wg };
  };
  const atomsGrid = stride(Math.ceil(n / wg));
  const spreadGrid = stride(Math.ceil((nx * ny * nzs) / wg));
  const uni = (mode: number, st: number): GPUBuffer => {
    const b = new ArrayBuffer(48);
    new Uint32Array(b).set([n, nx, ny, nz, mode, st, nzs, 0]);
    new Float32Array(b).set([nx / box[0], ny / box[1], nz / box[2], 0], 8);
    return uniform(device, b);
  };
  const bufs = {
    u0: uni(0, atomsGrid.stride),
    u1: uni(1, spreadGrid.stride),
    u2: uni(2, atomsGrid.stride),
    atoms: storage(device, new Float32Array(4 * Math.max(n, 1))),
    cells: storage(device, new Uint32Array(4 * Math.max(n, 1))),
    cellStart: storage(device, new Uint32Array(ncell + 1)),
    grid: storage(device, new Float32Array(ncell), true),
    force: storage(device, new Float32Array(4 * Math.max(n, 1)), true),
    theta: storage(device, new Float32Array(3 * s.order * Math.max(n, 1)), true),
    // kept for the reads of every step: the spread grid and the gathered forces
    gridStaging: mapReadBuffer(device, ncell * 4),
    forceStaging: mapReadBuffer(device, 16 * Math.max(n, 1)),
  };
  const rest = [bufs.atoms, bufs.cells, bufs.cellStart, bufs.grid, bufs.force, bufs.theta];
  const binds = await Promise.all([bufs.u0, bufs.u1, bufs.u2].map((u) => bindBuffers(device, pl, [u, ...rest], key)));
  const cell = new Int32Array(3 * n);
  const frac = new Float64Array(3 * n);
  const sorted = new Int32Array(n);
  const atoms = new Float32Array(4 * n);
  const cellv = new Uint32Array(4 * n);
  const start = new Uint32Array(ncell + 1);
  return {
    async spread(x, q, out) {
      cellsAndFractions(x, box, grid, cell, frac);
      // counting sort by cell
      start.fill(0);
      const id = (i: number): number => (cell[3 * i]! * ny + cell[3 * i + 1]!) * nz + cell[3 * i + 2]!;
      for (let i = 0; i < n; i++) start[id(i) + 1]++;
      for (let c = 0; c < ncell; c++) start[c + 1] += start[c]!;
      const next = start.slice(0, ncell);
      for (let i = 0; i < n; i++) sorted[next[id(i)]!++] = i;
      for (let k = 0; k < n; k++) {
        const i = sorted[k]!;
        atoms.set([frac[3 * i]!, frac[3 * i + 1]!, frac[3 * i + 2]!, q[i]!], 4 * k);
        cellv.set([cell[3 * i]!, cell[3 * i + 1]!, cell[3 * i + 2]!, 0], 4 * k);
      }
      device.queue.writeBuffer(bufs.atoms, 0, atoms);
      device.queue.writeBuffer(bufs.cells, 0, cellv);
      device.queue.writeBuffer(bufs.cellStart, 0, start);
      await runPass(device, pl, binds[0]!, atomsGrid.g);
      await runPass(device, pl, binds[1]!, spreadGrid.g);
      const g = new Float32Array(await readBack(device, bufs.grid, ncell * 4, bufs.gridStaging));
      for (let c = 0; c < ncell; c++) out[c] = g[c]!;
    },
    async gather(phi, f) {
      device.queue.writeBuffer(bufs.grid, 0, Float32Array.from(phi));
      await runPass(device, pl, binds[2]!, atomsGrid.g);
      const fv = new Float32Array(await readBack(device, bufs.force, n * 16, bufs.forceStaging));
      for (let k = 0; k < n; k++) {
        const i = sorted[k]!;
        f[3 * i] += fv[4 * k]!;
        f[3 * i + 1] += fv[4 * k + 1]!;
        f[3 * i + 2] += fv[4 * k + 2]!;
      }
    },
    dispose() {
      Object.values(bufs).forEach((b) => b.destroy());
    },
    device: `WebGPU ${ctx.adapterName}`,
    precision: 'f32',
  };
}
