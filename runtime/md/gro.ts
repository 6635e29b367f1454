// GROMACS .gro coordinate files: a fixed-column reader that infers the field width from the
// decimal points of the first atom line (as GROMACS's get_w_conf does), a writer with
// GROMACS's default precision or more (-ndec), and an atomic file write for state files.
import { KernforgeError } from '../errors.ts';

/** A user-facing problem with a .gro file: `file:line: what (allowed: ...)`. */
export class GroError extends KernforgeError {
  constructor(message: string) {
    super(message);
    this.name = 'GroError';
  }
}

/** One atom line's identity in a .gro file (its coordinates are in GroFrame.x). */
export interface GroAtom {
  /** Residue number as written (GROMACS wraps it at 100000). */
  resnr: number;
  /** Residue name (at most 5 characters are written). */
  resname: string;
  /** Atom name. */
  name: string;
}

/** One .gro frame: title, atoms, positions and optional velocities (nm, nm/ps), rectangular box. */
export interface GroFrame {
  /** The title line. */
  title: string;
  /** Atom identities, in file order. */
  atoms: GroAtom[];
  /** Positions, 3 per atom (nm). */
  x: Float64Array;
  /** Velocities, 3 per atom (nm/ps); present when every atom line has them. */
  v?: Float64Array;
  /** Rectangular box edges (nm). */
  box: [number, number, number];
  /** Decimals of the coordinates as read (3 in GROMACS's default format); set by readGro. */
  precision?: number;
}

export interface WriteGroOptions {
  /**
   * Decimals of the coordinates (default 3, as GROMACS); velocities get one more, and each field
   * is precision + 5 characters wide (GROMACS -ndec). Use 8 or more for state files that a run
   * continues from. The box gets max(5, precision) decimals.
   */
  precision?: number;
  /** Write velocities when the frame has them (default true). */
  velocities?: boolean;
}

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const NONFINITE = /^[+-]?(nan|inf|infinity)$/i;
const COMPONENT = ['x', 'y', 'z'];

/** Parse a .gro file (one frame, rectangular box). Throws GroError with file:line on bad input. */
export function readGro(text: string, file = '<input>'): GroFrame {
  const lines = text.split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
  const fail = (line: number, what: string, allowed?: string): never => {
    throw new GroError(`${file}:${line}: ${what}${allowed ? ` (allowed: ${allowed})` : ''}`);
  };
  let last = lines.length - 1;
  while (last >= 0 && lines[last]!.trim() === '') last--;
  if (last < 0) fail(1, 'empty file', 'a title line, an atom count, atom lines and a box line');
  const title = lines[0]!;
  if (last < 1) fail(2, 'missing atom count line', 'a positive integer on line 2');
  const countText = lines[1]!.trim();
  if (!/^\+?\d+$/.test(countText)) fail(2, `atom count "${countText}" is not an integer`, 'a positive integer on line 2');
  const n = Number(countText);
  if (n === 0) fail(2, 'the file has zero atoms', 'at least one atom');
  // Lines (0-based): title 0, count 1, atoms 2 .. n+1, box n+2.
  if (last < n + 2) {
    const tokens = lines[last]!.trim().split(/\s+/);
    const boxLike = last >= 2 && (tokens.length === 3 || tokens.length === 9) && tokens.every((t) => NUMBER.test(t));
    const atomLines = boxLike ? last - 2 : last - 1;
    if (!boxLike && atomLines === n) fail(n + 3, `missing box line after the ${n} atom lines`, 'Lx Ly Lz (nm) on the line after the atoms');
    fail(
      last + 1,
      `the file ends after ${atomLines} atom line${atomLines === 1 ? '' : 's'}${boxLike ? ' and a box line' : ' and no box line'}, but line 2 says ${n} atoms`,
      `exactly ${n} atom lines, as line 2 says, then the box line`,
    );
  }

  // Field width from the spacing of the decimal points on the first atom line (GROMACS get_w_conf).
  const first = lines[2]!;
  const p1 = first.indexOf('.', 20);
  const p2 = p1 < 0 ? -1 : first.indexOf('.', p1 + 1);
  const p3 = p2 < 0 ? -1 : first.indexOf('.', p2 + 1);
  if (p3 < 0) fail(3, 'cannot find three decimal points in the coordinates (columns 21 on)', 'x, y, z as fixed-width decimals such as %8.3f from column 21');
  const w = p2 - p1;
  if (p3 - p2 !== w || w < 3) fail(3, `the decimal points of x, y, z are not evenly spaced (${p2 - p1} and ${p3 - p2} columns apart)`, 'fixed-width fields such as %8.3f%8.3f%8.3f');
  const precision = Math.max(0, w - 5);

  const atoms: GroAtom[] = new Array(n);
  const x = new Float64Array(3 * n);
  const v = new Float64Array(3 * n);
  let hasV: boolean | undefined;
  const field = (line: number, s: string, what: string): number => {
    const t = s.trim();
    if (NONFINITE.test(t)) fail(line, `${what} "${t}" is not finite`, 'finite decimal numbers');
    if (!NUMBER.test(t)) fail(line, `cannot read ${what} from "${s}"`, `decimal numbers in fixed columns of width ${w} (inferred from line 3)`);
    const val = Number(t);
    if (!Number.isFinite(val)) fail(line, `${what} "${t}" is not finite`, 'finite decimal numbers');
    return val;
  };
  for (let i = 0; i < n; i++) {
    const ln = i + 3;
    const l = lines[i + 2]!;
    if (l.trimEnd().length < 20 + 3 * w) {
      fail(ln, `atom line too short for residue, atom and x, y, z (${l.trimEnd().length} < ${20 + 3 * w} characters)`, `%5d%-5s%5s%5d then 3 fields of width ${w}`);
    }
    const resText = l.slice(0, 5).trim();
    if (!/^[+-]?\d+$/.test(resText)) fail(ln, `residue number "${resText}" is not an integer`, 'an integer in columns 1-5');
    const resname = l.slice(5, 10).trim();
    const name = l.slice(10, 15).trim();
    if (!name) fail(ln, 'empty atom name', 'an atom name in columns 11-15');
    atoms[i] = { resnr: Number(resText), resname, name };
    for (let c = 0; c < 3; c++) x[3 * i + c] = field(ln, l.slice(20 + c * w, 20 + (c + 1) * w), `${COMPONENT[c]} coordinate of atom ${i + 1}`);
    const vText = l.slice(20 + 3 * w);
    const lineHasV = vText.trim() !== '';
    if (hasV === undefined) hasV = lineHasV;
    else if (hasV !== lineHasV) {
      fail(ln, lineHasV ? 'this atom line has velocities but line 3 has none' : 'this atom line has no velocities but line 3 has', 'velocities on every atom line or on none');
    }
    if (lineHasV) {
      for (let c = 0; c < 3; c++) v[3 * i + c] = field(ln, vText.slice(c * w, (c + 1) * w), `${COMPONENT[c]} velocity of atom ${i + 1}`);
      if (vText.slice(3 * w).trim() !== '') fail(ln, `unexpected text "${vText.slice(3 * w).trim()}" after the velocities`, `at most 6 numeric fields of width ${w}`);
    }
  }

  const boxLn = n + 3;
  const boxText = lines[n + 2]!.trim();
  const parts = boxText.split(/\s+/);
  const boxAllowed = 'Lx Ly Lz (nm) as 3 numbers, or 9 numbers with zero off-diagonals';
  if ((parts.length !== 3 && parts.length !== 9) || !parts.every((p) => NUMBER.test(p))) {
    const atomLike = boxText.length >= 20 + 3 * w - 5 && /[A-Za-z]/.test(lines[n + 2]!.slice(5, 15));
    if (atomLike) fail(boxLn, `expected the box line after ${n} atoms but found an atom line`, `exactly ${n} atom lines, as line 2 says, then the box line`);
    fail(boxLn, `cannot read the box from "${boxText}"`, boxAllowed);
  }
  const bv = parts.map(Number);
  if (bv.length === 9 && bv.slice(3).some((b) => b !== 0)) {
    fail(boxLn, `triclinic box (off-diagonals ${bv.slice(3).join(' ')}) is not supported`, 'rectangular boxes: 3 numbers, or 9 with zero off-diagonals');
  }
  const box: [number, number, number] = [bv[0]!, bv[1]!, bv[2]!];
  if (box.some((b) => !(b > 0) || !Number.isFinite(b))) fail(boxLn, `box edges ${box.join(' ')} must be positive and finite`, boxAllowed);
  if (last > n + 2) {
    fail(n + 4, `unexpected content after the box line: "${lines[n + 3]!.trim().slice(0, 40)}"`, `one frame: exactly ${n} atom lines, as line 2 says, then the box line; trajectories are not read`);
  }
  const frame: GroFrame = { title, atoms, x, box, precision };
  if (hasV) frame.v = v;
  return frame;
}

