// Generated molecular surfaces (runtime/gem/surface.ts): exact spheres for one atom, a closed and
// consistently oriented mesh, SES invariants on 1uwo_A (outside every atom, an accessible probe
// along each normal), agreement with the bundled MSMS surfaces in area and GEM potential, the
// .vert writer, and clear errors for bad options.
import { describe, it, expect, beforeAll } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readPqr, readVert, GemInputError, type GemAtoms } from '../../runtime/gem/index.ts';
import { generateSurface, surfaceMesh, surfaceOptions, writeVert, formatVert, DEFAULT_DENSITY, DEFAULT_PROBE, type GemSurface } from '../../runtime/gem/surface.ts';
import { compareSurfaceWithMsms, formatSurfaceComparison, type SurfaceComparison } from '../../bench/gem.ts';

const DATA = new URL('../../data/gem/', import.meta.url).pathname;

const atomsOf = (xyzr: number[][]): GemAtoms => ({
  n: xyzr.length,
  x: Float64Array.from(xyzr, (a) => a[0]!), y: Float64Array.from(xyzr, (a) => a[1]!), z: Float64Array.from(xyzr, (a) => a[2]!),
  q: new Float64Array(xyzr.length), r: Float64Array.from(xyzr, (a) => a[3]!),
});

/** Every directed edge once: closed and consistently oriented; returns the Euler characteristic. */
function closedEuler(s: GemSurface): number {
  const dir = new Map<string, number>();
  const t = s.triangles;
  for (let i = 0; i < t.length; i += 3) {
    for (const [a, b] of [[t[i]!, t[i + 1]!], [t[i + 1]!, t[i + 2]!], [t[i + 2]!, t[i]!]]) dir.set(`${a},${b}`, (dir.get(`${a},${b}`) ?? 0) + 1);
  }
  for (const [k, c] of dir) {
    expect(c, `edge ${k} used ${c} times`).toBe(1);
    const [a, b] = k.split(',');
    expect(dir.has(`${b},${a}`), `edge ${k} has no opposite`).toBe(true);
  }
  return s.n - dir.size / 2 + t.length / 3;
}

describe('one atom', () => {
  const one = atomsOf([[1, 2, 3, 2]]);
  it.each(['ses', 'sas'] as const)('%s is the sphere r (+ probe), with radial normals and its area', (kind) => {
    const s = generateSurface(one, { kind, probe: 1.4, density: 3 });
    const R = kind === 'ses' ? 2 : 3.4;
    for (let i = 0; i < s.n; i++) {
      const dx = s.x[i]! - 1, dy = s.y[i]! - 2, dz = s.z[i]! - 3;
      expect(Math.abs(Math.hypot(dx, dy, dz) - R)).toBeLessThan(1e-9);
      expect((dx * s.nx[i]! + dy * s.ny[i]! + dz * s.nz[i]!) / R).toBeCloseTo(1, 9);
    }
    expect(Math.abs(s.totalArea / (4 * Math.PI * R * R) - 1)).toBeLessThan(0.03);
    expect(s.area.reduce((a, b) => a + b, 0)).toBeCloseTo(s.totalArea, 6);
    expect(s.n / s.totalArea).toBeGreaterThan(0.6 * 3);
    expect(s.n / s.totalArea).toBeLessThan(1.6 * 3);
  });
  it('the raw mesh is a closed, oriented sphere (Euler characteristic 2), with probe 0 too', () => {
    expect(closedEuler(surfaceMesh(one, { probe: 1.4 }, 0.5))).toBe(2);
    expect(closedEuler(surfaceMesh(one, { probe: 0 }, 0.5))).toBe(2);
    // triangles face outwards: the signed volume is positive (4/3 pi r^3 roughly)
    const m = surfaceMesh(one, { probe: 1.4 }, 0.5);
    let vol = 0;
    for (let i = 0; i < m.triangles.length; i += 3) {
      const [a, b, c] = [m.triangles[i]!, m.triangles[i + 1]!, m.triangles[i + 2]!];
      vol += (m.x[a]! * (m.y[b]! * m.z[c]! - m.z[b]! * m.y[c]!) - m.y[a]! * (m.x[b]! * m.z[c]! - m.z[b]! * m.x[c]!) + m.z[a]! * (m.x[b]! * m.y[c]! - m.y[b]! * m.x[c]!)) / 6;
    }
    expect(vol / ((4 / 3) * Math.PI * 8)).toBeGreaterThan(0.95);
  });
});

describe('two atoms with a reentrant neck', () => {
  it('gives one closed surface with contact and reentrant vertices', () => {
    const two = atomsOf([[0, 0, 0, 1.8], [3.4, 0, 0, 1.6]]);
    const m = surfaceMesh(two, { probe: 1.4 }, 0.4);
    expect(closedEuler(m)).toBe(2);
    expect(m.type.includes(1)).toBe(true);
    expect(m.type.includes(2)).toBe(true);
    // the reentrant (toric) vertices lie on probes touching both atoms
    for (let i = 0; i < m.n; i++) {
      const sx = m.x[i]! + 1.4 * m.nx[i]!, sy = m.y[i]! + 1.4 * m.ny[i]!, sz = m.z[i]! + 1.4 * m.nz[i]!;
      expect(Math.hypot(sx, sy, sz)).toBeGreaterThan(3.2 - 0.02);
      expect(Math.hypot(sx - 3.4, sy, sz)).toBeGreaterThan(3.0 - 0.02);
    }
  });
});

