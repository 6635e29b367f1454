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

type Eq = [string, string | number];

/** `name == 'value'` as [name, value]; anything else fails the test (the hand count relies on it). */
function equality(e: Expr | undefined): Eq {
  expect(e).toBeDefined();
  expect(e!.kind).toBe('binary');
  const b = e as Extract<Expr, { kind: 'binary' }>;
  expect(b.op).toBe('==');
  expect(b.left.kind).toBe('var');
  expect(['str', 'num']).toContain(b.right.kind);
  return [(b.left as { name: string }).name, (b.right as { value: string | number }).value];
}

/** `a == 'x' and b == 'y' and ...` as its equalities; anything else fails the test. */
function conjunction(e: Expr | undefined): Eq[] {
  expect(e).toBeDefined();
  if (e!.kind === 'binary' && e!.op === 'and') return [...conjunction(e!.left), ...conjunction(e!.right)];
  return [equality(e)];
}

/** `c1 or c2 or ...` of conjunctions (disjunctive normal form; `and` over `or` is distributed). */
function dnf(e: Expr | undefined): Eq[][] {
  expect(e).toBeDefined();
  if (e!.kind === 'binary' && e!.op === 'or') return [...dnf(e!.left), ...dnf(e!.right)];
  if (e!.kind === 'binary' && e!.op === 'and') return dnf(e!.left).flatMap((l) => dnf(e!.right).map((r) => [...l, ...r]));
  return [[equality(e)]];
}

/**
 * A rule of this spec, by shape: when `on` holds, either `require: axis == 'value'` pins one
 * axis (`pin`), or `require: not (a == 'x' and b == 'y')` forbids a combination (`forbid`).
 */
function ruleShape(r: Spec['rules'][number]): { name: string; on: Eq[]; pin?: Eq; forbid?: Eq[]; allow?: { axis: string; values: string[] } } {
  const on = r.when ? conjunction(r.when) : [];
  if (r.require.kind === 'unary') {
    expect(r.require.op).toBe('not');
    return { name: r.name, on, forbid: conjunction(r.require.arg) };
  }
  if (r.require.kind === 'binary' && r.require.op === 'or') {
    // `axis == 'a' or axis == 'b' ...`: the axis restricted to those values
    const eqs = dnf(r.require).map((c) => {
      expect(c).toHaveLength(1);
      return c[0]!;
    });
    expect(new Set(eqs.map(([n]) => n)).size).toBe(1);
    return { name: r.name, on, allow: { axis: eqs[0]![0], values: eqs.map(([, v]) => String(v)) } };
  }
  return { name: r.name, on, pin: equality(r.require) };
}

/** Every equality holds in env (values compared as text, as the spec language does). */
const holds = (eqs: Eq[], env: Record<string, string | number>): boolean => eqs.every(([n, x]) => n in env && String(env[n]) === String(x));

