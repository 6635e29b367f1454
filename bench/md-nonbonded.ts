// md-nonbonded benchmark (seed 001, Table 1/3 and Fig. 4 in kind): for a water box with
// reaction-field, rc 1.0 nm, every cluster shape on every target: pair rate, fraction of the
// computed pairs inside the cut-off, effective rate (pairs inside the cut-off per second),
// each as a ratio to the 1x1 variant of the same target and precision timed in the same run.
// Every variant is verified against the f64 reference before it is timed.
import { variantParams } from '../runtime/variants.ts';
import { waterBox, type MdSystem } from '../runtime/md/system.ts';
import { MdProblem } from '../runtime/md/problem.ts';
import { MD_TARGETS } from '../runtime/md/targets.ts';
import { verifyVariant, settingsOf } from '../runtime/md/verify.ts';
import { verificationCases } from '../runtime/md/cases.ts';
import { probeGpu } from '../runtime/backends/webgpu.ts';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

// A full garbage collection before each warm-up keeps collections of earlier garbage
// (pair-list building allocates a lot) out of the measurements.
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

const SHAPES = ['1x1', '2x2', '4x2', '4x4', '4x8', '8x4', '8x8'];

export interface BenchOptions {
  molecules: number;
  reps: number;
  targets: string[];
  precisions: string[];
  rc?: number;
  rlist?: number;
  /** Print every variant, not only the fastest handling per shape (default true). */
  full?: boolean;
}

export interface BenchRow {
  key: string;
  target: string;
  precision: string;
  shape: string;
  handling: string;
  computedPairs: number;
  inCutoff: number;
  seconds: number;
  spread: number;
}

// The fastest of the repetitions: interference (other processes, the VM) only ever adds time.
const fastest = (xs: number[]): number => Math.min(...xs);
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Atom pairs closer than rc (minimum image), counted with a cell grid. */
export function pairsWithin(sys: MdSystem, rc: number): number {
  const n = sys.q.length;
  const nc = sys.box.map((L) => Math.max(3, Math.floor(L / rc)));
  const cells = new Map<number, number[]>();
  const cellOf = (a: number, d: number): number => {
    const L = sys.box[d]!;
    const v = sys.x[3 * a + d]! - L * Math.floor(sys.x[3 * a + d]! / L);
    return Math.min(nc[d]! - 1, Math.floor((v / L) * nc[d]!));
  };
  for (let a = 0; a < n; a++) {
    const k = (cellOf(a, 0) * nc[1]! + cellOf(a, 1)) * nc[2]! + cellOf(a, 2);
    if (!cells.has(k)) cells.set(k, []);
    cells.get(k)!.push(a);
  }
  let count = 0;
  const rc2 = rc * rc;
  for (let a = 0; a < n; a++) {
    const c = [cellOf(a, 0), cellOf(a, 1), cellOf(a, 2)];
    const seen = new Set<number>();
    for (let dx = -1; dx <= 1; dx++) for (let dy = -1; dy <= 1; dy++) for (let dz = -1; dz <= 1; dz++) {
      const k = (((c[0]! + dx + nc[0]!) % nc[0]!) * nc[1]! + ((c[1]! + dy + nc[1]!) % nc[1]!)) * nc[2]! + ((c[2]! + dz + nc[2]!) % nc[2]!);
      if (seen.has(k)) continue;
      seen.add(k);
      for (const b of cells.get(k) ?? []) {
        if (b <= a) continue;
        let d2 = 0;
        for (let d = 0; d < 3; d++) {
          let v = sys.x[3 * a + d]! - sys.x[3 * b + d]!;
          v -= sys.box[d]! * Math.round(v / sys.box[d]!);
          d2 += v * v;
        }
        if (d2 < rc2) count++;
      }
    }
  }
  return count;
}

/**
 * Variants timed per shape: exclusion x cut-off handling (mask/branch) on TS; on WGSL the
 * entry scheme with both cut-off handlings and the pair scheme (super-clusters) with masks.
 */
function keysFor(target: string, precision: string, shape: string): string[] {
  // TS 1x1 keys name the neighbour list too: the half list is the one this benchmark builds.
  const base = `md-nonbonded.${target}.lj-rf.geom.shift.${precision}.f.${shape}${target === 'ts' && shape === '1x1' ? '.half' : ''}`;
  if (target === 'wgsl') {
    return [`${base}.mask.mask.entry.workgroup64.jsplit1`, `${base}.mask.branch.entry.workgroup64.jsplit1`, `${base}.mask.mask.pair.workgroup256`];
  }
  return ['mask.mask', 'mask.branch', 'branch.mask', 'branch.branch'].map((h) => `${base}.${h}`);
}

/**
 * Time one variant on its target's runner (runtime/md/targets.ts): two warm-up calls (JIT;
 * WGSL: the pipeline and first dispatch), then `reps` timed ones (each zeroes the outputs and
 * makes one kernel call; WGSL: one dispatch, waited for).
 */
async function timeVariant(key: string, target: string, problem: MdProblem, reps: number): Promise<number[]> {
  const prep = await MD_TARGETS.get(target, 'bench md-nonbonded').prepare(key, problem);
  try {
    collect();
    await prep.run(); // warm-up: JIT compilation
    await prep.run();
    const times: number[] = [];
    for (let r = 0; r < reps; r++) {
      const t0 = performance.now();
      await prep.run();
      times.push((performance.now() - t0) / 1000);
    }
    return times;
  } finally {
    await prep.dispose();
  }
}

