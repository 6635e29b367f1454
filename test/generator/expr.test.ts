// The spec expression language: parsing, whitelisting, evaluation and emission.
import { describe, it, expect } from 'vitest';
import { parseExpr, evalExpr, emitExpr, exprVars, exprFns, ExprError, type Expr } from '../../generator/expr.ts';

const arith = (text: string, vars: readonly string[] = []): Expr => parseExpr(text, 'arith', vars);
const num = (text: string, env: Record<string, number> = {}): number =>
  evalExpr(arith(text, Object.keys(env)), env) as number;

// Same provider for evalExpr and for the kf_erf/kf_erfc the emitted code calls.
const special = {
  erfc: (x: number): number => {
    // Numerical Recipes erfc (fractional error < 1.2e-7): independent of the generator's A&S version.
    const z = Math.abs(x);
    const t = 1 / (1 + 0.5 * z);
    const y = t * Math.exp(-z * z - 1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806 +
      t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))));
    return x >= 0 ? y : 2 - y;
  },
  erf: (x: number): number => 1 - special.erfc(x),
};

/** Evaluate an emitted TypeScript expression, each variable bound to a same-named parameter. */
function runTs(code: string, env: Record<string, number>): number {
  const names = Object.keys(env);
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- tests only
  const f = new Function(...names, 'kf_erf', 'kf_erfc', `return ${code};`) as (...a: unknown[]) => number;
  return f(...names.map((n) => env[n]), special.erf, special.erfc);
}

/** The WGSL arithmetic subset is also JavaScript once its built-ins are bound to parameters. */
function runWgsl(code: string, env: Record<string, number>): number {
  const names = Object.keys(env);
  const builtins = { sqrt: Math.sqrt, exp: Math.exp, log: Math.log, abs: Math.abs, min: Math.min, max: Math.max, pow: Math.pow, kf_erf: special.erf, kf_erfc: special.erfc };
  const f = new Function(...names, ...Object.keys(builtins), `return ${code};`) as (...a: unknown[]) => number;
  return f(...names.map((n) => env[n]), ...Object.values(builtins));
}

const identity = (vars: string[]): Record<string, string> => Object.fromEntries(vars.map((v) => [v, v]));

