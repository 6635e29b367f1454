// Every bigdft-conv gpu.js variant of the default library against the f64 separable reference
// (verifyConv, the f32-arithmetic bound shared with WGSL), each in the gpu.js mode its key names:
// cpu and webasm always; webgpu where a WebGPU adapter is found (Mesa llvmpipe counts);
// headlessgl in this process with a display, else in one child under `xvfb-run -a`, skipped
// (saying why) only where neither works. Plus the free checks of REFERENCES.md section 2, the
// agreement with the TypeScript f32 variant, a broken kernel failing the gate, and user errors.
import { describe, it, expect } from 'vitest';
import { spawnSync } from 'node:child_process';
import { libraryKeys, gpujsSource } from '../../runtime/variants.ts';
import { verifyConv, randomValues, type ConvVerification } from '../../runtime/bigdft/verify.ts';
import { applyGpujs3d, prepareGpujs3d } from '../../runtime/bigdft/gpujs.ts';
import { prepare3d, ConvInputError } from '../../runtime/bigdft/apply.ts';
import { probeGpujsMode, type GpujsMode } from '../../runtime/backends/gpujs.ts';
import type { Dims } from '../../runtime/bigdft/reference.ts';

const ROOT = new URL('../../', import.meta.url).pathname;
const keys = libraryKeys('bigdft-conv', 'gpujs');
const modeOf = (key: string): GpujsMode => key.split('.').pop() as GpujsMode;
const hasXvfb = spawnSync('sh', ['-c', 'command -v xvfb-run'], { encoding: 'utf8' }).status === 0;
const probes = Object.fromEntries(await Promise.all((['cpu', 'webasm', 'headlessgl', 'webgpu'] as const).map(async (m) => [m, await probeGpujsMode(m)] as const)));
const H = 0.4;

