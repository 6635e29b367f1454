// The MD family times each key and thread count on a new engine; its first force calls run code
// the engine compiles as it goes (new worker threads, a kernel's TypeScript), so the family warms
// the engine up before the first timed call (runtime/md/family.ts warmUp).
import { describe, it, expect, vi, afterEach } from 'vitest';
import { family, warmUp } from '../../runtime/md/family.ts';
import { NonbondedForce } from '../../runtime/md/forces.ts';
import { detectDevices } from '../../runtime/tune/devices.ts';

afterEach(() => vi.restoreAllMocks());

describe('MD tuning: warm engines', () => {
  it('warmUp: the full count for quick calls, at least 3 and then none past the time limit', () => {
    let n = 0;
    expect(warmUp(() => n++, 20, 250)).toBe(20);
    expect(n).toBe(20);
    const slow = () => {
      const until = performance.now() + 15;
      while (performance.now() < until) { /* a 15 ms call */ }
    };
    expect(warmUp(slow, 20, 1)).toBe(3);
    const k = warmUp(slow, 20, 40);
    // calls start while under 40 ms: the 3rd ends near 45 ms, so no 4th
    expect(k).toBe(3);
    expect(warmUp(slow, 2, 1000)).toBe(2);
  });

  it('the first run of a key on a new engine is warmed up (untimed force calls), the next runs are one call each', async () => {
    const [cpu] = await detectDevices(['cpu']);
    const prepared = await family.prepare(cpu, 'water-rf-f32-small');
    const compute = vi.spyOn(NonbondedForce.prototype, 'compute');
    try {
      const key = 'md-nonbonded.ts.lj-rf.geom.shift.f32.f.4x4.mask.mask';
      const ms = await prepared.run(key, { threads: 1 });
      expect(ms).toBeGreaterThan(0);
      const first = compute.mock.calls.length;
      expect(first).toBeGreaterThanOrEqual(4);
      expect(first).toBeLessThanOrEqual(21);
      await prepared.run(key, { threads: 1 });
      expect(compute.mock.calls.length).toBe(first + 1);
    } finally {
      await prepared.dispose?.();
    }
  });
});
