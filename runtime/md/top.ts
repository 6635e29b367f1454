// The subset of GROMACS's .top format that water-and-ions systems use: a C-like preprocessor
// (#include, #define, #undef, #ifdef, #ifndef, #else, #endif), [ defaults ], [ atomtypes ],
// [ moleculetype ] with [ atoms ], [ settles ] and [ exclusions ], [ system ] and [ molecules ];
// and the system built from it and a .gro frame. Includes are looked up next to the including
// file, then in the force fields kernforge ships (data/md/ff: the OPLS-AA subset for SPC/E
// water, Na+ and Cl-); kernforge never reads a GROMACS installation. Every error is one line
// naming what, the file and line, and what is allowed.
import { platform } from '../platform.ts';
import { DATA_URL } from '../data.ts';
import { MdInputError } from './errors.ts';
import type { GroAtom, GroFrame } from './gro.ts';
import type { MdSystem } from './system.ts';

/** The folder of the force fields kernforge ships (data/md/ff), searched after the including file's folder. */
export const BUNDLED_FF_DIR = decodeURIComponent(new URL('md/ff/', DATA_URL).pathname);
/** The bundled salt water (data/md/salt-water: SPC/E with 0.15 M NaCl, OPLS-AA ions; made by make.sh there). */
export const BUNDLED_SALT_WATER = {
  /** The configuration (positions and velocities). */
  gro: decodeURIComponent(new URL('md/salt-water/conf.gro', DATA_URL).pathname),
  /** Its topology (includes oplsaa.ff from data/md/ff). */
  top: decodeURIComponent(new URL('md/salt-water/topol.top', DATA_URL).pathname),
};

/**
 * The files of a `--gro` name: `salt-water` (when no such file exists) is the bundled salt water
 * with its topology (unless one is given); any other name is a path, returned as given.
 */
export function resolveBundled(gro: string, top?: string): { gro: string; top?: string } {
  if (gro === 'salt-water' && !platform().exists(gro)) return { gro: BUNDLED_SALT_WATER.gro, top: top ?? BUNDLED_SALT_WATER.top };
  return { gro, top };
}

/** A .top error: one line, file:line first. */
export class TopError extends MdInputError {}

/** [ defaults ]: nonbonded function, combination rule, pair generation and 1-4 factors. */
export interface TopDefaults {
  nbfunc: number;
  combRule: number;
  genPairs: boolean;
  fudgeLJ: number;
  fudgeQQ: number;
}

/** One [ atomtypes ] entry; v and w are sigma (nm) and epsilon (kJ/mol) for comb-rule 2 and 3, C6 and C12 for rule 1. */
export interface TopAtomType {
  name: string;
  mass: number;
  charge: number;
  ptype: string;
  v: number;
  w: number;
  /** file:line of the entry. */
  at: string;
}

/** One [ atoms ] entry of a molecule type. */
export interface TopAtom {
  type: string;
  resnr: number;
  resname: string;
  name: string;
  charge: number;
  mass: number;
  at: string;
}

/** A [ moleculetype ]: atoms, SETTLE (rigid water) and exclusions (0-based within the molecule, both directions). */
export interface TopMoleculeType {
  name: string;
  nrexcl: number;
  atoms: TopAtom[];
  /** [ settles ]: the oxygen (0-based), d(OH) and d(HH) in nm. */
  settle?: { o: number; doh: number; dhh: number; at: string };
  exclusions: Set<number>[];
  at: string;
}

/** A parsed topology. */
export interface Topology {
  /** The .top file read. */
  file: string;
  /** [ defaults ]. */
  defaults: TopDefaults;
  /** [ atomtypes ] by name. */
  atomTypes: Map<string, TopAtomType>;
  /** [ moleculetype ]s by name. */
  moleculeTypes: Map<string, TopMoleculeType>;
  /** [ system ] title. */
  system: string;
  /** [ molecules ] in order. */
  molecules: {
    /** Molecule type. */
    name: string;
    /** How many, in this order in the .gro. */
    count: number;
    /** file:line of the entry. */
    at: string;
  }[];
}

/** Sections whose entries only parameterise bonded terms (which the supported molecules do not have): read past. */
const BONDED_TYPE_SECTIONS = new Set(['bondtypes', 'angletypes', 'dihedraltypes', 'constrainttypes', 'pairtypes', 'cmaptypes', 'implicit_genborn_params']);
/** Molecule sections kernforge cannot run: an entry in one is an error. */
const UNSUPPORTED = ['bonds', 'pairs', 'pairs_nb', 'angles', 'dihedrals', 'constraints', 'cmap', 'position_restraints', 'distance_restraints', 'dihedral_restraints', 'orientation_restraints', 'angle_restraints', 'angle_restraints_z', 'virtual_sites2', 'virtual_sites3', 'virtual_sites4', 'virtual_sitesn', 'polarization', 'water_polarization', 'thole_polarization', 'nonbond_params'];
const SUPPORTED = 'defaults, atomtypes, moleculetype, atoms, settles, exclusions, system, molecules (and the bonded *types sections, read past)';
/** Most nested #includes. */
const MAX_INCLUDE_DEPTH = 20;

