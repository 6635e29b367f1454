// Every md-nonbonded gpu.js variant of the default library against the f64 reference on the
// three verification systems, each in the gpu.js mode its key names: cpu and webasm always run
// here; webgpu where a WebGPU adapter is found (Mesa llvmpipe counts); headlessgl needs the gl
// package and a display: without one in this process its variants run in one child under
// `xvfb-run -a`, and skip (saying why) only where neither works. Plus the gate failing on
// deliberately broken kernels, real numbers against the TypeScript f32 kernel, and user errors.
import { describe, it, expect } from 'vitest';
import { spawnSync } from 'node:child_process';
import { libraryKeys, gpujsSource } from '../../runtime/variants.ts';
import { verifyVariant, type Deviation } from '../../runtime/md/verify.ts';
import { verificationCases } from '../../runtime/md/cases.ts';
import { runGpujs, runGpujsWith, loadGpujsKernel } from '../../runtime/md/gpujs.ts';
import { runTs } from '../../runtime/md/kernels.ts';
import { MdProblem } from '../../runtime/md/problem.ts';
import { waterBox } from '../../runtime/md/system.ts';
import { probeGpujsMode, type GpujsMode } from '../../runtime/backends/gpujs.ts';

const ROOT = new URL('../../', import.meta.url).pathname;
const cases = verificationCases('full');
const keys = libraryKeys('md-nonbonded', 'gpujs');
const modeOf = (key: string): GpujsMode => key.split('.').pop() as GpujsMode;
const hasXvfb = spawnSync('sh', ['-c', 'command -v xvfb-run'], { encoding: 'utf8' }).status === 0;
const probes = Object.fromEntries(await Promise.all((['cpu', 'webasm', 'headlessgl', 'webgpu'] as const).map(async (m) => [m, await probeGpujsMode(m)] as const)));

