// Issue 13, classes 5, 7 (GEM) and 8: resource limits up front (grids, cells, generated surfaces
// and expressions, runtime/limits.ts), GEM's inputs blamed by name (runtime/gem/inputs.ts), and
// code generation (banners escaped, constant parts of potentials that are not finite refused).
// Every refusal is one line, exit status 2, and nothing written. docs/safety-limits.md keeps the
// table of the cases tried, before and after.
import { describe, it, expect } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { GiB, MAX_ARRAY_LENGTH, ResourceLimitError, bigdftMemory, checkMemory, formatBytes, mdMemory, memoryLimit, parseMemorySize } from '../runtime/limits.ts';
import { platform } from '../runtime/platform.ts';
import { checkGemInputs, GEM_MIN_DISTANCE } from '../runtime/gem/inputs.ts';
import { GemInputError, parsePqr, parseVert, readPqr, readVert } from '../runtime/gem/io.ts';
import { generateSurface } from '../runtime/gem/surface.ts';
import { open } from '../runtime/open.ts';
import { ApiInputError } from '../runtime/args.ts';
import { parseExpr, clipExpr, ExprError, MAX_EXPR_DEPTH, MAX_EXPR_LENGTH, MAX_EXPR_NESTING, MAX_EMITTED_LENGTH } from '../generator/expr.ts';
import { parseSpec, SpecError } from '../generator/spec.ts';
import { banner, commentText, loadTemplates } from '../generator/render.ts';
import { loadAndValidate, renderVariant } from '../generator/generate.ts';
import { libraryVariants } from '../generator/space.ts';
import { potentials } from '../generator/families/md-nonbonded.ts';

const root = new URL('..', import.meta.url).pathname;
const DATA = join(root, 'data/gem');
const cli = (...args: string[]) => spawnSync('node', [join(root, 'cli/kernforge.mjs'), ...args], { encoding: 'utf8', cwd: root });
const tmp = () => mkdtempSync(join(tmpdir(), 'kf-limits-'));

/** A refusal as the CLI gives it: status 2, one line on stderr starting with `kernforge: error: `, nothing on stdout. */
function refused(r: ReturnType<typeof cli>, pattern: RegExp): string {
  expect(r.status, r.stderr).toBe(2);
  const lines = r.stderr.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('kernforge: no tuned') && !l.includes('using the default'));
  expect(lines, r.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^kernforge: error: /);
  expect(lines[0]).toMatch(pattern);
  expect(lines[0]!.length).toBeLessThan(700);
  return lines[0]!;
}

