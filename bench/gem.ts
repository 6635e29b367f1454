// gem-potential benchmark (seed 003, Fig. 1b/4a in kind, CPU part of issue 4): the paper's
// optimization ladder on one core, each rung as a ratio to a plain C reference of the same
// formula (bench/gem/gem_ref.c) compiled with `gcc -O3 -march=native` and timed in the same run.
// Molecules: 1uwo_A (1441 atoms x 16529 vertices) and Mb.Hhelix; region 1 (p = 0), no salt,
// eps 80/1, as GEM's defaults; optionally region 3 (p = 3) for the C/TS comparison. Every TS
// variant and both C builds are checked against the f64 reference (model.ts) before timing.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { loadTsModule } from '../runtime/variants.ts';
import {
  readPqr, readVert, gemParams, gemReference, selectRegion, gemArgs, gemVariantInfo, checkVariant,
  type GemAtoms, type GemVertices, type GemParams, type GemRegion, type GemTsModule, type GemPrecision,
} from '../runtime/gem/index.ts';

// A full garbage collection before each warm-up keeps earlier garbage out of the measurements.
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

/** The bundled samples, beside the repository (shared/data/gem). */
export const GEM_DATA_DIR = new URL('../../shared/data/gem/', import.meta.url).pathname;
/** The C reference's source. */
export const GEM_REF_SOURCE = new URL('./gem/gem_ref.c', import.meta.url).pathname;
/** The paper's accuracy bar: RMSE of single-precision variants against the serial version. */
export const GEM_F32_RMSE = 8.4e-5;
/** f64 variants must match the f64 reference to this, relative to max |phi| (rounding order only). */
export const GEM_F64_RTOL = 1e-9;

export interface GemBenchOptions {
  /** Timed repetitions per variant after the warm-up (fastest counts; default 5). */
  reps?: number;
  /** Repetitions of the naive rung, which is slow (default 2). */
  naiveReps?: number;
  /** Molecules in the data directory (default 1uwo_A, mb_hhelix). */
  molecules?: string[];
  /** Also compare region 3 (p = 3) against C (default true). */
  region3?: boolean;
  /** Data directory (default GEM_DATA_DIR). */
  dataDir?: string;
  /** Where the text goes (default console.log). */
  log?: (line: string) => void;
}

export interface GemBenchRow {
  molecule: string;
  region: GemRegion;
  /** The rung of the paper's ladder. */
  rung: string;
  /** Variant key, `model.ts gemReference`, or `C gem_ref.c (...)`. */
  key: string;
  precision: GemPrecision;
  seconds: number;
  /** (median - fastest)/fastest. */
  spread: number;
  pairsPerSecond: number;
  /** C time / this time, C of the same precision (> 1: faster than C); undefined without gcc. */
  vsC?: number;
  /** RMSE and max |diff| against the f64 reference over every vertex. */
  rmse: number;
  maxAbs: number;
}

export interface GemRefBuild {
  /** Executables per precision, or why there are none. */
  bins?: Record<GemPrecision, string>;
  why?: string;
  cmd?: string;
}

export interface GemRefResult {
  precision: GemPrecision;
  seconds: number;
  pairsPerSecond: number;
  /** Sum of phi as printed by the C program. */
  checksum: number;
  phi: Float64Array;
}

const fastest = (xs: number[]): number => Math.min(...xs);
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
export const rmseOf = (a: ArrayLike<number>, b: ArrayLike<number>): number => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += (a[i]! - b[i]!) ** 2;
  return Math.sqrt(s / a.length);
};
export const maxAbsOf = (a: ArrayLike<number>, b: ArrayLike<number>): number => {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]! - b[i]!));
  return m;
};

