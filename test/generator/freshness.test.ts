// CI's guard against stale generated code: regenerating from the committed specs and
// templates must reproduce generated/ byte for byte.
import { describe, it, expect } from 'vitest';
import { generate, projectSpecs } from '../../generator/index.ts';

describe('generated/', () => {
  it('is exactly what `kernforge generate` produces from specs/ and templates/', async () => {
    const out = new URL('../../generated/', import.meta.url).pathname;
    const r = await generate({ specs: projectSpecs(), out, check: true });
    expect(r.diffs, `stale files (run kernforge generate): ${r.diffs.slice(0, 10).join(', ')}`).toEqual([]);
    expect(r.manifest.variants.length).toBeGreaterThan(100);
  });
});
