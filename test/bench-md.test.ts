// The MD workload benchmark reads its peers' own timing reports: LAMMPS's loop time and
// breakdown, GROMACS's cycle and time accounting. Both parsers on recorded real output.
import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { parseLammpsOutput } from '../bench/md-workload.ts';
import { parseMdLog } from '../bench/md-gromacs.ts';

const fixture = (f: string) => readFileSync(new URL(`fixtures/bench/${f}`, import.meta.url), 'utf8');

describe('peer timing reports', () => {
  it('LAMMPS in.lj (256 atoms, 100 steps, lmp 29 Sep 2021)', () => {
    const r = parseLammpsOutput(fixture('lammps-in.lj.out'));
    expect(r.available).toBe(true);
    expect(r.version).toBe('29 Sep 2021 - Update 2');
    expect(r.seconds).toBeCloseTo(0.0318305, 10);
    expect(r.stepsPerSecond).toBeCloseTo(100 / 0.0318305, 6);
    expect(r.breakdown.Pair).toBeCloseTo(0.023663, 10);
    expect(r.breakdown.Neigh).toBeCloseTo(0.0068088, 10);
    expect(r.breakdown.Modify).toBeCloseTo(0.00028769, 10);
  });
  it('a LAMMPS output without a loop line is reported, not parsed as zero', () => {
    const r = parseLammpsOutput('ERROR: Unknown command: frobnicate');
    expect(r.available).toBe(false);
    expect(r.why).toMatch(/Loop time/);
  });
  it('GROMACS 2022 md.log accounting (12,177-atom SPC/E water, 201 timed steps)', () => {
    const r = parseMdLog(fixture('gromacs-2022-md.txt'));
    expect(r.timedSteps).toBe(201);
    expect(r.nonbondedMsPerStep).toBeCloseTo((1000 * 2.187) / 201, 9);
    expect(r.searchMsPerStep).toBeCloseTo((1000 * 0.489) / 201, 9);
    expect(r.nsPerDay).toBeCloseTo(12.609, 6);
    expect(r.kernel).toBe('SIMD 4x4 nonbonded short-range kernels, SSE4.1 (host supports AVX_512)');
  });
  it('GROMACS 2022 md.log accounting with PME on the CPU (12,177-atom SPC/E water, -pme cpu, 101 timed steps)', () => {
    const r = parseMdLog(fixture('gromacs-2022-pme-md.txt'));
    expect(r.timedSteps).toBe(101);
    expect(r.pmeMsPerStep).toBeCloseTo((1000 * 1.093) / 101, 9);
    expect(r.rowsMsPerStep['PME 3D-FFT']).toBeCloseTo((1000 * 0.484) / 101, 9);
    expect(r.rowsMsPerStep['PME spread']).toBeCloseTo((1000 * 0.226) / 101, 9);
    expect(r.msPerStep).toBeCloseTo((1000 * 8.377) / 101, 9);
    // reaction field: no PME row
    expect(parseMdLog(fixture('gromacs-2022-md.txt')).pmeMsPerStep).toBeNaN();
  });
});
