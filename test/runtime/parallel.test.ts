// Worker threads (issue 7): GEM's vertices and BigDFT's pass lines split over a pool of
// worker_threads on shared memory give results identical bit for bit to the single-thread run;
// bad thread counts are clear user errors; pools shut down and never keep the process alive.
import { describe, it, expect, afterAll } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { Command } from 'commander';
import { Pool, parseThreads, maxThreads, splitRange, ThreadCountError } from '../../runtime/parallel/pool.ts';
import { readPqr, readVert, runGem, gemParams, gemArgs } from '../../runtime/gem/index.ts';
import { runGemParallel } from '../../runtime/gem/run.ts';
import { loadTsModule } from '../../runtime/variants.ts';
import type { GemTsModule } from '../../runtime/gem/run.ts';
import { apply3d, prepare3d, prepareParallel3d, ConvInputError } from '../../runtime/bigdft/apply.ts';
import type { Dims } from '../../runtime/bigdft/reference.ts';
import { runGemWorkload } from '../../runtime/gem/workload.ts';
import { UserError as GemUserError } from '../../runtime/errors.ts';
import { registerBigdft } from '../../cli/commands/bigdft.ts';
import { runBigdftWorkload } from '../../runtime/bigdft/hamiltonian.ts';
import { UserError as BigdftUserError } from '../../runtime/errors.ts';

const DATA = new URL('../../data/gem/', import.meta.url).pathname;
const atoms = readPqr(join(DATA, 'mb_hhelix.pqr'));
const verts = readVert(join(DATA, 'mb_hhelix.vert'));
const quiet = () => {};

/** Indices where a and b differ (Object.is: bit for bit, NaN and -0 included). */
function differences(a: ArrayLike<number>, b: ArrayLike<number>): number[] {
  expect(a.length).toBe(b.length);
  const out: number[] = [];
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) out.push(i);
  return out;
}

const pools: Pool[] = [];
afterAll(async () => {
  for (const p of pools) await p.close();
});
async function pool(n: number): Promise<Pool> {
  const p = await Pool.create(n);
  pools.push(p);
  return p;
}

describe('splitRange and parseThreads', () => {
  it('splits into contiguous aligned ranges covering [0, n)', () => {
    expect(splitRange(10, 2)).toEqual([[0, 5], [5, 10]]);
    expect(splitRange(10, 3, 4)).toEqual([[0, 4], [4, 8], [8, 10]]);
    expect(splitRange(3, 4)).toEqual([[0, 1], [1, 2], [2, 3]]);
    for (const [n, parts, align] of [[16380, 2, 8], [5884, 3, 4], [127, 5, 4], [1, 2, 1]] as const) {
      const r = splitRange(n, parts, align);
      expect(r[0]![0]).toBe(0);
      expect(r[r.length - 1]![1]).toBe(n);
      for (let i = 1; i < r.length; i++) {
        expect(r[i]![0]).toBe(r[i - 1]![1]);
        expect(r[i]![0] % align).toBe(0);
      }
    }
  });
  it('accepts integers 1..2*cpus, rejects the rest clearly', () => {
    expect(parseThreads('2')).toBe(2);
    expect(parseThreads(maxThreads())).toBe(maxThreads());
    for (const bad of [0, -1, 1.5, 'two', '', maxThreads() + 1, Number.NaN]) {
      expect(() => parseThreads(bad)).toThrow(ThreadCountError);
      expect(() => parseThreads(bad)).toThrow(/--threads .*must be an integer from 1 to \d+/);
    }
  });
});

