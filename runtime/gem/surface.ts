// Molecular surfaces for GEM when no MSMS .vert file is given: vertices with outward unit normals
// on the solvent-excluded (SES, default) or solvent-accessible (SAS) surface of the atoms.
//
// Algorithm (all steps linear in the atoms, the grid and the surface points):
//  1. A regular grid of spacing h covers the atoms: h = min(1 A, L), L = sqrt(C / density) with
//     C = SURFACE_VERTEX_CONSTANT measured on the bundled molecules (see step 5).
//  2. Union field: G(x) = max_i (R_i - |x - c_i|) with R_i = r_i + probe (the inflated spheres),
//     splatted from each atom onto the grid points within R_i + h (the grid holds the arg max).
//     G > 0 is the probe-excluded volume; its zero set is the SAS. A flood fill from the grid's
//     border through G <= 0 marks the exterior; unreached G <= 0 points are internal cavities and
//     count as inside, so (as MSMS does by default) only the outer surface is built.
//  3. SAS: marching tetrahedra (the 6-tetrahedra Kuhn split of each grid cube, consistent across
//     neighbouring cubes, so the mesh is closed) on G; every vertex is projected onto the sphere
//     of its owning atom (the arg max of G at the edge's ends), normal = radial direction.
//  4. SES: Shrake-Rupley points (Fibonacci spirals, spacing <= 0.5 A) on every inflated sphere;
//     a point inside another inflated sphere is buried (a neighbour list and the last burying
//     neighbour as a first guess keep this near linear); points next to a cavity grid point are
//     dropped. The kept points sample the boundary of the accessible probe centres. The SES is
//     {x : dist(x, accessible probe centres) = probe}: F(x) = dist(x, nearest kept point) - probe
//     is splatted onto the inside grid points within probe + h of each point (the grid holds the
//     nearest point), and marching tetrahedra on F gives the surface, reentrant patches included.
//     Each vertex x is projected onto the probe sphere of its nearest probe centre s:
//     x' = s + probe (x - s)/|x - s|, and its outward normal is (s - x')/probe, exact for the
//     probe that touches there.
//     probe = 0 makes the SES the van der Waals surface: step 3 with R_i = r_i.
//  5. Marching tetrahedra gives ~4.4/h^2 vertices per A^2, unevenly. They are clustered on a grid
//     of cell L (per dominant normal direction, so both sides of a thin part stay apart): each
//     cluster keeps its member nearest the members' centre (exact position and normal) and their
//     summed areas. About C/L^2 = density vertices per A^2 remain (3.2-3.6 asked 3 on the samples).
// Approximations: probe centres are sampled (spacing <= 0.5 A), so the reentrant surface, where
// the nearest probe centre lies on an arc or corner of the SAS, can be off by about
// spacing^2/(8 probe) (~0.02 A); accessible channels narrower than the grid and cavities smaller
// than a grid cell may be classified wrongly; marching tetrahedra places vertices unevenly (some
// close pairs), so the per-vertex areas vary. Per-vertex areas are a third of the adjacent
// triangles' areas (after projection); the total is the mesh area.


import { GemInputError, type GemAtoms, type GemVertices } from './io.ts';
import { writeFileAtomic } from '../files.ts';
import { checkMemory, memoryLimit, surfaceMemory } from '../limits.ts';

export type SurfaceKind = 'ses' | 'sas';

export interface SurfaceOptions {
  /** Surface type (default 'ses'). */
  kind?: SurfaceKind;
  /** Probe radius (Angstrom, default 1.4). */
  probe?: number;
  /** Vertices per A^2 (default 3, as the bundled MSMS files). */
  density?: number;
  /**
   * Memory limit (bytes, or a size such as '4G'); default: half of the machine's memory
   * (runtime/limits.ts). A surface whose grid and mesh estimate is above it is refused before the
   * grid is allocated (ResourceLimitError).
   */
  maxMemory?: number | string;
}

/** A generated surface: vertices with unit outward normals, the triangles and per-vertex areas. */
export interface GemSurface extends GemVertices {
  kind: SurfaceKind;
  probe: number;
  density: number;
  /** Grid spacing used (Angstrom). */
  gridSpacing: number;
  /** Triangles, three vertex indices each, counter-clockwise seen from outside. */
  triangles: Uint32Array;
  /** Area attributed to each vertex (a third of its triangles), A^2. */
  area: Float64Array;
  /** Mesh area, A^2. */
  totalArea: number;
  /** Nearest atom of each vertex (0-based): the atom whose sphere or probe contact made it. */
  atom: Int32Array;
  /** 1: on an atom's (inflated for SAS) sphere; 2: reentrant (probe surface, SES only). */
  type: Uint8Array;
  /** Probe centres kept for the SES (0 for SAS). */
  probePoints: number;
  /** Generation time (s). */
  seconds: number;
  /** Seconds per stage (grid, accessible points, field, marching, areas, clustering). */
  stages: Record<string, number>;
}

export const DEFAULT_PROBE = 1.4;
/** The bundled MSMS files were made with density 3.0 (their third header line). */
export const DEFAULT_DENSITY = 3.0;
/**
 * Vertices per A^2 times h^2 for marching tetrahedra on these fields, measured on Mb.Hhelix and
 * 1uwo_A (SES, probe 1.5): the grid spacing for a density is sqrt(this / density).
 */
export const SURFACE_VERTEX_CONSTANT = 1.45;
/** The marching grid is never coarser than this (A), whatever the density. */
export const MAX_GRID_SPACING = 1.0;
/**
 * Largest grid the generator can index (points: Int32 flood-fill queue); the memory limit
 * (runtime/limits.ts surfaceMemory) refuses grids long before this on most machines.
 */
export const MAX_GRID_POINTS = 2 ** 31 - 1;

const BIG = 1e6;

