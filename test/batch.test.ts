// Issue 17 without Slurm: the shard arithmetic, the shard manifest, shard folders written
// atomically and not run twice, gather's merge (GEM byte for byte equal to single-process runs, by
// molecules and by vertex ranges; MD replicas in one table; tuning caches into one) and its
// refusals (missing, duplicated, other N, other inputs, unverified, corrupt, another device), the
// batch script and the command line's one-line errors.
import { describe, it, expect, vi, afterEach, afterAll } from 'vitest';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseShard, parseShardCount, shardRange, shardName, parseShardName, replicaSeed, BatchInputError } from '../runtime/batch/shard.ts';
import { validateManifest, inputsText, stableJson, type ShardManifest } from '../runtime/batch/manifest.ts';
import { runShard, readShard, sha256 } from '../runtime/batch/store.ts';
import { runGemShard, readGemList } from '../runtime/batch/gem.ts';
import { runMdShard } from '../runtime/batch/md.ts';
import { gatherBatch } from '../runtime/batch/gather.ts';
import { arraySpec, parseBatchCommand, submitBatch, batchStatus, shq } from '../runtime/batch/slurm.ts';
import { runGemWorkload } from '../runtime/gem/workload.ts';
import { bundledMolecule } from '../runtime/data.ts';
import { main } from '../cli/main.ts';

const made: string[] = [];
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'kf-batch-'));
  made.push(d);
  return d;
};
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});
const H = bundledMolecule('mb_hhelix');
const U = bundledMolecule('1uwo_A');

afterEach(() => vi.restoreAllMocks());

/** main() in this process: exit status, stdout and stderr lines. */
async function cli(args: string[], cwd?: string): Promise<{ status: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void out.push(a.join(' ')));
  vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void err.push(a.join(' ')));
  const w = vi.spyOn(process.stdout, 'write').mockImplementation((s: string | Uint8Array) => (out.push(String(s)), true));
  const before = process.cwd();
  if (cwd) process.chdir(cwd);
  try {
    const status = await main(args);
    return { status, out: out.join('\n'), err: err.join('\n') };
  } finally {
    process.chdir(before);
    w.mockRestore();
    vi.restoreAllMocks();
  }
}

describe('shard arithmetic', () => {
  it('parses K/N (0-based) and refuses anything else with one line naming the option', () => {
    expect(parseShard('0/4')).toEqual({ k: 0, n: 4 });
    expect(parseShard(' 3 / 8 ')).toEqual({ k: 3, n: 8 });
    expect(parseShard('0/1')).toEqual({ k: 0, n: 1 });
    const msg = (s: string) => {
      try {
        parseShard(s);
      } catch (e) {
        expect(e).toBeInstanceOf(BatchInputError);
        return (e as Error).message;
      }
      return 'accepted';
    };
    expect(msg('4/4')).toBe('--shard 4/4: K must be from 0 to 3 (shards count from 0), got 4');
    expect(msg('1/0')).toBe('--shard 1/0: N must be a whole number from 1 to 100000, got 0');
    expect(msg('-1/4')).toBe('--shard -1/4: K must be a whole number from 0 to 3 (0-based), got "-1"');
    expect(msg('1.5/4')).toBe('--shard 1.5/4: K must be a whole number from 0 to 3 (0-based), got "1.5"');
    expect(msg('3')).toBe('--shard "3": expected K/N, shard K (0-based) of N, e.g. 0/4');
    expect(msg('01/4')).toContain('K must be a whole number');
    expect(msg('1/4/2')).toContain('expected K/N');
    expect(parseShardCount('12')).toBe(12);
    expect(() => parseShardCount('0')).toThrow('--shards "0": must be a whole number from 1 to 100000');
  });

  it('splits any total into N contiguous ranges in order, covering every item once, balanced to one unit of align', () => {
    for (const align of [1, 4, 8]) {
      for (const total of [0, 1, 2, 3, 7, 8, 9, 100, 5884, 16529]) {
        for (const n of [1, 2, 3, 4, 7, 16, 50]) {
          let at = 0;
          const sizes: number[] = [];
          for (let k = 0; k < n; k++) {
            const [a, b] = shardRange(total, { k, n }, align);
            expect(a).toBe(at);
            expect(b).toBeGreaterThanOrEqual(a);
            if (k < n - 1) expect(b % align === 0 || b === total).toBe(true);
            sizes.push(b - a);
            at = b;
          }
          expect(at).toBe(total);
          // balanced: full units per shard differ by at most one
          const units = sizes.slice(0, -1).map((s) => s / align);
          if (units.length > 0) expect(Math.max(...units) - Math.min(...units)).toBeLessThanOrEqual(1);
        }
      }
    }
    expect([0, 1, 2, 3].map((k) => shardRange(10, { k, n: 4 }))).toEqual([[0, 2], [2, 5], [5, 7], [7, 10]]);
    expect([0, 1, 2].map((k) => shardRange(5884, { k, n: 3 }, 8))).toEqual([[0, 1960], [1960, 3920], [3920, 5884]]);
  });

  it('names shard folders K-of-N and reads them back', () => {
    expect(shardName({ k: 2, n: 5 })).toBe('2-of-5');
    expect(parseShardName('2-of-5')).toEqual({ k: 2, n: 5 });
    for (const bad of ['5-of-5', '02-of-5', '2-of-05', '2of5', '.2-of-5', '2-of-5 copy']) expect(parseShardName(bad)).toBeUndefined();
  });

  it('derives replica seeds from the base seed and the replica only: distinct, in the generator range, the same whatever the split', () => {
    const seeds = Array.from({ length: 10000 }, (_, i) => replicaSeed(1, i));
    expect(new Set(seeds).size).toBe(10000);
    for (const s of seeds) expect(s >= 1 && s <= 2147483646 && Number.isInteger(s)).toBe(true);
    expect(replicaSeed(1, 7)).toBe(replicaSeed(1, 7));
    expect(replicaSeed(2, 7)).not.toBe(replicaSeed(1, 7));
    expect(replicaSeed(1, 0)).not.toBe(replicaSeed(0, 1));
    expect(replicaSeed(2 ** 40, 3)).not.toBe(replicaSeed(0, 3));
  });
});

