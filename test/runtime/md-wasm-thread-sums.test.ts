// WebAssembly non-bonded forces on 2 threads (runtime/md/forces.ts computeWasm): the calling
// thread gathers its own force block into atom order while the worker gathers its own (in the
// kernel's precision), then both are added (into forces in shared memory: each thread sums them
// for half of the atoms, sumParts). With the fixed split (`reproducible`) the result must be, bit for bit, the f64 sum
// per atom of the two ranges' blocks (this thread's i-entries [0, b), the worker's [b, n)), each
// range computed here on one thread with the same instance: the same sums in the same order as
// summing both blocks at the end. By default the threads claim chunks of the list as they go
// (runWasmShare): every chunk is computed once, whichever thread takes it.
import { describe, it, expect, afterAll } from 'vitest';
import { prepareRun, type MdOptions } from '../../runtime/md/setup.ts';
import { NonbondedForce } from '../../runtime/md/forces.ts';
import { wasmInstance, WASM_F_WORDS, type WasmMd } from '../../runtime/md/wasm.ts';
import { HandBackChoice, handBack, runWasmShare, sumParts } from '../../runtime/parallel/md.ts';

const WATER = new URL('../fixtures/gromacs/spce/conf.gro', import.meta.url).pathname;
const open: NonbondedForce[] = [];
afterAll(async () => {
  for (const nb of open) await nb.close();
});

