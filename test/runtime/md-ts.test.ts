// Every TypeScript variant of the default library against the f64 reference on a water box,
// a random non-cubic box with exclusions and padding, and pairs straddling the cut-off.
import { describe, it, expect } from 'vitest';
import { libraryKeys } from '../../runtime/variants.ts';
import { verifyVariant } from '../../runtime/md/verify.ts';
import { verificationCases } from '../../runtime/md/cases.ts';

const cases = verificationCases('full');
const keys = libraryKeys('md-nonbonded', 'ts');

describe('md-nonbonded TypeScript library', () => {
  it('has variants for every cluster shape and interaction', () => {
    for (const shape of ['1x1', '2x2', '4x2', '4x4', '4x8', '8x4', '8x8']) expect(keys.some((k) => k.includes(`.${shape}.`))).toBe(true);
    for (const inter of ['lj', 'lj-rf', 'lj-ewald', 'buckingham-rf']) expect(keys.some((k) => k.split('.')[2] === inter)).toBe(true);
    // 1x1 with both neighbour lists: the full-list variants are verified here like every other
    // (verifyVariant builds the full list for them).
    for (const inter of ['lj', 'lj-rf', 'lj-ewald', 'buckingham-rf']) {
      for (const list of ['half', 'full']) expect(keys.some((k) => k.split('.')[2] === inter && k.includes(`.1x1.${list}.`))).toBe(true);
    }
  });
  describe.each(keys)('%s', (key) => {
    it.each(cases.map((c) => [c.name, c] as const))('matches the reference on %s', async (_name, c) => {
      const d = await verifyVariant(key, c);
      expect(d.ok, d.detail).toBe(true);
    });
  });
});
