// Every gem-potential WebAssembly SIMD variant of the default library against the f64 reference
// on both bundled molecules (the paper's RMSE bar for f32, 1e-9 of max |phi| for f64) and
// through the workload's gate (verifyGemWasm); vertex and atom counts that are not multiples of
// the vector width; worker threads giving the same bits as one thread; the gate failing on
// deliberately broken builds; the tuner and `run gem` taking wasm keys.
import { describe, it, expect, beforeAll } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { libraryKeys, manifest, GENERATED_ROOT } from '../../runtime/variants.ts';
import { readPqr, readVert, gemParams, gemReference, gemVariantInfo, type GemAtoms, type GemVertices, type GemRegion } from '../../runtime/gem/index.ts';
import { runGemWasm, prepareGemWasm } from '../../runtime/gem/wasm.ts';
import { carryOverGemKey } from '../../runtime/gem/run.ts';
import { Pool } from '../../runtime/parallel/pool.ts';
import { assembleWat } from '../../generator/index.ts';
import { verifyGemWasm } from '../../runtime/gem/gate.ts';
import { runGemWorkload } from '../../runtime/gem/workload.ts';
import { UserError } from '../../runtime/errors.ts';
import { cpuDevice } from '../../runtime/tune/devices.ts';
import { family as gemFamily } from '../../runtime/gem/family.ts';
import { probeWasmRelaxedSimd } from '../../runtime/backends/wasm.ts';
import { insideGate } from './gem-inside.ts';
import { withoutRelaxedSimd } from './no-relaxed.ts';


const DATA = new URL('../../data/gem/', import.meta.url).pathname;
const MOLS = ['mb_hhelix', '1uwo_A'];
const keys = libraryKeys('gem-potential', 'wasm');
/** Projection lengths that put the evaluation points in each region (A + p vs A and A + 2). */
const P_OF: Record<GemRegion, number> = { 1: 0, 2: 1, 3: 3 };
const SALT = 0.15;
const BAR = 8.4e-5;

const rmse = (a: ArrayLike<number>, b: ArrayLike<number>): number => {
  let s = 0;
  for (let i = 0; i < b.length; i++) s += (a[i]! - b[i]!) ** 2;
  return Math.sqrt(s / b.length);
};
const maxAbs = (a: ArrayLike<number>, b: ArrayLike<number>): number => {
  let m = 0;
  for (let i = 0; i < b.length; i++) m = Math.max(m, Math.abs(a[i]! - b[i]!));
  return m;
};
const firstN = (v: GemVertices, n: number): GemVertices => ({ n, x: v.x.slice(0, n), y: v.y.slice(0, n), z: v.z.slice(0, n), nx: v.nx.slice(0, n), ny: v.ny.slice(0, n), nz: v.nz.slice(0, n) });
const firstAtoms = (a: GemAtoms, n: number): GemAtoms => ({ ...a, n, x: a.x.slice(0, n), y: a.y.slice(0, n), z: a.z.slice(0, n), q: a.q.slice(0, n), r: a.r.slice(0, n) });

const mols = new Map<string, { atoms: GemAtoms; verts: GemVertices }>();
const refs = new Map<string, Float64Array>();
const ref = (mol: string, region: GemRegion, salt: number): Float64Array => {
  const k = `${mol}/${region}/${salt}`;
  const m = mols.get(mol)!;
  if (!refs.has(k)) refs.set(k, gemReference(m.atoms, m.verts, gemParams(m.atoms, { p: P_OF[region], salt }), region));
  return refs.get(k)!;
};
beforeAll(() => {
  for (const mol of MOLS) mols.set(mol, { atoms: readPqr(`${DATA}${mol}.pqr`), verts: readVert(`${DATA}${mol}.vert`) });
});

