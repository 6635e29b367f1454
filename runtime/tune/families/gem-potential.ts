// Tuning gem-potential for the GEM workload (`kernforge run gem`).
// Problem 'surface' ('surface-small': every 4th vertex, for quick runs): Mb.Hhelix (shared/data/gem/mb_hhelix.pqr with its MSMS surface), eps 80/1,
// no salt, p = 0: region 1, zero salt, f32 (the workload's precision). Candidates: on the CPU the
// TS variants and, when the device offers WebAssembly SIMD (targets include wasm), the wasm ones
// of the same semantic axes (the target aside), so the winner may be either; on WebGPU the WGSL
// ones. Tuning axes varied: unroll, rsqrt, block (TS); unroll, rsqrt, vector (wasm); unroll,
// workgroup (WGSL). The winner's tuning axes are carried over to other regions and salts by the
// workload (siblingKey), the semantic axes being the caller's.
// Measured: milliseconds of one kernel call over every vertex and atom (WGSL: one dispatch; wasm:
// one call, the inputs copied into the instance's memory once beforehand).
// Verified on 200 vertices spread over the surface with the workload's own gate
// (verifyGemModule / verifyGemWasm, f32: 5e-6 of the sum of |terms| per vertex); WGSL against the
// f64 reference with the paper's RMSE bar (8.4e-5 kcal/mol/e).
import { existsSync } from 'node:fs';
import { loadTsModule, variantParams } from '../../variants.ts';
import { sameSemantics } from '../semantic.ts';
import type { Device } from '../devices.ts';
import type { PreparedProblem, ProblemClass, TuningFamily, CandidateOptions } from '../family.ts';
import { problemOf } from '../family.ts';
import type { GemAtoms, GemVertices, GemParams, GemTsModule } from '../../gem/index.ts';

export const GEM_DATA = new URL('../../../../shared/data/gem/', import.meta.url).pathname;
const PROBLEMS: ProblemClass[] = [
  { name: 'surface', description: 'Mb.Hhelix on its MSMS surface (382 atoms x 5884 vertices), region 1, zero salt, f32 (the GEM workload)' },
  { name: 'surface-small', description: 'Mb.Hhelix on every 4th vertex of its surface, as surface', quick: true, serves: 'surface' },
];
const WGSL_RMSE = 8.4e-5;
/** The wasm variant whose semantic axes the wasm candidates share (run gem --target wasm's default for region 1, zero salt). */
const WASM_REFERENCE = 'gem-potential.wasm.region1.f32.zero.unroll8.div.block0.vertices';
const isWasm = (key: string): boolean => key.split('.')[1] === 'wasm';

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
    if (!existsSync(pqr) || !existsSync(vert)) throw new Error(`gem-potential problem "surface" needs ${pqr} and ${vert}`);
    const { readPqr, readVert, gemParams } = await import('../../gem/index.ts');
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
    if (device.target === 'ts' && (device.targets ?? []).includes('wasm')) out.push(...(await sameSemantics(WASM_REFERENCE, o.space)));
    return out;
  },

  defaultKey(device: Device): string {
    // cli/commands/gem.ts preferredGemKey: f32, unroll 4, exact division, no blocking
    return device.target === 'ts' ? 'gem-potential.ts.region1.f32.zero.unroll4.div.block0' : 'gem-potential.wgsl.region1.f32.zero.unroll4.div.block0.workgroup64';
  },

  async verify(key: string, device: Device, problem: string) {
    const { atoms, verts, params } = await loadInput(problem);
    const { gemVariantInfo, gemReference } = await import('../../gem/index.ts');
    const info = await gemVariantInfo(key);
    if (device.target === 'wgsl') {
      const { runGemWgsl } = await import('../../gem/wgsl.ts');
      const sub = subset(verts, 200);
      const got = (await runGemWgsl(key, atoms, sub, { params })).phi;
      const ref = gemReference(atoms, sub, params, info.region);
      let s = 0;
      for (let i = 0; i < sub.n; i++) s += (got[i]! - ref[i]!) ** 2;
      const rmse = Math.sqrt(s / sub.n);
      const error = Number.isFinite(rmse) ? rmse / WGSL_RMSE : Infinity;
      return { ok: error <= 1, error, detail: `RMSE ${rmse.toExponential(2)} on ${sub.n} vertices (bar ${WGSL_RMSE})` };
    }
    if (isWasm(key)) {
      const { verifyGemWasm } = await import('../../../cli/commands/gem.ts');
      const v = await verifyGemWasm(key, atoms, verts, params, info.region, 200);
      return { ok: v.ok, error: v.worst, detail: v.ok ? undefined : v.detail };
    }
    const { verifyGemModule } = await import('../../../cli/commands/gem.ts');
    const mod = await loadTsModule<GemTsModule>(key);
    const v = verifyGemModule(mod, info.precision, atoms, verts, params, info.region, 200);
    return { ok: v.ok, error: v.worst, detail: v.ok ? undefined : v.detail };
  },

  async prepare(device: Device, problem: string): Promise<PreparedProblem> {
    const { atoms, verts, params } = await loadInput(problem);
    const { gemArgs, gemVariantInfo } = await import('../../gem/index.ts');
    if (device.target === 'ts') {
      // TS keys run here on their arguments; wasm keys on an instance holding the problem
      let cur: { key: string; run: () => Promise<number>; destroy?: () => Promise<void> } | undefined;
      return {
        async run(key: string) {
          if (cur?.key !== key) {
            await cur?.destroy?.();
            cur = undefined;
            if (isWasm(key)) {
              const { prepareGemWasm } = await import('../../gem/wasm.ts');
              const prep = await prepareGemWasm(key, atoms, verts, { params });
              cur = {
                key,
                run: async () => {
                  const t0 = performance.now();
                  await prep.run();
                  return performance.now() - t0;
                },
                destroy: () => prep.destroy(),
              };
              return cur.run();
            }
            const info = await gemVariantInfo(key);
            const mod = await loadTsModule<GemTsModule>(key);
            const args = gemArgs(atoms, verts, params, info.precision);
            cur = {
              key,
              run: async () => {
                const t0 = performance.now();
                mod.kernel(args);
                return performance.now() - t0;
              },
            };
          }
          return cur.run();
        },
        dispose() {
          void cur?.destroy?.();
          cur = undefined;
        },
      };
    }
    const { prepareGemWgsl } = await import('../../gem/wgsl.ts');
    let cur: { key: string; prep: Awaited<ReturnType<typeof prepareGemWgsl>> } | undefined;
    return {
      async run(key: string) {
        if (cur?.key !== key) {
          cur?.prep.destroy();
          cur = undefined;
          cur = { key, prep: await prepareGemWgsl(key, atoms, verts, { params }) };
        }
        const t0 = performance.now();
        await cur.prep.dispatch();
        return performance.now() - t0;
      },
      dispose() {
        cur?.prep.destroy();
        cur = undefined;
      },
    };
  },

  params: (key: string) => variantParams(key),
};
