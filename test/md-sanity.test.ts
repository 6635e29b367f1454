// Physics nonsense ends with one line and exit status 2, never with exit 0 (issue 13, class 4):
// a time step beyond the stable limit is refused before the run (unless --force-dt); a run whose
// atoms move too far between pair searches, or whose conserved energy or temperature jumps
// between thermo samples, stops with the step, the atom or quantity and the bound, keeping the
// last good frame as a blow-up does; a --continue state file with garbage in it (null, 1e300,
// text, a bad box, step or names) is refused naming the file and the field. In no case is a
// final frame or state written as if the run had completed. The cases tried, with the outcome
// before and after, are in docs/safety-md.md.
import { describe, it, expect, beforeAll } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { readGro } from '../runtime/md/gro.ts';
import { ljFluid } from '../runtime/md/ljfluid.ts';
import { RunChecks, timeStepLimit, checkState } from '../runtime/md/sanity.ts';
import { MdInputError } from '../runtime/md/errors.ts';

const root = new URL('..', import.meta.url).pathname;
const WATER = join(root, 'test/fixtures/gromacs/spce/conf.gro');
// --cluster: no tuned-variant lookup, so stderr holds nothing but the error.
const cli = (dir: string, ...args: string[]) =>
  spawnSync('node', [join(root, 'cli/kernforge.mjs'), 'run', 'md', '--cluster', '4x4', ...args, '-c', join(dir, 'final.gro'), '--state-out', join(dir, 'final.json')], { encoding: 'utf8', cwd: root });

type State = Record<string, unknown> & { x: number[]; v: number[]; box: number[]; names?: Record<string, unknown>[] };
let stateDir: string;
let ljState: State;
let waterState: State;
/** A state file: the good LJ (256 atoms) or water one, edited. */
function stateFile(base: 'lj' | 'water', edit: (s: State) => unknown = () => {}): string {
  const s = structuredClone(base === 'lj' ? ljState : waterState);
  const replaced = edit(s);
  const f = join(mkdtempSync(join(stateDir, 's-')), 'state.json');
  writeFileSync(f, JSON.stringify(replaced ?? s));
  return f;
}

beforeAll(() => {
  stateDir = mkdtempSync(join(tmpdir(), 'kf-md-sanity-'));
  const lj = ljFluid({ cells: 4 });
  ljState = { format: 'kernforge-md-state', version: 1, system: 'lj', box: [...lj.sys.box], step: 10, dt: 0.005, thermostatEnergy: 0, x: Array.from(lj.sys.x), v: Array.from(lj.v) };
  const w = readGro(readFileSync(WATER, 'utf8'), WATER);
  waterState = { format: 'kernforge-md-state', version: 1, system: 'water', box: [...w.box], step: 0, dt: 0.002, thermostatEnergy: 0, names: w.atoms.map((a) => ({ ...a })), x: Array.from(w.x), v: Array.from(w.v!) };
});

/** Exit 2, exactly one line on stderr (no stack trace), matching `message`; no final frame or state. */
function expectRefused(dir: string, r: ReturnType<typeof cli>, message: RegExp, lastGood: boolean): void {
  expect(r.status, r.stderr + r.stdout.slice(-2000)).toBe(2);
  const lines = r.stderr.split('\n').filter((l) => l !== '');
  expect(lines, r.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^kernforge: error: /);
  expect(lines[0]).toMatch(message);
  expect(existsSync(join(dir, 'final.gro'))).toBe(false);
  expect(existsSync(join(dir, 'final.json'))).toBe(false);
  expect(readdirSync(dir).sort()).toEqual(lastGood ? ['final.lastgood.gro'] : []);
}

