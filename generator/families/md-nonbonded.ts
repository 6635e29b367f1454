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
    wasm: v.target === 'wasm' ? wasmContext(M, N, String(v.precision), v.simd === 'relaxed', elec.rf || elec.ewald || used.has('qq'), elec.rf && v.output === 'f') : false,
  };
}

/** Bytes per 4-atom cluster of the wasm memory layout (f32): x, y, z, q, sqrt C6, sqrt C12 (4 each); forces fx, fy, fz. f64 doubles both. */
export const WASM_XQ_BYTES = 96;
export const WASM_F_BYTES = 48;
/** Bytes at address 0 of a wasm kernel's memory that the kernel uses as scratch (constants, i-atom splats); the runtime leaves them free. */
export const WASM_SCRATCH_BYTES = 2048;
/** Scratch: splat constants from 0 (16 bytes each), i-atom i's splats at WASM_ISPLAT + 96 i, whether it has LJ parameters (i32) at WASM_IFLAG + 4 i. */
const WASM_ISPLAT = 640;
const WASM_IFLAG = 1408;
/** Bytes per Ewald table point in wasm memory: F, F' , V, V' (precision's reals), so one point is one or two vector loads. */
export const WASM_TAB_POINT = { f32: 16, f64: 32 } as const;
/**
 * exp(y) = 2^n p(f), f = y - n ln 2 in [-ln2/2, ln2/2]: Taylor terms (relative error below 2e-7
 * in f32, 1e-11 in f64: far below the 1.5e-7 of the erfc approximation it serves), ln 2 split
 * (Cephes), the floor of y.
 */
const EXP = {
  f32: { degree: 6, ln2hi: 0.693359375, ln2lo: -2.12194440e-4, min: -87 },
  f64: { degree: 9, ln2hi: 0.693145751953125, ln2lo: 1.42860682030941723212e-6, min: -708 },
} as const;

/**
 * The wasm layout (128-bit SIMD): f32x4 (4 lanes, M x 4) or f64x2 (2 lanes, M x 2 or M x 4: two
 * vectors per j-cluster). Memory is in 4-atom blocks whatever the shape: atom p lies in block
 * p >> 2, lane p & 3, each component 4 reals; an i-cluster is M / 4 blocks (f64 M = 2: half a
 * block), an M x 2 j-cluster half a block. i-atom i's mask lanes of j-vector v are bits i N + v L + l; the pair-once test of
 * lane l compares d with i - (v L + l). fma: a*b+c as relaxed_madd (relaxed SIMD). usesQ: the
 * kernel has electrostatics, so atoms may lack LJ (water H): the j loop is then emitted once per
 * LJ prefix of ljPrefixes() (LJ for i-atoms [0, p) only), and each i-entry runs the shortest
 * one that covers every i-atom with LJ parameters (the clusters hold LJ atoms first where at most
 * half have LJ: runtime/md/clusters.ts, as GROMACS's full / half / no-LJ i-clusters).
 */
