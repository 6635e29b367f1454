// gem-potential: readers, electrostatic radius, GEM's published values, every library variant
// against the plain f64 reference, linearity in the charges, the analytic sphere, and errors.
import { describe, it, expect, beforeAll } from 'vitest';
import { libraryKeys } from '../../runtime/variants.ts';
import {
  readPqr, readVert, parsePqr, parseVert, GemInputError, electrostaticRadius, gemParams, gemReference,
  runGem, gemVariantInfo, GEM_QSCALE, GEM_ALPHA, gemWgslConstants, type GemAtoms, type GemVertices, type GemRegion,
} from '../../runtime/gem/index.ts';
import { insideGate } from './gem-inside.ts';


const DATA = new URL('../../data/gem/', import.meta.url).pathname;
const keys = libraryKeys('gem-potential', 'ts');
/** Projection lengths that put the evaluation points in each region (A + p vs A and A + 2). */
const P_OF: Record<GemRegion, number> = { 1: 0, 2: 1, 3: 3 };
const SALT = 0.15;

const rmse = (a: Float64Array, b: Float64Array): number => Math.sqrt(a.reduce((s, x, i) => s + (x - b[i]!) ** 2, 0) / a.length);
const maxDiff = (a: Float64Array, b: Float64Array): number => a.reduce((m, x, i) => Math.max(m, Math.abs(x - b[i]!)), 0);

let mb: { atoms: GemAtoms; verts: GemVertices };
beforeAll(() => {
  mb = { atoms: readPqr(`${DATA}mb_hhelix.pqr`), verts: readVert(`${DATA}mb_hhelix.vert`) };
});

describe('electrostatic radius', () => {
  it('matches GEM for Mb.Hhelix.bondi and 1uwo_A', () => {
    expect(electrostaticRadius(mb.atoms).toFixed(4)).toBe('12.2767');
    expect(electrostaticRadius(readPqr(`${DATA}1uwo_A.pqr`)).toFixed(4)).toBe('16.8940');
  });
  it('is the radius of a single atom', () => {
    expect(electrostaticRadius(sphere(5, 1, 1).atoms)).toBeCloseTo(5, 12);
  });
});

describe('Mb.Hhelix, eps 80/1, no salt', () => {
  // GEM printed these from single-precision code; the f64 reference agrees to 1.6e-6.
  const expected = [2.897841, 2.902089, 2.986913, 2.624459];
  it('reproduces the first four potentials with the reference', () => {
    const phi = gemReference(mb.atoms, mb.verts, gemParams(mb.atoms, { epsIn: 1, epsOut: 80 }));
    expected.forEach((e, i) => expect(Math.abs(phi[i]! - e)).toBeLessThan(2e-6));
  });
  it.each(keys.filter((k) => k.includes('.region1.') && k.includes('.zero.')))('reproduces them with %s', async (key) => {
    const { phi } = await runGem(key, mb.atoms, mb.verts, { epsIn: 1, epsOut: 80 });
    expected.forEach((e, i) => expect(Math.abs(phi[i]! - e)).toBeLessThan(5e-6));
  });
});

describe('gem-potential TypeScript library against the f64 reference on Mb.Hhelix', () => {
  const refs = new Map<string, Float64Array>();
  const ref = (region: GemRegion, salt: number): Float64Array => {
    const k = `${region}/${salt}`;
    if (!refs.has(k)) refs.set(k, gemReference(mb.atoms, mb.verts, gemParams(mb.atoms, { p: P_OF[region], salt })));
    return refs.get(k)!;
  };
  it('covers every region, precision and salt, and every tuning value', () => {
    for (const t of ['region1', 'region2', 'region3', 'f32', 'f64', 'zero', 'nonzero', 'unroll1', 'unroll2', 'unroll4', 'unroll8', 'div', 'nr', 'block0', 'block256', 'block1024']) {
      expect(keys.some((k) => k.split('.').includes(t)), t).toBe(true);
    }
    expect(keys.length).toBeLessThanOrEqual(40);
  });
  it.each(keys)('%s', async (key) => {
    const info = await gemVariantInfo(key);
    const salt = info.salt === 'zero' ? 0 : SALT;
    const { phi } = await runGem(key, mb.atoms, mb.verts, { p: P_OF[info.region], salt });
    const want = ref(info.region, salt);
    expect(phi.every(Number.isFinite)).toBe(true);
    if (info.precision === 'f64') expect(maxDiff(phi, want)).toBeLessThan(1e-11);
    else expect(rmse(phi, want)).toBeLessThanOrEqual(8.4e-5);
  });
  // p = 0 puts region 1's points on the sphere r = A (h = 0: the one-root loop); p = -3 inside it
  // (h > 0: the loop with both roots).
  it.each(keys.filter((k) => k.includes('.region1.')))('%s inside the sphere (p = -3)', async (key) => {
    const info = await gemVariantInfo(key);
    const salt = info.salt === 'zero' ? 0 : SALT;
    const P = gemParams(mb.atoms, { p: -3, salt });
    const { phi } = await runGem(key, mb.atoms, mb.verts, { p: -3, salt });
    const want = gemReference(mb.atoms, mb.verts, P);
    expect(maxDiff(want, ref(1, salt))).toBeGreaterThan(0.1);
    const gate = insideGate(phi, mb.atoms, mb.verts, P, info.precision);
    expect(gate.ok, gate.detail).toBe(true);
    if (info.precision === 'f64') expect(maxDiff(phi, want)).toBeLessThan(1e-11);
  });
});

