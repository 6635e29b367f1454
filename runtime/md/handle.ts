// The md-nonbonded handle of open(): non-bonded forces, energies and virial of a system with
// the tuned winner for its interaction and precision (or a given variant), on whatever target
// it is, verified once per session by the family's gate (runtime/md/verify.ts, the cases of
// runtime/md/cases.ts); and whole MD runs through the engine (runtime/md/setup.ts).
import { ApiInputError, finiteArray, finiteNumber, integer, oneOf, options, show } from '../args.ts';
import type { Choice, Session } from '../session.ts';
import { targetOfKey } from '../session.ts';
import type { MdSettings } from './interaction.ts';
import type { MdResult } from './reference.ts';
import type { MdSystem } from './system.ts';
import type { RunMdOptions, RunMdSummary } from './workload.ts';

const INTERACTIONS = ['lj', 'lj-rf', 'lj-ewald'] as const;
const COMBS = ['geom', 'lb', 'table'] as const;
const OUTPUTS = ['f', 'fe', 'fev'] as const;

/** Options of MdHandle.forces. */
export interface MdForcesOptions {
  /** Pair-list radius (nm, >= settings.rc; default rc). */
  rlist?: number;
  /** f64 (default) or f32. */
  precision?: 'f64' | 'f32';
  /** f: forces; fe: plus energies; fev (default): plus the virial. */
  output?: 'f' | 'fe' | 'fev';
  /** An md-nonbonded variant key; default: the tuned winner for the interaction and precision, else the documented default. */
  variant?: string;
}

/** Forces (atom order), energies and virial, and the variant that computed them. */
export interface MdForces extends Choice, MdResult {}

/** Options of MdHandle.run: those of `kernforge run md` (runtime/md/setup.ts MdOptions), without `tuned` (open() says which artefact). */
export type MdRunOptions = Omit<RunMdOptions, 'tuned'>;

/** MD through open(): `kf.md.forces(system, settings)` and `kf.md.run({ system: 'water', steps: 100 })`. */
export interface MdHandle {
  /** Non-bonded forces, energies and virial of `system` (one kernel call over a fresh pair list). */
  forces(system: MdSystem, settings: MdSettings, options?: MdForcesOptions): Promise<MdForces>;
  /**
   * A molecular-dynamics run: the MiniMD LJ fluid (`system: 'lj'`) or SPC/E water (`system:
   * 'water'`; the bundled 884-molecule box unless `gro` names another), with the tuned variant
   * for the system unless `variant`, `target` or `cluster` choose. Reports through `log`.
   */
  run(options: MdRunOptions): Promise<RunMdSummary>;
}

function checkSystem(sys: MdSystem): number {
  if (typeof sys !== 'object' || sys === null) throw new ApiInputError(`md.forces: system: got ${show(sys)}; allowed: { box, x, q, type, ljTypes, exclusions } (waterBox, randomSystem or a .gro reader give it)`);
  if (!Array.isArray(sys.box) || sys.box.length !== 3) throw new ApiInputError(`md.forces: system.box: got ${show(sys.box)}; allowed: [x, y, z] edges in nm`);
  sys.box.forEach((b, i) => finiteNumber(`md.forces: system.box[${i}]`, b, { min: 0, exclusiveMin: true }));
  const n = sys.q?.length;
  if (!(Number.isInteger(n) && n > 0)) throw new ApiInputError(`md.forces: system.q: got ${show(sys.q)}; allowed: one charge per atom`);
  finiteArray('md.forces: system.x', sys.x, 3 * n);
  finiteArray('md.forces: system.q', sys.q, n);
  if (!(sys.type instanceof Int32Array) || sys.type.length !== n) throw new ApiInputError(`md.forces: system.type: got ${show(sys.type)}; allowed: an Int32Array of ${n} LJ types`);
  const nt = Array.isArray(sys.ljTypes) ? sys.ljTypes.length : 0;
  for (let i = 0; i < n; i++) if (!(sys.type[i]! >= 0 && sys.type[i]! < nt)) throw new ApiInputError(`md.forces: system.type[${i}] = ${sys.type[i]}: allowed: 0 to ${nt - 1} (system.ljTypes has ${nt})`);
  if (!Array.isArray(sys.exclusions) || sys.exclusions.length !== n) throw new ApiInputError(`md.forces: system.exclusions: got ${show(sys.exclusions)}; allowed: one Int32Array of excluded partners per atom (${n})`);
  return n;
}

