// Every gem-potential WGSL variant of the default library against the f64 reference, through
// Dawn (a GPU, or Mesa llvmpipe on machines without one). CI installs llvmpipe, so there it must not skip.
import { describe, it, expect, beforeAll } from 'vitest';
import { libraryKeys } from '../../runtime/variants.ts';
import { probeGpu } from '../../runtime/backends/webgpu.ts';
import { readPqr, readVert, gemParams, gemReference, gemVariantInfo, type GemAtoms, type GemVertices, type GemRegion } from '../../runtime/gem/index.ts';
import { runGemWgsl } from '../../runtime/gem/wgsl.ts';

const DATA = new URL('../../../shared/data/gem/', import.meta.url).pathname;
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
  const refs = new Map<string, Float64Array>();
  const ref = (region: GemRegion, salt: number): Float64Array => {
    const k = `${region}/${salt}`;
    if (!refs.has(k)) refs.set(k, gemReference(mb.atoms, mb.verts, gemParams(mb.atoms, { p: P_OF[region], salt })));
    return refs.get(k)!;
  };
  beforeAll(() => {
    mb = { atoms: readPqr(`${DATA}mb_hhelix.pqr`), verts: readVert(`${DATA}mb_hhelix.vert`) };
  });

  it('covers every region and salt, unroll 1 and 4', () => {
    for (const t of ['region1', 'region2', 'region3', 'zero', 'nonzero', 'unroll1', 'unroll4', 'workgroup64']) {
      expect(keys.some((k) => k.split('.').includes(t)), t).toBe(true);
    }
    expect(keys.length).toBeLessThanOrEqual(10);
  });

  it.each(keys)('%s matches the f64 reference on Mb.Hhelix (RMSE <= 8.4e-5)', async (key) => {
    const info = await gemVariantInfo(key);
    const salt = info.salt === 'zero' ? 0 : SALT;
    const { phi } = await runGemWgsl(key, mb.atoms, mb.verts, { p: P_OF[info.region], salt });
    expect(phi.every(Number.isFinite)).toBe(true);
    expect(rmse(phi, ref(info.region, salt))).toBeLessThanOrEqual(8.4e-5);
  }, 30_000);

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
