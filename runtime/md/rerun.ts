// `kernforge run md --rerun conf.gro`: the energy terms of one configuration, as `gmx mdrun
// -rerun` reports them (LJ (SR), Coulomb (SR), Coul. recip., Potential), and its forces. The
// short-range part runs the generated f64 TypeScript kernel (fev) on a pair list at the cut-off
// (with PME the tabulated erfc: 6e-10 from GROMACS double on the salt water, where the
// analytical variant's rational erfc is 3.5e-7 off);
// the reciprocal part is runtime/pme's f64 reference mesh. Nothing is integrated or written.
import { platform } from '../platform.ts';
import { readGro } from './gro.ts';
import { waterSystemFromGro } from './topology.ts';
import { readTop, systemFromTop, resolveBundled } from './top.ts';
import { MdProblem } from './problem.ts';
import { runTs } from './kernels.ts';
import { ONE_4PI_EPS0, type MdSettings } from './interaction.ts';
import { pmeSettings, type CoulombOptions, type PmeSettings } from './pme.ts';
import { pmeReciprocal, ewaldNetCharge } from '../pme/index.ts';
import { MdInputError } from './errors.ts';
import type { MdSystem } from './system.ts';

/** What a rerun evaluates: a .gro (and optionally its .top), the cut-off and the Coulomb choice. */
export interface RerunOptions extends CoulombOptions {
  /** The configuration (.gro). */
  gro: string;
  /** A GROMACS .top for it (water and ions); without it the built-in SPC/E model. */
  top?: string;
  /** Cut-off (nm) of LJ and Coulomb (default 1.0). */
  rc?: number;
  /**
   * The electric factor f = 1/(4 pi eps0) (kJ mol^-1 nm e^-2); default kernforge's 138.935458.
   * GROMACS 2022 uses the CODATA-2018 value 138.935457644 (2.6e-9 lower); tests pass it to compare bit for bit.
   */
  epsfac?: number;
}

/** The energy terms of a configuration, named as GROMACS names them (kJ/mol), and the forces. */
export interface RerunResult {
  /** Terms in GROMACS's order: LJ (SR), Coulomb (SR), Coul. recip. (PME only), Potential. */
  terms: [string, number][];
  /** Forces (kJ mol^-1 nm^-1), 3 per atom. */
  f: Float64Array;
  /** The virial (3x3, -0.5 sum r (x) F). */
  virial: Float64Array;
  /** The system as built. */
  sys: MdSystem;
  /** What was evaluated, for the report. */
  description: string;
  /** The PME settings used (PME reruns). */
  pme?: PmeSettings;
}

/** Evaluate one configuration (see RerunOptions). Bad input is an MdInputError naming the file, option or line. */
export async function rerunEnergies(o: RerunOptions): Promise<RerunResult> {
  const rc = o.rc ?? 1.0;
  if (!(Number.isFinite(rc) && rc > 0)) throw new MdInputError(`--rc ${o.rc}: must be a positive cut-off`);
  const coulomb = o.coulomb ?? 'rf';
  if (coulomb !== 'rf' && coulomb !== 'pme') throw new MdInputError(`--coulomb ${o.coulomb}: allowed rf (reaction field), pme (smooth particle-mesh Ewald)`);
  o = { ...o, ...resolveBundled(o.gro, o.top) };
  let text: string;
  try {
    text = platform().readText(o.gro);
  } catch (e) {
    throw new MdInputError(`cannot read ${o.gro}: ${(e as Error).message}`);
  }
  const frame = readGro(text, o.gro);
  let sys: MdSystem;
  let comb: 'geom' | 'lb' = 'geom';
  let what: string;
  if (o.top) {
    const t = systemFromTop(readTop(o.top), frame, o.gro);
    sys = t.sys;
    comb = t.comb;
    what = `${t.counts} (${o.top})`;
  } else {
    sys = waterSystemFromGro(frame, o.gro).sys;
    what = `SPC/E water, ${sys.q.length / 3} molecules (built-in model)`;
  }
  const r = await evaluateEnergies(sys, comb, { ...o, rc, coulomb }, o.gro);
  return { ...r, description: `${o.gro}: ${what}, ${sys.q.length} atoms; ${r.description}` };
}