/** Compile the C reference in f64 and f32 into `dir` with gcc -O3 -march=native; `why` when gcc is missing or fails. */
export function compileGemRef(dir: string): GemRefBuild {
  const flags = ['-O3', '-march=native'];
  const bins = { f64: join(dir, 'gem_ref_f64'), f32: join(dir, 'gem_ref_f32') };
  try {
    execFileSync('gcc', [...flags, '-DREAL=double', '-o', bins.f64, GEM_REF_SOURCE, '-lm'], { stdio: 'pipe' });
    execFileSync('gcc', [...flags, '-DREAL=float', '-o', bins.f32, GEM_REF_SOURCE, '-lm'], { stdio: 'pipe' });
  } catch (e) {
    const err = e as NodeJS.ErrnoException & { stderr?: Buffer };
    if (err.code === 'ENOENT') return { why: 'gcc not found on PATH' };
    return { why: `gcc failed: ${String(err.stderr ?? err.message).trim().split('\n').slice(0, 3).join(' ')}` };
  }
  return { bins, cmd: `gcc ${flags.join(' ')} -DREAL=double|float bench/gem/gem_ref.c -lm` };
}

/** The C reference's input file: int32 nv, na, region, 0; 8 f64 params; f64 vertex then atom arrays (little endian). */
export function writeGemRefInput(file: string, atoms: GemAtoms, v: GemVertices, P: GemParams, region: GemRegion): void {
  const hdr = new Int32Array([v.n, atoms.n, region, 0]);
  const params = new Float64Array([P.A, P.p, P.epsIn, P.epsOut, P.kappa, P.alpha, P.ionRadius, P.qScale]);
  const body = new Float64Array(6 * v.n + 4 * atoms.n);
  [v.x, v.y, v.z, v.nx, v.ny, v.nz].forEach((a, k) => body.set(a, k * v.n));
  [atoms.x, atoms.y, atoms.z, atoms.q].forEach((a, k) => body.set(a, 6 * v.n + k * atoms.n));
  writeFileSync(file, Buffer.concat([Buffer.from(hdr.buffer), Buffer.from(params.buffer), Buffer.from(body.buffer)]));
}

/** Run a compiled C reference on an input file: its own timing (fastest of `reps`), checksum and phi. */
export function runGemRef(bin: string, input: string, precision: GemPrecision, reps: number, n: number): GemRefResult {
  const out = `${input}.${precision}.phi`;
  const text = execFileSync(bin, [input, out, String(reps)], { encoding: 'utf8' });
  const field = (k: string): number => {
    const m = new RegExp(`${k}=(\\S+)`).exec(text);
    if (!m) throw new Error(`gem_ref: no ${k} in its output: ${text.trim()}`);
    return Number(m[1]);
  };
  const buf = readFileSync(out);
  const phi = new Float64Array(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength));
  if (phi.length !== n) throw new Error(`gem_ref wrote ${phi.length} potentials, expected ${n}`);
  return { precision, seconds: field('seconds_min'), pairsPerSecond: field('pairs_per_s'), checksum: field('checksum'), phi };
}

/** Accuracy check against the f64 reference: f32 RMSE <= 8.4e-5, f64 max |diff| <= 1e-9 max |phi|. */
export function gemAccuracy(phi: ArrayLike<number>, ref: Float64Array, precision: GemPrecision): { ok: boolean; rmse: number; maxAbs: number; bar: string } {
  const rmse = rmseOf(phi, ref);
  const maxAbs = maxAbsOf(phi, ref);
  const finite = Array.prototype.every.call(phi, Number.isFinite) as boolean;
  if (precision === 'f32') return { ok: finite && rmse <= GEM_F32_RMSE, rmse, maxAbs, bar: `RMSE <= ${GEM_F32_RMSE}` };
  const tol = GEM_F64_RTOL * Math.max(1, ...Array.from(ref, Math.abs));
  return { ok: finite && maxAbs <= tol, rmse, maxAbs, bar: `max |diff| <= ${tol.toExponential(1)}` };
}