describe('expand', () => {
  it('has the size computed by hand from the axes and rules', () => {
    // Every axis condition of this spec is a conjunction of `axis == 'value'`; every rule either
    // pins one axis to a value or forbids one combination of values.
    const conds = new Map(spec.axes.filter((a) => a.when).map((a) => [a.name, dnf(a.when)]));
    const holdsAny = (c: Eq[][], env: Record<string, string | number>): boolean => c.some((eqs) => holds(eqs, env));
    const rules = spec.rules.map(ruleShape);
    expect(rules.some((r) => r.pin)).toBe(true);
    expect(rules.some((r) => r.forbid)).toBe(true);
    // Axes that decide which other axes exist or which combinations are forbidden are walked
    // one value at a time; every other axis contributes a factor (its value count, 1 if
    // pinned by a rule, 1 if absent).
    const decisive = new Set([...[...conds.values()].flat(2), ...rules.flatMap((r) => [...r.on, ...(r.forbid ?? []), ...(r.allow ? [[r.allow.axis, ''] as Eq] : [])])].map(([n]) => n));
    expect([...decisive].sort()).toEqual(['cluster', 'interaction', 'scheme', 'target', 'workgroup']);
    for (const r of rules) {
      if (!r.pin) continue;
      expect(decisive.has(r.pin[0])).toBe(false);
      expect(axis(r.pin[0]).values.map(String)).toContain(String(r.pin[1]));
    }
    const walked = spec.axes.filter((a) => decisive.has(a.name));

    let expected = 0;
    let forbidden = 0;
    const walk = (i: number, env: Record<string, string | number>): void => {
      if (i < walked.length) {
        const a = walked[i]!;
        const c = conds.get(a.name);
        if (c && !holdsAny(c, env)) return walk(i + 1, env); // axis absent: one way
        for (const val of a.values) walk(i + 1, { ...env, [a.name]: val });
        return;
      }
      let n = 1;
      for (const a of spec.axes) {
        if (decisive.has(a.name)) continue;
        const c = conds.get(a.name);
        if (c && !holdsAny(c, env)) continue; // axis absent: one way
        const pinned = rules.some((r) => r.pin && r.pin[0] === a.name && holds(r.on, env));
        n *= pinned ? 1 : a.values.length;
      }
      const outside = (r: ReturnType<typeof ruleShape>) => r.allow !== undefined && holds(r.on, env) && !r.allow.values.includes(String(env[r.allow.axis]));
      if (rules.some((r) => (r.forbid && holds(r.on, env) && holds(r.forbid, env)) || outside(r))) forbidden += n;
      else expected += n;
    };
    walk(0, {});
    // For the spec as committed: ts 5*3*2*2*3*7*2*2 = 5040; wgsl 5*3*2*1*3*1*2 = 180 times
    // (entry: cluster 7 * workgroup 4 * jsplit 3 = 84) + (pair: 7*4 - 1 forbidden = 27),
    // 180*111 = 19980; 25020 in all.
    expect(forbidden).toBeGreaterThan(0); // the pair-fits-workgroup rule removes variants
    expect(expected).toBeGreaterThan(axis('cluster').values.length);
    expect(all.length).toBe(expected);
  });

  it('never yields a pair-scheme variant with an 8x8 cluster in a workgroup of 32', () => {
    const pair = all.filter((v) => v.scheme === 'pair');
    expect(pair.length).toBeGreaterThan(0);
    expect(pair.filter((v) => v.cluster === '8x8' && v.workgroup === 32)).toEqual([]);
    expect(expand(spec, { target: ['wgsl'], scheme: ['pair'], cluster: ['8x8'], workgroup: [32] })).toEqual([]);
    // ...while the entry scheme has it, and the pair scheme has 8x8 with 64 and 4x8 with 32.
    expect(all.some((v) => v.scheme === 'entry' && v.cluster === '8x8' && v.workgroup === 32)).toBe(true);
    expect(pair.some((v) => v.cluster === '8x8' && v.workgroup === 64)).toBe(true);
    expect(pair.some((v) => v.cluster === '4x8' && v.workgroup === 32)).toBe(true);
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

  it('gives ewald only to lj-ewald, scheme/workgroup only to wgsl and jsplit only to the entry scheme', () => {
    for (const v of all) {
      expect('ewald' in v).toBe(v.interaction === 'lj-ewald');
      expect('scheme' in v).toBe(v.target === 'wgsl');
      expect('workgroup' in v).toBe(v.target === 'wgsl');
      expect('jsplit' in v).toBe(v.target === 'wgsl' && v.scheme === 'entry');
    }
    const ewald = all.filter((v) => v.interaction === 'lj-ewald');
    expect(new Set(ewald.map((v) => v.ewald))).toEqual(new Set(['analytical', 'tabulated']));
    const wgsl = all.filter((v) => v.target === 'wgsl');
    expect(new Set(wgsl.map((v) => v.scheme))).toEqual(new Set(['entry', 'pair']));
    // jsplit is absent exactly when scheme == 'pair'.
    for (const v of wgsl) expect('jsplit' in v).toBe(v.scheme !== 'pair');
    for (const scheme of ['entry', 'pair']) {
      expect(new Set(wgsl.filter((v) => v.scheme === scheme).map((v) => v.workgroup))).toEqual(new Set([32, 64, 128, 256]));
    }
    expect(new Set(wgsl.filter((v) => v.scheme === 'entry').map((v) => v.jsplit))).toEqual(new Set([1, 4, 8]));
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
    expect(violations(spec, { ...base, target: 'wgsl', precision: 'f64', excl: 'branch', scheme: 'entry', workgroup: 64, jsplit: 1 })).toEqual([
      'rule wgsl-is-f32: WGSL has no f64 type',
      'rule wgsl-masked: the WGSL kernels use select() for exclusions; branching on a bit per invocation gains nothing there',
    ]);
  });

  it('gives jsplit to the entry scheme only, and fits pair-scheme cluster pairs into the workgroup', () => {
    const entry: Variant = { ...base, target: 'wgsl', scheme: 'entry', workgroup: 64, jsplit: 1 };
    const pair: Variant = { ...base, target: 'wgsl', scheme: 'pair', workgroup: 64 };
    expect(violations(spec, entry)).toEqual([]);
    expect(violations(spec, pair)).toEqual([]);
    expect(violations(spec, { ...pair, jsplit: 1 })).toEqual(['axis "jsplit" does not apply here']);
    const { jsplit: _, ...noSplit } = entry;
    expect(violations(spec, noSplit)).toEqual(['axis "jsplit" needs a value']);
    expect(violations(spec, { ...pair, cluster: '8x8', workgroup: 32 })).toEqual(['rule pair-fits-workgroup: the pair scheme needs at least M x N invocations per workgroup']);
    expect(violations(spec, { ...pair, cluster: '8x8', workgroup: 64 })).toEqual([]);
    expect(violations(spec, { ...pair, cluster: '4x8', workgroup: 32 })).toEqual([]);
    expect(violations(spec, { ...entry, cluster: '8x8', workgroup: 32 })).toEqual([]);
  });
});

describe('library', () => {
  it('every library variant satisfies the rules, and keys are sorted and unique', () => {
    expect(lib.length).toBeGreaterThan(0);
    for (const v of lib) expect(violations(spec, v)).toEqual([]);
    const keys = lib.map((v) => variantKey(spec, v));
    expect(keys).toEqual([...keys].sort());
    expect(new Set(keys).size).toBe(keys.length);
    // The library holds WGSL kernels of both schemes.
    expect(new Set(lib.filter((v) => v.target === 'wgsl').map((v) => v.scheme))).toEqual(new Set(['entry', 'pair']));
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
    const w = parseVariantKey(spec, 'md-nonbonded.wgsl.lj-ewald.table.plain.f32.fe.tabulated.2x2.mask.branch.entry.workgroup128.jsplit8');
    expect(w).toEqual({ target: 'wgsl', interaction: 'lj-ewald', ljComb: 'table', ljShift: 'plain', precision: 'f32', output: 'fe', ewald: 'tabulated', cluster: '2x2', excl: 'mask', cutoff: 'branch', scheme: 'entry', workgroup: 128, jsplit: 8 });
    expect(typeof w.workgroup).toBe('number');
    const p = parseVariantKey(spec, 'md-nonbonded.wgsl.lj-rf.geom.shift.f32.fev.8x4.mask.mask.pair.workgroup256');
    expect(p).toEqual({ target: 'wgsl', interaction: 'lj-rf', ljComb: 'geom', ljShift: 'shift', precision: 'f32', output: 'fev', cluster: '8x4', excl: 'mask', cutoff: 'mask', scheme: 'pair', workgroup: 256 });
    expect(variantKey(spec, p)).toBe('md-nonbonded.wgsl.lj-rf.geom.shift.f32.fev.8x4.mask.mask.pair.workgroup256');
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
    expect([...new Set(picked.map((v) => v.target))]).toEqual(expect.arrayContaining(['ts', 'wgsl']));
    expect(new Set(picked.filter((v) => v.target === 'wgsl').map((v) => v.scheme))).toEqual(new Set(['entry', 'pair']));
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
    expect(() => parseVariantKey(spec, 'md-nonbonded.wgsl.lj.geom.shift.f32.fev.4x4.mask.mask.entry.64.jsplit1'))
      .toThrow('"64" is not a value of axis "workgroup" (allowed: workgroup32, workgroup64, workgroup128, workgroup256)');
    // WGSL keys name their scheme before the workgroup: keys without it are refused.
    expect(() => parseVariantKey(spec, 'md-nonbonded.wgsl.lj.geom.shift.f32.fev.4x4.mask.mask.workgroup64.jsplit1'))
      .toThrow('"workgroup64" is not a value of axis "scheme" (allowed: entry, pair)');
  });

  it('rejects extra parts', () => {
    expect(() => parseVariantKey(spec, `${good}.extra`)).toThrow(/has 1 extra part/);
    // workgroup does not exist on ts
    expect(() => parseVariantKey(spec, `${good}.workgroup64.jsplit1`)).toThrow(/has 2 extra part/);
    // jsplit does not exist in the pair scheme
    expect(() => parseVariantKey(spec, 'md-nonbonded.wgsl.lj-rf.geom.shift.f32.fev.8x4.mask.mask.pair.workgroup256.jsplit1')).toThrow(/has 1 extra part/);
  });

  it('rejects missing parts', () => {
    expect(() => parseVariantKey(spec, good.replace(/\.mask$/, ''))).toThrow('"(missing)" is not a value of axis "cutoff"');
    expect(() => parseVariantKey(spec, 'md-nonbonded')).toThrow(/"\(missing\)" is not a value of axis "target"/);
    // lj-ewald needs its ewald token before the cluster
    expect(() => parseVariantKey(spec, 'md-nonbonded.ts.lj-ewald.geom.shift.f32.fev.4x4.mask.mask')).toThrow(/"4x4" is not a value of axis "ewald"/);
    // the entry scheme needs its jsplit
    expect(() => parseVariantKey(spec, 'md-nonbonded.wgsl.lj-rf.geom.shift.f32.fev.8x4.mask.mask.entry.workgroup256')).toThrow('"(missing)" is not a value of axis "jsplit"');
  });

  it('rejects a key that breaks a rule', () => {
    expect(() => parseVariantKey(spec, 'md-nonbonded.wgsl.lj.geom.shift.f64.fev.4x4.mask.mask.entry.workgroup64.jsplit1'))
      .toThrow(/breaks rule wgsl-is-f32: WGSL has no f64 type/);
    expect(() => parseVariantKey(spec, 'md-nonbonded.wgsl.lj.geom.shift.f32.fev.4x4.branch.mask.entry.workgroup64.jsplit1'))
      .toThrow(/breaks rule wgsl-masked/);
    expect(() => parseVariantKey(spec, 'md-nonbonded.wgsl.lj-rf.geom.shift.f32.fev.8x8.mask.mask.pair.workgroup32'))
      .toThrow(/breaks rule pair-fits-workgroup: the pair scheme needs at least M x N invocations per workgroup/);
    // The same shape and workgroup are fine in the entry scheme, and 8x8 pairs fit in 64.
    expect(parseVariantKey(spec, 'md-nonbonded.wgsl.lj-rf.geom.shift.f32.fev.8x8.mask.mask.entry.workgroup32.jsplit1').cluster).toBe('8x8');
    expect(parseVariantKey(spec, 'md-nonbonded.wgsl.lj-rf.geom.shift.f32.fev.8x8.mask.mask.pair.workgroup64').workgroup).toBe(64);
  });
});