describe('shard manifest', () => {
  const good = (): ShardManifest => ({
    format: 'kernforge-shard', version: 1, kernforge: '0.1.0', work: 'gem', command: ['run', 'gem'], shard: { k: 1, n: 2 },
    inputsHash: 'a'.repeat(64), inputs: [{ name: 'x.pqr', sha256: 'b'.repeat(64) }], settings: { salt: 0 },
    items: [{ index: 1, name: 'x', verification: { ok: true }, seconds: 1, files: ['x.phi'] }], verified: true,
    device: { fingerprint: '0123456789abcdef', name: 'cpu', host: 'h' }, timings: { started: '', finished: '', seconds: 1 },
    files: [{ name: 'x.phi', sha256: 'c'.repeat(64), bytes: 3 }],
  });

  it('accepts a valid one and says what is wrong with each broken one', () => {
    expect(validateManifest(good())).toBeUndefined();
    const broken: [string, (m: Record<string, unknown>) => void][] = [
      ['format is "x", not "kernforge-shard"', (m) => (m.format = 'x')],
      ['version 2 is not 1', (m) => (m.version = 2)],
      ['shard is not { k, n } with 0 <= k < n', (m) => (m.shard = { k: 2, n: 2 })],
      ['inputsHash is not a SHA-256', (m) => (m.inputsHash = 'abc')],
      ['work "bigdft" is not one of gem, md, tune', (m) => (m.work = 'bigdft')],
      ['files[0]: "../x.phi" is not a plain file name of the shard', (m) => ((m.files as { name: string }[])[0]!.name = '../x.phi')],
      ['items[0] names "x.phi", which is not in files', (m) => (m.files = [])],
      ['verified is not true or false', (m) => delete m.verified],
    ];
    for (const [why, f] of broken) {
      const m = good() as unknown as Record<string, unknown>;
      f(m);
      expect(validateManifest(m)).toBe(why);
    }
  });

  it('hashes the inputs independently of key order, and of K', () => {
    expect(stableJson({ b: 1, a: { d: 2, c: undefined, e: [3] } })).toBe('{"a":{"d":2,"e":[3]},"b":1}');
    expect(inputsText('gem', 4, [{ name: 'a', sha256: '1' }], { x: 1, y: 2 })).toBe(inputsText('gem', 4, [{ name: 'b', sha256: '1' }], { y: 2, x: 1 }));
    expect(inputsText('gem', 4, [], {})).not.toBe(inputsText('gem', 5, [], {}));
  });
});

