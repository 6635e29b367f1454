// The built-in SPC/E water model applied to a .gro frame: charges, LJ types, exclusions and
// masses for O, H1, H2 triples, with errors that name the residue, atom and line.
import { GroError, type GroAtom, type GroFrame } from './gro.ts';
import { SPCE, type MdSystem } from './system.ts';

/** Residue names read as SPC/E water. */
export const WATER_RESIDUES = ['SOL', 'WAT', 'HOH', 'SPC'] as const;
/** Accepted atom names per position in the molecule: O, H1, H2. */
export const WATER_ATOM_NAMES: readonly (readonly string[])[] = [['OW', 'O'], ['HW1', 'H1'], ['HW2', 'H2']];
/** O-H distance range accepted as one molecule (SPC/E: 0.1 nm), minimum image. */
export const OH_RANGE: [number, number] = [0.05, 0.2];

export interface WaterTopology {
  sys: MdSystem;
  /** Atomic masses (u). */
  mass: Float64Array;
  /** Atom indices O, H1, H2 of each molecule, 3 per molecule. */
  molecules: Int32Array;
  /** Residue and atom names as read, for writing frames back. */
  names: GroAtom[];
}

/**
 * Where atom i of a frame is, for messages: `at(i)` opens a message (`conf.gro:5`), `ref(i)` names
 * the atom inside one (`line 5`). The default is the .gro file's line; a state file (--continue)
 * names the atom and its entry in `names`.
 */
export interface AtomPlace {
  /** The start of a message about atom i (0-based), such as `conf.gro:5`. */
  at(i: number): string;
  /** Atom i inside a sentence, such as `line 5`. */
  ref(i: number): string;
}

const KNOWN = `the built-in model knows ${WATER_RESIDUES.join(', ')} (SPC/E water: OW, HW1, HW2, or O, H1, H2, in this order)`;

/**
 * Build an SPC/E water system from a frame whose atoms are complete O, H1, H2 molecules. Messages
 * name `file` and the atom's line (atom i is on line i + 3), or where `place` says.
 */
export function waterSystemFromGro(frame: GroFrame, file = '<input>', place?: AtomPlace): WaterTopology {
  const n = frame.atoms.length;
  const at = place ? (i: number): string => place.at(i) : (i: number): string => `${file}:${i + 3}`; // atom i is on line i + 3
  const line = place ? (i: number): string => place.ref(i) : (i: number): string => `line ${i + 3}`;
  const fail = (i: number, what: string): never => {
    throw new GroError(`${at(i)}: ${what}`);
  };
  if (n === 0) throw new GroError(`${file}: the frame has zero atoms (allowed: at least one SPC/E molecule)`);
  for (let i = 0; i < n; i++) {
    const a = frame.atoms[i]!;
    if (!(WATER_RESIDUES as readonly string[]).includes(a.resname)) {
      fail(i, `unknown residue "${a.resname}" at ${line(i)} (atom "${a.name}"); ${KNOWN}`);
    }
    const pos = i % 3;
    const slot = WATER_ATOM_NAMES.findIndex((names) => names.includes(a.name));
    if (slot < 0) fail(i, `unknown atom "${a.name}" at ${line(i)} (residue ${a.resname} ${a.resnr}); ${KNOWN}`);
    if (slot !== pos) {
      const expected = WATER_ATOM_NAMES[pos]!.join(' or ');
      const why = pos === 0 ? 'a molecule starts here' : `atom ${i - pos + 1} (${line(i - pos)}) started a molecule`;
      fail(i, `incomplete or misordered water molecule: atom "${a.name}" of residue ${a.resname} ${a.resnr} where ${expected} belongs (${why}); ${KNOWN}`);
    }
    if (pos > 0) {
      const o = frame.atoms[i - pos]!;
      if (o.resnr !== a.resnr || o.resname !== a.resname) {
        fail(i, `incomplete water molecule: atom "${a.name}" is in residue ${a.resname} ${a.resnr} but its ${o.name} (${line(i - pos)}) is in ${o.resname} ${o.resnr}`);
      }
    }
  }
  if (n % 3 !== 0) {
    const start = n - (n % 3);
    fail(start, `incomplete water molecule at the end: ${n % 3} atom${n % 3 === 1 ? '' : 's'} of residue ${frame.atoms[start]!.resname} ${frame.atoms[start]!.resnr} (${KNOWN})`);
  }

  const box = frame.box;
  for (let i = 0; i < n; i++) {
    for (let c = 0; c < 3; c++) {
      const v = frame.x[3 * i + c]!;
      const L = box[c]!;
      if (!(v >= -0.5 * L && v < 1.5 * L)) {
        const a = frame.atoms[i]!;
        fail(i, `atom ${i + 1} ("${a.name}" of ${a.resname} ${a.resnr}) has ${'xyz'[c]} = ${v} nm, more than half a box edge outside the box [0, ${L}) (allowed: ${-0.5 * L} <= ${'xyz'[c]} < ${1.5 * L})`);
      }
    }
  }

  const nMol = n / 3;
  const q = new Float64Array(n);
  const type = new Int32Array(n);
  const mass = new Float64Array(n);
  const molecules = new Int32Array(n);
  const exclusions: Int32Array[] = new Array(n);
  for (let m = 0; m < nMol; m++) {
    const o = 3 * m;
    for (const h of [o + 1, o + 2]) {
      let d2 = 0;
      for (let c = 0; c < 3; c++) {
        let d = frame.x[3 * h + c]! - frame.x[3 * o + c]!;
        d -= box[c]! * Math.round(d / box[c]!);
        d2 += d * d;
      }
      const d = Math.sqrt(d2);
      if (!(d >= OH_RANGE[0] && d <= OH_RANGE[1])) {
        const a = frame.atoms[h]!;
        fail(h, `atom "${a.name}" of ${a.resname} ${a.resnr} is ${d.toFixed(4)} nm from its oxygen (${line(o)}) (allowed: ${OH_RANGE[0]}-${OH_RANGE[1]} nm; SPC/E O-H is ${SPCE.dOH} nm)`);
      }
    }
    q[o] = SPCE.qO;
    q[o + 1] = q[o + 2] = SPCE.qH;
    type[o] = 0;
    type[o + 1] = type[o + 2] = 1;
    mass[o] = SPCE.massO;
    mass[o + 1] = mass[o + 2] = SPCE.massH;
    molecules[o] = o;
    molecules[o + 1] = o + 1;
    molecules[o + 2] = o + 2;
    exclusions[o] = Int32Array.of(o + 1, o + 2);
    exclusions[o + 1] = Int32Array.of(o, o + 2);
    exclusions[o + 2] = Int32Array.of(o, o + 1);
  }
  const sys: MdSystem = {
    box: [box[0], box[1], box[2]],
    x: Float64Array.from(frame.x),
    q,
    type,
    ljTypes: [{ sigma: SPCE.sigmaO, epsilon: SPCE.epsilonO }, { sigma: 0, epsilon: 0 }],
    exclusions,
  };
  return { sys, mass, molecules, names: frame.atoms.map((a) => ({ ...a })) };
}
