// Targets and backends (issue 12, item 1): one Backend per target in one registry
// (runtime/backends/registry.ts), one table of runners per family (runtime/<family>/targets.ts),
// and every dispatch on a key's target a lookup in them. A fifth target registered here (a
// Backend and a runner in each family's table, serving copies of TypeScript variants under the
// target `ts-copy`) is found by the families' gates, workloads and apply3d without touching
// any other code, and removed again.
import { describe, it, expect, afterEach, vi } from 'vitest';
import { backend, backends, registerBackend } from '../runtime/backends/registry.ts';
import { UnknownTargetError, type Backend } from '../runtime/backends/backend.ts';
import { MissingRunnerError, TargetTable } from '../runtime/backends/table.ts';
import { KernforgeError, isUserError } from '../runtime/errors.ts';
import { libraryKeys, manifest, UnknownVariantError } from '../runtime/variants.ts';
import { keyFamily, keyTarget, shortKey } from '../runtime/keys.ts';
import { GEM_TARGETS, type GemTargetRunner } from '../runtime/gem/targets.ts';
import { MD_TARGETS, type MdTargetRunner } from '../runtime/md/targets.ts';
import { CONV_TARGETS, type ConvTargetRunner } from '../runtime/bigdft/targets.ts';
import { readPqr, readVert, gemParams, gemArgs, gemVariantInfo, type GemTsModule, type GemVertices } from '../runtime/gem/index.ts';
import { verifyGemKey } from '../runtime/gem/gate.ts';
import { runGemWorkload } from '../runtime/gem/workload.ts';
import { verifyVariant } from '../runtime/md/verify.ts';
import { verificationCases } from '../runtime/md/cases.ts';
import { checkShape, mdShape, type MdTsModule } from '../runtime/md/kernels.ts';
import { verifyConv } from '../runtime/bigdft/verify.ts';
import { apply3d } from '../runtime/bigdft/apply.ts';
import { randomValues } from '../runtime/bigdft/verify.ts';
import { GEM_DATA_DIR } from '../runtime/data.ts';

const BUILTIN = ['ts', 'wasm', 'wgsl', 'gpujs'];
const TABLES: [string, TargetTable<unknown>][] = [
  ['md-nonbonded', MD_TARGETS],
  ['gem-potential', GEM_TARGETS],
  ['bigdft-conv', CONV_TARGETS],
];

/** Library keys, one per target of the family. */
function keyPerTarget(family: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const k of libraryKeys(family)) if (!out.has(keyTarget(k))) out.set(keyTarget(k), k);
  return out;
}

const undo: (() => void)[] = [];
afterEach(() => {
  while (undo.length) undo.pop()!();
  vi.unstubAllEnvs();
});