describe('memory sizes and limits (runtime/limits.ts)', () => {
  it('parses sizes in powers of 1024 and refuses what is not one', () => {
    expect(parseMemorySize('4G')).toBe(4 * GiB);
    expect(parseMemorySize('512M')).toBe(512 * 2 ** 20);
    expect(parseMemorySize('1.5GiB')).toBe(1.5 * GiB);
    expect(parseMemorySize('2t')).toBe(2 * 2 ** 40);
    expect(parseMemorySize('100000')).toBe(100000);
    expect(parseMemorySize(' 64 MB ')).toBe(64 * 2 ** 20);
    expect(parseMemorySize(1e9)).toBe(1e9);
    for (const bad of ['abc', '0', '-1G', '4X', '', '1e400', 'G', Infinity, NaN, -5, '4G4']) {
      expect(() => parseMemorySize(bad)).toThrow(ResourceLimitError);
      expect(() => parseMemorySize(bad)).toThrow(/^--max-memory .*: not a memory size; allowed: a positive size such as 512M, 4G/);
    }
  });

  it('defaults to half of the machine memory the platform reports', () => {
    const machine = platform().cpu().memoryBytes!;
    expect(memoryLimit()).toEqual({ bytes: Math.floor(machine / 2), source: `half of this machine's ${formatBytes(machine)}`, machine });
    expect(memoryLimit('4G').bytes).toBe(4 * GiB);
    expect(memoryLimit('4G').source).toBe('given');
    expect(formatBytes(144e9)).toBe('134 GiB');
    expect(formatBytes(1.5 * GiB)).toBe('1.50 GiB');
  });

  it('estimates: bigdft 144 bytes per point in f64 (TypeScript), MD about 1.3 KB per LJ atom', () => {
    const ts = ['bigdft-conv.ts.magic.periodic.f64', 'bigdft-conv.ts.magic-t.periodic.f64', 'bigdft-conv.ts.kinetic.periodic.f64'];
    expect(bigdftMemory([1000, 1000, 1000], 'f64', ts).bytes).toBe(144e9);
    const wasm = ts.map((k) => k.replace('.ts.', '.wasm.'));
    expect(bigdftMemory([100, 100, 100], 'f64', wasm).wasmBytes).toBe(48e6);
    const lj = mdMemory({ atoms: 4000, volume: 4000 / 0.8442, rlist: 2.8 });
    expect(lj.bytes / 4000).toBeGreaterThan(1200);
    expect(lj.bytes / 4000).toBeLessThan(1400);
    const full = mdMemory({ atoms: 4000, volume: 4000 / 0.8442, rlist: 2.8, cluster: '1x1', list: 'full' });
    expect(full.bytes).toBeGreaterThan(2 * lj.bytes);
  });

  it('checkMemory: the estimate, the limit and the option in one line; the 2^32 array bound whatever the limit', () => {
    const limit = { bytes: GiB, source: 'given' };
    expect(() => checkMemory('x', { bytes: 2 * GiB, basis: '2 bytes per thing', largestArray: 10 }, limit, '--max-memory <size>', 'less')).toThrow(
      'x needs about 2.00 GiB of memory (2 bytes per thing), more than the limit of 1.00 GiB (given); use less, or raise the limit with --max-memory <size> (e.g. --max-memory 3G)',
    );
    expect(() => checkMemory('x', { bytes: 1, basis: '', largestArray: MAX_ARRAY_LENGTH + 1 }, { bytes: 1e30, source: 'given' }, '--max-memory <size>', 'less')).toThrow(/more than the 4.29e9 \(2\^32\) a JavaScript typed array can hold, whatever the memory limit/);
    expect(() => checkMemory('x', { bytes: GiB / 2, basis: '', largestArray: 10 }, limit, '', '')).not.toThrow();
  });
});

describe('run bigdft: the grid against the memory limit', () => {
  it('refuses 1000x1000x1000 under --max-memory 4G with the estimate, the limit and the option', () => {
    const line = refused(cli('run', 'bigdft', '--grid', '1000x1000x1000', '--max-memory', '4G'), /a 1000x1000x1000 grid .* needs about 134 GiB of memory \(144 bytes per grid point\), more than the limit of 4.00 GiB \(given\)/);
    expect(line).toMatch(/use a smaller --grid, or raise the limit with --max-memory <size> \(e\.g\. --max-memory 141G\)/);
  });

  it('refuses grids beyond any limit (2^32 elements) and beyond the wasm32 memory', () => {
    refused(cli('run', 'bigdft', '--grid', '100000x100000x100000'), /needs an array of 1\.00e15 elements, more than the 4\.29e9 \(2\^32\)/);
    refused(cli('run', 'bigdft', '--grid', '2000x2000x2000', '--max-memory', '10T'), /needs an array of 8\.00e9 elements/);
    refused(cli('run', 'bigdft', '--grid', '500x500x500', '--target', 'wasm', '--max-memory', '100G'), /needs 5\.59 GiB in one WebAssembly memory, more than the 4 GiB a wasm32 memory can hold/);
  });

  it('refuses a --max-memory that is not a size', () => {
    refused(cli('run', 'bigdft', '--grid', '64x64x64', '--max-memory', 'lots'), /^kernforge: error: --max-memory "lots": not a memory size/);
    refused(cli('run', 'bigdft', '--grid', '64x64x64', '--max-memory', '0'), /not a memory size/);
  });

  it('open(): dims beyond 4096 are allowed when they fit; a grid above the limit is a ResourceLimitError', async () => {
    const kf = await open({ tuned: false, log: () => {} });
    const d = [4100, 30, 30] as const;
    const field = new Float64Array(d[0] * d[1] * d[2]).fill(1);
    const r = await kf.bigdft.apply('magic', field, d);
    expect(r.y.length).toBe(field.length);
    await expect(kf.bigdft.apply('magic', field, [5000, 5000, 5000])).rejects.toThrow(ResourceLimitError);
    await expect(kf.bigdft.apply('magic', field, [5000, 5000, 5000])).rejects.toThrow('bigdft.apply: dims: a 5000x5000x5000 grid (125000000000 points) needs an array of 1.25e11 elements, more than the 4.29e9 (2^32) a JavaScript typed array can hold, whatever the memory limit; use a smaller grid');
    const four = await open({ tuned: false, log: () => {}, maxMemory: '4G' });
    await expect(four.bigdft.apply('magic', field, [1000, 1000, 1000])).rejects.toThrow(/^bigdft\.apply: dims: a 1000x1000x1000 grid \(1000000000 points\) needs about 52\.2 GiB of memory \(56 bytes per grid point\), more than the limit of 4\.00 GiB \(given\)/);
    const small = await open({ tuned: false, log: () => {}, maxMemory: '1M' });
    await expect(small.bigdft.hamiltonian(field, field, d)).rejects.toThrow(/more than the limit of 1\.00 MiB \(given\); use a smaller grid, or raise the limit with open\(\{ maxMemory: '<size>' \}\) \(e\.g\. open\(\{ maxMemory: '1G' \}\)\)/);
    await expect(open({ maxMemory: 'x' })).rejects.toThrow(ApiInputError);
  });
});

