// `kernforge run gem`: GEM's published potentials for Mb.Hhelix through the command, the output
// format, variant choice per region and salt, verification before use, and clear errors that
// leave no output file behind.
import { describe, it, expect, vi, afterEach } from 'vitest';
import { Command } from 'commander';
import { mkdtempSync, readFileSync, writeFileSync, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { registerGem } from '../cli/commands/gem.ts';
import { runGemWorkload } from '../runtime/gem/workload.ts';
import { chooseGemVariant, preferredGemKey } from '../runtime/gem/defaults.ts';
import { verifyGemModule } from '../runtime/gem/gate.ts';
import { UserError } from '../runtime/errors.ts';
import { readPqr, readVert, gemParams, type GemTsModule } from '../runtime/gem/index.ts';
import { probeGpu } from '../runtime/backends/webgpu.ts';
import { loadTsModule } from '../runtime/variants.ts';
import { webgpuDevice } from '../runtime/tune/devices.ts';
import { updateTuned } from '../runtime/tune/tuned.ts';

const DATA = new URL('../data/gem/', import.meta.url).pathname;
const PQR = join(DATA, 'mb_hhelix.pqr');
const VERT = join(DATA, 'mb_hhelix.vert');
const tmp = () => mkdtempSync(join(tmpdir(), 'kf-gem-'));
const probe = await probeGpu();
const WGSL_KEY = 'gem-potential.wgsl.region1.f32.zero.unroll4.div.block64.workgroup64.atoms4';

/** A commander program wired as cli/main.ts wires it: exitOverride, then `run`, then gem. */
async function cli(...args: string[]): Promise<string> {
  const program = new Command().name('kernforge').exitOverride().configureOutput({ writeErr: () => {} });
  registerGem(program.command('run'));
  const out: string[] = [];
  const spy = vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void out.push(a.join(' ')));
  try {
    await program.parseAsync(args, { from: 'user' });
  } finally {
    spy.mockRestore();
  }
  return out.join('\n');
}

afterEach(() => vi.restoreAllMocks());

describe('kernforge run gem, Mb.Hhelix eps 80/1 salt 0', () => {
  it("writes GEM's format with the published first potentials and prints the summary", async () => {
    const dir = tmp();
    const file = join(dir, 'phi.out');
    const printed = await cli('run', 'gem', PQR, '--vert', VERT, '--eps-out', '80', '--eps-in', '1', '--salt', '0', '-o', file);
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    expect(lines[0]).toBe('X    Y    Z     potential');
    expect(lines.length - 1).toBe(5884);
    expect(lines[1]!.split(/\s+/).slice(0, 3).map(Number)).toEqual([-9.128, 24.915, -1.628]);
    const phi = lines.slice(1, 5).map((l) => Number(l.trim().split(/\s+/)[3]));
    [2.897841, 2.902089, 2.986913, 2.624459].forEach((e, i) => expect(Math.abs(phi[i]! - e)).toBeLessThanOrEqual(2e-6));
    expect(readdirSync(dir)).toEqual(['phi.out']); // no .tmp left
    for (const w of ['atoms      382', 'vertices   5884', 'A          12.2767', 'region     1', 'gem-potential.ts.region1.f32.zero.unroll4.div.block0', 'pairs/s', 'min -', 'max ']) {
      expect(printed).toContain(w);
    }
  });

  it('returns the summary from runGemWorkload', async () => {
    const s = await runGemWorkload({ molecule: PQR, output: join(tmp(), 'x', 'phi.out') });
    expect(s.vert).toBe(VERT); // found beside the .pqr
    expect([s.atoms, s.vertices, s.region, s.variantSource]).toEqual([382, 5884, 1, 'library']);
    expect(s.A).toBeCloseTo(12.2767, 4);
    expect(s.verification.ok).toBe(true);
    expect(s.maxPhi).toBeGreaterThan(s.minPhi);
    expect(s.pairsPerSecond).toBeGreaterThan(0);
    expect(existsSync(s.output!)).toBe(true);
  });

  it('runs on atoms and vertices already read (the library API), writing no file with output null', async () => {
    const dir = tmp();
    const fromFiles = await runGemWorkload({ molecule: PQR, vert: VERT, output: join(dir, 'phi.out') });
    const s = await runGemWorkload({ atoms: readPqr(PQR), vertices: readVert(VERT), name: 'Mb.Hhelix', output: null });
    expect(readdirSync(dir)).toEqual(['phi.out']);
    expect([s.molecule, s.vert, s.surface.source, s.output, s.atoms, s.vertices, s.variant]).toEqual(['Mb.Hhelix', 'given', 'given', null, 382, 5884, fromFiles.variant]);
    expect(Array.from(s.phi)).toEqual(Array.from(fromFiles.phi));
    expect(s.A).toBe(fromFiles.A);
    const errs = [
      [{ atoms: readPqr(PQR), molecule: PQR }, /not both/],
      [{}, /give the molecule/],
      [{ atoms: readPqr(PQR), vertices: readVert(VERT), vert: VERT }, /--vert reads or generates a surface, but the vertices were given/],
      [{ atoms: { ...readPqr(PQR), n: 5 } }, /atoms\.x has 382 values, but atoms\.n is 5/],
      [{ atoms: readPqr(PQR), vertices: { ...readVert(VERT), nx: [1, 2] as unknown as Float64Array } }, /vertices\.nx must be a Float64Array/],
    ] as const;
    for (const [o, re] of errs) {
      const e = (await runGemWorkload({ ...o, output: null }).catch((x: Error) => x)) as Error;
      expect(e).toBeInstanceOf(UserError);
      expect(e.message).toMatch(re);
    }
  });

  it('chooses the region once from A and p, and the salt variant', async () => {
    const s = await runGemWorkload({ molecule: PQR, vert: VERT, projLen: 3, salt: 0.15, output: join(tmp(), 'phi.out') });
    expect(s.region).toBe(3);
    expect(s.variant).toBe('gem-potential.ts.region3.f32.nonzero.unroll4.div.block0');
    const f = await runGemWorkload({ molecule: PQR, vert: VERT, projLen: 1, fixA: 10, output: join(tmp(), 'phi.out') });
    expect([f.region, f.A, f.aEstimated]).toEqual([2, 10, false]);
    for (const r of [1, 2, 3] as const) for (const salt of ['zero', 'nonzero'] as const) expect(chooseGemVariant(r, salt)).toEqual({ key: preferredGemKey(r, salt), source: 'library' });
  });
});

