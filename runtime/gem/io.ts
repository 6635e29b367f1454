// Readers for GEM's inputs: atoms from PQR files and surface vertices from MSMS .vert files,
// both into structure-of-arrays form. Every malformed input fails with file:line and why.
import { KernforgeError } from '../errors.ts';
import { platform } from '../platform.ts';

/** Atoms, structure of arrays (Angstrom, elementary charges). */
export interface GemAtoms {
  /** Number of atoms; every array has n entries. */
  n: number;
  /** x coordinates (Angstrom). */
  x: Float64Array;
  /** y coordinates (Angstrom). */
  y: Float64Array;
  /** z coordinates (Angstrom). */
  z: Float64Array;
  /** Partial charges (e). */
  q: Float64Array;
  /** Atomic radii (Angstrom), for the electrostatic radius. */
  r: Float64Array;
}

/** Surface vertices and unit outward normals, structure of arrays. */
export interface GemVertices {
  /** Number of vertices; every array has n entries. */
  n: number;
  /** x coordinates (Angstrom). */
  x: Float64Array;
  /** y coordinates (Angstrom). */
  y: Float64Array;
  /** z coordinates (Angstrom). */
  z: Float64Array;
  /** x components of the unit outward normals. */
  nx: Float64Array;
  /** y components of the unit outward normals. */
  ny: Float64Array;
  /** z components of the unit outward normals. */
  nz: Float64Array;
}

/** A malformed input file, with the file and line it concerns. */
export class GemInputError extends KernforgeError {}

const fail = (file: string, line: number, what: string): never => {
  throw new GemInputError(`${file}:${line}: ${what}`);
};

/** Atoms of a PQR text: ATOM/HETATM lines, the last five whitespace fields are x y z charge radius. */
export function parsePqr(text: string, file = '<pqr>'): GemAtoms {
  const rows: number[][] = [];
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (!/^(ATOM|HETATM)\b/.test(line)) return;
    const f = line.split(/\s+/);
    if (f.length < 7) fail(file, i + 1, `expected x y z charge radius at the end of the line, found ${f.length - 1} field(s) after ${f[0]}`);
    const vals = f.slice(-5).map(Number);
    const bad = vals.findIndex((v) => !Number.isFinite(v));
    if (bad >= 0) fail(file, i + 1, `${['x', 'y', 'z', 'charge', 'radius'][bad]} is not a number: "${f[f.length - 5 + bad]}"`);
    if (vals[4]! < 0) fail(file, i + 1, `negative radius ${vals[4]}`);
    rows.push(vals);
  });
  if (rows.length === 0) throw new GemInputError(`${file}: no ATOM or HETATM lines: zero atoms`);
  const col = (k: number): Float64Array => Float64Array.from(rows, (r) => r[k]!);
  return { n: rows.length, x: col(0), y: col(1), z: col(2), q: col(3), r: col(4) };
}

/** Vertices of an MSMS .vert text: 3 header lines (the third starts with the count), then x y z nx ny nz ... per line. */
export function parseVert(text: string, file = '<vert>'): GemVertices {
  const lines = text.split('\n');
  if (lines.length < 3) fail(file, lines.length, 'expected 3 header lines');
  const count = Number(lines[2]!.trim().split(/\s+/)[0]);
  if (!Number.isInteger(count) || count < 0) fail(file, 3, `the third header line must start with the vertex count, found "${lines[2]!.trim()}"`);
  const body = lines.slice(3).map((l, i) => [l.trim(), i + 4] as const).filter(([l]) => l !== '');
  if (body.length !== count) fail(file, 3, `header says ${count} vertices but the file has ${body.length} vertex lines`);
  if (count === 0) fail(file, 3, 'zero vertices');
  const v: GemVertices = { n: count, x: new Float64Array(count), y: new Float64Array(count), z: new Float64Array(count), nx: new Float64Array(count), ny: new Float64Array(count), nz: new Float64Array(count) };
  body.forEach(([l, line], k) => {
    const f = l.split(/\s+/).slice(0, 6).map(Number);
    if (f.length < 6) fail(file, line, `expected x y z nx ny nz, found ${f.length} field(s): normals missing`);
    const bad = f.findIndex((x) => !Number.isFinite(x));
    if (bad >= 0) fail(file, line, `${['x', 'y', 'z', 'nx', 'ny', 'nz'][bad]} is not a number`);
    const len = Math.hypot(f[3]!, f[4]!, f[5]!);
    if (len === 0) fail(file, line, 'zero normal');
    v.x[k] = f[0]!;
    v.y[k] = f[1]!;
    v.z[k] = f[2]!;
    v.nx[k] = f[3]! / len;
    v.ny[k] = f[4]! / len;
    v.nz[k] = f[5]! / len;
  });
  return v;
}

/** Read a .pqr file (through the platform: runtime/platform.ts). */
export function readPqr(path: string): GemAtoms {
  return parsePqr(platform().readText(path), path);
}

/** Read an MSMS .vert file (through the platform). */
export function readVert(path: string): GemVertices {
  return parseVert(platform().readText(path), path);
}