describe('1uwo_A, SES with MSMS settings (probe 1.5, density 3)', () => {
  let atoms: GemAtoms, s: GemSurface;
  beforeAll(() => {
    atoms = readPqr(`${DATA}1uwo_A.pqr`);
    s = generateSurface(atoms, { kind: 'ses', probe: 1.5, density: 3 });
  });
  it('lies outside every atom, with an accessible probe along each unit normal', () => {
    // brute force over a sample of the vertices
    let worstAtom = Infinity, worstProbe = Infinity;
    for (let i = 0; i < s.n; i += 7) {
      expect(Math.hypot(s.nx[i]!, s.ny[i]!, s.nz[i]!)).toBeCloseTo(1, 9);
      const px = s.x[i]! + 1.5 * s.nx[i]!, py = s.y[i]! + 1.5 * s.ny[i]!, pz = s.z[i]! + 1.5 * s.nz[i]!;
      for (let j = 0; j < atoms.n; j++) {
        worstAtom = Math.min(worstAtom, Math.hypot(s.x[i]! - atoms.x[j]!, s.y[i]! - atoms.y[j]!, s.z[i]! - atoms.z[j]!) - atoms.r[j]!);
        worstProbe = Math.min(worstProbe, Math.hypot(px - atoms.x[j]!, py - atoms.y[j]!, pz - atoms.z[j]!) - atoms.r[j]! - 1.5);
      }
    }
    expect(worstAtom).toBeGreaterThan(-0.02);
    expect(worstProbe).toBeGreaterThan(-0.05);
    expect(s.area.every((a) => a > 0)).toBe(true);
  });
  it('has about the requested density', () => {
    expect(s.n / s.totalArea).toBeGreaterThan(2.5);
    expect(s.n / s.totalArea).toBeLessThan(3.8);
  });
  it('writes an MSMS .vert that io.ts reads back', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kf-surf-'));
    writeVert(join(dir, 'x.vert'), s, atoms.n, '1uwo_A');
    expect(readdirSync(dir)).toEqual(['x.vert']);
    const v = readVert(join(dir, 'x.vert'));
    expect(v.n).toBe(s.n);
    expect(Math.abs(v.x[5]! - s.x[5]!)).toBeLessThanOrEqual(5e-4);
    expect(readFileSync(join(dir, 'x.vert'), 'utf8').split('\n')[2]!.trim().split(/\s+/)).toEqual([String(s.n), '1441', '3.00', '1.50']);
  });
});

describe('against the bundled MSMS surfaces', () => {
  const rows: SurfaceComparison[] = [];
  beforeAll(() => {
    for (const m of ['mb_hhelix', '1uwo_A']) rows.push(compareSurfaceWithMsms(m, DATA));
    console.log(formatSurfaceComparison(rows));
  });
  it('agrees in area, vertex placement and the GEM potential', () => {
    for (const r of rows) {
      // MSMS -density 3 gives about 3.1-3.3 vertices per A^2 of the generated mesh's area
      expect(r.msmsPerArea).toBeGreaterThan(2.8);
      expect(r.msmsPerArea).toBeLessThan(3.5);
      expect(r.nearMean).toBeLessThan(0.35); // vertex spacing is ~0.6 A
      expect(r.normalAngleMean).toBeLessThan(25);
      expect(Math.abs(r.phiGen.mean - r.phiMsms.mean)).toBeLessThan(0.05 * r.phiRms);
      expect(Math.abs(r.phiGen.min - r.phiMsms.min)).toBeLessThan(0.05 * r.phiRms);
      expect(Math.abs(r.phiGen.max - r.phiMsms.max)).toBeLessThan(0.05 * r.phiRms);
      expect(r.phiDiffMean).toBeLessThan(0.05 * r.phiRms);
    }
  });
});

describe('options', () => {
  it('defaults: SES, probe 1.4, density 3', () => {
    expect(surfaceOptions()).toEqual({ kind: 'ses', probe: DEFAULT_PROBE, density: DEFAULT_DENSITY });
    expect([DEFAULT_PROBE, DEFAULT_DENSITY]).toEqual([1.4, 3]);
  });
  it.each([
    [{ probe: -1 }, /probe radius must be a number >= 0/],
    [{ probe: Number.NaN }, /probe radius must be/],
    [{ density: 0 }, /density must be a positive number/],
    [{ density: -2 }, /density must be a positive number/],
    [{ density: 1e4 }, /too fine/],
    [{ kind: 'vdw' as 'ses' }, /surface must be "ses" or "sas"/],
  ])('refuses %o', (o, re) => {
    expect(() => generateSurface(atomsOf([[0, 0, 0, 1]]), o)).toThrow(GemInputError);
    expect(() => generateSurface(atomsOf([[0, 0, 0, 1]]), o)).toThrow(re);
  });
  it('refuses atoms without volume and no probe', () => {
    expect(() => generateSurface(atomsOf([[0, 0, 0, 0]]), { probe: 0 })).toThrow(/no surface/);
  });
  it('formatVert labels the type of surface', () => {
    const s = generateSurface(atomsOf([[0, 0, 0, 1.5]]), { kind: 'sas', density: 1 });
    expect(formatVert(s, 1).split('\n')[0]).toMatch(/solvent accessible/);
  });
});