interface Line {
  text: string;
  at: string;
}

function dirOf(path: string): string {
  const k = path.lastIndexOf('/');
  return k < 0 ? '.' : k === 0 ? '/' : path.slice(0, k);
}

/** The preprocessed lines of a .top (comments stripped, continuation lines joined), each with its file:line. */
function preprocess(file: string, defines: Map<string, string>, out: Line[], depth: number, from?: string): void {
  let text: string;
  try {
    text = platform().readText(file);
  } catch (e) {
    throw new TopError(`${from ? `${from}: ` : ''}cannot read ${file}: ${(e as Error).message}`);
  }
  const raw = text.split(/\r?\n/);
  // #if stack: whether each open block is active, and whether its #else was seen.
  const stack: { active: boolean; parentActive: boolean; sawElse: boolean; at: string }[] = [];
  const active = (): boolean => stack.length === 0 || stack[stack.length - 1]!.active;
  for (let i = 0; i < raw.length; i++) {
    let line = raw[i]!;
    const at = `${file}:${i + 1}`;
    while (line.endsWith('\\') && i + 1 < raw.length) line = line.slice(0, -1) + ' ' + raw[++i]!;
    const semi = line.indexOf(';');
    if (semi >= 0) line = line.slice(0, semi);
    const t = line.trim();
    if (t === '') continue;
    if (t.startsWith('#')) {
      const m = /^#\s*(\w+)\s*(.*)$/.exec(t);
      const dir = m?.[1] ?? '';
      const arg = (m?.[2] ?? '').trim();
      if (dir === 'ifdef' || dir === 'ifndef') {
        if (!/^\w+$/.test(arg)) throw new TopError(`${at}: #${dir} needs one macro name (got "${arg}")`);
        const cond = defines.has(arg) === (dir === 'ifdef');
        stack.push({ active: active() && cond, parentActive: active(), sawElse: false, at });
      } else if (dir === 'else') {
        const top = stack[stack.length - 1];
        if (!top || top.sawElse) throw new TopError(`${at}: #else without an open #ifdef/#ifndef`);
        top.sawElse = true;
        top.active = top.parentActive && !top.active;
      } else if (dir === 'endif') {
        if (!stack.pop()) throw new TopError(`${at}: #endif without an open #ifdef/#ifndef`);
      } else if (!active()) {
        continue;
      } else if (dir === 'define') {
        const dm = /^(\w+)\s*(.*)$/.exec(arg);
        if (!dm) throw new TopError(`${at}: #define needs a macro name`);
        defines.set(dm[1]!, dm[2]!.trim());
      } else if (dir === 'undef') {
        defines.delete(arg);
      } else if (dir === 'include') {
        const im = /^["<]([^">]+)[">]$/.exec(arg);
        if (!im) throw new TopError(`${at}: #include needs "file" or <file> (got ${arg})`);
        if (depth >= MAX_INCLUDE_DEPTH) throw new TopError(`${at}: #include nested more than ${MAX_INCLUDE_DEPTH} deep (allowed: ${MAX_INCLUDE_DEPTH}; an include cycle?)`);
        const name = im[1]!;
        const here = platform().resolve(dirOf(file), name);
        const bundled = platform().resolve(BUNDLED_FF_DIR, name);
        const target = name.startsWith('/') ? name : platform().exists(here) ? here : platform().exists(bundled) ? bundled : undefined;
        if (!target) throw new TopError(`${at}: #include "${name}": not found next to ${file} nor among the force fields kernforge ships (data/md/ff: oplsaa.ff/forcefield.itp, spce.itp, ions.itp)`);
        preprocess(target, defines, out, depth + 1, at);
      } else {
        throw new TopError(`${at}: unsupported preprocessor directive #${dir} (allowed: #include, #define, #undef, #ifdef, #ifndef, #else, #endif)`);
      }
      continue;
    }
    if (active()) out.push({ text: t, at });
  }
  if (stack.length) throw new TopError(`${stack[stack.length - 1]!.at}: #ifdef/#ifndef without #endif in ${file}`);
}