describe('GEM on worker threads (Mb.Hhelix)', () => {
  it('threads 2 and 3 give potentials identical to threads 1 (f64 and f32 variants)', async () => {
    for (const key of ['gem-potential.ts.region1.f64.zero.unroll4.div.block0', 'gem-potential.ts.region1.f32.zero.unroll4.div.block256']) {
      const one = await runGem(key, atoms, verts);
      const two = await runGem(key, atoms, verts, { threads: 2 });
      expect(differences(one.phi, two.phi)).toEqual([]);
      const p3 = await pool(3);
      const three = await runGem(key, atoms, verts, { pool: p3 });
      expect(differences(one.phi, three.phi)).toEqual([]);
    }
  });
  it('runGemParallel writes phi of ordinary (unshared) arguments in place', async () => {
    const key = 'gem-potential.ts.region1.f64.zero.unroll4.div.block0';
    const P = gemParams(atoms);
    const a = gemArgs(atoms, verts, P, 'f64');
    (await loadTsModule<GemTsModule>(key)).kernel(a);
    const b = gemArgs(atoms, verts, P, 'f64');
    await runGemParallel(await pool(2), key, b);
    expect(differences(a.phi, b.phi)).toEqual([]);
  });
  it('runGemWorkload --threads 2 writes the same potentials as one thread; a bad count is a user error', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kf-par-'));
    const base = { molecule: join(DATA, 'mb_hhelix.pqr'), variant: 'gem-potential.ts.region1.f64.zero.unroll4.div.block0', verifyVertices: 20 };
    const s1 = await runGemWorkload({ ...base, output: join(dir, '1.out') });
    const s2 = await runGemWorkload({ ...base, output: join(dir, '2.out'), threads: '2' });
    expect(s2.device).toMatch(/2 worker threads/);
    const { readFileSync } = await import('node:fs');
    expect(readFileSync(join(dir, '2.out'), 'utf8')).toBe(readFileSync(join(dir, '1.out'), 'utf8'));
    expect([s1.minPhi, s1.maxPhi]).toEqual([s2.minPhi, s2.maxPhi]);
    await expect(runGemWorkload({ ...base, output: join(dir, '3.out'), threads: '0' })).rejects.toThrow(GemUserError);
    await expect(runGemWorkload({ ...base, output: join(dir, '3.out'), threads: 'x' })).rejects.toThrow(/--threads x: the thread count must be an integer from 1 to/);
  });
});

