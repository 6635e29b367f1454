// Spec loading and validation: every user mistake is a SpecError naming file:line:col,
// the field path and what is allowed.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { readFileSync, mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseSpec, SpecError } from '../../generator/spec.ts';
import { loadAndValidate } from '../../generator/generate.ts';
import { potentials } from '../../generator/families/md-nonbonded.ts';

const SPEC_PATH = new URL('../../specs/md-nonbonded.yaml', import.meta.url).pathname;
const REAL = readFileSync(SPEC_PATH, 'utf8');

/** 1-based line of the only line of `text` containing `needle`. */
function lineOf(text: string, needle: string): number {
  const hits = text.split('\n').flatMap((l, i) => (l.includes(needle) ? [i + 1] : []));
  if (hits.length !== 1) throw new Error(`test setup: "${needle}" is on ${hits.length} lines`);
  return hits[0]!;
}

/** Replace exactly one occurrence of `from` (the test fails loudly if the real spec changed). */
function replaceOnce(text: string, from: string, to: string): string {
  const n = text.split(from).length - 1;
  if (n !== 1) throw new Error(`test setup: "${from}" occurs ${n} times`);
  return text.replace(from, to);
}

function specError(f: () => unknown): SpecError {
  try {
    f();
  } catch (e) {
    if (e instanceof SpecError) return e;
    throw new Error(`expected a SpecError, got ${(e as Error)?.constructor?.name}: ${(e as Error)?.message}`);
  }
  throw new Error('expected a SpecError, nothing was thrown');
}

const lineOfLocation = (loc: string): number => {
  const m = /:(\d+):(\d+)$/.exec(loc);
  if (!m) throw new Error(`location "${loc}" has no line:col`);
  return Number(m[1]);
};

/** A small generic spec; `mods` edits it before parsing. */
const MINI = [
  '# a small spec',
  'family: demo',
  'version: 1',
  'axes:',
  '  target:',
  '    kind: semantic',
  '    values: [ts, wgsl]',
  '  precision:',
  '    kind: semantic',
  '    values: [f32, f64]',
  '  cluster:',
  '    kind: tuning',
  '    values: [1x1, 4x4, 8x8]',
  '  workgroup:',
  '    kind: tuning',
  '    values: [32, 64]',
  `    when: "target == 'wgsl'"`,
  'rules:',
  '  - name: wgsl-is-f32',
  `    when: "target == 'wgsl'"`,
  `    require: "precision == 'f32'"`,
  '    why: no f64 in WGSL',
  'library:',
  '  - target: [ts]',
  '    precision: [f32, f64]',
  '    cluster: [4x4]',
  '',
].join('\n');

