// Every gem-potential gpu.js variant of the default library against the f64 reference on both
// bundled molecules, each in the gpu.js mode its key names. cpu and webasm always run here;
// headlessgl needs the gl package and a display: without one in this process the check runs in
// a child under `xvfb-run -a`, and skips (saying why) only where neither works.
import { describe, it, expect, beforeAll } from 'vitest';
import { spawnSync } from 'node:child_process';
import { libraryKeys } from '../../runtime/variants.ts';
import { readPqr, readVert, gemParams, gemReference, gemVariantInfo, type GemAtoms, type GemVertices, type GemRegion } from '../../runtime/gem/index.ts';
import { runGemGpujs, probeGpujsMode, loadGpujsModule, type GpujsMode } from '../../runtime/gem/gpujs.ts';
import { GPUJS_MODES, type GpujsProbe } from '../../runtime/backends/gpujs.ts';
import { insideGate } from './gem-inside.ts';


const ROOT = new URL('../../', import.meta.url).pathname;
const DATA = new URL('../../data/gem/', import.meta.url).pathname;
const MOLS = ['mb_hhelix', '1uwo_A'];
const keys = libraryKeys('gem-potential', 'gpujs');
/** Projection lengths that put the evaluation points in each region (A + p vs A and A + 2). */
const P_OF: Record<GemRegion, number> = { 1: 0, 2: 1, 3: 3 };
const SALT = 0.15;
const BAR = 8.4e-5;
const modeOf = (key: string): GpujsMode => key.split('.').pop() as GpujsMode;

const rmse = (a: ArrayLike<number>, b: Float64Array): number => Math.sqrt(Array.from(a).reduce((s, x, i) => s + (x - b[i]!) ** 2, 0) / b.length);

/** Probe results of every mode, taken before the tests are defined (which ones run depends on them). */
const PROBES = new Map<GpujsMode, GpujsProbe>(await Promise.all(GPUJS_MODES.map(async (m) => [m, await probeGpujsMode(m)] as const)));

const hasXvfb = spawnSync('sh', ['-c', 'command -v xvfb-run'], { encoding: 'utf8' }).status === 0;

/** How a mode is run here: in this process, in a child under xvfb-run, or not at all (why). */
function howToRun(mode: GpujsMode): { where: 'here' | 'xvfb' } | { where: 'skip'; why: string } {
  const p = PROBES.get(mode)!;
  if (p.ok) return { where: 'here' };
  if (mode === 'headlessgl' && !process.env.DISPLAY && hasXvfb) return { where: 'xvfb' };
  return { where: 'skip', why: p.why };
}