/**
 * The energy terms and forces of an in-memory system (what rerunEnergies does after reading the
 * files): the f64 short-range kernel plus, with PME, the f64 reference mesh. `where` names the
 * input in messages.
 */
export async function evaluateEnergies(sys: MdSystem, comb: 'geom' | 'lb', o: CoulombOptions & { rc?: number; epsfac?: number; ewald?: 'tabulated' | 'analytical' }, where = 'the system'): Promise<RerunResult> {
  const rc = o.rc ?? 1.0;
  const coulomb = o.coulomb ?? 'rf';
  const half = Math.min(...sys.box) / 2;
  if (!(rc < half)) throw new MdInputError(`--rc ${rc}: the cut-off must be shorter than half the smallest box edge (${half.toFixed(4)} nm) of ${where}`);
  const epsfac = o.epsfac ?? ONE_4PI_EPS0;
  const epsR = ONE_4PI_EPS0 / epsfac;
  let settings: MdSettings;
  let pme: PmeSettings | undefined;
  if (coulomb === 'pme') {
    pme = pmeSettings(o, rc, sys.box, sys.q, epsfac);
    settings = { interaction: 'lj-ewald', comb, shift: true, rc, epsR, ewaldRtol: pme.ewaldRtol, ewaldBeta: pme.beta };
  } else {
    let net = 0;
    for (let i = 0; i < sys.q.length; i++) net += sys.q[i]!;
    if (Math.abs(net) > 1e-4) throw new MdInputError(`${where}: the system has a net charge of ${net.toFixed(4)} e (allowed with --coulomb rf: a neutral system)`);
    settings = { interaction: 'lj-rf', comb, shift: true, rc, epsR, epsRf: 0 };
  }
  const key = `md-nonbonded.ts.${settings.interaction}.${comb}.shift.f64.fev.${coulomb === 'pme' ? `${o.ewald ?? 'tabulated'}.` : ''}4x4.mask.mask`;
  const sr = await runTs(key, new MdProblem(sys, settings, 4, 4));
  const f = sr.f;
  const virial = Float64Array.from(sr.virial);
  const terms: [string, number][] = [
    ['LJ (SR)', sr.vdw],
    ['Coulomb (SR)', sr.coul],
  ];
  let potential = sr.vdw + sr.coul;
  if (pme) {
    const r = pmeReciprocal(sys.x, sys.q, sys.box, { beta: pme.beta, grid: pme.grid, order: pme.order, epsfac }, f);
    const net = pme.netChargeCorrection ? ewaldNetCharge(sys.q, pme.beta, sys.box[0] * sys.box[1] * sys.box[2], epsfac) : 0;
    for (let k = 0; k < 9; k++) virial[k]! += r.virial[k]!;
    for (const k of [0, 4, 8]) virial[k]! -= 0.5 * net;
    terms.push(['Coul. recip.', r.energy + net]);
    potential += r.energy + net;
  }
  terms.push(['Potential', potential]);
  const elec = pme ? `PME grid ${pme.grid.join('x')}, order ${pme.order}, beta ${pme.beta.toFixed(6)} nm^-1 (ewald-rtol ${pme.ewaldRtol})` : 'reaction field (eps_rf = inf)';
  return { terms, f, virial, sys, pme, description: `LJ potential-shift, ${elec}, rc ${rc} nm; kernel ${key}` };
}

/** The report lines of a rerun: GROMACS's energy block (names over %15.5e values, five a row) and every term at full precision. */
export function rerunReport(r: RerunResult): string[] {
  const lines = [r.description, '   Energies (kJ/mol)'];
  for (let k = 0; k < r.terms.length; k += 5) {
    const row = r.terms.slice(k, k + 5);
    lines.push(row.map(([n]) => n.padStart(15)).join(''));
    lines.push(row.map(([, v]) => v.toExponential(5).replace(/e([+-])(\d)$/, 'e$10$2').padStart(15)).join(''));
  }
  lines.push('');
  for (const [n, v] of r.terms) lines.push(`${n.padEnd(14)} ${v.toFixed(6).padStart(20)} kJ/mol`);
  return lines;
}