describe('shard folders', () => {
  it('appear whole or not at all: a failing shard leaves nothing; a finished one is not run again; one of other inputs is not replaced', async () => {
    const out = tmp();
    const spec = { out, shard: { k: 0, n: 2 }, work: 'md' as const, command: ['x'], inputs: [], settings: { a: 1 } };
    await expect(runShard(spec, async (dir) => {
      writeFileSync(join(dir, 'half.json'), '{}');
      throw new Error('killed');
    })).rejects.toThrow('killed');
    expect(readdirSync(join(out, 'shards'))).toEqual([]);
    let runs = 0;
    const produce = async (dir: string) => {
      runs++;
      writeFileSync(join(dir, 'r.json'), '{"x":1}\n');
      return { items: [{ index: 0, name: 'r', verification: { ok: true }, seconds: 0, files: ['r.json'] }] };
    };
    const r1 = await runShard(spec, produce);
    expect(r1.status).toBe('done');
    expect(readdirSync(join(out, 'shards'))).toEqual(['0-of-2']);
    expect(readShard(r1.dir).problem).toBeUndefined();
    expect(r1.manifest.files).toEqual([{ name: 'r.json', sha256: sha256('{"x":1}\n'), bytes: 8 }]);
    const mtime = statSync(join(r1.dir, 'manifest.json')).mtimeMs;
    const lines: string[] = [];
    const r2 = await runShard(spec, produce, (l) => lines.push(l));
    expect(r2.status).toBe('finished');
    expect(runs).toBe(1);
    expect(lines[0]).toMatch(/^shard 0-of-2 is already finished \(same inputs, .*\): nothing to do/);
    expect(statSync(join(r1.dir, 'manifest.json')).mtimeMs).toBe(mtime);
    await expect(runShard({ ...spec, settings: { a: 2 } }, produce)).rejects.toThrow(/0-of-2 is shard 0-of-2 of other inputs .*not replacing it/);
    writeFileSync(join(r1.dir, 'r.json'), '{"x":2}\n');
    await expect(runShard(spec, produce)).rejects.toThrow(/is not a usable shard \(r\.json does not match its SHA-256 in the manifest\); not replacing it/);
    expect(runs).toBe(1);
  });
});

