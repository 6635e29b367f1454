// Tuning pme-mesh for the MD workload's PME (`kernforge tune pme-mesh`).
// Problems: 'water-mesh' (12,288 charges with water's charge density, O -0.8476 e and two H
// +0.4238 e of SPC/E placed as rigid molecules at random, in a 4.97 nm cube: the 4,096-water box of
// `bench md`; rc 1.0 nm, spacing 0.12 nm -> grid 42^3, order 4) and 'water-mesh-order6' (the same,
// order 6); 'water-mesh-small' (1,536 charges in a 2.49 nm cube, order 4) for quick runs.
// Candidates: on the CPU the TypeScript variants of the problem's order and precision f64 and,
// with WebAssembly SIMD, the wasm ones (the target aside, same semantic axes), so the winner may
// be either; on WebGPU the WGSL ones. Tuning axes varied: unroll and tile (CPU), workgroup and
// split (WGSL).
// Measured: milliseconds of one spread (layout, kernel, fold onto the periodic grid) plus one
// gather (unfold, kernel) on the problem; the FFT and solve between them are the same for every
// variant and are left out. Verified with the family's gate (runtime/pme/gate.ts verifyPmeKey).
import { keyTarget } from '../keys.ts';
import { variantParams } from '../variants.ts';
import { sameSemantics } from '../tune/semantic.ts';
import { problemOf, type PreparedProblem, type ProblemClass, type TuningFamily, type CandidateOptions } from '../tune/family.ts';
import type { Device } from '../tune/devices.ts';
import { ewaldCoeff, pmeGrid, PmeSolver } from './reference.ts';
import { periodicGrid, type Box3, type PreparedMesh } from './layout.ts';

const PROBLEMS: ProblemClass[] = [
  { name: 'water-mesh', description: 'PME mesh of 12,288 water-like charges (4,096 SPC/E molecules) in a 4.97 nm cube, grid 42^3, order 4: spread + gather' },
  { name: 'water-mesh-order6', description: 'as water-mesh with order 6' },
  { name: 'water-mesh-small', description: '1,536 charges in a 2.49 nm cube (grid 21 -> 24^3), order 4', quick: true, serves: 'water-mesh' },
];

/** The problem's system: rigid SPC/E-charged molecules at random positions and orientations (deterministic). */
export function waterCharges(molecules: number, edge: number): { x: Float64Array; q: Float64Array; box: Box3 } {
  let s = 4096;
  const rnd = (): number => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
  const x = new Float64Array(9 * molecules);
  const q = new Float64Array(3 * molecules);
  const bond = 0.1;
  const angle = (109.47 * Math.PI) / 180;
  for (let m = 0; m < molecules; m++) {
    const o = [rnd() * edge, rnd() * edge, rnd() * edge];
    // a random orthonormal frame: u, v
    const u = [rnd() - 0.5, rnd() - 0.5, rnd() - 0.5];
    const nu = Math.hypot(u[0]!, u[1]!, u[2]!);
    for (let d = 0; d < 3; d++) u[d]! /= nu;
    const w = [rnd() - 0.5, rnd() - 0.5, rnd() - 0.5];
    const dot = u[0]! * w[0]! + u[1]! * w[1]! + u[2]! * w[2]!;
    for (let d = 0; d < 3; d++) w[d]! -= dot * u[d]!;
    const nw = Math.hypot(w[0]!, w[1]!, w[2]!);
    for (let d = 0; d < 3; d++) w[d]! /= nw;
    for (let d = 0; d < 3; d++) {
      x[9 * m + d] = o[d]!;
      x[9 * m + 3 + d] = o[d]! + bond * (Math.cos(angle / 2) * u[d]! + Math.sin(angle / 2) * w[d]!);
      x[9 * m + 6 + d] = o[d]! + bond * (Math.cos(angle / 2) * u[d]! - Math.sin(angle / 2) * w[d]!);
    }
    q[3 * m] = -0.8476;
    q[3 * m + 1] = 0.4238;
    q[3 * m + 2] = 0.4238;
  }
  return { x, q, box: [edge, edge, edge] };
}