describe('the backend registry', () => {
  it('lists the four targets, one backend each; threaded: ts and wasm', () => {
    expect(backends().map((b) => b.target)).toEqual(BUILTIN);
    for (const t of BUILTIN) expect(backend(t).target).toBe(t);
    expect(backends().filter((b) => b.threaded).map((b) => b.target)).toEqual(['ts', 'wasm']);
    for (const b of backends()) expect(b.description).toMatch(/\w/);
  });

  it('an unknown target is a KernforgeError naming the registered ones', () => {
    let err: unknown;
    try {
      backend('cuda');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(UnknownTargetError);
    expect(err).toBeInstanceOf(KernforgeError);
    expect(isUserError(err)).toBe(true);
    expect((err as Error).message).toBe('unknown target "cuda"; registered targets: ts, wasm, wgsl, gpujs');
  });

  it('says whether each target runs here without throwing: ts always; wasm by the SIMD probe; gpujs by its modes; KERNFORGE_* turn them off', async () => {
    expect(await backend('ts').available()).toMatchObject({ ok: true });
    expect(await backend('wasm').available()).toMatchObject({ ok: true });
    expect(await backend('gpujs').available()).toMatchObject({ ok: true });
    expect(await backend('gpujs').available('cpu')).toEqual({ ok: true, detail: 'gpu.js cpu mode' });
    expect(await backend('gpujs').available('cuda')).toMatchObject({ ok: false, why: expect.stringMatching(/unknown gpu\.js mode "cuda"/) });
    const wgsl = await backend('wgsl').available();
    expect(typeof wgsl.ok).toBe('boolean');
    vi.stubEnv('KERNFORGE_WASM_SIMD', 'off');
    vi.stubEnv('KERNFORGE_GPUJS', 'off');
    expect(await backend('wasm').available()).toEqual({ ok: false, why: 'turned off by KERNFORGE_WASM_SIMD=off' });
    expect(await backend('gpujs').available('cpu')).toEqual({ ok: false, why: 'turned off by KERNFORGE_GPUJS=off' });
  });

  it('loads each target\'s code once per key: the TS module, the compiled WebAssembly.Module, the WGSL source, the gpu.js module', async () => {
    const keys = keyPerTarget('gem-potential');
    const ts = (await backend('ts').load(keys.get('ts')!)) as GemTsModule;
    expect(typeof ts.kernel).toBe('function');
    expect(await backend('ts').load(keys.get('ts')!)).toBe(ts);
    const wasm = await backend('wasm').load(keys.get('wasm')!);
    expect(wasm).toBeInstanceOf(WebAssembly.Module);
    expect(await backend('wasm').load(keys.get('wasm')!)).toBe(wasm);
    const wgsl = await backend('wgsl').load(keys.get('wgsl')!);
    expect(wgsl).toMatch(/@compute/);
    const gj = (await backend('gpujs').load(keys.get('gpujs')!)) as { kernel: unknown };
    expect(typeof gj.kernel).toBe('function');
    // a key of another target names what it is
    await expect(backend('wasm').load(keys.get('ts')!)).rejects.toThrow(UnknownVariantError);
    await expect(backend('wgsl').load(keys.get('ts')!)).rejects.toThrow(/is a ts variant, not WGSL/);
  });
});

describe('the family tables', () => {
  it('each family has a runner for every target its library has, and every runner\'s target has a backend', () => {
    for (const [family, table] of TABLES) {
      const inLibrary = [...new Set(libraryKeys(family).map(keyTarget))].sort();
      expect(inLibrary.length, family).toBeGreaterThan(0);
      for (const t of inLibrary) expect(table.targets(), `${family} ${t}`).toContain(t);
      for (const t of table.targets()) expect(backend(t).target).toBe(t);
      expect(table.family).toBe(family);
    }
  });

  it('a target with a backend but no runner in a family is a clear KernforgeError; one without a backend an UnknownTargetError', async () => {
    undo.push(registerBackend({ target: 'cuda', description: 'a target no family runs', threaded: false, available: async () => ({ ok: false, why: 'none' }), load: async () => undefined }));
    expect(backends().map((b) => b.target)).toEqual([...BUILTIN, 'cuda']);
    expect(() => MD_TARGETS.get('cuda', 'run md')).toThrow(MissingRunnerError);
    expect(() => MD_TARGETS.get('cuda', 'run md')).toThrow('md-nonbonded has no cuda runner for run md (it has runners for ts, wasm, wgsl, gpujs)');
    expect(() => GEM_TARGETS.get('cuda', 'run gem')).toThrow('gem-potential has no cuda runner for run gem (it has runners for ts, wasm, wgsl, gpujs)');
    expect(() => CONV_TARGETS.get('opencl', 'apply3d')).toThrow(UnknownTargetError);
    expect(isUserError(new MissingRunnerError('x'))).toBe(true);
  });
});

describe('a fifth target: one backend and one runner per family, nothing else', () => {
  /** The ts-copy key of a TypeScript key, and back. */
  const copyOf = (key: string): string => `${keyFamily(key)}.ts-copy.${shortKey(key, 'target')}`;
  const tsOf = (key: string): string => `${keyFamily(key)}.ts.${shortKey(key, 'target')}`;

  /** The fake target's backend: TypeScript modules, loaded under their copy's key. */
  const tsCopy: Backend = {
    target: 'ts-copy',
    description: 'TypeScript variants under another target name (a test)',
    threaded: false,
    available: () => backend('ts').available(),
    load: (key) => backend('ts').load(tsOf(key)),
  };

  /** Register the target, its runners and one library entry per TS key given (the generator's part); all undone after the test. */
  function install(tsKeys: string[]): void {
    undo.push(registerBackend(tsCopy));
    // gem-potential: its own runner on the backend's module, one thread
    const gem: GemTargetRunner = {
      async prepare(key, atoms, vertices, o) {
        const mod = (await backend('ts-copy').load(key)) as GemTsModule;
        const { precision } = await gemVariantInfo(key);
        const args = gemArgs(atoms, vertices, o.params, precision);
        return { run: async () => mod.kernel(args), result: async () => Float64Array.from(args.phi), dispose() {}, device: 'ts-copy (this process)', precision };
      },
    };
    undo.push(GEM_TARGETS.register('ts-copy', gem));
    // md-nonbonded: its own runner on the backend's module
    const md: MdTargetRunner = {
      async prepare(key, problem) {
        const mod = (await backend('ts-copy').load(key)) as MdTsModule;
        const shape = await mdShape(key);
        checkShape(key, shape, problem);
        const out = problem.outputs(shape.precision);
        const args = { ...problem.args(shape.precision), ...out };
        return {
          run: async () => {
            for (const a of Object.values(out)) a.fill(0);
            mod.kernel(args);
          },
          result: async () => problem.finish(shape.precision, out),
          dispose() {},
          device: 'ts-copy (this process)',
        };
      },
    };
    undo.push(MD_TARGETS.register('ts-copy', md));
    // bigdft-conv: the TypeScript runner on the original key
    const conv: ConvTargetRunner = { prepare: (key, dims, o) => CONV_TARGETS.get('ts', 'ts-copy').prepare(tsOf(key), dims, o) };
    undo.push(CONV_TARGETS.register('ts-copy', conv));
    for (const k of tsKeys) {
      const e = manifest().get(k)!;
      const copy = copyOf(k);
      manifest().set(copy, { ...e, key: copy, target: 'ts-copy', params: { ...e.params, target: 'ts-copy' } });
      undo.push(() => void manifest().delete(copy));
    }
  }

  it('gem-potential: the gate and the workload run it through GEM_TARGETS', async () => {
    const tsKey = 'gem-potential.ts.region1.f32.zero.unroll4.div.block0';
    install([tsKey]);
    const key = copyOf(tsKey);
    expect(keyTarget(key)).toBe('ts-copy');
    const atoms = readPqr(`${GEM_DATA_DIR}mb_hhelix.pqr`);
    const all = readVert(`${GEM_DATA_DIR}mb_hhelix.vert`);
    const n = 400;
    // vertices spread over the whole surface (a patch would fail the GEM input check: atoms far outside it)
    const pick = (a: Float64Array) => Float64Array.from({ length: n }, (_, i) => a[Math.floor((i * all.n) / n)]!);
    const verts: GemVertices = { n, x: pick(all.x), y: pick(all.y), z: pick(all.z), nx: pick(all.nx), ny: pick(all.ny), nz: pick(all.nz) };
    const P = gemParams(atoms, { epsIn: 1, epsOut: 80, salt: 0, p: 0 });
    const gate = await verifyGemKey(key, atoms, verts, P, 1, 100);
    expect(gate.ok).toBe(true);
    expect(gate).toEqual(await verifyGemKey(tsKey, atoms, verts, P, 1, 100));
    const o = { atoms, vertices: verts, epsIn: 1, epsOut: 80, salt: 0, projLen: 0, output: null, verifyVertices: 100 };
    const copy = await runGemWorkload({ ...o, variant: key });
    const orig = await runGemWorkload({ ...o, variant: tsKey });
    expect(copy.variant).toBe(key);
    expect(copy.device).toBe('ts-copy (this process)');
    expect(Array.from(copy.phi)).toEqual(Array.from(orig.phi));
  });

  it('md-nonbonded: the gate runs it through MD_TARGETS', async () => {
    const tsKey = 'md-nonbonded.ts.lj-rf.geom.shift.f64.fev.4x4.mask.mask';
    install([tsKey]);
    const c = verificationCases('quick')[0]!;
    const d = await verifyVariant(copyOf(tsKey), c);
    expect(d.ok).toBe(true);
    expect(d).toEqual(await verifyVariant(tsKey, c));
  });

  it('bigdft-conv: the gate and apply3d run it through CONV_TARGETS', async () => {
    const tsKey = 'bigdft-conv.ts.magic.periodic.f64.separable-t.8x1.inline.table';
    install([tsKey]);
    const key = copyOf(tsKey);
    const v = await verifyConv(key);
    expect(v.ok).toBe(true);
    expect(v.maxError).toBe((await verifyConv(tsKey)).maxError);
    const dims = [17, 18, 19] as const;
    const x = randomValues(dims[0] * dims[1] * dims[2], 7);
    expect(Array.from(await apply3d(key, x, ...dims))).toEqual(Array.from(await apply3d(tsKey, x, ...dims)));
  });

  it('is gone again after the test', () => {
    expect(backends().map((b) => b.target)).toEqual(BUILTIN);
    for (const [, table] of TABLES) expect(table.targets()).toEqual(BUILTIN);
    expect(() => backend('ts-copy')).toThrow(UnknownTargetError);
    expect([...manifest().values()].some((e) => e.target === 'ts-copy')).toBe(false);
  });
});
