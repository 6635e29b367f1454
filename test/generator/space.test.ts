// The variant space of the real spec: expansion, rules, conditional axes and canonical keys.
import { describe, it, expect, beforeAll } from 'vitest';
import { loadAndValidate } from '../../generator/generate.ts';
import { expand, libraryVariants, variantKey, parseVariantKey, violations, checkAxisOrder, type Variant } from '../../generator/space.ts';
import type { Spec, Axis } from '../../generator/spec.ts';
import type { Expr } from '../../generator/expr.ts';

const SPEC_PATH = new URL('../../specs/md-nonbonded.yaml', import.meta.url).pathname;

let spec: Spec;
let all: Variant[];
let lib: Variant[];
beforeAll(() => {
  spec = loadAndValidate(SPEC_PATH);
  all = expand(spec);
  lib = libraryVariants(spec);
});

const axis = (name: string): Axis => spec.axes.find((a) => a.name === name)!;

/** `name == 'value'` as [name, value]; anything else fails the test (the hand count relies on it). */
function equality(e: Expr | undefined): [string, string | number] {
  expect(e).toBeDefined();
  expect(e!.kind).toBe('binary');
  const b = e as Extract<Expr, { kind: 'binary' }>;
  expect(b.op).toBe('==');
  expect(b.left.kind).toBe('var');
  expect(['str', 'num']).toContain(b.right.kind);
  return [(b.left as { name: string }).name, (b.right as { value: string | number }).value];
}

describe('expand', () => {
  it('has the size computed by hand from the axes and rules', () => {
    // Every conditional axis and every rule of this spec is `axis == 'value'`; a rule,
    // when it applies, pins its axis to one value.
    const conds = spec.axes.filter((a) => a.when).map((a) => ({ axis: a.name, on: equality(a.when) }));
    const pins = spec.rules.map((r) => ({ on: equality(r.when), pin: equality(r.require) }));
    expect(conds.map((c) => c.on[0]).every((n) => n === 'target' || n === 'interaction')).toBe(true);
    expect(pins.every((p) => p.on[0] === 'target')).toBe(true);

    let expected = 0;
    for (const target of axis('target').values) {
      for (const interaction of axis('interaction').values) {
        const env: Record<string, string | number> = { target, interaction };
        let n = 1;
        for (const a of spec.axes) {
          if (a.name === 'target' || a.name === 'interaction') continue;
          const c = conds.find((x) => x.axis === a.name);
          if (c && env[c.on[0]] !== c.on[1]) continue; // axis absent: one way
          const pinned = pins.some((p) => env[p.on[0]] === p.on[1] && p.pin[0] === a.name);
          n *= pinned ? 1 : a.values.length;
        }
        expected += n;
      }
    }
    // For the spec as committed: ts 5*3*2*2*3*7*2*2 = 5040 and wgsl 5*3*2*1*3*7*1*2*3*3 = 11340.
    expect(expected).toBeGreaterThan(axis('cluster').values.length);
    expect(all.length).toBe(expected);
  });

  it('never yields a wgsl variant with precision f64 or branching exclusions', () => {
    const wgsl = all.filter((v) => v.target === 'wgsl');
    expect(wgsl.length).toBeGreaterThan(0);
    expect(wgsl.filter((v) => v.precision === 'f64')).toEqual([]);
    expect(wgsl.filter((v) => v.excl === 'branch')).toEqual([]);
    // ...while ts has both precisions and both exclusion modes.
    const ts = all.filter((v) => v.target === 'ts');
    expect(new Set(ts.map((v) => v.precision))).toEqual(new Set(['f32', 'f64']));
    expect(new Set(ts.map((v) => v.excl))).toEqual(new Set(['mask', 'branch']));
    expect(expand(spec, { target: ['wgsl'], precision: ['f64'] })).toEqual([]);
  });

  it('yields unique variants that all satisfy the rules', () => {
    const keys = all.map((v) => variantKey(spec, v));
    expect(new Set(keys).size).toBe(all.length);
    for (let i = 0; i < all.length; i += 97) expect(violations(spec, all[i]!)).toEqual([]);
  });

  it('gives ewald only to lj-ewald and workgroup/jsplit only to wgsl', () => {
    for (const v of all) {
      expect('ewald' in v).toBe(v.interaction === 'lj-ewald');
      expect('workgroup' in v).toBe(v.target === 'wgsl');
      expect('jsplit' in v).toBe(v.target === 'wgsl');
    }
    const ewald = all.filter((v) => v.interaction === 'lj-ewald');
    expect(new Set(ewald.map((v) => v.ewald))).toEqual(new Set(['analytical', 'tabulated']));
    expect(new Set(all.filter((v) => v.target === 'wgsl').map((v) => v.workgroup))).toEqual(new Set([32, 64, 128]));
  });

  it('restricts to the given choices', () => {
    const vs = expand(spec, { target: ['ts'], interaction: ['lj-ewald'], cluster: ['4x4'], output: ['f'] });
    // ewald 2 * ljComb 3 * ljShift 2 * precision 2 * excl 2 * cutoff 2
    expect(vs.length).toBe(2 * 3 * 2 * 2 * 2 * 2);
    expect(vs.every((v) => v.cluster === '4x4' && v.output === 'f' && v.interaction === 'lj-ewald')).toBe(true);
  });

  it('checks the axis order of the real spec', () => {
    expect(checkAxisOrder(spec)).toBeUndefined();
  });
});