/** The gate's outcome for `keys` on every case, in a child under xvfb-run (headless WebGL needs a display). */
function verifyUnderXvfb(list: string[]): Record<string, Deviation[]> {
  const script = [
    `import { verifyVariant } from './runtime/md/verify.ts';`,
    `import { verificationCases } from './runtime/md/cases.ts';`,
    `const out = {};`,
    `for (const key of ${JSON.stringify(list)}) { out[key] = []; for (const c of verificationCases('full')) out[key].push(await verifyVariant(key, c)); }`,
    `process.stdout.write(JSON.stringify(out));`,
    `process.exit(0);`,
  ].join('\n');
  const r = spawnSync('xvfb-run', ['-a', process.execPath, '--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20, timeout: 300_000 });
  if (r.status !== 0) throw new Error(`xvfb-run child failed (${r.status}): ${r.stderr.slice(-2000)}`);
  return JSON.parse(r.stdout) as Record<string, Deviation[]>;
}

describe('md-nonbonded gpu.js library', () => {
  it('has every interaction (cpu), the workloads force kernels on 1x1, 4x4, 8x8 in every mode, lb/table with energies (webasm)', () => {
    expect(keys.length).toBe(32);
    for (const k of keys) expect(k).toMatch(/^md-nonbonded\.gpujs\.(lj|lj-rf|lj-ewald)\.(geom|lb|table)\.(shift|plain)\.f32\.(f|fe|fev)\.((analytical|tabulated)\.)?(1x1|2x2|4x4|8x8)\.full\.(mask|branch)\.(mask|branch)\.(cpu|webasm|headlessgl|webgpu)$/);
    for (const m of ['cpu', 'webasm', 'headlessgl', 'webgpu']) expect(keys.filter((k) => modeOf(k) === m).length, m).toBeGreaterThanOrEqual(6);
  });

  it('cpu and webasm run wherever gpu.js is installed', () => {
    for (const m of ['cpu', 'webasm'] as const) expect(probes[m]!.ok, probes[m]!.ok ? '' : (probes[m] as { why: string }).why).toBe(true);
  });

  for (const key of keys.filter((k) => modeOf(k) !== 'headlessgl')) {
    const p = probes[modeOf(key)]!;
    if (!p.ok) {
      it.skip(`${key}: skipped, ${p.why}`, () => {});
      continue;
    }
    it(`${key} matches the reference on ${cases.map((c) => c.name).join(', ')}`, async () => {
      for (const c of cases) {
        const d = await verifyVariant(key, c, runGpujs);
        expect(d.ok, `${c.name}: ${d.detail}`).toBe(true);
        expect(d.force).toBeGreaterThan(0); // f32 never matches the f64 reference exactly
      }
    }, 120_000);
  }

  const gl = keys.filter((k) => modeOf(k) === 'headlessgl');
  const glHow = probes.headlessgl!.ok ? 'here' : !process.env.DISPLAY && hasXvfb ? 'xvfb' : undefined;
  if (!glHow) it.skip(`headlessgl variants: skipped, ${(probes.headlessgl as { why: string }).why}`, () => {});
  else {
    it(`headlessgl variants (${gl.length}) match the reference${glHow === 'xvfb' ? ' (in a child under xvfb-run)' : ''}`, async () => {
      const res: Record<string, Deviation[]> = {};
      if (glHow === 'here') for (const k of gl) res[k] = await Promise.all(cases.map((c) => verifyVariant(k, c, runGpujs)));
      else Object.assign(res, verifyUnderXvfb(gl));
      for (const k of gl) {
        expect(res[k]!.length, k).toBe(cases.length);
        for (const d of res[k]!) expect(d.ok, `${k}: ${d.detail}`).toBe(true);
      }
    }, 300_000);
  }

  it('every interaction with energies and virial in webasm mode too (rendered on demand)', async () => {
    for (const key of keys.filter((k) => k.includes('.fev.') && k.endsWith('.cpu'))) {
      const k = key.replace(/\.cpu$/, '.webasm');
      for (const c of cases.slice(0, 2)) {
        const d = await verifyVariant(k, c);
        expect(d.ok, `${k} ${c.name}: ${d.detail}`).toBe(true);
      }
    }
  }, 120_000);

  it('gives the numbers of the TypeScript f32 kernel on SPC/E water (forces, both energies, virial)', async () => {
    const settings = { interaction: 'lj-rf', comb: 'geom', shift: true, rc: 0.8 } as const;
    const sys = waterBox(216, 7);
    const g = await runGpujs('md-nonbonded.gpujs.lj-rf.geom.shift.f32.fev.4x4.full.mask.mask.cpu', new MdProblem(sys, settings, 4, 4, 0.85, { full: true }));
    const t = await runTs('md-nonbonded.ts.lj-rf.geom.shift.f32.fev.4x4.mask.mask', new MdProblem(sys, settings, 4, 4, 0.85));
    // water: attractive reaction-field Coulomb (-1104 kJ/mol here), repulsive LJ at this density
    expect(t.coul).toBeLessThan(-1000);
    expect(t.vdw).toBeGreaterThan(0);
    expect(Math.abs(g.coul - t.coul)).toBeLessThan(1e-5 * Math.abs(t.coul));
    expect(Math.abs(g.vdw - t.vdw)).toBeLessThan(1e-4 * Math.abs(t.vdw));
    let worst = 0;
    let scale = 0;
    for (let i = 0; i < t.f.length; i++) {
      worst = Math.max(worst, Math.abs(g.f[i]! - t.f[i]!));
      scale = Math.max(scale, Math.abs(t.f[i]!));
    }
    expect(scale).toBeGreaterThan(100);
    expect(worst).toBeLessThan(1e-4 * scale);
    for (let k = 0; k < 9; k++) expect(Math.abs(g.virial[k]! - t.virial[k]!)).toBeLessThan(1e-3 * Math.abs(t.virial[0]!));
  });

  it('accumulates like the TS kernels and reuses one kernel across list sizes (output and loop bound grow)', async () => {
    const key = 'md-nonbonded.gpujs.lj-rf.geom.shift.f32.fev.2x2.full.mask.mask.webasm';
    const k = await loadGpujsKernel(key);
    try {
      const settings = { interaction: 'lj-rf', comb: 'geom', shift: true, rc: 0.8 } as const;
      for (const n of [216, 500]) {
        const p = new MdProblem(waterBox(n, 3), settings, 2, 2, 0.85, { full: true });
        const out = p.outputs('f32');
        const args = { ...p.args('f32'), ...out };
        await k.run(args);
        const once = Float32Array.from(out.f as Float32Array);
        const e1 = out.energy[1]!;
        await k.run(args);
        for (let i = 0; i < once.length; i += 5) expect(out.f[i]).toBeCloseTo(2 * once[i]!, 2);
        expect(out.energy[1]! / e1).toBeCloseTo(2, 6);
        const ts = await runTs('md-nonbonded.ts.lj-rf.geom.shift.f32.fev.1x1.full.mask.mask', new MdProblem(waterBox(n, 3), settings, 1, 1, 0.85, { full: true }));
        expect(Math.abs(p.finish('f32', { f: once, energy: new Float64Array([0, e1]), fshift: new Float64Array(81) }).coul - ts.coul)).toBeLessThan(1e-5 * Math.abs(ts.coul));
      }
    } finally {
      k.destroy();
    }
  }, 60_000);

  it('fails the gate on deliberately broken kernels (a wrong LJ force, a wrong Coulomb energy)', async () => {
    const key = 'md-nonbonded.gpujs.lj-rf.geom.shift.f32.fev.4x4.full.mask.mask.cpu';
    const src = await gpujsSource(key);
    const c = cases[0]!;
    const run = (s: string) => (k: string, p: MdProblem) => runGpujsWith(k, p, s);
    const badForce = src.replaceAll('(12.0 * vr12_', '(12.5 * vr12_');
    expect(badForce).not.toBe(src);
    const f = await verifyVariant(key, c, run(badForce));
    expect(f.ok).toBe(false);
    expect(f.force).toBeGreaterThan(1);
    const badEnergy = src.replaceAll('this.constants.crf))', '0.9 * this.constants.crf))');
    expect(badEnergy).not.toBe(src);
    const e = await verifyVariant(key, c, run(badEnergy));
    expect(e.ok).toBe(false);
    expect(e.energy).toBeGreaterThan(1);
    expect(e.force).toBeLessThanOrEqual(1);
  }, 60_000);

  it('refuses other targets, half lists and f64 arrays with clear errors', async () => {
    const key = 'md-nonbonded.gpujs.lj.geom.plain.f32.f.4x4.full.mask.mask.cpu';
    const settings = { interaction: 'lj', comb: 'geom', shift: false, rc: 0.8 } as const;
    const half = new MdProblem(waterBox(216, 1), settings, 4, 4, 0.85);
    await expect(runGpujs(key, half)).rejects.toThrow(/needs a full neighbour list/);
    await expect(loadGpujsKernel('md-nonbonded.ts.lj.geom.plain.f32.f.4x4.mask.mask')).rejects.toThrow(/not gpu\.js/);
    const full = new MdProblem(waterBox(216, 1), settings, 4, 4, 0.85, { full: true });
    const k = await loadGpujsKernel(key);
    try {
      await expect(k.run({ ...full.args('f64'), ...full.outputs('f64') })).rejects.toThrow(/take f32 arrays/);
    } finally {
      k.destroy();
    }
    await expect(runGpujs('md-nonbonded.gpujs.lj.geom.plain.f32.f.4x2.full.mask.mask.cpu', full)).rejects.toThrow(/gpujs-square/);
  });
});
