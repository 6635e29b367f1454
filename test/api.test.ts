// open(), the API people import: each family's handle against its f64 reference and GEM's
// published numbers, the choice of variant (given > tuned for this machine > the documented
// default, each said), the targets open() allows, verification once per session, bad arguments
// as ApiInputError, and close().
import { describe, it, expect } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { open, ApiInputError, bundledMolecule, readPqr, readVert, gemReference, bigdftSeparable, reference, waterBox, tolerance, compare, cpuDevice, TunedFileError } from '../runtime/index.ts';
import { updateTuned } from '../runtime/tune/tuned.ts';

const hhelix = bundledMolecule('mb_hhelix');
const atoms = readPqr(hhelix.pqr);
const vertices = readVert(hhelix.vert!);

function tunedFile(family: string, problem: string, key: string, threads = 1): string {
  const path = join(mkdtempSync(join(tmpdir(), 'kf-api-')), 'tuned.json');
  updateTuned(path, cpuDevice(), family, problem, { key, threads, medianMs: 1, defaultKey: null, defaultMs: null, speedup: null, when: new Date().toISOString() });
  return path;
}

describe('kf.gem.potential', () => {
  it("gives GEM's published potentials for Mb.Hhelix (eps 80/1, no salt) with the documented default, and says it is the default", async () => {
    const notes: string[] = [];
    const kf = await open({ log: (l) => notes.push(l) });
    const r = await kf.gem.potential(atoms, vertices);
    expect([r.key, r.target, r.source, r.threads, r.region]).toEqual(['gem-potential.ts.region1.f32.zero.unroll4.div.block0', 'ts', 'default', 1, 1]);
    expect(r.phi).toHaveLength(5884);
    [2.897841, 2.902089, 2.986913, 2.624459].forEach((e, i) => expect(Math.abs(r.phi[i]! - e)).toBeLessThanOrEqual(2e-6));
    expect(notes.some((n) => n.includes('gem-potential.ts.region1.f32.zero.unroll4.div.block0'))).toBe(true);
    await kf.close();
    await expect(kf.gem.potential(atoms, vertices)).rejects.toThrow(/session is closed/);
  });

  it('runs a given variant on its own target (wasm) and a tuned winner for this machine, its tuning axes carried to the region and salt', async () => {
    const kf = await open({ tuned: false, log: () => {} });
    const w = await kf.gem.potential(atoms, vertices, { variant: 'gem-potential.wasm.region1.f32.zero.unroll8.div.block0.vertices.simd128' });
    expect([w.target, w.source]).toEqual(['wasm', 'given']);
    const ref = gemReference(atoms, vertices, w.params);
    let worst = 0;
    for (let i = 0; i < ref.length; i++) worst = Math.max(worst, Math.abs(w.phi[i]! - ref[i]!));
    expect(worst).toBeLessThan(1e-4); // f32 sums over 382 atoms of |terms| up to ~100
    // a wasm winner tuned on region 1 / zero salt, asked for salt 0.15: the nonzero-salt sibling
    const path = tunedFile('gem-potential', 'surface', 'gem-potential.wasm.region1.f32.zero.unroll8.div.block0.vertices.simd128', 2);
    const kt = await open({ tuned: path, log: () => {} });
    const t = await kt.gem.potential(atoms, vertices, { salt: 0.15 });
    expect([t.key, t.source, t.threads]).toEqual(['gem-potential.wasm.region1.f32.nonzero.unroll8.div.block0.vertices.simd128', 'tuned', 2]);
    const refSalt = gemReference(atoms, vertices, t.params);
    let worstSalt = 0;
    for (let i = 0; i < refSalt.length; i++) worstSalt = Math.max(worstSalt, Math.abs(t.phi[i]! - refSalt[i]!));
    expect(worstSalt).toBeLessThan(1e-4);
    // open({ targets }) leaves wasm out: the tuned winner gives way to the TypeScript default, and that is said
    const notes: string[] = [];
    const ts = await open({ tuned: path, targets: ['ts'], log: (l) => notes.push(l) });
    const d = await ts.gem.potential(atoms, vertices);
    expect([d.target, d.source]).toEqual(['ts', 'default']);
    expect(notes[0]).toMatch(/runs on wasm, which open\(\{ targets \}\) leaves out/);
    await expect(ts.gem.potential(atoms, vertices, { variant: 'gem-potential.wasm.region1.f32.zero.unroll8.div.block0.vertices.simd128' })).rejects.toThrow(ApiInputError);
  });

  it('names the bad argument and what is allowed', async () => {
    const kf = await open({ tuned: false, log: () => {} });
    const bad = (v: object, o?: object) => kf.gem.potential(atoms, { ...vertices, ...v }, o as never);
    await expect(bad({ ny: Float64Array.of(1) })).rejects.toThrow('gem.potential: vertices.ny: has 1 values; allowed: exactly 5884');
    const nan = Float64Array.from(vertices.x);
    nan[17] = NaN;
    await expect(bad({ x: nan })).rejects.toThrow('gem.potential: vertices.x[17] = NaN: every value must be a finite number');
    await expect(bad({}, { epsOut: -1 })).rejects.toThrow('gem.potential: options.epsOut: got -1; allowed: a number > 0');
    await expect(bad({}, { variant: 'bigdft-conv.ts.magic' })).rejects.toThrow(/options.variant: got "bigdft-conv.ts.magic"; allowed: a gem-potential variant key/);
    await expect(bad({}, { variant: 'gem-potential.ts.region3.f32.zero.unroll4.div.block0' })).rejects.toThrow(/computes region 3, but A = .* give region 1/);
    await expect(open({ threads: 0 })).rejects.toThrow('open: threads: got 0; allowed: an integer from 1 to 1024');
    // a tuned artefact of another schema, or none at the path given, is a typed error naming the file
    const dir = mkdtempSync(join(tmpdir(), 'kf-api-'));
    writeFileSync(join(dir, 'v2.json'), JSON.stringify({ format: 'kernforge-tuned', version: 2, devices: {}, tuned: {} }));
    await expect(open({ tuned: join(dir, 'v2.json') })).rejects.toThrow(TunedFileError);
    await expect(open({ tuned: join(dir, 'v2.json') })).rejects.toThrow(`${join(dir, 'v2.json')} is a kernforge-tuned file of version 2; this kernforge reads version 1 only`);
    await expect(open({ tuned: join(dir, 'none.json') })).rejects.toThrow(`${join(dir, 'none.json')}: no such file`);
    await expect(open({ targets: [] })).rejects.toThrow(ApiInputError);
  });
});