describe('kernforge run gem with a generated surface', () => {
  it('generates an SES when no .vert lies beside the .pqr; writes the .vert and a PNG on request', async () => {
    const dir = tmp();
    const pqr = join(dir, 'mol.pqr');
    writeFileSync(pqr, readFileSync(PQR));
    const printed = await cli('run', 'gem', pqr, '--density', '1', '--probe', '1.5', '-o', join(dir, 'phi.out'), '--write-vert', join(dir, 'gen.vert'), '--picture', join(dir, 'p.png'));
    expect(readdirSync(dir).sort()).toEqual(['gen.vert', 'mol.pqr', 'p.png', 'phi.out']);
    const v = readVert(join(dir, 'gen.vert'));
    const lines = readFileSync(join(dir, 'phi.out'), 'utf8').trimEnd().split('\n');
    expect(lines.length - 1).toBe(v.n);
    expect(printed).toMatch(/surface generated ses/);
    expect(printed).toMatch(/generated SES, probe 1.5 Angstrom, density 1\/A\^2 .*area \d+/);
    // the potentials on the generated surface span GEM's range on MSMS's (-4.12 .. 3.78)
    const phi = lines.slice(1).map((l) => Number(l.trim().split(/\s+/)[3]));
    expect(Math.min(...phi)).toBeLessThan(-3.5);
    expect(Math.max(...phi)).toBeGreaterThan(3.2);
    expect(readFileSync(join(dir, 'p.png')).subarray(1, 4).toString()).toBe('PNG');
  });

  it('--surface sas generates even when a .vert lies beside the .pqr', async () => {
    const s = await runGemWorkload({ molecule: PQR, surface: 'sas', density: 0.5, output: join(tmp(), 'phi.out') });
    expect(s.vert).toBe('generated sas');
    expect(s.surface.kind).toBe('sas');
    expect(s.surface.area!).toBeGreaterThan(2300); // the SAS (~2590 A^2) is larger than the SES (~1870 A^2)
  });

  it('the nucleosome (25086 atoms, no surface file) end to end at a coarse density', async () => {
    const s = await runGemWorkload({ molecule: join(DATA, 'nucleosome.pqr'), density: 0.1, verifyVertices: 20, output: join(tmp(), 'phi.out') });
    expect(s.atoms).toBe(25086);
    expect(s.surface.source).toBe('generated');
    expect(s.vertices).toBeGreaterThan(5000);
    expect(s.verification.ok).toBe(true);
    expect(s.maxPhi).toBeLessThan(0); // net charge -144 e
  });
});