describe('arith: parse + evalExpr', () => {
  it('follows operator precedence: ^ over * / over + -', () => {
    expect(num('2+3*4^2')).toBe(50);
    expect(num('(2+3)*4^2')).toBe(80);
    expect(num('2*3^2')).toBe(18);
    expect(num('12/4/3')).toBe(1); // left-associative division
    expect(num('10-4-3')).toBe(3); // left-associative subtraction
  });

  it('makes power right-associative', () => {
    expect(num('2^3^2')).toBe(512);
    expect(num('(2^3)^2')).toBe(64);
  });

  it('handles unary minus and plus', () => {
    expect(num('-3 + 5')).toBe(2);
    expect(num('2 * -3')).toBe(-6);
    expect(num('-(2 + 3)')).toBe(-5);
    expect(num('- -2')).toBe(2);
    expect(num('+4 - +1')).toBe(3);
    expect(num('2^-1')).toBe(0.5);
    expect(num('-x', { x: 7 })).toBe(-7);
  });

  // jsep binds prefix minus tighter than ^, so -x^2 would silently be (-x)^2; in maths it is
  // -(x^2). The parser refuses the ambiguity instead of guessing.
  it('refuses the ambiguous -x^2 and accepts -(x^2)', () => {
    expect(() => parseExpr('-x^2', 'arith', ['x'])).toThrow(/ambiguous/);
    expect(num('-(x^2)', { x: 3 })).toBe(-9);
  });

  it('evaluates the math functions', () => {
    expect(num('sqrt(16)')).toBe(4);
    expect(num('exp(0)')).toBe(1);
    expect(num('exp(1)')).toBeCloseTo(Math.E, 15);
    expect(num('log(exp(2.5))')).toBeCloseTo(2.5, 14);
    expect(num('min(3, -2)')).toBe(-2);
    expect(num('max(3, -2)')).toBe(3);
    expect(num('abs(-4.5)')).toBe(4.5);
    expect(num('max(min(x, 1), 0)', { x: 1.7 })).toBe(1);
    expect(evalExpr(arith('erfc(x)', ['x']), { x: 0.5 }, special)).toBeCloseTo(0.4795001221869535, 6);
  });

  it('asks for a special-function provider for erf/erfc', () => {
    expect(() => evalExpr(arith('erf(x)', ['x']), { x: 1 })).toThrow(ExprError);
    expect(() => evalExpr(arith('erf(x)', ['x']), { x: 1 })).toThrow(/erf needs a special-function provider/);
  });

  it('evaluates a Buckingham-like potential against a hand-computed value', () => {
    const vars = ['r', 'rinv', 'c6', 'A', 'B'];
    const e = arith('A*exp(-B*r) - c6*rinv^6', vars);
    const r = 0.3;
    const env = { r, rinv: 1 / r, c6: 0.0025, A: 2.0e5, B: 35.0 };
    // 2e5 * e^-10.5 = 2e5 * 2.753645e-5 = 5.507290; 0.0025 / 0.3^6 = 0.0025 / 0.000729 = 3.429355
    const expected = 2.0e5 * Math.exp(-10.5) - 0.0025 / 0.000729;
    expect(expected).toBeCloseTo(5.507290 - 3.429355, 5);
    expect(evalExpr(e, env)).toBeCloseTo(expected, 12);
  });

  it('reports a variable without a value at evaluation', () => {
    expect(() => evalExpr(arith('r + 1', ['r']), {})).toThrow(/no value for "r"/);
  });

  it('lists the variables and functions an expression uses', () => {
    const e = arith('A*exp(-B*r) - c6*rinv^6 + max(qq, 0)', ['r', 'rinv', 'c6', 'qq', 'A', 'B', 'r2']);
    expect([...exprVars(e)].sort()).toEqual(['A', 'B', 'c6', 'qq', 'r', 'rinv']);
    expect([...exprFns(e)].sort()).toEqual(['exp', 'max']);
    expect([...exprFns(arith('sqrt(exp(r))', ['r']))].sort()).toEqual(['exp', 'sqrt']);
  });
});

