// Every WebAssembly SIMD variant of the default library against the f64 reference on the same
// three systems as the TypeScript variants, and the gate failing on deliberately broken builds.
import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { libraryKeys, manifest, GENERATED_ROOT } from '../../runtime/variants.ts';
import { verifyVariant, settingsOf } from '../../runtime/md/verify.ts';
import { verificationCases } from '../../runtime/md/cases.ts';
import { runWasm, runWasmWith, loadWasmKernel, wasmInstance, writePositions, gatherWasmForces, SCRATCH_BASES } from '../../runtime/md/wasm.ts';
import { kernelTransfers } from '../../runtime/md/settle-simd.ts';
import { runTs, mdShape } from '../../runtime/md/kernels.ts';
import { MdProblem } from '../../runtime/md/problem.ts';
import { waterBox } from '../../runtime/md/system.ts';
import { assembleWat } from '../../generator/index.ts';
import { NonbondedForce } from '../../runtime/md/forces.ts';
import { prepareRun, type MdOptions } from '../../runtime/md/setup.ts';
import { MdEngine } from '../../runtime/md/engine.ts';
import { probeWasmRelaxedSimd } from '../../runtime/backends/wasm.ts';
import { spawnSync } from 'node:child_process';
import { withoutRelaxedSimd } from './no-relaxed.ts';

const cases = verificationCases('full');
const keys = libraryKeys('md-nonbonded', 'wasm');