/** phi of `key` on `mol` in a child process under xvfb-run (headless WebGL needs a display). */
function runUnderXvfb(key: string, mol: string, p: number, salt: number): number[] {
  const script = [
    `import { readPqr, readVert } from './runtime/gem/index.ts';`,
    `import { runGemGpujs } from './runtime/gem/gpujs.ts';`,
    `const a = readPqr(${JSON.stringify(`${DATA}${mol}.pqr`)}), v = readVert(${JSON.stringify(`${DATA}${mol}.vert`)});`,
    `const { phi } = await runGemGpujs(${JSON.stringify(key)}, a, v, { p: ${p}, salt: ${salt} });`,
    `process.stdout.write(JSON.stringify(Array.from(phi)));`,
  ].join('\n');
  const r = spawnSync('xvfb-run', ['-a', process.execPath, '--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20, timeout: 120_000 });
  if (r.status !== 0) throw new Error(`xvfb-run child failed (${r.status}): ${r.stderr.slice(-2000)}`);
  return JSON.parse(r.stdout) as number[];
}

describe('gem-potential gpu.js library', () => {
  const mols = new Map<string, { atoms: GemAtoms; verts: GemVertices }>();
  const refs = new Map<string, Float64Array>();
  const ref = (mol: string, region: GemRegion, salt: number): Float64Array => {
    const k = `${mol}/${region}/${salt}`;
    const m = mols.get(mol)!;
    if (!refs.has(k)) refs.set(k, gemReference(m.atoms, m.verts, gemParams(m.atoms, { p: P_OF[region], salt })));
    return refs.get(k)!;
  };
  beforeAll(() => {
    for (const mol of MOLS) mols.set(mol, { atoms: readPqr(`${DATA}${mol}.pqr`), verts: readVert(`${DATA}${mol}.vert`) });
  });

  it('is small and covers every region, both salts and every mode', () => {
    expect(keys.length).toBeGreaterThanOrEqual(2);
    expect(keys.length).toBeLessThanOrEqual(5);
    for (const t of ['region1', 'region2', 'region3', 'zero', 'nonzero', 'cpu', 'webasm', 'headlessgl', 'webgpu']) {
      expect(keys.some((k) => k.split('.').includes(t)), t).toBe(true);
    }
    for (const k of keys) expect(k).toMatch(/^gem-potential\.gpujs\.region[123]\.f32\.(zero|nonzero)\.unroll1\.div\.block0\.(cpu|webasm|headlessgl|webgpu)$/);
  });

  it('cpu and webasm are available wherever gpu.js is installed', () => {
    for (const m of ['cpu', 'webasm'] as const) {
      const p = PROBES.get(m)!;
      expect(p.ok, p.ok ? '' : p.why).toBe(true);
    }
  });

  for (const key of keys) {
    const how = howToRun(modeOf(key));
    const title = `${key} matches the f64 reference on Mb.Hhelix and 1uwo_A (RMSE <= ${BAR})${how.where === 'xvfb' ? ' (in a child under xvfb-run)' : ''}`;
    if (how.where === 'skip') {
      it.skip(`${title}: skipped, ${how.why}`, () => {});
      continue;
    }
    it(title, async () => {
      const info = await gemVariantInfo(key);
      const salt = info.salt === 'zero' ? 0 : SALT;
      for (const [mol, m] of mols) {
        const phi = how.where === 'here'
          ? (await runGemGpujs(key, m.atoms, m.verts, { p: P_OF[info.region], salt })).phi
          : runUnderXvfb(key, mol, P_OF[info.region], salt);
        expect(phi.length).toBe(m.verts.n);
        expect(Array.from(phi).every(Number.isFinite), mol).toBe(true);
        expect(rmse(phi, ref(mol, info.region, salt)), mol).toBeLessThanOrEqual(BAR);
      }
      // Region 1 at p = 0 (above) runs the one-root loop (h = 0); p = -3 puts the points inside
      // the sphere r = A, where the loop with both roots runs.
      if (info.region === 1) {
        const m = mols.get('mb_hhelix')!;
        const phi = how.where === 'here' ? (await runGemGpujs(key, m.atoms, m.verts, { p: -3, salt })).phi : runUnderXvfb(key, 'mb_hhelix', -3, salt);
        const gate = insideGate(phi, m.atoms, m.verts, gemParams(m.atoms, { p: -3, salt }), 'f32');
        expect(gate.ok, `p = -3: ${gate.detail}`).toBe(true);
      }
    }, 120_000);
  }

  // Points of the space outside the library render on demand: every region and salt in cpu mode.
  it('every region and salt on demand (cpu mode) on Mb.Hhelix', async () => {
    const m = mols.get('mb_hhelix')!;
    for (const region of [1, 2, 3] as const) {
      for (const s of ['zero', 'nonzero'] as const) {
        const key = `gem-potential.gpujs.region${region}.f32.${s}.unroll1.div.block0.cpu`;
        const salt = s === 'zero' ? 0 : SALT;
        const { phi } = await runGemGpujs(key, m.atoms, m.verts, { p: P_OF[region], salt });
        expect(rmse(phi, ref('mb_hhelix', region, salt)), key).toBeLessThanOrEqual(BAR);
        if (region === 1) {
          const inside = (await runGemGpujs(key, m.atoms, m.verts, { p: -3, salt })).phi;
          const gate = insideGate(inside, m.atoms, m.verts, gemParams(m.atoms, { p: -3, salt }), 'f32');
          expect(gate.ok, `${key}, p = -3: ${gate.detail}`).toBe(true);
        }
      }
    }
  }, 60_000);

  it("reproduces GEM's first four Mb.Hhelix potentials (cpu mode)", async () => {
    const expected = [2.897841, 2.902089, 2.986913, 2.624459];
    const m = mols.get('mb_hhelix')!;
    const { phi } = await runGemGpujs('gem-potential.gpujs.region1.f32.zero.unroll1.div.block0.cpu', m.atoms, m.verts, { epsIn: 1, epsOut: 80 });
    expected.forEach((e, i) => expect(Math.abs(phi[i]! - e)).toBeLessThan(2e-5));
  });

  it('handles no vertices, and a single atom and vertex', async () => {
    const m = mols.get('mb_hhelix')!;
    const key = 'gem-potential.gpujs.region1.f32.zero.unroll1.div.block0.cpu';
    const params = gemParams(m.atoms, { p: 0 });
    const none: GemVertices = { n: 0, x: new Float64Array(0), y: new Float64Array(0), z: new Float64Array(0), nx: new Float64Array(0), ny: new Float64Array(0), nz: new Float64Array(0) };
    expect((await runGemGpujs(key, m.atoms, none, { params })).phi.length).toBe(0);
    const one = (a: Float64Array) => a.slice(0, 1);
    const atom = { ...m.atoms, n: 1, x: one(m.atoms.x), y: one(m.atoms.y), z: one(m.atoms.z), q: one(m.atoms.q), r: one(m.atoms.r) };
    const vert: GemVertices = { n: 1, x: one(m.verts.x), y: one(m.verts.y), z: one(m.verts.z), nx: one(m.verts.nx), ny: one(m.verts.ny), nz: one(m.verts.nz) };
    const { phi } = await runGemGpujs(key, atom, vert, { params });
    expect(rmse(phi, gemReference(atom, vert, params, 1))).toBeLessThanOrEqual(BAR);
  });

  it('emits a gpu.js kernel function naming its mode, and refuses other targets and wrong regions', async () => {
    const mod = await loadGpujsModule('gem-potential.gpujs.region2.f32.nonzero.unroll1.div.block0.webasm');
    expect(mod.MODE).toBe('webasm');
    expect(String(mod.kernel)).toMatch(/this\.thread\.x/);
    const m = mols.get('mb_hhelix')!;
    await expect(runGemGpujs('gem-potential.ts.region1.f32.zero.unroll4.div.block0', m.atoms, m.verts)).rejects.toThrow(/not gpu\.js/);
    await expect(runGemGpujs('gem-potential.gpujs.region2.f32.zero.unroll1.div.block0.cpu', m.atoms, m.verts, { p: 0 })).rejects.toThrow(/region 2, but/);
    await expect(runGemGpujs('gem-potential.gpujs.region1.f32.zero.unroll4.div.block0.cpu', m.atoms, m.verts)).rejects.toThrow(/gpujs-simple/);
  });
});