describe('region 1 constants of the wasm, WGSL and gpu.js hosts (gemWgslConstants)', () => {
  it('fold 1 - g into the scale exactly where h = 0 (p = 0), and keep a tiny h nonzero in f32', () => {
    const beta = 1 / 80;
    const g = (1 - beta) / (1 + GEM_ALPHA * beta);
    const on = gemWgslConstants(mb.atoms, gemParams(mb.atoms, { p: 0 }), 1, false);
    expect(on.h).toBe(0);
    expect(on.g).toBeCloseTo(g, 15);
    expect(on.scale).toBeCloseTo(GEM_QSCALE * (1 - g), 10);
    const inside = gemWgslConstants(mb.atoms, gemParams(mb.atoms, { p: -3 }), 1, false);
    expect(inside.h).toBeGreaterThan(1);
    expect(inside.scale).toBe(GEM_QSCALE);
    // A tiny sphere: h = 1.5e-56 in f64, 0 in f32 unless kept at f32's least normal value
    const tiny = gemWgslConstants(mb.atoms, gemParams(mb.atoms, { p: -1e-36, A: 1e-20 }), 1, false);
    expect(Math.fround(tiny.h)).toBeGreaterThan(0);
    expect(tiny.scale).toBe(GEM_QSCALE);
  });
});

describe('1uwo_A (1441 atoms x 16529 vertices)', () => {
  it('the fastest forms match the reference', async () => {
    const atoms = readPqr(`${DATA}1uwo_A.pqr`);
    const verts = readVert(`${DATA}1uwo_A.vert`);
    const want = gemReference(atoms, verts, gemParams(atoms));
    const f64 = await runGem('gem-potential.ts.region1.f64.zero.unroll4.div.block0', atoms, verts);
    expect(maxDiff(f64.phi, want)).toBeLessThan(1e-11);
    const f32 = await runGem('gem-potential.ts.region1.f32.zero.unroll8.nr.block0', atoms, verts);
    expect(rmse(f32.phi, want)).toBeLessThanOrEqual(8.4e-5);
  });
});

describe('physics', () => {
  it('is linear in the charges', async () => {
    const key = 'gem-potential.ts.region3.f64.nonzero.unroll4.div.block0';
    const opts = { p: 3, salt: SALT, A: electrostaticRadius(mb.atoms) };
    const q1 = mb.atoms.q;
    const q2 = q1.map((_, i) => Math.sin(i));
    const run = (q: Float64Array) => runGem(key, { ...mb.atoms, q }, mb.verts, opts).then((r) => r.phi);
    const [p1, p2, p12] = await Promise.all([run(q1), run(q2), run(q1.map((x, i) => 2 * x - 3 * q2[i]!))]);
    const scale = Math.max(...p12.map(Math.abs));
    p12.forEach((x, i) => expect(Math.abs(x - (2 * p1[i]! - 3 * p2[i]!))).toBeLessThan(1e-12 * scale));
  });

  // One charge q at the centre of a sphere of radius R = A: d = r = A + p for every vertex, and with
  // kappa = 0 regions 2 and 3 give K q ((1 + alpha) - alpha (1 - beta)) / r = q / (eps_out r), times 332.
  const R = 5;
  const q = 0.7;
  it.each([[2, 1], [3, 3]] as const)('gives 332 q / (eps_out r) for a centred charge, region %i', async (region, p) => {
    const { atoms, verts } = sphere(R, q, 200);
    const want = (GEM_QSCALE * q) / (80 * (R + p));
    const settings = { p, epsIn: 4, epsOut: 80 };
    for (const x of gemReference(atoms, verts, gemParams(atoms, settings))) expect(x).toBeCloseTo(want, 12);
    for (const key of keys.filter((k) => k.includes(`.region${region}.`) && k.includes('.zero.'))) {
      const { phi } = await runGem(key, atoms, verts, settings);
      for (const x of phi) expect(Math.abs(x - want)).toBeLessThan(key.includes('.f32.') ? 1e-6 : 1e-12);
    }
  });
});