describe('GEM shards and gather', () => {
  it('a list split over shards gathers to files byte for byte equal to single-process run gem; a rerun does nothing', async () => {
    const w = tmp();
    mkdirSync(join(w, 'mine'));
    cpSync(H.pqr, join(w, 'mine', 'helix2.pqr'));
    cpSync(H.vert!, join(w, 'mine', 'helix2.vert'));
    writeFileSync(join(w, 'list.txt'), 'mb_hhelix\n\n# a comment\nmine/helix2.pqr  # a copy\n');
    const out = join(w, 'out');
    for (const k of [1, 0]) await runGemShard({ list: join(w, 'list.txt'), shard: { k, n: 2 }, outDir: out, command: [] });
    expect(readdirSync(join(out, 'shards')).sort()).toEqual(['0-of-2', '1-of-2']);
    const g = gatherBatch(out);
    expect(g.files.map((f) => f.split('/').pop())).toEqual(['mb_hhelix.phi', 'helix2.phi']);
    const single = join(w, 'single.phi');
    await runGemWorkload({ molecule: H.pqr, output: single });
    for (const f of g.files) expect(readFileSync(f).equals(readFileSync(single))).toBe(true);
    const again = await runGemShard({ list: join(w, 'list.txt'), shard: { k: 0, n: 2 }, outDir: out, command: [] });
    expect(again.status).toBe('finished');
  }, 60_000);

  it("one molecule's vertex ranges gather to GEM's file byte for byte, and a split finer than the vertices is refused", async () => {
    const w = tmp();
    const out = join(w, 'v');
    for (const k of [2, 0, 1]) await runGemShard({ molecule: 'mb_hhelix', shard: { k, n: 3 }, outDir: out, command: [] });
    const m = JSON.parse(readFileSync(join(out, 'shards', '1-of-3', 'manifest.json'), 'utf8')) as ShardManifest;
    expect(m.items[0]!.summary).toMatchObject({ first: 1960, end: 3920, total: 5884, vertices: 1960 });
    expect(m.verified).toBe(true);
    expect(m.settings).toMatchObject({ mode: 'vertices', molecules: ['mb_hhelix'], align: 8 });
    gatherBatch(out);
    const single = join(w, 'single.phi');
    await runGemWorkload({ molecule: H.pqr, output: single });
    expect(readFileSync(join(out, 'mb_hhelix.phi')).equals(readFileSync(single))).toBe(true);
    await expect(runGemShard({ molecule: 'mb_hhelix', shard: { k: 0, n: 1000 }, outDir: join(w, 'fine'), command: [] })).rejects.toThrow('--shard 0/1000: mb_hhelix has 5884 vertices, too few for 1000 shards of at least 8 vertices each');
    expect(readdirSync(join(w, 'fine', 'shards'))).toEqual([]);
  }, 60_000);

  it('gather refuses, naming the shard, a missing, half-written, duplicated, other-N, other-inputs, unverified or corrupt shard, and merges nothing', async () => {
    const w = tmp();
    writeFileSync(join(w, 'list.txt'), 'mb_hhelix\n1uwo_A\n');
    const base = join(w, 'base');
    for (const k of [0, 1]) await runGemShard({ list: join(w, 'list.txt'), shard: { k, n: 2 }, outDir: base, command: [] });
    let case_ = 0;
    const refuse = (change: (shards: string) => void): string => {
      const out = join(w, `case${case_++}`);
      cpSync(base, out, { recursive: true });
      change(join(out, 'shards'));
      try {
        gatherBatch(out);
      } catch (e) {
        expect(e).toBeInstanceOf(BatchInputError);
        expect(readdirSync(out).filter((f) => f.endsWith('.phi'))).toEqual([]); // nothing merged
        return (e as Error).message.replaceAll(out, '<out>');
      }
      return 'merged';
    };
    expect(refuse((s) => rmSync(join(s, '1-of-2'), { recursive: true }))).toMatch(/^gather <out>: shard 1-of-2 is missing \(not finished: `kernforge batch status <out>` says why, `--resubmit` runs it again\); nothing merged$/);
    // a half-written attempt: its files but no manifest, under the temporary name
    expect(refuse((s) => renameSync(join(s, '1-of-2'), join(s, '.1-of-2.node7.4242.abcd.tmp')))).toContain('shard 1-of-2 is missing');
    expect(refuse((s) => rmSync(join(s, '1-of-2', 'manifest.json')))).toContain('shard 1-of-2 is corrupt: it has no manifest.json');
    expect(refuse((s) => cpSync(join(s, '0-of-2'), join(s, 'extra'), { recursive: true }))).toContain('is not a shard folder (K-of-N)');
    expect(refuse((s) => {
      rmSync(join(s, '1-of-2'), { recursive: true });
      cpSync(join(s, '0-of-2'), join(s, '1-of-2'), { recursive: true });
    })).toMatch(/shard 0-of-2 is duplicated: .*0-of-2 and .*1-of-2 both hold it/);
    expect(refuse((s) => {
      const m = JSON.parse(readFileSync(join(s, '1-of-2', 'manifest.json'), 'utf8'));
      m.shard = { k: 1, n: 3 };
      writeFileSync(join(s, '1-of-2', 'manifest.json'), JSON.stringify(m));
      renameSync(join(s, '1-of-2'), join(s, '1-of-3'));
    })).toContain('shard 1-of-3 is of a split into 3 shards, but the batch has 2');
    expect(refuse((s) => {
      const m = JSON.parse(readFileSync(join(s, '1-of-2', 'manifest.json'), 'utf8'));
      m.inputsHash = 'f'.repeat(64);
      writeFileSync(join(s, '1-of-2', 'manifest.json'), JSON.stringify(m));
    })).toContain('shard 1-of-2 is from other inputs (inputs hash ffffffffffff...');
    expect(refuse((s) => {
      const m = JSON.parse(readFileSync(join(s, '0-of-2', 'manifest.json'), 'utf8'));
      m.verified = false;
      m.items[0].verification = { ok: false, worst: 3.2, detail: 'max |diff| 1e-3' };
      writeFileSync(join(s, '0-of-2', 'manifest.json'), JSON.stringify(m));
    })).toContain('shard 0-of-2 is unverified: mb_hhelix: gem-potential.ts.region1.f32.zero.unroll4.div.block0 failed its verification gate (max |diff| 1e-3)');
    expect(refuse((s) => {
      const f = join(s, '1-of-2', '1uwo_A.phi');
      const b = readFileSync(f);
      b[100] = b[100] === 0x31 ? 0x32 : 0x31;
      writeFileSync(f, b);
    })).toContain('shard 1-of-2 is corrupt: 1uwo_A.phi does not match its SHA-256 in the manifest');
    expect(refuse((s) => writeFileSync(join(s, '0-of-2', 'manifest.json'), '{"format": "kernforge-shard",'))).toMatch(/shard 0-of-2 is corrupt: manifest.json does not parse/);
    // the status lists every shard's state in one go
    const out = join(w, 'status');
    cpSync(base, out, { recursive: true });
    rmSync(join(out, 'shards', '1-of-2'), { recursive: true });
    mkdirSync(join(out, 'shards', '.1-of-2.node7.4242.abcd.tmp'));
    const st = batchStatus(out);
    expect(st.shards.map((s) => s.state)).toEqual(['done', 'missing']);
    expect(st.lines.join('\n')).toContain('half-written attempt left: .1-of-2.node7.4242.abcd.tmp (pid 4242 on node7)');
  }, 60_000);

  it('tuning shards of devices with other fingerprints are refused; caches of one device merge into one', async () => {
    const out = tmp();
    const cache = (fp: string, key: string, ms: number) => ({
      format: 'kernforge-tune-cache', version: 1, device: { fingerprint: fp, id: 'cpu', target: 'ts', name: 'test cpu', details: {} },
      results: { [`gem-potential|surface|${key}`]: { family: 'gem-potential', problem: 'surface', key, status: 'ok', medianMs: ms, params: {}, at: '2026-01-01T00:00:00.000Z' } },
      runs: [],
    });
    const shard = async (k: number, fp: string) => {
      await runShard({ out, shard: { k, n: 2 }, work: 'tune', command: [], inputs: [], settings: {} }, async (dir) => {
        writeFileSync(join(dir, 'tune-cache.json'), JSON.stringify(cache(fp, `gem-potential.ts.k${k}`, 1 + k)));
        return { items: [{ index: 0, name: 'cpu gem-potential surface', verification: { ok: true }, seconds: 0, files: [] }], device: { fingerprint: fp, name: 'cpu' } };
      });
    };
    await shard(0, '00000000000000aa');
    await shard(1, '00000000000000bb');
    expect(() => gatherBatch(out)).toThrow(/shard 1-of-2 was measured on another device \(fingerprint 00000000000000bb, .*\) than shard 0-of-2 \(00000000000000aa, .*\); a tuning batch needs identical nodes; nothing merged/);
    rmSync(join(out, 'shards', '1-of-2'), { recursive: true });
    await shard(1, '00000000000000aa');
    const g = gatherBatch(out);
    const merged = JSON.parse(readFileSync(join(out, 'tune-cache', '00000000000000aa.json'), 'utf8'));
    expect(Object.keys(merged.results).sort()).toEqual(['gem-potential|surface|gem-potential.ts.k0', 'gem-potential|surface|gem-potential.ts.k1']);
    expect(g.lines[0]).toContain('2 measurements of 2 shards merged into');
  });
});