/** Check the options; GemInputError names the bad one. */
export function surfaceOptions(o: SurfaceOptions = {}): Required<Omit<SurfaceOptions, 'maxMemory'>> {
  const kind = o.kind ?? 'ses';
  if (kind !== 'ses' && kind !== 'sas') throw new GemInputError(`surface must be "ses" or "sas", got "${String(kind)}"`);
  const probe = o.probe ?? DEFAULT_PROBE;
  if (!(Number.isFinite(probe) && probe >= 0)) throw new GemInputError(`probe radius must be a number >= 0 (Angstrom), got ${probe}`);
  if (probe > 20) throw new GemInputError(`probe radius ${probe} Angstrom is implausibly large (at most 20)`);
  const density = o.density ?? DEFAULT_DENSITY;
  if (!(Number.isFinite(density) && density > 0)) throw new GemInputError(`density must be a positive number (vertices per A^2), got ${density}`);
  if (density > 100) throw new GemInputError(`density ${density} vertices per A^2 is too fine (at most 100)`);
  return { kind, probe, density };
}

/** Unit Fibonacci-spiral points, cached by count. */
const spheres = new Map<number, Float64Array>();
function unitSphere(n: number): Float64Array {
  let s = spheres.get(n);
  if (s) return s;
  s = new Float64Array(3 * n);
  const golden = Math.PI * (3 - Math.sqrt(5));
  for (let k = 0; k < n; k++) {
    const z = 1 - (2 * k + 1) / n;
    const rho = Math.sqrt(Math.max(0, 1 - z * z));
    s[3 * k] = rho * Math.cos(k * golden);
    s[3 * k + 1] = rho * Math.sin(k * golden);
    s[3 * k + 2] = z;
  }
  spheres.set(n, s);
  return s;
}

/** Neighbour lists (CSR) of the spheres that overlap: |c_i - c_j| < R_i + R_j. */
function overlapLists(a: GemAtoms, R: Float64Array): { start: Int32Array; list: Int32Array } {
  let rmax = 0;
  for (let i = 0; i < a.n; i++) rmax = Math.max(rmax, R[i]!);
  const cell = Math.max(2 * rmax, 1e-6);
  let x0 = Infinity, y0 = Infinity, z0 = Infinity;
  for (let i = 0; i < a.n; i++) {
    x0 = Math.min(x0, a.x[i]!);
    y0 = Math.min(y0, a.y[i]!);
    z0 = Math.min(z0, a.z[i]!);
  }
  const ci = new Int32Array(3 * a.n);
  let mx = 0, my = 0, mz = 0;
  for (let i = 0; i < a.n; i++) {
    ci[3 * i] = Math.floor((a.x[i]! - x0) / cell);
    ci[3 * i + 1] = Math.floor((a.y[i]! - y0) / cell);
    ci[3 * i + 2] = Math.floor((a.z[i]! - z0) / cell);
    mx = Math.max(mx, ci[3 * i]! + 1);
    my = Math.max(my, ci[3 * i + 1]! + 1);
    mz = Math.max(mz, ci[3 * i + 2]! + 1);
  }
  const cells = new Map<number, number[]>();
  const key = (x: number, y: number, z: number) => x + mx * (y + my * z);
  for (let i = 0; i < a.n; i++) {
    const k = key(ci[3 * i]!, ci[3 * i + 1]!, ci[3 * i + 2]!);
    const c = cells.get(k);
    if (c) c.push(i);
    else cells.set(k, [i]);
  }
  const start = new Int32Array(a.n + 1);
  const out: number[] = [];
  for (let i = 0; i < a.n; i++) {
    start[i] = out.length;
    const [cx, cy, cz] = [ci[3 * i]!, ci[3 * i + 1]!, ci[3 * i + 2]!];
    for (let dz = -1; dz <= 1; dz++) for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) {
      const x = cx + dx, y = cy + dy, z = cz + dz;
      if (x < 0 || y < 0 || z < 0 || x >= mx || y >= my || z >= mz) continue;
      const c = cells.get(key(x, y, z));
      if (!c) continue;
      for (const j of c) {
        if (j === i) continue;
        const d2 = (a.x[i]! - a.x[j]!) ** 2 + (a.y[i]! - a.y[j]!) ** 2 + (a.z[i]! - a.z[j]!) ** 2;
        if (d2 < (R[i]! + R[j]!) ** 2) out.push(j);
      }
    }
  }
  start[a.n] = out.length;
  return { start, list: Int32Array.from(out) };
}

interface Grid {
  nx: number;
  ny: number;
  nz: number;
  x0: number;
  y0: number;
  z0: number;
  h: number;
}

/** Splat the union field G = max(R_i - |x - c_i|) (arg max in `own`) onto the grid. */
function unionField(a: GemAtoms, R: Float64Array, g: Grid, G: Float32Array, own: Int32Array): void {
  const { nx, ny, h } = g;
  G.fill(-BIG);
  own.fill(-1);
  for (let i = 0; i < a.n; i++) {
    const cx = a.x[i]!, cy = a.y[i]!, cz = a.z[i]!, Ri = R[i]!;
    const reach = Ri + h;
    const ix0 = Math.max(0, Math.ceil((cx - reach - g.x0) / h)), ix1 = Math.min(g.nx - 1, Math.floor((cx + reach - g.x0) / h));
    const iy0 = Math.max(0, Math.ceil((cy - reach - g.y0) / h)), iy1 = Math.min(g.ny - 1, Math.floor((cy + reach - g.y0) / h));
    const iz0 = Math.max(0, Math.ceil((cz - reach - g.z0) / h)), iz1 = Math.min(g.nz - 1, Math.floor((cz + reach - g.z0) / h));
    const r2 = reach * reach;
    for (let iz = iz0; iz <= iz1; iz++) {
      const dz = g.z0 + iz * h - cz;
      for (let iy = iy0; iy <= iy1; iy++) {
        const dy = g.y0 + iy * h - cy;
        const dyz = dy * dy + dz * dz;
        if (dyz > r2) continue;
        let p = ix0 + nx * (iy + ny * iz);
        for (let ix = ix0; ix <= ix1; ix++, p++) {
          const dx = g.x0 + ix * h - cx;
          const d2 = dx * dx + dyz;
          if (d2 > r2) continue;
          const v = Ri - Math.sqrt(d2);
          if (v > G[p]!) {
            G[p] = v;
            own[p] = i;
          }
        }
      }
    }
  }
}

