// Every WebAssembly SIMD (f64x2) variant of bigdft-conv's library against the f64 reference with
// the TypeScript f64 gate, on the verification grids and on odd grids whose sizes are no
// multiple of the unroll or the vector width; a deliberately broken build must fail; worker
// threads must give the one-thread result bit for bit, and a worker that fails must not leave the
// others waiting at the barrier between stages.
import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { libraryKeys, manifest, GENERATED_ROOT } from '../../runtime/variants.ts';
import { verifyConv, randomValues } from '../../runtime/bigdft/verify.ts';
import { apply3d, prepare3d, ConvInputError } from '../../runtime/bigdft/apply.ts';
import { assembleWat } from '../../generator/index.ts';
import { separable, type Dims } from '../../runtime/bigdft/reference.ts';
import { convWasmTask, prepareWasm3d } from '../../runtime/bigdft/wasm.ts';
import { kineticScale } from '../../runtime/bigdft/conv.ts';
import { Pool, toShared } from '../../runtime/parallel/pool.ts';

const keys = libraryKeys('bigdft-conv', 'wasm');
/** Odd grids: n not a multiple of 2, 4, 6 or 8 along any axis, line counts odd. */
const ODD: Record<string, Dims> = { magic: [23, 17, 19], 'magic-t': [19, 25, 17], kinetic: [29, 35, 31] };
const filterOf = (key: string): string => key.split('.')[2]!;