/** The MD handle of a session. */
export function mdHandle(s: Session): MdHandle {
  return {
    async forces(system, settings, opts) {
      s.check('md.forces');
      const o = options<MdForcesOptions>('md.forces: options', opts);
      checkSystem(system);
      if (typeof settings !== 'object' || settings === null) throw new ApiInputError(`md.forces: settings: got ${show(settings)}; allowed: { interaction, comb, shift, rc, ... }`);
      const interaction = oneOf('md.forces: settings.interaction', settings.interaction, INTERACTIONS);
      const comb = oneOf('md.forces: settings.comb', settings.comb, COMBS);
      if (typeof settings.shift !== 'boolean') throw new ApiInputError(`md.forces: settings.shift: got ${show(settings.shift)}; allowed: true or false`);
      const minBox = Math.min(...system.box);
      const rc = finiteNumber('md.forces: settings.rc', settings.rc, { min: 0, exclusiveMin: true });
      const rlist = o.rlist === undefined ? rc : finiteNumber('md.forces: options.rlist', o.rlist, { min: rc, what: `a number >= settings.rc (${rc})` });
      if (rlist > minBox / 2) throw new ApiInputError(`md.forces: options.rlist ${rlist} nm is more than half the smallest box edge (${minBox} nm); allowed: <= ${minBox / 2}`);
      const precision = o.precision === undefined ? 'f64' : oneOf('md.forces: options.precision', o.precision, ['f64', 'f32'] as const);
      const output = o.output === undefined ? 'fev' : oneOf('md.forces: options.output', o.output, OUTPUTS);
      // axis names of specs/md-nonbonded.yaml
      const semantic = { interaction, ljComb: comb, ljShift: settings.shift ? 'shift' : 'plain', precision, output };
      const { siblingKey, variantParams } = await import('../variants.ts');

      let pick: { key: string; threads?: number; source: Choice['source'] } | undefined;
      if (o.variant !== undefined) {
        if (typeof o.variant !== 'string' || !o.variant.startsWith('md-nonbonded.')) throw new ApiInputError(`md.forces: options.variant: got ${show(o.variant)}; allowed: an md-nonbonded variant key (kernforge list md-nonbonded)`);
        const p = await variantParams(o.variant);
        for (const [axis, want] of Object.entries(semantic)) {
          if (String(p[axis]) !== want && !(axis === 'output' && o.output === undefined) && !(axis === 'precision' && o.precision === undefined)) {
            throw new ApiInputError(`md.forces: options.variant ${o.variant} has ${axis} ${p[axis]}, but the settings ask for ${want}`);
          }
        }
        pick = { key: o.variant, source: 'given' };
      } else {
        const problem = interaction === 'lj-rf' ? 'water-rf' : interaction === 'lj' ? 'lj-fluid' : undefined;
        const t = problem ? await s.tunedKey('md-nonbonded', precision === 'f32' ? `${problem}-f32` : problem) : undefined;
        if (t) {
          try {
            pick = { key: await siblingKey(t.key, semantic), threads: t.threads, source: t.source };
          } catch {
            s.note(`kernforge: the tuned ${t.key} has no variant with ${JSON.stringify(semantic)}; using the default`);
          }
        }
        if (!pick) {
          if (!s.allows('ts')) throw new ApiInputError(`md.forces: open({ targets: [${s.targets.join(', ')}] }) leaves out ts, which holds the defaults; allowed: add ts, or give options.variant`);
          const key = await siblingKey('md-nonbonded.ts.lj-rf.geom.shift.f64.fev.4x4.mask.mask', semantic);
          pick = { key, source: 'default' };
          if (s.tunedPath !== false) s.note(`kernforge: md-nonbonded runs the default ${key} (nothing tuned applies; run \`kernforge tune md-nonbonded\`)`);
        }
      }
      const key = pick.key;
      const target = await targetOfKey(key);
      if (!s.allows(target)) throw new ApiInputError(`md.forces: ${key} runs on ${target}; allowed by open(): ${s.targets.join(', ')}`);
      const { tuningFamily } = await import('../tune/families/index.ts');
      const fam = (await tuningFamily('md-nonbonded'))!;
      await s.verifyOnce(key, async () => fam.verifyKey!(key));
      const { problemFor } = await import('./kernels.ts');
      const { runMdKey } = await import('./targets.ts');
      const problem = await problemFor(key, system, settings, rlist);
      // the runner of the key's target (runtime/md/targets.ts)
      const res = await runMdKey(key, problem, 'md.forces');
      return { ...res, key, target, threads: 1, source: pick.source };
    },

    async run(opts) {
      s.check('md.run');
      const o = options<MdRunOptions>('md.run: options', opts);
      const system = oneOf('md.run: options.system', o.system, ['lj', 'water'] as const);
      if (o.variant !== undefined && typeof o.variant === 'string') {
        const target = await targetOfKey(o.variant);
        if (!s.allows(target)) throw new ApiInputError(`md.run: options.variant ${o.variant} runs on ${target}; allowed by open(): ${s.targets.join(', ')}`);
      }
      const { BUNDLED_WATER_GRO } = await import('../data.ts');
      const { runMdWorkload } = await import('./workload.ts');
      const gro = system === 'water' && o.gro === undefined && o.state === undefined ? BUNDLED_WATER_GRO : o.gro;
      return runMdWorkload({ ...o, system, gro, threads: o.threads ?? s.threads, tuned: s.tunedPath, maxMemory: o.maxMemory ?? s.maxMemoryGiven });
    },
  };
}