describe.skipIf(!probe.ok)('kernforge run gem --variant <WGSL key> on the WebGPU adapter', () => {
  it("verifies, runs every vertex, writes GEM's format with the published potentials, and names the adapter", async () => {
    const dir = tmp();
    const file = join(dir, 'phi.out');
    const printed = await cli('run', 'gem', PQR, '--vert', VERT, '--variant', WGSL_KEY, '-o', file);
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    expect(lines.length - 1).toBe(5884);
    const phi = lines.slice(1, 5).map((l) => Number(l.trim().split(/\s+/)[3]));
    [2.897841, 2.902089, 2.986913, 2.624459].forEach((e, i) => expect(Math.abs(phi[i]! - e)).toBeLessThanOrEqual(2e-5));
    for (const w of [`${WGSL_KEY} (given); verified on 200 vertices`, 'device     WebGPU ', 'pairs/s']) expect(printed).toContain(w);
    if (/llvmpipe/i.test(printed)) expect(printed).toContain('a CPU rasterizer');
  });

  it("--target wgsl: the adapter's tuned winner carried to the region and salt, else the WGSL default", async () => {
    const dir = tmp();
    const printed = await cli('run', 'gem', PQR, '--vert', VERT, '--target', 'wgsl', '-o', join(dir, 'a.out'));
    expect(printed).toContain(`${preferredGemKey(1, 'zero', 'wgsl')} (library); verified on 200 vertices`);
    const phi = readFileSync(join(dir, 'a.out'), 'utf8').trimEnd().split('\n').slice(1, 5).map((l) => Number(l.trim().split(/\s+/)[3]));
    [2.897841, 2.902089, 2.986913, 2.624459].forEach((e, i) => expect(Math.abs(phi[i]! - e)).toBeLessThanOrEqual(2e-5));
    // a winner tuned on this adapter, for the surface class, is taken (and carried to region 1, zero salt)
    const out = join(dir, 'tuned.json');
    updateTuned(out, await webgpuDevice(), 'gem-potential', 'surface', { key: WGSL_KEY, medianMs: 0.1, defaultKey: null, defaultMs: null, speedup: null, when: new Date().toISOString() });
    const old = process.env.KERNFORGE_TUNED;
    process.env.KERNFORGE_TUNED = out;
    try {
      const s = await runGemWorkload({ molecule: PQR, vert: VERT, target: 'wgsl', output: join(dir, 'b.out') });
      expect(s.variant).toBe(WGSL_KEY);
      expect(s.variantSource).toBe('tuned');
    } finally {
      if (old === undefined) delete process.env.KERNFORGE_TUNED;
      else process.env.KERNFORGE_TUNED = old;
    }
  });

  it('refuses a WGSL variant for another region, before touching the adapter', async () => {
    const out = join(tmp(), 'phi.out');
    const e = (await runGemWorkload({ molecule: PQR, vert: VERT, variant: WGSL_KEY.replace('region1', 'region3').replace('zero', 'nonzero'), output: out }).catch((x: Error) => x)) as Error;
    expect(e).toBeInstanceOf(UserError);
    expect(e.message).toMatch(/region 3, but .* give region 1/);
    expect(existsSync(out)).toBe(false);
  });
});

describe('kernforge run gem --variant <WGSL key> without an adapter', () => {
  afterEach(() => {
    vi.doUnmock('../runtime/gem/wgsl.ts');
    vi.resetModules();
  });
  it('is a user error that says what is missing and how to run on the CPU, writing nothing', async () => {
    vi.resetModules();
    vi.doMock('../runtime/gem/wgsl.ts', async (orig) => ({
      ...(await orig<typeof import('../runtime/gem/wgsl.ts')>()),
      gemAdapter: async () => {
        // the class of the module instance the command imports (modules were reset)
        const { NoAdapterError } = await import('../runtime/backends/webgpu.ts');
        throw new NoAdapterError('no WebGPU adapter: tried default backends, then backend=opengles.');
      },
    }));
    const gem = await import('../runtime/gem/workload.ts');
    const { UserError: ResetUserError } = await import('../runtime/errors.ts'); // the class of the reset module instance
    const out = join(tmp(), 'phi.out');
    const e = (await gem.runGemWorkload({ molecule: PQR, vert: VERT, variant: WGSL_KEY, output: out }).catch((x: Error) => x)) as Error;
    expect(e).toBeInstanceOf(ResetUserError);
    expect(e.message).toMatch(/is a WGSL variant and needs a WebGPU adapter, but none was found: tried default backends.*leave out --variant and --target wgsl, or give a gem-potential\.ts key/);
    expect(existsSync(out)).toBe(false);
  });
});

