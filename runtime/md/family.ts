// Tuning md-nonbonded for the MD workload (`kernforge run md`): the force-only kernel the engine
// calls on every step (its energy sibling, output fev, is derived from the winner).
// Problems (semantic axes fixed, f64 as the workload's default precision):
//   water-rf        SPC/E water, 884 molecules (the workload's box size), reaction-field, LJ
//                   potential-shift, rc 1.0 nm, rlist 1.1 nm, list every 10 steps
//   lj-fluid        MiniMD LJ fluid, 4,000 atoms, plain LJ rc 2.5, rlist 2.8, list every 20 steps
//                   (f64: TypeScript f64 and WebAssembly SIMD f64x2 candidates)
//   water-rf-f32,   the same in f32 (`kernforge run md --precision f32`): candidates from every
//   lj-fluid-f32    CPU target, TypeScript f32 and WebAssembly SIMD f32 (when the runtime has
//                   SIMD), same semantic axes except the target; the winner may be either; and
//                   gpu.js f32 (full lists) in the device's gpu.js modes (cpu: cpu, webasm;
//                   webgpu: headlessgl, webgpu), wherever they run
//   *-small         the same with 400 molecules / 864 atoms, for quick runs
// Tuning axes varied: cluster shape, list type (1x1), exclusion and cut-off handling (TS);
// cluster shape (f32: 4x4, 8x4; f64: 2x2, 4x2, 4x4, 8x4), cut-off handling and relaxed SIMD where it
// compiles (wasm); workgroup, scheme, jsplit and the
// cut-off handling (WGSL, f64 classes only: WGSL is f32 anyway, so the f32 classes are CPU ones).
// Measured: milliseconds of non-bonded work per MD step: one force-kernel call plus the pair
// search for the variant's cluster shape, amortized over the list lifetime (nstlist steps).
// The search is timed once per shape (warm, fastest of two builds) and added to every sample.
// TS and wasm keys run through the engine's own force call (NonbondedForce.compute: positions
// packed in, forces out, inside the timed region), on 1 to `cores` threads: the thread count is
// tuned with the variant (the search, single-threaded, is the same for every count).
import { keyTarget } from '../keys.ts';
import { variantParams } from '../variants.ts';
import { inGpujsModes, sameSemantics } from '../tune/semantic.ts';
import type { Device } from '../tune/devices.ts';
import type { PreparedProblem, ProblemClass, TuningFamily, CandidateOptions, RunOptions } from '../tune/family.ts';
import { cpuThreadCounts } from '../tune/threads.ts';
import { problemOf } from '../tune/family.ts';
import { platform } from '../platform.ts';
import { compilableWasmKeys } from '../backends/wasm.ts';

interface MdProblemSpec {
  system: 'water' | 'lj';
  size: number;
  rc: number;
  rlist: number;
  nstlist: number;
  interaction: 'lj-rf' | 'lj';
  shift: 'shift' | 'plain';
  precision: 'f64' | 'f32';
}

const WATER = { system: 'water', rc: 1.0, rlist: 1.1, nstlist: 10, interaction: 'lj-rf', shift: 'shift' } as const;
const LJ = { system: 'lj', rc: 2.5, rlist: 2.8, nstlist: 20, interaction: 'lj', shift: 'plain' } as const;

const PROBLEMS: (ProblemClass & { spec: MdProblemSpec })[] = [
  { name: 'water-rf', description: 'SPC/E water, 884 molecules, RF + LJ shift, rc 1.0 nm, rlist 1.1, nstlist 10 (f64)', spec: { ...WATER, size: 884, precision: 'f64' } },
  { name: 'lj-fluid', description: 'MiniMD LJ fluid, 4,000 atoms, plain LJ rc 2.5, rlist 2.8, nstlist 20 (f64)', spec: { ...LJ, size: 10, precision: 'f64' } },
  { name: 'water-rf-small', description: 'SPC/E water, 400 molecules, as water-rf', quick: true, serves: 'water-rf', spec: { ...WATER, size: 400, precision: 'f64' } },
  { name: 'lj-fluid-small', description: 'MiniMD LJ fluid, 864 atoms, as lj-fluid', quick: true, serves: 'lj-fluid', spec: { ...LJ, size: 6, precision: 'f64' } },
  { name: 'water-rf-f32', description: 'as water-rf in f32: TypeScript f32 vs WebAssembly SIMD f32', spec: { ...WATER, size: 884, precision: 'f32' } },
  { name: 'lj-fluid-f32', description: 'as lj-fluid in f32: TypeScript f32 vs WebAssembly SIMD f32', spec: { ...LJ, size: 10, precision: 'f32' } },
  { name: 'water-rf-f32-small', description: 'SPC/E water, 400 molecules, as water-rf-f32', quick: true, serves: 'water-rf-f32', spec: { ...WATER, size: 400, precision: 'f32' } },
  { name: 'lj-fluid-f32-small', description: 'MiniMD LJ fluid, 864 atoms, as lj-fluid-f32', quick: true, serves: 'lj-fluid-f32', spec: { ...LJ, size: 6, precision: 'f32' } },
];

