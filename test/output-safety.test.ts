// The output policy (runtime/output.ts; issue 13, classes 1, 2 and 6) through the command as a
// user meets it, in child processes: nothing the user did not ask to replace is deleted or
// replaced (generate --out, render -o beside a user's X.tmp, tune --out over an unrelated JSON);
// a short or failed write (a file-size limit, `ulimit -f` in a child shell) leaves the previous
// file, removes the temporary file and ends with one line and exit status 2, never "wrote"; and
// a path problem (a folder as an output file, a file as the tune cache folder) is one line
// naming the path, exit 2, before any work, nothing written.
import { describe, it, expect } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, writeFileSync, readdirSync, cpSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';

const root = new URL('..', import.meta.url).pathname;
const KF = join(root, 'cli/kernforge.mjs');
const GEM_PQR = join(root, 'data/gem/1uwo_A.pqr'); // a ~1.3 MB potential file
const KEY = 'gem-potential.ts.region1.f32.zero.unroll4.div.block0';
const TUNE = ['tune', 'gem-potential', '--problem', 'surface-small', '--max-evals', '1', '--reps', '1', '--warmup', '0', '--threads', '1'];
const MD = ['run', 'md', '--cells', '4', '--steps', '20', '--thermo', '10'];
const PRECIOUS = 'precious user data\n';
const posix = process.platform !== 'win32';

const tmp = () => mkdtempSync(join(tmpdir(), 'kf-out-'));
// A user spec: the real md-nonbonded family with a two-variant library (as test/cli.test.ts).
const smallSpec = readFileSync(join(root, 'specs/md-nonbonded.yaml'), 'utf8').replace(/\nlibrary:[\s\S]*$/, `
library:
  - { target: [ts], interaction: [lj-rf], ljComb: [geom], ljShift: [shift], precision: [f64], output: [fe], cluster: [2x2, 4x4], excl: [mask], cutoff: [branch] }
`);

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
  /** The `kernforge: error:` lines of stderr. */
  errors: string[];
}

function finish(r: { status: number | null; stdout: string; stderr: string }): Run {
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, errors: r.stderr.split('\n').filter((l) => l.startsWith('kernforge: error:')) };
}

/** `kernforge ...args` in `cwd`. */
const kf = (cwd: string, ...args: string[]): Run => finish(spawnSync('node', [KF, ...args], { cwd, encoding: 'utf8' }));

/** `kernforge ...args` in `cwd` under a file-size limit of `kib` KiB (`ulimit -f` in a child bash). */
const kfLimited = (cwd: string, kib: number, ...args: string[]): Run =>
  finish(spawnSync('bash', ['-c', `ulimit -f ${kib}; exec node "$@"`, 'bash', KF, ...args], { cwd, encoding: 'utf8' }));

/** One line, exit status 2, no stack trace, no "wrote". */
function oneLine(r: Run, message: string | RegExp): void {
  expect(r.status, r.stderr).toBe(2);
  expect(r.errors).toHaveLength(1);
  if (typeof message === 'string') expect(r.errors[0]).toBe(`kernforge: error: ${message}`);
  else expect(r.errors[0]).toMatch(message);
  expect(r.stderr).not.toMatch(/\n\s+at /);
  expect(`${r.stdout}\n${r.stderr}`).not.toMatch(/\bwrote\b/);
}

/** The names in `dir` and its subfolders, sorted (temporary files would show). */
function tree(dir: string): string[] {
  return (readdirSync(dir, { recursive: true }) as string[]).map((p) => p.replace(/\\/g, '/')).sort();
}

