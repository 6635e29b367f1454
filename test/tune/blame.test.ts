// Blame in the right place, the tuner's part (issue 13, class 7):
//   - a tuned thread count this machine cannot run (999 in kernforge-tuned.json, or a count that
//     is not a positive integer) is not reported as `--threads 999`: one line names the artefact
//     and the entry and says the count is out of range for this machine, and the workload runs on
//     this machine's CPU count (too large) or 1 (malformed) - the choice documented at
//     runtime/tune/tuned.ts - unless a thread count is given;
//   - the tune summary says on each row what the tuned artefact keeps, and why when it keeps the
//     default rather than the fastest (the noise rule).
import { describe, it, expect } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { cpuDevice } from '../../runtime/tune/devices.ts';
import { tuningFamily } from '../../runtime/tune/families/index.ts';
import { loadTuned, type TunedEntry } from '../../runtime/tune/tuned.ts';
import { tune, formatSummary } from '../../runtime/tune/tuner.ts';
import { createProgress } from '../../runtime/tune/progress.ts';
import { open, readPqr, readVert, bundledMolecule } from '../../runtime/index.ts';

process.env.KERNFORGE_TUNE_FAMILIES = [new URL('./fake-family.ts', import.meta.url).pathname, new URL('./fake-flat.ts', import.meta.url).pathname].join(',');
const CLI = new URL('../../cli/kernforge.mjs', import.meta.url).pathname;
const P = availableParallelism();
const dev = cpuDevice();
const fp = dev.fingerprint;

/** An artefact with one entry per family and problem, all with `threads`. */
function artefact(entries: [family: string, problem: string, key: string][], threads: unknown, fingerprint = fp): string {
  const path = join(mkdtempSync(join(tmpdir(), 'kf-blame-')), 'kernforge-tuned.json');
  const tuned: Record<string, Record<string, TunedEntry>> = {};
  for (const [f, p, key] of entries) (tuned[f] ??= {})[p] = { key, threads: threads as number, medianMs: 1, defaultKey: null, defaultMs: null, speedup: null, when: '2026-01-01T00:00:00.000Z' };
  const file = { format: 'kernforge-tuned', version: 1, devices: { [fingerprint]: { id: 'cpu', target: 'ts', name: 'a CPU', vendor: dev.vendor, architecture: dev.architecture, targets: dev.targets } }, tuned: { [fingerprint]: tuned } };
  writeFileSync(path, JSON.stringify(file));
  return path;
}

const tooMany = (path: string, at: string, family: string, n = 999) =>
  `kernforge: ${path}: ${at}.threads is ${n}, out of range for this machine (1 to ${2 * P}: twice its ${P} CPUs); not using it: a run given no thread count (--threads) takes ${P} thread${P > 1 ? 's' : ''} (this machine's CPU count); \`kernforge tune ${family}\` here replaces the entry`;
const malformed = (path: string, at: string, family: string, shown: string) =>
  `kernforge: ${path}: ${at}.threads is ${shown}, not a positive integer; not using it: a run given no thread count (--threads) takes 1 thread (the untuned default); \`kernforge tune ${family}\` here replaces the entry`;

