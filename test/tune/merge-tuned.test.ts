// A tuned artefact for many devices: vendor and architecture recorded per device, mergeTuned and
// `kernforge merge-tuned` (union of fingerprints, the later `when` wins a conflict, files of
// another format or version refused with one line), and loadTuned's nearest device (same id,
// targets, vendor and architecture) — never one of another kind.
import { describe, it, expect } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cpuDevice, cpuVendor, type Device } from '../../runtime/tune/devices.ts';
import { loadTuned, mergeTuned, updateTuned, TunedFileError, type TunedEntry, type TunedFile, type TunedDevice } from '../../runtime/tune/tuned.ts';
import { KernforgeError } from '../../runtime/errors.ts';
import { keyOf } from './fake-family.ts';

process.env.KERNFORGE_TUNE_FAMILIES = new URL('./fake-family.ts', import.meta.url).pathname;
const root = new URL('../..', import.meta.url).pathname;
const cli = (...args: string[]) => spawnSync('node', [join(root, 'cli/kernforge.mjs'), ...args], { encoding: 'utf8', cwd: root });
const dir = () => mkdtempSync(join(tmpdir(), 'kf-merge-'));

const FP_A = 'aaaaaaaaaaaaaaaa';
const FP_B = 'bbbbbbbbbbbbbbbb';
const amd: TunedDevice = { id: 'cpu', target: 'ts', name: 'AMD EPYC 7B13 x 16, node v22.1.0', targets: ['ts', 'wasm'], vendor: 'AMD', architecture: 'x64' };
const entry = (key: string, when: string, threads?: number): TunedEntry => ({ key, ...(threads ? { threads } : {}), medianMs: 1, defaultKey: keyOf(3, 3), defaultMs: 2, speedup: 2, when, strategy: 'exhaustive', evaluated: 16, candidates: 16 });
const artefact = (devices: Record<string, TunedDevice>, tuned: TunedFile['tuned']): TunedFile => ({ format: 'kernforge-tuned', version: 1, devices, tuned });
/** This machine as loadTuned sees it, with a fingerprint of its own (nothing tuned for it). */
const thisCpu = (fingerprint: string, o: Partial<Device> = {}): Device => ({ id: 'cpu', target: 'ts', targets: ['ts', 'wasm'], name: 'this machine', available: true, fingerprint, vendor: 'AMD', architecture: 'x64', details: {}, ...o });

describe('devices record vendor and architecture', () => {
  it('the CPU: vendor from the model string, architecture process.arch; updateTuned stores both', () => {
    expect(cpuVendor('AMD EPYC 7B13 64-Core Processor')).toBe('AMD');
    expect(cpuVendor('Intel(R) Xeon(R) CPU @ 2.20GHz')).toBe('Intel');
    expect(cpuVendor('Apple M2 Pro')).toBe('Apple');
    expect(cpuVendor('Neoverse-N1')).toBe('ARM');
    expect(cpuVendor('Qualcomm Snapdragon X Elite')).toBe('Qualcomm');
    expect(cpuVendor('')).toBe('unknown');
    const cpu = cpuDevice({ wasmSimd: { ok: true } });
    expect(cpu.architecture).toBe(process.arch);
    expect(cpu.vendor).toBe(cpuVendor(String(cpu.details.model)));
    const out = join(dir(), 'tuned.json');
    updateTuned(out, cpu, 'fake', 'tiny', entry(keyOf(2, 1), '2024-01-01T00:00:00.000Z'));
    const f = JSON.parse(readFileSync(out, 'utf8')) as TunedFile;
    expect(f.version).toBe(1);
    expect(f.devices[cpu.fingerprint]).toEqual({ id: 'cpu', target: 'ts', name: cpu.name, targets: ['ts', 'wasm'], vendor: cpu.vendor, architecture: process.arch });
  });

  it('an artefact without vendor and architecture still loads for its own fingerprint', async () => {
    const out = join(dir(), 'old.json');
    writeFileSync(out, JSON.stringify(artefact({ [FP_A]: { id: 'cpu', target: 'ts', name: 'old' } }, { [FP_A]: { fake: { tiny: entry(keyOf(1, 2), '2023-01-01T00:00:00.000Z', 2) } } })));
    const t = await loadTuned('fake', 'tiny', { path: out, load: false, device: thisCpu(FP_A), warn: () => {} });
    expect(t).toMatchObject({ key: keyOf(1, 2), threads: 2, tuned: true, problem: 'tiny' });
    expect(t.nearest).toBeUndefined();
    expect(mergeTuned([{ path: out, file: JSON.parse(readFileSync(out, 'utf8')) }]).file.devices[FP_A]).toEqual({ id: 'cpu', target: 'ts', name: 'old' });
  });
});

