// `kernforge run md` as a user meets it: a short LJ run with every output file, and bad input
// (malformed .gro, atoms outside the box, cut-off too long for the box, unknown residue,
// non-finite coordinates, a blow-up) ending with one clear message, exit status 2 and no
// output left behind as if complete.
import { describe, it, expect } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { readGro } from '../runtime/md/gro.ts';

const root = new URL('..', import.meta.url).pathname;
const cli = (...args: string[]) => spawnSync('node', [join(root, 'cli/kernforge.mjs'), 'run', 'md', ...args], { encoding: 'utf8', cwd: root });
const WATER = join(root, 'test/fixtures/gromacs/spce/conf.gro');
const lines = readFileSync(WATER, 'utf8').split('\n');
/** The fixture with its atom lines edited (line numbers are 1-based file lines). */
function edited(edit: (ls: string[]) => void): string {
  const dir = mkdtempSync(join(tmpdir(), 'kf-md-'));
  const ls = [...lines];
  edit(ls);
  const f = join(dir, 'in.gro');
  writeFileSync(f, ls.join('\n'));
  return f;
}

describe('kernforge run md', () => {
  it('runs the LJ fluid and writes the trajectory, final frame and state, then continues from the state', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kf-md-'));
    const [traj, conf, state] = ['traj.xyz', 'final.gro', 'state.json'].map((f) => join(dir, f));
    const r = cli('--cells', '4', '--steps', '20', '--thermo', '10', '--traj', traj, '--traj-every', '10', '-c', conf, '--state-out', state);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/LJ fluid \(MiniMD\): 256 atoms/);
    expect(r.stdout.split('\n').filter((l) => /^\s+(0|10|20)\s+\d/.test(l))).toHaveLength(3);
    expect(r.stdout).toMatch(/time per step \(ms\): pair search [\d.]+ \(2 searches\), non-bonded kernel [\d.]+/);
    expect(readFileSync(traj, 'utf8').split('\n').filter((l) => l === '256')).toHaveLength(3); // frames 0, 10, 20
    const frame = readGro(readFileSync(conf, 'utf8'), conf);
    expect(frame.atoms).toHaveLength(256);
    expect(frame.v).toBeDefined();
    expect(readdirSync(dir).sort()).toEqual(['final.gro', 'state.json', 'traj.xyz']);
    const c = cli('--continue', state, '--steps', '10', '--thermo', '10');
    expect(c.status, c.stderr).toBe(0);
    expect(c.stdout).toMatch(/^\s+30\s+\d/m);
  }, 60_000);

  const bad: [string, () => string[], RegExp][] = [
    ['a malformed coordinate', () => ['--gro', edited((ls) => (ls[5] = ls[5]!.replace(/\d\.\d{6}/, 'x.yzabcd')))], /in\.gro:6: /],
    ['an atom far outside the box', () => ['--gro', edited((ls) => (ls[4] = ls[4]!.slice(0, 20) + '  9.000000' + ls[4]!.slice(30)))], /in\.gro:5: .*outside/],
    ['an unknown residue', () => ['--gro', edited((ls) => (ls[2] = ls[2]!.replace('SOL  ', 'ABC  ')))], /unknown residue "ABC"/],
    ['a non-finite coordinate', () => ['--gro', edited((ls) => (ls[3] = ls[3]!.slice(0, 20) + '       nan' + ls[3]!.slice(30)))], /in\.gro:4: /],
    ['a cut-off longer than half the box', () => ['--gro', WATER, '--rc', '1.6'], /half the smallest box edge/],
    ['an unknown ordering', () => ['--cells', '4', '--ordering', 'spiral'], /--ordering spiral: unknown \(allowed: row-major, hilbert/],
    ['a full list on a 4x4 cluster', () => ['--cells', '4', '--cluster', '4x4', '--list', 'full'], /--list full needs --cluster 1x1/],
    ['an M x 2 cluster on the f32 WebAssembly SIMD target', () => ['--cells', '4', '--target', 'wasm', '--cluster', '4x2'], /--cluster 4x2 with --target wasm --precision f32: allowed 4x4, 8x4/],
  ];
  it.each(bad)('rejects %s with one clear line and exit status 2', (_what, args, message) => {
    const r = cli(...args(), '--steps', '1');
    expect(r.status, r.stderr + r.stdout).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
  }, 30_000);

  it('runs on the WebAssembly SIMD kernels with --target wasm', () => {
    const r = cli('--cells', '4', '--target', 'wasm', '--steps', '20', '--thermo', '20');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/variant md-nonbonded\.wasm\.lj\.geom\.plain\.f32\.f\.4x4\.mask\.mask/);
    expect(r.stdout).toMatch(/^\s+20\s+\d/m);
  }, 30_000);

  it('runs on the WebAssembly SIMD f64x2 kernels with --target wasm --precision f64 --cluster 4x2', () => {
    const r = cli('--cells', '4', '--target', 'wasm', '--precision', 'f64', '--cluster', '4x2', '--steps', '20', '--thermo', '20');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/variant md-nonbonded\.wasm\.lj\.geom\.plain\.f64\.f\.4x2\.mask\.mask\.simd128/);
    expect(r.stdout).toMatch(/^\s+20\s+\d/m);
  }, 30_000);

  it('stops a blown-up run with a message and keeps the last good frame, not a final one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kf-md-'));
    const conf = join(dir, 'final.gro');
    const r = cli('--cells', '4', '--dt', '0.05', '--force-dt', '--t0', '3', '--steps', '200', '--thermo', '1', '-c', conf);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/kernforge: error: step \d+: .*blew up/);
    expect(existsSync(conf)).toBe(false);
    expect(existsSync(join(dir, 'final.lastgood.gro'))).toBe(true);
  }, 30_000);
});
