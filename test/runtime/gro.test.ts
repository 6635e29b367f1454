// .gro reading/writing (GROMACS fixed columns, inferred precision, errors with line numbers)
// and the built-in SPC/E topology built from a frame.
import { describe, it, expect } from 'vitest';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readGro, writeGro, writeFileAtomic, GroError, type GroFrame } from '../../runtime/md/gro.ts';
import { waterSystemFromGro } from '../../runtime/md/topology.ts';
import { waterBox, SPCE } from '../../runtime/md/system.ts';

/** Two SPC/E molecules (6 atoms) with velocities, in a 3 nm box. */
function twoWaters(): GroFrame {
  const sys = waterBox(2, 3);
  const names = ['OW', 'HW1', 'HW2'];
  const v = new Float64Array(18).map((_, i) => ((i * 0.37) % 1.3) - 0.6);
  return {
    title: 'two waters t= 0.0',
    atoms: Array.from({ length: 6 }, (_, i) => ({ resnr: Math.floor(i / 3) + 1, resname: 'SOL', name: names[i % 3]! })),
    x: sys.x,
    v,
    box: [3, 3, 3],
  };
}

/** Replace line `ln` (1-based) of a .gro text. */
function withLine(text: string, ln: number, line: string): string {
  const l = text.split('\n');
  l[ln - 1] = line;
  return l.join('\n');
}

function expectGroError(f: () => unknown, ...parts: (string | RegExp)[]): void {
  let err: unknown;
  try {
    f();
  } catch (e) {
    err = e;
  }
  expect(err).toBeInstanceOf(GroError);
  const msg = (err as Error).message;
  for (const p of parts) {
    if (typeof p === 'string') expect(msg).toContain(p);
    else expect(msg).toMatch(p);
  }
}

