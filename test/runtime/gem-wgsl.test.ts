// Every gem-potential WGSL variant of the default library (untiled, and with atom tiles in
// workgroup memory and a vertices x atoms register tile) against the f64 reference on both
// bundled molecules with surfaces, through Dawn (a GPU, or Mesa llvmpipe on machines without
// one). CI installs llvmpipe, so there it must not skip.
import { describe, it, expect, beforeAll } from 'vitest';
import { libraryKeys } from '../../runtime/variants.ts';
import { probeGpu } from '../../runtime/backends/webgpu.ts';
import { readPqr, readVert, gemParams, gemReference, gemVariantInfo, type GemAtoms, type GemVertices, type GemRegion } from '../../runtime/gem/index.ts';
import { runGemWgsl } from '../../runtime/gem/wgsl.ts';
import { insideGate } from './gem-inside.ts';


const DATA = new URL('../../data/gem/', import.meta.url).pathname;
const probe = await probeGpu();
const keys = libraryKeys('gem-potential', 'wgsl');
/** Projection lengths that put the evaluation points in each region (A + p vs A and A + 2). */
const P_OF: Record<GemRegion, number> = { 1: 0, 2: 1, 3: 3 };
const SALT = 0.15;

const rmse = (a: Float64Array, b: Float64Array): number => Math.sqrt(a.reduce((s, x, i) => s + (x - b[i]!) ** 2, 0) / a.length);

describe('WebGPU adapter', () => {
  it.runIf(process.env.CI)('is available in CI (llvmpipe at least)', () => {
    expect(probe.ok, probe.ok ? '' : probe.why).toBe(true);
  });
});

describe.skipIf(!probe.ok)(`gem-potential WGSL library on ${probe.ok ? probe.name : `no adapter (${probe.ok ? '' : probe.why})`}`, () => {
  let mb: { atoms: GemAtoms; verts: GemVertices };
  const mols = new Map<string, { atoms: GemAtoms; verts: GemVertices }>();
  const refs = new Map<string, Float64Array>();
  const ref = (mol: string, region: GemRegion, salt: number): Float64Array => {
    const k = `${mol}/${region}/${salt}`;
    const m = mols.get(mol)!;
    if (!refs.has(k)) refs.set(k, gemReference(m.atoms, m.verts, gemParams(m.atoms, { p: P_OF[region], salt })));
    return refs.get(k)!;
  };
  beforeAll(() => {
    for (const mol of ['mb_hhelix', '1uwo_A']) mols.set(mol, { atoms: readPqr(`${DATA}${mol}.pqr`), verts: readVert(`${DATA}${mol}.vert`) });
    mb = mols.get('mb_hhelix')!;
  });

  it('covers every region and salt, unroll 1 and 4, untiled and tiled, both register tiles', () => {
    for (const t of ['region1', 'region2', 'region3', 'zero', 'nonzero', 'unroll1', 'unroll4', 'workgroup64', 'workgroup128', 'block0', 'block64', 'block128', 'block256', 'atoms1', 'atoms4']) {
      expect(keys.some((k) => k.split('.').includes(t)), t).toBe(true);
    }
    for (const r of ['region1', 'region2', 'region3']) expect(keys.some((k) => k.includes(`.${r}.`) && k.includes('.nonzero.') && !k.includes('.block0.')), `${r} tiled with salt`).toBe(true);
    expect(keys.length).toBeLessThanOrEqual(20);
  });

  // Both molecules in one test per variant: the shader is compiled once (slow on llvmpipe).
  it.each(keys)('%s matches the f64 reference on Mb.Hhelix and 1uwo_A (RMSE <= 8.4e-5)', async (key) => {
    const info = await gemVariantInfo(key);
    const salt = info.salt === 'zero' ? 0 : SALT;
    for (const [mol, m] of mols) {
      const { phi } = await runGemWgsl(key, m.atoms, m.verts, { p: P_OF[info.region], salt });
      expect(phi.length).toBe(m.verts.n);
      expect(phi.every(Number.isFinite), mol).toBe(true);
      expect(rmse(phi, ref(mol, info.region, salt)), mol).toBeLessThanOrEqual(8.4e-5);
    }
    // Region 1 at p = 0 (above) runs the one-root loop (h = 0); p = -3 puts the points inside the
    // sphere r = A, where the loop with both roots runs.
    if (info.region === 1) {
      const P = gemParams(mb.atoms, { p: -3, salt });
      const { phi } = await runGemWgsl(key, mb.atoms, mb.verts, { params: P });
      const gate = insideGate(phi, mb.atoms, mb.verts, P, 'f32');
      expect(gate.ok, `p = -3: ${gate.detail}`).toBe(true);
    }
  }, 60_000);

  it('tiles: atom counts that are not a multiple of the tile, and fewer vertices than a workgroup', async () => {
    const key = 'gem-potential.wgsl.region1.f32.zero.unroll4.div.block256.workgroup64.atoms4';
    const pick = (n: number) => ({ ...mb.atoms, n, x: mb.atoms.x.slice(0, n), y: mb.atoms.y.slice(0, n), z: mb.atoms.z.slice(0, n), q: mb.atoms.q.slice(0, n), r: mb.atoms.r.slice(0, n) });
    const sub = (n: number): GemVertices => ({ n, x: mb.verts.x.slice(0, n), y: mb.verts.y.slice(0, n), z: mb.verts.z.slice(0, n), nx: mb.verts.nx.slice(0, n), ny: mb.verts.ny.slice(0, n), nz: mb.verts.nz.slice(0, n) });
    for (const [na, nv] of [[1, 3], [257, 61], [382, 5883]] as const) {
      const atoms = pick(na), verts = sub(nv);
      const params = gemParams(mb.atoms, { p: 0 }); // A from the whole molecule: region 1
      const { phi } = await runGemWgsl(key, atoms, verts, { params });
      expect(rmse(phi, gemReference(atoms, verts, params, 1)), `${na} atoms, ${nv} vertices`).toBeLessThanOrEqual(8.4e-5);
    }
  }, 60_000);

  it.each(keys.filter((k) => k.includes('.region1.') && k.includes('.zero.')))('reproduces GEM\'s first four Mb.Hhelix potentials with %s', async (key) => {
    // GEM's printed values, eps 80/1, no salt (test/runtime/gem.test.ts).
    const expected = [2.897841, 2.902089, 2.986913, 2.624459];
    const { phi } = await runGemWgsl(key, mb.atoms, mb.verts, { epsIn: 1, epsOut: 80 });
    expected.forEach((e, i) => expect(Math.abs(phi[i]! - e)).toBeLessThan(2e-5));
  }, 30_000);

  it('refuses a TypeScript key and a region the settings do not give', async () => {
    await expect(runGemWgsl('gem-potential.ts.region1.f32.zero.unroll4.div.block0', mb.atoms, mb.verts)).rejects.toThrow(/not WGSL/);
    await expect(runGemWgsl('gem-potential.wgsl.region2.f32.zero.unroll4.div.block0.workgroup64', mb.atoms, mb.verts, { p: 0 })).rejects.toThrow(/region 2, but/);
  });
});
