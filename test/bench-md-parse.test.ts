// `kernforge bench md` compares where a step's time goes with its peers' own breakdowns (issue 16):
// LAMMPS's timing breakdown (plain and `-sf opt`) and GROMACS's cycle accounting mapped onto
// kernforge's phases, the aligned table and the "limits" line, on recorded real output.
import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { parseLammpsOutput } from '../bench/md-workload.ts';
import { parseMdLog } from '../bench/md-gromacs.ts';
import { gromacsPhases, handBackText, lammpsPhases, limitsLine, oursPhases, systemTable, threadsLimitsLine, GROMACS_ROWS, LAMMPS_ROWS, type PhaseSplit } from '../bench/md-phases.ts';

const fixture = (f: string) => readFileSync(new URL(`fixtures/bench/${f}`, import.meta.url), 'utf8');

describe('LAMMPS log: -sf opt and the full breakdown', () => {
  it('the OPT package run (lmp -sf opt, in.lj 256 atoms, 100 steps) names lj/cut/opt and every row, Other from its avg column', () => {
    const r = parseLammpsOutput(fixture('lammps-in.lj-sf-opt.txt'));
    expect(r.available).toBe(true);
    expect(r.pairStyle).toBe('lj/cut/opt');
    expect(r.steps).toBe(100);
    expect(r.seconds).toBeCloseTo(0.00919301, 12);
    expect(r.breakdown).toEqual({ Pair: 0.0060595, Neigh: 0.0021389, Comm: 0.00072827, Output: 4.0431e-5, Modify: 0.00014784, Other: 7.805e-5 });
  });
  it('the plain run names lj/cut and reads Other (only an avg column)', () => {
    const r = parseLammpsOutput(fixture('lammps-in.lj.out'));
    expect(r.pairStyle).toBe('lj/cut');
    expect(r.breakdown.Other).toBeCloseTo(0.000147, 12);
  });
  it('phases per step: Pair, Neigh, Modify; other is the loop time less those (= Comm + Output + Other)', () => {
    const r = parseLammpsOutput(fixture('lammps-in.lj-sf-opt.txt'));
    const p = lammpsPhases(r.breakdown, r.seconds, r.steps);
    expect(p.kernel).toBeCloseTo(0.060595, 9);
    expect(p.search).toBeCloseTo(0.021389, 9);
    expect(p.integrate).toBeCloseTo(0.0014784, 9);
    expect(p.mesh).toBe(0);
    expect(p.total).toBeCloseTo(0.0919301, 9);
    // LAMMPS prints 5 significant digits per row: the remainder agrees with the rows' sum to that
    expect(p.other).toBeCloseTo((1000 * (0.00072827 + 4.0431e-5 + 7.805e-5)) / 100, 6);
  });
});

describe('GROMACS md.log: phases', () => {
  it('PME water: Force + NB X/F buffer ops., Neighbor search + Domain decomp., PME mesh, Update + Constraints; other = Rest', () => {
    const g = parseMdLog(fixture('gromacs-2022-pme-md.txt'));
    const p = gromacsPhases(g.rowsMsPerStep, g.msPerStep);
    const ms = (s: number) => (1000 * s) / 101;
    expect(p.kernel).toBeCloseTo(ms(6.139 + 0.007), 9);
    expect(p.search).toBeCloseTo(ms(0.932 + 0.08), 9);
    expect(p.mesh).toBeCloseTo(ms(1.093), 9);
    expect(p.integrate).toBeCloseTo(ms(0.022 + 0.049), 9);
    expect(p.total).toBeCloseTo(ms(8.377), 9);
    // the PME breakdown rows (spread, gather, 3D-FFT, solve) are inside 'PME mesh', not added again
    expect(p.other).toBeCloseTo(ms(0.055), 9);
  });
  it('reaction field: no mesh', () => {
    const g = parseMdLog(fixture('gromacs-2022-md.txt'));
    const p = gromacsPhases(g.rowsMsPerStep, g.msPerStep);
    expect(p.mesh).toBe(0);
    expect(p.kernel).toBeCloseTo((1000 * 2.187) / 201 + (g.rowsMsPerStep['NB X/F buffer ops.'] ?? NaN), 9);
    expect(p.kernel + p.search + p.integrate + p.other).toBeCloseTo(p.total, 9);
  });
});

