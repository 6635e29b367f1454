// The MiniMD / LAMMPS LJ-fluid benchmark system (REFERENCES.md section 4): LJ units, an fcc
// lattice of n x n x n unit cells at reduced density rho, and MiniMD's own velocity
// initialisation, so that its printed thermo can be reproduced digit for digit.
import type { MdSystem } from './system.ts';
import { MdInputError } from './errors.ts';

export interface LjFluid {
  sys: MdSystem;
  mass: Float64Array;
  v: Float64Array;
}

const IA = 16807;
const IM = 2147483647;
const IQ = 127773;
const IR = 2836;

/** MiniMD's Park-Miller step (Schrage's method, no masking); returns the new state. */
function parkMiller(state: number): number {
  const k = Math.floor(state / IQ);
  let s = IA * (state - k * IQ) - IR * k;
  if (s < 0) s += IM;
  return s;
}

/** Kinetic temperature sum(m v^2) / (3N - 3) in LJ units (kB = 1). */
export function ljTemperature(v: Float64Array, mass: Float64Array): number {
  let s = 0;
  for (let a = 0; a < mass.length; a++) s += mass[a]! * (v[3 * a]! ** 2 + v[3 * a + 1]! ** 2 + v[3 * a + 2]! ** 2);
  return s / (3 * mass.length - 3);
}

/**
 * fcc lattice with `cells` unit cells per edge (4 atoms each), lattice constant (4/rho)^(1/3),
 * LJ sigma = epsilon = mass = 1, velocities as MiniMD draws them, centre-of-mass motion removed and
 * scaled to temperature t0.
 */
export function ljFluid(o: { cells: number; density?: number; t0?: number }): LjFluid {
  const n = o.cells;
  const rho = o.density ?? 0.8442;
  const t0 = o.t0 ?? 1.44;
  if (!Number.isInteger(n) || n < 1) throw new MdInputError(`--cells must be a positive integer (got ${n})`);
  if (!(rho > 0) || !(t0 >= 0)) throw new MdInputError(`density must be > 0 and temperature >= 0 (got ${rho}, ${t0})`);
  const a = Math.cbrt(4 / rho);
  const L = n * a;
  const natoms = 4 * n * n * n;
  const x = new Float64Array(3 * natoms);
  const v = new Float64Array(3 * natoms);
  let count = 0;
  const m2 = 2 * n;
  for (let k = 0; k < m2; k++) {
    for (let j = 0; j < m2; j++) {
      for (let i = 0; i < m2; i++) {
        if ((i + j + k) % 2 !== 0) continue;
        x[3 * count] = 0.5 * a * i;
        x[3 * count + 1] = 0.5 * a * j;
        x[3 * count + 2] = 0.5 * a * k;
        let s = k * m2 * m2 + j * m2 + i + 1;
        for (let d = 0; d < 3; d++) {
          for (let m = 0; m < 5; m++) s = parkMiller(s);
          s = parkMiller(s);
          v[3 * count + d] = s / IM;
        }
        count++;
      }
    }
  }
  const mass = new Float64Array(natoms).fill(1);
  // Remove the centre-of-mass velocity, then scale to t0.
  for (let d = 0; d < 3; d++) {
    let vt = 0;
    for (let c = 0; c < natoms; c++) vt += v[3 * c + d]!;
    vt /= natoms;
    for (let c = 0; c < natoms; c++) v[3 * c + d]! -= vt;
  }
  const t = ljTemperature(v, mass);
  const scale = t > 0 ? Math.sqrt(t0 / t) : 0;
  for (let c = 0; c < 3 * natoms; c++) v[c]! *= scale;
  const sys: MdSystem = {
    box: [L, L, L],
    x,
    q: new Float64Array(natoms),
    type: new Int32Array(natoms),
    ljTypes: [{ sigma: 1, epsilon: 1 }],
    exclusions: Array.from({ length: natoms }, () => new Int32Array(0)),
  };
  return { sys, mass, v };
}