describe('a time step beyond the stable limit is refused before the run', () => {
  const cases: [string, () => string[], RegExp][] = [
    ['--dt 3 (LJ)', () => ['--cells', '4', '--dt', '3'], /--dt 3: longer than the stable time step \(allowed: 0 < dt <= 0\.01; .*blows up.*\); --force-dt runs it anyway$/],
    ['--dt 1e9 (LJ)', () => ['--cells', '4', '--dt', '1e9'], /--dt 1000000000: longer than the stable time step \(allowed: 0 < dt <= 0\.01; /],
    ['--dt 0.01 for water', () => ['--gro', WATER, '--dt', '0.01'], /--dt 0\.01: longer than the stable time step \(allowed: 0 < dt <= 0\.005; .*SPC\/E water with SETTLE.*GROMACS/],
    ['the default time step at T0 100 (LJ)', () => ['--cells', '4', '--t0', '100'], /the default time step 0\.005: longer than the stable time step \(allowed: 0 < dt <= 0\.00168; .*at T = 100/],
    ['a state file with dt 1e9', () => ['--continue', stateFile('lj', (s) => void (s.dt = 1e9))], /state\.json: dt 1000000000: longer than the stable time step \(allowed: 0 < dt <= 0\.01/],
    ['--dt other than the state file\'s', () => ['--continue', stateFile('lj'), '--dt', '3'], /--dt 3 with --continue .*state\.json: the state's time step is 0\.005 .*\(allowed: leave out --dt, or --dt 0\.005\)/],
  ];
  it.each(cases)('%s', (_what, args, message) => {
    const dir = mkdtempSync(join(tmpdir(), 'kf-md-'));
    expectRefused(dir, cli(dir, ...args(), '--steps', '10'), message, false);
  }, 30_000);
});

describe('runs that go wrong stop with the step, the atom or quantity and the bound, and keep the last good frame', () => {
  it('--dt 3 --force-dt: an atom moves beyond (rlist - rc/2)/2 in the first step', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kf-md-'));
    const r = cli(dir, '--cells', '4', '--dt', '3', '--force-dt', '--steps', '100');
    expectRefused(dir, r, /step 1: atom \d+ moved [\d.e+]+ sigma since the pair search at step 0, more than 0\.775 sigma \(allowed: \(rlist - rc\/2\)\/2 = \(2\.8 - 2\.5\/2\)\/2, .*\); the system blew up.*; last good frame \(step 0\) written to .*final\.lastgood\.gro$/, true);
    expect(readGro(readFileSync(join(dir, 'final.lastgood.gro'), 'utf8')).atoms).toHaveLength(256);
  }, 30_000);
  it('the same on 2 threads (wasm): the threads measure the displacement as they drift the atoms, and the run stops the same way', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kf-md-'));
    const r = cli(dir, '--cells', '4', '--dt', '3', '--force-dt', '--steps', '100', '--threads', '2', '--target', 'wasm');
    expectRefused(dir, r, /step 1: atom \d+ moved [\d.e+]+ sigma since the pair search at step 0, more than 0\.775 sigma \(allowed: \(rlist - rc\/2\)\/2 = \(2\.8 - 2\.5\/2\)\/2, .*\); the system blew up.*; last good frame \(step 0\) written to .*final\.lastgood\.gro$/, true);
  }, 30_000);
  it('water at --dt 0.01 --force-dt: the conserved energy jumps between thermo samples', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kf-md-'));
    const r = cli(dir, '--gro', WATER, '--dt', '0.01', '--force-dt', '--steps', '200', '--thermo', '100');
    expectRefused(dir, r, /step 100: the conserved energy changed by [\d.]+ kJ\/mol per atom since step 0 \(allowed: at most [\d.]+, kB T per atom per 1000 steps at T = [\d.]+ K\); the system blew up .*; last good frame \(step 0\) written to .*final\.lastgood\.gro$/, true);
  }, 60_000);
});

describe('a --continue state file with garbage is refused naming the file and the field', () => {
  const cases: [string, () => string, RegExp][] = [
    ['a null coordinate', () => stateFile('lj', (s) => void (s.x[4] = null as never)), /state\.json: x\[4\]: y coordinate of atom 2 is null \(allowed: finite numbers\)$/],
    ['a coordinate of 1e300', () => stateFile('lj', (s) => void (s.x[4] = 1e300)), /state\.json: x\[4\]: y coordinate of atom 2 is 1e\+300, more than 1000 box edges outside the box \[0, 6\.71838\) \(allowed: -6718\.38 <= y < 6725\.1: positions are unwrapped/],
    ['a coordinate as text', () => stateFile('lj', (s) => void (s.x[4] = '1.0' as never)), /state\.json: x\[4\]: y coordinate of atom 2 is "1\.0" \(allowed: finite numbers\)$/],
    ['a velocity of 1e300', () => stateFile('lj', (s) => void (s.v[7] = 1e300)), /state\.json: v\[6\.\.8\]: atom 3 moves at 1e\+300 \(allowed: at most [\d.]+, a kinetic energy of 100 kB T at T = [\d.]+, the larger of the state's median temperature and 1\.44\)$/],
    ['a water velocity of 1e6 nm/ps', () => stateFile('water', (s) => void (s.v[0] = 1e6)), /state\.json: v\[0\.\.2\]: atom 1 moves at 1000000 nm\/ps \(allowed: at most [\d.]+ nm\/ps, a kinetic energy of 100 kB T at T = 300 K/],
    ['a missing velocity array', () => stateFile('lj', (s) => void delete (s as Partial<State>).v), /state\.json: v is missing \(allowed: an array of 3 finite numbers per atom \(velocities\)\)$/],
    ['a negative box edge', () => stateFile('lj', (s) => void (s.box[1] = -6.7)), /state\.json: box\[1\] -6\.7 is not a positive finite edge \(allowed: three positive finite edges \[Lx, Ly, Lz\]\)$/],
    ['a box of two edges', () => stateFile('lj', (s) => void (s.box = [6.7, 6.7])), /state\.json: box \[6\.7,6\.7\] \(allowed: three positive finite edges/],
    ['a negative step', () => stateFile('lj', (s) => void (s.step = -5)), /state\.json: step -5 \(allowed: an integer >= 0\)$/],
    ['a fractional step', () => stateFile('lj', (s) => void (s.step = 2.5)), /state\.json: step 2\.5 \(allowed: an integer >= 0\)$/],
    ['a null time step', () => stateFile('lj', (s) => void (s.dt = null)), /state\.json: dt null \(allowed: a positive finite time step\)$/],
    ['a thermostat energy as text', () => stateFile('lj', (s) => void (s.thermostatEnergy = 'x')), /state\.json: thermostatEnergy "x" \(allowed: a finite number/],
    ['an unknown system', () => stateFile('lj', (s) => void (s.system = 'argon')), /state\.json: system "argon" \(allowed: "lj", "water"\)$/],
    ['another version', () => stateFile('lj', (s) => void (s.version = 2)), /state\.json: version 2 is not one this kernforge reads \(allowed: 1\)$/],
    ['a JSON array', () => stateFile('lj', () => [1, 2, 3]), /state\.json: not a kernforge state file: the top level is an array \(allowed: the JSON object that run md --state-out writes\)$/],
    ['an LJ atom count that is no fcc lattice', () => stateFile('lj', (s) => void ((s.x = s.x.slice(0, 300)), (s.v = s.v.slice(0, 300)))), /state\.json: x holds 100 atoms \(allowed for the LJ fluid: 4 n\^3 atoms/],
    ['velocities of another length', () => stateFile('lj', (s) => void s.v.pop()), /state\.json: v has 767 numbers for the 256 atoms of x \(allowed: 768: /],
    ['water without atom names', () => stateFile('water', (s) => void delete s.names), /state\.json: names is missing \(a water state needs the atom names\) \(allowed: one \{"resnr": integer, "resname": text, "name": text\} per atom\)$/],
    ['water with an unknown atom name', () => stateFile('water', (s) => void (s.names![1]!.name = 'CL')), /state\.json: atom 2 \(names\[1\]\): unknown atom "CL" at atom 2 \(residue SOL 1\); the built-in model knows/],
    ['water with a stretched O-H', () => stateFile('water', (s) => void (s.x[3] = s.x[3]! + 0.5)), /state\.json: atom 2 \(names\[1\]\): atom "HW1" of SOL 1 is [\d.]+ nm from its oxygen \(atom 1\) \(allowed: 0\.05-0\.2 nm/],
  ];
  it.each(cases)('%s', (_what, file, message) => {
    const dir = mkdtempSync(join(tmpdir(), 'kf-md-'));
    expectRefused(dir, cli(dir, '--continue', file(), '--steps', '10'), message, false);
  }, 30_000);
  it('a good state file still continues, with unwrapped positions far outside the box', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kf-md-'));
    // Whole box lengths added: the same configuration, as a long run leaves it.
    const f = stateFile('water', (s) => s.x.forEach((_, i) => (s.x[i] = s.x[i]! + 7 * s.box[i % 3]!)));
    const r = cli(dir, '--continue', f, '--steps', '10', '--thermo', '10');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^\s+10\s+0\.020\s/m);
    expect(readdirSync(dir).sort()).toEqual(['final.gro', 'final.json']);
  }, 30_000);
});

describe('the bounds', () => {
  it('time step limits: LJ 0.01 tau up to T 2.8, then half the blow-up step 0.028 sqrt(1.44/T); water 0.005 ps', () => {
    expect(timeStepLimit('lj', 0)).toBe(0.01);
    expect(timeStepLimit('lj', 1.44)).toBe(0.01);
    expect(timeStepLimit('lj', 10)).toBe(0.00531);
    expect(timeStepLimit('water', 300)).toBe(0.005);
    expect(timeStepLimit('water', 1000)).toBe(0.005);
  });
  it('displacement: (rlist - rc/2)/2 since the last pair search; NaN is left to the force guard', () => {
    const c = new RunChecks({ n: 2, rlist: 2.8, rc: 2.5, nstlist: 20, kB: 1, units: 'lj' });
    expect(c.maxDisplacement).toBeCloseTo(0.775, 12);
    const x = new Float64Array([0, 0, 0, 5, 5, 5]);
    c.listBuilt(20, x);
    expect(c.displacement(25, Float64Array.of(0.7, 0, 0, 5, 5, 5))).toBeUndefined();
    expect(c.displacement(25, Float64Array.of(0, 0, 0, 5, 5.5, 5.6))).toMatch(/^step 25: atom 2 moved 0\.781 sigma since the pair search at step 20, more than 0\.775 sigma /);
    expect(c.displacement(25, Float64Array.of(0, 0, 0, 5, NaN, 5))).toBeUndefined();
  });
  it('thermo samples: the conserved energy within kB T per atom per 1000 steps of the last and the first sample, the temperature within 10 times', () => {
    const c = new RunChecks({ n: 100, rlist: 1.1, rc: 1, nstlist: 10, kB: 0.0083144626, units: 'gromacs', sanity: { temperature: 300 } });
    expect(c.sample({ step: 0, T: 300, conserved: -1000 })).toBeUndefined();
    // kB T at 300 K is 2.494 kJ/mol: 2.4 per atom passes, 2.6 does not.
    expect(c.sample({ step: 100, T: 310, conserved: -1000 + 240 })).toBeUndefined();
    expect(c.sample({ step: 200, T: 310, conserved: -760 + 265 })).toMatch(/^step 200: the conserved energy changed by 2\.65 kJ\/mol per atom since step 100 \(allowed: at most 2\.58, kB T per atom per 1000 steps at T = 310 K\); the system blew up/);
    // Over 5000 steps five times as much since the last sample, but since the first too.
    expect(c.sample({ step: 5100, T: 310, conserved: -760 + 1200 })).toMatch(/^step 5100: the conserved energy changed by 14\.4 kJ\/mol per atom since step 0 \(allowed: at most 12\.7, kB T per atom per 1000 steps at T = 300 K\)/);
    expect(c.sample({ step: 5100, T: 310, conserved: -760 + 1000 })).toBeUndefined();
    expect(c.sample({ step: 5200, T: 3200, conserved: 240 })).toMatch(/^step 5200: the temperature rose from 310 K at step 5100 to 3200 K \(allowed: at most 10 x 310 K\)/);
    // A cold start (T 0) is measured against 0.1 (LJ units), not 0.
    const lj = new RunChecks({ n: 10, rlist: 2.8, rc: 2.5, nstlist: 20, kB: 1, units: 'lj' });
    expect(lj.sample({ step: 0, T: 0, conserved: -67 })).toBeUndefined();
    expect(lj.sample({ step: 100, T: 0.9, conserved: -67 })).toBeUndefined();
    expect(lj.sample({ step: 200, T: 0.9, conserved: -67 + 1.1 })).toMatch(/changed by 0\.11 epsilon per atom since step 0 \(allowed: at most 0\.1, kB T per atom per 1000 steps at T = 0\.1\)/);
  });
  it('checkState names the field and what is allowed, and returns a good state as it is', () => {
    const good = { format: 'kernforge-md-state', version: 1, system: 'lj', box: [2, 2, 2], step: 3, dt: 0.005, thermostatEnergy: 0, x: [0.5, 0.5, 0.5], v: [0, 0, 0] };
    expect(checkState(good, 's.json')).toMatchObject(good);
    expect(() => checkState({ ...good, x: [0.5, -2001, 0.5] }, 's.json')).toThrow(MdInputError);
    expect(() => checkState({ ...good, x: [0.5, -2001, 0.5] }, 's.json')).toThrow(/^s\.json: x\[1\]: y coordinate of atom 1 is -2001, more than 1000 box edges outside the box \[0, 2\) \(allowed: -2000 <= y < 2002: /);
    expect(() => checkState({ ...good, names: [{ resnr: 1, resname: 'AR' }] }, 's.json')).toThrow(/^s\.json: names\[0\]\.name missing \(allowed: non-empty text\)$/);
    expect(() => checkState('text', 's.json')).toThrow(/^s\.json: not a kernforge state file: the top level is "text"/);
  });
});