describe('phase table and limits', () => {
  const ours = oursPhases({ msPerStep: 20, kernelMs: 13, searchMs: 4.5, integrateMs: 1.5 });
  const two = oursPhases({ msPerStep: 12.5, kernelMs: 7, searchMs: 3.5, integrateMs: 1.25 });
  const peer: PhaseSplit = { kernel: 9.75, search: 2.25, mesh: 0, integrate: 0.5, other: 1, total: 13.5 };
  it('kernforge other is the whole step less the named phases', () => {
    expect(ours.other).toBeCloseTo(1, 12);
    expect(ours.mesh).toBe(0);
  });
  it('one aligned row per phase (no mesh row without a mesh), the peer over kernforge and the threads speed-up', () => {
    const t = systemTable(ours, { threads: 2, split: two }, [{ label: 'GROMACS', ratioLabel: 'vs GROMACS', split: peer }]);
    expect(t).toHaveLength(6);
    expect(t[0]!.trim().split(/\s{2,}/)).toEqual(['ms/step', 'kernforge 1T', 'kernforge 2T', 'GROMACS', 'vs GROMACS', '2T speed-up']);
    expect(t[1]!.trim().split(/\s{2,}/)).toEqual(['kernel (non-bonded)', '13.00', '7.00', '9.75', '0.75x', '1.86x']);
    expect(t[2]!.trim().split(/\s{2,}/)).toEqual(['pair search', '4.50', '3.50', '2.25', '0.50x', '1.29x']);
    expect(t[5]!.trim().split(/\s{2,}/)).toEqual(['whole step', '20.00', '12.50', '13.50', '0.68x', '1.60x']);
    expect(new Set(t.map((l) => l.length)).size).toBe(1);
    const mesh = systemTable({ ...ours, mesh: 2 }, undefined, [{ label: 'GROMACS', ratioLabel: 'vs GROMACS', split: { ...peer, mesh: 1 } }]);
    expect(mesh[3]!.trim().split(/\s{2,}/)).toEqual(['mesh (PME)', '2.00', '1.00', '0.50x']);
  });
  it('limits names the phase with the most time over the peer, then the others over it', () => {
    expect(limitsLine(ours, peer, 'GROMACS', GROMACS_ROWS)).toBe(
      "limits: kernel (non-bonded), 3.25 ms/step over GROMACS's Force + NB X/F buffer ops. (0.75x); then pair search +2.25 ms (0.50x), integration + constraints +1.00 ms (0.33x); whole step 0.68x",
    );
    const faster: PhaseSplit = { kernel: 20, search: 5.5, mesh: 0, integrate: 2.5, other: 1.6, total: 29.6 };
    expect(limitsLine(ours, faster, 'LAMMPS -sf opt', LAMMPS_ROWS)).toBe("limits: no phase costs more than LAMMPS -sf opt's (least margin: other, 0.60 ms/step under, 1.60x); whole step 1.48x");
  });
  it('threads limits: each phase over an even split of the single thread, the worst first', () => {
    expect(threadsLimitsLine(ours, two, 2)).toBe(
      "limits on 2 threads, time over 1/2 of one thread's (speed-up): pair search +1.25 ms (1.29x), kernel (non-bonded) +0.50 ms (1.86x), integration + constraints +0.50 ms (1.20x), other +0.25 ms (1.33x); whole step 1.60x (ideal 2.00x)",
    );
    const half: PhaseSplit = { kernel: 6.5, search: 2.25, mesh: 0, integrate: 0.75, other: 0.5, total: 10 };
    expect(threadsLimitsLine(ours, half, 2)).toBe("limits on 2 threads: every phase at or under 1/2 of one thread's; whole step 2.00x (ideal 2.00x)");
    // with the machine's ceiling measured beside the runs (bench/ceiling.ts)
    expect(threadsLimitsLine(ours, two, 2, 1.8421)).toMatch(/; whole step 1\.60x \(ideal 2\.00x; independent compute loops 1\.84x in the same rounds\)$/);
    expect(threadsLimitsLine(ours, two, 2, NaN)).toMatch(/; whole step 1\.60x \(ideal 2\.00x\)$/);
  });
  it('the hand-back phrase of a threaded round: the calls that handed lines back, nothing on one thread', () => {
    expect(handBackText({ on: 13, calls: 1000 })).toBe('; lines handed back between the cores in 13 of 1000 force calls');
    expect(handBackText(undefined)).toBe('');
    expect(handBackText({ on: 0, calls: 0 })).toBe('');
  });
  it('the mesh beside the kernels on a worker: kernel and mesh compared together, not the kernel alone against kernel + mesh', () => {
    // bench md's PME water of 2026-11-24 12:29 UTC: 1 thread kernel 13.47 + mesh 3.69; 2 threads kernel + mesh 9.82
    const one = oursPhases({ msPerStep: 19.49, kernelMs: 13.47, searchMs: 1.96, meshMs: 3.69, integrateMs: 0.28 });
    const two2 = oursPhases({ msPerStep: 11.99, kernelMs: 9.82, searchMs: 1.76, meshMs: 0, integrateMs: 0.33, meshOnWorker: true });
    expect(two2.kernelMesh).toBe(9.82);
    expect(two2.other).toBeCloseTo(0.08, 12);
    const gmx: PhaseSplit = { kernel: 9.52, search: 1.6, mesh: 1.53, integrate: 0.13, other: 0.04, total: 12.82 };
    const t = systemTable(one, { threads: 2, split: two2 }, [{ label: 'GROMACS', ratioLabel: 'vs GROMACS', split: gmx }]);
    expect(t.map((l) => l.trim().split(/\s{2,}/))).toEqual([
      ['ms/step', 'kernforge 1T', 'kernforge 2T', 'GROMACS', 'vs GROMACS', '2T speed-up'],
      ['kernel (non-bonded)', '13.47', '-', '9.52', '0.71x', '-'],
      ['pair search', '1.96', '1.76', '1.60', '0.82x', '1.11x'],
      ['mesh (PME)', '3.69', '-', '1.53', '0.41x', '-'],
      ['kernel + mesh', '17.16', '9.82', '11.05', '0.64x', '1.75x'],
      ['integration + constraints', '0.28', '0.33', '0.13', '0.46x', '0.85x'],
      ['other', '0.09', '0.08', '0.04', '0.44x', '1.12x'],
      ['whole step', '19.49', '11.99', '12.82', '0.66x', '1.63x'],
    ]);
    expect(threadsLimitsLine(one, two2, 2)).toBe(
      "limits on 2 threads, time over 1/2 of one thread's (speed-up): kernel + mesh +1.24 ms (1.75x), pair search +0.78 ms (1.11x), integration + constraints +0.19 ms (0.85x), other +0.04 ms (1.12x); whole step 1.63x (ideal 2.00x)",
    );
  });
});