function wasmContext(M: number, N: number, precision: string, fma: boolean, usesQ: boolean, rfForceOnly: boolean): Record<string, unknown> {
  const f64 = precision === 'f64';
  const e = f64 ? 8 : 4;
  const L = 16 / e;
  // An f64 i-cluster of 2 is half a 4-atom block (one f64x2 vector per component), as an M x 2 j-cluster.
  const iHalf = f64 && M === 2;
  if ((M % 4 !== 0 && !iHalf) || N % L !== 0 || N > 4) throw new Error(`wasm md-nonbonded kernels need M x ${f64 ? '2 or M x 4' : '4'} clusters with M a multiple of 4${f64 ? ' or 2' : ''} in ${precision} (got ${M}x${N})`);
  const vt = f64 ? 'f64x2' : 'f32x4';
  const st = f64 ? 'f64' : 'f32';
  const it = f64 ? 'i64x2' : 'i32x4';
  const B = 6 * 4 * e;
  const FB = 3 * 4 * e;
  const hex = (x: number): string => `0x${(x >>> 0).toString(16)}`;
  // splat constants, 16 bytes each from address 0: run-time parameters first, then numbers
  const names = ['one', 'minR2', 'rc2', 'twoKrf', 'beta', 'c2bsp', 'shEw', 'tabScale', 'erfcP', 'expMin', 'log2e', 'ln2hi', 'ln2lo'];
  const ex = EXP[f64 ? 'f64' : 'f32'];
  const numbers: Record<string, number> = {
    one: 1, minR2: 3.82e-7, erfcP: ERFC_AS.p, expMin: ex.min, log2e: Math.LOG2E, ln2hi: ex.ln2hi, ln2lo: ex.ln2lo,
  };
  const erfcA = [ERFC_AS.a5, ERFC_AS.a4, ERFC_AS.a3, ERFC_AS.a2, ERFC_AS.a1];
  erfcA.forEach((a, k) => { names.push(`a${5 - k}`); numbers[`a${5 - k}`] = a; });
  let fact = 1;
  const expC: number[] = [];
  for (let k = 0; k <= ex.degree; k++) {
    if (k > 0) fact *= k;
    expC.push(1 / fact);
  }
  for (let k = ex.degree; k >= 0; k--) { names.push(`e${k}`); numbers[`e${k}`] = expC[k]!; }
  const c: Record<string, number> = {};
  names.forEach((n, k) => (c[n] = 16 * k));
  if (16 * names.length > WASM_ISPLAT) throw new Error('wasm md-nonbonded: too many scratch constants');
  const lit = (x: number): string => {
    const s = String(f64 ? x : Math.fround(x));
    return s;
  };
  const consts = Object.entries(numbers).map(([n, x]) => ({ off: c[n], val: Array.from({ length: L }, () => lit(x)).join(' ') }));
  // Horner chains as sequential steps p = p * x + c_k (descending), starting from the top coefficient
  const steps = (prefix: string, top: number) => Array.from({ length: top }, (_, k) => ({ off: c[`${prefix}${top - 1 - k}`] }));
  const jv = Array.from({ length: N / L }, (_, v) => ({ v, s: v === 0 ? '' : String(v), ox: 16 * v, oy: 16 * v + 4 * e, oz: 16 * v + 8 * e, oq: 16 * v + 12 * e, oc6: 16 * v + 16 * e, oc12: 16 * v + 20 * e }));
  const iList = Array.from({ length: M }, (_, i) => {
    const o = (i >> 2) * B + (i & 3) * e;
    const sp = WASM_ISPLAT + 96 * i;
    return { i, i1: i + 1, x: o, y: o + 4 * e, z: o + 8 * e, q: o + 12 * e, c6: o + 16 * e, c12: o + 20 * e, sx: sp, sy: sp + 16, sz: sp + 32, sq: sp + 48, sc6: sp + 64, sc12: sp + 80, flag: WASM_IFLAG + 4 * i };
  });
  const common = { vt, st, it, fma, f64 };
  const pairs: Record<string, unknown>[] = [];
  for (const a of iList) {
    for (const j of jv) {
      const lanes = Array.from({ length: L }, (_, l) => j.v * L + l);
      pairs.push({ ...a, ...common, c, s: j.s, lanes: lanes.join(', '), bits: lanes.map((jj) => hex(2 ** (a.i * N + jj))).join(' '), diag: lanes.map((jj) => a.i - jj).join(' ') });
    }
  }
  const prefixes = usesQ ? ljPrefixes(M, N) : [M];
  const ljLoops = prefixes.map((p, k) => {
    // the loop of every i-atom still skips LJ per i-atom (clusters not ordered LJ first: M > N)
    const ljBranch = usesQ && p === M && M > N;
    return {
      p,
      first: k === 0,
      last: k === prefixes.length - 1,
      what: p === M ? 'every i-atom has LJ' : p === 0 ? 'no i-atom has LJ' : `LJ for i-atoms 0..${p - 1} only`,
      pairs: pairs.map((x) => {
        const lj = (x.i as number) < p;
        // Force-only RF for an i-atom without LJ: 1/r^3 as sqrt(r^2) (qq/r^4), no 1/r^2 or 1/r of its own (pair.hbs)
        return { ...x, lj, ljBranch, rf3: rfForceOnly && !lj && !ljBranch };
      }),
    };
  });
  // i-force reduction: L i-atoms' vectors into one vector (lane k = atom k of the group)
  const groups = Array.from({ length: M / L }, (_, g) => {
    const i0 = L * g;
    const o = (i0 >> 2) * FB + (i0 & 3) * e;
    return { ...common, g, ia: i0, ib: i0 + 1, ic: i0 + 2, id: i0 + 3, fx: o, fy: o + 4 * e, fz: o + 8 * e };
  });
  // gather of L table points: byte shuffles that transpose them (f32: 4 points of F F' V V')
  const sh32 = (lanes: number[]): string => lanes.flatMap((l) => [0, 1, 2, 3].map((b) => 4 * l + b)).join(' ');
  const sh64 = (lanes: number[]): string => lanes.flatMap((l) => [0, 1, 2, 3, 4, 5, 6, 7].map((b) => 8 * l + b)).join(' ');
  return {
    ...common,
    e,
    L,
    c,
    consts,
    expSteps: steps('e', ex.degree),
    expTop: c[`e${ex.degree}`],
    erfcSteps: [4, 3, 2, 1].map((k) => ({ off: c[`a${k}`] })),
    erfcTop: c.a5,
    loadSplat: f64 ? 'v128.load64_splat' : 'v128.load32_splat',
    iStride: (M / 4) * B,
    fiStride: (M / 4) * FB,
    /** A 2-atom (f64) i-cluster is half a 4-atom block. */
    iHalf,
    xqBytes: B,
    fBytes: FB,
    /** An M x 2 j-cluster (f64) is half a 4-atom block. */
    jHalf: N * e === 16 && N < 4,
    tabShift: f64 ? 5 : 4,
    shuf: {
      lo: sh32([0, 4, 1, 5]), hi: sh32([2, 6, 3, 7]), first: sh32([0, 1, 4, 5]), second: sh32([2, 3, 6, 7]),
      d0: sh64([0, 2]), d1: sh64([1, 3]),
    },
    /** The mask word of a j-entry whose M x N pairs all interact. */
    fullMask: hex(2 ** (M * N) - 1),
    jv,
    iList,
    ljLoops,
    /** Closes the if/else chain over the LJ prefixes. */
    ljClose: ') )'.repeat(prefixes.length - 1),
    groups,
  };
}

/**
 * LJ prefixes of the j loops (ascending). Where M <= N the clusters hold LJ atoms first (runtime/md/clusters.ts):
 * none, 1, 2, ... M/2 and all i-atoms (water 4x4: 1 or 2 oxygens first; 1, 2, 4 measured 3% faster than 2, 4).
 * Otherwise (no LJ-first order) one loop, with a branch per i-atom: a loop without LJ alone would serve few
 * i-entries (water 8x4: 2%) for a quarter more code.
 */
function ljPrefixes(M: number, N: number): number[] {
  if (M > N) return [M];
  const out = [0];
  for (let p = 1; p < M; p *= 2) out.push(p);
  return [...out, M];
}

export const mdNonbonded: FamilyModule = { family: 'md-nonbonded', validate, context };