/** Flags: bit 0 inside (G > 0 or cavity), bit 1 exterior (reached from the border through G <= 0). */
function classify(g: Grid, G: Float32Array): Uint8Array {
  const { nx, ny, nz } = g;
  const N = nx * ny * nz;
  const flag = new Uint8Array(N);
  const queue = new Int32Array(N);
  let head = 0, tail = 0;
  const push = (p: number) => {
    if (flag[p] === 0 && !(G[p]! > 0)) {
      flag[p] = 2;
      queue[tail++] = p;
    }
  };
  for (let iz = 0; iz < nz; iz++) for (let iy = 0; iy < ny; iy++) for (let ix = 0; ix < nx; ix++) {
    if (ix === 0 || iy === 0 || iz === 0 || ix === nx - 1 || iy === ny - 1 || iz === nz - 1) push(ix + nx * (iy + ny * iz));
  }
  const sy = nx, sz = nx * ny;
  while (head < tail) {
    const p = queue[head++]!;
    const ix = p % nx, iy = Math.floor(p / nx) % ny, iz = Math.floor(p / sz);
    if (ix > 0) push(p - 1);
    if (ix < nx - 1) push(p + 1);
    if (iy > 0) push(p - sy);
    if (iy < ny - 1) push(p + sy);
    if (iz > 0) push(p - sz);
    if (iz < nz - 1) push(p + sz);
  }
  for (let p = 0; p < N; p++) if (flag[p] === 0) flag[p] = 1; // inside or cavity
  return flag;
}

/** Exposed Shrake-Rupley points of the inflated spheres that face the exterior; xyz and owning atom. */
function accessiblePoints(a: GemAtoms, R: Float64Array, g: Grid, flag: Uint8Array, spacing: number): { p: Float64Array; atom: Int32Array } {
  const { start, list } = overlapLists(a, R);
  const R2 = Float64Array.from(R, (r) => r * r * (1 - 1e-12));
  const pts: number[] = [];
  const owner: number[] = [];
  const { nx, ny, nz, h } = g;
  const exteriorNear = (x: number, y: number, z: number): boolean => {
    const fx = (x - g.x0) / h, fy = (y - g.y0) / h, fz = (z - g.z0) / h;
    const ix = Math.floor(fx), iy = Math.floor(fy), iz = Math.floor(fz);
    for (let w = 1; w <= 2; w++) {
      // the cell's corners first (w = 1: offsets 0..1), then one more layer around it
      const lo = w === 1 ? 0 : -1, hi = w === 1 ? 1 : 2;
      for (let dz = lo; dz <= hi; dz++) for (let dy = lo; dy <= hi; dy++) for (let dx = lo; dx <= hi; dx++) {
        const X = ix + dx, Y = iy + dy, Z = iz + dz;
        if (X < 0 || Y < 0 || Z < 0 || X >= nx || Y >= ny || Z >= nz) continue;
        if (flag[X + nx * (Y + ny * Z)] === 2) return true;
      }
    }
    return false;
  };
  for (let i = 0; i < a.n; i++) {
    const Ri = R[i]!;
    if (!(Ri > 0)) continue;
    const n = Math.max(12, Math.ceil((4 * Math.PI * Ri * Ri) / (spacing * spacing)));
    const u = unitSphere(n);
    let last = -1;
    const ax = a.x[i]!, ay = a.y[i]!, az = a.z[i]!;
    const j0 = start[i]!, j1 = start[i + 1]!;
    for (let k = 0; k < n; k++) {
      const x = ax + Ri * u[3 * k]!, y = ay + Ri * u[3 * k + 1]!, z = az + Ri * u[3 * k + 2]!;
      if (last >= 0) {
        const dx = x - a.x[last]!, dy = y - a.y[last]!, dz = z - a.z[last]!;
        if (dx * dx + dy * dy + dz * dz < R2[last]!) continue;
      }
      let buried = false;
      for (let t = j0; t < j1; t++) {
        const j = list[t]!;
        const dx = x - a.x[j]!, dy = y - a.y[j]!, dz = z - a.z[j]!;
        if (dx * dx + dy * dy + dz * dz < R2[j]!) {
          last = j;
          buried = true;
          break;
        }
      }
      if (buried || !exteriorNear(x, y, z)) continue;
      pts.push(x, y, z);
      owner.push(i);
    }
  }
  return { p: Float64Array.from(pts), atom: Int32Array.from(owner) };
}