describe('gem-potential WebAssembly SIMD library', () => {
  it('covers every region and salt in f32 with 4 and 8 vertices per iteration, plus nr, mix, atoms-in-lanes, f64x2 and relaxed SIMD variants', () => {
    expect(keys.length).toBe(65);
    for (const k of keys) expect(k).toMatch(/^gem-potential\.wasm\.region[123]\.(f32|f64)\.(zero|nonzero)\.unroll[248]\.(div|nr|mix)\.block0\.(vertices|atoms)\.(simd128|relaxed)(\.sums[12])?$/);
    // the sums axis is mix's alone, and two sums only where a loop takes q/d by the divider (no salt)
    for (const k of keys) expect(/\.sums[12]$/.test(k), k).toBe(k.includes('.mix.'));
    expect(keys.filter((k) => k.endsWith('.sums2')).every((k) => k.includes('.zero.'))).toBe(true);
    expect(keys.filter((k) => k.endsWith('.sums2')).length).toBe(9);
    for (const region of [1, 2, 3]) {
      for (const salt of ['zero', 'nonzero']) {
        for (const u of [4, 8]) expect(keys).toContain(`gem-potential.wasm.region${region}.f32.${salt}.unroll${u}.div.block0.vertices.simd128`);
        // relaxed SIMD (multiply-add) for every region and salt
        expect(keys).toContain(`gem-potential.wasm.region${region}.f32.${salt}.unroll8.div.block0.vertices.relaxed`);
      }
    }
    for (const t of ['nr', 'mix', 'atoms', 'f64', 'relaxed']) expect(keys.some((k) => k.split('.').includes(t)), t).toBe(true);
    // The binary is committed next to its text, and the manifest names the binary.
    for (const k of keys) {
      const file = manifest().get(k)!.file;
      expect(file).toMatch(/\.wasm$/);
      expect(existsSync(join(GENERATED_ROOT, file.replace(/\.wasm$/, '.wat')))).toBe(true);
    }
  });

  for (const key of keys) {
    it(`${key} matches the f64 reference on Mb.Hhelix and 1uwo_A and passes the workload's gate`, async () => {
      const info = await gemVariantInfo(key);
      const salt = info.salt === 'zero' ? 0 : SALT;
      for (const [mol, m] of mols) {
        const params = gemParams(m.atoms, { p: P_OF[info.region], salt });
        const { phi } = await runGemWasm(key, m.atoms, m.verts, { params });
        const r = ref(mol, info.region, salt);
        expect(phi.length).toBe(m.verts.n);
        expect(Array.from(phi).every(Number.isFinite), mol).toBe(true);
        if (info.precision === 'f32') expect(rmse(phi, r), mol).toBeLessThanOrEqual(BAR);
        else expect(maxAbs(phi, r), mol).toBeLessThanOrEqual(1e-9 * Math.max(...Array.from(r, Math.abs)));
        const gate = await verifyGemWasm(key, m.atoms, m.verts, params, info.region, 200);
        expect(gate.ok, `${mol}: ${gate.detail}`).toBe(true);
        expect(gate.vertices).toBe(200);
      }
    }, 60_000);
  }

  // p = 0 puts region 1's points on the sphere r = A (h = 0: the one-root loop); p = -3 inside it
  // (h > 0: the loop with both roots).
  it('region 1 inside the sphere (p = -3): every variant matches the f64 reference on Mb.Hhelix', async () => {
    const m = mols.get('mb_hhelix')!;
    const r1 = keys.filter((k) => k.includes('.region1.'));
    expect(r1.length).toBeGreaterThan(10);
    for (const key of r1) {
      const info = await gemVariantInfo(key);
      const params = gemParams(m.atoms, { p: -3, salt: info.salt === 'zero' ? 0 : SALT });
      const { phi } = await runGemWasm(key, m.atoms, m.verts, { params });
      const gate = insideGate(phi, m.atoms, m.verts, params, info.precision);
      expect(gate.ok, `${key}: ${gate.detail}`).toBe(true);
    }
  }, 120_000);

  // f64 with rsqrt nr: 1/sqrt(d^2) from the f32 divider, one f64 Newton step (two units per f32x4
  // where the loop has one root per pair): within 1e-13 of the exact division's result per term.
  it('f64 with the f32 estimate and one Newton step agrees with the f64 division to 1e-12 of max |phi|, in every region and at p = -3', async () => {
    const nr = keys.filter((k) => k.includes('.f64.') && k.includes('.nr.'));
    expect(nr.length).toBe(8);
    for (const key of nr) {
      const info = await gemVariantInfo(key);
      const div = `gem-potential.wasm.region${info.region}.f64.zero.unroll4.div.block0.vertices.simd128`;
      for (const [mol, m] of mols) {
        for (const p of info.region === 1 ? [0, -3] : [P_OF[info.region]]) {
          const params = gemParams(m.atoms, { p });
          const a = (await runGemWasm(key, m.atoms, m.verts, { params })).phi;
          const b = (await runGemWasm(div, m.atoms, m.verts, { params })).phi;
          const scale = Math.max(...Array.from(b, Math.abs));
          const d = maxAbs(a, b);
          expect(d, `${key} ${mol} p ${p}`).toBeLessThanOrEqual(1e-12 * scale);
          // the Newton path runs (a division would give these bits or round-off of them alone)
          expect(d, `${key} ${mol} p ${p}`).toBeGreaterThan(1e-17 * scale);
        }
      }
    }
  }, 60_000);

  it("reproduces GEM's first four Mb.Hhelix potentials", async () => {
    const expected = [2.897841, 2.902089, 2.986913, 2.624459];
    const m = mols.get('mb_hhelix')!;
    for (const key of ['gem-potential.wasm.region1.f32.zero.unroll8.div.block0.vertices.simd128', 'gem-potential.wasm.region1.f32.zero.unroll4.div.block0.atoms.simd128', 'gem-potential.wasm.region1.f64.zero.unroll4.div.block0.vertices.simd128', 'gem-potential.wasm.region1.f64.zero.unroll8.nr.block0.vertices.simd128']) {
      const { phi } = await runGemWasm(key, m.atoms, m.verts, { epsIn: 1, epsOut: 80 });
      expected.forEach((e, i) => expect(Math.abs(phi[i]! - e), key).toBeLessThan(2e-5));
    }
  });
});

