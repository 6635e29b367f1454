// Data orderings of a grid of MD bins (cells) and the thesis's locality models (seed 004,
// MiniMD thesis, chapters 2.3, 4 and 5.3; REFERENCES.md section 4 corrects its algorithms).
//
// Conventions used throughout this module
// ----------------------------------------
// * A grid has dims [nx, ny, nz] (3-D) or [nx, ny] (2-D). A cell has coordinates (x, y, z)
//   with 0 <= x < nx etc.
// * The ROW-MAJOR cell index runs x fastest, as in the thesis and MiniMD (Alg. 5.5, 5.8, 5.10):
//       3-D: index = (z * ny + y) * nx + x          2-D: index = y * nx + x
//   NOTE: runtime/md/clusters.ts numbers its x/y columns cx * ncy + cy (y fastest); a caller
//   ordering those columns converts: cell index = cy * ncx + cx for dims [ncx, ncy].
//   x fastest keeps the thesis's hybrids meaningful: Morton is row-major inside every 2x2x2
//   block, so morton-rm with t = 1 equals morton, and every hybrid with 2^t >= the grid equals
//   row-major (or, for -cm, column-major).
// * An ORDERING places every cell at a memory position 0..N-1 (N = cell count):
//       rank[rowMajorIndex] = position          cells[position] = rowMajorIndex
//   Row-major is the identity.
// * Hilbert, Morton and the hybrids are defined on a power-of-two cube (square in 2-D). Any
//   other grid is embedded in the smallest enclosing power-of-two cube (for hybrids also at
//   least one sub-block wide), the curve is laid over that cube and cells outside the grid are
//   skipped: positions are the ranks of the present cells along the curve, so the result is
//   always a permutation of 0..N-1 with no holes.
//
// Orderings (thesis Table 5.3):
//   row-major    identity
//   hilbert      3-D: the L-system X -> ^<XF^<XFX-F^>>XFX&F+>>XFX-F>X-> with the turtle of
//                REFERENCES.md section 4, from (0,0,0) to (2^n-1,0,0) in unit steps;
//                2-D: the thesis's L-system (eq. 2.13) X -> +YF-XFX-FY+, Y -> -XF+YFY+FX-,
//                from (0,0) to (2^n-1,0) in unit steps
//   morton       bit interleave: 3-D key = dilate3(x) | dilate3(y) << 1 | dilate3(z) << 2,
//                2-D key = dilate2(x) | dilate2(y) << 1 (x in the lowest bit)
//   hilbert-rm, hilbert-cm, morton-rm, morton-cm
//                hybrids (thesis 2.3.4, Alg. 5.10/5.11; "Hilbert RM" etc. in chapter 6): the grid
//                is cut into sub-blocks of T = 2^t cells per side (t = 2 by default, as in the
//                thesis's experiments: 4x4x4 = 64 bins); the sub-blocks are visited in Hilbert or
//                Morton order and the cells inside a sub-block in row-major (-rm: x fastest, as
//                the global row-major) or column-major (-cm: z fastest; y in 2-D) order.
//                Key = outer(block) * T^d + inner(local).
//   Aliases hybrid-rm-hilbert, hybrid-cm-hilbert, hybrid-rm-morton, hybrid-cm-morton are accepted.

export const ORDERINGS = ['row-major', 'hilbert', 'morton', 'hilbert-rm', 'hilbert-cm', 'morton-rm', 'morton-cm'] as const;
export type OrderingName = (typeof ORDERINGS)[number];

/** Other accepted spellings of the hybrid names. */
export const ORDERING_ALIASES: Readonly<Record<string, OrderingName>> = {
  'hybrid-rm-hilbert': 'hilbert-rm',
  'hybrid-cm-hilbert': 'hilbert-cm',
  'hybrid-rm-morton': 'morton-rm',
  'hybrid-cm-morton': 'morton-cm',
  rowmajor: 'row-major',
  rm: 'row-major',
};

