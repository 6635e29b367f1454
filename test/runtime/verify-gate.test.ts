// The correctness gate must reject wrong kernels: a deliberately broken variant, NaN output,
// and a wrong exclusion treatment all fail verification.
import { describe, it, expect } from 'vitest';
import { transform } from 'esbuild';
import { writeFileSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { pathToFileURL } from 'node:url';
import { readFileSync } from 'node:fs';
import { GENERATED_ROOT, manifest } from '../../runtime/variants.ts';
import { verifyVariant, compare, cachedReference, settingsOf } from '../../runtime/md/verify.ts';
import { verificationCases } from '../../runtime/md/cases.ts';
import { MdProblem } from '../../runtime/md/problem.ts';
import type { MdTsModule } from '../../runtime/md/kernels.ts';

const KEY = 'md-nonbonded.ts.lj-rf.geom.shift.f64.fev.4x4.mask.mask';
const [water] = verificationCases('quick');

async function mutated(edit: (src: string) => string): Promise<MdTsModule> {
  const src = readFileSync(join(GENERATED_ROOT, manifest().get(KEY)!.file), 'utf8');
  const changed = edit(src);
  expect(changed).not.toBe(src);
  const js = (await transform(changed, { loader: 'ts', format: 'esm' })).code;
  const file = join(mkdtempSync(join(tmpdir(), 'kf-')), 'broken.mjs');
  writeFileSync(file, js);
  return (await import(pathToFileURL(file).href)) as MdTsModule;
}

async function runModule(mod: MdTsModule) {
  return async (_key: string, problem: MdProblem) => {
    const out = problem.outputs('f64');
    mod.kernel({ ...problem.args('f64'), ...out });
    return problem.finish('f64', out);
  };
}

describe('verification gate', () => {
  it('passes the intact variant', async () => {
    expect((await verifyVariant(KEY, water!)).ok).toBe(true);
  });
  it('rejects a variant with a slightly wrong LJ force (12 -> 12.0001)', async () => {
    const mod = await mutated((s) => s.replaceAll('(12 * vr12', '(12.0001 * vr12'));
    const d = await verifyVariant(KEY, water!, await runModule(mod));
    expect(d.ok).toBe(false);
    expect(d.force).toBeGreaterThan(1);
  });
  it('rejects a variant that ignores the reaction-field exclusion correction', async () => {
    const mod = await mutated((s) => s.replaceAll('const wel = d >', 'const wel = 0 * d >'));
    const d = await verifyVariant(KEY, water!, await runModule(mod));
    expect(d.ok).toBe(false);
  });
  it('rejects NaN in any output', async () => {
    const s = await settingsOf(KEY, water!.rc);
    const ref = cachedReference(water!.sys, s);
    const bad = { ...ref, f: Float64Array.from(ref.f), virial: Float64Array.from(ref.virial) };
    expect(compare(ref, bad, water!.sys, 1e-11, 'fev').ok).toBe(true);
    bad.f[7] = NaN;
    expect(compare(ref, bad, water!.sys, 1e-11, 'fev').ok).toBe(false);
    const badE = { ...ref, coul: NaN };
    expect(compare(ref, badE, water!.sys, 1e-11, 'fe').ok).toBe(false);
  });
});