describe('violations', () => {
  const base: Variant = { target: 'ts', interaction: 'lj', ljComb: 'geom', ljShift: 'shift', precision: 'f32', output: 'fev', cluster: '4x4', excl: 'mask', cutoff: 'mask' };

  it('accepts a valid variant and names what is wrong with others', () => {
    expect(violations(spec, base)).toEqual([]);
    expect(violations(spec, { ...base, workgroup: 64 })).toEqual(['axis "workgroup" does not apply here']);
    expect(violations(spec, { ...base, interaction: 'lj-ewald' })).toEqual(['axis "ewald" needs a value']);
    expect(violations(spec, { ...base, cluster: '3x3' })).toEqual(['"3x3" is not a value of "cluster" (allowed: 1x1, 2x2, 4x2, 4x4, 4x8, 8x4, 8x8)']);
    expect(violations(spec, { ...base, target: 'wgsl', precision: 'f64', excl: 'branch', workgroup: 64, jsplit: 1 })).toEqual([
      'rule wgsl-is-f32: WGSL has no f64 type',
      'rule wgsl-masked: the WGSL kernels use select() for exclusions; branching on a bit per invocation gains nothing there',
    ]);
  });
});

describe('library', () => {
  it('every library variant satisfies the rules, and keys are sorted and unique', () => {
    expect(lib.length).toBeGreaterThan(0);
    for (const v of lib) expect(violations(spec, v)).toEqual([]);
    const keys = lib.map((v) => variantKey(spec, v));
    expect(keys).toEqual([...keys].sort());
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('is exactly the union of the entries expanded', () => {
    const union = new Set(spec.library.flatMap((entry) => expand(spec, entry).map((v) => variantKey(spec, v))));
    expect(new Set(lib.map((v) => variantKey(spec, v)))).toEqual(union);
    // The first entry by hand: its interactions (lj-ewald once per ewald value) * its precisions
    // * every cluster shape (the entry names no cluster); every other axis has one value there.
    const e0 = spec.library[0]!;
    expect(e0.cluster).toBeUndefined();
    const inter = e0.interaction!.length - 1 + axis('ewald').values.length;
    expect(e0.interaction).toContain('lj-ewald');
    expect(expand(spec, e0).length).toBe(inter * e0.precision!.length * axis('cluster').values.length);
  });
});

describe('variantKey / parseVariantKey', () => {
  it('formats the documented example', () => {
    const v = parseVariantKey(spec, 'md-nonbonded.ts.lj-rf.geom.shift.f32.fev.4x4.mask.mask');
    expect(v).toEqual({ target: 'ts', interaction: 'lj-rf', ljComb: 'geom', ljShift: 'shift', precision: 'f32', output: 'fev', cluster: '4x4', excl: 'mask', cutoff: 'mask' });
    const w = parseVariantKey(spec, 'md-nonbonded.wgsl.lj-ewald.table.plain.f32.fe.tabulated.2x2.mask.branch.workgroup128.jsplit8');
    expect(w).toEqual({ target: 'wgsl', interaction: 'lj-ewald', ljComb: 'table', ljShift: 'plain', precision: 'f32', output: 'fe', ewald: 'tabulated', cluster: '2x2', excl: 'mask', cutoff: 'branch', workgroup: 128, jsplit: 8 });
    expect(typeof w.workgroup).toBe('number');
  });

  it('round-trips every library variant', () => {
    for (const v of lib) {
      const k = variantKey(spec, v);
      expect(parseVariantKey(spec, k)).toEqual(v);
    }
  });

  it('round-trips 50 variants spread over the whole space', () => {
    const step = Math.floor(all.length / 50);
    const picked = Array.from({ length: 50 }, (_, i) => all[i * step]!);
    expect(new Set(picked.map((v) => v.target))).toEqual(new Set(['ts', 'wgsl']));
    for (const v of picked) {
      const k = variantKey(spec, v);
      expect(k.startsWith('md-nonbonded.')).toBe(true);
      expect(k.split('.').length).toBe(1 + Object.keys(v).length);
      const back = parseVariantKey(spec, k);
      expect(back).toEqual(v);
      expect(variantKey(spec, back)).toBe(k);
    }
  });

  const good = 'md-nonbonded.ts.lj.geom.shift.f32.fev.4x4.mask.mask';

  it('rejects a key of another family', () => {
    expect(() => parseVariantKey(spec, good.replace('md-nonbonded', 'md-bonded'))).toThrow(/is not of family md-nonbonded/);
  });

  it('rejects an unknown token, listing the allowed values', () => {
    expect(() => parseVariantKey(spec, good.replace('f32', 'f16'))).toThrow('"f16" is not a value of axis "precision" (allowed: f32, f64)');
    expect(() => parseVariantKey(spec, good.replace('4x4', '3x3'))).toThrow(/allowed: 1x1, 2x2, 4x2, 4x4, 4x8, 8x4, 8x8/);
    // Numbers carry their axis name in keys.
    expect(() => parseVariantKey(spec, 'md-nonbonded.wgsl.lj.geom.shift.f32.fev.4x4.mask.mask.64.jsplit1'))
      .toThrow('"64" is not a value of axis "workgroup" (allowed: workgroup32, workgroup64, workgroup128)');
  });

  it('rejects extra parts', () => {
    expect(() => parseVariantKey(spec, `${good}.extra`)).toThrow(/has 1 extra part/);
    // workgroup does not exist on ts
    expect(() => parseVariantKey(spec, `${good}.workgroup64.jsplit1`)).toThrow(/has 2 extra part/);
  });

  it('rejects missing parts', () => {
    expect(() => parseVariantKey(spec, good.replace(/\.mask$/, ''))).toThrow('"(missing)" is not a value of axis "cutoff"');
    expect(() => parseVariantKey(spec, 'md-nonbonded')).toThrow(/"\(missing\)" is not a value of axis "target"/);
    // lj-ewald needs its ewald token before the cluster
    expect(() => parseVariantKey(spec, 'md-nonbonded.ts.lj-ewald.geom.shift.f32.fev.4x4.mask.mask')).toThrow(/"4x4" is not a value of axis "ewald"/);
  });

  it('rejects a key that breaks a rule', () => {
    expect(() => parseVariantKey(spec, 'md-nonbonded.wgsl.lj.geom.shift.f64.fev.4x4.mask.mask.workgroup64.jsplit1'))
      .toThrow(/breaks rule wgsl-is-f32: WGSL has no f64 type/);
    expect(() => parseVariantKey(spec, 'md-nonbonded.wgsl.lj.geom.shift.f32.fev.4x4.branch.mask.workgroup64.jsplit1'))
      .toThrow(/breaks rule wgsl-masked/);
  });
});