/** The canonical ordering name for a name or alias, or undefined when unknown. */
export function parseOrdering(name: string): OrderingName | undefined {
  const n = name.trim().toLowerCase();
  if ((ORDERINGS as readonly string[]).includes(n)) return n as OrderingName;
  return ORDERING_ALIASES[n];
}

export type Dims = readonly number[];

export interface CellOrder {
  dims: number[];
  ordering: OrderingName;
  /** Row-major cell index -> memory position. */
  rank: Int32Array;
  /** Memory position -> row-major cell index. */
  cells: Int32Array;
}

export interface OrderOptions {
  /** Hybrids: sub-blocks are 2^t cells per side (default 2). */
  t?: number;
}

function checkDims(dims: Dims): number[] {
  if (dims.length !== 2 && dims.length !== 3) throw new RangeError(`dims must have 2 or 3 entries, got ${dims.length}`);
  for (const n of dims) if (!Number.isSafeInteger(n) || n < 1) throw new RangeError(`dims ${JSON.stringify(dims)}: every entry must be a positive integer`);
  const N = dims.reduce((a, b) => a * b, 1);
  if (N > 2 ** 31 - 1) throw new RangeError(`dims ${JSON.stringify(dims)}: too many cells (${N})`);
  return [...dims];
}

/** log2 of the smallest power of two >= n. */
function ceilLog2(n: number): number {
  let l = 0;
  while (1 << l < n) l++;
  return l;
}

/** Spread the bits of v: bit i moves to bit i*stride (stride 2 or 3). */
export function dilate(v: number, stride: 2 | 3 = 3): number {
  let r = 0;
  for (let i = 0; v > 0; i++, v >>>= 1) if (v & 1) r += 2 ** (i * stride);
  return r;
}

/** Morton key of (x, y[, z]): bit interleave with x in the lowest bit. */
export function mortonKey(x: number, y: number, z?: number): number {
  if (z === undefined) return dilate(x, 2) + 2 * dilate(y, 2);
  return dilate(x, 3) + 2 * dilate(y, 3) + 4 * dilate(z, 3);
}

// ---------------------------------------------------------------------------------------------
// Hilbert curves by L-system turtles.
//
// The walker interprets the rewrite rules with a turtle and calls visit(x, y, z) for every cell
// of the curve that lies inside a region [0,rx) x [0,ry) x [0,rz), in curve order. Subtrees
// whose cube misses the region are skipped whole: drawing a nonterminal of level l with
// orientation D from position p draws p + (D D0^-1) C_l, where C_l is the curve drawn with the
// initial orientation D0 (a cube of side 2^l from the origin, towards negative y), ending at
// p + (D D0^-1) (2^l-1, 0, 0) with orientation D N_l (N_l the product of the rule's turns with
// each nonterminal replaced by N_{l-1}; N_0 = I). So a grid costs time in proportion to its
// cells, however elongated, rather than to its enclosing cube.

const HILBERT3_RULE = '^<XF^<XFX-F^>>XFX&F+>>XFX-F>X->';
const HILBERT2_RULES: Record<string, string> = { X: '+YF-XFX-FY+', Y: '-XF+YFY+FX-' };

