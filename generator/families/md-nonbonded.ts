// Render context of the md-nonbonded family (seed 001): cluster shape, interaction,
// combination rule, output level, mask/branch handling, and the pair list unrolled
// into one entry per (i, j) so templates hold no arithmetic of their own.
import { SpecError, type Spec } from '../spec.ts';
import type { Variant } from '../space.ts';
import { parseExpr, emitExpr, evalExpr, exprVars, exprFns, formatExpr, clipExpr, ExprError, type Expr, type Lang } from '../expr.ts';
import type { FamilyModule } from './types.ts';

const BUILTIN = new Set(['lj', 'lj-rf', 'lj-ewald']);
/** Variables a user-defined potential may use. */
export const POTENTIAL_VARS = ['r', 'r2', 'rinv', 'qq', 'c6', 'c12'] as const;

/** Abramowitz & Stegun 7.1.26: erfc(x) = t (a1 + t (a2 + ...)) exp(-x^2), t = 1/(1 + p x), |error| <= 1.5e-7. */
export const ERFC_AS = { p: 0.3275911, a1: 0.254829592, a2: -0.284496736, a3: 1.421413741, a4: -1.453152027, a5: 1.061405429 };

/** A user-defined pair potential of the md-nonbonded spec (`potentials:`), parsed and whitelisted. */
export interface Potential {
  /** Its name, also a value of the interaction axis. */
  name: string;
  /** Its constants by name; none may shadow a built-in variable (r, r2, rinv, qq, c6, c12). */
  params: Record<string, number>;
  /** V(r) in kJ/mol, over the built-in variables and the params. */
  energy: Expr;
  /** -dV/dr in kJ/mol/nm (positive: repulsive). */
  force: Expr;
}

/** User-defined potentials of a spec, parsed and whitelisted. */
export function potentials(spec: Spec): Map<string, Potential> {
  const raw = (spec.raw.potentials ?? {}) as Record<string, { params?: Record<string, number>; energy: string; force: string }>;
  const out = new Map<string, Potential>();
  for (const [name, p] of Object.entries(raw)) {
    const params = p.params ?? {};
    for (const k of Object.keys(params)) {
      if ((POTENTIAL_VARS as readonly string[]).includes(k)) {
        throw new SpecError(spec.file, spec.where(['potentials', name, 'params', k]), `potentials.${name}.params.${k}`, `"${k}" is a built-in variable and cannot be a parameter`);
      }
    }
    for (const [k, v] of Object.entries(params)) {
      if (!Number.isFinite(v)) throw new SpecError(spec.file, spec.where(['potentials', name, 'params', k]), `potentials.${name}.params.${k}`, `${v} is not a finite number; allowed: a finite number`);
    }
    const vars = [...POTENTIAL_VARS, ...Object.keys(params)];
    const parse = (field: 'energy' | 'force'): Expr => {
      try {
        return parseExpr(p[field], 'arith', vars);
      } catch (e) {
        if (!(e instanceof ExprError)) throw e;
        throw new SpecError(spec.file, spec.where(['potentials', name, field]), `potentials.${name}.${field}`, e.message);
      }
    };
    const pot = { name, params, energy: parse('energy'), force: parse('force') };
    for (const field of ['energy', 'force'] as const) {
      const problem = notFinite(pot[field], params);
      if (problem) throw new SpecError(spec.file, spec.where(['potentials', name, field]), `potentials.${name}.${field}`, problem);
    }
    out.set(name, pot);
  }
  return out;
}

/** erf and erfc (Abramowitz & Stegun 7.1.26) for evaluating potentials here. */
const SPECIAL = (() => {
  const erfc = (x: number): number => {
    const a = Math.abs(x);
    const t = 1 / (1 + ERFC_AS.p * a);
    const y = t * (ERFC_AS.a1 + t * (ERFC_AS.a2 + t * (ERFC_AS.a3 + t * (ERFC_AS.a4 + t * ERFC_AS.a5)))) * Math.exp(-a * a);
    return x >= 0 ? y : 2 - y;
  };
  return { erfc, erf: (x: number) => 1 - erfc(x) };
})();

/** Pair distances (nm) at which every user potential must give a number, and the pair constants used there (SPC/E O-O). */
export const POTENTIAL_SAMPLES = { r: [0.3, 0.6, 0.9], qq: 1, c6: 0.0026173456, c12: 2.634129e-6 } as const;

/**
 * Why a potential's expression cannot be right, or undefined: a constant part (no pair variable;
 * the params are constants) that is not a finite number (1/0, 0/0, log(0), exp(1000)), or a value
 * that is NaN at a sample distance, or infinite at every one (POTENTIAL_SAMPLES).
 */