describe('mergeTuned', () => {
  const a = artefact({ [FP_A]: amd }, { [FP_A]: { fake: { tiny: entry(keyOf(2, 1), '2024-03-01T00:00:00.000Z', 4) } } });
  const b = artefact({ [FP_B]: { ...amd, name: 'another AMD' } }, { [FP_B]: { fake: { tiny: entry(keyOf(1, 1), '2024-01-01T00:00:00.000Z'), 'tiny-quick': entry(keyOf(2, 2), '2024-01-02T00:00:00.000Z', 2) } } });

  it('unions the devices and entries of different fingerprints', () => {
    const r = mergeTuned([{ path: 'a.json', file: a }, { path: 'b.json', file: b }]);
    expect(r.replaced).toEqual([]);
    expect(Object.keys(r.file.devices).sort()).toEqual([FP_A, FP_B]);
    expect(r.file.devices[FP_B]).toEqual({ ...amd, name: 'another AMD' });
    expect(r.file.tuned[FP_A]!.fake!.tiny).toMatchObject({ key: keyOf(2, 1), threads: 4 });
    expect(r.file.tuned[FP_B]!.fake!.tiny).toMatchObject({ key: keyOf(1, 1) });
    expect(r.file.tuned[FP_B]!.fake!['tiny-quick']).toMatchObject({ key: keyOf(2, 2), threads: 2 });
    expect(r.sources[FP_B]).toEqual({ 'fake/tiny': 'b.json', 'fake/tiny-quick': 'b.json' });
  });

  it('for the same fingerprint, family and problem keeps the later `when`, whatever the order, and says which file won', () => {
    const newer = artefact({ [FP_A]: amd }, { [FP_A]: { fake: { tiny: entry(keyOf(3, 1), '2024-05-01T00:00:00.000Z', 2) } } });
    for (const inputs of [[{ path: 'a.json', file: a }, { path: 'new.json', file: newer }], [{ path: 'new.json', file: newer }, { path: 'a.json', file: a }]]) {
      const r = mergeTuned(inputs);
      expect(r.file.tuned[FP_A]!.fake!.tiny).toMatchObject({ key: keyOf(3, 1), threads: 2, when: '2024-05-01T00:00:00.000Z' });
      expect(r.sources[FP_A]!['fake/tiny']).toBe('new.json');
      expect(r.replaced).toHaveLength(1);
      expect(r.replaced[0]).toMatch(new RegExp(`^${FP_A} fake/tiny: new\\.json wins \\(fake\\.ts\\.a3\\.b1 @2t, 2024-05-01.*later than a\\.json \\(fake\\.ts\\.a2\\.b1 @4t, 2024-03-01`));
    }
    // the same entry in two files is no conflict
    expect(mergeTuned([{ path: 'a.json', file: a }, { path: 'a2.json', file: structuredClone(a) }]).replaced).toEqual([]);
  });

  it('refuses a file of another format or version with a TunedFileError naming it and the versions', () => {
    const v2 = { ...a, version: 2 };
    expect(() => mergeTuned([{ path: 'a.json', file: a }, { path: 'v2.json', file: v2 }])).toThrow(TunedFileError);
    expect(() => mergeTuned([{ path: 'v2.json', file: v2 }])).toThrow('v2.json is a kernforge-tuned file of version 2; this kernforge reads version 1 only');
    const cache = { format: 'kernforge-tune-cache', version: 1, device: {}, results: {}, runs: [] };
    expect(() => mergeTuned([{ path: 'cache.json', file: cache }])).toThrow('cache.json is not a kernforge-tuned file (format "kernforge-tune-cache"; expected format "kernforge-tuned" version 1)');
    let err: unknown;
    try {
      mergeTuned([{ path: 'bad.json', file: artefact({}, { [FP_A]: { fake: { tiny: { key: keyOf(1, 1) } as TunedEntry } } }) }]);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(KernforgeError);
    expect((err as Error).message).toBe(`bad.json: tuned.${FP_A}.fake.tiny.when must be an ISO date (kernforge-tuned version 1)`);
  });
});

describe('kernforge merge-tuned', () => {
  it('writes the union, one line per conflict saying which file won, and a summary', () => {
    const d = dir();
    const write = (name: string, f: unknown) => (writeFileSync(join(d, name), JSON.stringify(f)), join(d, name));
    const a = write('a.json', artefact({ [FP_A]: amd }, { [FP_A]: { fake: { tiny: entry(keyOf(2, 1), '2024-03-01T00:00:00.000Z', 4) } } }));
    const b = write('b.json', artefact({ [FP_B]: { ...amd, name: 'another AMD' }, [FP_A]: amd }, {
      [FP_B]: { fake: { tiny: entry(keyOf(1, 1), '2024-01-01T00:00:00.000Z') } },
      [FP_A]: { fake: { tiny: entry(keyOf(1, 3), '2024-02-01T00:00:00.000Z') } },
    }));
    const out = join(d, 'lib', 'lib.json');
    const r = cli('merge-tuned', a, b, '-o', out);
    expect(r.status, r.stderr).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toBe(`${FP_A} fake/tiny: ${a} wins (${keyOf(2, 1)} @4t, 2024-03-01T00:00:00.000Z), later than ${b} (${keyOf(1, 3)}, 2024-02-01T00:00:00.000Z)`);
    expect(lines[1]).toBe(`merged 2 file(s) into ${out}: 2 device(s), 2 entries, 1 conflict(s) resolved by the later \`when\``);
    expect(lines.slice(2)).toEqual([`  ${FP_A} cpu ${amd.name} [AMD x64]: 1 entry (fake 1)`, `  ${FP_B} cpu another AMD [AMD x64]: 1 entry (fake 1)`]);
    const m = JSON.parse(readFileSync(out, 'utf8')) as TunedFile;
    expect(m).toMatchObject({ format: 'kernforge-tuned', version: 1 });
    expect(m.tuned[FP_A]!.fake!.tiny).toMatchObject({ key: keyOf(2, 1), threads: 4 });
    expect(m.tuned[FP_B]!.fake!.tiny!.key).toBe(keyOf(1, 1));
    expect(readdirSync(join(d, 'lib'))).toEqual(['lib.json']); // no temporary file left
  }, 60_000);

  it('a file of another version: exit 2, one line naming the file and the versions, no stack trace, nothing written', () => {
    const d = dir();
    const a = join(d, 'a.json');
    const v2 = join(d, 'v2.json');
    writeFileSync(a, JSON.stringify(artefact({ [FP_A]: amd }, { [FP_A]: { fake: { tiny: entry(keyOf(2, 1), '2024-03-01T00:00:00.000Z') } } })));
    writeFileSync(v2, JSON.stringify({ format: 'kernforge-tuned', version: 2, devices: {}, tuned: {} }));
    const out = join(d, 'lib.json');
    const r = cli('merge-tuned', a, v2, '-o', out);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(`kernforge: error: ${v2} is a kernforge-tuned file of version 2; this kernforge reads version 1 only\n`);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.stdout).toBe('');
    expect(existsSync(out)).toBe(false);
    const bad = cli('merge-tuned', a, join(d, 'missing.json'), '-o', out);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toBe(`kernforge: error: ${join(d, 'missing.json')}: no such file\n`);
    expect(existsSync(out)).toBe(false);
  }, 60_000);
});