// 3x3 integer matrices stored row-major in 9-element arrays.
type M3 = Int32Array;
const mat = (...r: number[]): M3 => Int32Array.from(r);
const mul = (a: M3, b: M3): M3 => {
  const c = new Int32Array(9);
  for (let r = 0; r < 3; r++) for (let k = 0; k < 3; k++) c[3 * r + k] = a[3 * r]! * b[k]! + a[3 * r + 1]! * b[3 + k]! + a[3 * r + 2]! * b[6 + k]!;
  return c;
};
const transpose = (m: M3) => mat(m[0]!, m[3]!, m[6]!, m[1]!, m[4]!, m[7]!, m[2]!, m[5]!, m[8]!);
const IDENT = mat(1, 0, 0, 0, 1, 0, 0, 0, 1);
const YAW = mat(0, 1, 0, -1, 0, 0, 0, 0, 1);
const PITCH = mat(0, 0, 1, 0, 1, 0, -1, 0, 0);
const ROLL = mat(1, 0, 0, 0, 0, 1, 0, -1, 0);
const TURN3: Record<string, M3> = { '+': YAW, '-': transpose(YAW), '^': PITCH, '&': transpose(PITCH), '<': ROLL, '>': transpose(ROLL) };
/** 3-D: the turtle's initial orientation (rows [1,0,0],[0,0,1],[0,-1,0]; D0^-1 = D0^T). */
const D0 = mat(1, 0, 0, 0, 0, 1, 0, -1, 0);
const D0T = transpose(D0);
// 2-D: heading turns as 2x2 matrices in the same 9-element form (z untouched). '+' turns
// clockwise (hx,hy) -> (hy,-hx); '-' anticlockwise. The turtle starts heading +x (D0 = I).
const TURN2: Record<string, M3> = { '+': mat(0, 1, 0, -1, 0, 0, 0, 0, 1), '-': mat(0, -1, 0, 1, 0, 0, 0, 0, 1) };

/**
 * The rotation group generated by a set of turns (24 rotations in 3-D, 4 in 2-D), with ids and a
 * multiplication table so the walker composes orientations by table look-up.
 */
interface TurnGroup { mats: M3[]; mulTab: Int32Array; id: (m: M3) => number }
const groups = new Map<number, TurnGroup>();
function turnGroup(d: 2 | 3): TurnGroup {
  const hit = groups.get(d);
  if (hit) return hit;
  const gens = Object.values(d === 3 ? TURN3 : TURN2);
  const mats: M3[] = [IDENT];
  const ids = new Map<string, number>([[IDENT.join(), 0]]);
  for (let i = 0; i < mats.length; i++)
    for (const g of gens) {
      const m = mul(mats[i]!, g);
      if (!ids.has(m.join())) { ids.set(m.join(), mats.length); mats.push(m); }
    }
  const k = mats.length;
  const mulTab = new Int32Array(k * k);
  for (let a = 0; a < k; a++) for (let b = 0; b < k; b++) mulTab[a * k + b] = ids.get(mul(mats[a]!, mats[b]!).join())!;
  const grp = { mats, mulTab, id: (m: M3) => ids.get(m.join())! };
  groups.set(d, grp);
  return grp;
}

const netTurnCache = new Map<string, M3>();
/** N_l for a nonterminal: the orientation change of drawing it at level l. */
function netTurn(d: 2 | 3, sym: string, level: number): M3 {
  if (level <= 0) return IDENT;
  const key = `${d}${sym}${level}`;
  const hit = netTurnCache.get(key);
  if (hit) return hit;
  let m = IDENT;
  for (const s of d === 3 ? HILBERT3_RULE : HILBERT2_RULES[sym]!) {
    if (s === 'X' || s === 'Y') m = mul(m, netTurn(d, s, level - 1));
    else if (s !== 'F') m = mul(m, (d === 3 ? TURN3 : TURN2)[s]!);
  }
  netTurnCache.set(key, m);
  return m;
}

/**
 * Walk the level-n Hilbert curve (2^n cells per side) and call visit for each cell inside
 * [0,rx) x [0,ry) x [0,rz) (2-D: rz = 1, z = 0), in curve order; coordinates are those of the
 * final curve (y negated). Returns the number of curve steps taken, 2^(dn) - 1.
 */