const isNum = (s: string): boolean => /^[-+]?(\d+\.?\d*|\.\d+)([eEdD][-+]?\d+)?$/.test(s);

/** Read a .top file and its includes. `defines`: macros set as with grompp's `define = -DNAME`. */
export function readTop(file: string, defines: string[] = []): Topology {
  const lines: Line[] = [];
  preprocess(file, new Map(defines.map((d) => [d, ''])), lines, 0);
  let defaults: TopDefaults | undefined;
  const atomTypes = new Map<string, TopAtomType>();
  const moleculeTypes = new Map<string, TopMoleculeType>();
  const molecules: Topology['molecules'] = [];
  let system = '';
  let section = '';
  let mol: TopMoleculeType | undefined;

  const num = (s: string | undefined, what: string, at: string): number => {
    if (s === undefined || !isNum(s)) throw new TopError(`${at}: ${what} "${s ?? ''}" is not a number`);
    return Number(s.replace(/[dD]/, 'e'));
  };
  const int = (s: string | undefined, what: string, at: string): number => {
    const v = num(s, what, at);
    if (!Number.isInteger(v)) throw new TopError(`${at}: ${what} ${s} is not an integer`);
    return v;
  };

  for (const { text, at } of lines) {
    const sm = /^\[\s*([\w-]+)\s*\]$/.exec(text);
    if (sm) {
      section = sm[1]!.toLowerCase();
      if (section === 'moleculetype') mol = undefined;
      else if (['atoms', 'settles', 'exclusions'].includes(section) || UNSUPPORTED.includes(section)) {
        if (!mol && section !== 'nonbond_params') throw new TopError(`${at}: [ ${section} ] outside a [ moleculetype ]`);
      } else if (!['defaults', 'atomtypes', 'system', 'molecules'].includes(section) && !BONDED_TYPE_SECTIONS.has(section)) {
        throw new TopError(`${at}: unknown section [ ${section} ] (kernforge reads ${SUPPORTED})`);
      }
      continue;
    }
    const f = text.split(/\s+/);
    switch (section) {
      case '':
        throw new TopError(`${at}: "${text}" before any [ section ]`);
      case 'defaults': {
        if (defaults) throw new TopError(`${at}: a second [ defaults ] entry (a topology has one)`);
        const nbfunc = int(f[0], 'nbfunc', at);
        const combRule = int(f[1], 'comb-rule', at);
        if (nbfunc !== 1) throw new TopError(`${at}: nbfunc ${nbfunc} is not supported (allowed: 1, Lennard-Jones)`);
        if (![1, 2, 3].includes(combRule)) throw new TopError(`${at}: comb-rule ${combRule} (allowed: 1, 2, 3)`);
        defaults = { nbfunc, combRule, genPairs: (f[2] ?? 'no').toLowerCase() === 'yes', fudgeLJ: f[3] ? num(f[3], 'fudgeLJ', at) : 1, fudgeQQ: f[4] ? num(f[4], 'fudgeQQ', at) : 1 };
        break;
      }
      case 'atomtypes': {
        // GROMACS's layouts: name [bond_type] [at.num] mass charge ptype V W; the ptype column
        // (one letter) says which optional columns are there.
        let p: number;
        if (f.length >= 8 && /^[A-Za-z]$/.test(f[5]!)) p = 5;
        else if (f.length >= 6 && /^[A-Za-z]$/.test(f[3]!)) p = 3;
        else if (f.length >= 7 && /^[A-Za-z]$/.test(f[4]!)) p = 4;
        else throw new TopError(`${at}: [ atomtypes ] entry "${text}" is not name [bond_type] [at.num] mass charge ptype V W`);
        const name = f[0]!;
        if (atomTypes.has(name)) throw new TopError(`${at}: atom type ${name} defined twice (first at ${atomTypes.get(name)!.at})`);
        const ptype = f[p]!.toUpperCase();
        if (ptype !== 'A') throw new TopError(`${at}: atom type ${name} has particle type ${ptype} (allowed: A, atoms; no virtual sites or shells)`);
        atomTypes.set(name, { name, mass: num(f[p - 2], 'mass', at), charge: num(f[p - 1], 'charge', at), ptype, v: num(f[p + 1], 'V (sigma or C6)', at), w: num(f[p + 2], 'W (epsilon or C12)', at), at });
        break;
      }
      case 'moleculetype': {
        if (mol) throw new TopError(`${at}: a second entry in [ moleculetype ] (one molecule name and nrexcl)`);
        const name = f[0]!;
        if (moleculeTypes.has(name)) throw new TopError(`${at}: molecule type ${name} defined twice (first at ${moleculeTypes.get(name)!.at})`);
        mol = { name, nrexcl: f[1] ? int(f[1], 'nrexcl', at) : 3, atoms: [], exclusions: [], at };
        moleculeTypes.set(name, mol);
        break;
      }
      case 'atoms': {
        const m = mol!;
        const nr = int(f[0], 'atom number', at);
        if (nr !== m.atoms.length + 1) throw new TopError(`${at}: atom ${nr} of ${m.name} out of order (expected ${m.atoms.length + 1})`);
        const type = f[1];
        if (!type || f.length < 5) throw new TopError(`${at}: [ atoms ] entry "${text}" is not nr type resnr residue atom [cgnr charge mass]`);
        const t = atomTypes.get(type);
        if (!t) throw new TopError(`${at}: unknown atom type ${type} in molecule ${m.name} (known: ${[...atomTypes.keys()].join(', ') || 'none'})`);
        m.atoms.push({ type, resnr: int(f[2], 'residue number', at), resname: f[3]!, name: f[4]!, charge: f[6] !== undefined ? num(f[6], 'charge', at) : t.charge, mass: f[7] !== undefined ? num(f[7], 'mass', at) : t.mass, at });
        m.exclusions.push(new Set());
        break;
      }
      case 'settles': {
        const m = mol!;
        if (m.settle) throw new TopError(`${at}: a second [ settles ] entry in ${m.name} (allowed: one, rigid water)`);
        const o = int(f[0], 'settle oxygen', at) - 1;
        if (int(f[1], 'settle function', at) !== 1) throw new TopError(`${at}: settle function ${f[1]} (allowed: 1)`);
        if (m.atoms.length !== 3 || o !== 0) throw new TopError(`${at}: [ settles ] in ${m.name} needs a 3-atom molecule O, H, H with the oxygen first (has ${m.atoms.length} atoms, oxygen ${o + 1})`);
        m.settle = { o, doh: num(f[2], 'd(OH)', at), dhh: num(f[3], 'd(HH)', at), at };
        // SETTLE makes the three atoms one rigid body: they exclude each other, as grompp does.
        for (const a of [0, 1, 2]) for (const b of [0, 1, 2]) if (a !== b) m.exclusions[a]!.add(b);
        break;
      }
      case 'exclusions': {
        const m = mol!;
        const ids = f.map((s) => int(s, 'atom number', at) - 1);
        for (const k of ids) if (k < 0 || k >= m.atoms.length) throw new TopError(`${at}: exclusion names atom ${k + 1}, ${m.name} has ${m.atoms.length}`);
        for (const k of ids.slice(1)) {
          if (k === ids[0]) continue;
          m.exclusions[ids[0]!]!.add(k);
          m.exclusions[k]!.add(ids[0]!);
        }
        break;
      }
      case 'system':
        system = system ? `${system} ${text}` : text;
        break;
      case 'molecules': {
        const name = f[0]!;
        if (!moleculeTypes.has(name)) throw new TopError(`${at}: unknown molecule type ${name} in [ molecules ] (known: ${[...moleculeTypes.keys()].join(', ') || 'none'})`);
        const count = int(f[1], `count of ${name}`, at);
        if (count < 0) throw new TopError(`${at}: count ${count} of ${name} is negative`);
        molecules.push({ name, count, at });
        break;
      }
      default:
        if (BONDED_TYPE_SECTIONS.has(section)) break;
        throw new TopError(`${at}: [ ${section} ] ${mol ? `in molecule ${mol.name} ` : ''}is not supported: kernforge runs rigid water (SETTLE) and monatomic ions (allowed sections: ${SUPPORTED})`);
    }
  }
  if (!defaults) throw new TopError(`${file}: no [ defaults ] (include a force field, e.g. #include "oplsaa.ff/forcefield.itp")`);
  if (molecules.length === 0) throw new TopError(`${file}: no [ molecules ] entries`);
  return { file, defaults, atomTypes, moleculeTypes, system, molecules };
}