describe('the machine\'s ceiling beside the threaded runs (bench/ceiling.ts)', () => {
  it('independent compute loops: a ratio between 0 and t for each thread count after measure(), none before, none without threads', async () => {
    const { Ceiling, ceilingFor, ceilingText } = await import('../bench/ceiling.ts');
    expect(ceilingFor([1])).toBeUndefined();
    expect(ceilingText(undefined, 2)).toBe('');
    const c = new Ceiling([2]);
    expect(c.ratio(2)).toBeNaN();
    expect(ceilingText(c, 2)).toBe('');
    await c.measure(2);
    await c.measure(1);
    expect(c.ratio(1)).toBe(1);
    // two loops on two threads: at least one loop's work in one loop's time (one core at worst), at most two (plus timer noise)
    expect(c.ratio(2)).toBeGreaterThan(0.8);
    expect(c.ratio(2)).toBeLessThan(2.2);
    // and the hand-over writes, measured with the 2-thread loops
    const h = c.handover!;
    expect(h.afterShared).toBeGreaterThan(0);
    expect(h.afterOwn).toBeGreaterThan(0);
    // a 384 KiB write takes microseconds, not milliseconds, even with every line taken back from the other core
    expect(h.afterOwn).toBeLessThan(5000);
    expect(h.afterShared).toBeLessThan(20000);
    expect(h.afterSharedMax).toBeGreaterThanOrEqual(h.afterShared);
    expect(h.afterHandBack).toBeGreaterThan(0);
    expect(h.afterHandBack).toBeLessThan(20000);
    expect(ceilingText(c, 2)).toMatch(/^; independent compute loops \d\.\d\dx in the same rounds; a thread's write of half a 768 KiB array its partner had just read: \d+(-\d+ us over the rounds| us), \d+ us when it had not \(\d+\.\d(-\d+\.\d)?x, cross-core coherence\), \d+ us when the partner had written its lines back$/);
  });

  it('the hand-over phrase: none before a measurement, the ratio of the two writes after', async () => {
    const { handoverPhrase } = await import('../bench/ceiling.ts');
    expect(handoverPhrase(undefined)).toBe('');
    expect(handoverPhrase({ afterShared: Infinity, afterOwn: 20 })).toBe('');
    expect(handoverPhrase({ afterShared: 180.4, afterOwn: 20 })).toBe("; a thread's write of half a 768 KiB array its partner had just read: 180 us, 20 us when it had not (9.0x, cross-core coherence)");
    expect(handoverPhrase({ afterShared: 180.4, afterOwn: 20, afterSharedMax: 180.2 })).toBe("; a thread's write of half a 768 KiB array its partner had just read: 180 us, 20 us when it had not (9.0x, cross-core coherence)");
    expect(handoverPhrase({ afterShared: 28, afterOwn: 14, afterSharedMax: 163 })).toBe("; a thread's write of half a 768 KiB array its partner had just read: 28-163 us over the rounds, 14 us when it had not (2.0-11.6x, cross-core coherence)");
    expect(handoverPhrase({ afterShared: 163, afterOwn: 14, afterHandBack: 16.2 })).toBe("; a thread's write of half a 768 KiB array its partner had just read: 163 us, 14 us when it had not (11.6x, cross-core coherence), 16 us when the partner had written its lines back");
  });
});

describe('bench md candidates and picks', () => {
  it('every LJ and water candidate is a point of the space, the wasm ones in the generated library', async () => {
    const { LJ_CANDIDATES, WATER_CANDIDATES } = await import('../bench/md-workload.ts');
    const { libraryKeys, variantParams } = await import('../runtime/variants.ts');
    const lib = new Set(libraryKeys('md-nonbonded', 'wasm'));
    for (const k of [...LJ_CANDIDATES, ...WATER_CANDIDATES]) {
      expect((await variantParams(k)).cluster, k).toMatch(/^\dx\d$/);
      if (k.includes('.wasm.')) expect(lib.has(k), k).toBe(true);
    }
    expect(LJ_CANDIDATES.some((k) => k.includes('.f64.f.2x2.') && k.includes('.wasm.'))).toBe(true);
    expect(LJ_CANDIDATES.some((k) => k.includes('.f32.') && k.endsWith('.relaxed'))).toBe(true);
  });
  it('finalists: the best few of a group by the given time, fastest first, the others left out', async () => {
    const { finalistsOf } = await import('../bench/md-workload.ts');
    const ts = [{ key: 'a', ms: 7.9 }, { key: 'b', ms: 6.2 }, { key: 'c', ms: 9.4 }, { key: 'd', ms: 6.9 }, { key: 'e', ms: 7.1 }];
    expect(finalistsOf(ts, (t) => t.ms).map((t) => t.key)).toEqual(['b', 'd', 'e']);
    expect(finalistsOf(ts, (t) => t.ms, 1).map((t) => t.key)).toEqual(['b']);
    // the input order is left as it was
    expect(ts.map((t) => t.key).join('')).toBe('abcde');
  });
});