function hilbertWalk(d: 2 | 3, n: number, region: readonly number[], visit: (x: number, y: number, z: number) => void): number {
  const [rx, ry] = region as [number, number];
  const rz = d === 3 ? region[2]! : 1;
  const G = turnGroup(d);
  const K = G.mats.length;
  const toFinal = G.id(d === 3 ? D0T : IDENT); // canonical-curve frame of the initial turtle
  const turnId: Record<string, number> = {};
  for (const [sym, m] of Object.entries(d === 3 ? TURN3 : TURN2)) turnId[sym] = G.id(m);
  let D = G.id(d === 3 ? D0 : IDENT);
  let px = 0, py = 0, pz = 0, h = 0;
  const inside = () => px >= 0 && px < rx && -py >= 0 && -py < ry && pz >= 0 && pz < rz;
  if (inside()) visit(px, -py, pz);
  const walk = (sym: string, level: number) => {
    for (const s of d === 3 ? HILBERT3_RULE : HILBERT2_RULES[sym]!) {
      if (s === 'F') {
        const Dm = G.mats[D]!;
        px += Dm[0]!; py += Dm[3]!; pz += Dm[6]!; h++;
        if (inside()) visit(px, -py, pz);
      } else if (s === 'X' || s === 'Y') {
        const l = level - 1;
        if (l === 0) continue;
        const L = 1 << l;
        // The subtree's cells: p + R c for c in the canonical cube [0,L) x (-L,0] x [0,L)
        // (2-D: X towards negative y as the 3-D curve, Y its mirror towards positive y).
        const R = G.mats[G.mulTab[D * K + toFinal]!]!;
        const ylo = d === 2 && s === 'Y' ? 0 : -(L - 1), yhi = d === 2 && s === 'Y' ? L - 1 : 0;
        const zhi = d === 3 ? L - 1 : 0;
        // Bounding box of R * [0,L-1] x [ylo,yhi] x [0,zhi] (R is a signed permutation matrix).
        const span = (r: number): [number, number] => {
          let lo = 0, hi = 0;
          for (let c = 0; c < 3; c++) {
            const a = R[3 * r + c]!;
            if (a === 0) continue;
            const u = a * (c === 1 ? ylo : 0), v = a * (c === 0 ? L - 1 : c === 1 ? yhi : zhi);
            lo += Math.min(u, v); hi += Math.max(u, v);
          }
          return [lo, hi];
        };
        const [a0, b0] = span(0), [a1, b1] = span(1), [a2, b2] = span(2);
        const lo0 = px + a0, hi0 = px + b0, lo1 = py + a1, hi1 = py + b1, lo2 = pz + a2, hi2 = pz + b2;
        // Final y = -py, so the region in turtle y is (-ry, 0].
        const hits = hi0 >= 0 && lo0 < rx && lo1 <= 0 && hi1 > -ry && hi2 >= 0 && lo2 < rz;
        if (hits) walk(s, l);
        else {
          px += R[0]! * (L - 1); py += R[3]! * (L - 1); pz += R[6]! * (L - 1);
          h += L ** d - 1;
          D = G.mulTab[D * K + G.id(netTurn(d, s, l))]!;
        }
      } else D = G.mulTab[D * K + turnId[s]!]!;
    }
  };
  if (n > 0) walk('X', n);
  return h;
}

/**
 * The 3-D Hilbert curve of level n (2^n cells per side) as coordinates: path[3h..3h+2] =
 * (x, y, z) of step h, h = 0..8^n-1. Axiom X rewritten n times with
 * X -> ^<XF^<XFX-F^>>XFX&F+>>XFX-F>X->; the turtle's orientation D starts as rows
 * [1,0,0],[0,0,1],[0,-1,0], every turn post-multiplies D = D*T (+ yaw, ^ pitch, < roll; -, &, >
 * their transposes) and F adds the first column of D to the position; y is negated at the end
 * (the turtle walks towards negative y). Runs from (0,0,0) to (2^n-1,0,0).
 */
export function hilbertPath3(n: number): Int32Array {
  const P = 1 << n;
  const path = new Int32Array(3 * P ** 3);
  let h = 0;
  hilbertWalk(3, n, [P, P, P], (x, y, z) => { path[h++] = x; path[h++] = y; path[h++] = z; });
  return path;
}