/** Format a frame in GROMACS .gro layout: %5d%-5s%5s%5d then fields %{p+5}.{p}f (x), %{p+5}.{p+1}f (v). */
export function writeGro(frame: GroFrame, o: WriteGroOptions = {}): string {
  const p = o.precision ?? 3;
  if (!Number.isInteger(p) || p < 0 || p > 30) throw new GroError(`writeGro: precision ${p} (allowed: an integer 0-30)`);
  const n = frame.atoms.length;
  if (n === 0) throw new GroError('writeGro: the frame has zero atoms (allowed: at least one atom)');
  if (frame.x.length !== 3 * n) throw new GroError(`writeGro: ${frame.x.length} coordinates for ${n} atoms`);
  const withV = (o.velocities ?? true) && frame.v !== undefined;
  if (withV && frame.v!.length !== 3 * n) throw new GroError(`writeGro: ${frame.v!.length} velocity components for ${n} atoms`);
  const w = p + 5;
  const num = (val: number, dec: number, width: number, what: string): string => {
    const s = val.toFixed(dec);
    if (!Number.isFinite(val) || s.length > width) throw new GroError(`writeGro: ${what} ${val} does not fit a field of width ${width} with ${dec} decimals`);
    return s.padStart(width);
  };
  const out: string[] = [frame.title.replace(/[\r\n]+/g, ' '), String(n).padStart(5)];
  for (let i = 0; i < n; i++) {
    const a = frame.atoms[i]!;
    let l =
      String(((a.resnr % 100000) + 100000) % 100000).padStart(5) +
      a.resname.slice(0, 5).padEnd(5) +
      a.name.slice(0, 5).padStart(5) +
      String((i + 1) % 100000).padStart(5);
    for (let c = 0; c < 3; c++) l += num(frame.x[3 * i + c]!, p, w, `atom ${i + 1} ${COMPONENT[c]}`);
    if (withV) for (let c = 0; c < 3; c++) l += num(frame.v![3 * i + c]!, p + 1, w, `atom ${i + 1} v${COMPONENT[c]}`);
    out.push(l);
  }
  const bd = Math.max(5, p);
  out.push(frame.box.map((b) => num(b, bd, bd + 5, 'box edge')).join(''));
  return out.join('\n') + '\n';
}

/** Write a file atomically (runtime/files.ts). */
export { writeFileAtomic } from '../files.ts';