const specOf = (problem: string): MdProblemSpec => {
  problemOf(family, problem); // throws with the allowed names
  return PROBLEMS.find((p) => p.name === problem)!.spec;
};
/** Semantic key prefix of a problem on a target (f32 on WGSL, which has no f64). */
const prefix = (target: string, s: MdProblemSpec): string => `md-nonbonded.${target}.${s.interaction}.geom.${s.shift}.${target === 'wgsl' ? 'f32' : s.precision}.f.`;

/**
 * The reference key of a problem on one target (the workload's default there), whose semantic
 * axes the candidates share; undefined when the target does not serve the problem: WGSL serves
 * the f64 classes (as f32, its only precision) with lj-rf; wasm serves both precisions (f32x4, f64x2).
 */
function referenceKey(target: string, s: MdProblemSpec): string | undefined {
  // the workload's defaults (runtime/md/setup.ts): 4x4 with masks; WGSL: the entry scheme
  if (target === 'ts') return `${prefix('ts', s)}4x4.mask.mask`;
  if (target === 'wasm') return `${prefix('wasm', s)}4x4.mask.mask.simd128`;
  if (target === 'wgsl') return s.precision === 'f64' && s.interaction === 'lj-rf' ? `${prefix('wgsl', s)}4x4.mask.mask.entry.workgroup64.jsplit1` : undefined;
  return undefined;
}

/**
 * gpu.js candidates: the f32 classes' semantic axes on the gpujs target (full lists), in the
 * modes that run on the device (device.gpujsModes; none when gpu.js is off or absent).
 */
async function gpujsCandidates(device: Device, s: MdProblemSpec, o: CandidateOptions): Promise<string[]> {
  if (s.precision !== 'f32') return [];
  return inGpujsModes(`md-nonbonded.gpujs.${s.interaction}.geom.${s.shift}.f32.f.4x4.full.mask.mask`, device.gpujsModes, o.space);
}

/** The target of a key (md-nonbonded.<target>....). */
const targetOf = (key: string): string => keyTarget(key);

let casesCache: Promise<import('./verify.ts').VerifyCase[]> | undefined;