/**
 * The 2-D Hilbert curve of level n as coordinates: path[2h], path[2h+1] = (x, y) of step h.
 * L-system of thesis eq. 2.13, axiom X: X -> +YF-XFX-FY+, Y -> -XF+YFY+FX-; the turtle starts
 * at (0,0) heading +x, '+' turns clockwise, '-' anticlockwise; y is negated at the end so the
 * curve fills [0,2^n)^2, from (0,0) to (2^n-1, 0).
 */
export function hilbertPath2(n: number): Int32Array {
  const P = 1 << n;
  const path = new Int32Array(2 * P * P);
  let h = 0;
  hilbertWalk(2, n, [P, P], (x, y) => { path[h++] = x; path[h++] = y; });
  return path;
}

/** Row-major indices (x fastest) of a grid's cells in Hilbert order (enclosing cube, absent cells skipped). */
function hilbertCells(dm: number[]): Int32Array {
  const d = dm.length as 2 | 3;
  const [nx, ny] = dm as [number, number];
  const out = new Int32Array(dm.reduce((a, b) => a * b, 1));
  let p = 0;
  hilbertWalk(d, ceilLog2(Math.max(...dm)), dm, (x, y, z) => { out[p++] = (z * ny + y) * nx + x; });
  if (p !== out.length) throw new Error(`internal: Hilbert walk visited ${p} of ${out.length} cells`);
  return out;
}

// ---------------------------------------------------------------------------------------------

/**
 * The memory order of the cells of a 3-D [nx,ny,nz] or 2-D [nx,ny] grid under `ordering`
 * (see the module comment for conventions, hybrids and non-power-of-two grids).
 */
export function cellOrder(dims: Dims, ordering: OrderingName | string, opts: OrderOptions = {}): CellOrder {
  const dm = checkDims(dims);
  const name = parseOrdering(ordering);
  if (!name) throw new RangeError(`unknown ordering "${ordering}"; known: ${ORDERINGS.join(', ')}`);
  const d = dm.length;
  const N = dm.reduce((a, b) => a * b, 1);
  const rank = new Int32Array(N);
  const cells = new Int32Array(N);
  if (name === 'row-major') {
    for (let i = 0; i < N; i++) rank[i] = cells[i] = i;
    return { dims: dm, ordering: name, rank, cells };
  }
  const t = opts.t ?? 2;
  if (!Number.isInteger(t) || t < 0 || t > 10) throw new RangeError(`hybrid sub-block exponent t = ${t} must be an integer 0..10`);
  const hybrid = name.includes('-');
  const outer = name.startsWith('hilbert') ? 'hilbert' : 'morton';
  const m = ceilLog2(Math.max(...dm)); // enclosing cube 2^m per side
  const tt = hybrid ? t : 0;
  const mo = Math.max(m, tt) - tt; // outer curve level (sub-blocks of 2^tt per side)
  const T = 1 << tt;
  const Tin = T ** d;
  const colMajor = name.endsWith('-cm');
  if (outer === 'hilbert' && tt === 0) {
    cells.set(hilbertCells(dm));
    for (let p = 0; p < N; p++) rank[cells[p]!] = p;
    return { dims: dm, ordering: name, rank, cells };
  }
  // Hybrid Hilbert: the rank of each sub-block along the Hilbert curve over the grid of blocks.
  const bdims = dm.map((n) => Math.ceil(n / (1 << tt)));
  const blockRank = outer === 'hilbert' ? cellOrder(bdims, 'hilbert').rank : undefined;
  const key = (x: number, y: number, z: number): number => {
    const bx = x >> tt, by = y >> tt, bz = z >> tt;
    const o = blockRank ? blockRank[(bz * bdims[1]! + by) * bdims[0]! + bx]! : d === 3 ? mortonKey(bx, by, bz) : mortonKey(bx, by);
    if (tt === 0) return o;
    const lx = x & (T - 1), ly = y & (T - 1), lz = z & (T - 1);
    const inner = d === 3 ? (colMajor ? (lx * T + ly) * T + lz : (lz * T + ly) * T + lx) : colMajor ? lx * T + ly : ly * T + lx;
    return o * Tin + inner;
  };
  const [nx, ny] = dm as [number, number];
  const nz = d === 3 ? dm[2]! : 1;
  const cubeCells = blockRank ? blockRank.length * Tin : (1 << (mo + tt)) ** d;
  if (cubeCells <= 4 * N + 4096) {
    // Scatter into the key space, then read it back in key order skipping absent cells.
    const table = new Int32Array(cubeCells).fill(-1);
    let i = 0;
    for (let z = 0; z < nz; z++) for (let y = 0; y < ny; y++) for (let x = 0; x < nx; x++) table[key(x, y, z)] = i++;
    let p = 0;
    for (let k = 0; k < cubeCells; k++) {
      const c = table[k]!;
      if (c >= 0) { cells[p] = c; rank[c] = p++; }
    }
  } else {
    // Sparse key space (elongated grid): sort the present cells by key instead.
    const keys = new Float64Array(N);
    let i = 0;
    for (let z = 0; z < nz; z++) for (let y = 0; y < ny; y++) for (let x = 0; x < nx; x++) keys[i++] = key(x, y, z);
    for (let c = 0; c < N; c++) cells[c] = c;
    cells.sort((a, b) => keys[a]! - keys[b]!);
    for (let p = 0; p < N; p++) rank[cells[p]!] = p;
  }
  return { dims: dm, ordering: name, rank, cells };
}