describe('gem-potential wasm: padding, threads, on demand', () => {
  const SHAPES = [
    'gem-potential.wasm.region1.f32.zero.unroll4.div.block0.vertices.simd128',
    'gem-potential.wasm.region1.f32.zero.unroll8.nr.block0.vertices.simd128',
    'gem-potential.wasm.region1.f32.zero.unroll2.div.block0.atoms.simd128',
    'gem-potential.wasm.region3.f64.nonzero.unroll4.div.block0.vertices.simd128',
    'gem-potential.wasm.region3.f32.zero.unroll8.mix.block0.vertices.simd128.sums1',
    'gem-potential.wasm.region2.f32.zero.unroll8.mix.block0.vertices.relaxed.sums2',
  ];

  it.each(SHAPES)('%s: vertex counts 1, 3, 5, 7, 9, 13, 17 give the same bits as the whole surface', async (key) => {
    const m = mols.get('mb_hhelix')!;
    const info = await gemVariantInfo(key);
    const params = gemParams(m.atoms, { p: P_OF[info.region], salt: info.salt === 'zero' ? 0 : SALT });
    const all = (await runGemWasm(key, m.atoms, m.verts, { params })).phi;
    for (const n of [1, 3, 5, 7, 9, 13, 17]) {
      const { phi } = await runGemWasm(key, m.atoms, firstN(m.verts, n), { params });
      expect(Array.from(phi), `n = ${n}`).toEqual(Array.from(all.subarray(0, n)));
    }
    const none = await runGemWasm(key, m.atoms, firstN(m.verts, 0), { params });
    expect(none.phi.length).toBe(0);
  });

  it.each(SHAPES)('%s: atom counts 1, 2, 3, 5 and 7 (zero-charge padding) match the reference', async (key) => {
    const m = mols.get('1uwo_A')!;
    const info = await gemVariantInfo(key);
    const verts = firstN(m.verts, 11);
    for (const na of [1, 2, 3, 5, 7]) {
      const atoms = firstAtoms(m.atoms, na);
      // A fixed A keeps the region what the key says for these few atoms.
      const params = gemParams(m.atoms, { p: P_OF[info.region], salt: info.salt === 'zero' ? 0 : SALT });
      const { phi } = await runGemWasm(key, atoms, verts, { params });
      const r = gemReference(atoms, verts, params, info.region);
      const scale = Math.max(...Array.from(r, Math.abs));
      expect(maxAbs(phi, r), `na = ${na}`).toBeLessThanOrEqual((info.precision === 'f32' ? 2e-5 : 1e-12) * Math.max(1, scale));
    }
  });

  it('2 and 3 worker threads give the same bits as one thread (vertex count not a multiple of the unroll)', async () => {
    const m = mols.get('1uwo_A')!;
    const verts = firstN(m.verts, 4001);
    for (const key of ['gem-potential.wasm.region1.f32.zero.unroll8.div.block0.vertices.simd128', 'gem-potential.wasm.region1.f32.zero.unroll4.div.block0.atoms.simd128', 'gem-potential.wasm.region2.f64.nonzero.unroll4.div.block0.vertices.simd128']) {
      const info = await gemVariantInfo(key);
      const params = gemParams(m.atoms, { p: P_OF[info.region], salt: info.salt === 'zero' ? 0 : SALT });
      const one = (await runGemWasm(key, m.atoms, verts, { params })).phi;
      for (const threads of [2, 3]) {
        const prep = await prepareGemWasm(key, m.atoms, verts, { params, threads });
        try {
          expect(prep.threads).toBe(threads);
          const a = await prep.run();
          const b = await prep.run(); // a second run on the same prepared problem
          expect(Array.from(a), `${key}, ${threads} threads`).toEqual(Array.from(one));
          expect(Array.from(b)).toEqual(Array.from(one));
        } finally {
          await prep.destroy();
        }
      }
    }
  }, 60_000);

  it('runs on a pool given by the caller and leaves it open', async () => {
    const m = mols.get('mb_hhelix')!;
    const key = 'gem-potential.wasm.region1.f32.zero.unroll4.div.block0.vertices.simd128';
    const one = (await runGemWasm(key, m.atoms, m.verts)).phi;
    const pool = await Pool.create(2);
    try {
      expect(Array.from((await runGemWasm(key, m.atoms, m.verts, { pool })).phi)).toEqual(Array.from(one));
      expect(Array.from((await runGemWasm(key, m.atoms, m.verts, { pool })).phi)).toEqual(Array.from(one));
    } finally {
      await pool.close();
    }
  });

  it('renders and assembles points of the space outside the library on demand', async () => {
    const m = mols.get('mb_hhelix')!;
    for (const key of ['gem-potential.wasm.region2.f32.nonzero.unroll4.nr.block0.atoms.simd128', 'gem-potential.wasm.region3.f64.zero.unroll2.div.block0.vertices.simd128']) {
      expect(manifest().has(key)).toBe(false);
      const info = await gemVariantInfo(key);
      const salt = info.salt === 'zero' ? 0 : SALT;
      const { phi } = await runGemWasm(key, m.atoms, m.verts, { p: P_OF[info.region], salt });
      expect(rmse(phi, ref('mb_hhelix', info.region, salt)), key).toBeLessThanOrEqual(info.precision === 'f32' ? BAR : 1e-12);
    }
  });

  it('refuses other targets, wrong regions and salt on zero-salt variants', async () => {
    const m = mols.get('mb_hhelix')!;
    await expect(runGemWasm('gem-potential.ts.region1.f32.zero.unroll4.div.block0', m.atoms, m.verts)).rejects.toThrow(/not WebAssembly/);
    await expect(runGemWasm('gem-potential.wasm.region2.f32.zero.unroll4.div.block0.vertices.simd128', m.atoms, m.verts, { p: 0 })).rejects.toThrow(/region 2, but/);
    await expect(runGemWasm('gem-potential.wasm.region1.f32.zero.unroll4.div.block0.vertices.simd128', m.atoms, m.verts, { salt: 0.1 })).rejects.toThrow(/nonzero-salt/);
  });
});