/** Nearest of the points P (xyz) within `reach` of a query (-1 if none), through a cell list. */
function pointLocator(P: Float64Array, reach: number): (x: number, y: number, z: number, seed: number) => number {
  const m = P.length / 3;
  const c = 0.75;
  let x0 = Infinity, y0 = Infinity, z0 = Infinity, x1 = -Infinity, y1 = -Infinity, z1 = -Infinity;
  for (let s = 0; s < m; s++) {
    x0 = Math.min(x0, P[3 * s]!); x1 = Math.max(x1, P[3 * s]!);
    y0 = Math.min(y0, P[3 * s + 1]!); y1 = Math.max(y1, P[3 * s + 1]!);
    z0 = Math.min(z0, P[3 * s + 2]!); z1 = Math.max(z1, P[3 * s + 2]!);
  }
  const nx = Math.floor((x1 - x0) / c) + 1, ny = Math.floor((y1 - y0) / c) + 1, nz = Math.floor((z1 - z0) / c) + 1;
  const cellOf = new Int32Array(m);
  const count = new Int32Array(nx * ny * nz + 1);
  for (let s = 0; s < m; s++) {
    const k = Math.floor((P[3 * s]! - x0) / c) + nx * (Math.floor((P[3 * s + 1]! - y0) / c) + ny * Math.floor((P[3 * s + 2]! - z0) / c));
    cellOf[s] = k;
    count[k + 1]!++;
  }
  for (let k = 0; k < nx * ny * nz; k++) count[k + 1]! += count[k]!;
  const fill = count.slice(0, -1);
  const items = new Int32Array(m);
  for (let s = 0; s < m; s++) items[fill[cellOf[s]!]!++] = s;
  const wmax = Math.ceil(reach / c);
  // seed: a point known to be near (or -1); its distance bounds the search
  return (x, y, z, seed) => {
    const cx = Math.floor((x - x0) / c), cy = Math.floor((y - y0) / c), cz = Math.floor((z - z0) / c);
    let best = -1, bd2 = reach * reach;
    if (seed >= 0) {
      const d2 = (x - P[3 * seed]!) ** 2 + (y - P[3 * seed + 1]!) ** 2 + (z - P[3 * seed + 2]!) ** 2;
      if (d2 < bd2) {
        best = seed;
        bd2 = d2 * (1 + 1e-12);
      }
    }
    const w = Math.min(wmax, Math.ceil(Math.sqrt(bd2) / c));
    for (let k = Math.max(0, cz - w); k <= Math.min(nz - 1, cz + w); k++) {
      const gz = Math.max(0, z0 + k * c - z, z - (z0 + (k + 1) * c));
      for (let j = Math.max(0, cy - w); j <= Math.min(ny - 1, cy + w); j++) {
        const gy = Math.max(0, y0 + j * c - y, y - (y0 + (j + 1) * c));
        if (gy * gy + gz * gz >= bd2) continue;
        for (let i = Math.max(0, cx - w); i <= Math.min(nx - 1, cx + w); i++) {
          const gx = Math.max(0, x0 + i * c - x, x - (x0 + (i + 1) * c));
          if (gx * gx + gy * gy + gz * gz >= bd2) continue;
          const cell = i + nx * (j + ny * k);
          for (let t = count[cell]!; t < count[cell + 1]!; t++) {
            const s = items[t]!;
            const d2 = (x - P[3 * s]!) ** 2 + (y - P[3 * s + 1]!) ** 2 + (z - P[3 * s + 2]!) ** 2;
            if (d2 < bd2) {
              bd2 = d2;
              best = s;
            }
          }
        }
      }
    }
    return best;
  };
}

/** Splat F = dist(x, nearest accessible point) - probe onto the inside grid points within probe + h. */
function sesField(g: Grid, flag: Uint8Array, probe: number, P: Float64Array, F: Float32Array, own: Int32Array): void {
  const { nx, ny, h } = g;
  F.fill(BIG);
  own.fill(-1);
  for (let p = 0; p < F.length; p++) if (flag[p] === 2) F[p] = -probe;
  const reach = probe + h * 1.01;
  const r2 = reach * reach;
  const m = P.length / 3;
  for (let s = 0; s < m; s++) {
    const sx = P[3 * s]!, sy = P[3 * s + 1]!, sz = P[3 * s + 2]!;
    const ix0 = Math.max(0, Math.ceil((sx - reach - g.x0) / h)), ix1 = Math.min(g.nx - 1, Math.floor((sx + reach - g.x0) / h));
    const iy0 = Math.max(0, Math.ceil((sy - reach - g.y0) / h)), iy1 = Math.min(g.ny - 1, Math.floor((sy + reach - g.y0) / h));
    const iz0 = Math.max(0, Math.ceil((sz - reach - g.z0) / h)), iz1 = Math.min(g.nz - 1, Math.floor((sz + reach - g.z0) / h));
    for (let iz = iz0; iz <= iz1; iz++) {
      const dz = g.z0 + iz * h - sz;
      for (let iy = iy0; iy <= iy1; iy++) {
        const dy = g.y0 + iy * h - sy;
        const dyz = dy * dy + dz * dz;
        if (dyz > r2) continue;
        let p = ix0 + nx * (iy + ny * iz);
        for (let ix = ix0; ix <= ix1; ix++, p++) {
          if (flag[p] !== 1) continue;
          const dx = g.x0 + ix * h - sx;
          const d2 = dx * dx + dyz;
          if (d2 > r2) continue;
          const v = Math.sqrt(d2) - probe;
          if (v < F[p]!) {
            F[p] = v;
            own[p] = s;
          }
        }
      }
    }
  }
}

/** The 6 Kuhn tetrahedra of a cube, as corner bit masks (x = 1, y = 2, z = 4) along monotone paths 0 -> 7. */
const TETS: number[][] = [
  [1, 2, 4], [1, 4, 2], [2, 1, 4], [2, 4, 1], [4, 1, 2], [4, 2, 1],
].map(([a, b]) => [0, a!, a! | b!, 7]);

type Project = (x: number, y: number, z: number, ownA: number, ownB: number, out: Float64Array) => boolean;

interface Mesh {
  pos: Float64Array;
  nrm: Float64Array;
  hasNormal: Uint8Array;
  atom: Int32Array;
  tri: Uint32Array;
}

/**
 * Marching tetrahedra on field V (inside: V > 0). Each vertex on an edge is interpolated linearly
 * and handed to `project` with the two ends' owners; project writes x y z nx ny nz atom into out.
 */
