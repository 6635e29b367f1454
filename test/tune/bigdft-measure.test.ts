// What bigdft-conv's tuning measure times: one application on input uploaded once per prepared
// variant, as `run bigdft` chains WGSL filters on the device. A runner whose upload takes 1 s
// shows it: one upload for several timed runs, no read-back, times below the upload's. (The
// upload took 60 ms until a run of the small problem took 66 ms in a loaded CI run.)
import { describe, it, expect } from 'vitest';
import { family } from '../../runtime/bigdft/family.ts';
import { CONV_TARGETS, type ConvTargetRunner } from '../../runtime/bigdft/targets.ts';
import { detectDevices } from '../../runtime/tune/devices.ts';

const UPLOAD_MS = 1000;

describe('bigdft-conv tuning measure', () => {
  it('uploads once per prepared variant and times run() alone (no transfer, no read-back)', async () => {
    const [cpu] = await detectDevices(['cpu']);
    const ts = CONV_TARGETS.get('ts', 'test');
    let uploads = 0;
    let results = 0;
    const slowUpload: ConvTargetRunner = {
      async prepare(key, dims, o) {
        const p = await ts.prepare(key, dims, o);
        return {
          ...p,
          async upload(x) {
            uploads++;
            await new Promise((r) => setTimeout(r, UPLOAD_MS));
            await p.upload(x);
          },
          async result() {
            results++;
            return p.result();
          },
        };
      },
    };
    const undo = CONV_TARGETS.register('ts', slowUpload);
    const prepared = await family.prepare(cpu!, 'magic-t-small');
    try {
      const key = 'bigdft-conv.ts.magic-t.periodic.f64.separable-t.8x1.inline.table';
      const times = [await prepared.run(key, { threads: 1 }), await prepared.run(key, { threads: 1 }), await prepared.run(key, { threads: 1 })];
      expect(uploads).toBe(1);
      expect(results).toBe(0);
      for (const t of times) {
        expect(t).toBeGreaterThan(0);
        expect(t).toBeLessThan(UPLOAD_MS);
      }
      // another variant is prepared and uploaded once more
      await prepared.run('bigdft-conv.ts.magic-t.periodic.f64.separable-t.4x1.inline.split', { threads: 1 });
      expect(uploads).toBe(2);
    } finally {
      await prepared.dispose?.();
      undo();
    }
  });
});