describe('wasm forces on 2 threads', () => {
  const cases: [string, MdOptions][] = [
    ['SPC/E water, wasm f32 lj-rf 4x4', { system: 'water', gro: WATER, target: 'wasm', cluster: '4x4' }],
    ['LJ fluid, wasm f64 4x4', { system: 'lj', cells: 6, target: 'wasm', cluster: '4x4', precision: 'f64' }],
  ];
  for (const [name, o] of cases) {
    it(`${name}: force-only steps equal the per-atom sum of the two ranges computed on one thread, bit for bit`, async () => {
      const r = (await prepareRun(o)).run;
      expect(r.keyF).toContain('.wasm.');
      const nb = await NonbondedForce.create({ topology: r.topology, settings: r.settings, rlist: r.rlist, keyF: r.keyF, keyE: r.keyE, search: r.search, threads: 2, reproducible: true });
      open.push(nb);
      const n = r.mass.length;
      const x = Float64Array.from(r.x, (xi, i) => xi + 1e-2 * Math.cos(3 * i));
      nb.rebuild(x);
      for (let i = 0; i < 3 * n; i++) x[i]! += 1e-3 * Math.sin(7 * i); // moved without a new search
      const f = new Float64Array(3 * n);
      expect(nb.compute(x, f, false)).toBeNull();
      // The same two ranges here, one after the other, on this thread's instance of the variant.
      const inner = nb as unknown as { args: Parameters<Awaited<ReturnType<typeof wasmInstance>>['bind']>[0]; offset: Float64Array; kernels: { par: { bounds: Int32Array } } };
      const { args, offset } = inner;
      expect(inner.kernels.par.bounds.length).toBe(3);
      const mine = inner.kernels.par.bounds[1]!;
      const nci = args.ci.length >> 2;
      expect(mine).toBeGreaterThan(0);
      expect(mine).toBeLessThan(nci);
      const inst = await wasmInstance(r.keyF);
      inst.bind(args);
      inst.positions(x, nb.layout.atomOf, offset);
      inst.run(args.params, 0, mine);
      const a = Float64Array.from(inst.forces);
      inst.run(args.params, mine, nci);
      const b = Float64Array.from(inst.forces);
      const want = new Float64Array(3 * n);
      const slotOf = nb.layout.slotOf;
      for (let i = 0; i < n; i++) {
        const p = slotOf[i]!;
        const k = WASM_F_WORDS * (p >> 2) + (p & 3);
        for (let d = 0; d < 3; d++) want[3 * i + d] = a[k + 4 * d]! + b[k + 4 * d]!;
      }
      expect(Array.from(f)).toEqual(Array.from(want));
      // Forces in shared memory (as the engine's update workspace holds them): the threads add
      // the worker's block, each for a range of atoms (MdWasmThreads.sumInto); the same numbers,
      // call after call.
      const fs = new Float64Array(new SharedArrayBuffer(24 * n));
      for (let k = 0; k < 3; k++) {
        fs.fill(k);
        expect(nb.compute(x, fs, false)).toBeNull();
        expect(Array.from(fs)).toEqual(Array.from(want));
      }
      // Not a vacuous comparison: both ranges contribute.
      expect(a.some((v) => v !== 0) && b.some((v) => v !== 0)).toBe(true);
    }, 60_000);
  }

  it('sumParts: sums the parts in order for the range of atoms (and writes only that range), kicks with the sums, and returns their sum of squares (two parts: 2 threads; three: the general loop)', () => {
    // Three atoms; the range is the second: values whose f64 sums depend on the order (3, 1e16, -1e16).
    const big = (x: number) => Float64Array.of(0, 0, 0, x, x, x, 0, 0, 0);
    const s = 3 + 1e16 - 1e16; // (3 + 1e16) - 1e16 rounds to 4, not 3 + (1e16 - 1e16)
    expect(s).toBe(4);
    for (const parts of [[big(3), big(1e16)], [big(3), big(1e16), big(-1e16)]]) {
      const want = parts.length === 2 ? 3 + 1e16 : s;
      for (const kicked of [false, true]) {
        const f = Float64Array.of(7, 7, 7, 5, 5, 5, 7, 7, 7); // the range's old values are not summed
        const v = Float64Array.of(1, 1, 1, 1, 2, 3, 1, 1, 1);
        const h = Float64Array.of(9, 9, 9, 0.5, 0.25, 2, 9, 9, 9);
        const ss = sumParts(f, parts, 3, 6, kicked ? { v, h } : undefined);
        expect(Array.from(f)).toEqual([7, 7, 7, want, want, want, 7, 7, 7]);
        expect(Array.from(v)).toEqual(kicked ? [1, 1, 1, 1 + 0.5 * want, 2 + 0.25 * want, 3 + 2 * want, 1, 1, 1] : [1, 1, 1, 1, 2, 3, 1, 1, 1]);
        expect(ss).toBe(want * want + want * want + want * want);
      }
    }
    // f32 parts (an f32 kernel's forces): widened exactly, then summed in f64.
    const a = Float32Array.of(0, 0, 0, 0.1, 1e7, -3.25, 0, 0, 0);
    const b = Float32Array.of(0, 0, 0, 0.2, 1.5, 1e-8, 0, 0, 0);
    const f = new Float64Array(9);
    sumParts(f, [a, b], 3, 6);
    expect(Array.from(f.subarray(3, 6))).toEqual([a[3]! + b[3]!, a[4]! + b[4]!, a[5]! + b[5]!]);
    expect(f[3]).not.toBe(Math.fround(a[3]! + b[3]!)); // f64 sums, not f32 ones
    expect(() => sumParts(f, [a], 3, 6)).toThrow(/1 part/);
  });

  it('handBack: writes a range back with its bits (f32 and f64, NaN payloads and -0 too) and nothing else', () => {
    for (const make of [(n: number) => new Float32Array(new SharedArrayBuffer(4 * n)), (n: number) => new Float64Array(new SharedArrayBuffer(8 * n))]) {
      for (const n of [10, 3000]) {
        const a = make(n);
        for (let i = 0; i < n; i++) a[i] = Math.sin(i) * 1e3;
        a[1] = -0;
        const dv = new DataView(a.buffer);
        if (a instanceof Float32Array) dv.setUint32(4 * 2, 0x7fc0beef, true);
        else dv.setBigUint64(8 * 2, 0x7ff8_0000_dead_beefn, true);
        const before = new Uint8Array(a.buffer).slice();
        handBack(a, 1, n - 1);
        handBack(a, 5, 5);
        expect(new Uint8Array(a.buffer)).toEqual(before);
      }
    }
  });

  it('HandBackChoice: times windows with and without, keeps the faster, and times both again every `retry` calls', () => {
    // A simulated host: each period is set by the mode of the call that starts it, plus a slow
    // (search) step every 10th call, which the windows' fastest periods leave out.
    const run = (c: HandBackChoice, calls: number, cost: (on: boolean) => number, t0 = 0): { t: number; modes: boolean[] } => {
      let t = t0;
      const modes: boolean[] = [];
      for (let k = 0; k < calls; k++) {
        const on = c.next(t);
        modes.push(on);
        t += cost(on) + (k % 10 === 0 ? 5 : 0);
      }
      return { t, modes };
    };
    const W = 4;
    const slowOff = (on: boolean) => (on ? 3.3 : 3.7); // the host's slow hand-over: handing back pays
    const fastOff = (on: boolean) => (on ? 3.3 : 3.2); // the fast one: it costs a little
    const c = new HandBackChoice(W, 50);
    // the first trial: on, off, on, off (W + 1 calls each)
    let r = run(c, 4 * (W + 1), slowOff);
    expect(r.modes).toEqual([...Array(W + 1).fill(true), ...Array(W + 1).fill(false), ...Array(W + 1).fill(true), ...Array(W + 1).fill(false)]);
    r = run(c, 40, slowOff, r.t);
    expect(r.modes.every((m) => m)).toBe(true);
    expect(c.on).toBe(true);
    // the host changes: at the next retry the other mode wins and stays
    r = run(c, 40, fastOff, r.t);
    expect(c.on).toBe(false);
    expect(r.modes.slice(-10).every((m) => !m)).toBe(true);
    expect(c.calls).toBe(100);
    expect(c.onCalls).toBeGreaterThan(40);
    expect(c.onCalls).toBeLessThan(c.calls);
    // with the fast host from the start, the choice is off after the first trial
    const d = new HandBackChoice(W, 1000);
    run(d, 4 * (W + 1) + 30, fastOff);
    expect(d.on).toBe(false);
  });

  it('runWasmShare: a thread zeroes its outputs, then computes the chunks it claims until none is left; with the fixed split its own range', () => {
    let ranges: [number, number][] = [];
    let zeroed = 0;
    const inst = { zero: () => void zeroed++, accumulate: (_p: unknown, e0: number, e1: number) => void ranges.push([e0, e1]) } as unknown as WasmMd;
    const bounds = Int32Array.from([0, 3, 3, 10, 11, 20]);
    const next = new Int32Array(new SharedArrayBuffer(4));
    runWasmShare(inst, {} as never, bounds, next, 0);
    expect(zeroed).toBe(1);
    expect(ranges).toEqual([[0, 3], [3, 3], [3, 10], [10, 11], [11, 20]]);
    expect(Atomics.load(next, 0)).toBe(bounds.length); // its last claim found nothing left
    // Another thread has claimed chunks 0 and 1: this one computes the rest.
    ranges = [];
    Atomics.store(next, 0, 2);
    runWasmShare(inst, {} as never, bounds, next, 0);
    expect(ranges).toEqual([[3, 10], [10, 11], [11, 20]]);
    ranges = [];
    runWasmShare(inst, {} as never, bounds, undefined, 3);
    expect(ranges).toEqual([[10, 11]]);
    expect(zeroed).toBe(3);
  });
});