/** The committed text of a library wasm variant (the build its tests break on purpose). */
const committedWat = (key: string): string => readFileSync(join(GENERATED_ROOT, manifest().get(key)!.file.replace(/\.wasm$/, '.wat')), 'utf8');

describe('gem-potential wasm verification gate', () => {
  const key = 'gem-potential.wasm.region1.f32.zero.unroll8.div.block0.vertices.simd128';
  const wat = (): string => committedWat(key);

  it('passes the committed build and fails deliberately broken ones (a wrong sign, NaN)', async () => {
    const m = mols.get('mb_hhelix')!;
    // p = -3: inside the sphere (h > 0), the loop with both roots
    const params = gemParams(m.atoms, { p: -3 });
    const good = await verifyGemWasm(key, m.atoms, m.verts, params, 1, 200, await assembleWat('good.wat', wat()));
    expect(good.ok, good.detail).toBe(true);
    // 1/d + g/sqrt(d^2 + h) instead of 1/d - g/...
    const sign = wat().replace('(f32x4.div (f32x4.sub (local.get $rh)', '(f32x4.div (f32x4.add (local.get $rh)');
    expect(sign).not.toBe(wat());
    const bad = await verifyGemWasm(key, m.atoms, m.verts, params, 1, 200, await assembleWat('sign.wat', sign));
    expect(bad.ok).toBe(false);
    expect(bad.worst).toBeGreaterThan(1);
    // sqrt of -d^2: NaN everywhere
    const nan = wat().replace('(local.set $rd (f32x4.sqrt (local.get $d2)))', '(local.set $rd (f32x4.sqrt (f32x4.neg (local.get $d2))))');
    expect(nan).not.toBe(wat());
    const worse = await verifyGemWasm(key, m.atoms, m.verts, params, 1, 200, await assembleWat('nan.wat', nan));
    expect(worse.ok).toBe(false);
    expect(worse.worst).toBe(Infinity);
  });

  it('at p = 0 (h = 0) runs the one-root loop: breaking it fails the gate, breaking the two-root loop does not', async () => {
    const m = mols.get('mb_hhelix')!;
    const params = gemParams(m.atoms, { p: 0 });
    const good = await verifyGemWasm(key, m.atoms, m.verts, params, 1, 200, await assembleWat('good.wat', wat()));
    expect(good.ok, good.detail).toBe(true);
    // the one-root loop's term q/d = sqrt(d^2) (q/d^2) negated
    const folded = wat().replaceAll('(f32x4.div (local.get $qj) (local.get $d2))', '(f32x4.neg (f32x4.div (local.get $qj) (local.get $d2)))');
    expect(folded).not.toBe(wat());
    const bad = await verifyGemWasm(key, m.atoms, m.verts, params, 1, 200, await assembleWat('folded.wat', folded));
    expect(bad.ok).toBe(false);
    expect(bad.worst).toBeGreaterThan(1);
    // the two-root loop broken (as above): not run at p = 0
    const sign = wat().replace('(f32x4.div (f32x4.sub (local.get $rh)', '(f32x4.div (f32x4.add (local.get $rh)');
    expect(sign).not.toBe(wat());
    const unused = await verifyGemWasm(key, m.atoms, m.verts, params, 1, 200, await assembleWat('sign.wat', sign));
    expect(unused.ok, unused.detail).toBe(true);
  });
});

