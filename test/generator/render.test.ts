// Rendering variants: library variants reproduce the committed files, on-demand variants
// render fully unrolled cluster pairs, and rendering is deterministic.
import { describe, it, expect, beforeAll } from 'vitest';
import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { transform } from 'esbuild';
import { loadAndValidate, renderVariant, GENERATOR_VERSION, type Manifest, type ManifestEntry } from '../../generator/generate.ts';
import { parseVariantKey, variantKey, libraryVariants, expand, type Variant } from '../../generator/space.ts';
import { typeCheck } from '../../generator/check.ts';
import type { Spec } from '../../generator/spec.ts';
import { MdProblem } from '../../runtime/md/problem.ts';
import { reference } from '../../runtime/md/reference.ts';
import { compare, tolerance, settingsOf } from '../../runtime/md/verify.ts';
import { randomSystem } from '../../runtime/md/system.ts';
import type { MdArgs } from '../../generated/md-nonbonded/ts/abi.ts';

const ROOT = new URL('../../', import.meta.url).pathname;
const GENERATED = join(ROOT, 'generated');
const SPEC_PATH = join(ROOT, 'specs/md-nonbonded.yaml');

let spec: Spec;
let manifest: Manifest;
let inManifest: Set<string>;
beforeAll(() => {
  spec = loadAndValidate(SPEC_PATH);
  manifest = JSON.parse(readFileSync(join(GENERATED, 'manifest.json'), 'utf8')) as Manifest;
  inManifest = new Set(manifest.variants.filter((v) => v.family === 'md-nonbonded').map((v) => v.key));
});

const count = (text: string, needle: string): number => text.split(needle).length - 1;
const sha = (s: string): string => createHash('sha256').update(s).digest('hex');

/** An on-demand variant: valid, and not in the committed library. */
function onDemand(key: string): Variant {
  const v = parseVariantKey(spec, key);
  expect(variantKey(spec, v)).toBe(key);
  expect(inManifest.has(key)).toBe(false);
  return v;
}

describe('library variants', () => {
  it('the manifest lists exactly the library of the current spec', () => {
    const mine = manifest.specs.find((s) => s.family === 'md-nonbonded')!;
    expect(mine.sha256).toBe(spec.hash); // else generated/ is stale: run kernforge generate
    expect(manifest.generator).toBe(GENERATOR_VERSION);
    expect([...inManifest].sort()).toEqual(libraryVariants(spec).map((v) => variantKey(spec, v)));
  });

  for (const target of ['ts', 'wgsl']) {
    it(`renders 3 ${target} library variants byte for byte as committed`, () => {
      const entries = manifest.variants.filter((e: ManifestEntry) => e.family === 'md-nonbonded' && e.target === target);
      expect(entries.length).toBeGreaterThanOrEqual(3);
      const picked = [entries[0]!, entries[Math.floor(entries.length / 2)]!, entries[entries.length - 1]!];
      expect(new Set(picked.map((e) => e.key)).size).toBe(3);
      for (const e of picked) {
        expect(variantKey(spec, e.params)).toBe(e.key);
        const f = renderVariant(spec, e.params);
        expect(f.path).toBe(e.file);
        const committed = readFileSync(join(GENERATED, e.file), 'utf8');
        expect(f.text === committed, `${e.file} differs from renderVariant output`).toBe(true);
        expect(sha(f.text)).toBe(e.sha256);
      }
    });
  }
});