describe('generate --out: never replaces what is not a previous kernforge output', () => {
  it('refuses a non-empty folder of the user\'s (one line, intact), replaces it with --force, and replaces a previous output', () => {
    const dir = tmp();
    writeFileSync(join(dir, 'my.yaml'), smallSpec);
    mkdirSync(join(dir, 'mine'));
    writeFileSync(join(dir, 'mine/a.txt'), PRECIOUS);
    writeFileSync(join(dir, 'mine/b.txt'), PRECIOUS);
    const r = kf(dir, 'generate', 'my.yaml', '--out', 'mine');
    oneLine(r, '--out mine is not empty (2 entries: a.txt, b.txt) and holds no previous kernforge output (no kernforge manifest.json); not replacing it: give a new or empty folder, or --force to replace everything in it');
    expect(tree(join(dir, 'mine'))).toEqual(['a.txt', 'b.txt']);
    expect(readFileSync(join(dir, 'mine/a.txt'), 'utf8')).toBe(PRECIOUS);
    expect(readdirSync(dir).sort()).toEqual(['mine', 'my.yaml']); // no temporary folder

    const forced = kf(dir, 'generate', 'my.yaml', '--out', 'mine', '--force');
    expect(forced.status, forced.stderr).toBe(0);
    expect(readdirSync(join(dir, 'mine')).sort()).toEqual(['manifest.json', 'md-nonbonded']);

    // a previous kernforge output is replaced as before
    const again = kf(dir, 'generate', 'my.yaml', '--out', 'mine');
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/^wrote 5 files \(2 variants\) to /m);
    expect(readdirSync(dir).sort()).toEqual(['mine', 'my.yaml']);
  }, 60_000);

  it('refuses --out . (the current folder) and a folder whose manifest.json is not kernforge\'s', () => {
    const dir = tmp();
    writeFileSync(join(dir, 'my.yaml'), smallSpec);
    writeFileSync(join(dir, 'notes.txt'), PRECIOUS);
    oneLine(kf(dir, 'generate', 'my.yaml', '--out', '.'), '--out . (the current folder) is not empty (2 entries: my.yaml, notes.txt) and holds no previous kernforge output (no kernforge manifest.json); not replacing it: give a new or empty folder, or --force to replace everything in it');
    expect(readdirSync(dir).sort()).toEqual(['my.yaml', 'notes.txt']);
    expect(readFileSync(join(dir, 'notes.txt'), 'utf8')).toBe(PRECIOUS);

    mkdirSync(join(dir, 'pkg'));
    writeFileSync(join(dir, 'pkg/manifest.json'), '{"name": "not kernforge"}\n');
    oneLine(kf(dir, 'generate', 'my.yaml', '--out', 'pkg'), /^kernforge: error: --out pkg is not empty \(1 entry: manifest\.json\) and holds no previous kernforge output/);
    expect(readFileSync(join(dir, 'pkg/manifest.json'), 'utf8')).toBe('{"name": "not kernforge"}\n');
  }, 30_000);

  it('refuses a file as --out, even with --force (never replaced by a folder), and a path under a file', () => {
    const dir = tmp();
    writeFileSync(join(dir, 'my.yaml'), smallSpec);
    writeFileSync(join(dir, 'out.txt'), PRECIOUS);
    for (const force of [[], ['--force']]) {
      oneLine(kf(dir, 'generate', 'my.yaml', '--out', 'out.txt', ...force), '--out out.txt is a file, not a folder; give a folder (a new or empty one, or a previous kernforge output)');
      expect(readFileSync(join(dir, 'out.txt'), 'utf8')).toBe(PRECIOUS);
    }
    oneLine(kf(dir, 'generate', 'my.yaml', '--out', 'out.txt/sub'), `--out out.txt/sub: ${join(dir, 'out.txt')} is a file, not a folder`);
    expect(readdirSync(dir).sort()).toEqual(['my.yaml', 'out.txt']);
  }, 30_000);
});

describe('temporary files have unique names', () => {
  it("render -o X leaves the user's X.tmp alone", () => {
    const dir = tmp();
    writeFileSync(join(dir, 'k.ts.tmp'), PRECIOUS);
    const r = kf(dir, 'render', KEY, '-o', 'k.ts');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr.trim()).toBe('wrote k.ts');
    expect(readFileSync(join(dir, 'k.ts.tmp'), 'utf8')).toBe(PRECIOUS);
    expect(readFileSync(join(dir, 'k.ts'), 'utf8')).toContain('GENERATED');
    expect(readdirSync(dir).sort()).toEqual(['k.ts', 'k.ts.tmp']);
  }, 30_000);

  it("run md --traj X leaves the user's X.partial alone", () => {
    const dir = tmp();
    writeFileSync(join(dir, 't.gro.partial'), PRECIOUS);
    const r = kf(dir, ...MD, '--traj', 't.gro');
    expect(r.status, r.stderr).toBe(0);
    expect(readFileSync(join(dir, 't.gro.partial'), 'utf8')).toBe(PRECIOUS);
    expect(readdirSync(dir).sort()).toEqual(['t.gro', 't.gro.partial']);
  }, 30_000);
});