/** The ladder on region 1 without salt: rung and key (keys outside the library are rendered on demand). */
function ladder(region: GemRegion): { rung: string; key: string }[] {
  const k = (prec: GemPrecision, unroll: number, rs: 'div' | 'nr', block: number): string =>
    `gem-potential.ts.region${region}.${prec}.zero.unroll${unroll}.${rs}.block${block}`;
  if (region !== 1) return [{ rung: 'unrolled', key: k('f64', 4, 'div', 0) }, { rung: 'f32', key: k('f32', 4, 'div', 0) }];
  return [
    { rung: 'structure of arrays (+ hoisted branches)', key: k('f64', 1, 'div', 0) },
    { rung: 'unrolled', key: k('f64', 4, 'div', 0) },
    { rung: 'unrolled', key: k('f64', 8, 'div', 0) },
    { rung: 'blocked', key: k('f64', 4, 'div', 256) },
    { rung: 'blocked', key: k('f64', 4, 'div', 1024) },
    { rung: 'f32', key: k('f32', 1, 'div', 0) },
    { rung: 'f32', key: k('f32', 4, 'div', 0) },
    { rung: 'f32 blocked', key: k('f32', 4, 'div', 256) },
    { rung: 'rsqrt nr', key: k('f32', 4, 'nr', 0) },
    { rung: 'rsqrt nr', key: k('f32', 8, 'nr', 0) },
    { rung: 'rsqrt nr blocked', key: k('f32', 4, 'nr', 256) },
    { rung: 'rsqrt nr blocked', key: k('f32', 4, 'nr', 1024) },
  ];
}

function timeCalls(run: () => void, reps: number): number[] {
  const times: number[] = [];
  for (let r = 0; r < reps; r++) {
    const t0 = performance.now();
    run();
    times.push((performance.now() - t0) / 1000);
  }
  return times;
}