describe('emitExpr', () => {
  const cases: { text: string; vars: string[]; envs: Record<string, number>[] }[] = [
    { text: '2+3*x^2', vars: ['x'], envs: [{ x: 0 }, { x: 1.5 }, { x: -2 }] },
    { text: 'x^3 - 2*x^2 + x^5', vars: ['x'], envs: [{ x: -1.7 }, { x: -3 }, { x: 0.25 }, { x: 2 }] },
    { text: 'x^-3 + x^(-2)', vars: ['x'], envs: [{ x: 1.3 }, { x: 4 }] },
    { text: 'x^0 + y^1', vars: ['x', 'y'], envs: [{ x: -5, y: -2 }, { x: 0.1, y: 7 }] },
    { text: 'A*exp(-B*r) - c6*rinv^6 + qq*rinv', vars: ['r', 'rinv', 'qq', 'c6', 'A', 'B'], envs: [
      { r: 0.3, rinv: 1 / 0.3, qq: -0.7, c6: 0.0025, A: 2e5, B: 35 },
      { r: 1.1, rinv: 1 / 1.1, qq: 0.2, c6: 0.001, A: 1e3, B: 3 },
    ] },
    { text: 'sqrt(r2) * min(a, b) / max(a, b) - abs(a - b) + log(r2)', vars: ['r2', 'a', 'b'], envs: [{ r2: 2, a: -1, b: 3 }, { r2: 0.5, a: 4, b: 2 }] },
    { text: 'qq*erfc(beta*r)/r + erf(r)', vars: ['qq', 'beta', 'r'], envs: [{ qq: 1.5, beta: 3.1, r: 0.4 }, { qq: -1, beta: 2, r: -0.3 }] },
    { text: '-x - -y + (0 - x)^2 - (x - y)^3', vars: ['x', 'y'], envs: [{ x: -1.25, y: 0.5 }, { x: 3, y: -4 }] },
    { text: 'x^2.5 + 1e-7*x + 1e21', vars: ['x'], envs: [{ x: 2 }, { x: 0.3 }] },
  ];

  for (const c of cases) {
    it(`ts output of "${c.text}" computes what evalExpr computes`, () => {
      const code = emitExpr(arith(c.text, c.vars), 'ts', identity(c.vars));
      for (const env of c.envs) {
        const want = evalExpr(arith(c.text, c.vars), env, special) as number;
        expect(Number.isFinite(want)).toBe(true);
        const got = runTs(code, env);
        expect(Math.abs(got - want)).toBeLessThanOrEqual(1e-12 * Math.max(1, Math.abs(want)));
      }
    });
  }

  it('ts output of negative bases with integer powers keeps the sign', () => {
    const code = emitExpr(arith('x^3 + x^2', ['x']), 'ts', { x: 'x' });
    expect(runTs(code, { x: -2 })).toBe(-4);
    expect(runTs(emitExpr(arith('x^-3', ['x']), 'ts', { x: 'x' }), { x: -2 })).toBe(-0.125);
  });

  it('ts output uses Math.* and keeps integer-valued literals exact', () => {
    const code = emitExpr(arith('exp(x) + 2^x', ['x']), 'ts', { x: 'x' });
    expect(code).toContain('Math.exp(x)');
    expect(code).toContain('Math.pow(2, x)');
  });

  it('maps variables to target names and folds bound literals', () => {
    const e = arith('A*r + r2', ['r', 'r2', 'A']);
    expect(emitExpr(e, 'ts', { r: 'rr', r2: 'q2', A: '3' })).toBe('((3 * rr) + q2)');
    expect(() => emitExpr(e, 'ts', { r: 'r' })).toThrow(ExprError);
    expect(() => emitExpr(e, 'ts', { r: 'r', A: '3' })).toThrow(/variable "r2" has no binding in ts/);
    expect(() => emitExpr(e, 'wgsl', { r: 'r', r2: 'r2' })).toThrow(/variable "A" has no binding in wgsl/);
  });

  describe('wgsl', () => {
    const NUMBER = /(?<![A-Za-z_0-9.])\d+(?:\.\d*)?(?:e[+-]?\d+)?/g;

    it('turns integer powers into repeated products, never pow()', () => {
      const w = emitExpr(arith('x^3', ['x']), 'wgsl', { x: 'x' });
      expect(w).not.toContain('pow(');
      expect(w).toBe('(x * x * x)');
      const w2 = emitExpr(arith('c6*rinv^6 - c12*rinv^12', ['c6', 'c12', 'rinv']), 'wgsl', identity(['c6', 'c12', 'rinv']));
      expect(w2).not.toContain('pow(');
      expect(w2.match(/rinv/g)).toHaveLength(18);
      // A non-integer power has to stay pow().
      expect(emitExpr(arith('x^2.5', ['x']), 'wgsl', { x: 'x' })).toMatch(/^pow\(x, 2\.50*\)$/);
    });

    it('gives every literal a decimal point', () => {
      const w = emitExpr(arith('2*x + 1 - 35*exp(-B*x) + 1e-7 + 1e21', ['x', 'B']), 'wgsl', identity(['x', 'B']));
      const lits = w.match(NUMBER) ?? [];
      expect(lits.length).toBe(5);
      for (const l of lits) expect(l).toContain('.');
      expect(lits.map(Number)).toEqual([2, 1, 35, 1e-7, 1e21]);
      expect(emitExpr(arith('2'), 'wgsl', {})).toMatch(/^2\.0*$/);
      expect(emitExpr(arith('x^0', ['x']), 'wgsl', { x: 'x' })).toMatch(/^1\.0*$/);
    });

    it('contains no Math. and calls WGSL built-ins', () => {
      const w = emitExpr(arith('sqrt(r2) + exp(r) + min(r, 1) + max(r, 2) + abs(r) + log(r) + r^0.5', ['r', 'r2']), 'wgsl', identity(['r', 'r2']));
      expect(w).not.toContain('Math.');
      for (const f of ['sqrt(', 'exp(', 'min(', 'max(', 'abs(', 'log(', 'pow(']) expect(w).toContain(f);
      expect(emitExpr(arith('erfc(r)', ['r']), 'wgsl', { r: 'r' })).toBe('kf_erfc(r)');
    });

    it('computes what evalExpr computes, including negative bases with integer powers', () => {
      for (const c of cases) {
        const code = emitExpr(arith(c.text, c.vars), 'wgsl', identity(c.vars));
        for (const env of c.envs) {
          const want = evalExpr(arith(c.text, c.vars), env, special) as number;
          // Literals are written with 9 significant digits (enough for f32).
          expect(Math.abs(runWgsl(code, env) - want)).toBeLessThanOrEqual(1e-8 * Math.max(1, Math.abs(want)));
        }
      }
      expect(runWgsl(emitExpr(arith('x^3', ['x']), 'wgsl', { x: 'x' }), { x: -1.5 })).toBe(-3.375);
    });
  });
});

