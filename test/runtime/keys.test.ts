// Keys are read through the spec: the family and target helpers agree with the manifest's
// parameters for every library variant, and the generator refuses a spec whose first axis is
// not `target` (the invariant the helpers stand on).
import { describe, it, expect } from 'vitest';
import { readFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { keyFamily, keyTarget, shortKey } from '../../runtime/keys.ts';
import { manifest } from '../../runtime/variants.ts';
import { loadAndValidate } from '../../generator/generate.ts';
import { SpecError } from '../../generator/spec.ts';

describe('variant keys', () => {
  it('family and target of every library key are its manifest family and target axis', () => {
    const m = [...manifest().values()];
    expect(m.length).toBeGreaterThan(500);
    for (const e of m) {
      expect(keyFamily(e.key)).toBe(e.family);
      expect(keyTarget(e.key)).toBe(String(e.params.target));
      expect(`${e.family}.${shortKey(e.key)}`).toBe(e.key);
      expect(`${e.family}.${e.params.target}.${shortKey(e.key, 'target')}`).toBe(e.key);
    }
  });

  it('the generator refuses a spec whose first axis is not target, naming the file, line and what it found', () => {
    const real = readFileSync(new URL('../../specs/gem-potential.yaml', import.meta.url), 'utf8');
    // move the target axis after the region axis
    const target = /\n  target:\n(?: {4}.*\n)+/.exec(real)![0];
    const moved = real.replace(target, '\n').replace(/\n  region:\n(?: {4}.*\n)+/, (m) => m + target.slice(1));
    const dir = mkdtempSync(join(tmpdir(), 'kf-keys-'));
    writeFileSync(join(dir, 'gem-potential.yaml'), moved);
    let err: unknown;
    try {
      loadAndValidate(join(dir, 'gem-potential.yaml'));
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(SpecError);
    expect((err as Error).message).toMatch(/gem-potential\.yaml:\d+:\d+: axes: the first axis must be "target" .*found "region"/);
  });
});