export const family: TuningFamily = {
  family: 'md-nonbonded',
  measures: 'ms of non-bonded work per MD step: one force-kernel call + the pair search of its cluster shape / nstlist',
  problems: () => PROBLEMS.map(({ spec: _s, ...p }) => p),

  async candidates(device: Device, problem: string, o: CandidateOptions = {}): Promise<string[]> {
    // per available target: the problem's semantic axes (interaction, comb, shift, precision,
    // output f) fixed, tuning axes free
    const s = specOf(problem);
    const out: string[] = [];
    for (const t of device.targets ?? [device.target]) {
      if (t === 'gpujs') continue;
      const ref = referenceKey(t, s);
      if (!ref) continue;
      let keys = await sameSemantics(ref, o.space);
      // relaxed SIMD variants only where the engine compiles them (runtime/backends/wasm.ts)
      if (t === 'wasm') keys = await compilableWasmKeys(keys);
      out.push(...keys);
    }
    out.push(...(await gpujsCandidates(device, s, o)));
    return out;
  },

  defaultKey(device: Device, problem: string): string | undefined {
    return referenceKey(device.target, specOf(problem));
  },

  startKeys(device: Device, problem: string): string[] {
    // the reference key of each other target the device offers (wasm beside TypeScript on the CPU)
    const s = specOf(problem);
    return (device.targets ?? []).filter((t) => t !== device.target).flatMap((t) => referenceKey(t, s) ?? []);
  },

  async load(key: string): Promise<unknown> {
    // the variant behind the TS kernel interface, for the targets the engine runs (ts, wasm)
    const { MD_TARGETS } = await import('./targets.ts');
    return MD_TARGETS.get(targetOf(key), 'loadTuned').kernel?.(key);
  },

  verifyKey: (key: string) => family.verify(key, undefined as never, ''),

  // the threaded MD engine reads its workers' replies through a polled channel (Platform.channel):
  // one thread where the platform has none (the browser platform)
  threadCounts: (key: string, device: Device) => (platform().channel ? cpuThreadCounts(key, device) : [1]),

  async verify(key: string) {
    const { verifyVariant } = await import('./verify.ts');
    const { verificationCases } = await import('./cases.ts');
    casesCache ??= Promise.resolve(verificationCases('quick'));
    // the runner of the key's target (runtime/md/targets.ts)
    const run = await (await import('./verify.ts')).runnerFor(key);
    let worst = 0;
    for (const c of await casesCache) {
      const d = await verifyVariant(key, c, run);
      worst = Math.max(worst, d.force, d.energy, d.virial);
      if (!d.ok) return { ok: false, error: worst, detail: `${c.name}: ${d.detail}` };
    }
    return { ok: true, error: worst };
  },

  async prepare(_device: Device, problem: string): Promise<PreparedProblem> {
    const s = specOf(problem);
    const { MdProblem } = await import('./problem.ts');
    const { mdShape } = await import('./kernels.ts');
    let sys: import('./system.ts').MdSystem;
    if (s.system === 'water') sys = (await import('./system.ts')).waterBox(s.size, 1);
    else sys = (await import('./ljfluid.ts')).ljFluid({ cells: s.size }).sys;
    const settings = { interaction: s.interaction, comb: 'geom', shift: s.shift === 'shift', rc: s.rc } as const;
    // one problem (clusters + list) per shape and list kind, with its warm search time
    const problems = new Map<string, { problem: InstanceType<typeof MdProblem>; searchMs: number }>();
    const problemFor = async (key: string) => {
      const sh = await mdShape(key);
      const id = `${sh.M}x${sh.N}.${sh.list}`;
      let p = problems.get(id);
      if (!p) {
        const build = () => new MdProblem(sys, settings, sh.M, sh.N, s.rlist, { full: sh.list === 'full' });
        build(); // warm-up (JIT)
        let best = Infinity;
        let problem!: InstanceType<typeof MdProblem>;
        for (let r = 0; r < 2; r++) {
          const t0 = performance.now();
          problem = build();
          best = Math.min(best, performance.now() - t0);
        }
        p = { problem, searchMs: best };
        problems.clear(); // keep one list in memory
        problems.set(id, p);
      }
      return { ...p, shape: sh };
    };
    // Keys the engine runs (ts, wasm: their runner has the TS kernel interface): one force call
    // as the engine makes it (NonbondedForce.compute: positions packed in, the kernel on this
    // thread or split over worker threads, forces out). Any other key (WGSL, gpu.js) on its
    // target's runner (runtime/md/targets.ts) over the problem of its shape: WGSL one dispatch,
    // gpu.js compiled on the first run (the warm-up), then timed with its host-side packing and
    // reduction, as the engine would call it.
    const { MD_TARGETS } = await import('./targets.ts');
    const f = new Float64Array(sys.x.length);
    let engine: { id: string; force: Awaited<ReturnType<typeof import('./forces.ts').NonbondedForce.create>>; searchMs: number } | undefined;
    let prepared: { key: string; prep: import('./targets.ts').PreparedMd; searchMs: number } | undefined;
    const release = async () => {
      await engine?.force.close();
      engine = undefined;
      await prepared?.prep.dispose();
      prepared = undefined;
    };
    return {
      async run(key: string, o: RunOptions = {}) {
        const runner = MD_TARGETS.get(targetOf(key), 'tuning');
        if (runner.kernel) {
          const threads = o.threads ?? 1;
          if (engine?.id !== `${key}@${threads}`) {
            await release();
            const { NonbondedForce } = await import('./forces.ts');
            const { siblingKey } = await import('../variants.ts');
            const { searchMs } = await problemFor(key);
            const keyE = await siblingKey(key, { output: 'fev' });
            const force = await NonbondedForce.create({ topology: sys, settings, rlist: s.rlist, keyF: key, keyE, threads });
            force.rebuild(sys.x);
            warmUp(() => force.compute(sys.x, f, false));
            engine = { id: `${key}@${threads}`, force, searchMs };
          }
          const t0 = performance.now();
          engine.force.compute(sys.x, f, false);
          return performance.now() - t0 + engine.searchMs / s.nstlist;
        }
        if (prepared?.key !== key) {
          await release();
          const { problem: pr, searchMs } = await problemFor(key);
          prepared = { key, prep: await runner.prepare(key, pr), searchMs };
        }
        const t0 = performance.now();
        await prepared.prep.run();
        return performance.now() - t0 + prepared.searchMs / s.nstlist;
      },
      async dispose() {
        await release();
        problems.clear();
      },
    };
  },

  params: (key: string) => variantParams(key),
};

/**
 * Untimed force calls of a new engine: WARM_CALLS of them, or fewer once WARM_MS have passed
 * (at least 3). Its worker threads are new, and the engine compiles their code (and a kernel's
 * TypeScript on this thread) as it runs: measured on water-rf-f32, 2 threads, the 2nd to 6th calls
 * of a new engine took 8.55, 8.24, 4.81, 1.78, 1.74 ms, a median 2.8x the warm time, so the thread
 * counts were compared partly cold (one warm-up call) and the pick among them was noise.
 */
export function warmUp(call: () => void, calls = WARM_CALLS, ms = WARM_MS): number {
  const t0 = performance.now();
  let k = 0;
  while (k < calls && (k < 3 || performance.now() - t0 < ms)) {
    call();
    k++;
  }
  return k;
}

const WARM_CALLS = 20;
const WARM_MS = 250;
