// Every WGSL variant of the default library against the f64 reference, through Dawn (a GPU,
// or Mesa llvmpipe on machines without one). CI installs llvmpipe, so there it must not skip.
import { describe, it, expect } from 'vitest';
import { libraryKeys } from '../../runtime/variants.ts';
import { verifyVariant } from '../../runtime/md/verify.ts';
import { verificationCases } from '../../runtime/md/cases.ts';
import { probeGpu } from '../../runtime/backends/webgpu.ts';
import { runWgsl } from '../../runtime/md/wgsl.ts';

const probe = await probeGpu();
const cases = verificationCases('full');
const keys = libraryKeys('md-nonbonded', 'wgsl');

describe('WebGPU adapter', () => {
  it.runIf(process.env.CI)('is available in CI (llvmpipe at least)', () => {
    expect(probe.ok, probe.ok ? '' : probe.why).toBe(true);
  });
});

describe.skipIf(!probe.ok)(`md-nonbonded WGSL library on ${probe.ok ? probe.name : `no adapter (${probe.ok ? '' : probe.why})`}`, () => {
  describe.each(keys)('%s', (key) => {
    it.each(cases.map((c) => [c.name, c] as const))('matches the reference on %s', async (_name, c) => {
      const d = await verifyVariant(key, c, runWgsl);
      expect(d.ok, d.detail).toBe(true);
    }, 60_000);
  });
});