describe('loadTuned: the nearest device', () => {
  const FP_OLD = 'cccccccccccccccc';
  const lib = (): string => {
    const out = join(dir(), 'lib.json');
    writeFileSync(out, JSON.stringify(artefact(
      { [FP_A]: amd, [FP_B]: { ...amd, name: 'a newer AMD' }, [FP_OLD]: { ...amd, name: 'an older AMD' } },
      {
        [FP_A]: { fake: { tiny: entry(keyOf(2, 1), '2024-03-01T00:00:00.000Z', 4) } },
        [FP_B]: { fake: { tiny: entry(keyOf(1, 2), '2024-06-01T00:00:00.000Z', 2) } },
        [FP_OLD]: { fake: { tiny: entry(keyOf(3, 2), '2023-01-01T00:00:00.000Z') } },
      },
    )));
    return out;
  };

  it('takes the most recent entry of a device with the same id, targets, vendor and architecture, and says so', async () => {
    const warnings: string[] = [];
    const own = 'dddddddddddddddd';
    const t = await loadTuned('fake', 'tiny', { path: lib(), load: false, device: thisCpu(own, { targets: ['wasm', 'ts'] }), warn: (l) => warnings.push(l) });
    expect(t).toMatchObject({ key: keyOf(1, 2), threads: 2, tuned: true, problem: 'tiny', nearest: FP_B });
    expect(t.entry!.when).toBe('2024-06-01T00:00:00.000Z');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).not.toContain('\n');
    expect(warnings[0]).toContain(`on this cpu (fingerprint ${own})`);
    expect(warnings[0]).toContain(`using ${keyOf(1, 2)} on 2 threads, tuned for tiny on the nearest device a newer AMD (fingerprint ${FP_B}: same AMD x64, targets ts/wasm)`);
  });

  it('prefers its own entry, its own quick class, then the nearest', async () => {
    const path = lib();
    const f = JSON.parse(readFileSync(path, 'utf8')) as TunedFile;
    const own = 'eeeeeeeeeeeeeeee';
    f.devices[own] = amd;
    f.tuned[own] = { fake: { 'tiny-quick': entry(keyOf(2, 3), '2022-01-01T00:00:00.000Z') } };
    writeFileSync(path, JSON.stringify(f));
    const t = await loadTuned('fake', 'tiny', { path, load: false, device: thisCpu(own), warn: () => {} });
    expect(t).toMatchObject({ key: keyOf(2, 3), threads: 1, tuned: true, problem: 'tiny-quick' });
    expect(t.nearest).toBeUndefined();
  });

  it('never takes a device of another vendor, architecture, id or target set: the default, with its warning', async () => {
    const path = lib();
    const cases: [string, Partial<Device>][] = [
      ['1111111111111111', { vendor: 'Intel' }],
      ['2222222222222222', { architecture: 'arm64' }],
      ['3333333333333333', { targets: ['ts'] }],
      ['4444444444444444', { targets: ['ts', 'wasm', 'gpujs'] }],
      ['5555555555555555', { id: 'webgpu', target: 'wgsl', targets: ['wgsl'] }],
      ['6666666666666666', { vendor: undefined }],
    ];
    for (const [fp, o] of cases) {
      const warnings: string[] = [];
      const t = await loadTuned('fake', 'tiny', { path, load: false, device: thisCpu(fp, o), warn: (l) => warnings.push(l) });
      expect(t, JSON.stringify(o)).toMatchObject({ key: keyOf(3, 3), threads: 1, tuned: false });
      expect(t.nearest).toBeUndefined();
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(new RegExp(`no tuned fake variant for tiny .*none for fingerprint ${fp}.*using the default fake\\.ts\\.a3\\.b3`));
    }
  });

  it('a recorded device without vendor and architecture (an older artefact) is never the nearest', async () => {
    const out = join(dir(), 'old.json');
    writeFileSync(out, JSON.stringify(artefact({ [FP_A]: { id: 'cpu', target: 'ts', name: 'old', targets: ['ts', 'wasm'] } }, { [FP_A]: { fake: { tiny: entry(keyOf(1, 2), '2023-01-01T00:00:00.000Z') } } })));
    const t = await loadTuned('fake', 'tiny', { path: out, load: false, device: thisCpu('7777777777777777'), warn: () => {} });
    expect(t).toMatchObject({ key: keyOf(3, 3), tuned: false });
  });
});