describe('tuning shards', () => {
  it("split each problem's candidates between the shards; gather merges the caches into one that a tune run reads without measuring", async () => {
    const { runTuneShard } = await import('../runtime/batch/tune.ts');
    const { tune } = await import('../runtime/tune/tuner.ts');
    const out = tmp();
    const { createProgress } = await import('../runtime/tune/progress.ts');
    const o = { families: ['gem-potential'], problems: ['surface-small'], reps: 1, warmup: 0, threads: [1], gpujs: { modes: [], unavailable: {} }, wasmSimd: { ok: false, why: 'left out in this test' }, log: () => {}, progress: createProgress({ quiet: true }) };
    const keys: string[][] = [];
    for (const k of [0, 1]) {
      const r = await runTuneShard({ ...o, shard: { k, n: 2 }, outDir: out, command: [] });
      expect(r.status).toBe('done');
      const c = JSON.parse(readFileSync(join(r.dir, 'tune-cache.json'), 'utf8'));
      keys.push(Object.values(c.results as Record<string, { key: string }>).map((x) => x.key).sort());
      expect(r.manifest.device.fingerprint).toBe(c.device.fingerprint);
    }
    // disjoint parts of the candidates, and the default (timed for the speed-up) in both
    const both = keys[0]!.filter((k) => keys[1]!.includes(k));
    expect(both).toEqual(['gem-potential.ts.region1.f32.zero.unroll4.div.block0']);
    const g = gatherBatch(out);
    const fp = JSON.parse(readFileSync(join(out, 'shards', '0-of-2', 'manifest.json'), 'utf8')).device.fingerprint;
    const merged = JSON.parse(readFileSync(join(out, 'tune-cache', `${fp}.json`), 'utf8'));
    expect(Object.keys(merged.results).length).toBe(keys[0]!.length + keys[1]!.length - 1);
    expect(g.lines[0]).toContain(`${Object.keys(merged.results).length} measurements of 2 shards merged`);
    const warm = await tune({ ...o, cache: join(out, 'tune-cache'), out: join(out, 'tuned.json') });
    expect(warm.rows[0]!.measured).toBe(0);
    expect(warm.rows[0]!.cached).toBe(Object.keys(merged.results).length);
  }, 60_000);
});

