// The divider's loops (bench/divider.ts) that `bench gem-potential` times beside the wasm `div`
// kernels: the module computes exactly the roots and quotients it claims (its result equals the
// same loop in JavaScript with the same roundings, so none of them is dead code), and the
// limits line compares a kernel's time per vector with the loop's.
import { describe, it, expect } from 'vitest';
import { dividerLoop, dividerReference, dividerWat } from '../bench/divider.ts';
import { dividerLimits, type GemBenchRow } from '../bench/gem.ts';

describe('divider loops', () => {
  it.each([
    [2, 1, 'f32x4'],
    [1, 1, 'f32x4'],
    [0, 3, 'f32x4'],
    [2, 1, 'f64x2'],
  ] as const)('%i sqrt + %i div on %s: the module computes what the JavaScript loop computes, bit for bit', async (sqrt, div, vt) => {
    const loop = await dividerLoop(sqrt, div, vt);
    for (const n of [1, 7, 1000]) expect(loop.run(n)).toBe(dividerReference(sqrt, div, vt, n));
    expect(loop.run(0)).toBe(0);
    // every operation is in the text, each with an accumulator of its own
    const wat = dividerWat(sqrt, div, vt);
    expect(wat.match(new RegExp(`${vt}\\.sqrt`, 'g'))?.length ?? 0).toBe(sqrt);
    expect(wat.match(new RegExp(`${vt}\\.div`, 'g'))?.length ?? 0).toBe(div);
  });

  it('refuses an empty or oversized loop', () => {
    expect(() => dividerWat(0, 0)).toThrow(/1 to 8/);
    expect(() => dividerWat(5, 4)).toThrow(/1 to 8/);
  });

  it('the limits line: the fastest one-thread wasm f32 div row of each region against its loop', () => {
    // a row taking `ns` per vector of 4 pairs (its seconds in the same proportion, for the ordering)
    const row = (key: string, region: 1 | 3, ns: number, threads = 1): GemBenchRow => ({ molecule: 'm', region, rung: 'r', key, precision: 'f32', seconds: ns * 1e-3, spread: 0, pairsPerSecond: 4e9 / ns, threads, rmse: 0, maxAbs: 0 });
    const rows = [
      row('gem-potential.wasm.region1.f32.zero.unroll8.div.block0.vertices.relaxed', 1, 2.4),
      row('gem-potential.wasm.region1.f32.zero.unroll4.div.block0.vertices.simd128', 1, 2.6),
      row('gem-potential.wasm.region1.f32.zero.unroll8.nr.block0.vertices.relaxed', 1, 2.0),
      row('gem-potential.wasm.region1.f32.zero.unroll8.div.block0.vertices.relaxed', 1, 1.3, 2),
      row('gem-potential.wasm.region3.f32.zero.unroll8.div.block0.vertices.relaxed', 3, 4.0),
    ];
    // region 1's best div row takes 2.4 ns per vector (the nr row and the 2-thread row are left out);
    // both regions' rows (region 1 at p = 0) take one root per pair: one loop of 1 sqrt + 1 div
    const lines = dividerLimits(rows, { oneRoot: 2.3 });
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain('region 1, gem-potential.wasm.region1.f32.zero.unroll8.div.block0.vertices.relaxed: 2.40 ns');
    expect(lines[0]).toContain('1 f32x4.sqrt + 1 f32x4.div alone, in a loop timed now: 2.30 ns (96%): the divider bounds this kernel');
    expect(lines[1]).toContain('region 3, gem-potential.wasm.region3.f32.zero.unroll8.div.block0.vertices.relaxed: 4.00 ns');
    expect(lines[1]).toContain('2.30 ns (57%)');
    expect(lines[1]).not.toContain('bounds');
  });
});
