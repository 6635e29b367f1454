// The kernforge command as a user meets it: a user's own spec, clear errors with file:line
// for a bad spec and nothing written, unknown variants, on-demand rendering.
import { describe, it, expect } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';

const root = new URL('..', import.meta.url).pathname;
const cli = (...args: string[]) => spawnSync('node', [join(root, 'cli/kernforge.mjs'), ...args], { encoding: 'utf8', cwd: root });
const realSpec = readFileSync(join(root, 'specs/md-nonbonded.yaml'), 'utf8');
// A user spec: the real family with a one-entry library.
const smallLibrary = realSpec.replace(/\nlibrary:[\s\S]*$/, `
library:
  - { target: [ts], interaction: [lj-rf], ljComb: [geom], ljShift: [shift], precision: [f64], output: [fe], cluster: [2x2, 4x4], excl: [mask], cutoff: [branch] }
`);

describe('kernforge generate', () => {
  it("renders a user's own spec into --out with a manifest and a bundle", () => {
    const dir = mkdtempSync(join(tmpdir(), 'kf-'));
    writeFileSync(join(dir, 'my.yaml'), smallLibrary);
    const r = cli('generate', join(dir, 'my.yaml'), '--out', join(dir, 'out'));
    expect(r.status, r.stderr).toBe(0);
    const manifest = JSON.parse(readFileSync(join(dir, 'out/manifest.json'), 'utf8'));
    expect(manifest.variants.map((v: { key: string }) => v.key)).toEqual([
      'md-nonbonded.ts.lj-rf.geom.shift.f64.fe.2x2.mask.branch',
      'md-nonbonded.ts.lj-rf.geom.shift.f64.fe.4x4.mask.branch',
    ]);
    expect(readdirSync(join(dir, 'out/md-nonbonded/ts')).sort()).toEqual(['abi.ts', 'index.ts', 'lj-rf.geom.shift.f64.fe.2x2.mask.branch.ts', 'lj-rf.geom.shift.f64.fe.4x4.mask.branch.ts']);
    expect(existsSync(join(dir, 'out/md-nonbonded/ts.bundle.js'))).toBe(true);
  }, 60_000);

  it("refuses a user's spec without --out rather than replacing the committed library", () => {
    const dir = mkdtempSync(join(tmpdir(), 'kf-'));
    writeFileSync(join(dir, 'my.yaml'), smallLibrary);
    const r = cli('generate', join(dir, 'my.yaml'));
    expect(r.status).toBe(2);
    expect(r.stderr.trim()).toBe("kernforge: error: generate: give --out <folder> for the generated kernels of your specs; without it kernforge would replace its own committed library");
  });

  it('rejects a bad spec with file:line, the field and what is allowed, and writes nothing', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kf-'));
    const bad = smallLibrary.replace('cluster: [2x2, 4x4]', 'cluster: [2x2, 3x3]');
    writeFileSync(join(dir, 'bad.yaml'), bad);
    const line = bad.split('\n').findIndex((l) => l.includes('3x3')) + 1;
    const r = cli('generate', join(dir, 'bad.yaml'), '--out', join(dir, 'out'));
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`bad.yaml:${line}:`);
    expect(r.stderr).toContain('library.0.cluster.1');
    expect(r.stderr).toMatch(/allowed: 1x1, 2x2, 4x2, 4x4, 4x8, 8x4, 8x8/);
    expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
    expect(existsSync(join(dir, 'out'))).toBe(false);
  }, 60_000);

  it('rejects a user potential that is not in the whitelisted grammar', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kf-'));
    writeFileSync(join(dir, 'bad.yaml'), smallLibrary.replace('energy: "A*exp(-B*r)', 'energy: "process.exit(1) + A*exp(-B*r)'));
    const r = cli('generate', join(dir, 'bad.yaml'), '--out', join(dir, 'out'));
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/potentials\.buckingham-rf\.energy/);
    expect(existsSync(join(dir, 'out'))).toBe(false);
  }, 60_000);
});

describe('kernforge render / verify', () => {
  it('renders a variant outside the library on demand', () => {
    const r = cli('render', 'md-nonbonded.ts.lj-ewald.lb.plain.f32.fe.tabulated.2x2.branch.mask');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('export function kernel');
    expect(r.stdout.match(/const r2 = /g)?.length).toBe(2 * 4); // masked and unmasked paths, 2x2 pairs each
  }, 60_000);
  it('explains an invalid key', () => {
    const r = cli('verify', 'md-nonbonded.wgsl.lj.geom.shift.f64.fev.4x4.mask.mask.entry.workgroup64.jsplit1');
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/wgsl-is-f32/);
  }, 60_000);
  it('a gpu.js mode that cannot run here is one line and exit 2, in a workload and in verify (a skip there)', () => {
    // no display: headless WebGL cannot run, whatever the machine
    const env = { ...process.env, DISPLAY: '' };
    const key = 'bigdft-conv.gpujs.magic.periodic.f32.separable-t.split.headlessgl';
    const r = spawnSync('node', [join(root, 'cli/kernforge.mjs'), 'run', 'bigdft', '--grid', '32x34x36', '--precision', 'f32', '--threads', '1', '--variant-mf', key], { encoding: 'utf8', cwd: root, env });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/gpu\.js mode headlessgl is not available here: .*xvfb-run/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    const v = spawnSync('node', [join(root, 'cli/kernforge.mjs'), 'verify', key], { encoding: 'utf8', cwd: root, env });
    expect(v.status).toBe(0);
    expect(v.stdout).toMatch(/skip bigdft-conv\.gpujs\.magic\.periodic\.f32\.separable-t\.split\.headlessgl: gpu\.js mode headlessgl is not available/);
    expect(v.stdout).toMatch(/0 passed, 0 failed, 1 skipped/);
  }, 120_000);
  it('verifies a variant against the reference', () => {
    const r = cli('verify', 'md-nonbonded.ts.lj-rf.geom.shift.f32.fev.4x4.mask.mask');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/1 passed, 0 failed/);
  }, 60_000);
});
