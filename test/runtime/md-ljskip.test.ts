// LJ skipping in the wasm md-nonbonded kernels: clusters hold their LJ atoms first where at most half
// have LJ (runtime/md/clusters.ts, GROMACS's sort_cluster_on_flag), and each i-entry runs the j loop
// with LJ for the shortest prefix of i-atoms that covers every i-atom with LJ parameters. Skipping
// only drops terms that are exactly zero, so the forces must equal, bit for bit, those of the same
// kernel built without any skip; and they must pass the gate on a system whose i-clusters mix LJ and
// non-LJ atoms in every pattern (LJ atoms first, and more than half with LJ and a gap before the last).
import { describe, it, expect } from 'vitest';
import { buildClusters, ljAtoms } from '../../runtime/md/clusters.ts';
import { MdProblem } from '../../runtime/md/problem.ts';
import { waterBox, type MdSystem } from '../../runtime/md/system.ts';
import { runWasm, runWasmWith } from '../../runtime/md/wasm.ts';
import { verifyVariant, settingsOf } from '../../runtime/md/verify.ts';
import { mdShape } from '../../runtime/md/kernels.ts';
import { probeWasmRelaxedSimd } from '../../runtime/backends/wasm.ts';
import { assembleWat } from '../../generator/index.ts';
import { loadAndValidate, SPEC_ROOT } from '../../generator/generate.ts';
import { parseVariantKey } from '../../generator/space.ts';
import { mdNonbonded } from '../../generator/families/md-nonbonded.ts';
import { loadTemplates } from '../../generator/render.ts';

/** SPC/E water in which about half the hydrogens get LJ parameters (a third type), chosen by a fixed hash. */
function mixedWater(): MdSystem {
  const w = waterBox(216, 3);
  const type = Int32Array.from(w.type, (t, a) => (t === 1 && ((a * 2654435761) >>> 0) % 7 < 4 ? 2 : t));
  return { ...w, type, ljTypes: [...w.ljTypes, { sigma: 0.2, epsilon: 0.3 }] };
}

/** How the i-clusters of a layout hold their LJ atoms: count by kind. */
function patterns(sys: MdSystem, M: number, N: number): Record<'none' | 'prefix1' | 'prefix2' | 'gap' | 'notFirst', number> {
  const L = buildClusters(sys, M, N, { ljFirst: ljAtoms(sys) });
  const lj = ljAtoms(sys);
  const out = { none: 0, prefix1: 0, prefix2: 0, gap: 0, notFirst: 0 };
  for (let c = 0; c < L.nPadded / M; c++) {
    const has = Array.from({ length: M }, (_, i) => L.atomOf[c * M + i]! >= 0 && lj[L.atomOf[c * M + i]!]!);
    const n = has.filter(Boolean).length;
    const last = has.lastIndexOf(true);
    if (n === 0) out.none++;
    else if (2 * n <= M && last !== n - 1) out.notFirst++;
    else if (last === 0) out.prefix1++;
    else if (last === 1 && n === 2) out.prefix2++;
    else if (last === M - 1 && n < M) out.gap++;
  }
  return out;
}

const spec = loadAndValidate(SPEC_ROOT + 'md-nonbonded.yaml');
const templates = loadTemplates('wasm', 'md-nonbonded');

type WasmCtx = { M: number; wasm: { ljLoops: { pairs: Record<string, unknown>[] }[] } } & Record<string, unknown>;

/** The variant's generator context, its wasm part changed by `edit`, rendered and assembled (test builds). */
async function buildWith(key: string, edit: (ctx: WasmCtx) => Record<string, unknown>, banner: string): Promise<Uint8Array> {
  const ctx = mdNonbonded.context(spec, parseVariantKey(spec, key)) as WasmCtx;
  return assembleWat(`${key}.test.wat`, templates.kernel({ ...ctx, wasm: { ...ctx.wasm, ...edit(ctx) }, key, banner: `;; ${banner} (test)` }));
}

