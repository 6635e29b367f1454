// One-thread wasm GEM without SharedArrayBuffer: a page that is not cross-origin isolated has none,
// and a one-thread run needs none (runtime/gem/wasm.ts lays the image out on a plain ArrayBuffer).
// Through the target runner (GEM_TARGETS, what the gate, the workload, open() and the tuner use),
// with globalThis.SharedArrayBuffer hidden: the same bits as with it present and as 2 worker
// threads, and within the f32 bar of the f64 reference.
import { describe, it, expect } from 'vitest';
import { libraryKeys } from '../../runtime/variants.ts';
import { readPqr, readVert, gemParams, gemReference, gemVariantInfo } from '../../runtime/gem/index.ts';
import { runGemKey } from '../../runtime/gem/targets.ts';

const DATA = new URL('../../data/gem/', import.meta.url).pathname;

/** Run `f` with globalThis.SharedArrayBuffer absent (restored after). */
async function withoutSab<T>(f: () => Promise<T>): Promise<T> {
  const g = globalThis as { SharedArrayBuffer?: SharedArrayBufferConstructor };
  const saved = g.SharedArrayBuffer;
  delete g.SharedArrayBuffer;
  try {
    return await f();
  } finally {
    g.SharedArrayBuffer = saved;
  }
}

const bits = (a: Float64Array): Uint8Array => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

describe('one-thread wasm GEM without SharedArrayBuffer', () => {
  it('gives the bits of a run with it and of 2 worker threads, within the f32 bar of the f64 reference', async () => {
    const atoms = readPqr(`${DATA}mb_hhelix.pqr`), vertices = readVert(`${DATA}mb_hhelix.vert`);
    const keys = libraryKeys('gem-potential', 'wasm');
    // one f32 and one f64 variant of region 1 without salt (what the reference below is computed for)
    const picked = [keys.find((k) => k.includes('.region1.f32.zero.') && k.endsWith('.simd128')), keys.find((k) => k.includes('.region1.f64.zero.'))];
    expect(picked.every((k) => k !== undefined)).toBe(true);
    const params = gemParams(atoms, { p: 0, salt: 0 });
    const ref = gemReference(atoms, vertices, params, 1);
    for (const key of picked as string[]) {
      expect((await gemVariantInfo(key)).region).toBe(1);
      const unshared = await withoutSab(() => runGemKey(key, 'wasm', atoms, vertices, { params, threads: 1 }, 'test'));
      expect(typeof SharedArrayBuffer).toBe('function'); // restored
      const shared = await runGemKey(key, 'wasm', atoms, vertices, { params, threads: 1 }, 'test');
      const two = await runGemKey(key, 'wasm', atoms, vertices, { params, threads: 2 }, 'test');
      expect(unshared.length).toBe(vertices.n);
      expect(bits(unshared)).toEqual(bits(shared));
      expect(bits(unshared)).toEqual(bits(two));
      let worst = 0, scale = 0;
      for (let i = 0; i < ref.length; i++) (worst = Math.max(worst, Math.abs(unshared[i]! - ref[i]!))), (scale = Math.max(scale, Math.abs(ref[i]!)));
      expect(scale).toBeGreaterThan(1);
      expect(worst, key).toBeLessThan(key.includes('.f64.') ? 1e-9 * scale : 1e-4);
    }
  }, 60_000);
});