export function notFinite(e: Expr, params: Record<string, number>): string | undefined {
  const pairVars = new Set<string>(POTENTIAL_VARS);
  // the smallest constant part that is not finite, found bottom-up
  const walk = (x: Expr): { constant: boolean; bad?: string } => {
    const kids = x.kind === 'unary' ? [x.arg] : x.kind === 'binary' ? [x.left, x.right] : x.kind === 'call' ? x.args : [];
    let constant = !(x.kind === 'var' && pairVars.has(x.name));
    for (const k of kids) {
      const r = walk(k);
      if (r.bad) return r;
      constant &&= r.constant;
    }
    if (!constant) return { constant };
    const v = evalExpr(x, params, SPECIAL) as number;
    return Number.isFinite(v) ? { constant } : { constant, bad: `its constant part "${clipExpr(formatExpr(x))}" is ${v}; allowed: constant parts that are finite numbers` };
  };
  const bad = walk(e).bad;
  if (bad) return bad;
  const S = POTENTIAL_SAMPLES;
  const values = S.r.map((r) => evalExpr(e, { ...params, r, r2: r * r, rinv: 1 / r, qq: S.qq, c6: S.c6, c12: S.c12 }, SPECIAL) as number);
  const at = (i: number) => `r = ${S.r[i]} nm (qq ${S.qq}, c6 ${S.c6}, c12 ${S.c12})`;
  const nan = values.findIndex((v) => Number.isNaN(v));
  if (nan >= 0) return `is NaN at ${at(nan)}; allowed: an expression with a finite value at every pair distance within the cut-off`;
  if (values.every((v) => !Number.isFinite(v))) return `is ${values[0]} at every sample distance (${S.r.join(', ')} nm); allowed: an expression with a finite value at every pair distance within the cut-off`;
  return undefined;
}

function validate(spec: Spec): void {
  const pots = potentials(spec);
  const inter = spec.axes.find((a) => a.name === 'interaction');
  if (!inter) throw new SpecError(spec.file, spec.where(['axes']), 'axes', 'md-nonbonded needs an "interaction" axis');
  inter.values.forEach((v, i) => {
    if (!BUILTIN.has(String(v)) && !pots.has(String(v))) {
      throw new SpecError(spec.file, spec.where(['axes', 'interaction', 'values', i]), `axes.interaction.values.${i}`,
        `"${v}" is neither built in (${[...BUILTIN].join(', ')}) nor defined under potentials (${[...pots.keys()].join(', ') || 'none'})`);
    }
  });
  for (const a of ['target', 'ljComb', 'ljShift', 'precision', 'output', 'cluster', 'excl', 'cutoff']) {
    if (!spec.axes.some((x) => x.name === a)) throw new SpecError(spec.file, spec.where(['axes']), 'axes', `md-nonbonded needs an axis "${a}"`);
  }
  const cl = spec.axes.find((a) => a.name === 'cluster')!;
  cl.values.forEach((v, i) => {
    const m = /^([1248])x([1248])$/.exec(String(v));
    if (!m || Number(m[1]) * Number(m[2]) > 64) {
      throw new SpecError(spec.file, spec.where(['axes', 'cluster', 'values', i]), `axes.cluster.values.${i}`, `"${v}" is not a cluster shape; allowed: MxN with M, N in 1, 2, 4, 8`);
    }
  });
}

/** Names the emitted expression of a user potential uses for its variables, per language. */
function potentialNames(p: Potential, lang: Lang): Record<string, string> {
  const num = (x: number): string => (lang === 'ts' ? String(x) : emitExpr({ kind: 'num', value: x }, 'wgsl', {}));
  // The WGSL template calls the pair distance `rr`.
  const names: Record<string, string> = { r: lang === 'wgsl' ? 'rr' : 'r', r2: 'r2', rinv: 'rinvr', qq: 'qq', c6: 'c6', c12: 'c12' };
  for (const [k, v] of Object.entries(p.params)) names[k] = num(v); // parameters are constant-folded
  return names;
}