describe('run md: the system against the memory limit', () => {
  it('refuses --cells 300 under --max-memory 4G before building it, and writes nothing', () => {
    const dir = tmp();
    const out = ['--confout', join(dir, 'c.gro'), '--state-out', join(dir, 's.json'), '--traj', join(dir, 't.xyz')];
    refused(cli('run', 'md', '--cells', '300', '--max-memory', '4G', ...out), /run md: the LJ fluid of 300 fcc cells per edge \(108000000 atoms\) needs about 132 GiB of memory \(1311 bytes per atom with 78 neighbours within rlist 2\.8\), more than the limit of 4\.00 GiB \(given\)(; this machine has .* in all)?; use fewer --cells, or raise the limit with --max-memory/);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('refuses --cells 1000 and more whatever the limit (a RangeError stack trace before)', () => {
    refused(cli('run', 'md', '--cells', '1000'), /4000000000 atoms\) needs an array of 1\.20e10 elements/);
    refused(cli('run', 'md', '--cells', '100000', '--max-memory', '1000T'), /needs an array of 1\.20e16 elements/);
  });

  it('open(): md.run takes the session limit', async () => {
    const kf = await open({ tuned: false, log: () => {}, maxMemory: '1M' });
    await expect(kf.md.run({ system: 'lj', cells: 10, steps: 0 })).rejects.toThrow(/^run md: the LJ fluid of 10 fcc cells per edge \(4000 atoms\) needs about 5\.00 MiB of memory .* more than the limit of 1\.00 MiB \(given\)/);
    await expect(kf.md.run({ system: 'lj', cells: 10, steps: 0, maxMemory: '2M' })).rejects.toThrow(/more than the limit of 2\.00 MiB/);
  });

  it('counts the pair list: a full 1x1 list at a long cut-off, and water from a .gro', () => {
    refused(cli('run', 'md', '--cells', '30', '--rc', '5', '--cluster', '1x1', '--list', 'full', '--max-memory', '1G'), /108000 atoms\) needs about 2\.22 GiB .*526 neighbours within rlist 5\.3/);
    refused(cli('run', 'md', '--gro', join(root, 'data/md/spce-884.gro'), '--max-memory', '1M'), /run md: water from .*spce-884\.gro \(2652 atoms\) needs about 8\.\d+ MiB/);
  });
});

/** mb_hhelix with more atoms (charge -0.5, radius 1.52) at [x, y, z] each, from line 6 on, as a PQR text. */
function withAtom(...at: [number, number, number][]): string {
  const lines = readFileSync(join(DATA, 'mb_hhelix.pqr'), 'utf8').trimEnd().split('\n');
  lines.splice(5, 0, ...at.map(([x, y, z], k) => `ATOM    ${999 + k}  O   ALA     1     ${x.toFixed(5)} ${y.toFixed(5)} ${z.toFixed(5)}  -0.5000 1.520 `));
  return `${lines.join('\n')}\n`;
}