function verifyUnderXvfb(list: string[]): Record<string, ConvVerification> {
  const script = [
    `import { verifyConv } from './runtime/bigdft/verify.ts';`,
    `const out = {};`,
    `for (const key of ${JSON.stringify(list)}) out[key] = await verifyConv(key, { h: ${H} });`,
    `process.stdout.write(JSON.stringify(out));`,
    `process.exit(0);`,
  ].join('\n');
  const r = spawnSync('xvfb-run', ['-a', process.execPath, '--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20, timeout: 300_000 });
  if (r.status !== 0) throw new Error(`xvfb-run child failed (${r.status}): ${r.stderr.slice(-2000)}`);
  return JSON.parse(r.stdout) as Record<string, ConvVerification>;
}

describe('bigdft-conv gpu.js library', () => {
  it('has every filter on every backend (split), table wrapping and the free boundary (webasm)', () => {
    expect(keys.length).toBe(16);
    for (const k of keys) expect(k).toMatch(/^bigdft-conv\.gpujs\.(magic|magic-t|kinetic)\.(periodic|free)\.f32\.separable-t\.(table|split)\.(cpu|webasm|headlessgl|webgpu)$/);
    for (const m of ['cpu', 'webasm', 'headlessgl', 'webgpu']) expect(keys.filter((k) => modeOf(k) === m).length, m).toBeGreaterThanOrEqual(3);
  });

  for (const key of keys.filter((k) => modeOf(k) !== 'headlessgl')) {
    const p = probes[modeOf(key)]!;
    if (!p.ok) {
      it.skip(`${key}: skipped, ${p.why}`, () => {});
      continue;
    }
    it(`${key} matches the f64 reference within the f32 bound`, async () => {
      const v = await verifyConv(key, { h: H });
      expect(v.ok, `max error ${v.maxError} > ${v.tolerance}`).toBe(true);
      expect(v.maxError).toBeGreaterThan(0);
    }, 60_000);
  }

  const gl = keys.filter((k) => modeOf(k) === 'headlessgl');
  const glHow = probes.headlessgl!.ok ? 'here' : !process.env.DISPLAY && hasXvfb ? 'xvfb' : undefined;
  if (!glHow) it.skip(`headlessgl variants: skipped, ${(probes.headlessgl as { why: string }).why}`, () => {});
  else {
    it(`headlessgl variants (${gl.length}) match the reference${glHow === 'xvfb' ? ' (in a child under xvfb-run)' : ''}`, async () => {
      const res: Record<string, ConvVerification> = {};
      if (glHow === 'here') for (const k of gl) res[k] = await verifyConv(k, { h: H });
      else Object.assign(res, verifyUnderXvfb(gl));
      for (const k of gl) expect(res[k]!.ok, `${k}: max error ${res[k]!.maxError} > ${res[k]!.tolerance}`).toBe(true);
    }, 300_000);
  }

  it('keeps a constant field (magic filter coefficients sum to 1); the kinetic operator sends it to zero', async () => {
    const dims: Dims = [20, 17, 18];
    const ones = new Float64Array(dims[0] * dims[1] * dims[2]).fill(1);
    const mf = await applyGpujs3d('bigdft-conv.gpujs.magic.periodic.f32.separable-t.split.webasm', ones, dims);
    for (const v of mf) expect(Math.abs(v - 1)).toBeLessThan(1e-5);
    const kd: Dims = [31, 30, 29];
    const kin = await applyGpujs3d('bigdft-conv.gpujs.kinetic.periodic.f32.separable-t.split.cpu', new Float64Array(kd[0] * kd[1] * kd[2]).fill(1), kd, { h: [H, H, H] });
    for (const v of kin) expect(Math.abs(v)).toBeLessThan(1e-4);
  });

  it('agrees with the TypeScript f32 variant on a non-cubic grid, every filter, pass after pass', async () => {
    const dims: Dims = [33, 29, 31];
    const x = Float32Array.from(randomValues(dims[0] * dims[1] * dims[2], 7));
    for (const f of ['magic', 'magic-t', 'kinetic'] as const) {
      const ts = (await prepare3d(`bigdft-conv.ts.${f}.periodic.f32.separable-t.4x1.inline.split`, dims, { h: [H, 0.5, 0.3] })).run(x);
      const pre = await prepareGpujs3d(`bigdft-conv.gpujs.${f}.periodic.f32.separable-t.table.cpu`, dims, { h: [H, 0.5, 0.3] });
      try {
        for (let rep = 0; rep < 2; rep++) {
          const g = await pre.run(x);
          let worst = 0;
          let scale = 0;
          for (let i = 0; i < g.length; i++) {
            worst = Math.max(worst, Math.abs(g[i]! - ts[i]!));
            scale = Math.max(scale, Math.abs(ts[i]!));
          }
          expect(scale, f).toBeGreaterThan(f === 'kinetic' ? 10 : 0.5);
          expect(worst, f).toBeLessThan(1e-5 * scale);
        }
      } finally {
        pre.destroy();
      }
    }
  });

  it('fails the gate on a deliberately broken kernel (one coefficient changed)', async () => {
    const key = 'bigdft-conv.gpujs.magic.periodic.f32.separable-t.split.cpu';
    const src = await gpujsSource(key);
    const lit = /a \+= (-?[0-9.e-]+) \* x\[b \+ i\];/.exec(src)![1]!;
    const bad = src.replaceAll(`a += ${lit} * x[b + i];`, `a += ${Number(lit) * 1.001} * x[b + i];`);
    expect(bad).not.toBe(src);
    const v = await verifyConv(key, { h: H, gpujsSource: bad });
    expect(v.ok).toBe(false);
    expect(v.maxError).toBeGreaterThan(v.tolerance);
    expect((await verifyConv(key, { h: H, gpujsSource: src })).ok).toBe(true);
  });

  it('refuses grids smaller than the filter, wrong inputs and other targets with clear errors', async () => {
    await expect(prepareGpujs3d('bigdft-conv.gpujs.kinetic.periodic.f32.separable-t.split.cpu', [20, 30, 30])).rejects.toThrow(ConvInputError);
    await expect(prepareGpujs3d('bigdft-conv.ts.magic.periodic.f32.separable-t.4x1.inline.split', [20, 20, 20])).rejects.toThrow(/not a bigdft-conv gpu\.js variant/);
    const pre = await prepareGpujs3d('bigdft-conv.gpujs.magic.periodic.f32.separable-t.split.cpu', [16, 16, 16]);
    try {
      await expect(pre.run(new Float32Array(10))).rejects.toThrow(/expected n1\*n2\*n3/);
      await expect(pre.run(new Float32Array(4096).fill(Number.NaN))).rejects.toThrow(/not finite/);
    } finally {
      pre.destroy();
    }
  });
});