// ---------------------------------------------------------------------------------------------
// Stencils

export interface Stencil {
  dim: 2 | 3;
  /** Stencil width in bins: offsets run from -g to g along each axis. */
  g: number;
  shape: 'cubic' | 'spherical';
  /** Number of bins in the stencil, centre included. */
  count: number;
  /** Offsets (dx, dy[, dz]) per bin, in increasing row-major order (dx fastest, as MiniMD's Alg. 5.2). */
  offsets: Int32Array;
}

function buildStencil(g: number, dim: 2 | 3, shape: Stencil['shape']): Stencil {
  if (!Number.isInteger(g) || g < 1) throw new RangeError(`stencil width g = ${g} must be a positive integer`);
  const out: number[] = [];
  const near = (a: number) => Math.max(Math.abs(a) - 1, 0); // gap between the bins along one axis
  const zs = dim === 3 ? g : 0;
  for (let dz = -zs; dz <= zs; dz++)
    for (let dy = -g; dy <= g; dy++)
      for (let dx = -g; dx <= g; dx++) {
        if (shape === 'spherical' && near(dx) ** 2 + near(dy) ** 2 + near(dz) ** 2 >= g * g) continue;
        if (dim === 3) out.push(dx, dy, dz);
        else out.push(dx, dy);
      }
  return { dim, g, shape, count: out.length / dim, offsets: Int32Array.from(out) };
}

/**
 * The approximately spherical stencil (thesis 4.1, Alg. 5.2): every bin whose nearest point is
 * closer than g bin widths to the centre bin, i.e. sum over axes of max(|offset|-1, 0)^2 < g^2.
 * In 3-D its size is M0(g) of Table 4.1: 27, 125, 311, 613, 1015, 1689, 2399, 3449, 4675.
 */
export function sphericalStencil(g: number, dim: 2 | 3 = 3): Stencil {
  return buildStencil(g, dim, 'spherical');
}

/** The cubic (block) stencil: all (2g+1)^dim bins with every |offset| <= g. */
export function cubicStencil(g: number, dim: 2 | 3 = 3): Stencil {
  return buildStencil(g, dim, 'cubic');
}