function marchingTets(g: Grid, V: Float32Array, own: Int32Array, project: Project): Mesh {
  const { nx, ny, nz, h } = g;
  const N = nx * ny * nz;
  const sign = new Uint8Array(N);
  for (let p = 0; p < N; p++) sign[p] = V[p]! > 0 ? 1 : 0;
  const off = Array.from({ length: 8 }, (_, m) => (m & 1) + nx * (((m >> 1) & 1) + ny * ((m >> 2) & 1)));
  const ids = new Map<number, number>();
  let pos = new Float64Array(3 * 4096), nrm = new Float64Array(3 * 4096), hasN = new Uint8Array(4096), atomOf = new Int32Array(4096);
  let nv = 0;
  let tri = new Uint32Array(3 * 8192);
  let nt = 0;
  const out = new Float64Array(7);
  const vertex = (pa: number, pb: number, ma: number, mb: number): number => {
    // edge from grid point pa (corner mask ma) to pb (mb, a superset of ma's bits)
    const key = pa * 8 + (ma ^ mb);
    const got = ids.get(key);
    if (got !== undefined) return got;
    const va = V[pa]!, vb = V[pb]!;
    const t = va / (va - vb);
    const ax = pa % nx, ay = Math.floor(pa / nx) % ny, az = Math.floor(pa / (nx * ny));
    const d = ma ^ mb;
    const x = g.x0 + (ax + t * (d & 1)) * h, y = g.y0 + (ay + t * ((d >> 1) & 1)) * h, z = g.z0 + (az + t * ((d >> 2) & 1)) * h;
    if (nv === atomOf.length) {
      const grow = <T extends Float64Array | Uint8Array | Int32Array>(arr: T, k: number): T => {
        const n2 = new (arr.constructor as new (n: number) => T)(arr.length * 2);
        n2.set(arr);
        void k;
        return n2;
      };
      pos = grow(pos, 3);
      nrm = grow(nrm, 3);
      hasN = grow(hasN, 1);
      atomOf = grow(atomOf, 1);
    }
    const ok = project(x, y, z, own[pa]!, own[pb]!, out);
    pos[3 * nv] = ok ? out[0]! : x;
    pos[3 * nv + 1] = ok ? out[1]! : y;
    pos[3 * nv + 2] = ok ? out[2]! : z;
    if (ok) {
      nrm[3 * nv] = out[3]!;
      nrm[3 * nv + 1] = out[4]!;
      nrm[3 * nv + 2] = out[5]!;
      hasN[nv] = 1;
      atomOf[nv] = out[6]!;
    } else atomOf[nv] = -1;
    ids.set(key, nv);
    return nv++;
  };
  // the midpoint (in cube units, doubled) of the edge between corner masks m and n, per axis
  const mid = (m: number, n: number, axis: number) => ((m >> axis) & 1) + ((n >> axis) & 1);
  const emit = (v0: number, v1: number, v2: number, e0: number, e1: number, e2: number, ox: number, oy: number, oz: number): void => {
    // orient so that the normal points along (ox, oy, oz) (inside -> outside), decided on the edges' midpoints:
    // combinatorial, so neighbouring tetrahedra agree whatever the interpolated or projected positions are.
    // e = corner mask pair k * 8 + l
    const p = (e: number, axis: number) => mid(e >> 3, e & 7, axis);
    const ax = p(e1, 0) - p(e0, 0), ay = p(e1, 1) - p(e0, 1), az = p(e1, 2) - p(e0, 2);
    const bx = p(e2, 0) - p(e0, 0), by = p(e2, 1) - p(e0, 1), bz = p(e2, 2) - p(e0, 2);
    const cx = ay * bz - az * by, cy = az * bx - ax * bz, cz = ax * by - ay * bx;
    if (nt * 3 + 3 > tri.length) {
      const t2 = new Uint32Array(tri.length * 2);
      t2.set(tri);
      tri = t2;
    }
    const flip = cx * ox + cy * oy + cz * oz < 0;
    tri[3 * nt] = v0;
    tri[3 * nt + 1] = flip ? v2 : v1;
    tri[3 * nt + 2] = flip ? v1 : v2;
    nt++;
  };
  const P = [0, 0, 0, 0], M = [0, 0, 0, 0];
  const inn: number[] = [], outv: number[] = [];
  for (let iz = 0; iz < nz - 1; iz++) for (let iy = 0; iy < ny - 1; iy++) {
    let base = nx * (iy + ny * iz);
    for (let ix = 0; ix < nx - 1; ix++, base++) {
      let s = 0;
      for (let m = 0; m < 8; m++) s += sign[base + off[m]!]!;
      if (s === 0 || s === 8) continue;
      for (const tet of TETS) {
        inn.length = 0;
        outv.length = 0;
        for (let k = 0; k < 4; k++) {
          M[k] = tet[k]!;
          P[k] = base + off[tet[k]!]!;
          (sign[P[k]!] ? inn : outv).push(k);
        }
        if (inn.length === 0 || outv.length === 0) continue;
        // direction inside -> outside from the corner masks (grid units)
        let ox = 0, oy = 0, oz = 0;
        for (const k of outv) {
          ox += (M[k]! & 1) / outv.length;
          oy += ((M[k]! >> 1) & 1) / outv.length;
          oz += ((M[k]! >> 2) & 1) / outv.length;
        }
        for (const k of inn) {
          ox -= (M[k]! & 1) / inn.length;
          oy -= ((M[k]! >> 1) & 1) / inn.length;
          oz -= ((M[k]! >> 2) & 1) / inn.length;
        }
        // an edge's vertex: lower corner first (tetrahedron corners are in path order, so k < l means M[k] within M[l])
        const ev = (k: number, l: number) => (k < l ? vertex(P[k]!, P[l]!, M[k]!, M[l]!) : vertex(P[l]!, P[k]!, M[l]!, M[k]!));
        const em = (k: number, l: number) => M[k]! * 8 + M[l]!;
        if (inn.length === 1 || outv.length === 1) {
          const lone = inn.length === 1 ? inn[0]! : outv[0]!;
          const others = inn.length === 1 ? outv : inn;
          const [o0, o1, o2] = others as [number, number, number];
          emit(ev(lone, o0), ev(lone, o1), ev(lone, o2), em(lone, o0), em(lone, o1), em(lone, o2), ox, oy, oz);
        } else {
          const [a, b] = inn as [number, number];
          const [c, d] = outv as [number, number];
          const ac = ev(a, c), ad = ev(a, d), bd = ev(b, d), bc = ev(b, c);
          emit(ac, ad, bd, em(a, c), em(a, d), em(b, d), ox, oy, oz);
          emit(ac, bd, bc, em(a, c), em(b, d), em(b, c), ox, oy, oz);
        }
      }
    }
  }
  return { pos: pos.slice(0, 3 * nv), nrm: nrm.slice(0, 3 * nv), hasNormal: hasN.slice(0, nv), atom: atomOf.slice(0, nv), tri: tri.slice(0, 3 * nt) };
}