/** Run the benchmark and print its tables; returns the rows. */
export async function benchGem(o: GemBenchOptions = {}): Promise<GemBenchRow[]> {
  const log = o.log ?? ((s: string) => console.log(s));
  const reps = o.reps ?? 5;
  const naiveReps = o.naiveReps ?? 2;
  const data = o.dataDir ?? GEM_DATA_DIR;
  const molecules = o.molecules ?? ['1uwo_A', 'mb_hhelix'];
  const dir = mkdtempSync(join(tmpdir(), 'kernforge-gem-bench-'));
  const rows: GemBenchRow[] = [];
  try {
    const build = compileGemRef(dir);
    log(build.bins ? `C reference: ${build.cmd} (one thread, no -ffast-math)` : `C reference skipped: ${build.why}; no ratios to C`);
    for (const mol of molecules) {
      const atoms = readPqr(join(data, `${mol}.pqr`));
      const verts = readVert(join(data, `${mol}.vert`));
      const regions: GemRegion[] = o.region3 === false ? [1] : [1, 3];
      for (const region of regions) {
        const params = gemParams(atoms, { p: region === 1 ? 0 : 3 });
        if (selectRegion(params.A, params.p, params.ionRadius) !== region) throw new Error(`p = ${params.p} does not give region ${region}`);
        const pairs = atoms.n * verts.n;
        log(`\n### ${mol}: ${atoms.n} atoms x ${verts.n} vertices = ${pairs.toExponential(3)} pairs; region ${region} (p = ${params.p}), A = ${params.A.toFixed(4)}, eps 80/1, no salt`);
        const mine: GemBenchRow[] = [];
        const push = (r: Omit<GemBenchRow, 'molecule' | 'region' | 'pairsPerSecond'>): void => {
          const row = { molecule: mol, region, pairsPerSecond: pairs / r.seconds, ...r };
          mine.push(row);
          rows.push(row);
        };

        // naive: the f64 reference itself (a per-pair function call with the region's switch, every term of the formula).
        collect();
        const t0 = performance.now();
        const ref = gemReference(atoms, verts, params, region);
        const first = (performance.now() - t0) / 1000;
        if (region === 1) {
          const times = [first, ...timeCalls(() => gemReference(atoms, verts, params, region), Math.max(0, naiveReps - 1))];
          push({ rung: 'naive', key: 'model.ts gemReference', precision: 'f64', seconds: fastest(times), spread: (median(times) - fastest(times)) / fastest(times), rmse: 0, maxAbs: 0 });
        }

        const cTime: Partial<Record<GemPrecision, number>> = {};
        const sums: string[] = [];
        if (build.bins) {
          const input = join(dir, `${mol}.r${region}.bin`);
          writeGemRefInput(input, atoms, verts, params, region);
          for (const precision of ['f64', 'f32'] as const) {
            const c = runGemRef(build.bins[precision], input, precision, reps, verts.n);
            const acc = gemAccuracy(c.phi, ref, precision);
            const sum = c.phi.reduce((s, x) => s + x, 0);
            if (Math.abs(sum - c.checksum) > 1e-9 * Math.max(1, Math.abs(sum))) throw new Error(`gem_ref ${precision}: checksum ${c.checksum} but its phi sums to ${sum}`);
            if (!acc.ok) log(`  warning: C ${precision} misses the bar against the f64 reference (${acc.bar}): RMSE ${acc.rmse.toExponential(2)}, max |diff| ${acc.maxAbs.toExponential(2)}; its time is still the baseline`);
            cTime[precision] = c.seconds;
            sums.push(`C ${precision} ${c.checksum.toPrecision(12)}`);
            push({ rung: 'C reference', key: `C gem_ref.c (REAL=${precision === 'f64' ? 'double' : 'float'})`, precision, seconds: c.seconds, spread: NaN, rmse: acc.rmse, maxAbs: acc.maxAbs });
          }
          log(`  checksums (sum of phi): ${sums.join(', ')}, f64 reference ${ref.reduce((s, x) => s + x, 0).toPrecision(12)}`);
        }

        for (const { rung, key } of ladder(region)) {
          const info = await gemVariantInfo(key);
          checkVariant(key, info, params);
          const mod = await loadTsModule<GemTsModule>(key);
          const args = gemArgs(atoms, verts, params, info.precision);
          collect();
          mod.kernel(args); // warm-up (JIT) and the output that is verified
          const acc = gemAccuracy(args.phi, ref, info.precision);
          if (!acc.ok) throw new Error(`${key} failed verification on ${mol} (${acc.bar}): RMSE ${acc.rmse.toExponential(2)}, max |diff| ${acc.maxAbs.toExponential(2)}`);
          mod.kernel(args);
          const times = timeCalls(() => mod.kernel(args), reps);
          push({ rung, key, precision: info.precision, seconds: fastest(times), spread: (median(times) - fastest(times)) / fastest(times), rmse: acc.rmse, maxAbs: acc.maxAbs });
        }
        for (const r of mine) if (cTime[r.precision] !== undefined) r.vsC = cTime[r.precision]! / r.seconds;
        log(formatGemTable(mine, region === 1));
        const ts = mine.filter((r) => r.key.startsWith('gem-potential.'));
        const best = ts.reduce((a, b) => (a.seconds <= b.seconds ? a : b));
        const c64 = cTime.f64, c32 = cTime.f32;
        log(
          `  best TS: ${best.key} ${(best.seconds * 1e3).toFixed(1)} ms, ${best.pairsPerSecond.toExponential(3)} pairs/s` +
            (c64 !== undefined && c32 !== undefined
              ? `; ${(c64 / best.seconds).toFixed(2)}x the C f64 and ${(c32 / best.seconds).toFixed(2)}x the C f32 reference`
              : '; no C reference to compare with'),
        );
      }
    }
    log('\nnucleosome: not benchmarked; its surface must be generated and surface generation is not implemented yet (no nucleosome.vert).');
    log('Ratio "vs C" = C time / TS time for the same precision (> 1: faster than C). TS f32 variants store f32 but compute in double (JS numbers); the C f32 build computes and accumulates in float.');
    return rows;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The markdown table of one molecule and region. */
export function formatGemTable(rows: GemBenchRow[], notes = true): string {
  const head = ['rung', 'variant', 'prec', 'ms (min)', 'median +', 'pairs/s', 'vs C (same prec)', 'RMSE vs f64 ref'];
  const lines = [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`];
  const hoisted = rows.findIndex((r) => r.rung.startsWith('structure of arrays'));
  rows.forEach((r, i) => {
    lines.push(`| ${[
      r.rung, `\`${r.key}\``, r.precision, (r.seconds * 1e3).toFixed(1),
      Number.isNaN(r.spread) ? '-' : `${(r.spread * 100).toFixed(1)}%`,
      r.pairsPerSecond.toExponential(3), r.vsC === undefined ? '-' : `${r.vsC.toFixed(2)}x`,
      r.key === 'model.ts gemReference' ? '(is the reference)' : r.rmse.toExponential(2),
    ].join(' | ')} |`);
    if (notes && i === hoisted) lines.push('| hoisted branches | (every generated variant: the region is a specialization, not a branch) | | | | | | |');
  });
  return lines.join('\n');
}