describe('md-nonbonded WebAssembly SIMD library', () => {
  it('has the MD workloads kernels: lj and lj-rf in f32 (4x4, 8x4) and f64 (2x2, 4x2, 4x4, 8x4), lj-ewald (analytical and tabulated) in both; relaxed SIMD for the force and energy kernels of the workloads', () => {
    expect(keys.length).toBe(164);
    const relaxed = keys.filter((k) => k.endsWith('.relaxed'));
    expect(relaxed).toHaveLength(60);
    for (const k of relaxed) {
      expect(k).toMatch(/^md-nonbonded\.wasm\.(lj\.geom\.plain\.(f32|f64)\.(f|fev)\.(2x2|4x2|4x4|8x4)\.mask\.(mask|branch)|(lj-rf|lj-ewald)\.geom\.shift\.(f32|f64)\.(f|fev)\.((analytical|tabulated)\.)?(2x2|4x2|4x4|8x4)\.mask\.mask)\.relaxed$/);
      // every relaxed variant has its SIMD128 twin, the fallback
      expect(keys).toContain(k.replace(/\.relaxed$/, '.simd128'));
    }
    const plain = keys.filter((k) => k.endsWith('.simd128')).map((k) => k.replace(/\.simd128$/, ''));
    expect(plain).toHaveLength(104);
    const f32 = plain.filter((k) => k.includes('.f32.'));
    expect(f32.filter((k) => !k.includes('lj-ewald'))).toHaveLength(48);
    for (const k of f32) expect(k).toMatch(/^md-nonbonded\.wasm\.(lj\.geom\.(shift|plain)\.f32\.(f|fe|fev)|lj-rf\.geom\.(shift|plain)\.f32\.(f|fe|fev)|lj-ewald\.geom\.shift\.f32\.(f|fev)\.(analytical|tabulated))\.(4x4|8x4)\.mask\.(mask|branch)$/);
    const f64 = plain.filter((k) => k.includes('.f64.'));
    expect(f64).toHaveLength(48);
    for (const k of f64) expect(k).toMatch(/^md-nonbonded\.wasm\.(lj\.geom\.plain|lj-rf\.geom\.shift|lj-ewald\.geom\.shift)\.f64\.(f|fev)\.((analytical|tabulated)\.)?(2x2|4x2|4x4|8x4)\.mask\.(mask|branch)$/);
    expect(plain.filter((k) => k.includes('lj-ewald'))).toHaveLength(24);
    // The binary is committed next to its text, and the manifest names the binary.
    for (const k of keys) expect(manifest().get(k)!.file).toMatch(/\.wasm$/);
  });

  describe.each(keys)('%s', (key) => {
    it.each(cases.map((c) => [c.name, c] as const))('matches the reference on %s', async (_name, c) => {
      const d = await verifyVariant(key, c, runWasm);
      expect(d.ok, d.detail).toBe(true);
    });
  });

  it('reuses one instance across problems of different sizes (memory grows) and accumulates like TS', async () => {
    const key = 'md-nonbonded.wasm.lj-rf.geom.shift.f32.fev.4x4.mask.mask.simd128';
    const settings = { interaction: 'lj-rf', comb: 'geom', shift: true, rc: 0.8 } as const;
    for (const n of [216, 600, 216]) {
      const p = new MdProblem(waterBox(n, 7), settings, 4, 4, 0.85);
      const [w, t] = [await runWasm(key, p), await runTs('md-nonbonded.ts.lj-rf.geom.shift.f32.fev.4x4.mask.mask', p)];
      expect(Math.abs(w.coul - t.coul)).toBeLessThan(1e-4 * Math.abs(t.coul));
      let worst = 0;
      let scale = 0;
      for (let i = 0; i < t.f.length; i++) {
        worst = Math.max(worst, Math.abs(w.f[i]! - t.f[i]!));
        scale = Math.max(scale, Math.abs(t.f[i]!));
      }
      expect(worst).toBeLessThan(1e-4 * scale);
    }
    // The kernel interface adds into the outputs, as the TS kernels do.
    const p = new MdProblem(waterBox(216, 7), settings, 4, 4, 0.85);
    const mod = await loadWasmKernel(key);
    const out = p.outputs('f32');
    mod.kernel({ ...p.args('f32'), ...out });
    const once = Float32Array.from(out.f as Float32Array);
    const e1 = out.energy[1]!;
    mod.kernel({ ...p.args('f32'), ...out });
    for (let i = 0; i < once.length; i += 7) expect(out.f[i]).toBeCloseTo(2 * once[i]!, 3);
    expect(out.energy[1]).toBeCloseTo(2 * e1, 6);
  });

  it.each(['md-nonbonded.wasm.lj-rf.geom.shift.f32.f.4x4.mask.mask.simd128', 'md-nonbonded.wasm.lj-rf.geom.shift.f64.f.4x2.mask.mask.simd128'])(
    "%s: the per-step transfers in WebAssembly equal the TypeScript loops bit for bit", async (key) => {
      const precision = key.includes('.f64.') ? 'f64' : 'f32';
      const settings = { interaction: 'lj-rf', comb: 'geom', shift: true, rc: 0.8 } as const;
      const M = precision === 'f64' ? 4 : 4;
      const N = precision === 'f64' ? 2 : 4;
      const p = new MdProblem(waterBox(216, 7), settings, M, N, 0.85);
      const inst = await wasmInstance(key);
      expect(kernelTransfers(new WebAssembly.Memory({ initial: 1 }), precision)).not.toBeNull();
      const args = p.args(precision);
      inst.bind(args);
      const L = p.layout;
      const n = L.slotOf.length;
      // moved positions and image offsets with bits in every place (dummy slots: -1 in atomOf)
      const x = Float64Array.from({ length: 3 * n }, (_, i) => p.sys.x[i]! + 1e-3 * Math.sin(7.3 * i) + 1e-9 / 3);
      const off = Float64Array.from({ length: 3 * L.nPadded }, (_, i) => (i % 5 === 0 ? 2.345678901234 : i % 7 === 0 ? -2.3456789 : 0));
      const ref = (precision === 'f64' ? Float64Array : Float32Array).from(inst.xqBlock);
      writePositions(ref, 0, x, L.atomOf, off);
      inst.positions(x, L.atomOf, off);
      expect(L.atomOf.some((a) => a < 0)).toBe(true);
      expect(Array.from(inst.xqBlock)).toEqual(Array.from(ref));
      // A thread's range of a shared x (`own`): the same positions, and the other numbers handed
      // back into x with their bits (-0 and a NaN payload too), its own range untouched.
      const xs = new Float64Array(new SharedArrayBuffer(8 * x.length));
      xs.set(x);
      xs[4] = -0;
      new DataView(xs.buffer).setBigUint64(8 * (x.length - 2), 0x7ff8_0000_dead_beefn, true);
      const before = new Uint8Array(xs.buffer).slice();
      const i0 = 3 * Math.floor(n / 3), i1 = 3 * Math.floor((2 * n) / 3);
      inst.positions(xs, L.atomOf, off, [i0, i1]);
      expect(new Uint8Array(xs.buffer)).toEqual(before);
      xs.set(x);
      inst.positions(xs, L.atomOf, off, [i0, i1]);
      expect(Array.from(inst.xqBlock)).toEqual(Array.from(ref));
      expect(i1 - i0).toBeGreaterThan(0);
      inst.run(args.params, 0, args.ci.length >> 2);
      const fTs = new Float64Array(3 * n);
      const fWasm = new Float64Array(3 * n).fill(NaN);
      gatherWasmForces(inst.forces, L.slotOf, fTs);
      inst.forcesToAtoms(L.slotOf, fWasm);
      expect(fTs.some((v) => v !== 0)).toBe(true);
      expect(Array.from(fWasm)).toEqual(Array.from(fTs));
      // f32 kernels also hand their forces over in f32 (the threads' sums): the same numbers.
      if (precision === 'f32') {
        const f32 = new Float32Array(3 * n).fill(NaN);
        inst.forcesToAtoms(L.slotOf, f32);
        expect(Array.from(f32)).toEqual(Array.from(fTs));
      } else {
        expect(() => inst.forcesToAtoms(L.slotOf, new Float32Array(3 * n))).toThrow(/f32 kernels only/);
      }
    },
  );

  it('refuses arrays of the other precision and non-wasm keys', async () => {
    const key = 'md-nonbonded.wasm.lj.geom.plain.f32.f.4x4.mask.mask.simd128';
    const p = new MdProblem(waterBox(216, 7), { interaction: 'lj', comb: 'geom', shift: false, rc: 0.8 }, 4, 4, 0.85);
    const mod = await loadWasmKernel(key);
    expect(() => mod.kernel({ ...p.args('f64'), ...p.outputs('f64') })).toThrow(/f32/);
    const mod64 = await loadWasmKernel('md-nonbonded.wasm.lj.geom.plain.f64.f.4x4.mask.mask.simd128');
    expect(() => mod64.kernel({ ...p.args('f32'), ...p.outputs('f32') })).toThrow(/f64/);
    await expect(loadWasmKernel('md-nonbonded.ts.lj.geom.plain.f32.f.4x4.mask.mask')).rejects.toThrow(/not WebAssembly/);
  });

  it('drives NonbondedForce (the MD engine) like the TS f32 variants, forces-only and energy steps', async () => {
    const sys = waterBox(216, 3);
    const settings = { interaction: 'lj-rf', comb: 'geom', shift: true, rc: 0.8 } as const;
    const make = (t: string) => NonbondedForce.create({
      topology: sys, settings, rlist: 0.85,
      keyF: `md-nonbonded.${t}.lj-rf.geom.shift.f32.f.4x4.mask.mask${t === 'wasm' ? '.simd128' : ''}`, keyE: `md-nonbonded.${t}.lj-rf.geom.shift.f32.fev.4x4.mask.mask${t === 'wasm' ? '.simd128' : ''}`,
    });
    const [w, t] = [await make('wasm'), await make('ts')];
    w.rebuild(sys.x);
    t.rebuild(sys.x);
    // Move the atoms a little (no rebuild): the per-step path copies positions into the kernel arrays.
    const x = Float64Array.from(sys.x, (v, i) => v + 0.002 * Math.sin(i));
    for (const energies of [false, true, false]) {
      const fw = new Float64Array(sys.x.length);
      const ft = new Float64Array(sys.x.length);
      const ew = w.compute(x, fw, energies);
      const et = t.compute(x, ft, energies);
      let worst = 0;
      let scale = 0;
      for (let i = 0; i < ft.length; i++) {
        worst = Math.max(worst, Math.abs(fw[i]! - ft[i]!));
        scale = Math.max(scale, Math.abs(ft[i]!));
      }
      expect(worst).toBeLessThan(1e-4 * scale);
      expect(ew === null).toBe(!energies);
      if (ew && et) {
        expect(Math.abs(ew.coul - et.coul)).toBeLessThan(1e-5 * Math.abs(et.coul));
        expect(Math.abs(ew.vdw - et.vdw)).toBeLessThan(1e-4 * Math.abs(et.vdw));
        for (let k = 0; k < 9; k++) expect(Math.abs(ew.virial[k]! - et.virial[k]!)).toBeLessThan(1e-3 * Math.max(...et.virial.map(Math.abs)));
      }
    }
    await expect(NonbondedForce.create({ topology: sys, settings, rlist: 0.85, keyF: 'md-nonbonded.wasm.lj-rf.geom.shift.f32.f.4x4.mask.mask.simd128', keyE: 'md-nonbonded.ts.lj-rf.geom.shift.f32.fev.4x4.mask.mask' }))
      .rejects.toThrow(/TypeScript \(or both WebAssembly\)/);
  });

  // On 2 threads with the fixed split (the same numbers run after run), this also covers what the
  // threads keep between searches: the search's chunk arenas and joined-list buffers, the shared
  // particle block (whose charges must follow each new list) and the workers' force arrays.
  it.each([1, 2])('one engine rebuilt on new positions (its per-slot arrays reused, the padded size changing) gives what a new engine gives, bit for bit (%i threads)', async (threads) => {
    const sys = waterBox(216, 5);
    const settings = { interaction: 'lj-rf', comb: 'geom', shift: true, rc: 0.8 } as const;
    const keys = { keyF: 'md-nonbonded.wasm.lj-rf.geom.shift.f32.f.4x4.mask.mask.simd128', keyE: 'md-nonbonded.wasm.lj-rf.geom.shift.f32.fev.4x4.mask.mask.simd128', threads, reproducible: true };
    const kept = await NonbondedForce.create({ topology: sys, settings, rlist: 0.85, ...keys });
    const sizes = new Set<number>();
    try {
      // squeezed, spread, then the original positions: different column counts, so different
      // padding (and twice the same padding with atoms in other slots)
      for (const squeeze of [1, 0.97, 1.02, 1.021, 0.9, 1]) {
        const x = Float64Array.from(sys.x, (v, i) => v * squeeze + 0.01 * Math.sin(3 * i));
        kept.rebuild(x);
        sizes.add(kept.layout.nPadded);
        const fresh = await NonbondedForce.create({ topology: sys, settings, rlist: 0.85, ...keys });
        try {
          fresh.rebuild(x);
          for (const energies of [false, true]) {
            const a = new Float64Array(x.length);
            const b = new Float64Array(x.length);
            const ea = kept.compute(x, a, energies);
            const eb = fresh.compute(x, b, energies);
            expect(Array.from(a)).toEqual(Array.from(b));
            expect(ea).toEqual(eb);
          }
        } finally {
          await fresh.close();
        }
      }
    } finally {
      await kept.close();
    }
    expect(sizes.size).toBeGreaterThan(2);
  });

  // 4x2 on 500 atoms; 2x2 (i-clusters of half a 4-atom block) on 497, whose grid leaves 2 slots
  // over a whole number of 4-atom blocks (the last block half used)
  it.each([['4x2', 0, 0], ['2x2', 3, 2]] as const)('runs f64 %s kernels on two threads (shared f64 blocks) like TypeScript f64 on one', async (cl, drop, rest) => {
    const { ljFluid } = await import('../../runtime/md/ljfluid.ts');
    const full = ljFluid({ cells: 5 }).sys;
    const n = full.q.length - drop;
    const sys = { ...full, x: full.x.slice(0, 3 * n), q: full.q.slice(0, n), type: full.type.slice(0, n), exclusions: full.exclusions.slice(0, n) };
    const settings = { interaction: 'lj', comb: 'geom', shift: false, rc: 2.5 } as const;
    const make = (t: string, cl: string, threads: number) => NonbondedForce.create({
      topology: sys, settings, rlist: 2.8, threads,
      keyF: `md-nonbonded.${t}.lj.geom.plain.f64.f.${cl}.mask.mask${t === 'wasm' ? '.simd128' : ''}`, keyE: `md-nonbonded.${t}.lj.geom.plain.f64.fev.${cl}.mask.mask${t === 'wasm' ? '.simd128' : ''}`,
    });
    const t = await make('ts', '4x4', 1);
    const w = await make('wasm', cl, 2);
    try {
      t.rebuild(sys.x);
      w.rebuild(sys.x);
      expect(w.layout.nPadded % 4).toBe(rest);
      const x = Float64Array.from(sys.x, (v, i) => v + 0.01 * Math.sin(i));
      for (const energies of [false, true]) {
        const [ft, fw] = [new Float64Array(sys.x.length), new Float64Array(sys.x.length)];
        const et = t.compute(x, ft, energies);
        const ew = w.compute(x, fw, energies);
        let worst = 0;
        let scale = 0;
        for (let i = 0; i < ft.length; i++) {
          worst = Math.max(worst, Math.abs(fw[i]! - ft[i]!));
          scale = Math.max(scale, Math.abs(ft[i]!));
        }
        expect(worst).toBeLessThan(1e-12 * scale);
        if (et && ew) expect(Math.abs(ew.vdw - et.vdw)).toBeLessThan(1e-12 * Math.abs(et.vdw));
      }
    } finally {
      await w.close();
    }
  });

  it('runs the Ewald table kernels on two threads (the table copied into each worker) like TypeScript on one', async () => {
    const sys = waterBox(216, 3);
    const settings = { interaction: 'lj-ewald', comb: 'geom', shift: true, rc: 0.8 } as const;
    const t = await NonbondedForce.create({ topology: sys, settings, rlist: 0.85, keyF: 'md-nonbonded.ts.lj-ewald.geom.shift.f64.fev.tabulated.4x4.mask.mask', keyE: 'md-nonbonded.ts.lj-ewald.geom.shift.f64.fev.tabulated.4x4.mask.mask' });
    const w = await NonbondedForce.create({ topology: sys, settings, rlist: 0.85, threads: 2, keyF: 'md-nonbonded.wasm.lj-ewald.geom.shift.f64.f.tabulated.4x2.mask.mask.simd128', keyE: 'md-nonbonded.wasm.lj-ewald.geom.shift.f64.fev.tabulated.4x2.mask.mask.simd128' });
    try {
      t.rebuild(sys.x);
      w.rebuild(sys.x);
      for (const energies of [false, true]) {
        const [ft, fw] = [new Float64Array(sys.x.length), new Float64Array(sys.x.length)];
        const et = t.compute(sys.x, ft, energies);
        const ew = w.compute(sys.x, fw, energies);
        let worst = 0;
        let scale = 0;
        for (let i = 0; i < ft.length; i++) {
          worst = Math.max(worst, Math.abs(fw[i]! - ft[i]!));
          scale = Math.max(scale, Math.abs(ft[i]!));
        }
        expect(worst).toBeLessThan(1e-10 * scale);
        if (et && ew) expect(Math.abs(ew.coul - et.coul)).toBeLessThan(1e-10 * Math.abs(et.coul));
      }
    } finally {
      await w.close();
    }
  });

  it('compiles relaxed SIMD under Node (the platform sets the V8 flag Node 20 needs before the first compile), also on worker threads', async () => {
    expect(probeWasmRelaxedSimd()).toEqual({ ok: true });
    // a fresh process: relaxed SIMD validates after importing kernforge, and on Node 20 (V8 11.3) not before
    const root = new URL('../../', import.meta.url).pathname;
    const wasm = join(GENERATED_ROOT, manifest().get('md-nonbonded.wasm.lj.geom.plain.f32.f.4x4.mask.mask.relaxed')!.file);
    const script = `import { readFileSync } from 'node:fs'; import { register } from 'tsx/esm/api'; register();
      const b = readFileSync(${JSON.stringify(wasm)}); const before = WebAssembly.validate(b);
      await import(${JSON.stringify(`${root}runtime/index.ts`)}); console.log(JSON.stringify({ before, after: WebAssembly.validate(b) }));`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' });
    expect(r.stderr).toBe('');
    const out = JSON.parse(r.stdout) as { before: boolean; after: boolean };
    expect(out.after).toBe(true);
    const [major, minor] = process.versions.v8.split('.').map(Number) as [number, number];
    if (major < 11 || (major === 11 && minor < 4)) expect(out.before).toBe(false);
    // two threads (the worker instantiates this thread's compiled module) like TypeScript f64 on one
    const { ljFluid } = await import('../../runtime/md/ljfluid.ts');
    const sys = ljFluid({ cells: 5 }).sys;
    const settings = { interaction: 'lj', comb: 'geom', shift: false, rc: 2.5 } as const;
    const t = await NonbondedForce.create({ topology: sys, settings, rlist: 2.8, keyF: 'md-nonbonded.ts.lj.geom.plain.f64.f.4x4.mask.mask', keyE: 'md-nonbonded.ts.lj.geom.plain.f64.fev.4x4.mask.mask' });
    const w = await NonbondedForce.create({ topology: sys, settings, rlist: 2.8, threads: 2, keyF: 'md-nonbonded.wasm.lj.geom.plain.f64.f.8x4.mask.mask.relaxed', keyE: 'md-nonbonded.wasm.lj.geom.plain.f64.fev.8x4.mask.mask.relaxed' });
    try {
      t.rebuild(sys.x);
      w.rebuild(sys.x);
      const x = Float64Array.from(sys.x, (v, i) => v + 0.01 * Math.sin(i));
      const [ft, fw] = [new Float64Array(sys.x.length), new Float64Array(sys.x.length)];
      t.compute(x, ft, false);
      w.compute(x, fw, false);
      let worst = 0;
      let scale = 0;
      for (let i = 0; i < ft.length; i++) {
        worst = Math.max(worst, Math.abs(fw[i]! - ft[i]!));
        scale = Math.max(scale, Math.abs(ft[i]!));
      }
      expect(worst).toBeLessThan(1e-12 * scale);
    } finally {
      await w.close();
    }
  });

  it('offers no relaxed variant to the tuner where the engine does not compile relaxed SIMD (the probe answering no)', async () => {
    const { tuningFamily } = await import('../../runtime/tune/families/index.ts');
    const { cpuDevice } = await import('../../runtime/tune/devices.ts');
    const f = (await tuningFamily('md-nonbonded'))!;
    const withRelaxed = await f.candidates(cpuDevice(), 'lj-fluid-f32-small');
    expect(withRelaxed.filter((k) => k.endsWith('.relaxed')).length).toBeGreaterThan(0);
    await withoutRelaxedSimd(async () => {
      const p = probeWasmRelaxedSimd();
      expect(p.ok).toBe(false);
      expect(p.why).toMatch(/rejects a relaxed SIMD module/);
      const keys = await f.candidates(cpuDevice(), 'lj-fluid-f32-small');
      expect(keys).toEqual(withRelaxed.filter((k) => !k.endsWith('.relaxed')));
      expect(keys.some((k) => k.endsWith('.simd128'))).toBe(true);
    });
  });

  // The MD engine with the wasm kernels in place of the TS f32 ones (setup.ts picks TS keys; the
  // run's keys are swapped here): the same trajectory to f32 accuracy over a short run.
  it.each([
    ['MiniMD LJ fluid', { system: 'lj', cells: 6, cluster: '4x4', precision: 'f32', nstcalcenergy: 20 } as MdOptions, 40],
    ['SPC/E water', { system: 'water', gro: new URL('../fixtures/gromacs/spce/conf.gro', import.meta.url).pathname, cluster: '4x4', precision: 'f32', nstcalcenergy: 10 } as MdOptions, 20],
    ['MiniMD LJ fluid, f64', { system: 'lj', cells: 6, cluster: '4x4', precision: 'f64', nstcalcenergy: 20 } as MdOptions, 40],
    ['SPC/E water, f64', { system: 'water', gro: new URL('../fixtures/gromacs/spce/conf.gro', import.meta.url).pathname, cluster: '4x4', precision: 'f64', nstcalcenergy: 10 } as MdOptions, 20],
    ['MiniMD LJ fluid, f64 2x2', { system: 'lj', cells: 6, cluster: '2x2', precision: 'f64', nstcalcenergy: 20 } as MdOptions, 40],
    ['SPC/E water, f64 2x2', { system: 'water', gro: new URL('../fixtures/gromacs/spce/conf.gro', import.meta.url).pathname, cluster: '2x2', precision: 'f64', nstcalcenergy: 10 } as MdOptions, 20],
  ])('runs the MD engine (%s) like the TS kernels of its precision', async (_name, o, steps) => {
    const thermo = async (target: string) => {
      const p = await prepareRun(o);
      const sfx = target === 'wasm' ? '.simd128' : '';
      const run = { ...p.run, keyF: p.run.keyF.replace('.ts.', `.${target}.`) + sfx, keyE: p.run.keyE.replace('.ts.', `.${target}.`) + sfx };
      expect(run.keyF).toContain(`.${target}.`);
      return (await MdEngine.create(run)).simulate(steps).thermo;
    };
    const [w, t] = [await thermo('wasm'), await thermo('ts')];
    expect(t.length).toBeGreaterThan(1);
    expect(w.map((r) => r.step)).toEqual(t.map((r) => r.step));
    // f32: to f32 accuracy; f64: the same trajectory up to the summation order
    const tol = o.precision === 'f64' ? 1e-10 : 1e-4;
    for (let i = 0; i < t.length; i++) {
      expect(Math.abs(w[i]!.epot - t[i]!.epot)).toBeLessThan(tol * Math.abs(t[i]!.epot));
      expect(Math.abs(w[i]!.T - t[i]!.T)).toBeLessThan(10 * tol * t[i]!.T);
    }
  });

  // The gate can fail: the committed text with one deliberate mistake, assembled and verified.
  const broken: [string, string, string, string][] = [
    ['exclusion mask ignored', 'md-nonbonded.wasm.lj-rf.geom.shift.f32.fev.4x4.mask.mask.simd128', '(v128.and (local.get $m) (v128.const i32x4', '(v128.or (local.get $m) (v128.const i32x4'],
    ['j force with the wrong sign', 'md-nonbonded.wasm.lj.geom.plain.f32.f.8x4.mask.branch.simd128', '(local.set $fjx (f32x4.sub (local.get $fjx)', '(local.set $fjx (f32x4.add (local.get $fjx)'],
    ['RF self pair counted (d >= i - j)', 'md-nonbonded.wasm.lj-rf.geom.shift.f32.fe.4x4.mask.mask.simd128', '(i32x4.gt_s (local.get $dv)', '(i32x4.ge_s (local.get $dv)'],
    ['shift forces dropped', 'md-nonbonded.wasm.lj-rf.geom.shift.f32.fev.8x4.mask.mask.simd128', '(f64.promote_f32 (local.get $fsy))', '(f64.promote_f32 (f32.const 0))'],
    ['Ewald exclusion correction dropped', 'md-nonbonded.wasm.lj-ewald.geom.shift.f32.fev.analytical.4x4.mask.mask.simd128', '(v128.and (local.get $wel) (v128.bitselect', '(v128.and (local.get $wi) (v128.bitselect'],
    ['exp(-beta^2 r^2) off by 2x (exponent bias)', 'md-nonbonded.wasm.lj-ewald.geom.shift.f32.f.analytical.8x4.mask.mask.simd128', 'i32x4 127 127 127 127', 'i32x4 128 128 128 128'],
    ['Ewald table not interpolated', 'md-nonbonded.wasm.lj-ewald.geom.shift.f64.fev.tabulated.4x2.mask.mask.simd128', '(f64x2.mul (local.get $te)', '(f64x2.mul (local.get $t)'],
    ['f64 exclusion lanes inverted', 'md-nonbonded.wasm.lj-rf.geom.shift.f64.fev.4x4.mask.mask.simd128', '(i64x2.ne (v128.and (local.get $m)', '(i64x2.eq (v128.and (local.get $m)'],
    ['relaxed j force with the wrong sign (madd for nmadd)', 'md-nonbonded.wasm.lj-ewald.geom.shift.f32.fev.analytical.8x4.mask.mask.relaxed', '(f32x4.relaxed_nmadd (local.get $dy)', '(f32x4.relaxed_madd (local.get $dy)'],
    ['f64 2 x 2 i-cluster read from the wrong half block', 'md-nonbonded.wasm.lj-rf.geom.shift.f64.fev.2x2.mask.mask.simd128', '(i32.shl (i32.and (local.get $ci) (i32.const 1)) (i32.const 4))', '(i32.shl (i32.and (local.get $ci) (i32.const 1)) (i32.const 3))'],
    ['f64 M x 2 j-cluster read from the wrong half block', 'md-nonbonded.wasm.lj.geom.plain.f64.f.4x2.mask.mask.simd128', '(i32.shl (i32.and (local.get $cj) (i32.const 1)) (i32.const 4))', '(i32.shl (i32.and (local.get $cj) (i32.const 1)) (i32.const 3))'],
  ];
  it.each(broken)('fails a build with the %s', async (_what, key, from, to) => {
    const wat = readFileSync(join(GENERATED_ROOT, manifest().get(key)!.file.replace(/\.wasm$/, '.wat')), 'utf8');
    expect(wat).toContain(from);
    const bytes = await assembleWat('broken.wat', wat.split(from).join(to));
    const c = cases.find((x) => x.name === 'water-216')!;
    const d = await verifyVariant(key, c, (k, p) => runWasmWith(k, p, bytes));
    expect(d.ok).toBe(false);
  });
});

