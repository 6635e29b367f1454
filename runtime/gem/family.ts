// Tuning gem-potential for the GEM workload (`kernforge run gem`).
// Problem 'surface' ('surface-small': every 4th vertex, for quick runs): Mb.Hhelix (data/gem/mb_hhelix.pqr with its MSMS surface), eps 80/1,
// no salt, p = 0: region 1, zero salt, f32 (the workload's precision). Candidates: on the CPU the
// TS variants and, when the device offers WebAssembly SIMD (targets include wasm), the wasm ones
// of the same semantic axes (the target aside), so the winner may be either; on WebGPU the WGSL
// ones. Tuning axes varied: unroll, rsqrt, block (TS); unroll, rsqrt, vector, simd (wasm; relaxed
// SIMD only where the engine compiles it); unroll,
// workgroup (WGSL). The winner's tuning axes are carried over to other regions and salts by the
// workload (carryOverGemKey in run.ts), the semantic axes being the caller's.
// Measured: milliseconds of one kernel call over every vertex and atom (WGSL: one dispatch; wasm:
// one call, the inputs copied into the instance's memory once beforehand).
// Verified on 200 vertices spread over the surface with the workload's own gate for the key's
// target (runtime/gem/gate.ts verifyGemKey: f32 5e-6, f64 1e-11 of the sum of |terms| per vertex).
import { keyTarget } from '../keys.ts';
import { platform } from '../platform.ts';
import { variantParams } from '../variants.ts';
import { inGpujsModes, sameSemantics } from '../tune/semantic.ts';
import type { Device } from '../tune/devices.ts';
import type { PreparedProblem, ProblemClass, TuningFamily, CandidateOptions, RunOptions } from '../tune/family.ts';
import { cpuThreadCounts, PoolsByThreads } from '../tune/threads.ts';
import { problemOf } from '../tune/family.ts';
import { compilableWasmKeys } from '../backends/wasm.ts';
import type { GemAtoms, GemVertices, GemParams } from './index.ts';

import { GEM_DATA_DIR as GEM_DATA } from '../data.ts';
const PROBLEMS: ProblemClass[] = [
  { name: 'surface', description: 'Mb.Hhelix on its MSMS surface (382 atoms x 5884 vertices), region 1, zero salt, f32 (the GEM workload)' },
  { name: 'surface-small', description: 'Mb.Hhelix on every 4th vertex of its surface, as surface', quick: true, serves: 'surface' },
];
/** The wasm variant whose semantic axes the wasm candidates share (run gem --target wasm's default for region 1, zero salt). */
const WASM_REFERENCE = 'gem-potential.wasm.region1.f32.zero.unroll8.div.block0.vertices.simd128';

interface Input {
  atoms: GemAtoms;
  verts: GemVertices;
  params: GemParams;
}
let input: Promise<Input> | undefined;
async function loadInput(problem: string): Promise<Input> {
  problemOf(family, problem);
  const all = await loadAll();
  return problem === 'surface-small' ? { ...all, verts: subset(all.verts, Math.ceil(all.verts.n / 4)) } : all;
}
function loadAll(): Promise<Input> {
  input ??= (async () => {
    const pqr = `${GEM_DATA}mb_hhelix.pqr`;
    const vert = `${GEM_DATA}mb_hhelix.vert`;
    if (!platform().exists(pqr) || !platform().exists(vert)) throw new Error(`gem-potential problem "surface" needs ${pqr} and ${vert}`);
    const { readPqr, readVert, gemParams } = await import('./index.ts');
    const atoms = readPqr(pqr);
    const verts = readVert(vert);
    return { atoms, verts, params: gemParams(atoms, { epsIn: 1, epsOut: 80, salt: 0, p: 0 }) };
  })();
  return input;
}

const subset = (v: GemVertices, m: number): GemVertices => {
  const idx = Array.from({ length: Math.min(m, v.n) }, (_, i) => Math.floor((i * v.n) / Math.min(m, v.n)));
  const pick = (a: Float64Array) => Float64Array.from(idx, (i) => a[i]!);
  return { n: idx.length, x: pick(v.x), y: pick(v.y), z: pick(v.z), nx: pick(v.nx), ny: pick(v.ny), nz: pick(v.nz) };
};