/** The cluster cell and the marching grid spacing for a density (A). */
export function surfaceSpacings(density: number): { cell: number; h: number } {
  const cell = Math.sqrt(SURFACE_VERTEX_CONSTANT / density);
  return { cell, h: Math.min(MAX_GRID_SPACING, cell) };
}

/**
 * Generate the SES or SAS of the atoms (see the file header for the method): the marching
 * tetrahedra mesh, then its vertices clustered to the requested density.
 */
export function generateSurface(atoms: GemAtoms, opts: SurfaceOptions = {}): GemSurface {
  const t0 = performance.now();
  const o = surfaceOptions(opts);
  const { cell, h } = surfaceSpacings(o.density);
  const m = surfaceMesh(atoms, { ...o, maxMemory: opts.maxMemory }, h);
  const t1 = performance.now();
  const s = clusterSurface(m, cell);
  s.stages = { ...m.stages, cluster: (performance.now() - t1) / 1000 };
  s.seconds = (performance.now() - t0) / 1000;
  return s;
}

/**
 * Cluster a mesh's vertices on a grid of `cell` A (separately per dominant normal direction, so
 * that the two sides of a thin part stay apart): each cluster keeps the member nearest to the
 * members' area-weighted centre, with its exact position and normal, and the members' total area.
 * The total area is unchanged; the triangles are dropped.
 */
export function clusterSurface(m: GemSurface, cell: number): GemSurface {
  const ids = new Map<number, number>();
  const of = new Int32Array(m.n);
  const cx: number[] = [], cy: number[] = [], cz: number[] = [], ca: number[] = [];
  let x0 = Infinity, y0 = Infinity, z0 = Infinity;
  for (let i = 0; i < m.n; i++) {
    x0 = Math.min(x0, m.x[i]!);
    y0 = Math.min(y0, m.y[i]!);
    z0 = Math.min(z0, m.z[i]!);
  }
  const K = 1 << 14;
  for (let i = 0; i < m.n; i++) {
    const ax = Math.abs(m.nx[i]!), ay = Math.abs(m.ny[i]!), az = Math.abs(m.nz[i]!);
    const bin = ax >= ay && ax >= az ? (m.nx[i]! > 0 ? 0 : 1) : ay >= az ? (m.ny[i]! > 0 ? 2 : 3) : m.nz[i]! > 0 ? 4 : 5;
    const key = ((Math.floor((m.x[i]! - x0) / cell) * K + Math.floor((m.y[i]! - y0) / cell)) * K + Math.floor((m.z[i]! - z0) / cell)) * 6 + bin;
    let c = ids.get(key);
    if (c === undefined) {
      c = ca.length;
      ids.set(key, c);
      cx.push(0); cy.push(0); cz.push(0); ca.push(0);
    }
    of[i] = c;
    const w = m.area[i]! + 1e-12;
    cx[c]! += w * m.x[i]!;
    cy[c]! += w * m.y[i]!;
    cz[c]! += w * m.z[i]!;
    ca[c]! += w;
  }
  const k = ca.length;
  const pick = new Int32Array(k).fill(-1);
  const pd = new Float64Array(k).fill(Infinity);
  for (let i = 0; i < m.n; i++) {
    const c = of[i]!;
    const d = (m.x[i]! - cx[c]! / ca[c]!) ** 2 + (m.y[i]! - cy[c]! / ca[c]!) ** 2 + (m.z[i]! - cz[c]! / ca[c]!) ** 2;
    if (d < pd[c]!) {
      pd[c] = d;
      pick[c] = i;
    }
  }
  const take = <T extends Float64Array | Int32Array | Uint8Array>(a: T): T => {
    const r = new (a.constructor as new (n: number) => T)(k);
    for (let c = 0; c < k; c++) r[c] = a[pick[c]!]!;
    return r;
  };
  const area = new Float64Array(k);
  for (let i = 0; i < m.n; i++) area[of[i]!] += m.area[i]!;
  return {
    ...m, n: k, x: take(m.x), y: take(m.y), z: take(m.z), nx: take(m.nx), ny: take(m.ny), nz: take(m.nz),
    atom: take(m.atom), type: take(m.type), area, triangles: new Uint32Array(0),
  };
}