function context(spec: Spec, v: Variant): Record<string, unknown> {
  const lang = v.target as Lang;
  const [M, N] = String(v.cluster).split('x').map(Number) as [number, number];
  const interaction = String(v.interaction);
  const pot = potentials(spec).get(interaction);
  const elec = { rf: interaction === 'lj-rf', ewald: interaction === 'lj-ewald', tab: v.ewald === 'tabulated' };
  const used = pot ? new Set([...exprVars(pot.energy), ...exprVars(pot.force), ...exprFns(pot.energy), ...exprFns(pot.force)]) : new Set<string>();
  const maskWords = Math.ceil((M * N) / 32);
  const pairs = [];
  for (let i = 0; i < M; i++) {
    for (let j = 0; j < N; j++) pairs.push({ i, j, word: (i * N + j) >> 5, bit: (i * N + j) & 31, diagK: i - j });
  }
  return {
    M,
    N,
    lang,
    precision: v.precision,
    arr: v.precision === 'f64' ? 'Float64Array' : 'Float32Array',
    minR2: '3.82e-07',
    comb: { geom: v.ljComb === 'geom', lb: v.ljComb === 'lb', table: v.ljComb === 'table' },
    lj: !pot,
    // Plain LJ needs only even powers of 1/r: 1/r^2 by one division, no square root (as LAMMPS).
    ljOnly: !pot && !elec.rf && !elec.ewald,
    shift: v.ljShift === 'shift',
    elec,
    elecCorr: elec.rf || elec.ewald,
    custom: pot
      ? {
          energy: emitExpr(pot.energy, lang, potentialNames(pot, lang)),
          energyRc: emitExpr(pot.energy, lang, { ...potentialNames(pot, lang), r: 'rcut', r2: lang === 'wgsl' ? 'P.rc2' : 'rc2', rinv: 'rcinv' }),
          force: emitExpr(pot.force, lang, potentialNames(pot, lang)),
        }
      : false,
    needsErf: used.has('erf') || used.has('erfc'),
    usesQ: elec.rf || elec.ewald || used.has('qq'),
    usesC: !pot || used.has('c6') || used.has('c12'),
    energies: v.output !== 'f',
    virial: v.output === 'fev',
    // Full neighbour list (the `list` axis, TS 1x1): forces on i only, energies and shift forces halved.
    fullList: v.list === 'full',
    cutBranch: v.cutoff === 'branch',
    exclBranch: v.excl === 'branch',
    maskWords,
    // A separate unmasked path per j-entry doubles the unrolled body: worth it up to 16 pairs;
    // beyond that V8 optimizes the larger function worse (measured 4x8: 29.7 -> 51.9 ms).
    splitPath: M * N <= 16,
    maskWordList: Array.from({ length: maskWords }, (_, w) => ({ w, full: w < maskWords - 1 || (M * N) % 32 === 0 ? 4294967295 : 2 ** ((M * N) % 32) - 1 })),
    iList: Array.from({ length: M }, (_, i) => ({ i })),
    jList: Array.from({ length: N }, (_, j) => ({ j })),
    pairs,
    erfc: lang === 'wgsl' ? Object.fromEntries(Object.entries(ERFC_AS).map(([k, x]) => [k, emitExpr({ kind: 'num', value: x }, 'wgsl', {})])) : ERFC_AS,
    pairScheme: v.scheme === 'pair',
    pairsPerCluster: M * N,
    groups: v.scheme === 'pair' ? Number(v.workgroup) / (M * N) : 0,
    // The pair scheme renders the pair partial once, for this invocation's own (ii, jj).
    pairVars: { i: '', j: '', diagK: 'dk', fast: false },
    workgroup: v.workgroup ?? 0,
    jsplit: v.jsplit ?? 1,
    wasm: v.target === 'wasm' ? wasmContext(M, N) : false,
  };
}

/** Bytes per 4-atom cluster of the wasm memory layout: x, y, z, q, sqrt C6, sqrt C12 (4 f32 each); forces fx, fy, fz. */
export const WASM_XQ_BYTES = 96;
export const WASM_F_BYTES = 48;

/**
 * The wasm (M x 4, f32x4) layout: i-atom i of a cluster lies in 4-atom block i >> 2, lane i & 3;
 * its mask lanes are bits 4i..4i+3; the RF pair-once test of lane j compares d with i - j.
 */
function wasmContext(M: number, N: number): Record<string, unknown> {
  if (N !== 4 || M % 4 !== 0) throw new Error(`wasm md-nonbonded kernels need M x 4 clusters with M a multiple of 4 (got ${M}x${N})`);
  const hex = (x: number): string => `0x${(x >>> 0).toString(16)}`;
  return {
    iStride: (M / 4) * WASM_XQ_BYTES,
    fiStride: (M / 4) * WASM_F_BYTES,
    xqBytes: WASM_XQ_BYTES,
    /** The mask word of a j-entry whose M x 4 pairs all interact. */
    fullMask: hex(2 ** (M * N) - 1),
    fBytes: WASM_F_BYTES,
    iList: Array.from({ length: M }, (_, i) => {
      const o = (i >> 2) * WASM_XQ_BYTES + (i & 3) * 4;
      return {
        i,
        x: o,
        y: o + 16,
        z: o + 32,
        q: o + 48,
        c6: o + 64,
        c12: o + 80,
        bits: [0, 1, 2, 3].map((j) => hex(2 ** (i * N + j))).join(' '),
        diag: [0, 1, 2, 3].map((j) => i - j).join(' '),
      };
    }),
    groups: Array.from({ length: M / 4 }, (_, g) => ({ g, ia: 4 * g, ib: 4 * g + 1, ic: 4 * g + 2, id: 4 * g + 3, fx: g * WASM_F_BYTES, fy: g * WASM_F_BYTES + 16, fz: g * WASM_F_BYTES + 32 })),
  };
}

export const mdNonbonded: FamilyModule = { family: 'md-nonbonded', validate, context };