describe('gem-potential wasm rsqrt mix in the one-root loop', () => {
  const key = 'gem-potential.wasm.region1.f32.zero.unroll8.mix.block0.vertices.relaxed.sums1';
  const wat = (): string => committedWat(key);

  it('takes one vector through the divider and the other through Newton steps, and each half is checked by the gate', async () => {
    const text = wat();
    // region 1's one-root loop is the function $zero (the kernel calls it at p = 0), the general loop $general
    const oneRoot = text.slice(text.indexOf('(func $zero'), text.indexOf('(func $general'));
    expect(oneRoot.length).toBeGreaterThan(0);
    expect(text).toMatch(/\(then \(call \$zero\n/);
    // the divider's vector: q/d as sqrt(d^2) (q/d^2); once per step: the first atom's before the
    // loop, the loop's two, the odd last one after it (atoms.hbs)
    const div = '(f32x4.relaxed_madd (f32x4.sqrt (local.get $d2)) (f32x4.div (local.get $qj) (local.get $d2))';
    expect(oneRoot.split(div).length - 1).toBe(4);
    expect(oneRoot.split('(i32x4.sub (local.get $nrMagic)').length - 1).toBe(4);
    const m = mols.get('mb_hhelix')!;
    const params = gemParams(m.atoms, { p: 0 });
    expect((await verifyGemWasm(key, m.atoms, m.verts, params, 1, 200)).ok).toBe(true);
    // the divider's vector (unit 1): sqrt of -d^2; the Newton vector (unit 0): a wrong magic constant
    for (const broken of [text.replaceAll(div, div.replace('(f32x4.sqrt (local.get $d2))', '(f32x4.sqrt (f32x4.neg (local.get $d2)))')), text.replace(/0x5f1ffff9/g, '0x5e1ffff9')]) {
      expect(broken).not.toBe(text);
      const bad = await verifyGemWasm(key, m.atoms, m.verts, params, 1, 200, await assembleWat('broken.wat', broken));
      expect(bad.ok).toBe(false);
    }
  });
});

describe('gem-potential wasm mix: the divider units\' two sums (axis sums)', () => {
  // sums 2 (partials/split.hbs): in a loop with q/d per pair, the divider unit's second step of each
  // iteration sums into $s<u>b, added to $s<u> after the loop; the Newton units keep one sum. V8 13
  // and 14 kept the single sum in a stack slot, stored and reloaded twice per iteration (Node 24:
  // 1.1x slower than Node 20 on the same binary); which form is faster is the engine's, so both are
  // in the library and the tuner picks.
  const one = 'gem-potential.wasm.region1.f32.zero.unroll8.mix.block0.vertices.relaxed.sums1';
  const two = 'gem-potential.wasm.region1.f32.zero.unroll8.mix.block0.vertices.relaxed.sums2';
  const fold = '(local.set $s1 (f32x4.add (local.get $s1) (local.get $s1b)))';
  it('sums the divider unit\'s second step apart in the one-root loop only, and adds it once after the loop', () => {
    const text = committedWat(two);
    const oneRoot = text.slice(text.indexOf('(func $zero'), text.indexOf('(func $general'));
    const general = text.slice(text.indexOf('(func $general'));
    const loop = oneRoot.slice(oneRoot.indexOf('(loop $atoms'), oneRoot.indexOf('(br $atoms)'));
    // in the loop: one step into $s1, the other into $s1b; the Newton unit ($s0) has no second sum
    expect(loop.split('(local.set $s1b (f32x4.relaxed_madd').length - 1).toBe(1);
    expect(loop.split('(local.set $s1 (f32x4.relaxed_madd').length - 1).toBe(1);
    expect(text).not.toContain('$s0b');
    expect(oneRoot.split(fold).length - 1).toBe(1);
    expect(oneRoot.indexOf(fold)).toBeGreaterThan(oneRoot.indexOf('(br $atoms)'));
    expect(general).not.toMatch(/local\.[gs]et \$s1b/);
    // sums 1 is the kernel before the axis: no second sum anywhere
    expect(committedWat(one)).not.toContain('$s1b');
  });
  it('a tuned sums2 winner carries over to other regions as sums2, and to salt as its sums1 sibling (salt has no divider-only loop)', async () => {
    expect(await carryOverGemKey(two, 3, 'zero')).toBe('gem-potential.wasm.region3.f32.zero.unroll8.mix.block0.vertices.relaxed.sums2');
    expect(await carryOverGemKey(two, 3, 'nonzero')).toBe('gem-potential.wasm.region3.f32.nonzero.unroll8.mix.block0.vertices.relaxed.sums1');
    expect(await carryOverGemKey(two, 1, 'nonzero')).toBe('gem-potential.wasm.region1.f32.nonzero.unroll8.mix.block0.vertices.relaxed.sums1');
    expect(await carryOverGemKey(one, 2, 'nonzero')).toBe('gem-potential.wasm.region2.f32.nonzero.unroll8.mix.block0.vertices.relaxed.sums1');
    // keys without the axis carry over as before
    expect(await carryOverGemKey('gem-potential.wasm.region1.f32.zero.unroll8.div.block0.vertices.simd128', 2, 'nonzero')).toBe('gem-potential.wasm.region2.f32.nonzero.unroll8.div.block0.vertices.simd128');
  });
  it('gives the same potentials to f32 round-off, as close to the f64 reference, and the gate sees a missing fold', async () => {
    const m = mols.get('1uwo_A')!;
    const params = gemParams(m.atoms, { p: 0 });
    const a = (await runGemWasm(one, m.atoms, m.verts, { params })).phi;
    const b = (await runGemWasm(two, m.atoms, m.verts, { params })).phi;
    const r = ref('1uwo_A', 1, 0);
    let d = 0;
    let ea = 0;
    let eb = 0;
    let scale = 0;
    for (let i = 0; i < r.length; i++) {
      d = Math.max(d, Math.abs(a[i]! - b[i]!));
      ea = Math.max(ea, Math.abs(a[i]! - r[i]!));
      eb = Math.max(eb, Math.abs(b[i]! - r[i]!));
      scale = Math.max(scale, Math.abs(r[i]!));
    }
    // another summation order: not the same bits, within a few f32 ulps of the largest |phi|
    expect(d).toBeGreaterThan(0);
    expect(d / scale).toBeLessThan(2e-6);
    expect(eb / scale).toBeLessThan(6e-6);
    expect(eb).toBeLessThan(1.5 * ea);
    // without the fold after the loop, half the divider unit's atoms are lost
    const broken = committedWat(two).replace(fold, '');
    const bad = await verifyGemWasm(two, m.atoms, m.verts, params, 1, 200, await assembleWat('no-fold.wat', broken));
    expect(bad.ok).toBe(false);
  });
});

describe('gem-potential wasm: the first atom step before the loop', () => {
  // templates/wasm/gem-potential/partials/atoms.hbs runs the first atom (vector) step before the
  // loop so that V8 computes the vertex positions and the loop's constants once, outside it; the
  // same additions in the same order as the loop alone, so the same bits (and the loop's two steps
  // per iteration and its odd last step give them for 1, 2, 3 and 5 atoms too: see the padding tests).
  // from each loop's jb = 0 to its block: the comments and the first step
  const peel = /(\(local\.set \$jb \(i32\.const 0\)\)\n)[\s\S]*?(?=\n *\(block \$adone)/g;
  const tests = (t: string): number => t.split('(i32.lt_u (local.get $jb) (local.get $jEnd))').length - 1;
  it.each([
    ['gem-potential.wasm.region3.f32.zero.unroll8.mix.block0.vertices.simd128.sums1', 3],
    ['gem-potential.wasm.region1.f32.zero.unroll8.mix.block0.vertices.simd128.sums1', 1],
    ['gem-potential.wasm.region2.f32.nonzero.unroll8.div.block0.vertices.simd128', 2],
    ['gem-potential.wasm.region1.f32.zero.unroll4.div.block0.atoms.simd128', 1],
  ] as const)('%s: the same bits as the loop alone', async (key, region) => {
    const text = committedWat(key);
    const loopOnly = text.replace(peel, '$1');
    // one first step per atom loop (region 1 has two loops: h = 0 and h > 0); the odd last step
    // after each loop stays
    const loops = region === 1 ? 2 : 1;
    expect(text.match(peel)?.length).toBe(loops);
    expect(tests(text)).toBe(2 * loops);
    expect(tests(loopOnly)).toBe(loops);
    const m = mols.get('mb_hhelix')!;
    const params = gemParams(m.atoms, { p: P_OF[region], salt: key.includes('.nonzero.') ? SALT : 0 });
    const a = await runGemWasm(key, m.atoms, m.verts, { params });
    const b = await runGemWasm(key, m.atoms, m.verts, { params, bytes: await assembleWat('loop-only.wat', loopOnly) });
    expect(Array.from(a.phi)).toEqual(Array.from(b.phi));
  });
});

describe('gem-potential wasm: the Newton units with the tuned step\'s factor out of the loop', () => {
  // rsqrt.hbs `twice`: in the loops with q/d per pair, a Newton unit takes u = y (b - x y^2) (the
  // tuned step y a (b - x y^2) without its a), then adds (q u) (3/a^2 - x u^2), which is q times
  // the plain step y (3/2 - x/2 y^2) on y = a u times 2/a^3; its sum is scaled by a^3/2 after the
  // loop (qd.hbs, halve.hbs): two multiplies less per vector, the same numbers up to f32 rounding.
  const plainStep = (text: string): string =>
    text
      .replaceAll('(local.set $y (f32x4.mul (local.get $y) (f32x4.relaxed_nmadd', '(local.set $y (f32x4.mul (f32x4.mul (local.get $y) (local.get $nrA)) (f32x4.relaxed_nmadd')
      .replaceAll('(local.set $y (f32x4.mul (local.get $y) (f32x4.sub (local.get $nrB)', '(local.set $y (f32x4.mul (f32x4.mul (local.get $y) (local.get $nrA)) (f32x4.sub (local.get $nrB)')
      .replaceAll('(local.set $rd (f32x4.relaxed_nmadd (local.get $d2) (f32x4.mul (local.get $y) (local.get $y)) (local.get $threeFold)))', '(local.set $rd (f32x4.mul (local.get $y) (f32x4.relaxed_nmadd (f32x4.mul (local.get $half) (local.get $d2)) (f32x4.mul (local.get $y) (local.get $y)) (local.get $threeHalves))))')
      .replaceAll('(local.set $rd (f32x4.sub (local.get $threeFold) (f32x4.mul (local.get $d2) (f32x4.mul (local.get $y) (local.get $y)))))', '(local.set $rd (f32x4.mul (local.get $y) (f32x4.sub (local.get $threeHalves) (f32x4.mul (f32x4.mul (local.get $half) (local.get $d2)) (f32x4.mul (local.get $y) (local.get $y))))))')
      .replaceAll('(f32x4.mul (local.get $qj) (local.get $y)) (local.get $rd)', '(local.get $qj) (local.get $rd)')
      .replace(/\n *\(local\.set \$s(\d+) \(f32x4\.mul \(local\.get \$halfFold\) \(local\.get \$s\1\)\)\)/g, '');
  /** The largest |a - b| over the largest |b|. */
  const relDiff = (a: ArrayLike<number>, b: ArrayLike<number>): number => {
    let d = 0;
    let m = 0;
    for (let i = 0; i < a.length; i++) {
      d = Math.max(d, Math.abs(a[i]! - b[i]!));
      m = Math.max(m, Math.abs(b[i]!));
    }
    return d / m;
  };
  it.each([
    ['gem-potential.wasm.region1.f32.zero.unroll8.mix.block0.vertices.relaxed.sums1', 1, 1],
    ['gem-potential.wasm.region1.f32.zero.unroll8.nr.block0.vertices.simd128', 1, 2],
    ['gem-potential.wasm.region1.f32.zero.unroll4.mix.block0.atoms.relaxed.sums1', 1, 2],
    ['gem-potential.wasm.region3.f32.zero.unroll8.mix.block0.vertices.simd128.sums1', 3, 1],
  ] as const)('%s: the plain step\'s numbers to f32 rounding', async (key, region, scaled) => {
    const text = committedWat(key);
    const plain = plainStep(text);
    expect(plain).not.toMatch(/\$threeFold\)|\$halfFold\)/);
    expect(text.match(/\(local\.set \$s\d+ \(f32x4\.mul \(local\.get \$halfFold\)/g)?.length).toBe(scaled);
    // the first (tuned) step without its factor, in every loop that sums q/d (and only there)
    expect(text.match(/\(local\.set \$y \(f32x4\.mul \(local\.get \$y\)/g)?.length).toBe(plain.match(/\(local\.set \$y \(f32x4\.mul \(f32x4\.mul \(local\.get \$y\) \(local\.get \$nrA\)\)/g)!.length - (text.match(/\(local\.set \$y \(f32x4\.mul \(f32x4\.mul \(local\.get \$y\) \(local\.get \$nrA\)\)/g)?.length ?? 0));
    const m = mols.get('1uwo_A')!;
    const params = gemParams(m.atoms, { p: P_OF[region] });
    const a = await runGemWasm(key, m.atoms, m.verts, { params });
    const b = await runGemWasm(key, m.atoms, m.verts, { params, bytes: await assembleWat('plain-step.wat', plain) });
    // other roundings, as accurate: within 6e-6 of the f64 reference (relative to the largest
    // |phi|; 1.5e-6 to 5e-6 for both forms), the folded form's error at most 1.25 times the plain
    // step's (0.84 to 1.15 times)
    const r = ref('1uwo_A', region, 0);
    expect(Array.from(a.phi)).not.toEqual(Array.from(b.phi));
    expect(relDiff(a.phi, r)).toBeLessThan(6e-6);
    expect(relDiff(a.phi, r)).toBeLessThan(1.25 * relDiff(b.phi, r));
    // and the scaling matters: without it the Newton units' vertices are off by 2/a^3 (5.7x)
    const unscaled = text.replace(/\n *\(local\.set \$s(\d+) \(f32x4\.mul \(local\.get \$halfFold\) \(local\.get \$s\1\)\)\)/g, '');
    const c = await runGemWasm(key, m.atoms, m.verts, { params, bytes: await assembleWat('unscaled.wat', unscaled) });
    expect(relDiff(c.phi, r)).toBeGreaterThan(1);
  });
});

describe('gem-potential wasm in the tuner and in run gem', () => {
  it('offers no relaxed variant (mix ones with their sums field after simd included) where the engine does not compile relaxed SIMD', async () => {
    const dev = cpuDevice({ wasmSimd: { ok: true } });
    const withRelaxed = (await gemFamily.candidates(dev, 'surface-small')).filter((k) => k.startsWith('gem-potential.wasm.'));
    expect(withRelaxed).toContain('gem-potential.wasm.region1.f32.zero.unroll8.mix.block0.vertices.relaxed.sums2');
    await withoutRelaxedSimd(async () => {
      expect(probeWasmRelaxedSimd().ok).toBe(false);
      const keys = (await gemFamily.candidates(dev, 'surface-small')).filter((k) => k.startsWith('gem-potential.wasm.'));
      expect(keys).toEqual(withRelaxed.filter((k) => !k.split('.').includes('relaxed')));
      expect(keys).toContain('gem-potential.wasm.region1.f32.zero.unroll8.mix.block0.vertices.simd128.sums2');
    });
  });

  it('the tuner offers TS and wasm candidates on a CPU with SIMD, only TS without, and verifies and times wasm keys', async () => {
    const withSimd = await gemFamily.candidates(cpuDevice({ wasmSimd: { ok: true } }), 'surface-small');
    const without = await gemFamily.candidates(cpuDevice({ wasmSimd: { ok: false, why: 'test' } }), 'surface-small');
    expect(without.every((k) => k.startsWith('gem-potential.ts.'))).toBe(true);
    const wasm = withSimd.filter((k) => k.startsWith('gem-potential.wasm.'));
    // 12 SIMD128 keys of region 1, zero salt, f32, and 11 relaxed SIMD ones where the engine compiles them
    const relaxed = probeWasmRelaxedSimd().ok;
    expect(wasm.length).toBe(relaxed ? 23 : 12);
    expect(wasm.filter((k) => k.split('.').includes('relaxed')).length).toBe(relaxed ? 11 : 0);
    expect(wasm.filter((k) => k.endsWith('.sums2')).length).toBe(relaxed ? 5 : 2);
    expect(withSimd.length).toBe(without.length + wasm.length);
    for (const k of wasm) expect(k).toMatch(/^gem-potential\.wasm\.region1\.f32\.zero\./);
    const dev = cpuDevice({ wasmSimd: { ok: true } });
    const v = await gemFamily.verify(wasm[0]!, dev, 'surface-small');
    expect(v.ok, v.detail).toBe(true);
    const prep = await gemFamily.prepare(dev, 'surface-small');
    try {
      for (const k of [wasm[0]!, 'gem-potential.ts.region1.f32.zero.unroll4.div.block0', wasm[1]!]) {
        const ms = await prep.run(k);
        expect(ms).toBeGreaterThan(0);
        expect(Number.isFinite(ms)).toBe(true);
      }
    } finally {
      await prep.dispose();
    }
  }, 60_000);

  it('run gem --target wasm (and --variant with a wasm key, on 2 threads) writes the same potentials as the TS default to f32 accuracy', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kernforge-gem-wasm-'));
    try {
      const molecule = `${DATA}mb_hhelix.pqr`;
      const ts = await runGemWorkload({ molecule, output: join(dir, 'ts.out'), variant: 'gem-potential.ts.region1.f32.zero.unroll4.div.block0' });
      const w = await runGemWorkload({ molecule, output: join(dir, 'w.out'), target: 'wasm' });
      expect(w.variant).toMatch(/^gem-potential\.wasm\.region1\.f32\.zero\./);
      expect(w.device).toMatch(/WebAssembly SIMD/);
      expect(w.verification.ok).toBe(true);
      const w2 = await runGemWorkload({ molecule, output: join(dir, 'w2.out'), variant: 'gem-potential.wasm.region1.f32.zero.unroll4.div.block0.atoms.simd128', threads: 2 });
      expect(w2.device).toMatch(/2 worker threads/);
      const col = (f: string) => readFileSync(join(dir, f), 'utf8').trim().split('\n').slice(1).map((l) => Number(l.split(/\s+/)[3]));
      const [a, b, c] = [col('ts.out'), col('w.out'), col('w2.out')];
      expect(b.length).toBe(a.length);
      expect(rmse(b, a)).toBeLessThanOrEqual(BAR);
      expect(rmse(c, a)).toBeLessThanOrEqual(BAR);
      await expect(runGemWorkload({ molecule, output: join(dir, 'x.out'), target: 'cuda' })).rejects.toThrow(UserError);
      await expect(runGemWorkload({ molecule, output: join(dir, 'x.out'), target: 'wasm', variant: 'gem-potential.ts.region1.f32.zero.unroll4.div.block0' })).rejects.toThrow(/not a wasm variant/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