describe('MD replica shards', () => {
  it('replicas split over shards give the same summaries as one run of them all, each with its own seed', async () => {
    const w = tmp();
    const md = { system: 'lj' as const, cells: 4, steps: 10, thermo: 10, thermostat: 'v-rescale' as const, refT: 1.0, tauT: 0.1, seed: 5 };
    await runMdShard({ ...md, replicas: 3, shard: { k: 0, n: 1 }, outDir: join(w, 'one'), command: [] });
    for (const k of [0, 1]) await runMdShard({ ...md, replicas: 3, shard: { k, n: 2 }, outDir: join(w, 'two'), command: [] });
    gatherBatch(join(w, 'one'));
    gatherBatch(join(w, 'two'));
    const table = (d: string) => readFileSync(join(w, d, 'replicas.tsv'), 'utf8').trim().split('\n').map((l) => l.split('\t'));
    const [one, two] = [table('one'), table('two')];
    expect(one[0]).toEqual(['replica', 'seed', 'steps', 'T', 'epot', 'ekin', 'etot', 'conserved', 'P', 'drift', 'steps_per_s', 'variant']);
    expect(one.length).toBe(4);
    const noTiming = (t: string[][]) => t.map((r) => r.filter((_, i) => i !== 10));
    expect(noTiming(two)).toEqual(noTiming(one));
    expect(one.slice(1).map((r) => Number(r[1]))).toEqual([0, 1, 2].map((i) => replicaSeed(5, i)));
    expect(new Set(one.slice(1).map((r) => r[3])).size).toBe(3); // v-rescale with other seeds: other temperatures
    const m = JSON.parse(readFileSync(join(w, 'two', 'shards', '1-of-2', 'manifest.json'), 'utf8')) as ShardManifest;
    expect(m.items.map((i) => i.index)).toEqual([1, 2]);
    expect(m.verified).toBe(true);
    expect(m.items[0]!.verification.detail).toContain('the md-nonbonded verification cases');
  }, 60_000);
});