describe('kf.bigdft', () => {
  const dims = [30, 32, 34] as const;
  const n = dims[0] * dims[1] * dims[2];
  const x = Float64Array.from({ length: n }, (_, i) => Math.sin(0.37 * i) + 0.1 * Math.cos(1.3 * i));

  it('applies each filter as the f64 separable reference does, periodic and free', async () => {
    const kf = await open({ tuned: false, log: () => {} });
    for (const f of ['magic', 'magic-t', 'kinetic'] as const) {
      for (const boundary of ['periodic', 'free'] as const) {
        const r = await kf.bigdft.apply(f, x, dims, { boundary, h: 0.45 });
        const h = -1 / (2 * 0.45 * 0.45);
        const ref = bigdftSeparable(f, x, dims, [h, h, h], boundary);
        let worst = 0;
        for (let i = 0; i < n; i++) worst = Math.max(worst, Math.abs(r.y[i]! - ref[i]!));
        expect(worst, `${f} ${boundary}`).toBeLessThan(1e-11);
        expect(r.key).toContain(`.${f}.${boundary}.f64.`);
      }
    }
    await expect(kf.bigdft.apply('magic', x, [30, 32] as never)).rejects.toThrow('bigdft.apply: dims: got an array of 2; allowed: [n1, n2, n3], three integers');
    await expect(kf.bigdft.apply('magic', x, dims, { precision: 'f16' as never })).rejects.toThrow('bigdft.apply: options.precision: got "f16"; allowed: f64, f32');
  });

  it('applies the local Hamiltonian: energies as <psi|T psi> and <MF psi|V MF psi> from the references', async () => {
    const kf = await open({ tuned: false, log: () => {} });
    const V = Float64Array.from({ length: n }, (_, i) => 0.3 * Math.cos(0.11 * i));
    const r = await kf.bigdft.hamiltonian(x, V, dims);
    const mf = bigdftSeparable('magic', x, dims, [1, 1, 1]);
    const t = bigdftSeparable('kinetic', x, dims, [-0.5, -0.5, -0.5]);
    let norm = 0, ekin = 0, epot = 0;
    for (let i = 0; i < n; i++) {
      norm += x[i]! * x[i]!;
      ekin += x[i]! * t[i]!;
      epot += V[i]! * mf[i]! * mf[i]!;
    }
    expect(r.ekin).toBeCloseTo(ekin / norm, 10);
    expect(r.epot).toBeCloseTo(epot / norm, 10);
    let eh = 0;
    for (let i = 0; i < n; i++) eh += x[i]! * r.hpsi[i]!;
    expect(eh / norm).toBeCloseTo(r.ekin + r.epot, 10);
    expect(r.variants.kin.key).toContain('.kinetic.periodic.f64.');
  });
});