describe('a tuned thread count this machine cannot run', () => {
  it('loadTuned: too large -> the CPU count, malformed -> 1, each with one line naming the artefact and the entry', async () => {
    for (const [threads, want, line] of [
      [999, P, (p: string) => tooMany(p, `tuned.${fp}.fake.tiny`, 'fake')],
      [2 * P + 1, P, (p: string) => tooMany(p, `tuned.${fp}.fake.tiny`, 'fake', 2 * P + 1)],
      [0, 1, (p: string) => malformed(p, `tuned.${fp}.fake.tiny`, 'fake', '0')],
      [-2, 1, (p: string) => malformed(p, `tuned.${fp}.fake.tiny`, 'fake', '-2')],
      [2.5, 1, (p: string) => malformed(p, `tuned.${fp}.fake.tiny`, 'fake', '2.5')],
      ['4', 1, (p: string) => malformed(p, `tuned.${fp}.fake.tiny`, 'fake', '"4"')],
    ] as const) {
      const path = artefact([['fake', 'tiny', 'fake.ts.a2.b1']], threads);
      const said: string[] = [];
      const t = await loadTuned('fake', 'tiny', { path, load: false, notice: (l) => said.push(l), warn: () => {} });
      expect([t.key, t.tuned, t.threads], String(threads)).toEqual(['fake.ts.a2.b1', true, want]);
      expect(said).toEqual([line(path)]);
    }
  });

  it('loadTuned: counts this machine can run (up to twice its CPUs) are kept, silently', async () => {
    for (const n of [1, P, 2 * P]) {
      const path = artefact([['fake', 'tiny', 'fake.ts.a2.b1']], n);
      const said: string[] = [];
      expect((await loadTuned('fake', 'tiny', { path, load: false, notice: (l) => said.push(l) })).threads).toBe(n);
      expect(said).toEqual([]);
    }
  });

  it("loadTuned: the nearest device's entry too (a larger machine's count); the fallback warning names the count used", async () => {
    const near = { ...dev, vendor: dev.vendor ?? 'AMD', architecture: dev.architecture ?? 'x64' };
    const other = 'fedcba9876543210';
    const path = join(mkdtempSync(join(tmpdir(), 'kf-blame-near-')), 'kernforge-tuned.json');
    const e: TunedEntry = { key: 'fake.ts.a2.b1', threads: 999, medianMs: 1, defaultKey: null, defaultMs: null, speedup: null, when: '2026-01-01T00:00:00.000Z' };
    writeFileSync(path, JSON.stringify({ format: 'kernforge-tuned', version: 1, devices: { [other]: { id: 'cpu', target: 'ts', name: 'a big CPU', vendor: near.vendor, architecture: near.architecture, targets: near.targets } }, tuned: { [other]: { fake: { tiny: e } } } }));
    const said: string[] = [];
    const warned: string[] = [];
    const t = await loadTuned('fake', 'tiny', { device: near, path, load: false, notice: (l) => said.push(l), warn: (l) => warned.push(l) });
    expect([t.key, t.threads, t.nearest]).toEqual(['fake.ts.a2.b1', P, other]);
    expect(said).toEqual([tooMany(path, `tuned.${other}.fake.tiny`, 'fake')]);
    expect(warned).toHaveLength(1);
    expect(warned[0]).not.toContain('999');
  });

  it('run md: not blamed on --threads; runs on the CPU count, or on the count given', async () => {
    const key = (await tuningFamily('md-nonbonded'))!.defaultKey(dev, 'lj-fluid')!;
    const path = artefact([['md-nonbonded', 'lj-fluid', key]], 999);
    const env = { ...process.env, KERNFORGE_TUNED: path };
    const line = tooMany(path, `tuned.${fp}.md-nonbonded.lj-fluid`, 'md-nonbonded');
    const r = spawnSync(process.execPath, [CLI, 'run', 'md', '--cells', '4', '--steps', '5'], { env, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr.split('\n')).toContain(line);
    expect(`${r.stdout}${r.stderr}`).not.toContain('--threads 999');
    if (P > 1) expect(r.stdout).toContain(`non-bonded kernels on ${P} threads`);
    const given = spawnSync(process.execPath, [CLI, 'run', 'md', '--cells', '4', '--steps', '5', '--threads', '1'], { env, encoding: 'utf8' });
    expect(given.status, given.stderr).toBe(0);
    expect(given.stdout).not.toContain('non-bonded kernels on');
  });

  it('run bigdft: one line per tuned filter, then the CPU count', async () => {
    const f = (await tuningFamily('bigdft-conv'))!;
    const filters = ['magic', 'magic-t', 'kinetic'];
    const path = artefact(filters.map((p) => ['bigdft-conv', p, f.defaultKey(dev, p)!] as [string, string, string]), 999);
    const r = spawnSync(process.execPath, [CLI, 'run', 'bigdft', '--grid', '32x32x32', '--iterations', '1'], { env: { ...process.env, KERNFORGE_TUNED: path }, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    for (const p of filters) expect(r.stderr.split('\n')).toContain(tooMany(path, `tuned.${fp}.bigdft-conv.${p}`, 'bigdft-conv'));
    expect(`${r.stdout}${r.stderr}`).not.toContain('--threads 999');
    if (P > 1) expect(r.stdout).toContain(`threads: ${P} for the TypeScript and wasm variants`);
  });

  it('open().gem.potential: the session log has the line; the run takes the CPU count', async () => {
    const key = (await tuningFamily('gem-potential'))!.defaultKey(dev, 'surface')!;
    const path = artefact([['gem-potential', 'surface', key]], 999);
    const log: string[] = [];
    const kf = await open({ tuned: path, log: (l) => log.push(l) });
    const h = bundledMolecule('mb_hhelix');
    const r = await kf.gem.potential(readPqr(h.pqr), readVert(h.vert!));
    expect([r.key, r.threads, r.source]).toEqual([key, P, 'tuned']);
    expect(log).toContain(tooMany(path, `tuned.${fp}.gem-potential.surface`, 'gem-potential'));
  });
});

describe('the tune summary says what the tuned artefact keeps', () => {
  const cells = (line: string) => line.trim().split(/ {2,}/);

  it('formatSummary: "best", or the default kept and why (the noise rule), on the row', async () => {
    const d = mkdtempSync(join(tmpdir(), 'kf-blame-noise-'));
    const out = join(d, 'tuned.json');
    const r = await tune({ families: ['flat'], problems: ['flat', 'steep'], cache: d, out, reps: 3, log: () => {}, progress: createProgress({ quiet: true }) });
    const lines = formatSummary(r.rows).split('\n');
    expect(cells(lines[0]!)).toEqual(['device', 'family', 'problem', 'best variant', 'median ms', 'default variant', 'default ms', 'speed-up', 'evals (measured/cached/failed)', 'kept in the tuned artefact']);
    expect(cells(lines.find((l) => / flat {2,}flat /.test(l))!)).toEqual(['cpu', 'flat', 'flat', 'v1', '0.995', 'v0', '1.000', '1.01x', '3/3 (3/0/0)', 'default v0: v1 was only 1.005x faster, within the measured spread (2.0%)']);
    expect(cells(lines.find((l) => / flat {2,}steep /.test(l))!)).toEqual(['cpu', 'flat', 'steep', 'v1', '0.750', 'v0', '1.000', '1.33x', '3/3 (3/0/0)', 'best']);
    const art = JSON.parse(readFileSync(out, 'utf8')).tuned[fp].flat;
    expect([art.flat.key, art.steep.key]).toEqual(['flat.ts.v0', 'flat.ts.v1']);
    expect(lines.every((l) => l === l.trimEnd())).toBe(true);
  });

  it('kernforge tune prints it (and a warm re-run the same)', () => {
    const d = mkdtempSync(join(tmpdir(), 'kf-blame-noise-cli-'));
    const args = [CLI, 'tune', 'flat', '--problem', 'flat', '--cache', d, '--out', join(d, 'tuned.json'), '--reps', '3'];
    for (const run of ['cold', 'warm']) {
      const r = spawnSync(process.execPath, args, { env: { ...process.env, CI: 'true' }, encoding: 'utf8' });
      expect(r.status, r.stderr).toBe(0);
      const row = r.stdout.split('\n').find((l) => l.startsWith('cpu '))!;
      expect(cells(row).at(-1), run).toBe('default v0: v1 was only 1.005x faster, within the measured spread (2.0%)');
    }
  });
});
