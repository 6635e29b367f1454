// A synthetic family for the noise rule: on problem `flat` the fastest variant is 0.5% faster
// than the default (within noise: the default stays); on problem `steep` it is 25% faster.
import type { TuningFamily } from '../../runtime/tune/family.ts';

const TIMES: Record<string, Record<string, number>> = {
  flat: { 'flat.ts.v0': 1.0, 'flat.ts.v1': 0.995, 'flat.ts.v2': 1.3 },
  steep: { 'flat.ts.v0': 1.0, 'flat.ts.v1': 0.75, 'flat.ts.v2': 1.3 },
};

export const family: TuningFamily = {
  family: 'flat',
  measures: 'synthetic milliseconds',
  problems: () => [
    { name: 'flat', description: 'best within 0.5% of the default' },
    { name: 'steep', description: 'best 25% faster than the default' },
  ],
  async candidates(device) {
    return device.target === 'ts' ? Object.keys(TIMES.flat!) : [];
  },
  defaultKey: () => 'flat.ts.v0',
  async params(key) {
    return { v: key.split('.')[2]! };
  },
  async verify() {
    return { ok: true, error: 0 };
  },
  async prepare(_device, problem) {
    return {
      async run(key) {
        return TIMES[problem]![key]!;
      },
      dispose() {},
    };
  },
};