describe('kernforge batch, gather and --shard on the command line', () => {
  it('prints the array script without --slurm: the same Node and kernforge entry, --shard $SLURM_ARRAY_TASK_ID/N, the sbatch options', async () => {
    const r = await cli(['batch', 'run', 'gem', '--batch', 'my list.txt', '--out-dir', 'res', '--shards', '4']);
    expect(r.status).toBe(0);
    expect(r.out).toContain('#SBATCH --array=0-3');
    expect(r.out).toContain(`exec ${process.execPath} `);
    expect(r.out).toContain(`run gem --batch 'my list.txt' --out-dir res --shard "\${SLURM_ARRAY_TASK_ID}/4"`);
    expect(r.out).toContain('# exec');
    expect(r.out).toMatch(/gather .*res/);
    const s = submitBatch({ command: ['tune', 'gem-potential', '--out-dir', '/x/t'], n: 2, sbatch: ['--partition', 'cpu', '--time=10'], submit: false, node: '/opt/node', execArgv: [], entry: '/opt/kf/dist/cli/bin.js', cwd: '/home/me' });
    expect(s.array).toContain('#SBATCH --partition cpu\n#SBATCH --time=10\n');
    expect(s.array).toContain("cd /home/me\nexec /opt/node /opt/kf/dist/cli/bin.js tune gem-potential --out-dir /x/t --shard \"${SLURM_ARRAY_TASK_ID}/2\"\n");
    expect(s.gather).toContain('exec /opt/node /opt/kf/dist/cli/bin.js gather /x/t\n');
    expect(arraySpec([5, 1, 2, 3, 7, 8])).toBe('1-3,5,7-8');
    expect(shq("it's")).toBe(`'it'\\''s'`);
  });

  it('refuses with one line and exit status 2: a bad --shard, a command that is not batchable, a missing --shards, -o with --batch, a bad list', async () => {
    const w = tmp();
    writeFileSync(join(w, 'list.txt'), 'mb_hhelix\nnosuch.pqr\n');
    writeFileSync(join(w, 'dup.txt'), 'mb_hhelix\n../x/mb_hhelix\n');
    const cases: [string[], string][] = [
      [['run', 'gem', 'mb_hhelix', '--shard', '2/2'], '--shard 2/2: K must be from 0 to 1 (shards count from 0), got 2'],
      [['run', 'md', '--shard', '0/2'], '--shard splits the replicas of a run: give --replicas R'],
      [['tune', '--shard', '1/x'], '--shard 1/x: N must be a whole number from 1 to 100000, got "x"'],
      [['batch', 'run', 'bigdft', '--shards', '2'], 'batch: "run bigdft": the batchable commands are run gem (--batch list.txt, or one molecule\'s vertices), run md --replicas R, and tune'],
      [['batch', 'run', 'gem', 'mb_hhelix'], 'batch: give --shards N; usage: kernforge batch <command ...> --shards N [--slurm [sbatch options ...]], or kernforge batch status <folder> [--resubmit]'],
      [['batch', 'run', 'gem', 'mb_hhelix', '--shard', '0/2', '--shards', '2'], 'batch: the command has a --shard of its own; batch adds --shard K/N to every task (give --shards N)'],
      [['run', 'gem', '--batch', 'list.txt', '-o', 'x.phi'], '-o names one file, but a batch or shard writes its files under --out-dir (kernforge-batch)'],
      [['run', 'gem', '--batch', 'list.txt'], `list.txt:2: nosuch.pqr: no such .pqr file (relative paths are read from the list's folder) and not a bundled molecule (mb_hhelix, 1uwo_A, nucleosome)`],
      [['gather', 'nothing-here'], 'nothing-here: no batch here (no nothing-here/shards and no batch.json): give the folder that --out-dir named'],
    ];
    for (const [args, msg] of cases) {
      const r = await cli(args, w);
      expect(r.err, args.join(' ')).toBe(`kernforge: error: ${msg}`);
      expect(r.status, args.join(' ')).toBe(2);
    }
    expect(() => readGemList(join(w, 'dup.txt'))).toThrow(/dup\.txt:2: \.\.\/x\/mb_hhelix: no such \.pqr file/);
    expect(parseBatchCommand(['run', 'md', '--replicas=8', '--out-dir=o']).outDir).toBe('o');
    expect(existsSync(join(w, 'kernforge-batch', 'shards', '0-of-1'))).toBe(false);
  }, 30_000);

  it('run gem --batch without --shard runs the whole list and gathers it; run gem --shard ... then gather on the command line', async () => {
    const w = tmp();
    writeFileSync(join(w, 'list.txt'), 'mb_hhelix\n');
    const r = await cli(['run', 'gem', '--batch', 'list.txt', '--out-dir', 'o'], w);
    expect(r.status, r.err).toBe(0);
    expect(r.out).toContain('mb_hhelix: 382 atoms x 5884 vertices');
    expect(existsSync(join(w, 'o', 'mb_hhelix.phi'))).toBe(true);
    for (const k of ['0', '1']) expect((await cli(['run', 'gem', 'mb_hhelix', '--shard', `${k}/2`, '--out-dir', 'v'], w)).status).toBe(0);
    const again = await cli(['run', 'gem', 'mb_hhelix', '--shard', '1/2', '--out-dir', 'v'], w);
    expect(again.out).toContain('shard 1-of-2 is already finished (same inputs');
    const g = await cli(['gather', 'v'], w);
    expect(g.status).toBe(0);
    expect(readFileSync(join(w, 'v', 'mb_hhelix.phi')).equals(readFileSync(join(w, 'o', 'mb_hhelix.phi')))).toBe(true);
    const st = await cli(['batch', 'status', 'v'], w);
    expect(st.status).toBe(0);
    expect(st.out).toContain('2 done, 0 running or pending, 0 failed, 0 missing');
  }, 60_000);
});