/** One j loop over the last LJ loop's pairs, changed by `pair` (LJ for every i-atom: no skip). */
const oneLoop = (ctx: WasmCtx, what: string, pair: (x: Record<string, unknown>) => Record<string, unknown>): Record<string, unknown> => ({
  ljLoops: [{ p: ctx.M, first: true, last: true, what, pairs: ctx.wasm.ljLoops.at(-1)!.pairs.map(pair) }],
  ljClose: '',
});

/** The variant's kernel built with one j loop computing LJ for every i-atom (no skip at all). */
const noSkipBuild = (key: string): Promise<Uint8Array> =>
  buildWith(key, (ctx) => oneLoop(ctx, 'LJ for every i-atom (no skip)', (x) => ({ ...x, lj: true, ljBranch: false })), 'no-skip build');

/**
 * The variant's kernel with its LJ skip, its RF term of the i-atoms without LJ computed as for those
 * with LJ (by 1/r^2 and 1/r): the library build takes force-only RF's qq/r^3 there as sqrt(r^2)
 * (qq/r^4), another rounding, so this is the build whose forces the no-skip build must equal bit for bit.
 */
const skipBuildSameTerms = (key: string): Promise<Uint8Array> =>
  buildWith(key, (ctx) => ({ ljLoops: ctx.wasm.ljLoops.map((l) => ({ ...l, pairs: l.pairs.map((x) => ({ ...x, rf3: false })) })) }), 'skip build, RF by 1/r^2 and 1/r');

const relaxed = probeWasmRelaxedSimd().ok;
const KEYS = [
  'md-nonbonded.wasm.lj-rf.geom.shift.f32.f.4x4.mask.mask.simd128',
  'md-nonbonded.wasm.lj-rf.geom.shift.f32.fev.4x4.mask.mask.simd128',
  'md-nonbonded.wasm.lj-ewald.geom.shift.f32.fev.tabulated.4x4.mask.mask.simd128',
  'md-nonbonded.wasm.lj-rf.geom.shift.f64.fev.4x4.mask.mask.simd128',
  'md-nonbonded.wasm.lj-rf.geom.shift.f32.fev.8x4.mask.mask.simd128',
  'md-nonbonded.wasm.lj-ewald.geom.shift.f64.fev.analytical.4x2.mask.mask.simd128',
  ...(relaxed ? ['md-nonbonded.wasm.lj-rf.geom.shift.f32.f.4x4.mask.mask.relaxed'] : []),
];

describe('LJ-first clusters', () => {
  it('hold the LJ atoms of an i-cluster first where at most half have LJ, leave the others in z order, and keep every cluster\'s atoms', () => {
    const sys = mixedWater();
    // every kind the kernel tells apart occurs: no LJ (water), LJ for atom 0, for atoms 0-1, and more than
    // half with LJ and a non-LJ atom before the last one (which the full loop must catch)
    const mixed = patterns(sys, 4, 4);
    const water = patterns(waterBox(216, 3), 4, 4);
    expect(mixed.notFirst + water.notFirst).toBe(0);
    for (const k of ['prefix1', 'prefix2', 'gap'] as const) expect(mixed[k], k).toBeGreaterThan(3);
    for (const k of ['none', 'prefix1', 'prefix2'] as const) expect(water[k], k).toBeGreaterThan(3);
    const plain = buildClusters(sys, 4, 4);
    const ordered = buildClusters(sys, 4, 4, { ljFirst: ljAtoms(sys) });
    for (let c = 0; c < plain.nPadded / 4; c++) {
      const set = (L: typeof plain) => [...L.atomOf.subarray(4 * c, 4 * c + 4)].sort((a, b) => a - b).join();
      expect(set(ordered)).toBe(set(plain));
    }
    for (let a = 0; a < sys.q.length; a++) {
      expect(ordered.atomOf[ordered.slotOf[a]!]).toBe(a);
      for (let d = 0; d < 3; d++) expect(ordered.x[3 * ordered.slotOf[a]! + d]).toBe(plain.x[3 * plain.slotOf[a]! + d]);
    }
    // M > N (a j-cluster is part of an i-cluster): the z order stays
    const wide = buildClusters(sys, 8, 4, { ljFirst: ljAtoms(sys) });
    expect([...wide.atomOf]).toEqual([...buildClusters(sys, 8, 4).atomOf]);
  });

  it('ljAtoms: epsilon 0 means no LJ, unless the system\'s C6/C12 table gives the type some', () => {
    const w = waterBox(27, 1);
    expect(ljAtoms(w).slice(0, 3)).toEqual([true, false, false]);
    const nbfp = new Float64Array(8);
    nbfp[2 * (1 * 2 + 0) + 1] = 1e-6; // C12 of type 1 with type 0
    expect(ljAtoms({ ...w, nbfp }).slice(0, 3)).toEqual([true, true, true]);
  });
});