describe('readGro / writeGro', () => {
  it('reads GROMACS default columns, including spc216-style ".230" without a leading zero', () => {
    const text = [
      '216H2O,WATJP01,SPC216,SPC-MODEL,300K',
      '    3',
      '    1SOL     OW    1    .230    .628    .113',
      '    1SOL    HW1    2    .137    .626    .150',
      '    1SOL    HW2    3    .231    .589    .021',
      '   1.86206   1.86206   1.86206',
      '',
    ].join('\n');
    const f = readGro(text, 'spc.gro');
    expect(f.title).toBe('216H2O,WATJP01,SPC216,SPC-MODEL,300K');
    expect(f.atoms).toEqual([
      { resnr: 1, resname: 'SOL', name: 'OW' },
      { resnr: 1, resname: 'SOL', name: 'HW1' },
      { resnr: 1, resname: 'SOL', name: 'HW2' },
    ]);
    expect(Array.from(f.x)).toEqual([0.23, 0.628, 0.113, 0.137, 0.626, 0.15, 0.231, 0.589, 0.021]);
    expect(f.v).toBeUndefined();
    expect(f.box).toEqual([1.86206, 1.86206, 1.86206]);
    expect(f.precision).toBe(3);
  });

  it('writes the GROMACS layout %5d%-5s%5s%5d%8.3f x3 %8.4f x3 and a %10.5f box', () => {
    const text = writeGro(twoWaters());
    const lines = text.split('\n');
    expect(lines[1]).toBe('    6');
    expect(lines[2]!.slice(0, 20)).toBe('    1SOL     OW    1');
    for (let k = 0; k < 6; k++) expect(lines[2]!.slice(20 + 8 * k, 28 + 8 * k)).toMatch(k < 3 ? /^ *-?\d\.\d{3}$/ : /^ *-?\d\.\d{4}$/);
    expect(lines[2]!.length).toBe(20 + 6 * 8);
    expect(lines[8]).toMatch(/^( {3}\d\.\d{5}){3}$/);
    expect(text.endsWith('\n')).toBe(true);
  });

  it('round-trips at the default precision (x to 3 decimals, v to 4)', () => {
    const f = twoWaters();
    const g = readGro(writeGro(f));
    expect(g.atoms).toEqual(f.atoms);
    expect(g.title).toBe(f.title);
    for (let i = 0; i < 18; i++) {
      expect(Math.abs(g.x[i]! - f.x[i]!)).toBeLessThanOrEqual(0.5e-3 + 1e-12);
      expect(Math.abs(g.v![i]! - f.v![i]!)).toBeLessThanOrEqual(0.5e-4 + 1e-12);
    }
    expect(g.box[0]).toBeCloseTo(f.box[0], 5);
    // Writing what was read reproduces the text exactly.
    expect(writeGro(g)).toBe(writeGro(f));
  });

  it('infers a higher precision from the decimal-point spacing and round-trips state files (precision 8)', () => {
    const f = twoWaters();
    const text = writeGro(f, { precision: 8 });
    const atomLine = text.split('\n')[2]!;
    expect(atomLine.length).toBe(20 + 6 * 13); // %13.8f x, %13.9f v (GROMACS -ndec 8)
    const g = readGro(text);
    expect(g.precision).toBe(8);
    for (let i = 0; i < 18; i++) {
      expect(Math.abs(g.x[i]! - f.x[i]!)).toBeLessThanOrEqual(0.5e-8 + 1e-15);
      expect(Math.abs(g.v![i]! - f.v![i]!)).toBeLessThanOrEqual(0.5e-9 + 1e-15);
    }
    for (let c = 0; c < 3; c++) expect(Math.abs(g.box[c]! - f.box[c]!)).toBeLessThanOrEqual(0.5e-8);
    expect(writeGro(g, { precision: 8 })).toBe(text);
  });

  it('reads a hand-written %10.5f file without velocities and accepts a 9-value rectangular box', () => {
    const text = ['t', '1', '    7ABC     C1    1   1.23456  -0.50000  12.00001', '   3.0 3.0 3.0 0 0 0 0 0 0'].join('\n');
    const f = readGro(text);
    expect(f.precision).toBe(5);
    expect(Array.from(f.x)).toEqual([1.23456, -0.5, 12.00001]);
    expect(f.atoms[0]).toEqual({ resnr: 7, resname: 'ABC', name: 'C1' });
    expect(f.box).toEqual([3, 3, 3]);
  });

  it('can leave velocities out and rejects bad precision', () => {
    expect(readGro(writeGro(twoWaters(), { velocities: false })).v).toBeUndefined();
    expectGroError(() => writeGro(twoWaters(), { precision: -1 }), 'precision -1');
  });

  const base = writeGro(twoWaters());
  const file = 'box.gro';
  it.each([
    ['atom count not an integer', () => withLine(base, 2, '  six'), `${file}:2:`, 'atom count "six" is not an integer', 'allowed: a positive integer'],
    ['zero atoms', () => ['t', '0', '   1.0   1.0   1.0'].join('\n'), `${file}:2:`, 'zero atoms'],
    ['fewer atom lines than the count', () => withLine(base, 2, '    7'), `${file}:9:`, 'ends after 6 atom lines and a box line, but line 2 says 7 atoms'],
    ['more atom lines than the count', () => withLine(base, 2, '    5'), `${file}:8:`, 'found an atom line', 'exactly 5 atom lines'],
    ['missing box line', () => base.split('\n').slice(0, 8).join('\n'), `${file}:9:`, 'missing box line'],
    ['unparseable box line', () => withLine(base, 9, '   1.0   abc   1.0'), `${file}:9:`, 'cannot read the box from "1.0   abc   1.0"'],
    ['non-positive box', () => withLine(base, 9, '   1.0   0.0   1.0'), `${file}:9:`, 'must be positive'],
    ['triclinic box', () => withLine(base, 9, '   3.0 3.0 3.0 0 0 0.5 0 0 0'), `${file}:9:`, 'triclinic box', 'not supported'],
    ['unparseable coordinate', () => withLine(base, 5, base.split('\n')[4]!.slice(0, 28) + '   1.2x4' + base.split('\n')[4]!.slice(36)), `${file}:5:`, 'cannot read y coordinate of atom 3', 'width 8'],
    ['non-finite coordinate', () => withLine(base, 6, base.split('\n')[5]!.slice(0, 20) + '     nan' + base.split('\n')[5]!.slice(28)), `${file}:6:`, 'x coordinate of atom 4 "nan" is not finite'],
    ['atom line too short', () => withLine(base, 4, '    1SOL    HW1    2   0.100'), `${file}:4:`, 'atom line too short'],
    ['uneven decimal points', () => withLine(base, 3, '    1SOL     OW    1   0.100    0.200   0.300'), `${file}:3:`, 'not evenly spaced'],
    ['velocities on some lines only', () => withLine(base, 7, base.split('\n')[6]!.slice(0, 44)), `${file}:7:`, 'no velocities but line 3 has'],
    ['non-integer residue number', () => withLine(base, 4, '   x1' + base.split('\n')[3]!.slice(5)), `${file}:4:`, 'residue number "x1"'],
    ['a second frame after the box', () => base + base, `${file}:10:`, 'unexpected content after the box line'],
  ] as [string, () => string, ...string[]][])('rejects %s with the line number', (_name, make, ...parts) => {
    expectGroError(() => readGro(make(), file), ...parts);
  });

  it('GroError is the class cli/main.ts reports as a user error', () => {
    expect(new GroError('x').constructor.name).toBe('GroError');
  });

  it('writeFileAtomic replaces the file and leaves no temporary behind', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kf-gro-'));
    try {
      const p = join(dir, 'state.gro');
      writeFileAtomic(p, 'old\n');
      writeFileAtomic(p, writeGro(twoWaters(), { precision: 8 }));
      expect(readGro(readFileSync(p, 'utf8')).precision).toBe(8);
      expect(readdirSync(dir)).toEqual(['state.gro']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('waterSystemFromGro (built-in SPC/E)', () => {
  it('builds charges, LJ types, masses, molecules and exclusions as waterBox does', () => {
    const f = twoWaters();
    const t = waterSystemFromGro(f, 'w.gro');
    const ref = waterBox(2, 3);
    expect(Array.from(t.sys.q)).toEqual(Array.from(ref.q));
    expect(Array.from(t.sys.type)).toEqual(Array.from(ref.type));
    expect(t.sys.ljTypes).toEqual(ref.ljTypes);
    expect(t.sys.exclusions.map((e) => Array.from(e))).toEqual(ref.exclusions.map((e) => Array.from(e)));
    expect(Array.from(t.mass)).toEqual([SPCE.massO, SPCE.massH, SPCE.massH, SPCE.massO, SPCE.massH, SPCE.massH]);
    expect(Array.from(t.molecules)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(Array.from(t.sys.x)).toEqual(Array.from(f.x));
    expect(t.sys.x).not.toBe(f.x);
    expect(t.names).toEqual(f.atoms);
  });

  it('accepts WAT/HOH/SPC with O/H1/H2 names and molecules straddling the box edge', () => {
    const f = twoWaters();
    f.atoms = f.atoms.map((a, i) => ({ ...a, resname: ['WAT', 'HOH'][Math.floor(i / 3)]!, name: ['O', 'H1', 'H2'][i % 3]! }));
    // Move molecule 2 so its oxygen sits 0.01 nm below x = 0: hydrogens stick out, which is fine.
    const dx = -0.01 - f.x[9]!;
    for (const a of [3, 4, 5]) f.x[3 * a] += dx;
    expect(() => waterSystemFromGro(f)).not.toThrow();
    f.atoms.forEach((a) => (a.resname = 'SPC'));
    expect(waterSystemFromGro(f).sys.q.length).toBe(6);
  });

  const bad = (edit: (f: GroFrame) => void): (() => unknown) => () => {
    const f = twoWaters();
    edit(f);
    return waterSystemFromGro(f, 'w.gro');
  };
  it.each([
    ['an unknown residue', bad((f) => (f.atoms[4]!.resname = 'ABC')), 'w.gro:7:', 'unknown residue "ABC" at line 7 (atom "HW1")', 'the built-in model knows SOL, WAT, HOH, SPC (SPC/E water: OW, HW1, HW2'],
    ['an unknown atom name', bad((f) => (f.atoms[1]!.name = 'HX')), 'w.gro:4:', 'unknown atom "HX" at line 4 (residue SOL 1)'],
    ['atoms in the wrong order', bad((f) => ([f.atoms[1]!.name, f.atoms[2]!.name] = ['HW2', 'HW1'])), 'w.gro:4:', 'misordered', 'where HW1 or H1 belongs'],
    ['an incomplete molecule in the middle', bad((f) => (f.atoms[2]!.name = 'OW')), 'w.gro:5:', 'where HW2 or H2 belongs'],
    ['a molecule split over residues', bad((f) => (f.atoms[5]!.resnr = 9)), 'w.gro:8:', 'incomplete water molecule', 'SOL 9'],
    [
      'an incomplete molecule at the end',
      bad((f) => {
        f.atoms = f.atoms.slice(0, 5);
        f.x = f.x.slice(0, 15);
      }),
      'w.gro:6:',
      'incomplete water molecule at the end: 2 atoms',
    ],
    ['an atom far outside the box', bad((f) => (f.x[3 * 3 + 1] = 1.6 * f.box[1])), 'w.gro:6:', 'atom 4 ("OW" of SOL 2) has y =', 'more than half a box edge outside'],
    ['an atom far below zero', bad((f) => (f.x[3 * 1 + 2] = -0.6 * f.box[2])), 'w.gro:4:', 'atom 2 ("HW1" of SOL 1) has z ='],
    ['a hydrogen detached from its oxygen', bad((f) => (f.x[3 * 2] += 0.3)), 'w.gro:5:', 'nm from its oxygen (line 3)'],
  ] as [string, () => unknown, ...string[]][])('rejects %s naming the atom and line', (_name, f, ...parts) => expectGroError(f, ...parts));
});