describe('kf.md', () => {
  it('forces, energies and virial of SPC/E water with RF match the f64 reference within the gate', async () => {
    const kf = await open({ tuned: false, log: () => {} });
    const sys = waterBox(216);
    const settings = { interaction: 'lj-rf', comb: 'geom', shift: true, rc: 0.8 } as const;
    const r = await kf.md.forces(sys, settings, { rlist: 0.85 });
    expect([r.key, r.source]).toEqual(['md-nonbonded.ts.lj-rf.geom.shift.f64.fev.4x4.mask.mask', 'default']);
    const ref = reference(sys, settings);
    const d = compare(ref, r, sys, tolerance({ precision: 'f64', interaction: 'lj-rf' }), 'fev');
    expect(d.ok, d.detail).toBe(true);
    expect(Math.abs(r.vdw - ref.vdw)).toBeLessThan(1e-8 * Math.abs(ref.vdw));
    // other semantic axes pick the matching variant, never a silently different one
    const lb = await kf.md.forces(sys, { ...settings, comb: 'lb', shift: false }, { output: 'fe', precision: 'f32' });
    expect(lb.key).toBe('md-nonbonded.ts.lj-rf.lb.plain.f32.fe.4x4.mask.mask');
    await expect(kf.md.forces(sys, { ...settings, rc: 2 })).rejects.toThrow(/options.rlist 2 nm is more than half the smallest box edge/);
    await expect(kf.md.forces(sys, { ...settings, interaction: 'coulomb' as never })).rejects.toThrow('md.forces: settings.interaction: got "coulomb"; allowed: lj, lj-rf, lj-ewald');
  });

  it('runs MD: the MiniMD LJ fluid for 20 steps, conserving energy', async () => {
    const kf = await open({ tuned: false, log: () => {} });
    const r = await kf.md.run({ system: 'lj', cells: 4, steps: 20, thermo: 10 });
    const rows = r.outcome.thermo;
    expect(rows.map((x) => x.step)).toEqual([0, 10, 20]);
    expect(rows[0]!.T).toBeCloseTo(1.44, 2);
    expect(Math.abs(rows[2]!.etot - rows[0]!.etot) / Math.abs(rows[0]!.etot)).toBeLessThan(1e-3);
    await expect(kf.md.run({ system: 'argon' as never })).rejects.toThrow("md.run: options.system: got \"argon\"; allowed: lj, water");
  });
});