describe('wasm kernels skipping LJ per i-cluster', () => {
  const sys = mixedWater();
  it.each(KEYS)('%s: forces and energies equal the no-skip build bit for bit, and pass the gate', async (key) => {
    const shape = await mdShape(key);
    const s = await settingsOf(key, 0.8);
    for (const w of [sys, waterBox(216, 3)]) {
      const p = new MdProblem(w, s, shape.M, shape.N, 0.85);
      const lib = await runWasm(key, p);
      const skip = await runWasmWith(key, p, await skipBuildSameTerms(key));
      const full = await runWasmWith(key, p, await noSkipBuild(key));
      let differ = 0;
      for (let k = 0; k < skip.f.length; k++) if (!Object.is(skip.f[k], full.f[k])) differ++;
      expect(differ).toBe(0);
      // The library build: the same forces up to f32 round-off (force-only RF: bit for bit only where no i-atom lacks LJ)
      let fmax = 0;
      let dmax = 0;
      for (let k = 0; k < lib.f.length; k++) {
        fmax = Math.max(fmax, Math.abs(skip.f[k]!));
        dmax = Math.max(dmax, Math.abs(lib.f[k]! - skip.f[k]!));
      }
      expect(dmax / fmax).toBeLessThan(shape.precision === 'f64' ? 1e-13 : 2e-6);
      if (shape.output !== 'f') expect([...lib.f]).toEqual([...skip.f]);
      expect(Object.is(skip.vdw, full.vdw) && Object.is(skip.coul, full.coul)).toBe(true);
      expect([...skip.virial]).toEqual([...full.virial]);
      if (shape.output !== 'f') expect(Math.abs(skip.vdw)).toBeGreaterThan(1);
    }
    const d = await verifyVariant(key, { name: 'mixed-lj-water', sys, rc: 0.8, rlist: 0.85 }, runWasm);
    expect(d.ok, d.detail).toBe(true);
  });

  it('the gate checks the RF term of the i-atoms without LJ: qq/r^2 in place of qq/r^4 fails it', async () => {
    const key = KEYS[0]!;
    const ctx = mdNonbonded.context(spec, parseVariantKey(spec, key)) as Record<string, unknown>;
    const good = templates.kernel({ ...ctx, key, banner: ';; library (test)' });
    const term = '(f32x4.div (local.get $qq) (f32x4.mul (local.get $r2) (local.get $r2)))';
    expect(good.split(term).length - 1).toBe(9);
    const bytes = await assembleWat('rf3.wat', good.replaceAll(term, '(f32x4.div (local.get $qq) (local.get $r2))'));
    for (const w of [sys, waterBox(216, 3)]) {
      const d = await verifyVariant(key, { name: 'water', sys: w, rc: 0.8, rlist: 0.85 }, (k, p) => runWasmWith(k, p, bytes));
      expect(d.ok).toBe(false);
    }
  });

  it('a wrong skip shows: dropping the LJ of the last i-atom changes the forces', async () => {
    const key = KEYS[0]!;
    const bytes = await buildWith(key, (ctx) => oneLoop(ctx, 'wrong', (x) => ({ ...x, lj: (x.i as number) < ctx.M - 1, ljBranch: false })), 'wrong');
    const d = await verifyVariant(key, { name: 'mixed-lj-water', sys, rc: 0.8, rlist: 0.85 }, (k, p) => runWasmWith(k, p, bytes));
    expect(d.ok).toBe(false);
  });
});