describe('tune --out: an unrelated file is not overwritten', () => {
  it('refuses a JSON file that is not a kernforge-tuned file (one line naming it), replaces it with --force', () => {
    const dir = tmp();
    const other = '{"name": "mine", "keep": true}\n';
    writeFileSync(join(dir, 'other.json'), other);
    oneLine(kf(dir, ...TUNE, '--cache', 'c', '--out', 'other.json'), `${join(dir, 'other.json')} exists and is not a kernforge-tuned file (no "format" field); not replacing it: give another path, or --force to replace it`);
    expect(readFileSync(join(dir, 'other.json'), 'utf8')).toBe(other);
    expect(readdirSync(dir)).toEqual(['other.json']); // refused before any measurement: no cache either

    // a kernforge-tuned file of another version is not this kernforge's to overwrite either
    writeFileSync(join(dir, 'v2.json'), '{"format": "kernforge-tuned", "version": 2}\n');
    oneLine(kf(dir, ...TUNE, '--cache', 'c', '--out', 'v2.json'), /exists and is not a kernforge-tuned file \(version 2; this kernforge writes version 1\)/);

    const forced = kf(dir, ...TUNE, '--cache', 'c', '--out', 'other.json', '--force');
    expect(forced.status, forced.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'other.json'), 'utf8')).format).toBe('kernforge-tuned');
  }, 60_000);

  it('merge-tuned -o follows the same rule', () => {
    const dir = tmp();
    writeFileSync(join(dir, 't.json'), '{"format":"kernforge-tuned","version":1,"devices":{},"tuned":{}}\n');
    writeFileSync(join(dir, 'other.json'), '{"name": "mine"}\n');
    oneLine(kf(dir, 'merge-tuned', 't.json', '-o', 'other.json'), 'other.json exists and is not a kernforge-tuned file (no "format" field); not replacing it: give another path, or --force to replace it');
    expect(readFileSync(join(dir, 'other.json'), 'utf8')).toBe('{"name": "mine"}\n');
  }, 30_000);
});

describe.skipIf(!posix)('short writes (a file-size limit) leave the old file and end with one line', () => {
  it('run gem -o: the old output intact, no temporary file, exit 2, never "wrote"', () => {
    const dir = tmp();
    writeFileSync(join(dir, 'phi.out'), PRECIOUS);
    const r = kfLimited(dir, 100, 'run', 'gem', GEM_PQR, '-o', 'phi.out');
    oneLine(r, 'cannot write phi.out: the file would exceed the file-size limit (ulimit -f); the previous file is unchanged');
    expect(readFileSync(join(dir, 'phi.out'), 'utf8')).toBe(PRECIOUS);
    expect(readdirSync(dir)).toEqual(['phi.out']);
    // with no previous file: nothing at all
    const fresh = tmp();
    oneLine(kfLimited(fresh, 100, 'run', 'gem', GEM_PQR, '-o', 'phi.out'), 'cannot write phi.out: the file would exceed the file-size limit (ulimit -f); nothing was written');
    expect(readdirSync(fresh)).toEqual([]);
  }, 60_000);

  it('run md --traj: no partial trajectory under its name, the old one intact, one line', () => {
    const dir = tmp();
    writeFileSync(join(dir, 't.gro'), PRECIOUS);
    const r = kfLimited(dir, 20, ...MD, '--traj', 't.gro', '--traj-every', '1');
    oneLine(r, 'cannot write t.gro: the file would exceed the file-size limit (ulimit -f); the previous file is unchanged');
    expect(readFileSync(join(dir, 't.gro'), 'utf8')).toBe(PRECIOUS);
    expect(readdirSync(dir)).toEqual(['t.gro']);
  }, 30_000);

  it('run md -c and --state-out: the old files intact, one line', () => {
    const dir = tmp();
    writeFileSync(join(dir, 'c.gro'), PRECIOUS);
    oneLine(kfLimited(dir, 2, ...MD, '-c', 'c.gro'), 'cannot write c.gro: the file would exceed the file-size limit (ulimit -f); the previous file is unchanged');
    writeFileSync(join(dir, 's.json'), PRECIOUS);
    oneLine(kfLimited(dir, 2, ...MD, '--state-out', 's.json'), 'cannot write s.json: the file would exceed the file-size limit (ulimit -f); the previous file is unchanged');
    expect(readFileSync(join(dir, 'c.gro'), 'utf8')).toBe(PRECIOUS);
    expect(readFileSync(join(dir, 's.json'), 'utf8')).toBe(PRECIOUS);
    expect(readdirSync(dir).sort()).toEqual(['c.gro', 's.json']);
  }, 30_000);

  it('the tune cache stays valid: the previous cache file intact, one line', () => {
    const dir = tmp();
    const first = kf(dir, ...TUNE, '--cache', 'c', '--out', 't.json');
    expect(first.status, first.stderr).toBe(0);
    const [name] = readdirSync(join(dir, 'c'));
    const before = readFileSync(join(dir, 'c', name!), 'utf8');
    cpSync(join(dir, 't.json'), join(dir, 't.saved'));
    const r = kfLimited(dir, 1, ...TUNE, '--cache', 'c', '--out', 't.json', '--remeasure');
    oneLine(r, `cannot write ${join(dir, 'c', name!)}: the file would exceed the file-size limit (ulimit -f); the previous file is unchanged`);
    expect(readFileSync(join(dir, 'c', name!), 'utf8')).toBe(before);
    expect(() => JSON.parse(before)).not.toThrow();
    expect(readdirSync(join(dir, 'c'))).toEqual([name]);
  }, 60_000);
});