function problemSystem(problem: string): { x: Float64Array; q: Float64Array; box: Box3; order: number } {
  problemOf(family, problem);
  if (problem === 'water-mesh-small') return { ...waterCharges(512, 2.486), order: 4 };
  return { ...waterCharges(4096, 4.972), order: problem === 'water-mesh-order6' ? 6 : 4 };
}

const orderOf = (problem: string): number => (problem === 'water-mesh-order6' ? 6 : 4);
/** The CPU targets' reference keys of an order (TypeScript: the default; wasm: its start key), whose semantic axes their candidates share. */
const cpuReference = (target: 'ts' | 'wasm', order: number): string => `pme-mesh.${target}.order${order}.f64.full.tile0`;

export const family: TuningFamily = {
  family: 'pme-mesh',
  measures: 'ms of one spread (layout, kernel, fold) plus one gather (unfold, kernel); the FFT and solve are the same for every variant and left out',
  problems: () => PROBLEMS,

  async candidates(device: Device, problem: string, o: CandidateOptions = {}): Promise<string[]> {
    problemOf(family, problem);
    const order = orderOf(problem);
    if (device.target !== 'ts') return sameSemantics(`pme-mesh.wgsl.order${order}.f32.workgroup64.split1`, o.space);
    const out = await sameSemantics(cpuReference('ts', order), o.space);
    if ((device.targets ?? []).includes('wasm')) out.push(...(await sameSemantics(cpuReference('wasm', order), o.space)));
    return out;
  },

  startKeys(device: Device, problem: string): string[] {
    // the wasm variant of the TypeScript default's axes
    return device.target === 'ts' && (device.targets ?? []).includes('wasm') ? [cpuReference('wasm', orderOf(problem))] : [];
  },

  defaultKey(device: Device, problem: string): string {
    const order = orderOf(problem);
    return device.target === 'ts' ? cpuReference('ts', order) : `pme-mesh.wgsl.order${order}.f32.workgroup64.split1`;
  },

  async verify(key: string) {
    const { verifyPmeKey } = await import('./gate.ts');
    const v = await verifyPmeKey(key);
    return { ok: v.ok, error: v.worst, detail: v.ok ? undefined : v.detail };
  },

  async verifyKey(key: string) {
    const { verifyPmeKey } = await import('./gate.ts');
    const v = await verifyPmeKey(key);
    return { ok: v.ok, error: v.worst, detail: v.ok ? undefined : v.detail };
  },

  async prepare(_device: Device, problem: string): Promise<PreparedProblem> {
    // every key on its own target's runner; one potential mesh (from an f64 solve) for the gathers,
    // copied onto a grid where prepareMesh would put the variant's (its module's memory)
    const { x, q, box, order } = problemSystem(problem);
    const params = { beta: ewaldCoeff(1.0, 1e-5), grid: pmeGrid(box, 0.12), order };
    const { PME_TARGETS } = await import('./targets.ts');
    const len = params.grid[0] * params.grid[1] * params.grid[2];
    const f = new Float64Array(x.length);
    let cur: { key: string; prep: PreparedMesh; g: Float64Array | Float32Array; phi: Float64Array | Float32Array } | undefined;
    return {
      async run(key: string) {
        if (cur?.key !== key) {
          cur?.prep.dispose();
          cur = undefined;
          const prep = await PME_TARGETS.get(keyTarget(key), 'tuning').prepare(key, box, params.grid, q.length);
          const g = periodicGrid(prep, params.grid);
          const phi = periodicGrid(prep, params.grid);
          cur = { key, prep, g, phi };
          // the potential mesh this problem's gathers read, then a warm-up (the TypeScript kernels
          // reach the JIT's optimising tier only after a few calls)
          const ref = new Float64Array(len);
          await prep.spread(x, q, ref);
          new PmeSolver(box, params).solve(ref);
          phi.set(ref);
          for (let w = 0; w < 5; w++) {
            await prep.spread(x, q, g);
            await prep.gather(phi, f);
          }
        }
        const t0 = performance.now();
        await cur.prep.spread(x, q, cur.g);
        await cur.prep.gather(cur.phi, f);
        return performance.now() - t0;
      },
      dispose() {
        cur?.prep.dispose();
        cur = undefined;
      },
    };
  },

  params: (key: string) => variantParams(key),
};