/** The marching tetrahedra mesh of the SES or SAS on a grid of spacing h (every vertex, with triangles). */
export function surfaceMesh(atoms: GemAtoms, opts: SurfaceOptions, h: number): GemSurface {
  const t0 = performance.now();
  const { kind, probe, density } = surfaceOptions(opts);
  if (atoms.n === 0) throw new GemInputError('no atoms to build a surface around');
  // SAS: spheres r + probe; SES: r + probe for the accessible points, but with probe 0 it is the vdW surface
  const R = Float64Array.from(atoms.r, (r) => r + probe);
  let rmax = 0;
  for (let i = 0; i < atoms.n; i++) rmax = Math.max(rmax, R[i]!);
  if (!(rmax > 0)) throw new GemInputError('every atom has radius 0 and the probe is 0: there is no surface');
  let x0 = Infinity, y0 = Infinity, z0 = Infinity, x1 = -Infinity, y1 = -Infinity, z1 = -Infinity;
  for (let i = 0; i < atoms.n; i++) {
    x0 = Math.min(x0, atoms.x[i]!); x1 = Math.max(x1, atoms.x[i]!);
    y0 = Math.min(y0, atoms.y[i]!); y1 = Math.max(y1, atoms.y[i]!);
    z0 = Math.min(z0, atoms.z[i]!); z1 = Math.max(z1, atoms.z[i]!);
  }
  const pad = rmax + 3 * h;
  const g: Grid = {
    h, x0: x0 - pad, y0: y0 - pad, z0: z0 - pad,
    nx: Math.ceil((x1 - x0 + 2 * pad) / h) + 1, ny: Math.ceil((y1 - y0 + 2 * pad) / h) + 1, nz: Math.ceil((z1 - z0 + 2 * pad) / h) + 1,
  };
  const N = g.nx * g.ny * g.nz;
  // memory before the grid is allocated: the mesh's area is at most the inflated spheres' and,
  // for any molecule measured, below the grid box's faces (runtime/limits.ts)
  let spheres = 0;
  for (let i = 0; i < atoms.n; i++) spheres += 4 * Math.PI * R[i]! ** 2;
  const [bx, by, bz] = [g.nx * h, g.ny * h, g.nz * h];
  const meshArea = Math.min(spheres, 2 * (bx * by + by * bz + bx * bz));
  checkMemory(
    `surface generation: density ${density} (grid ${h.toFixed(3)} A) over ${atoms.n} atoms spanning ${(x1 - x0).toFixed(0)} x ${(y1 - y0).toFixed(0)} x ${(z1 - z0).toFixed(0)} A`,
    surfaceMemory({ gridPoints: N, area: meshArea, h }), memoryLimit(opts.maxMemory), '--max-memory <size>', 'a lower --density (or atoms closer together)',
  );
  if (N > MAX_GRID_POINTS) {
    throw new GemInputError(`density ${density} needs a ${g.nx} x ${g.ny} x ${g.nz} grid (${N.toExponential(2)} points, at most ${MAX_GRID_POINTS.toExponential(1)}): use a lower --density`);
  }
  const stages: Record<string, number> = {};
  let tl = performance.now();
  const lap = (name: string) => {
    const t = performance.now();
    stages[name] = (t - tl) / 1000;
    tl = t;
  };
  const V = new Float32Array(N);
  const own = new Int32Array(N);
  unionField(atoms, R, g, V, own);
  const flag = classify(g, V);
  lap('grid');

  let mesh: Mesh;
  let probePoints = 0;
  const sasProject = (Rs: Float64Array): Project => (x, y, z, oa, ob, out) => {
    let best = -1, bv = -Infinity;
    for (const i of [oa, ob]) {
      if (i < 0) continue;
      const v = Rs[i]! - Math.hypot(x - atoms.x[i]!, y - atoms.y[i]!, z - atoms.z[i]!);
      if (v > bv) {
        bv = v;
        best = i;
      }
    }
    if (best < 0) return false;
    const dx = x - atoms.x[best]!, dy = y - atoms.y[best]!, dz = z - atoms.z[best]!;
    const d = Math.hypot(dx, dy, dz);
    if (!(d > 0)) return false;
    out[3] = dx / d; out[4] = dy / d; out[5] = dz / d;
    out[0] = atoms.x[best]! + Rs[best]! * out[3]!;
    out[1] = atoms.y[best]! + Rs[best]! * out[4]!;
    out[2] = atoms.z[best]! + Rs[best]! * out[5]!;
    out[6] = best;
    return true;
  };
  if (kind === 'sas' || probe === 0) {
    for (let p = 0; p < N; p++) if (flag[p] === 1 && !(V[p]! > 0)) V[p] = h; // cavities count as inside
    mesh = marchingTets(g, V, own, sasProject(R));
  } else {
    const acc = accessiblePoints(atoms, R, g, flag, Math.min(0.5, 0.75 * h));
    probePoints = acc.atom.length;
    if (probePoints === 0) throw new GemInputError('no accessible probe position found around the atoms');
    lap('probes');
    sesField(g, flag, probe, acc.p, V, own);
    lap('field');
    const P = acc.p;
    const near = pointLocator(P, probe + h);
    const { start, list } = overlapLists(atoms, R);
    mesh = marchingTets(g, V, own, (x, y, z, oa, ob, out) => {
      let seed = oa;
      if (ob >= 0 && (oa < 0 || (x - P[3 * ob]!) ** 2 + (y - P[3 * ob + 1]!) ** 2 + (z - P[3 * ob + 2]!) ** 2 < (x - P[3 * oa]!) ** 2 + (y - P[3 * oa + 1]!) ** 2 + (z - P[3 * oa + 2]!) ** 2)) seed = ob;
      const best = near(x, y, z, seed);
      if (best < 0) return false;
      const bd = Math.hypot(x - P[3 * best]!, y - P[3 * best + 1]!, z - P[3 * best + 2]!);
      if (!(bd > 0)) return false;
      // contact: the probe on the owning atom's inflated sphere in the vertex's direction is accessible
      const i = acc.atom[best]!;
      const ux = x - atoms.x[i]!, uy = y - atoms.y[i]!, uz = z - atoms.z[i]!;
      const ul = Math.hypot(ux, uy, uz);
      if (ul > 0) {
        const qx = atoms.x[i]! + (R[i]! * ux) / ul, qy = atoms.y[i]! + (R[i]! * uy) / ul, qz = atoms.z[i]! + (R[i]! * uz) / ul;
        let free = true;
        for (let t = start[i]!; t < start[i + 1]! && free; t++) {
          const j = list[t]!;
          if ((qx - atoms.x[j]!) ** 2 + (qy - atoms.y[j]!) ** 2 + (qz - atoms.z[j]!) ** 2 < R[j]! * R[j]! * (1 - 1e-12)) free = false;
        }
        // and it is no farther from the vertex than the sampled probe (so it is this part of the surface)
        if (free && Math.hypot(qx - x, qy - y, qz - z) <= bd + h) {
          out[3] = ux / ul; out[4] = uy / ul; out[5] = uz / ul;
          out[0] = atoms.x[i]! + atoms.r[i]! * out[3]!;
          out[1] = atoms.y[i]! + atoms.r[i]! * out[4]!;
          out[2] = atoms.z[i]! + atoms.r[i]! * out[5]!;
          out[6] = i;
          return true;
        }
      }
      const sx = P[3 * best]!, sy = P[3 * best + 1]!, sz = P[3 * best + 2]!;
      out[3] = (sx - x) / bd; out[4] = (sy - y) / bd; out[5] = (sz - z) / bd;
      out[0] = sx - probe * out[3]!;
      out[1] = sy - probe * out[4]!;
      out[2] = sz - probe * out[5]!;
      out[6] = acc.atom[best]!;
      return true;
    });
  }

  lap('march');
  const n = mesh.atom.length;
  if (n === 0) throw new GemInputError('the generated surface has no vertices');
  const { pos, tri } = mesh;
  const area = new Float64Array(n);
  const tn = new Float64Array(3 * n);
  let total = 0;
  for (let t = 0; t < tri.length; t += 3) {
    const a = tri[t]!, b = tri[t + 1]!, c = tri[t + 2]!;
    const ux = pos[3 * b]! - pos[3 * a]!, uy = pos[3 * b + 1]! - pos[3 * a + 1]!, uz = pos[3 * b + 2]! - pos[3 * a + 2]!;
    const vx = pos[3 * c]! - pos[3 * a]!, vy = pos[3 * c + 1]! - pos[3 * a + 1]!, vz = pos[3 * c + 2]! - pos[3 * a + 2]!;
    const cx = uy * vz - uz * vy, cy = uz * vx - ux * vz, cz = ux * vy - uy * vx;
    const A = 0.5 * Math.hypot(cx, cy, cz);
    total += A;
    for (const v of [a, b, c]) {
      area[v] += A / 3;
      tn[3 * v] += cx;
      tn[3 * v + 1] += cy;
      tn[3 * v + 2] += cz;
    }
  }
  const s: GemSurface = {
    n, x: new Float64Array(n), y: new Float64Array(n), z: new Float64Array(n), nx: new Float64Array(n), ny: new Float64Array(n), nz: new Float64Array(n),
    kind, probe, density, gridSpacing: h, triangles: tri, area, totalArea: total, atom: new Int32Array(n), type: new Uint8Array(n), probePoints, seconds: 0, stages,
  };
  for (let v = 0; v < n; v++) {
    s.x[v] = pos[3 * v]!;
    s.y[v] = pos[3 * v + 1]!;
    s.z[v] = pos[3 * v + 2]!;
    let ex = mesh.nrm[3 * v]!, ey = mesh.nrm[3 * v + 1]!, ez = mesh.nrm[3 * v + 2]!;
    if (!mesh.hasNormal[v]) [ex, ey, ez] = [tn[3 * v]!, tn[3 * v + 1]!, tn[3 * v + 2]!];
    const l = Math.hypot(ex, ey, ez) || 1;
    s.nx[v] = ex / l;
    s.ny[v] = ey / l;
    s.nz[v] = ez / l;
    let a = mesh.atom[v]!;
    if (a < 0) {
      // nearest atom surface, by brute force over the (rare) unprojected vertices
      let bd = Infinity;
      for (let j = 0; j < atoms.n; j++) {
        const d = Math.hypot(s.x[v]! - atoms.x[j]!, s.y[v]! - atoms.y[j]!, s.z[v]! - atoms.z[j]!) - atoms.r[j]!;
        if (d < bd) {
          bd = d;
          a = j;
        }
      }
    }
    s.atom[v] = a;
    const rr = kind === 'sas' ? R[a]! : atoms.r[a]!;
    const gap = Math.hypot(s.x[v]! - atoms.x[a]!, s.y[v]! - atoms.y[a]!, s.z[v]! - atoms.z[a]!) - rr;
    s.type[v] = Math.abs(gap) < 0.02 ? 1 : 2;
  }
  lap('areas');
  s.seconds = (performance.now() - t0) / 1000;
  return s;
}