describe('bigdft-conv WebAssembly SIMD library', () => {
  it('has f64 transposing passes of every filter, lines and shifted, periodic and free; the manifest names the binaries', () => {
    expect(keys.length).toBe(23);
    for (const k of keys) {
      expect(k).toMatch(/^bigdft-conv\.wasm\.(magic|magic-t|kinetic)\.(periodic|free)\.f64\.separable-t\.\d+x\d+\.(inline|array)\.(lines|shifted)$/);
      expect(manifest().get(k)!.file).toMatch(/\.wasm$/);
    }
    for (const f of ['magic', 'magic-t', 'kinetic']) for (const b of ['periodic', 'free']) for (const s of ['lines', 'shifted']) {
      expect(keys.some((k) => k.includes(`.${f}.${b}.`) && k.endsWith(`.${s}`)), `${f} ${b} ${s}`).toBe(true);
    }
  });

  describe.each(keys)('%s', (key) => {
    it('matches the f64 reference on the verification grid (TypeScript f64 bound)', async () => {
      const v = await verifyConv(key, { h: 0.4 });
      expect(v.maxError).toBeLessThanOrEqual(v.tolerance);
      expect(v.tolerance).toBeGreaterThan(0);
    });
    it('matches it on an odd grid (sizes no multiple of the unroll or the vector width)', async () => {
      const v = await verifyConv(key, { dims: ODD[filterOf(key)] });
      expect(v.maxError).toBeLessThanOrEqual(v.tolerance);
    });
  });

  it('lines variants sum in the TypeScript kernels order: equal bit for bit to the TS f64 inline variant', async () => {
    const dims: Dims = [21, 18, 17];
    const x = randomValues(dims[0] * dims[1] * dims[2], 7);
    for (const f of ['magic', 'kinetic'] as const) {
      const d: Dims = f === 'kinetic' ? [31, 30, 29] : dims;
      const xx = randomValues(d[0] * d[1] * d[2], 7);
      const w = await apply3d(`bigdft-conv.wasm.${f}.periodic.f64.separable-t.4x2.inline.lines`, f === 'kinetic' ? xx : x, ...d, { h: [0.4, 0.5, 0.6] });
      const t = await apply3d(`bigdft-conv.ts.${f}.periodic.f64.separable-t.4x2.inline.table`, f === 'kinetic' ? xx : x, ...d, { h: [0.4, 0.5, 0.6] });
      expect(Array.from(w)).toEqual(Array.from(t));
    }
  });

  it('fails the gate with a broken build (one coefficient changed in the text)', async () => {
    for (const key of ['bigdft-conv.wasm.magic.periodic.f64.separable-t.4x2.inline.lines', 'bigdft-conv.wasm.kinetic.periodic.f64.separable-t.8x1.inline.shifted']) {
      const wat = readFileSync(join(GENERATED_ROOT, manifest().get(key)!.file.replace(/\.wasm$/, '.wat')), 'utf8');
      const m = /\(v128\.const f64x2 ([^\s)]+) ([^\s)]+)\)/.exec(wat)!;
      const broken = wat.replace(m[0], `(v128.const f64x2 ${m[1]} 0x1p-3)`);
      expect(broken).not.toBe(wat);
      const good = await verifyConv(key, { wasmBytes: await assembleWat('good.wat', wat) });
      expect(good.maxError).toBeLessThanOrEqual(good.tolerance);
      const bad = await verifyConv(key, { wasmBytes: await assembleWat('broken.wat', broken) });
      expect(bad.maxError).toBeGreaterThan(bad.tolerance);
    }
  });

  it('renders and assembles a key outside the library on demand', async () => {
    const key = 'bigdft-conv.wasm.magic-t.free.f64.separable-t.1x4.array.shifted';
    expect(manifest().has(key)).toBe(false);
    const v = await verifyConv(key, { dims: ODD['magic-t'] });
    expect(v.maxError).toBeLessThanOrEqual(v.tolerance);
  });

  it('worker threads give the one-thread result bit for bit (lines and shifted, magic and kinetic)', async () => {
    for (const key of ['bigdft-conv.wasm.magic.periodic.f64.separable-t.4x2.inline.lines', 'bigdft-conv.wasm.kinetic.periodic.f64.separable-t.8x1.inline.shifted', 'bigdft-conv.wasm.magic-t.free.f64.separable-t.4x2.inline.shifted']) {
      const d: Dims = key.includes('kinetic') ? [31, 33, 29] : [23, 21, 19];
      const x = randomValues(d[0] * d[1] * d[2], 11);
      const one = await apply3d(key, x, ...d, { h: [0.4, 0.4, 0.4] });
      for (const threads of [2, 3]) {
        const many = await apply3d(key, x, ...d, { h: [0.4, 0.4, 0.4], threads });
        expect(Array.from(many), `${key} on ${threads} threads`).toEqual(Array.from(one));
      }
    }
  });

  it('on worker threads: one task per worker runs the two stages (slabs of planes claimed as it goes) with barriers between them; repeated runs agree, and a worker that traps ends the run with its error instead of leaving the others waiting', async () => {
    const key = 'bigdft-conv.wasm.kinetic.periodic.f64.separable-t.4x2.inline.lines';
    const d: Dims = [31, 30, 29];
    const x = randomValues(d[0] * d[1] * d[2], 5);
    const scale = kineticScale([0.4, 0.5, 0.6]);
    const one = Float64Array.from((await prepareWasm3d(key, d, { scale })).run(x) as Float64Array);
    const pool = await Pool.create(2);
    try {
      const pre = await prepareWasm3d(key, d, { scale, pool });
      // an input on a SharedArrayBuffer is copied in by the threads (each the planes of the first stage's slabs it takes), any other by the caller
      const xs = toShared(Float64Array.from(x));
      for (let r = 0; r < 4; r++) expect(Array.from(await pre.run(r % 2 ? xs : x)), `run ${r}`).toEqual(Array.from(one));
      await pre.release?.();
      // the magic filter, on slabs of planes (3 of i3 and 4 of i1 here, the last ones short),
      // against the f64 reference too
      const magic = 'bigdft-conv.wasm.magic.periodic.f64.separable-t.2x2.inline.lines';
      const dm: Dims = [26, 30, 19];
      const xm = randomValues(dm[0] * dm[1] * dm[2], 6);
      const ref = separable('magic', xm, dm);
      const oneM = Float64Array.from((await prepareWasm3d(magic, dm, { scale })).run(xm) as Float64Array);
      expect(Math.max(...oneM.map((v, i) => Math.abs(v - ref[i]!)))).toBeLessThan(1e-12);
      const preM = await prepareWasm3d(magic, dm, { scale, pool });
      const xms = toShared(Float64Array.from(xm));
      for (let r = 0; r < 4; r++) expect(Array.from(await preM.run(r % 2 ? xms : xm)), `magic run ${r}`).toEqual(Array.from(oneM));
      await preM.release?.();
      // every pass on lines past the first traps (the first stage's slabs but the first, the
      // third pass's calls): whichever thread claims one stops there, and the others still meet
      // it at the barriers
      const wat = readFileSync(join(GENERATED_ROOT, manifest().get(key)!.file.replace(/\.wasm$/, '.wat')), 'utf8');
      const trapping = wat.replace('(local.set $n8 ', '(if (i32.gt_s (local.get $j0) (i32.const 0)) (then unreachable))\n    (local.set $n8 ');
      expect(trapping).not.toBe(wat);
      const bad = await prepareWasm3d(key, d, { scale, pool, bytes: await assembleWat('trap.wat', trapping) });
      await expect(bad.run(x)).rejects.toThrow(/unreachable/);
      await bad.release?.();
    } finally {
      await pool.close();
    }
  }, 30_000);

  it("a worker's error reaches the calling thread through the shared error block, written before the barrier that follows it", async () => {
    // a worker (run here, alone at its barriers) whose module does not compile
    const ctl = new Int32Array(new SharedArrayBuffer(8 + 2048));
    const barrier = new Int32Array(new SharedArrayBuffer(8));
    const memory = new WebAssembly.Memory({ initial: 1, maximum: 16, shared: true });
    const q = { kind: 'in' as const, x: 0, y: 0, yin: 0, xt: 0, scale: 0, scale3: 0, dims: [16, 16, 16] as Dims, kinetic: false, bounds: Int32Array.from([0, 16]) };
    await convWasmTask({ key: 'bigdft-conv.wasm.magic.periodic.f64.separable-t.4x2.inline.lines', memId: 'broken', memory, bytes: Uint8Array.from([0, 97, 115, 109, 9, 9]), s: 0, u: 0, t: 0, t2: 0, stages: [q, q, q], next: new Int32Array(new SharedArrayBuffer(12)), barrier, parties: 1, ctl });
    expect(Atomics.load(ctl, 0)).toBe(1);
    const text = new TextDecoder().decode(new Uint8Array(ctl.buffer, 8, Atomics.load(ctl, 1)).slice());
    expect(text).toMatch(/CompileError/);
    // it still arrived at the three barriers (one per stage)
    expect(Atomics.load(barrier, 1)).toBe(3);
  });

  it('runs repeatedly on one prepared grid with the same result, and refuses grids smaller than the filter', async () => {
    const key = 'bigdft-conv.wasm.magic.periodic.f64.separable-t.6x2.inline.lines';
    const d: Dims = [20, 18, 16];
    const pre = await prepare3d(key, d);
    const x = randomValues(d[0] * d[1] * d[2], 3);
    const a = Float64Array.from(pre.run(x));
    const b = Float64Array.from(pre.run(x));
    expect(Array.from(b)).toEqual(Array.from(a));
    await expect(prepare3d(key, [20, 15, 16])).rejects.toThrow(ConvInputError);
    await expect(apply3d('bigdft-conv.wasm.kinetic.periodic.f64.separable-t.4x2.inline.lines', new Float64Array(20 * 29 * 29), 20, 29, 29)).rejects.toThrow(/n1 = 20 is smaller than the kinetic filter/);
  });
});