describe('md-nonbonded wasm scratch base (4K aliasing with the stack spills)', () => {
  it('every library kernel reads and writes its scratch at the base it is given, none at a fixed address', () => {
    for (const key of keys) {
      const wat = readFileSync(join(GENERATED_ROOT, manifest().get(key)!.file.replace(/\.wasm$/, '.wat')), 'utf8');
      expect(wat, key).toContain('(param $sb i32)');
      expect(wat, key).not.toMatch(/offset=\d+ \(i32\.const 0\)/);
      expect(wat.split('(local.get $sb)').length, key).toBeGreaterThan(20);
    }
  });

  it('gives the same forces, energies and virial bit for bit at every scratch base', async () => {
    for (const key of ['md-nonbonded.wasm.lj-rf.geom.shift.f32.f.4x4.mask.mask.simd128', 'md-nonbonded.wasm.lj-ewald.geom.shift.f64.fev.tabulated.4x2.mask.mask.simd128']) {
      const shape = await mdShape(key);
      const p = new MdProblem(waterBox(216, 3), await settingsOf(key, 0.8), shape.M, shape.N, 0.85);
      const inst = await wasmInstance(key);
      const runs: Awaited<ReturnType<typeof runWasm>>[] = [];
      for (let k = 0; k < SCRATCH_BASES.length; k++) {
        inst.setScratchBase(k);
        expect(inst.scratchBase).toBe(SCRATCH_BASES[k]);
        runs.push(await runWasm(key, p));
      }
      inst.setScratchBase(0);
      for (const r of runs.slice(1)) {
        expect(r.f.every((x, i) => Object.is(x, runs[0]!.f[i]))).toBe(true);
        expect(Object.is(r.vdw, runs[0]!.vdw) && Object.is(r.coul, runs[0]!.coul)).toBe(true);
        expect([...r.virial]).toEqual([...runs[0]!.virial]);
      }
      expect(Math.abs(runs[0]!.coul)).toBeGreaterThan(1);
    }
  });

  it('moves to the next base after a window of 8 calls whose fastest is 25% slower per j-entry than the fastest window, and not for short calls or slow calls among fast ones', async () => {
    const inst = await wasmInstance('md-nonbonded.wasm.lj-rf.geom.shift.f32.f.4x4.mask.mask.simd128');
    inst.setScratchBase(0);
    const moves = inst.scratchMoves;
    const windowOf = (...ms: number[]): void => ms.forEach((t) => inst.timed(t, 1e6));
    windowOf(1, 1, 1, 1, 1, 1, 1, 1); // the fastest window: 1e-6 ms per j-entry (below any real call's)
    windowOf(3, 3, 3, 3, 3, 3, 3, 1.2); // slow calls, but the window's fastest is within 25%
    for (let c = 0; c < 20; c++) inst.timed(10, 100); // too short to count
    expect(inst.scratchBase).toBe(SCRATCH_BASES[0]);
    windowOf(1.3, 1.3, 1.3, 1.3, 1.3, 1.3, 1.3);
    expect(inst.scratchBase).toBe(SCRATCH_BASES[0]); // the window is not complete
    windowOf(1.3);
    expect(inst.scratchBase).toBe(SCRATCH_BASES[1]);
    expect(inst.scratchMoves).toBe(moves + 1);
    for (let w = 0; w < SCRATCH_BASES.length - 1; w++) windowOf(2, 2, 2, 2, 2, 2, 2, 2);
    expect(inst.scratchBase).toBe(SCRATCH_BASES[0]); // round the bases, back to the first
    windowOf(1, 1, 1, 1, 1, 1, 1, 1);
    expect(inst.scratchBase).toBe(SCRATCH_BASES[0]);
  });

  it('first runs a window at each base and keeps the fastest', async () => {
    const inst = await wasmInstance('md-nonbonded.wasm.lj-rf.geom.shift.f32.f.4x4.mask.mask.simd128');
    inst.calibrateScratch();
    const moves = inst.scratchMoves;
    const windowOf = (...ms: number[]): void => ms.forEach((t) => inst.timed(t, 1e6));
    const seen: number[] = [];
    for (const ms of [2, 1.1, 3, 1.6]) {
      seen.push(inst.scratchBase);
      windowOf(ms, 5, 5, 5, 5, 5, 5, 5);
    }
    expect(seen).toEqual([...SCRATCH_BASES]);
    expect(inst.scratchBase).toBe(SCRATCH_BASES[1]);
    windowOf(1.2, 1.2, 1.2, 1.2, 1.2, 1.2, 1.2, 1.2); // within 25% of 1.1: stays
    expect(inst.scratchBase).toBe(SCRATCH_BASES[1]);
    expect(inst.scratchMoves).toBe(moves);
    inst.setScratchBase(0);
  });
});