describe('valid specs', () => {
  it('parses the small spec', () => {
    const s = parseSpec(MINI, 'mini.yaml');
    expect(s.family).toBe('demo');
    expect(s.version).toBe(1);
    expect(s.axes.map((a) => a.name)).toEqual(['target', 'precision', 'cluster', 'workgroup']);
    expect(s.axes.map((a) => a.kind)).toEqual(['semantic', 'semantic', 'tuning', 'tuning']);
    expect(s.axes[3]!.values).toEqual([32, 64]);
    expect(s.axes[3]!.when).toBeDefined();
    expect(s.axes[0]!.when).toBeUndefined();
    expect(s.rules.map((r) => r.name)).toEqual(['wgsl-is-f32']);
    expect(s.rules[0]!.why).toBe('no f64 in WGSL');
    expect(s.library).toEqual([{ target: ['ts'], precision: ['f32', 'f64'], cluster: ['4x4'] }]);
    expect(s.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(s.where(['rules', 0, 'require'])).toBe(`mini.yaml:${lineOf(MINI, 'require:')}:14`);
  });

  it('parses and validates the real spec (specs/md-nonbonded.yaml)', () => {
    const s = loadAndValidate(SPEC_PATH);
    expect(s.family).toBe('md-nonbonded');
    expect(s.file).toBe('md-nonbonded.yaml');
    expect(s.axes.map((a) => a.name)).toEqual(['target', 'interaction', 'ljComb', 'ljShift', 'precision', 'output', 'ewald', 'cluster', 'list', 'excl', 'cutoff', 'simd', 'scheme', 'workgroup', 'jsplit', 'mode']);
    expect(s.axes.filter((a) => a.when).map((a) => a.name)).toEqual(['ewald', 'list', 'simd', 'scheme', 'workgroup', 'jsplit', 'mode']);
    expect(s.axes.find((a) => a.name === 'scheme')!.values).toEqual(['entry', 'pair']);
    expect(s.axes.find((a) => a.name === 'workgroup')!.values).toEqual([32, 64, 128, 256]);
    expect(s.rules.map((r) => r.name)).toEqual([
      'wgsl-is-f32', 'pair-fits-workgroup', 'wgsl-masked',
      'wasm-shapes', 'wasm-mx2-is-f64', 'wasm-2x2-is-f64', 'wasm-geom', 'wasm-excl-mask', 'wasm-no-user-potential',
      'gpujs-is-f32', 'gpujs-full-list', 'gpujs-square', 'gpujs-builtin',
    ]);
    expect(s.axes.find((a) => a.name === 'target')!.values).toEqual(['ts', 'wgsl', 'wasm', 'gpujs']);
    expect(s.axes.find((a) => a.name === 'mode')!.values).toEqual(['cpu', 'webasm', 'headlessgl', 'webgpu']);
    expect(s.library.length).toBeGreaterThan(0);
    const pots = potentials(s);
    expect([...pots.keys()]).toEqual(['buckingham-rf']);
    expect(pots.get('buckingham-rf')!.params).toEqual({ A: 2.0e5, B: 35.0 });
  });

  it('hashes the spec text', () => {
    expect(parseSpec(MINI, 'a.yaml').hash).toBe(parseSpec(MINI, 'b.yaml').hash);
    expect(parseSpec(`${MINI}# changed\n`, 'a.yaml').hash).not.toBe(parseSpec(MINI, 'a.yaml').hash);
  });
});

describe('spec errors (generic)', () => {
  const parse = (text: string): SpecError => specError(() => parseSpec(text, 'mini.yaml'));

  it('unknown top-level field: names the field', () => {
    const text = `${MINI}colour: red\n`;
    const e = parse(text);
    expect(e.file).toBe('mini.yaml');
    expect(e.detail).toMatch(/unknown field "colour"/);
    expect(e.location).toMatch(/^mini\.yaml:\d+:\d+$/);
  });

  it('unknown top-level field: points at its line and lists the allowed fields', () => {
    const text = `${MINI}colour: red\n`;
    const e = parse(text);
    expect(lineOfLocation(e.location)).toBe(lineOf(text, 'colour:'));
    expect(e.path).toBe('colour');
    expect(e.detail).toMatch(/axes/);
  });

  it('missing required field', () => {
    const e = parse(MINI.replace('version: 1\n', ''));
    expect(e.detail).toBe('missing required field "version"');
  });

  it('axis value listed twice', () => {
    const text = MINI.replace('values: [1x1, 4x4, 8x8]', 'values: [1x1, 4x4, 8x8, 4x4]');
    const e = parse(text);
    expect(e.path).toBe('axes.cluster.values');
    expect(lineOfLocation(e.location)).toBe(lineOf(text, '[1x1, 4x4, 8x8, 4x4]'));
    expect(e.location).toBe(`mini.yaml:${lineOf(text, '[1x1, 4x4, 8x8, 4x4]')}:13`);
    expect(e.detail).toBe('value "4x4" is listed twice');
    expect(e.message).toBe(`${e.location}: axes.cluster.values: value "4x4" is listed twice`);
  });

  it('kind: foo on an axis', () => {
    const text = replaceOnce(MINI, '  cluster:\n    kind: tuning', '  cluster:\n    kind: foo');
    const e = parse(text);
    expect(e.path).toBe('axes.cluster.kind');
    expect(lineOfLocation(e.location)).toBe(lineOf(text, 'kind: foo'));
    expect(e.detail).toMatch(/semantic/);
    expect(e.detail).toMatch(/tuning/);
    expect(e.detail).toBe('must be one of "semantic", "tuning"');
  });

  it('library entry naming an unknown axis', () => {
    const text = `${MINI}  - target: [ts]\n    colour: [red]\n`;
    const e = parse(text);
    expect(e.path).toBe('library.1.colour');
    expect(lineOfLocation(e.location)).toBe(lineOf(text, 'colour: [red]'));
    expect(e.detail).toBe('unknown axis "colour"; axes are target, precision, cluster, workgroup');
  });

  it('library value that is not a value of the axis', () => {
    const text = MINI.replace('    cluster: [4x4]', '    cluster: [4x4, 2x2]');
    const e = parse(text);
    expect(e.path).toBe('library.0.cluster.1');
    expect(lineOfLocation(e.location)).toBe(lineOf(text, 'cluster: [4x4, 2x2]'));
    expect(e.detail).toMatch(/"2x2" is not a value of axis "cluster"/);
    expect(e.detail).toMatch(/allowed: 1x1, 4x4, 8x8$/);
  });

  it('library number where the axis has strings and vice versa', () => {
    const e = parse(`${MINI}  - target: [wgsl]\n    workgroup: [48]\n`);
    expect(e.path).toBe('library.1.workgroup.0');
    expect(e.detail).toMatch(/allowed: 32, 64/);
  });

  it('library entry naming an inherited Object property', () => {
    const e = parse(`${MINI}  - constructor: [x]\n`);
    expect(e.path).toBe('library.1.constructor');
  });

  it("rule comparing with a value the axis does not have (target == 'wsgl')", () => {
    const text = MINI.replace(`    when: "target == 'wgsl'"\n    require`, `    when: "target == 'wsgl'"\n    require`);
    const e = parse(text);
    expect(e.path).toBe('rules.0.when');
    expect(lineOfLocation(e.location)).toBe(lineOf(text, 'wsgl'));
    expect(e.detail).toBe('"wsgl" is not a value of axis "target"; allowed: ts, wgsl');
  });

  it('the compared-value check reaches into and/or/not and both operand orders', () => {
    const text = MINI.replace(`require: "precision == 'f32'"`, `require: "precision == 'f32' or not ('f16' != precision)"`);
    const e = parse(text);
    expect(e.path).toBe('rules.0.require');
    expect(e.detail).toBe('"f16" is not a value of axis "precision"; allowed: f32, f64');
  });

  it('axis when comparing with a value the axis does not have', () => {
    const text = MINI.replace(`    when: "target == 'wgsl'"\nrules`, `    when: "target == 'gpu'"\nrules`);
    const e = parse(text);
    expect(e.path).toBe('axes.workgroup.when');
    expect(lineOfLocation(e.location)).toBe(lineOf(text, 'gpu'));
    expect(e.detail).toMatch(/"gpu" is not a value of axis "target"; allowed: ts, wgsl/);
  });

  it('rule using an unknown axis name', () => {
    const text = MINI.replace(`require: "precision == 'f32'"`, `require: "precison == 'f32'"`);
    const e = parse(text);
    expect(e.path).toBe('rules.0.require');
    expect(lineOfLocation(e.location)).toBe(lineOf(text, 'precison'));
    expect(e.detail).toMatch(/unknown name "precison" \(known: target, precision, cluster, workgroup\)/);
  });

  it('rule with a function call', () => {
    const text = MINI.replace(`require: "precision == 'f32'"`, `require: "len(precision) == 3"`);
    const e = parse(text);
    expect(e.path).toBe('rules.0.require');
    expect(e.detail).toMatch(/function calls are not allowed here; allowed: axis names compared/);
  });

  it('invalid YAML: tab indentation', () => {
    const text = MINI.replace('    kind: tuning\n    values: [32, 64]', '    kind: tuning\n\tvalues: [32, 64]');
    const e = parse(text);
    expect(e.path).toBe('');
    expect(lineOfLocation(e.location)).toBe(lineOf(text, '\tvalues'));
    expect(e.detail).toMatch(/^invalid YAML: .*[Tt]ab/);
  });

  it('invalid YAML: a mapping item at the wrong indent', () => {
    const text = MINI.replace('    kind: tuning\n    values: [32, 64]', '    kind: tuning\n   values: [32, 64]');
    const e = parse(text);
    expect(lineOfLocation(e.location)).toBe(lineOf(text, '   values: [32, 64]'));
    expect(e.detail).toMatch(/^invalid YAML: /);
  });

  it('invalid YAML: unclosed bracket', () => {
    const text = MINI.replace('values: [f32, f64]', 'values: [f32, f64');
    const e = parse(text);
    expect(e.detail).toMatch(/^invalid YAML: .*\]/);
    // The parser notices the missing ] where the next block line starts.
    expect(lineOfLocation(e.location)).toBe(lineOf(text, 'values: [f32, f64') + 1);
  });

  it('a spec that is not a mapping', () => {
    const e = parse('- just\n- a list\n');
    expect(e.detail).toMatch(/must be a YAML mapping/);
  });
});