describe('kernforge run gem refuses', () => {
  const expectUserError = async (p: Promise<unknown>, re: RegExp) => {
    const e = (await p.then(() => undefined, (x: unknown) => x)) as Error;
    expect(e, 'should have failed').toBeInstanceOf(Error);
    expect(e).toBeInstanceOf(UserError); // printed by the CLI without a stack trace
    expect(e.message).toMatch(re);
  };

  it('a malformed PQR line, naming file:line, and writes nothing', async () => {
    const dir = tmp();
    const lines = readFileSync(PQR, 'utf8').split('\n');
    lines.splice(9, 0, 'ATOM     10  CB  ALA     1      11.0   2.0   abc   0.1 1.9');
    const bad = join(dir, 'bad.pqr');
    writeFileSync(bad, lines.join('\n'));
    await expectUserError(runGemWorkload({ molecule: bad, vert: VERT, output: join(dir, 'phi.out') }), new RegExp(`^${bad.replace(/[.]/g, '\\.')}:10: z is not a number`));
    expect(readdirSync(dir)).toEqual(['bad.pqr']);
  });

  it('a .vert whose count disagrees, and writes nothing', async () => {
    const dir = tmp();
    const bad = join(dir, 'bad.vert');
    writeFileSync(bad, readFileSync(VERT, 'utf8').replace('   5884     382', '   5885     382'));
    await expectUserError(runGemWorkload({ molecule: PQR, vert: bad, output: join(dir, 'phi.out') }), /bad\.vert:3: header says 5885 vertices but the file has 5884/);
    expect(readdirSync(dir)).toEqual(['bad.vert']);
  });

  it('bad surface options, and options that need a generated surface, writing nothing', async () => {
    const dir = tmp();
    const pqr = join(dir, 'mol.pqr');
    writeFileSync(pqr, readFileSync(PQR));
    const out = join(dir, 'phi.out');
    await expectUserError(runGemWorkload({ molecule: pqr, probe: -1, output: out }), /--probe must be a number >= 0/);
    await expectUserError(runGemWorkload({ molecule: pqr, density: 0, output: out }), /--density must be a positive number/);
    await expectUserError(runGemWorkload({ molecule: pqr, surface: 'vdw' as 'ses', output: out }), /--surface must be "ses" or "sas"/);
    await expectUserError(runGemWorkload({ molecule: PQR, vert: VERT, probe: 1.5, output: out }), /--probe applies to a generated surface/);
    await expectUserError(runGemWorkload({ molecule: PQR, vert: VERT, surface: 'ses', output: out }), /--vert reads a surface and --surface generates one/);
    await expectUserError(runGemWorkload({ molecule: PQR, writeVert: join(dir, 'x.vert'), output: out }), /--write-vert applies to a generated surface/);
    await expectUserError(runGemWorkload({ molecule: PQR, picture: [join(dir, 'x.jpg')], output: out }), /--picture .*\.png or \.html/);
    await expectUserError(runGemWorkload({ molecule: join(dir, 'none.pqr'), vert: VERT }), /molecule not found/);
    expect(readdirSync(dir)).toEqual(['mol.pqr']);
  });

  it('a variant for another region or outside the family, and bad numbers', async () => {
    const out = join(tmp(), 'phi.out');
    await expectUserError(runGemWorkload({ molecule: PQR, vert: VERT, variant: 'gem-potential.ts.region2.f32.zero.unroll4.div.block0', output: out }), /region 2, but .* give region 1/);
    await expectUserError(runGemWorkload({ molecule: PQR, vert: VERT, variant: 'md-nonbonded.ts.lj.geom.shift.f32.f.4x4.mask.mask', output: out }), /not a gem-potential variant/);
    await expectUserError(runGemWorkload({ molecule: PQR, vert: VERT, salt: -1, output: out }), /--salt must be/);
    await expect(cli('run', 'gem', PQR, '--eps-out', 'abc', '-o', out)).rejects.toThrow(/--eps-out needs a number/);
    expect(existsSync(out)).toBe(false);
  });

  it('a variant that fails verification against the f64 reference', async () => {
    const atoms = readPqr(PQR);
    const verts = readVert(VERT);
    const P = gemParams(atoms);
    const good = await loadTsModule<GemTsModule>(preferredGemKey(1, 'zero'));
    expect(verifyGemModule(good, 'f32', atoms, verts, P, 1).ok).toBe(true);
    const off: GemTsModule = { ...good, kernel: (a) => (good.kernel(a), a.phi.forEach((x, i) => (a.phi[i] = x * (1 + 1e-3)))) };
    const nan: GemTsModule = { ...good, kernel: (a) => (good.kernel(a), (a.phi[7] = NaN)) };
    expect(verifyGemModule(off, 'f32', atoms, verts, P, 1).ok).toBe(false);
    const r = verifyGemModule(nan, 'f32', atoms, verts, P, 1, 20);
    expect([r.ok, r.vertices]).toEqual([false, 20]);
  });
});
