// Candidate spaces: 'full' is every valid point of the tuning axes with the problem's semantic
// axes fixed (rules applied); it contains the library candidates and varies no semantic axis.
import { describe, it, expect } from 'vitest';
import { tuningFamilies } from '../../runtime/tune/families/index.ts';
import { semanticParams } from '../../runtime/tune/semantic.ts';
import { variantParams } from '../../runtime/variants.ts';
import type { Device } from '../../runtime/tune/devices.ts';

const cpu = { id: 'cpu', target: 'ts', name: 'test cpu', available: true, fingerprint: '0'.repeat(16), details: {} } as unknown as Device;

describe('tuning candidate spaces', () => {
  it.each(['md-nonbonded', 'gem-potential', 'bigdft-conv'])('%s: the full space contains the library candidates and fixes the semantic axes', async (name) => {
    const f = (await tuningFamilies()).find((x) => x.family === name)!;
    const problem = f.problems().find((p) => p.quick)!.name;
    const lib = await f.candidates(cpu, problem);
    const full = await f.candidates(cpu, problem, { space: 'full' });
    expect(full.length).toBeGreaterThan(lib.length);
    expect(new Set(full).size).toBe(full.length);
    for (const k of lib) expect(full).toContain(k);
    const want = await semanticParams(f.defaultKey(cpu, problem)!);
    for (const k of full) {
      const p = await variantParams(k); // parses: a valid point of the space
      for (const [a, v] of Object.entries(want)) expect(String(p[a]), `${k} axis ${a}`).toBe(String(v));
    }
  });
});