describe('BigDFT convolutions on worker threads', () => {
  const cases: [string, Dims][] = [
    ['bigdft-conv.ts.magic.periodic.f64.separable-t.8x1.inline.table', [17, 19, 21]],
    ['bigdft-conv.ts.magic-t.periodic.f32.separable-t.1x8.inline.split', [17, 19, 21]],
    ['bigdft-conv.ts.kinetic.periodic.f64.separable-t.8x1.inline.table', [31, 29, 33]],
    ['bigdft-conv.ts.kinetic.free.f64.separable.2x4.inline.split', [31, 29, 33]],
    ['bigdft-conv.ts.magic.periodic.f64.separable.1x4.inline.split', [17, 19, 21]],
    ['bigdft-conv.ts.magic.periodic.f64.direct.4x1.inline.split', [17, 19, 21]],
  ];
  it('apply3d with threads 2 equals threads 1 bit for bit on a small odd grid', async () => {
    const [key, [n1, n2, n3]] = cases[0]!;
    const x = Float64Array.from({ length: n1 * n2 * n3 }, (_, i) => Math.sin(0.37 * i) + 0.1 * Math.cos(1.3 * i));
    const one = await apply3d(key, x, n1, n2, n3);
    const two = await apply3d(key, x, n1, n2, n3, { threads: 2 });
    expect(differences(one, two)).toEqual([]);
  });
  it('prepareParallel3d on 2 and 3 workers equals prepare3d for every algorithm, filter and boundary', async () => {
    const p2 = await pool(2);
    const p3 = await pool(3);
    for (const [key, dims] of cases) {
      const h: Dims = [0.4, 0.45, 0.5];
      const single = await prepare3d(key, dims, { h });
      const N = dims[0] * dims[1] * dims[2];
      const x = single.precision === 'f32' ? new Float32Array(N) : new Float64Array(N);
      for (let i = 0; i < N; i++) x[i] = Math.sin(0.37 * i) + 0.1 * Math.cos(1.3 * i);
      const want = Float64Array.from(single.run(x));
      for (const p of [p2, p3]) {
        const par = await prepareParallel3d(key, dims, p, { h });
        expect(par.threads).toBe(single.algorithm === 'direct' ? 1 : p.size);
        expect(differences(want, await par.run(x)), `${key} on ${p.size} threads`).toEqual([]);
        expect(differences(want, await par.run(x)), `${key} again`).toEqual([]);
      }
    }
  });
  it('apply3d rejects a bad thread count with ConvInputError', async () => {
    const key = cases[0]![0];
    await expect(apply3d(key, new Float64Array(17 * 19 * 21), 17, 19, 21, { threads: 0 })).rejects.toThrow(ConvInputError);
  });
  it('the workload with --threads 2 gives the energies of one thread exactly', async () => {
    const o = { grid: '29x31x33', h: 0.4, iterations: 2, precision: 'f64', log: quiet };
    const one = await runBigdftWorkload(o);
    const lines: string[] = [];
    const two = await runBigdftWorkload({ ...o, threads: 2, log: (l) => lines.push(l) });
    expect(lines.join('\n')).toMatch(/threads: 2 for the TypeScript and wasm variants, .*\(TypeScript: 2 worker threads; wasm: this thread and 1 worker\)/);
    expect(two.iterations.map((r) => [r.epot, r.ekin, r.ehpsi])).toEqual(one.iterations.map((r) => [r.epot, r.ekin, r.ehpsi]));
  });
  it('--threads: bad values are user errors naming the allowed range', async () => {
    for (const bad of ['0', '1.5', 'many', String(maxThreads() + 1)]) {
      await expect(runBigdftWorkload({ grid: '29x31x33', iterations: 1, log: quiet, threads: bad })).rejects.toThrow(BigdftUserError);
    }
    const program = new Command().name('kernforge').exitOverride().configureOutput({ writeErr: () => {} });
    registerBigdft(program.command('run'));
    await expect(program.parseAsync(['run', 'bigdft', '--grid', '29x31x33', '--threads', '-3'], { from: 'user' })).rejects.toThrow(/--threads -3: the thread count must be an integer from 1 to \d+/);
  });
});

describe('pool lifetime', () => {
  it('reports worker errors, refuses runs after close', async () => {
    const p = await Pool.create(2);
    await expect(p.run([{ task: 'no-such-task', args: {} }])).rejects.toThrow(/unknown task no-such-task/);
    await expect(p.run([{ task: 'gem', args: { key: 'gem-potential.nope' } }])).rejects.toThrow(/worker 0/);
    expect(await p.run([{ task: 'ping', args: {} }, { task: 'ping', args: {} }])).toEqual(['ok', 'ok']);
    await expect(p.run([1, 2, 3].map(() => ({ task: 'ping', args: {} })))).rejects.toThrow(/3 tasks for a pool of 2/);
    await p.close();
    await expect(p.run([{ task: 'ping', args: {} }])).rejects.toThrow(/closed/);
  });
  it('an idle pool left open does not keep a process alive', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kf-pool-'));
    const script = join(dir, 'open-pool.mts');
    const poolUrl = new URL('../../runtime/parallel/pool.ts', import.meta.url).href;
    writeFileSync(script, `import { Pool } from ${JSON.stringify(poolUrl)};\nconst p = await Pool.create(2);\nconsole.log(JSON.stringify(await p.run([{ task: 'ping', args: {} }])));\n`);
    const r = spawnSync(process.execPath, ['--import', 'tsx', script], { encoding: 'utf8', timeout: 60_000, cwd: new URL('../..', import.meta.url).pathname });
    expect(r.error).toBeUndefined();
    expect(r.stdout.trim()).toBe('["ok"]');
    expect(r.status).toBe(0);
  });
});