/** Thesis Table 4.1: percentage deviation from sphericity, 100 * (1 - (4 pi / 3) g^3 / M0(g)). */
export function sphericityDeviation(g: number, count = sphericalStencil(g).count): number {
  return 100 * (1 - ((4 * Math.PI) / 3) * g ** 3 / count);
}

// ---------------------------------------------------------------------------------------------
// Locality models

function resolveOrder(dims: Dims, ordering: OrderingName | string | CellOrder, opts?: OrderOptions): CellOrder {
  if (typeof ordering === 'object') {
    if (ordering.dims.length !== dims.length || ordering.dims.some((n, i) => n !== dims[i])) throw new RangeError('cell order was built for other dims');
    return ordering;
  }
  return cellOrder(dims, ordering, opts);
}

function checkFit(dm: number[], st: Stencil): void {
  if (st.dim !== dm.length) throw new RangeError(`a ${st.dim}-D stencil on a ${dm.length}-D grid`);
  for (const n of dm) if (n < 2 * st.g + 1) throw new RangeError(`grid ${dm.join('x')} is smaller than the stencil (2g+1 = ${2 * st.g + 1} per side)`);
}

/** Row-major index offsets of the stencil bins (valid for bins outside the border zone). */
function linearOffsets(dm: number[], st: Stencil): Int32Array {
  const d = dm.length;
  const lin = new Int32Array(st.count);
  for (let s = 0; s < st.count; s++) {
    let o = 0;
    for (let a = d - 1; a >= 0; a--) o = o * dm[a]! + st.offsets[d * s + a]!;
    lin[s] = o;
  }
  return lin;
}

/** Is row-major cell i at least g cells away from every face? */
function interiorTest(dm: number[], g: number): (i: number) => boolean {
  const d = dm.length;
  return (i: number) => {
    for (let a = 0; a < d; a++) {
      const n = dm[a]!;
      const c = i % n;
      if (c < g || c >= n - g) return false;
      i = (i - c) / n;
    }
    return true;
  };
}

export interface OffsetHistogram {
  /** counts[k] = number of (bin, stencil bin) pairs whose memory positions differ by |k|. */
  counts: Float64Array;
  /** Number of pairs: interior bins x stencil bins. */
  total: number;
  /** Most negative and most positive signed offset (position of stencil bin - position of bin). */
  minOffset: number;
  maxOffset: number;
}

/**
 * Thesis Algorithm 4.1 (distHistogram): for every bin outside the border zone of depth g and every
 * stencil bin (centre included), histogram |position(neighbour) - position(bin)|. The thesis's
 * Figs. 4.4/4.5 plot cumulativeFraction() of this at 99, 199, 299, ...; with these definitions
 * (16^3 grid, cubic stencil) every printed number comes out: g = 1: row-major 1/3 within 199 and
 * 1 within 299, Hilbert 0.817 / 0.867, Morton 0.787 / 0.862, offsets up to +-273, +-3767,
 * +-3073; g = 3: within 899 row-major 1, Hilbert 0.795, Morton 0.780, offsets +-3794, +-3129.
 * (The thesis's "13.3% not covered" for Hilbert at g = 3 repeats its g = 1 value; the count
 * beyond 899 is 20.5%, while Morton's 22.0% matches.)
 */
export function offsetHistogram(dims: Dims, ordering: OrderingName | string | CellOrder, stencil: Stencil, opts?: OrderOptions): OffsetHistogram {
  const dm = checkDims(dims);
  checkFit(dm, stencil);
  const ord = resolveOrder(dm, ordering, opts);
  const N = ord.rank.length;
  const lin = linearOffsets(dm, stencil);
  const inside = interiorTest(dm, stencil.g);
  const counts = new Float64Array(N);
  const rank = ord.rank;
  let total = 0, lo = 0, hi = 0;
  for (let i = 0; i < N; i++) {
    if (!inside(i)) continue;
    const ip = rank[i]!;
    for (let s = 0; s < lin.length; s++) {
      const diff = rank[i + lin[s]!]! - ip;
      if (diff < lo) lo = diff;
      if (diff > hi) hi = diff;
      counts[diff < 0 ? -diff : diff]!++;
    }
    total += lin.length;
  }
  return { counts, total, minOffset: lo, maxOffset: hi };
}