describe('on-demand variants', () => {
  const KEY = 'md-nonbonded.ts.lj.lb.plain.f32.fe.8x4.branch.branch';

  it(`renders ${KEY} with every pair of the 8x4 cluster pair unrolled`, () => {
    const v = onDemand(KEY);
    expect(v).toEqual({ target: 'ts', interaction: 'lj', ljComb: 'lb', ljShift: 'plain', precision: 'f32', output: 'fe', cluster: '8x4', excl: 'branch', cutoff: 'branch' });
    const f = renderVariant(spec, v);
    expect(f.path).toBe('md-nonbonded/ts/lj.lb.plain.f32.fe.8x4.branch.branch.ts');
    expect(count(f.text, 'const r2 = ')).toBe(8 * 4);
    expect(count(f.text, 'export function kernel')).toBe(1);
    // The only loops: over i-entries and over their j-clusters; nothing loops inside a pair.
    expect(f.text.match(/\bfor \(/g)).toHaveLength(2);
    expect(f.text).not.toMatch(/\bwhile\b/);
    expect(f.text).toContain('export const M = 8;');
    expect(f.text).toContain('export const N = 4;');
    // Each pair is one block, using its own i and j registers.
    for (const [i, j] of [[0, 0], [7, 3], [5, 2]]) expect(f.text).toContain(`const dx = ix${i} - jx${j};`);
    // branch variants branch, f32 uses Float32Array, fe has energies but no shift forces.
    expect(count(f.text, 'if (r2 < rc2) {')).toBe(32);
    expect(f.text).toContain('as Float32Array');
    expect(f.text).toContain('a.energy![0] += vljTot;');
    expect(f.text).not.toContain('fshift');
  });

  it('unrolls M*N pair blocks for every cluster shape, in both targets', () => {
    for (const cluster of spec.axes.find((a) => a.name === 'cluster')!.values) {
      const [M, N] = String(cluster).split('x').map(Number) as [number, number];
      const [ts] = expand(spec, { target: ['ts'], interaction: ['lj-ewald'], ewald: ['tabulated'], ljComb: ['table'], ljShift: ['plain'], precision: ['f64'], output: ['f'], cluster: [cluster], excl: ['branch'], cutoff: ['mask'] });
      const [wgsl] = expand(spec, { target: ['wgsl'], interaction: ['buckingham-rf'], ljComb: ['lb'], ljShift: ['plain'], output: ['fe'], cluster: [cluster], cutoff: ['branch'], scheme: ['entry'], workgroup: [128], jsplit: [8] });
      for (const v of [ts!, wgsl!]) {
        expect(inManifest.has(variantKey(spec, v))).toBe(false);
        const text = renderVariant(spec, v).text;
        const decl = v.target === 'ts' ? 'const' : 'let';
        // Small TS shapes get a second, unmasked straight-line copy of the j-entry body (split
        // path): every (i, j) pair then appears once per copy, never in a loop.
        const copies = count(text, `${decl} dx = ix0 - jx0;`);
        expect(copies === 1 || (v.target === 'ts' && copies === 2 && M * N <= 32)).toBe(true);
        for (let i = 0; i < M; i++) for (let j = 0; j < N; j++) expect(count(text, `${decl} dx = ix${i} - jx${j};`)).toBe(copies);
        expect(count(text, `${decl} dx = ix${M} - `)).toBe(0);
        expect(count(text, ` - jx${N};`)).toBe(0);
        expect(count(text, `${decl} r2 = `)).toBe(copies * M * N);
        if (v.target === 'ts') expect(text.match(/\bfor \(/g)).toHaveLength(2);
        else expect(text.match(/\bfor \(/g)).toHaveLength(1); // the j-cluster loop; `loop` only in the atomic add
      }
    }
  });

  it('renders a user potential into WGSL with products for integer powers and folded parameters', () => {
    const v = onDemand('md-nonbonded.wgsl.buckingham-rf.geom.shift.f32.fev.2x2.mask.mask.entry.workgroup64.jsplit4');
    const text = renderVariant(spec, v).text;
    expect(count(text, 'let r2 = ')).toBe(4);
    expect(count(text, '@compute')).toBe(1);
    expect(text).toContain('@workgroup_size(64)');
    expect(text).toContain('const JSPLIT: u32 = 4u;');
    expect(text).not.toContain('pow(');
    expect(text).not.toContain('Math.');
    // A and B are constant-folded: 2e5 and 35 as f32 literals.
    expect(text).toMatch(/200000\.0+ \* exp\(\(\(-35\.0+\) \* rr\)\)/);
    expect(text).toContain('(rinvr * rinvr * rinvr * rinvr * rinvr * rinvr * rinvr)');
  });

  const abi = (): { path: string; text: string } => ({ path: 'md-nonbonded/ts/abi.ts', text: readFileSync(join(GENERATED, 'md-nonbonded/ts/abi.ts'), 'utf8') });

  it('renders TypeScript that type-checks against the ABI', () => {
    const files = [
      abi(),
      renderVariant(spec, onDemand(KEY)),
      renderVariant(spec, onDemand('md-nonbonded.ts.lj-ewald.table.plain.f32.fe.analytical.2x2.branch.branch')),
      renderVariant(spec, onDemand('md-nonbonded.ts.buckingham-rf.table.plain.f64.fe.2x2.branch.mask')),
      renderVariant(spec, onDemand('md-nonbonded.ts.buckingham-rf.lb.shift.f32.f.8x8.branch.branch')),
    ];
    expect(typeCheck(files)).toEqual([]);
  });

  it('renders a user potential with a branching cut-off on a small shape that type-checks', () => {
    const f = renderVariant(spec, onDemand('md-nonbonded.ts.buckingham-rf.geom.shift.f32.fev.4x4.mask.branch'));
    expect(typeCheck([abi(), f])).toEqual([]);
  });

  // End to end: the rendered on-demand kernels compute what the f64 reference computes.
  for (const key of [KEY, 'md-nonbonded.ts.buckingham-rf.table.plain.f64.fe.2x2.branch.branch', 'md-nonbonded.ts.lj-ewald.lb.shift.f64.fev.tabulated.4x8.branch.mask']) {
    it(`${key} matches the reference on a random system`, async () => {
      const v = onDemand(key);
      const f = renderVariant(spec, v);
      const js = (await transform(f.text, { loader: 'ts', format: 'esm', target: 'es2022' })).code;
      const mod = (await import(`data:text/javascript;base64,${Buffer.from(js).toString('base64')}`)) as { key: string; M: number; N: number; kernel(a: MdArgs): void };
      expect(mod.key).toBe(key);
      const sys = randomSystem({ n: 150, box: [2.2, 2.0, 2.4], seed: 3, exclusionFraction: 0.3 });
      const s = await settingsOf(key, 0.9);
      const problem = new MdProblem(sys, s, mod.M, mod.N, 0.95);
      const precision = v.precision as 'f32' | 'f64';
      const out = problem.outputs(precision);
      mod.kernel({ ...problem.args(precision), ...out });
      const res = problem.finish(precision, out);
      const dev = compare(reference(sys, s), res, sys, tolerance({ precision, interaction: s.interaction, ewald: v.ewald as string | undefined }), String(v.output));
      expect(dev.detail).toBe('ok');
      expect(dev.force).toBeGreaterThan(0); // forces were computed and compared
    });
  }
});

describe('determinism and banner', () => {
  it('renders the same variant twice to identical text, whatever was rendered in between', () => {
    for (const key of ['md-nonbonded.ts.lj.lb.plain.f32.fe.8x4.branch.branch', 'md-nonbonded.wgsl.lj-ewald.table.plain.f32.fe.tabulated.2x2.mask.branch.entry.workgroup128.jsplit8', 'md-nonbonded.wgsl.lj-rf.lb.plain.f32.fe.4x8.mask.branch.pair.workgroup32']) {
      const v = parseVariantKey(spec, key);
      const a = renderVariant(spec, v);
      renderVariant(spec, parseVariantKey(spec, 'md-nonbonded.ts.buckingham-rf.geom.shift.f32.fev.1x1.half.mask.mask'));
      const b = renderVariant(spec, { ...v });
      expect(b.path).toBe(a.path);
      expect(b.text === a.text).toBe(true);
      expect(sha(b.text)).toBe(sha(a.text));
      // A fresh load of the spec gives the same text too.
      expect(renderVariant(loadAndValidate(SPEC_PATH), v).text === a.text).toBe(true);
    }
  });

  it('starts every variant with a banner carrying the generator, spec hash and variant key', () => {
    for (const key of ['md-nonbonded.ts.lj.lb.plain.f32.fe.8x4.branch.branch', 'md-nonbonded.wgsl.lj-rf.geom.shift.f32.fev.4x4.mask.mask.entry.workgroup64.jsplit1', 'md-nonbonded.wgsl.lj-rf.geom.shift.f32.fev.8x4.mask.mask.pair.workgroup256']) {
      const text = renderVariant(spec, parseVariantKey(spec, key)).text;
      const lines = text.split('\n');
      expect(lines[0]).toBe(`// GENERATED by kernforge ${GENERATOR_VERSION}. Do not edit: change the spec or the templates and run \`kernforge generate\`.`);
      expect(lines[1]).toMatch(new RegExp(`^// spec: md-nonbonded\\.yaml \\(sha256 ${spec.hash.slice(0, 16)}\\); templates: templates/(ts|wgsl)/md-nonbonded \\(sha256 [0-9a-f]{16}\\)$`));
      expect(lines[2]).toBe(`// variant: ${key}`);
    }
    const ts = renderVariant(spec, parseVariantKey(spec, 'md-nonbonded.ts.lj.lb.plain.f32.fe.8x4.branch.branch')).text;
    expect(ts).toContain("export const key = 'md-nonbonded.ts.lj.lb.plain.f32.fe.8x4.branch.branch';");
  });
});