describe('spec errors (md-nonbonded, via loadAndValidate)', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'kernforge-spec-test-'));
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  let n = 0;
  const load = (text: string): { e: SpecError; path: string } => {
    const path = join(dir, `spec${n++}.yaml`);
    writeFileSync(path, text);
    return { e: specError(() => loadAndValidate(path)), path };
  };

  it('user potential with a non-whitelisted function', () => {
    const text = replaceOnce(REAL, 'energy: "A*exp(-B*r) - c6*rinv^6 + qq*rinv"', 'energy: "A*foo(r)"');
    const { e, path } = load(text);
    expect(e.path).toBe('potentials.buckingham-rf.energy');
    expect(e.location).toMatch(new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:\\d+:\\d+$`));
    expect(lineOfLocation(e.location)).toBe(lineOf(text, 'A*foo(r)'));
    expect(e.detail).toMatch(/unknown function "foo"/);
    expect(e.detail).toMatch(/allowed: .*sqrt, exp, log, erfc, erf, abs, min, max/);
  });

  it('user potential using a variable that is neither built in nor a parameter', () => {
    const text = replaceOnce(REAL, 'force: "A*B*exp(-B*r) - 6*c6*rinv^7 + qq*rinv^2"', 'force: "A*B*exp(-B*r) - 6*C*rinv^7"');
    const { e } = load(text);
    expect(e.path).toBe('potentials.buckingham-rf.force');
    expect(lineOfLocation(e.location)).toBe(lineOf(text, '6*C*rinv^7'));
    expect(e.detail).toMatch(/unknown name "C" \(known: r, r2, rinv, qq, c6, c12, A, B\)/);
  });

  it('user potential parameter shadowing a built-in variable', () => {
    const text = replaceOnce(REAL, 'params: { A: 2.0e5, B: 35.0 }', 'params: { A: 2.0e5, B: 35.0, r2: 1 }');
    const { e } = load(text);
    expect(e.path).toBe('potentials.buckingham-rf.params.r2');
    expect(lineOfLocation(e.location)).toBe(lineOf(text, 'r2: 1 }'));
    expect(e.detail).toMatch(/"r2" is a built-in variable/);
  });

  it('interaction value that is neither built in nor a potential', () => {
    const text = replaceOnce(REAL, 'values: [lj, lj-rf, lj-ewald, buckingham-rf]', 'values: [lj, lj-rf, lj-ewald, buckingham-rf, morse]');
    const { e } = load(text);
    expect(e.path).toBe('axes.interaction.values.4');
    expect(lineOfLocation(e.location)).toBe(lineOf(text, 'buckingham-rf, morse]'));
    expect(e.detail).toBe('"morse" is neither built in (lj, lj-rf, lj-ewald) nor defined under potentials (buckingham-rf)');
  });

  it('cluster value that is not an MxN shape', () => {
    const text = replaceOnce(REAL, 'values: [1x1, 2x2, 4x2, 4x4, 4x8, 8x4, 8x8]', 'values: [1x1, 2x2, 4x2, 4x4, 4x8, 8x4, 8x8, 3x3]');
    const { e } = load(text);
    expect(e.path).toBe('axes.cluster.values.7');
    expect(lineOfLocation(e.location)).toBe(lineOf(text, '8x8, 3x3]'));
    expect(e.detail).toMatch(/"3x3" is not a cluster shape; allowed: MxN with M, N in 1, 2, 4, 8/);
  });

  const laterAxis = (): string =>
    replaceOnce(REAL, `    when: "interaction == 'lj-ewald'"`, `    when: "interaction == 'lj-ewald' and cluster == '4x4'"`);

  it('axis when that refers to a later axis', () => {
    const { e } = load(laterAxis());
    expect(e.path).toBe('axes.ewald.when');
    expect(e.detail).toBe('uses "cluster", which must be declared before "ewald"');
  });

  it('axis when that refers to itself', () => {
    const text = replaceOnce(REAL, `    when: "interaction == 'lj-ewald'"`, `    when: "ewald == 'analytical'"`);
    const { e } = load(text);
    expect(e.path).toBe('axes.ewald.when');
    expect(e.detail).toBe('uses "ewald", which must be declared before "ewald"');
  });

  it('axis when that refers to a later axis points at the when line', () => {
    const text = laterAxis();
    const { e } = load(text);
    expect(lineOfLocation(e.location)).toBe(lineOf(text, "lj-ewald' and cluster == '4x4'"));
  });

  it('unknown family', () => {
    const { e } = load(replaceOnce(REAL, 'family: md-nonbonded', 'family: md-bonded'));
    expect(e.path).toBe('family');
    expect(e.detail).toMatch(/no family module "md-bonded"; known: (.*, )?md-nonbonded(,|$)/);
  });
});