/**
 * MSMS .vert text of a surface: a comment, `#vertex #sphere density probe_r`, the counts line,
 * then `x y z nx ny nz 0 sphere type` per vertex (sphere 1-based; type 1 contact, 2 reentrant).
 */
export function formatVert(s: GemSurface, atoms: number, title = 'molecule'): string {
  const f = (x: number, w: number) => x.toFixed(3).padStart(w);
  const lines = [
    `# kernforge ${s.kind === 'ses' ? 'solvent excluded' : 'solvent accessible'} surface vertices for ${title} (generated, grid ${s.gridSpacing.toFixed(3)} A)`,
    '#vertex #sphere density probe_r',
    `${String(s.n).padStart(7)} ${String(atoms).padStart(7)}  ${s.density.toFixed(2)}  ${s.probe.toFixed(2)}`,
  ];
  for (let i = 0; i < s.n; i++) {
    lines.push(`${f(s.x[i]!, 9)} ${f(s.y[i]!, 9)} ${f(s.z[i]!, 9)} ${f(s.nx[i]!, 9)} ${f(s.ny[i]!, 9)} ${f(s.nz[i]!, 9)} ${String(0).padStart(7)} ${String(s.atom[i]! + 1).padStart(7)}  ${s.type[i]} `);
  }
  return `${lines.join('\n')}\n`;
}

/** Write a .vert file atomically (runtime/files.ts). */
export function writeVert(file: string, s: GemSurface, atoms: number, title?: string): void {
  writeFileAtomic(file, formatVert(s, atoms, title));
}