/** Run the benchmark and print its table; returns the rows. */
export async function benchMdNonbonded(o: BenchOptions): Promise<BenchRow[]> {
  const rc = o.rc ?? 1.0;
  const rlist = o.rlist ?? 1.1;
  const sys = waterBox(o.molecules, 1);
  const inCutoff = pairsWithin(sys, rc);
  console.log(`water box: ${o.molecules} SPC/E molecules (${sys.q.length} atoms), box ${sys.box[0].toFixed(3)} nm, reaction-field, rc ${rc} nm, rlist ${rlist} nm`);
  console.log(`atom pairs inside the cut-off: ${inCutoff}`);
  const targets = [...o.targets];
  if (targets.includes('wgsl')) {
    const g = await probeGpu();
    if (!g.ok) {
      console.log(`WGSL skipped: ${g.why}`);
      targets.splice(targets.indexOf('wgsl'), 1);
    } else console.log(`WGSL adapter: ${g.name}`);
  }
  const settings = await settingsOf(keysFor('ts', 'f64', '1x1')[0]!, rc);
  const rows: BenchRow[] = [];
  const cases = verificationCases('quick');
  for (const shape of SHAPES) {
    const [M, N] = shape.split('x').map(Number) as [number, number];
    const t0 = performance.now();
    const problem = new MdProblem(sys, settings, M, N, rlist);
    const buildS = (performance.now() - t0) / 1000;
    process.stdout.write(`  ${shape}: list built in ${buildS.toFixed(2)} s (${problem.list.stats.clusterPairs} cluster pairs)\n`);
    for (const target of targets) {
      const precisions = target === 'wgsl' ? ['f32'] : o.precisions;
      for (const precision of precisions) {
        for (const key of keysFor(target, precision, shape)) {
          for (const c of cases) {
            const dev = await verifyVariant(key, c);
            if (!dev.ok) throw new Error(`${key} failed verification on ${c.name}: ${dev.detail}`);
          }
          const times = await timeVariant(key, target, problem, o.reps);
          const best = fastest(times);
          rows.push({
            key,
            target,
            precision,
            shape,
            handling: await handlingOf(key),
            computedPairs: problem.list.stats.computedPairs,
            inCutoff,
            seconds: best,
            spread: (median(times) - best) / best,
          });
        }
      }
    }
  }
  printTable(rows, o.full ?? true);
  return rows;
}

function printTable(rows: BenchRow[], full: boolean): void {
  const group = (r: BenchRow): string => `${r.target}.${r.precision}`;
  const best = (rs: BenchRow[]): BenchRow => rs.reduce((a, b) => (a.seconds <= b.seconds ? a : b));
  const base = new Map<string, BenchRow>();
  for (const g of new Set(rows.map(group))) base.set(g, best(rows.filter((r) => group(r) === g && r.shape === '1x1')));
  const header = ['target', 'prec', 'MxN', 'excl/cut-off[/scheme]', 'computed pairs', 'in cut-off', 'ms/call (min)', 'median +', 'Mpairs/s', 'eff. Mpairs/s', 'eff. vs 1x1'];
  const line = (r: BenchRow): string[] => {
    const b = base.get(group(r))!;
    const eff = r.inCutoff / r.seconds;
    return [
      r.target,
      r.precision,
      r.shape,
      r.handling,
      String(r.computedPairs),
      `${((100 * r.inCutoff) / r.computedPairs).toFixed(1)}%`,
      (r.seconds * 1000).toFixed(1),
      `${(100 * r.spread).toFixed(0)}%`,
      (r.computedPairs / r.seconds / 1e6).toFixed(1),
      (eff / 1e6).toFixed(1),
      `${(eff / (b.inCutoff / b.seconds)).toFixed(2)}x`,
    ];
  };
  const print = (title: string, rs: BenchRow[]): void => {
    const body = rs.map(line);
    const w = header.map((h, i) => Math.max(h.length, ...body.map((r) => r[i]!.length)));
    const fmt = (r: string[]) => `| ${r.map((c, i) => (i < 4 ? c.padEnd(w[i]!) : c.padStart(w[i]!))).join(' | ')} |`;
    console.log(['', title, '', fmt(header), `|${w.map((x, i) => (i < 4 ? `:${'-'.repeat(x + 1)}` : `${'-'.repeat(x + 1)}:`)).join('|')}|`, ...body.map(fmt)].join('\n'));
  };
  if (full) print('All variants (ratios against the fastest 1x1 variant of the same target and precision):', rows);
  const bestPerShape: BenchRow[] = [];
  for (const g of base.keys()) for (const sh of SHAPES) {
    const rs = rows.filter((r) => group(r) === g && r.shape === sh);
    if (rs.length > 0) bestPerShape.push(best(rs));
  }
  print('Fastest handling per shape (ratios against the fastest 1x1 variant of the same target and precision):', bestPerShape);
  console.log('');
  for (const [g, b] of base) {
    const top = best(rows.filter((r) => group(r) === g));
    console.log(`best ${g}: ${top.shape} ${top.handling}, effective rate ${(b.seconds / top.seconds).toFixed(2)}x the fastest 1x1 variant`);
  }
  const cpu = rows.filter((r) => r.target === 'ts');
  if (cpu.length > 0) {
    const top = best(cpu);
    const b1 = best(cpu.filter((r) => r.shape === '1x1'));
    console.log(`best CPU variant: ${top.key}: ${(b1.seconds / top.seconds).toFixed(2)}x the fastest CPU 1x1 (${b1.key}) (goal 2x)`);
  }
}

/** The handling axes of a variant after its cluster shape (excl, cutoff; WGSL: scheme, workgroup, jsplit), read through the spec. */
async function handlingOf(key: string): Promise<string> {
  const p = await variantParams(key);
  return ['excl', 'cutoff', 'scheme', 'workgroup', 'jsplit'].filter((a) => a in p).map((a) => String(p[a])).join('/');
}