/** Fraction of the histogram's pairs with |offset| <= each value of `within`. */
export function cumulativeFraction(h: OffsetHistogram, within: readonly number[]): number[] {
  const cum = new Float64Array(h.counts.length);
  let s = 0;
  for (let k = 0; k < h.counts.length; k++) cum[k] = s += h.counts[k]!;
  return within.map((w) => (h.total === 0 ? 0 : (w < 0 ? 0 : cum[Math.min(Math.floor(w), cum.length - 1)]!) / h.total));
}

export interface CacheModel {
  /** Bins per cache line (memory block), b. */
  lineBins: number;
  /** Lines (blocks) the cache holds, c. */
  cacheLines: number;
}

export interface CacheResult {
  misses: number;
  accesses: number;
  missRate: number;
}

/**
 * Thesis Algorithm 4.2 (cacheModel): memory is cut into blocks of b = lineBins consecutive
 * memory positions; a fully associative LRU cache holds c = cacheLines blocks and starts empty.
 * Bins are visited in memory order; for each bin outside the border zone of depth g, its stencil
 * bins are accessed in the stencil's order (centre included); an access whose block is not
 * cached is a miss and loads the block, evicting the least recently used one when full.
 * O(1) per access: the LRU list is a doubly linked list over typed arrays.
 */
export function cacheMisses(dims: Dims, ordering: OrderingName | string | CellOrder, stencil: Stencil, model: CacheModel, opts?: OrderOptions): CacheResult {
  const dm = checkDims(dims);
  checkFit(dm, stencil);
  const { lineBins: b, cacheLines: c } = model;
  if (!Number.isInteger(b) || b < 1) throw new RangeError(`lineBins = ${b} must be a positive integer`);
  if (!Number.isInteger(c) || c < 1) throw new RangeError(`cacheLines = ${c} must be a positive integer`);
  const ord = resolveOrder(dm, ordering, opts);
  const { rank, cells } = ord;
  const N = rank.length;
  const lin = linearOffsets(dm, stencil);
  const S = lin.length;
  const inside = interiorTest(dm, stencil.g);
  const nBlocks = Math.ceil(N / b);
  // Node nBlocks is the list head sentinel: next[head] = most recent, prev[head] = least recent.
  const HEAD = nBlocks;
  const next = new Int32Array(nBlocks + 1);
  const prev = new Int32Array(nBlocks + 1);
  const cached = new Uint8Array(nBlocks);
  next[HEAD] = prev[HEAD] = HEAD;
  let size = 0, misses = 0, accesses = 0;
  for (let p = 0; p < N; p++) {
    const i = cells[p]!;
    if (!inside(i)) continue;
    accesses += S;
    for (let s = 0; s < S; s++) {
      const blk = Math.floor(rank[i + lin[s]!]! / b);
      if (cached[blk]) {
        if (next[HEAD] === blk) continue;
        // unlink
        next[prev[blk]!] = next[blk]!;
        prev[next[blk]!] = prev[blk]!;
      } else {
        misses++;
        if (size === c) {
          const lru = prev[HEAD]!;
          next[prev[lru]!] = HEAD;
          prev[HEAD] = prev[lru]!;
          cached[lru] = 0;
        } else size++;
        cached[blk] = 1;
      }
      // push front
      const first = next[HEAD]!;
      next[blk] = first;
      prev[blk] = HEAD;
      prev[first] = blk;
      next[HEAD] = blk;
    }
  }
  return { misses, accesses, missRate: accesses === 0 ? 0 : misses / accesses };
}