/** A system built from a topology and a frame: the MD system, masses, names, the rigid waters and their geometry. */
export interface TopSystem {
  /** The system: box and positions from the .gro, charges, LJ types and exclusions from the topology. */
  sys: MdSystem;
  /** LJ combination of the system's ljTypes: comb-rule 2 Lorentz-Berthelot, else geometric. */
  comb: 'geom' | 'lb';
  /** Masses (u) per atom. */
  mass: Float64Array;
  /** Residue and atom names per atom, as in the .gro. */
  names: GroAtom[];
  /** Atom indices O, H1, H2 of each SETTLE water, 3 per molecule. */
  waters: Int32Array;
  /** The SETTLE geometry (nm), when there are waters. */
  settle?: {
    /** O-H distance (nm). */
    doh: number;
    /** H-H distance (nm). */
    dhh: number;
  };
  /** Molecules by type, for the description ("SOL 2956, NA 8, CL 8"). */
  counts: string;
  /** Net charge (e). */
  netCharge: number;
}

/**
 * The system of `frame` under topology `top`: atom counts and names must match the [ molecules ]
 * (as grompp requires), every molecule is rigid water (SETTLE) or a single atom.
 */
export function systemFromTop(top: Topology, frame: GroFrame, groFile: string): TopSystem {
  let total = 0;
  for (const m of top.molecules) total += m.count * top.moleculeTypes.get(m.name)!.atoms.length;
  const n = frame.atoms.length;
  if (total !== n) throw new TopError(`${groFile}: ${n} atoms, but ${top.file}'s [ molecules ] make ${total} (${top.molecules.map((m) => `${m.name} ${m.count}`).join(', ')})`);
  const q = new Float64Array(n);
  const type = new Int32Array(n);
  const mass = new Float64Array(n);
  const exclusions: Int32Array[] = new Array(n);
  const waters: number[] = [];
  const typeIndex = new Map<string, number>();
  const ljTypes: MdSystem['ljTypes'] = [];
  let settle: TopSystem['settle'];
  const rule = top.defaults.combRule;
  let a = 0;
  for (const entry of top.molecules) {
    const mt = top.moleculeTypes.get(entry.name)!;
    if (mt.atoms.length > 1 && !mt.settle) throw new TopError(`${mt.at}: molecule type ${mt.name} has ${mt.atoms.length} atoms but no [ settles ] (kernforge runs rigid SETTLE water and monatomic ions)`);
    if (mt.settle) {
      if (settle && (settle.doh !== mt.settle.doh || settle.dhh !== mt.settle.dhh)) throw new TopError(`${mt.settle.at}: a second water geometry (${mt.settle.doh}, ${mt.settle.dhh} nm; the first is ${settle.doh}, ${settle.dhh}) (allowed: one SETTLE geometry per system)`);
      settle = { doh: mt.settle.doh, dhh: mt.settle.dhh };
    }
    for (let c = 0; c < entry.count; c++) {
      const first = a;
      for (let k = 0; k < mt.atoms.length; k++, a++) {
        const ta = mt.atoms[k]!;
        const g = frame.atoms[a]!;
        if (g.name !== ta.name) {
          throw new TopError(`${groFile}:${a + 3}: atom ${a + 1} is "${g.name}" (residue ${g.resname} ${g.resnr}), but molecule ${c + 1} of ${mt.name} (${entry.at}) has "${ta.name}" there (${ta.at})`);
        }
        q[a] = ta.charge;
        mass[a] = ta.mass;
        if (!(ta.mass > 0)) throw new TopError(`${ta.at}: atom ${ta.name} of ${mt.name} has mass ${ta.mass} (allowed: > 0)`);
        let ti = typeIndex.get(ta.type);
        if (ti === undefined) {
          ti = ljTypes.length;
          typeIndex.set(ta.type, ti);
          const t = top.atomTypes.get(ta.type)!;
          if (rule === 1) {
            // C6, C12 given: geometric means of both, which is the geometric rule on sigma, epsilon.
            ljTypes.push(t.v > 0 && t.w > 0 ? { sigma: (t.w / t.v) ** (1 / 6), epsilon: (t.v * t.v) / (4 * t.w) } : { sigma: 0, epsilon: 0 });
            if ((t.v > 0) !== (t.w > 0)) throw new TopError(`${t.at}: atom type ${t.name} has C6 ${t.v} and C12 ${t.w} (kernforge needs both zero or both positive)`);
          } else ljTypes.push({ sigma: t.v, epsilon: t.w });
        }
        type[a] = ti;
        exclusions[a] = Int32Array.from([...mt.exclusions[k]!].sort((x, y) => x - y), (j) => first + j);
      }
      if (mt.settle) waters.push(first, first + 1, first + 2);
    }
  }
  let net = 0;
  for (let i = 0; i < n; i++) net += q[i]!;
  const sys: MdSystem = { box: [frame.box[0], frame.box[1], frame.box[2]], x: Float64Array.from(frame.x), q, type, ljTypes, exclusions };
  return {
    sys,
    comb: rule === 2 ? 'lb' : 'geom',
    mass,
    names: frame.atoms.map((g) => ({ ...g })),
    waters: Int32Array.from(waters),
    settle,
    counts: top.molecules.map((m) => `${m.name} ${m.count}`).join(', '),
    netCharge: net,
  };
}