describe('path problems are one line naming the path, before any work', () => {
  it('render -o a folder, and a path under a file', () => {
    const dir = tmp();
    mkdirSync(join(dir, 'd'));
    writeFileSync(join(dir, 'f.txt'), PRECIOUS);
    oneLine(kf(dir, 'render', KEY, '-o', 'd'), 'cannot write d: it is a folder; -o must name a file (a new one, or one to replace)');
    oneLine(kf(dir, 'render', KEY, '-o', 'f.txt/k.ts'), `cannot write f.txt/k.ts: ${join(dir, 'f.txt')} is a file, not a folder`);
    expect(tree(dir)).toEqual(['d', 'f.txt']);
  }, 30_000);

  it('report -o a folder', () => {
    const dir = tmp();
    mkdirSync(join(dir, 'd'));
    oneLine(kf(dir, 'report', '--cache', join(root, 'test/tune/fixtures'), '-o', 'd', '--seeds', '2'), 'cannot write d: it is a folder; -o must name a file (a new one, or one to replace)');
    expect(tree(dir)).toEqual(['d']);
  }, 30_000);

  it('run md -c a folder is refused before the run starts (no thermo line)', () => {
    const dir = tmp();
    mkdirSync(join(dir, 'd'));
    const r = kf(dir, ...MD, '-c', 'd');
    oneLine(r, 'cannot write d: it is a folder; -c must name a file (a new one, or one to replace)');
    expect(r.stdout).not.toMatch(/Step|Temp/);
    expect(tree(dir)).toEqual(['d']);
  }, 30_000);

  it('tune --cache a file, or a folder named .json, is refused before any measurement', () => {
    const dir = tmp();
    writeFileSync(join(dir, 'notes.txt'), PRECIOUS);
    mkdirSync(join(dir, 'x.json'));
    oneLine(kf(dir, ...TUNE, '--cache', 'notes.txt', '--out', 't.json'), '--cache notes.txt is a file, not a folder; --cache takes a folder of cache files (default .kernforge/tune) or a .json cache file');
    oneLine(kf(dir, ...TUNE, '--cache', 'x.json', '--out', 't.json'), '--cache x.json is a folder, but a name ending in .json names a cache file; --cache takes a folder of cache files (default .kernforge/tune) or a .json cache file');
    expect(readFileSync(join(dir, 'notes.txt'), 'utf8')).toBe(PRECIOUS);
    expect(tree(dir)).toEqual(['notes.txt', 'x.json']);
  }, 30_000);
});