describe('rejections', () => {
  const rejects = (text: string, grammar: 'arith' | 'logic', vars: string[], msg: RegExp): void => {
    let err: unknown;
    try {
      parseExpr(text, grammar, vars);
    } catch (e) {
      err = e;
    }
    expect(err, `"${text}" should be rejected`).toBeInstanceOf(ExprError);
    expect((err as Error).message).toMatch(msg);
  };
  const V = ['r', 'r2'];

  it('unknown variable, listing the known ones', () => rejects('r + q', 'arith', V, /unknown name "q" \(known: r, r2\)/));
  it('unknown functions', () => {
    rejects('foo(r)', 'arith', V, /unknown function "foo"/);
    rejects('eval(r)', 'arith', V, /unknown function "eval"/);
  });
  it('rejects Object.prototype names used as functions', () => {
    for (const fn of ['constructor', 'toString', 'hasOwnProperty', 'valueOf', '__proto__']) {
      expect(() => parseExpr(`${fn}(r)`, 'arith', V)).toThrow(ExprError);
    }
  });
  it('names Object.prototype names as unknown functions', () => {
    rejects('constructor(r)', 'arith', V, /unknown function "constructor"/);
  });
  it('wrong arity', () => {
    rejects('exp(r, r)', 'arith', V, /exp takes 1 argument\(s\), got 2/);
    rejects('min(r)', 'arith', V, /min takes 2 argument\(s\), got 1/);
  });
  it('string and boolean literals in arith', () => {
    rejects('"abc"', 'arith', V, /literal "abc" is not allowed/);
    rejects("r + 'x'", 'arith', V, /literal "x" is not allowed/);
    rejects('true', 'arith', V, /literal true is not allowed/);
  });
  it('member access', () => {
    rejects('r.constructor', 'arith', V, /MemberExpression is not allowed/);
    rejects('r["constructor"]', 'arith', V, /MemberExpression is not allowed/);
  });
  it('bitwise operators', () => {
    rejects('r | 1', 'arith', V, /\|/);
    rejects('r & 1', 'arith', V, /&/);
    rejects('r << 2', 'arith', V, /cannot parse "r << 2"/);
    rejects('r >> 2', 'arith', V, /cannot parse "r >> 2"/);
    rejects('r % 2', 'arith', V, /operator "%" is not allowed/);
  });
  it('comparisons and logic in arith', () => {
    rejects('r < 1', 'arith', V, /operator "<" is not allowed/);
    rejects('r == 1', 'arith', V, /operator "==" is not allowed/);
    rejects('r and r2', 'arith', V, /operator "and" is not allowed/);
    rejects('not r', 'arith', V, /operator "not" is not allowed/);
  });
  it('this, arrays, conditionals, assignment', () => {
    rejects('this', 'arith', V, /ThisExpression is not allowed/);
    rejects('[1, 2]', 'arith', V, /ArrayExpression is not allowed/);
    rejects('r ? 1 : 2', 'arith', V, /ConditionalExpression is not allowed/);
    rejects('r = 1', 'arith', V, /cannot parse "r = 1"/);
  });
  it('function calls in logic', () => {
    rejects('exp(r) == 1', 'logic', V, /function calls are not allowed here/);
    rejects("target() == 'ts'", 'logic', ['target'], /function calls are not allowed here/);
  });
  it('arithmetic in logic', () => rejects('r + 1 == 2', 'logic', V, /operator "\+" is not allowed/));
  it('unparsable text', () => {
    rejects('r +', 'arith', V, /cannot parse "r \+"/);
    rejects('(r', 'arith', V, /cannot parse "\(r": Unclosed \(/);
    rejects('', 'arith', V, /not allowed|cannot parse/);
  });
  it('names the allowed forms of each grammar', () => {
    rejects('foo(r)', 'arith', V, /allowed: numbers, the variables listed.*sqrt, exp, log/);
    rejects('r + 1', 'logic', V, /allowed: axis names compared/);
  });
});

describe('logic grammar', () => {
  const vars = ['target', 'precision', 'workgroup'];
  const logic = (t: string): Expr => parseExpr(t, 'logic', vars);

  it("evaluates target == 'wgsl' and not (precision == 'f64')", () => {
    const e = logic("target == 'wgsl' and not (precision == 'f64')");
    expect(evalExpr(e, { target: 'wgsl', precision: 'f32' })).toBe(true);
    expect(evalExpr(e, { target: 'wgsl', precision: 'f64' })).toBe(false);
    expect(evalExpr(e, { target: 'ts', precision: 'f32' })).toBe(false);
    expect(evalExpr(e, { target: 'ts', precision: 'f64' })).toBe(false);
  });

  it('accepts && || ! as synonyms of and or not', () => {
    const pairs: [string, string][] = [
      ["target == 'wgsl' and not (precision == 'f64')", "target == 'wgsl' && !(precision == 'f64')"],
      ["target == 'ts' or precision == 'f32'", "target == 'ts' || precision == 'f32'"],
      ["not (target == 'ts') and (workgroup >= 64 or precision != 'f32')", "!(target == 'ts') && (workgroup >= 64 || precision != 'f32')"],
    ];
    const envs = [];
    for (const target of ['ts', 'wgsl']) for (const precision of ['f32', 'f64']) for (const workgroup of [32, 128]) envs.push({ target, precision, workgroup });
    for (const [words, symbols] of pairs) {
      const a = logic(words);
      const b = logic(symbols);
      expect(b).toEqual(a);
      for (const env of envs) expect(evalExpr(b, env)).toBe(evalExpr(a, env));
    }
    expect(envs.filter((env) => evalExpr(logic("target == 'ts' || precision == 'f32'"), env)).length).toBe(6);
  });

  it('compares numbers and strings', () => {
    expect(evalExpr(logic('workgroup > 32 and workgroup <= 128'), { workgroup: 64 })).toBe(true);
    expect(evalExpr(logic('workgroup > 32 and workgroup <= 128'), { workgroup: 32 })).toBe(false);
    expect(evalExpr(logic("'wgsl' != target"), { target: 'ts' })).toBe(true);
  });

  it('binds and tighter than or', () => {
    const e = logic("target == 'ts' or target == 'wgsl' and precision == 'f64'");
    expect(evalExpr(e, { target: 'ts', precision: 'f32' })).toBe(true);
    expect(evalExpr(e, { target: 'wgsl', precision: 'f32' })).toBe(false);
  });

  it('does not mistake identifiers starting with or/and/not for operators', () => {
    const e = parseExpr("order == 'a' or notation == 'b' or android == 'c'", 'logic', ['order', 'notation', 'android']);
    expect([...exprVars(e)].sort()).toEqual(['android', 'notation', 'order']);
    expect(evalExpr(e, { order: 'x', notation: 'b', android: 'y' })).toBe(true);
  });

  // A guard must protect a reference to a conditional axis that is absent from the variant.
  it('short-circuits and/or', () => {
    const e = parseExpr("target == 'wgsl' and workgroup == 64", 'logic', vars);
    expect(evalExpr(e, { target: 'ts' })).toBe(false);
  });

  // `not` binds tighter than `==` in jsep, so `not target == 'wgsl'` would be (not target) == 'wgsl'.
  it("refuses not target == 'wgsl' and accepts not (target == 'wgsl')", () => {
    expect(() => logic("not target == 'wgsl'")).toThrow(/parenthesized/);
    expect(evalExpr(logic("not (target == 'wgsl')"), { target: 'ts' })).toBe(true);
  });
});
