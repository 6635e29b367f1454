// GEM's inputs checked as a whole before any variant runs (`kernforge run gem` and open()'s
// gem.potential): an atom on a surface vertex makes the potential there infinite, and a surface
// far from its molecule, an atom far outside its surface, or a molecule placed far from the origin
// for its size give potentials that are nonsense or that f32 kernels cannot compute. Without these
// checks the variant's verification gate fails and the variant is blamed; here the input is, by
// name: the atom (index, and the PQR file's line) and the vertex (index, and the .vert file's line).
//
// What is allowed:
//  - every atom (of two or more) within GEM_NEIGHBOUR_DISTANCE of another: an atom far from all the
//    others is not part of the molecule, and makes GEM's electrostatic radius A, one sphere for
//    the whole molecule, meaningless (four atoms 300 A apart fail the gate in f32);
//  - every atom within GEM_FAR_FACTOR radii of the surface's centre (radius: its farthest vertex),
//    and every vertex within GEM_FAR_FACTOR radii of the molecule's centre (radius: its farthest
//    atom's sphere); a molecule's own surface encloses its atoms and is enclosed by their spheres;
//  - every atom at least GEM_MIN_DISTANCE from every vertex (the surface lies outside the atoms),
//    and at least GEM_COORD_PRECISION times the largest coordinate from every vertex and every
//    point the kernels evaluate there (the vertex moved p along its normal, and the ion-exclusion
//    point GEM_ION_RADIUS out; in a concave part these may come near an atom): the kernels
//    compute in f32 (about 7 digits), so a point that close to an atom, or a molecule 10,000 A from
//    the origin, loses what separates them.
// The check is linear in atoms and vertices (atoms hashed into cells of twice the allowed distance).
import { platform } from '../platform.ts';
import { GemInputError, type GemAtoms, type GemVertices } from './io.ts';
import { GEM_ION_RADIUS } from './model.ts';

/** The smallest atom-to-vertex distance allowed (A): closer, 1/d dominates and f32 loses it; at 0 the potential is infinite. */
export const GEM_MIN_DISTANCE = 0.1;
/** The smallest atom-to-vertex distance allowed, as a fraction of the largest coordinate (f32 keeps about 7 digits). */
export const GEM_COORD_PRECISION = 5e-4;
/** Atoms and vertices must lie within this many radii of the other set's centre. */
export const GEM_FAR_FACTOR = 2;
/** Every atom of a molecule must have another atom within this distance (A). */
export const GEM_NEIGHBOUR_DISTANCE = 15;

/** Where the inputs came from and how the kernels will evaluate them, for checkGemInputs. */
export interface GemInputContext {
  /** The .pqr file the atoms were read from (its lines are named). */
  pqr?: string;
  /** The .vert file the vertices were read from (its lines are named); absent: given or generated. */
  vert?: string;
  /** What the vertices are when there is no file, e.g. "the generated surface" (default "the surface"). */
  surface?: string;
  /** Projection length p along the normals (A; default 0): the kernels evaluate at vertex + p normal. */
  p?: number;
  /** Put before the message, e.g. "gem.potential: ". */
  prefix?: string;
  /** The error class thrown (default GemInputError). */
  error?: new (message: string) => Error;
}

/** |(x, y, z)| (Math.hypot is slow in V8). */
const norm = (x: number, y: number, z: number): number => Math.sqrt(x * x + y * y + z * z);

const fmt = (x: number): string => (Math.abs(x) >= 100 ? x.toFixed(0) : Math.abs(x) >= 1 ? x.toFixed(2) : x.toPrecision(2));

/** The 1-based line of the `k`-th (0-based) line of `text` that `keep` accepts, or undefined. */
function nthLine(text: string, k: number, keep: (line: string, index: number) => boolean): { line: number; text: string } | undefined {
  const lines = text.split('\n');
  let seen = 0;
  for (let i = 0; i < lines.length; i++) {
    if (!keep(lines[i]!, i)) continue;
    if (seen++ === k) return { line: i + 1, text: lines[i]!.trim() };
  }
  return undefined;
}

function readOrEmpty(path: string): string {
  try {
    return platform().readText(path);
  } catch {
    return '';
  }
}

/** "atom 17 (mol.pqr:21: ATOM 17 O ALA 1)" (the PQR line found only now, on the error path). */
function atomName(i: number, c: GemInputContext): string {
  if (c.pqr === undefined) return `atom ${i + 1} (atoms.x[${i}])`;
  const l = nthLine(readOrEmpty(c.pqr), i, (s) => /^(ATOM|HETATM)\b/.test(s.trim()));
  if (!l) return `atom ${i + 1} of ${c.pqr}`;
  const fields = l.text.split(/\s+/);
  return `atom ${i + 1} (${c.pqr}:${l.line}: ${fields.slice(0, Math.max(1, fields.length - 5)).join(' ')})`;
}