describe('runGem refuses what a variant cannot compute', () => {
  it('a region other than the settings give', async () => {
    await expect(runGem('gem-potential.ts.region2.f64.zero.unroll4.div.block0', mb.atoms, mb.verts, { p: 0 })).rejects.toThrow(/region 2, but .* give region 1/);
  });
  it('salt with a zero-salt variant', async () => {
    await expect(runGem('gem-potential.ts.region1.f64.zero.unroll4.div.block0', mb.atoms, mb.verts, { salt: 0.1 })).rejects.toThrow(/zero salt folded in/);
  });
  it('a key outside the space', async () => {
    await expect(runGem('gem-potential.ts.region1.f64.zero.unroll4.nr.block0', mb.atoms, mb.verts)).rejects.toThrow(/nr-is-f32/);
  });
});

describe('readers', () => {
  const atom = (x: string) => `ATOM      1  N   ALA     1      ${x}   2.340  15.032   0.1414 1.550`;
  it('takes the last five fields, with or without a chain', () => {
    const a = parsePqr(`REMARK x\n${atom('11.152')}\nHETATM    2  O   HOH A   5   1.0 2.0 3.0 -0.8 1.5\nEND\n`, 'x.pqr');
    expect(a.n).toBe(2);
    expect([a.x[1], a.y[1], a.z[1], a.q[1], a.r[1]]).toEqual([1, 2, 3, -0.8, 1.5]);
  });
  it('names file and line of a malformed PQR line', () => {
    expect(() => parsePqr(`REMARK\n${atom('11.152')}\nATOM 2 N 1.0 2.0\n`, 'm.pqr')).toThrow(/^m\.pqr:3: /);
    expect(() => parsePqr(`${atom('11.152')}\n${atom('nan')}\n`, 'm.pqr')).toThrow(/^m\.pqr:2: x is not a number/);
    expect(() => parsePqr(`${atom('1.0.0')}\n`, 'm.pqr')).toThrow(GemInputError);
    expect(() => parsePqr('REMARK only\nEND\n', 'e.pqr')).toThrow(/e\.pqr: .*zero atoms/);
  });
  const head = (n: number) => `# MSMS\n#vertex #sphere density probe_r\n   ${n}  3  3.00  1.50\n`;
  it('normalizes the normals of a .vert file', () => {
    const v = parseVert(`${head(2)}1 2 3 0 0 2 0 1 1\n4 5 6 3 4 0 0 2 1\n`, 'v.vert');
    expect(v.n).toBe(2);
    expect([v.nx[0], v.ny[0], v.nz[0]]).toEqual([0, 0, 1]);
    expect([v.nx[1], v.ny[1], v.nz[1]]).toEqual([0.6, 0.8, 0]);
  });
  it('names file and line of a bad .vert file', () => {
    expect(() => parseVert(`${head(3)}1 2 3 0 0 1\n4 5 6 0 0 1\n`, 'c.vert')).toThrow(/^c\.vert:3: header says 3 vertices but the file has 2/);
    expect(() => parseVert(`${head(2)}1 2 3 0 0 1\n4 5 6\n`, 'n.vert')).toThrow(/^n\.vert:5: .*normals missing/);
    expect(() => parseVert(`${head(1)}1 2 x 0 0 1\n`, 'x.vert')).toThrow(/^x\.vert:4: z is not a number/);
  });
});

/** One atom (radius R, charge q) at the origin and n vertices on the sphere of radius R, normals outward. */
function sphere(R: number, q: number, n: number): { atoms: GemAtoms; verts: GemVertices } {
  const f = (xs: number[]) => Float64Array.from(xs);
  const dirs = Array.from({ length: n }, (_, i) => {
    const z = 1 - (2 * (i + 0.5)) / n;
    const t = i * Math.PI * (3 - Math.sqrt(5));
    const s = Math.sqrt(1 - z * z);
    return [s * Math.cos(t), s * Math.sin(t), z] as const;
  });
  return {
    atoms: { n: 1, x: f([0]), y: f([0]), z: f([0]), q: f([q]), r: f([R]) },
    verts: {
      n, x: f(dirs.map((d) => R * d[0])), y: f(dirs.map((d) => R * d[1])), z: f(dirs.map((d) => R * d[2])),
      nx: f(dirs.map((d) => d[0])), ny: f(dirs.map((d) => d[1])), nz: f(dirs.map((d) => d[2])),
    },
  };
}