export const family: TuningFamily = {
  family: 'gem-potential',
  measures: 'ms of one kernel call over all vertices x atoms (WGSL: one dispatch; wasm: one call on inputs already in its memory)',
  problems: () => PROBLEMS,

  async candidates(device: Device, problem: string, o: CandidateOptions = {}): Promise<string[]> {
    // region 1, zero salt, f32 (the default's semantic axes), tuning axes free; wasm ones too on a CPU with SIMD
    problemOf(family, problem);
    const out = await sameSemantics(family.defaultKey(device, problem)!, o.space);
    if (device.target === 'ts' && (device.targets ?? []).includes('wasm')) {
      // relaxed SIMD variants only where the engine compiles them (runtime/backends/wasm.ts)
      const wasm = await sameSemantics(WASM_REFERENCE, o.space);
      out.push(...(await compilableWasmKeys(wasm)));
    }
    // gpu.js: the modes that run on this device (cpu: cpu, webasm; webgpu: headlessgl, webgpu)
    // (the gpu.js space of these semantic axes is one key per mode: rendered on demand where the
    // library lacks it)
    out.push(...(await inGpujsModes('gem-potential.gpujs.region1.f32.zero.unroll1.div.block0', device.gpujsModes, 'full')));
    return out;
  },

  defaultKey(device: Device): string {
    // runtime/gem/defaults.ts preferredGemKey: f32, unroll 4, exact division, no blocking
    return device.target === 'ts' ? 'gem-potential.ts.region1.f32.zero.unroll4.div.block0' : 'gem-potential.wgsl.region1.f32.zero.unroll4.div.block0.workgroup64';
  },

  startKeys(device: Device): string[] {
    // the wasm workload's own key beside the TypeScript default (about 8x faster on the CPU)
    return device.target === 'ts' && (device.targets ?? []).includes('wasm') ? [WASM_REFERENCE] : [];
  },

  threadCounts: cpuThreadCounts,

  async verify(key: string, _device: Device, problem: string) {
    // the workload's gate for the key's target (runtime/gem/gate.ts verifyGemKey)
    const { atoms, verts, params } = await loadInput(problem);
    const { gemVariantInfo } = await import('./index.ts');
    const { verifyGemKey } = await import('./gate.ts');
    const v = await verifyGemKey(key, atoms, verts, params, (await gemVariantInfo(key)).region, 200);
    return { ok: v.ok, error: v.worst, detail: v.ok ? undefined : v.detail };
  },

  async verifyKey(key: string) {
    // Mb.Hhelix with the key's region (p = 0, 1, 3 put the points in regions 1, 2, 3) and salt
    const { atoms, verts } = await loadAll();
    const { gemVariantInfo, gemParams } = await import('./index.ts');
    const { verifyGemKey } = await import('./gate.ts');
    // (region 1 also at p = -3, inside the sphere: p = 0 runs its one-root loop, p < 0 the two-root one)
    const info = await gemVariantInfo(key);
    const ps = info.region === 1 ? [0, -3] : [({ 2: 1, 3: 3 } as const)[info.region]];
    const runs: { p: number; ok: boolean; worst: number; detail: string }[] = [];
    for (const p of ps) {
      const params = gemParams(atoms, { epsIn: 1, epsOut: 80, salt: info.salt === 'zero' ? 0 : 0.15, p });
      runs.push({ p, ...(await verifyGemKey(key, atoms, verts, params, info.region, 200)) });
    }
    const bad = runs.find((r) => !r.ok);
    return { ok: !bad, error: Math.max(...runs.map((r) => r.worst)), detail: bad && (ps.length > 1 ? `p = ${bad.p}: ${bad.detail}` : bad.detail) };
  },

  async prepare(_device: Device, problem: string): Promise<PreparedProblem> {
    // every key on its own target's runner, whatever the device's primary target: TS on its
    // arguments (threads: the vertices split over a pool's workers), wasm on instances holding
    // the problem, gpu.js compiled on the first run (the warm-up), WGSL one dispatch
    const { atoms, verts, params } = await loadInput(problem);
    const { GEM_TARGETS } = await import('./targets.ts');
    const pools = new PoolsByThreads();
    let cur: { id: string; run: () => Promise<unknown>; destroy?: () => unknown } | undefined;
    const open = async (key: string, threads: number): Promise<NonNullable<typeof cur>> => {
      // the runner of the key's target (runtime/gem/targets.ts), TS and wasm on a pool's workers with threads
      const pool = threads > 1 ? await pools.get(threads) : undefined;
      const prep = await GEM_TARGETS.get(keyTarget(key), 'tuning').prepare(key, atoms, verts, { params, ...(pool ? { pool } : {}) });
      return { id: `${key}@${threads}`, run: () => prep.run(), destroy: () => prep.dispose() };
    };
    return {
      async run(key: string, o: RunOptions = {}) {
        const threads = o.threads ?? 1;
        if (cur?.id !== `${key}@${threads}`) {
          await cur?.destroy?.();
          cur = undefined;
          cur = await open(key, threads);
        }
        const t0 = performance.now();
        await cur.run();
        return performance.now() - t0;
      },
      async dispose() {
        await cur?.destroy?.();
        cur = undefined;
        await pools.close();
      },
    };
  },

  params: (key: string) => variantParams(key),
};