/** "vertex 5 (mol.vert:8)" (the .vert line found only now). */
function vertexName(k: number, c: GemInputContext): string {
  if (c.vert === undefined) return `vertex ${k + 1} of ${c.surface ?? 'the surface'}`;
  const l = nthLine(readOrEmpty(c.vert), k, (s, i) => i >= 3 && s.trim() !== '');
  return l ? `vertex ${k + 1} (${c.vert}:${l.line})` : `vertex ${k + 1} of ${c.vert}`;
}

/**
 * Check atoms and vertices together before a GEM run (see the top of this file for what is
 * allowed); throws `context.error` (default GemInputError) naming the atom and the vertex. The
 * arrays must already be checked (n >= 1, finite values).
 */
export function checkGemInputs(atoms: GemAtoms, vertices: GemVertices, context: GemInputContext = {}): void {
  const c = context;
  const fail = (m: string): never => {
    throw new (c.error ?? GemInputError)(`${c.prefix ?? ''}${m}`);
  };
  const { n } = atoms;
  const m = vertices.n;
  // the two sets' centres and radii
  let ax = 0, ay = 0, az = 0, vx = 0, vy = 0, vz = 0;
  for (let i = 0; i < n; i++) (ax += atoms.x[i]!, ay += atoms.y[i]!, az += atoms.z[i]!);
  for (let k = 0; k < m; k++) (vx += vertices.x[k]!, vy += vertices.y[k]!, vz += vertices.z[k]!);
  (ax /= n, ay /= n, az /= n, vx /= m, vy /= m, vz /= m);
  let Ra = 1, Rv = 1;
  for (let i = 0; i < n; i++) Ra = Math.max(Ra, norm(atoms.x[i]! - ax, atoms.y[i]! - ay, atoms.z[i]! - az) + atoms.r[i]!);
  for (let k = 0; k < m; k++) Rv = Math.max(Rv, norm(vertices.x[k]! - vx, vertices.y[k]! - vy, vertices.z[k]! - vz));
  const apart = norm(ax - vx, ay - vy, az - vz);
  const surfaceName = c.vert ?? c.surface ?? 'the surface';
  if (apart > GEM_FAR_FACTOR * Math.max(Ra, Rv)) {
    fail(
      `${surfaceName} (${m} vertices around (${fmt(vx)}, ${fmt(vy)}, ${fmt(vz)}), radius ${fmt(Rv)} A) lies ${fmt(apart)} A from the molecule${c.pqr ? ` of ${c.pqr}` : ''} ` +
        `(${n} atoms around (${fmt(ax)}, ${fmt(ay)}, ${fmt(az)}), radius ${fmt(Ra)} A); allowed: a surface around its own molecule, within ${GEM_FAR_FACTOR} x the larger radius ` +
        `(are the surface and the atoms of the same molecule, in the same coordinates?)`,
    );
  }
  if (n > 1) {
    // atoms hashed into cells of edge GEM_NEIGHBOUR_DISTANCE: a neighbour that close is in the 27 cells around
    const L = GEM_NEIGHBOUR_DISTANCE;
    const bins = new Map<number, number[]>();
    const at = (i: number) => [Math.floor(atoms.x[i]! / L), Math.floor(atoms.y[i]! / L), Math.floor(atoms.z[i]! / L)] as const;
    const hash = (i: number, j: number, k: number): number => ((i * 73856093) ^ (j * 19349663) ^ (k * 83492791)) | 0;
    for (let i = 0; i < n; i++) {
      const h = hash(...at(i));
      const l = bins.get(h);
      if (l) l.push(i);
      else bins.set(h, [i]);
    }
    for (let i = 0; i < n; i++) {
      const [cx, cy, cz] = at(i);
      let near = false;
      for (let dz = -1; dz <= 1 && !near; dz++) for (let dy = -1; dy <= 1 && !near; dy++) for (let dx = -1; dx <= 1 && !near; dx++) {
        for (const j of bins.get(hash(cx + dx, cy + dy, cz + dz)) ?? []) {
          if (j !== i && norm(atoms.x[i]! - atoms.x[j]!, atoms.y[i]! - atoms.y[j]!, atoms.z[i]! - atoms.z[j]!) <= L) {
            near = true;
            break;
          }
        }
      }
      if (!near) {
        let nearest = Infinity;
        for (let j = 0; j < n; j++) if (j !== i) nearest = Math.min(nearest, norm(atoms.x[i]! - atoms.x[j]!, atoms.y[i]! - atoms.y[j]!, atoms.z[i]! - atoms.z[j]!));
        fail(`${atomName(i, c)} lies ${fmt(nearest)} A from the nearest other atom; allowed: every atom within ${L} A of another (one molecule: an atom far from the rest makes GEM's electrostatic radius meaningless)`);
      }
    }
  }
  for (let i = 0; i < n; i++) {
    const d = norm(atoms.x[i]! - vx, atoms.y[i]! - vy, atoms.z[i]! - vz);
    if (d > GEM_FAR_FACTOR * Rv) {
      fail(`${atomName(i, c)} lies ${fmt(d)} A from the centre of ${surfaceName}, far outside it (radius ${fmt(Rv)} A); allowed: atoms within ${GEM_FAR_FACTOR} x that radius (a molecule's surface encloses its atoms)`);
    }
  }
  for (let k = 0; k < m; k++) {
    const d = norm(vertices.x[k]! - ax, vertices.y[k]! - ay, vertices.z[k]! - az);
    if (d > GEM_FAR_FACTOR * Ra) {
      fail(`${vertexName(k, c)} lies ${fmt(d)} A from the centre of the molecule${c.pqr ? ` of ${c.pqr}` : ''} (radius ${fmt(Ra)} A with the atoms' spheres); allowed: vertices within ${GEM_FAR_FACTOR} x that radius`);
    }
  }

  // the points the kernels evaluate at each vertex: vertex + p normal, and the ion-exclusion point
  const p = c.p ?? 0;
  // (the vertex itself too: an atom on the surface is wrong whatever p is)
  const offsets = [...new Set([0, p, GEM_ION_RADIUS])];
  let C = 0;
  for (let i = 0; i < n; i++) C = Math.max(C, Math.abs(atoms.x[i]!), Math.abs(atoms.y[i]!), Math.abs(atoms.z[i]!));
  for (let k = 0; k < m; k++) C = Math.max(C, Math.abs(vertices.x[k]!) + Math.abs(p), Math.abs(vertices.y[k]!) + Math.abs(p), Math.abs(vertices.z[k]!) + Math.abs(p));
  // at the vertex itself, and at the points the kernels evaluate (numerically only)
  const numeric = Math.max(1e-9, GEM_COORD_PRECISION * C);
  const need = Math.max(GEM_MIN_DISTANCE, numeric);
  // atoms hashed into cells of edge 2 need: a point's atoms closer than `need` are in the 2 x 2 x 2
  // cells whose common corner is nearest to it
  const edge = 2 * need;
  const cell = (x: number): number => Math.floor(x / edge);
  const key = (i: number, j: number, k: number): number => ((i * 73856093) ^ (j * 19349663) ^ (k * 83492791)) | 0;
  const cells = new Map<number, number[]>();
  for (let i = 0; i < n; i++) {
    const h = key(cell(atoms.x[i]!), cell(atoms.y[i]!), cell(atoms.z[i]!));
    const l = cells.get(h);
    if (l) l.push(i);
    else cells.set(h, [i]);
  }
  for (let k = 0; k < m; k++) {
    for (const off of offsets) {
      const within = off === 0 ? need : numeric;
      const need2 = within * within;
      const px = vertices.x[k]! + off * vertices.nx[k]!, py = vertices.y[k]! + off * vertices.ny[k]!, pz = vertices.z[k]! + off * vertices.nz[k]!;
      const [cx, cy, cz] = [Math.floor(px / edge - 0.5), Math.floor(py / edge - 0.5), Math.floor(pz / edge - 0.5)];
      for (let dz = 0; dz <= 1; dz++) for (let dy = 0; dy <= 1; dy++) for (let dx = 0; dx <= 1; dx++) {
        const l = cells.get(key(cx + dx, cy + dy, cz + dz));
        if (!l) continue;
        for (const i of l) {
          const d2 = (atoms.x[i]! - px) ** 2 + (atoms.y[i]! - py) ** 2 + (atoms.z[i]! - pz) ** 2;
          if (d2 >= need2) continue;
          const d = Math.sqrt(d2);
          const point = off === 0 ? vertexName(k, c) : `the point ${fmt(off)} A out along the normal of ${vertexName(k, c)} (${off === p ? 'where the kernels evaluate with --proj-len' : 'the ion-exclusion point'})`;
          const why = within > GEM_MIN_DISTANCE || off !== 0
            ? `with coordinates up to ${fmt(C)} A from the origin the f32 kernels cannot tell them apart; allowed: at least ${GEM_COORD_PRECISION} x the largest coordinate, ${fmt(within)} A${within > GEM_MIN_DISTANCE ? ' (move the molecule and its surface near the origin)' : ''}`
            : `${d === 0 ? 'the potential there is infinite' : '1/d dominates the potential there and f32 kernels lose it'}; allowed: at least ${GEM_MIN_DISTANCE} A (a molecule's surface lies outside its atoms)`;
          fail(`${atomName(i, c)} lies ${d === 0 ? '0' : fmt(d)} A from ${point}: ${why}`);
        }
      }
    }
  }
}
