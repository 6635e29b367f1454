// The correctness gate: a variant's forces, energies and virial against the f64 reference,
// with tolerances derived from the precision and the interaction's approximation.
import { keyTarget } from '../keys.ts';
import type { MdSystem } from './system.ts';
import { reference, type ReferenceResult, type MdResult } from './reference.ts';
import { MdProblem, type Precision } from './problem.ts';
import { mdShape } from './kernels.ts';
import { MD_TARGETS } from './targets.ts';
import { variantParams } from '../variants.ts';
import type { MdSettings, UserPotential } from './interaction.ts';
import { userPotential } from './user-potential.ts';

/**
 * Relative tolerances, applied to the sum of |pair terms| each quantity is made of.
 * f64: only summation order differs (~1e-15 per term), 1e-11 leaves room for cancellation.
 * f32: coordinates stored in f32 are off by 6e-8 x |x| (|x| up to the box edge), i.e. up to
 * ~4e-6 of a 0.1 nm distance; an r^-13 force amplifies that 13x: 5e-5, so 1e-4.
 * Ewald analytical: erfc by A&S 7.1.26 has |error| <= 1.5e-7 of a term of order 1: 1e-6.
 * Ewald tabulated: linear interpolation, h^2/8 |g''| with h = 1/scale (problem.ts): 1e-7 (f64 table).
 */
export function tolerance(p: { precision: Precision; interaction: string; ewald?: string }): number {
  let t = p.precision === 'f64' ? 1e-11 : 1e-4;
  if (p.interaction === 'lj-ewald') t = Math.max(t, p.ewald === 'analytical' ? 1e-6 : 1e-7);
  return t;
}

/** How far a kernel result is from the f64 reference, each part as worst error over allowed error (<= 1 passes). */
export interface Deviation {
  /** Worst error / allowed error over atoms, energies, virial components (<= 1 passes). */
  force: number;
  /** Worst of V_LJ and V_Coulomb over the allowed error; 0 when the output level has no energies. */
  energy: number;
  /** Worst virial component over the allowed error; 0 unless the output level is fev. */
  virial: number;
  /** Whether force, energy and virial are all <= 1 (NaN always fails). */
  ok: boolean;
  /** `ok`, or the failing ratios and the worst atom (1-based), for messages. */
  detail: string;
}

/** Compare a kernel result with the reference; NaN always fails. */
export function compare(ref: ReferenceResult, res: MdResult, sys: MdSystem, tol: number, output: string): Deviation {
  const n = sys.q.length;
  let force = 0;
  let worstAtom = -1;
  const fScale = ref.fAbs.reduce((a, b) => a + b, 0) / n;
  for (let a = 0; a < n; a++) {
    const allowed = tol * (ref.fAbs[a]! + 1e-3 * fScale);
    for (let c = 0; c < 3; c++) {
      const e = Math.abs(res.f[3 * a + c]! - ref.f[3 * a + c]!) / allowed;
      if (!(e <= force)) {
        force = Number.isNaN(e) ? Infinity : e;
        worstAtom = a;
      }
    }
  }
  let energy = 0;
  if (output !== 'f') {
    for (const [x, y] of [[res.vdw, ref.vdw], [res.coul, ref.coul]] as const) {
      const e = Math.abs(x - y) / (tol * ref.vAbs + 1e-300);
      energy = Number.isNaN(e) ? Infinity : Math.max(energy, e);
    }
  }
  let virial = 0;
  if (output === 'fev') {
    // The kernels' virial comes from absolute positions (up to the box edge) times forces.
    const L = Math.max(...sys.box);
    const scale = tol * (ref.virAbs + L * ref.fAbs.reduce((a, b) => a + b, 0));
    for (let k = 0; k < 9; k++) {
      const e = Math.abs(res.virial[k]! - ref.virial[k]!) / scale;
      virial = Number.isNaN(e) ? Infinity : Math.max(virial, e);
    }
  }
  const ok = force <= 1 && energy <= 1 && virial <= 1;
  const detail = ok
    ? 'ok'
    : `force ${force.toFixed(2)}x tolerance (atom ${worstAtom + 1}), energy ${energy.toFixed(2)}x, virial ${virial.toFixed(2)}x`;
  return { force, energy, virial, ok, detail };
}

/** Settings a variant computes (its semantic axes) for a cut-off. */
export async function settingsOf(key: string, rc: number): Promise<MdSettings> {
  const p = await variantParams(key);
  const interaction = String(p.interaction);
  const s: MdSettings = { interaction, comb: p.ljComb as MdSettings['comb'], shift: p.ljShift === 'shift', rc };
  if (!['lj', 'lj-rf', 'lj-ewald'].includes(interaction)) s.user = (await userPotential(interaction)) as UserPotential;
  return s;
}

/** One verification case of the md-nonbonded gate: a system with its cut-off and list radius. */
export interface VerifyCase {
  /** Case name for messages, e.g. `water-216`. */
  name: string;
  /** The system the variant and the reference run on. */
  sys: MdSystem;
  /** Cut-off (nm). */
  rc: number;
  /** Pair-list radius (nm, >= rc). */
  rlist: number;
}

const refCache = new WeakMap<MdSystem, Map<string, ReferenceResult>>();
/** The reference for a system and settings (cached per system). */
export function cachedReference(sys: MdSystem, s: MdSettings): ReferenceResult {
  let m = refCache.get(sys);
  if (!m) refCache.set(sys, (m = new Map()));
  const k = JSON.stringify({ ...s, user: undefined });
  if (!m.has(k)) m.set(k, reference(sys, s));
  return m.get(k)!;
}

export type MdRunner = (key: string, problem: MdProblem) => Promise<MdResult>;

/**
 * The runner of a variant's target (runtime/md/targets.ts MD_TARGETS: TS, wasm, WGSL, gpu.js, or
 * any other target with a runner there) as one function: prepare, run, read back, dispose.
 */
export async function runnerFor(key: string): Promise<MdRunner> {
  const runner = MD_TARGETS.get(keyTarget(key), 'verification');
  return async (k, problem) => {
    const prep = await runner.prepare(k, problem);
    try {
      await prep.run();
      return await prep.result();
    } finally {
      await prep.dispose();
    }
  };
}

/** Run a variant (through `run`; by default the runner of its target) on a case and compare with the reference. */
export async function verifyVariant(key: string, c: VerifyCase, run?: MdRunner): Promise<Deviation> {
  run ??= await runnerFor(key);
  const shape = await mdShape(key);
  const p = await variantParams(key);
  const s = await settingsOf(key, c.rc);
  const ref = cachedReference(c.sys, s);
  // `list: full` variants run on the full list made from the same half list.
  const res = await run(key, new MdProblem(c.sys, s, shape.M, shape.N, c.rlist, { full: shape.list === 'full' }));
  const tol = tolerance({ precision: shape.precision, interaction: s.interaction, ewald: p.ewald as string | undefined });
  return compare(ref, res, c.sys, tol, shape.output);
}