/** mb_hhelix's .vert with every vertex moved by (dx, 0, 0). */
function movedVert(dx: number): string {
  const lines = readFileSync(join(DATA, 'mb_hhelix.vert'), 'utf8').trimEnd().split('\n');
  return `${lines.map((l, i) => (i < 3 ? l : l.trim().split(/\s+/).map((f, k) => (k === 0 ? (Number(f) + dx).toFixed(3) : f)).join(' '))).join('\n')}\n`;
}

/** mb_hhelix's .pqr with every atom moved by (dx, 0, 0). */
function movedPqr(dx: number): string {
  const lines = readFileSync(join(DATA, 'mb_hhelix.pqr'), 'utf8').trimEnd().split('\n');
  return `${lines.map((l) => {
    if (!l.startsWith('ATOM')) return l;
    const f = l.trim().split(/\s+/);
    f[f.length - 5] = (Number(f[f.length - 5]) + dx).toFixed(3);
    return f.join(' ');
  }).join('\n')}\n`;
}

describe('run gem: the input blamed, not the variant (runtime/gem/inputs.ts)', () => {
  const vert = join(DATA, 'mb_hhelix.vert');
  // the first vertex of mb_hhelix.vert and its normal
  const [vx, vy, vz] = [-9.128, 24.915, -1.628];

  it('an atom on a surface vertex: the atom (PQR line) and the vertex (.vert line), nothing written', () => {
    const dir = tmp();
    writeFileSync(join(dir, 'm.pqr'), withAtom([vx, vy, vz]));
    const out = join(dir, 'phi.out');
    refused(cli('run', 'gem', join(dir, 'm.pqr'), '--vert', vert, '-o', out), new RegExp(`atom 6 \\(${dir}/m\\.pqr:6: ATOM 999 O ALA 1\\) lies 0 A from vertex 1 \\(.*mb_hhelix\\.vert:4\\): the potential there is infinite; allowed: at least 0\\.1 A`));
    expect(existsSync(out)).toBe(false);
    // closer than the minimum (0.01 A): f32 loses the 1/d term
    writeFileSync(join(dir, 'n.pqr'), withAtom([vx + 0.00753, vy + 0.00643, vz + 0.00139]));
    refused(cli('run', 'gem', join(dir, 'n.pqr'), '--vert', vert, '-o', out), /lies 0\.010 A from vertex 1 .*: 1\/d dominates the potential there/);
    expect(existsSync(out)).toBe(false);
  });

  it('an atom far outside its surface, a surface far from its molecule, a molecule far from the origin', () => {
    const dir = tmp();
    const out = join(dir, 'phi.out');
    writeFileSync(join(dir, 'stray.pqr'), withAtom([1e5, 0, 0]));
    refused(cli('run', 'gem', join(dir, 'stray.pqr'), '--vert', vert, '-o', out), /atom 6 \(.*stray\.pqr:6: ATOM 999 O ALA 1\) lies 99987 A from the nearest other atom; allowed: every atom within 15 A of another/);
    // two atoms together, 100 A out: far outside the surface
    writeFileSync(join(dir, 'pair.pqr'), withAtom([100, 0, 0], [101.5, 0, 0]));
    refused(cli('run', 'gem', join(dir, 'pair.pqr'), '--vert', vert, '-o', out), /atom 6 \(.*pair\.pqr:6: ATOM 999 O ALA 1\) lies 98\.39 A from the centre of .*mb_hhelix\.vert, far outside it \(radius 21\.08 A\); allowed: atoms within 2 x that radius/);
    // four atoms 300 A apart, each alone (the gate failed at 1.6 x its tolerance before)
    writeFileSync(join(dir, 'apart.pqr'), ['0 0 0', '300 0 0', '0 300 0', '0 0 300'].map((p, i) => `ATOM ${i + 1} N ALA 1 ${p} 1 1.5`).join('\n'));
    refused(cli('run', 'gem', join(dir, 'apart.pqr'), '-o', out), /atom 1 \(.*apart\.pqr:1: ATOM 1 N ALA 1\) lies 300 A from the nearest other atom/);
    writeFileSync(join(dir, 'far.vert'), movedVert(1000));
    refused(cli('run', 'gem', join(DATA, 'mb_hhelix.pqr'), '--vert', join(dir, 'far.vert'), '-o', out), /far\.vert \(5884 vertices around .*\) lies 1000 A from the molecule of .*mb_hhelix\.pqr .*allowed: a surface around its own molecule/);
    writeFileSync(join(dir, 'shift.pqr'), movedPqr(1e4));
    writeFileSync(join(dir, 'shift.vert'), movedVert(1e4));
    refused(cli('run', 'gem', join(dir, 'shift.pqr'), '--vert', join(dir, 'shift.vert'), '-o', out), /with coordinates up to 10014 A from the origin the f32 kernels cannot tell them apart; allowed: at least 0\.0005 x the largest coordinate, 5\.01 A/);
    expect(existsSync(out)).toBe(false);
  });

  it('the bundled molecules and their surfaces pass, generated surfaces too', () => {
    for (const m of ['mb_hhelix', '1uwo_A']) expect(() => checkGemInputs(readPqr(join(DATA, `${m}.pqr`)), readVert(join(DATA, `${m}.vert`)), { p: 3 })).not.toThrow();
    const atoms = readPqr(join(DATA, 'mb_hhelix.pqr'));
    expect(() => checkGemInputs(atoms, generateSurface(atoms, { density: 1 }))).not.toThrow();
  });

  it('names atoms and vertices by index without files; the error class can be chosen', () => {
    const atoms = parsePqr('ATOM 1 N ALA 1 0 0 0 1 1.5\nATOM 2 C ALA 1 1 0 0 -1 1.5\n');
    const verts = parseVert('#\n#\n2 2\n2.5 0 0 1 0 0\n1.05 0 0 1 0 0\n');
    expect(() => checkGemInputs(atoms, verts)).toThrow(GemInputError);
    expect(() => checkGemInputs(parsePqr('ATOM 1 N ALA 1 0 0 0 1 1.5\n'), parseVert('#\n#\n1 1\n1.5 0 0 1 0 0\n'))).not.toThrow();
    expect(() => checkGemInputs(atoms, verts)).toThrow(`atom 2 (atoms.x[1]) lies 0.050 A from vertex 2 of the surface: 1/d dominates the potential there and f32 kernels lose it; allowed: at least ${GEM_MIN_DISTANCE} A (a molecule's surface lies outside its atoms)`);
    expect(() => checkGemInputs(atoms, verts, { prefix: 'gem.potential: ', error: ApiInputError })).toThrow(ApiInputError);
  });

  it('open(): gem.potential refuses an atom on a vertex as an ApiInputError before any variant runs', async () => {
    const kf = await open({ tuned: false, log: () => {} });
    const atoms = parsePqr(withAtom([vx, vy, vz]));
    const vertices = readVert(vert);
    await expect(kf.gem.potential(atoms, vertices)).rejects.toThrow(ApiInputError);
    await expect(kf.gem.potential(atoms, vertices)).rejects.toThrow(/^gem\.potential: atom 6 \(atoms\.x\[5\]\) lies 0 A from vertex 1 of vertices: the potential there is infinite/);
  });

  it('a generated surface: the grid and mesh estimate against --max-memory, nothing written', () => {
    const dir = tmp();
    const out = join(dir, 'phi.out');
    refused(cli('run', 'gem', join(DATA, 'mb_hhelix.pqr'), '--surface', 'ses', '--density', '100', '--max-memory', '256M', '-o', out, '--write-vert', join(dir, 's.vert')), /surface generation: density 100 \(grid 0\.120 A\) over 382 atoms spanning 21 x 34 x 23 A needs about \d+ MiB of memory \(2\.05e7 grid points of 18 bytes and about 2\.05e6 mesh vertices of 200\), more than the limit of 256 MiB \(given\); use a lower --density \(or atoms closer together\), or raise the limit with --max-memory/);
    // four atoms 300 A apart: the grid between them (1.2e8 points were allowed before, whatever the memory)
    writeFileSync(join(dir, 'apart.pqr'), ['0 0 0', '300 0 0', '0 300 0', '0 0 300'].map((p, i) => `ATOM ${i + 1} N ALA 1 ${p} 1 1.5`).join('\n'));
    refused(cli('run', 'gem', join(dir, 'apart.pqr'), '-o', out, '--max-memory', '1G'), /over 4 atoms spanning 300 x 300 x 300 A needs about 1\.\d+ GiB of memory \(8\.\d+e7 grid points of 18 bytes/);
    // 2 km apart in three dimensions: beyond any limit
    writeFileSync(join(dir, 'apart.pqr'), ['0 0 0', '2000 0 0', '0 2000 0', '0 0 2000'].map((p, i) => `ATOM ${i + 1} N ALA 1 ${p} 1 1.5`).join('\n'));
    refused(cli('run', 'gem', join(dir, 'apart.pqr'), '-o', out), /needs an array of 2\.\d+e10 elements, more than the 4\.29e9/);
    expect(readdirSync(dir)).toEqual(['apart.pqr']);
  });
});

/** The md-nonbonded spec with the example potential's `field` replaced by `expr`. */
/** line:column of the potential's energy or force text in the real spec (where its errors point). */
function fieldAt(field: 'energy' | 'force'): string {
  const lines = readFileSync(join(root, 'specs/md-nonbonded.yaml'), 'utf8').split('\n');
  const k = lines.findIndex((l) => l.trimStart().startsWith(`${field}: "`) && l.includes('exp(-B*r)'));
  expect(k).toBeGreaterThan(0);
  return `${k + 1}:${lines[k]!.indexOf('"') + 1}`;
}

function specWith(field: 'energy' | 'force', expr: string): string {
  const text = readFileSync(join(root, 'specs/md-nonbonded.yaml'), 'utf8');
  const old = field === 'energy' ? 'energy: "A*exp(-B*r) - c6*rinv^6 + qq*rinv"' : 'force: "A*B*exp(-B*r) - 6*c6*rinv^7 + qq*rinv^2"';
  expect(text).toContain(old);
  return text.replace(old, `${field}: "${expr}"`);
}

/** The SpecError of validating `text` as a spec file named `file`. */
function specError(text: string, file = 'my.yaml'): SpecError {
  try {
    potentials(parseSpec(text, file));
  } catch (e) {
    expect(e).toBeInstanceOf(SpecError);
    return e as SpecError;
  }
  throw new Error('no SpecError');
}

describe('expressions: bounded length and nesting, short messages (generator/expr.ts)', () => {
  it('refuses a 100,000-character potential up front (a stack overflow before), quoting 60 characters', () => {
    const e = specError(specWith('energy', Array(50000).fill('r').join('+')));
    expect(e.message).toMatch(new RegExp(`^my\\.yaml:${fieldAt('energy')}: potentials\\.buckingham-rf\\.energy: "r\\+r\\+r.*\\.\\.\\. \\(99999 characters\\)" is 99999 characters long; allowed: at most 2000$`));
    expect(e.message.length).toBeLessThan(250);
  });

  it('refuses deep nesting (parentheses, signs, operations) with the limit, never echoing 20 KB', () => {
    const deep = `${'('.repeat(500)}r${')'.repeat(500)}`;
    expect(() => parseExpr(deep, 'arith', ['r'])).toThrow(`"${'('.repeat(60)}... (1001 characters)" nests parentheses 500 deep; allowed: at most ${MAX_EXPR_NESTING}`);
    expect(() => parseExpr(`${'- '.repeat(300)}r`, 'arith', ['r'])).toThrow(/has 300 signs in a row; allowed: at most 256/);
    expect(() => parseExpr(Array(250).fill('r').join('+'), 'arith', ['r'])).toThrow(`nests 250 operations deep (a chain such as a + b + c counts one level per operator); allowed: at most ${MAX_EXPR_DEPTH}`);
    expect(() => parseExpr('((((r^16)^16)^16)^16)^16', 'arith', ['r'])).toThrow(`expands to about 9.2e6 characters of code (integer powers are written out as products); allowed: at most ${MAX_EMITTED_LENGTH}`);
    // at the limits: accepted
    expect(() => parseExpr(`${'('.repeat(MAX_EXPR_NESTING)}r${')'.repeat(MAX_EXPR_NESTING)}`, 'arith', ['r'])).not.toThrow();
    expect(() => parseExpr(Array(MAX_EXPR_DEPTH).fill('r').join('+'), 'arith', ['r'])).not.toThrow();
    // the worst text under the length limit parses without overflowing the stack
    for (const t of ['('.repeat(MAX_EXPR_LENGTH), '-'.repeat(MAX_EXPR_LENGTH - 1) + 'r', 'not '.repeat(MAX_EXPR_LENGTH / 4 - 1) + 'a']) {
      expect(() => parseExpr(t, t.startsWith('not') ? 'logic' : 'arith', ['r', 'a'])).toThrow(ExprError);
    }
    // an unknown name deep in a long expression: the message stays short
    const e = specError(specWith('energy', `${Array(900).fill('r').join('*1+')}+zz`));
    expect(e.message.length).toBeLessThan(300);
    // rules too (logic grammar): a 45,000-character rule
    const rule = readFileSync(join(root, 'specs/md-nonbonded.yaml'), 'utf8').replace('rules:\n', `rules:\n  - name: huge\n    require: "${Array(2500).fill("target == 'ts'").join(' or ')}"\n`);
    expect(() => parseSpec(rule, 'r.yaml')).toThrow(/^r\.yaml:124:14: rules\.0\.require: "target == 'ts' or .*\(44996 characters\)" is 44996 characters long; allowed: at most 2000$/);
  });

  it('clipExpr keeps short text and one line', () => {
    expect(clipExpr('a + b')).toBe('a + b');
    expect(clipExpr('a\n+\tb')).toBe('a + b');
    expect(clipExpr('x'.repeat(200))).toBe(`${'x'.repeat(60)}... (200 characters)`);
  });

  it('the CLI: exit 2, one line, no output folder', () => {
    const dir = tmp();
    writeFileSync(join(dir, 'my.yaml'), specWith('energy', `${'('.repeat(10000)}r${')'.repeat(10000)}`));
    refused(cli('generate', join(dir, 'my.yaml'), '--out', join(dir, 'out')), new RegExp(`my\\.yaml:${fieldAt('energy')}: potentials\\.buckingham-rf\\.energy: "\\(+\\.\\.\\. \\(20001 characters\\)" is 20001 characters long; allowed: at most 2000$`));
    expect(existsSync(join(dir, 'out'))).toBe(false);
  });
});

describe('potentials: constant parts and sample distances must give numbers (generator/families/md-nonbonded.ts)', () => {
  const cases: [string, 'energy' | 'force', string][] = [
    ['1/0', 'energy', 'its constant part "(1 / 0)" is Infinity'],
    ['0/0', 'energy', 'its constant part "(0 / 0)" is NaN'],
    ['log(0)', 'energy', 'its constant part "log(0)" is -Infinity'],
    ['exp(1000)', 'energy', 'its constant part "exp(1000)" is Infinity'],
    ['c12*rinv^12 + exp(1000)*0', 'energy', 'its constant part "exp(1000)" is Infinity'],
    ['sqrt(-1)*r', 'force', 'its constant part "sqrt(-1)" is NaN'],
    ['A/(B-35)*rinv', 'energy', 'its constant part "(A / (B - 35))" is Infinity'],
    ['erfc(log(0))*r', 'force', 'its constant part "log(0)" is -Infinity'],
  ];
  for (const [expr, field, what] of cases) {
    it(`refuses ${field}: "${expr}" naming the field`, () => {
      expect(specError(specWith(field, expr)).message).toBe(`my.yaml:${fieldAt(field)}: potentials.buckingham-rf.${field}: ${what}; allowed: constant parts that are finite numbers`);
    });
  }

  it('refuses NaN at a sample distance, or infinity at all of them', () => {
    expect(specError(specWith('force', 'log(r-5)')).message).toBe(`my.yaml:${fieldAt('force')}: potentials.buckingham-rf.force: is NaN at r = 0.3 nm (qq 1, c6 0.0026173456, c12 0.000002634129); allowed: an expression with a finite value at every pair distance within the cut-off`);
    expect(specError(specWith('energy', '1/(r-r)')).message).toMatch(/energy: is Infinity at every sample distance \(0\.3, 0\.6, 0\.9 nm\)/);
  });

  it('refuses a parameter that is not a finite number, and accepts the example potential', () => {
    const text = readFileSync(join(root, 'specs/md-nonbonded.yaml'), 'utf8');
    // (the schema already refuses .inf and 1e400 as parameters)
    const paramsLine = text.split('\n').findIndex((l) => l.includes('params: { A: 2.0e5, B: 35.0 }')) + 1;
    expect(paramsLine).toBeGreaterThan(0);
    expect(specError(text.replace('params: { A: 2.0e5, B: 35.0 }', 'params: { A: .inf, B: 35.0 }')).message).toBe(`my.yaml:${paramsLine}:18: potentials.buckingham-rf.params.A: must be number`);
    expect([...potentials(parseSpec(text, 'md-nonbonded.yaml')).keys()]).toEqual(['buckingham-rf']);
    expect(() => potentials(parseSpec(specWith('energy', 'A*exp(-B*r) - c6*rinv^6 + qq*rinv + erfc(r)'), 'x.yaml'))).not.toThrow();
  });
});

describe('banners: a spec file name with control characters is escaped (generator/render.ts)', () => {
  it('commentText escapes newlines, separators and bidirectional controls, and nothing else', () => {
    expect(commentText('md-nonbonded.yaml')).toBe('md-nonbonded.yaml');
    expect(commentText('naïve €.yaml')).toBe('naïve €.yaml');
    expect(commentText('evil\nexport const x = 1; //.yaml')).toBe('evil\\nexport const x = 1; //.yaml');
    expect(commentText('a\r\tb\u2028c\u202Ed\u0000.yaml')).toBe('a\\r\\tb\\u{2028}c\\u{202E}d\\u{0000}.yaml');
  });

  it('every target: the banner stays comment lines', () => {
    const spec = loadAndValidate(join(root, 'specs/md-nonbonded.yaml'));
    const evil = { ...spec, file: 'evil\nexport const pwned = 1;\u2028x.yaml' };
    const targets = new Set<string>();
    for (const v of libraryVariants(spec)) {
      if (targets.has(String(v.target))) continue;
      targets.add(String(v.target));
      const text = renderVariant(evil, v).text;
      const head = text.split('\n').slice(0, 3);
      const c = v.target === 'wasm' ? ';;' : '//';
      expect(head.every((l) => l.startsWith(c)), head.join('\n')).toBe(true);
      expect(head[1]).toContain('spec: evil\\nexport const pwned = 1;\\u{2028}x.yaml (sha256');
      expect(text).not.toContain('\u2028');
    }
    expect([...targets].sort()).toEqual(['gpujs', 'ts', 'wasm', 'wgsl']);
    for (const ext of ['ts', 'wgsl', 'wat', 'js']) {
      const b = banner({ specFile: 'a\nb.yaml', specHash: '0'.repeat(64), templates: loadTemplates('ts', 'md-nonbonded'), generatorVersion: '0', key: 'k\rk', ext });
      expect(b.split('\n')).toHaveLength(3);
    }
  });

  it('the CLI: a spec named with a newline generates, escaped in the banner; its errors stay on one line', () => {
    const dir = tmp();
    const text = readFileSync(join(root, 'specs/md-nonbonded.yaml'), 'utf8').replace(/\nlibrary:[\s\S]*$/, `
library:
  - { target: [ts], interaction: [lj-rf], ljComb: [geom], ljShift: [shift], precision: [f64], output: [fe], cluster: [4x4], excl: [mask], cutoff: [branch] }
`);
    const name = join(dir, 'evil\nname.yaml');
    writeFileSync(name, text);
    const r = cli('generate', name, '--out', join(dir, 'out'));
    expect(r.status, r.stderr).toBe(0);
    const abi = readFileSync(join(dir, 'out/md-nonbonded/ts/abi.ts'), 'utf8').split('\n');
    expect(abi[1]).toMatch(/^\/\/ spec: evil\\nname\.yaml \(sha256 /);
    writeFileSync(name, specWith('energy', '1/0'));
    refused(cli('generate', name, '--out', join(dir, 'out2')), new RegExp(`evil\\\\nname\\.yaml:${fieldAt('energy')}: potentials\\.buckingham-rf\\.energy: its constant part "\\(1 \\/ 0\\)" is Infinity`));
    expect(existsSync(join(dir, 'out2'))).toBe(false);
  }, 120_000);
});
