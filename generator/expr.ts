// The small expression language of specs: rule predicates over axis values and the
// arithmetic of user-defined pair potentials. Text is parsed with jsep into an AST,
// every node is checked against a whitelist, and only then emitted as TypeScript or
// WGSL or evaluated. Nothing from a spec reaches generated code without this walk.
import { KernforgeError } from '../runtime/errors.ts';
import jsep from 'jsep';

jsep.removeBinaryOp('^');
jsep.addBinaryOp('^', 11, true); // power, binds tighter than * and /, right-associative
jsep.removeBinaryOp('|');
jsep.removeBinaryOp('&');
jsep.removeBinaryOp('<<');
jsep.removeBinaryOp('>>');
jsep.removeBinaryOp('>>>');
jsep.addBinaryOp('and', 2);
jsep.addBinaryOp('or', 1);
jsep.addUnaryOp('not');

/** A whitelisted expression tree. */
export type Expr =
  | {
      /** A number literal. */
      kind: 'num';
      /** Its value. */
      value: number;
    }
  | {
      /** A string literal (axis values in rule predicates). */
      kind: 'str';
      /** Its value. */
      value: string;
    }
  | {
      /** A boolean literal. */
      kind: 'bool';
      /** Its value. */
      value: boolean;
    }
  | {
      /** A variable: an axis name in a rule, or a pair variable or parameter in a potential. */
      kind: 'var';
      /** The variable's name. */
      name: string;
    }
  | {
      /** A unary operation. */
      kind: 'unary';
      /** Negation, plus, or logical not. */
      op: '-' | '+' | 'not';
      /** The operand. */
      arg: Expr;
    }
  | {
      /** A binary operation: arithmetic (^ is power), comparison, and or or. */
      kind: 'binary';
      /** The operator. */
      op: BinaryOp;
      /** The left operand. */
      left: Expr;
      /** The right operand. */
      right: Expr;
    }
  | {
      /** A call of one of MATH_FUNCTIONS. */
      kind: 'call';
      /** The function. */
      fn: MathFn;
      /** Its arguments, as many as its arity. */
      args: Expr[];
    };

export type BinaryOp = '+' | '-' | '*' | '/' | '^' | '==' | '!=' | '<' | '<=' | '>' | '>=' | 'and' | 'or';

/** Functions allowed in arithmetic expressions, with their arity. */
export const MATH_FUNCTIONS = { sqrt: 1, exp: 1, log: 1, erfc: 1, erf: 1, abs: 1, min: 2, max: 2 } as const;
export type MathFn = keyof typeof MATH_FUNCTIONS;

const ARITH_OPS = new Set(['+', '-', '*', '/', '^']);
const LOGIC_OPS = new Set(['==', '!=', '<', '<=', '>', '>=', 'and', 'or']);

/** A user error in an expression, with the offending text. */
export class ExprError extends KernforgeError {}

/** The longest expression text accepted (characters): longer ones are refused before parsing. */
export const MAX_EXPR_LENGTH = 2000;
/** The deepest nesting accepted: parentheses (and calls) inside each other, or unary signs in a row. */
export const MAX_EXPR_NESTING = 256;
/**
 * The deepest expression tree accepted (operations inside operations; a chain such as a + b + c
 * counts one level per operator): the emitted code nests as deep, and compilers (TypeScript's
 * checker, WGSL's) recurse on it.
 */
export const MAX_EXPR_DEPTH = 200;
/** The most characters an arithmetic expression may expand to in generated code (integer powers are written out as products). */
export const MAX_EMITTED_LENGTH = 20_000;
/** Expression text longer than this is shortened in error messages. */
const ECHO_CHARS = 60;

/** `text` for an error message: as it is when short, else its start, "..." and its length. */
export function clipExpr(text: string): string {
  const one = text.replace(/\s+/g, ' ');
  return one.length <= ECHO_CHARS + 20 ? one : `${one.slice(0, ECHO_CHARS)}... (${text.length} characters)`;
}

/** Refuse text the parser would recurse too deeply on (jsep recurses per parenthesis and per unary sign). */
function checkSize(text: string): void {
  if (text.length > MAX_EXPR_LENGTH) throw new ExprError(`"${clipExpr(text)}" is ${text.length} characters long; allowed: at most ${MAX_EXPR_LENGTH}`);
  let depth = 0, deepest = 0, signs = 0, mostSigns = 0;
  for (const ch of text) {
    if (ch === '(') deepest = Math.max(deepest, ++depth);
    else if (ch === ')') depth--;
    if (ch === '-' || ch === '+' || ch === '!') mostSigns = Math.max(mostSigns, ++signs);
    else if (!/\s/.test(ch)) signs = 0;
  }
  if (deepest > MAX_EXPR_NESTING) throw new ExprError(`"${clipExpr(text)}" nests parentheses ${deepest} deep; allowed: at most ${MAX_EXPR_NESTING}`);
  if (mostSigns > MAX_EXPR_NESTING) throw new ExprError(`"${clipExpr(text)}" has ${mostSigns} signs in a row; allowed: at most ${MAX_EXPR_NESTING}`);
}

export type Grammar = 'arith' | 'logic';

/**
 * Parse and whitelist an expression. `arith`: numbers, variables, + - * / ^ and the
 * math functions. `logic`: comparisons of variables with string/number literals,
 * and/or/not. `vars` lists the identifiers that may appear. Text longer than MAX_EXPR_LENGTH, or
 * nested deeper than MAX_EXPR_NESTING, is refused before parsing; a tree deeper than
 * MAX_EXPR_DEPTH, or arithmetic that would expand beyond MAX_EMITTED_LENGTH characters of code,
 * after. Messages quote at most the start of the text (clipExpr).
 */
export function parseExpr(text: string, grammar: Grammar, vars: readonly string[]): Expr {
  checkSize(text);
  let ast: jsep.Expression;
  try {
    ast = jsep(text);
  } catch (e) {
    throw new ExprError(`cannot parse "${clipExpr(text)}": ${(e as Error).message}`);
  }
  const e = convert(ast, text, grammar, new Set(vars));
  const depth = exprDepth(e);
  if (depth > MAX_EXPR_DEPTH) throw new ExprError(`"${clipExpr(text)}" nests ${depth} operations deep (a chain such as a + b + c counts one level per operator); allowed: at most ${MAX_EXPR_DEPTH}`);
  if (grammar === 'arith') {
    const size = emittedLength(e);
    if (size > MAX_EMITTED_LENGTH) throw new ExprError(`"${clipExpr(text)}" expands to about ${size.toExponential(1).replace('e+', 'e')} characters of code (integer powers are written out as products); allowed: at most ${MAX_EMITTED_LENGTH}`);
  }
  return e;
}

/** Levels of operations in an expression tree (a number or a name: 1). */
export function exprDepth(e: Expr): number {
  if (e.kind === 'unary') return 1 + exprDepth(e.arg);
  if (e.kind === 'binary') return 1 + Math.max(exprDepth(e.left), exprDepth(e.right));
  if (e.kind === 'call') return 1 + Math.max(0, ...e.args.map(exprDepth));
  return 1;
}

/** About how many characters emitExpr writes for an arithmetic expression (computed without writing it). */
export function emittedLength(e: Expr): number {
  switch (e.kind) {
    case 'num': return String(e.value).length + 2;
    case 'str': case 'bool': return String(e.value).length;
    case 'var': return e.name.length + 4;
    case 'unary': return 3 + emittedLength(e.arg);
    case 'binary': {
      const b = emittedLength(e.left);
      const r = e.right;
      // emitExpr writes x^n for an integer |n| <= 16 as n copies of x
      if (e.op === '^' && r.kind === 'num' && Number.isInteger(r.value) && Math.abs(r.value) <= 16) return Math.max(1, Math.abs(r.value)) * (b + 3) + 8;
      return b + emittedLength(r) + 12;
    }
    case 'call': return e.fn.length + 8 + e.args.reduce((t, a) => t + emittedLength(a) + 2, 0);
  }
}

function fail(text: string, what: string, grammar: Grammar): never {
  const allowed =
    grammar === 'arith'
      ? `numbers, the variables listed, + - * / ^ (power), parentheses and ${Object.keys(MATH_FUNCTIONS).join(', ')}`
      : `axis names compared (== != < <= > >=) with 'quoted' values or numbers, combined with and / or / not`;
  throw new ExprError(`in "${clipExpr(text)}": ${what}; allowed: ${allowed}`);
}

function convert(n: jsep.Expression, text: string, g: Grammar, vars: Set<string>): Expr {
  switch (n.type) {
    case 'Literal': {
      const v = (n as jsep.Literal).value;
      if (typeof v === 'number' && Number.isFinite(v)) return { kind: 'num', value: v };
      if (typeof v === 'string' && g === 'logic') return { kind: 'str', value: v };
      if (typeof v === 'boolean' && g === 'logic') return { kind: 'bool', value: v };
      return fail(text, `literal ${clipExpr(JSON.stringify(v) ?? String(v))} is not allowed`, g);
    }
    case 'Identifier': {
      const name = (n as jsep.Identifier).name;
      if (!vars.has(name)) fail(text, `unknown name "${clipExpr(name)}" (known: ${[...vars].join(', ') || 'none'})`, g);
      return { kind: 'var', name };
    }
    case 'UnaryExpression': {
      const u = n as jsep.UnaryExpression;
      const ok = g === 'arith' ? u.operator === '-' || u.operator === '+' : u.operator === 'not' || u.operator === '!';
      if (!ok) fail(text, `operator "${u.operator}" is not allowed`, g);
      const op = u.operator === '!' ? 'not' : (u.operator as '-' | '+' | 'not');
      const arg = convert(u.argument, text, g, vars);
      // `not a == 'x'` parses as `(not a) == 'x'`: demand parentheses instead of guessing.
      if (op === 'not' && (arg.kind === 'var' || arg.kind === 'str' || arg.kind === 'num')) {
        fail(text, '"not" must be followed by a parenthesized condition, e.g. not (target == \'wgsl\')', g);
      }
      return { kind: 'unary', op, arg };
    }
    case 'BinaryExpression': {
      const b = n as jsep.BinaryExpression;
      const op = b.operator === '&&' ? 'and' : b.operator === '||' ? 'or' : b.operator === '===' ? '==' : b.operator;
      const allowed = g === 'arith' ? ARITH_OPS : LOGIC_OPS;
      if (!allowed.has(op)) fail(text, `operator "${b.operator}" is not allowed`, g);
      // jsep binds unary minus tighter than ^, so -x^2 would mean (-x)^2: refuse the ambiguity.
      if (op === '^' && b.left.type === 'UnaryExpression') {
        fail(text, 'a signed base of ^ is ambiguous: write -(x^2) or ((-x)*(-x))', g);
      }
      return {
        kind: 'binary',
        op: op as BinaryOp,
        left: convert(b.left, text, g, vars),
        right: convert(b.right, text, g, vars),
      };
    }
    case 'CallExpression': {
      const c = n as jsep.CallExpression;
      if (g !== 'arith' || c.callee.type !== 'Identifier') fail(text, 'function calls are not allowed here', g);
      const fn = (c.callee as jsep.Identifier).name;
      if (!Object.hasOwn(MATH_FUNCTIONS, fn)) fail(text, `unknown function "${clipExpr(fn)}"`, g);
      const arity = MATH_FUNCTIONS[fn as MathFn];
      if (c.arguments.length !== arity) fail(text, `${fn} takes ${arity} argument(s), got ${c.arguments.length}`, g);
      return { kind: 'call', fn: fn as MathFn, args: c.arguments.map((a) => convert(a, text, g, vars)) };
    }
    default:
      return fail(text, `${n.type} is not allowed`, g);
  }
}

/** Names of variables an expression uses. */
export function exprVars(e: Expr, out = new Set<string>()): Set<string> {
  if (e.kind === 'var') out.add(e.name);
  else if (e.kind === 'unary') exprVars(e.arg, out);
  else if (e.kind === 'binary') (exprVars(e.left, out), exprVars(e.right, out));
  else if (e.kind === 'call') e.args.forEach((a) => exprVars(a, out));
  return out;
}

/** Names of functions an expression calls. */
export function exprFns(e: Expr, out = new Set<string>()): Set<string> {
  if (e.kind === 'call') out.add(e.fn);
  if (e.kind === 'unary') exprFns(e.arg, out);
  else if (e.kind === 'binary') (exprFns(e.left, out), exprFns(e.right, out));
  else if (e.kind === 'call') e.args.forEach((a) => exprFns(a, out));
  return out;
}

export type Value = number | string | boolean;

/** Evaluate an expression; `erf`/`erfc` come from the caller so this module stays dependency-light. */
export function evalExpr(e: Expr, env: Record<string, Value>, special?: { erf(x: number): number; erfc(x: number): number }): Value {
  switch (e.kind) {
    case 'num':
    case 'str':
    case 'bool':
      return e.value;
    case 'var': {
      if (!(e.name in env)) throw new ExprError(`no value for "${e.name}"`);
      return env[e.name]!;
    }
    case 'unary': {
      const a = evalExpr(e.arg, env, special);
      return e.op === 'not' ? !a : e.op === '-' ? -(a as number) : +(a as number);
    }
    case 'binary': {
      const l = evalExpr(e.left, env, special);
      if (e.op === 'and') return Boolean(l) && Boolean(evalExpr(e.right, env, special));
      if (e.op === 'or') return Boolean(l) || Boolean(evalExpr(e.right, env, special));
      const r = evalExpr(e.right, env, special);
      switch (e.op) {
        case '+': return (l as number) + (r as number);
        case '-': return (l as number) - (r as number);
        case '*': return (l as number) * (r as number);
        case '/': return (l as number) / (r as number);
        case '^': return Math.pow(l as number, r as number);
        // Axis values may be written 64 or '64': compare as text, as the spec checks do.
        case '==': return String(l) === String(r);
        case '!=': return String(l) !== String(r);
        case '<': return l < r;
        case '<=': return l <= r;
        case '>': return l > r;
        case '>=': return l >= r;
      }
    }
    // falls through: unreachable, every op returns
    case 'call': {
      const a = e.args.map((x) => evalExpr(x, env, special) as number);
      switch (e.fn) {
        case 'sqrt': return Math.sqrt(a[0]!);
        case 'exp': return Math.exp(a[0]!);
        case 'log': return Math.log(a[0]!);
        case 'abs': return Math.abs(a[0]!);
        case 'min': return Math.min(a[0]!, a[1]!);
        case 'max': return Math.max(a[0]!, a[1]!);
        case 'erf':
        case 'erfc':
          if (!special) throw new ExprError(`${e.fn} needs a special-function provider`);
          return special[e.fn](a[0]!);
      }
    }
  }
}

/** An expression as text for messages: `(a op b)`, `-x`, `f(x, y)`, numbers and names as they are. */
export function formatExpr(e: Expr): string {
  switch (e.kind) {
    case 'num': return String(e.value);
    case 'str': return `'${e.value}'`;
    case 'bool': return String(e.value);
    case 'var': return e.name;
    case 'unary': return e.op === 'not' ? `not ${formatExpr(e.arg)}` : `${e.op}${formatExpr(e.arg)}`;
    case 'binary': return `(${formatExpr(e.left)} ${e.op} ${formatExpr(e.right)})`;
    case 'call': return `${e.fn}(${e.args.map(formatExpr).join(', ')})`;
  }
}

export type Lang = 'ts' | 'wgsl';

/**
 * Emit an arithmetic expression in a target language. `names` maps each variable to the
 * target identifier (or a literal, for constant folding). WGSL is f32: literals get a
 * decimal point, integer powers become repeated products (pow() is undefined for x < 0).
 */
export function emitExpr(e: Expr, lang: Lang, names: Record<string, string>): string {
  const num = (v: number): string => {
    if (lang === 'ts') return Object.is(v, -0) ? '0' : String(v);
    const s = v.toPrecision(9);
    return /[.e]/.test(s) ? (s.includes('e') && !s.includes('.') ? s.replace('e', '.0e') : s) : `${s}.0`;
  };
  const go = (x: Expr): string => {
    switch (x.kind) {
      case 'num': return num(x.value);
      case 'var': {
        const t = names[x.name];
        if (t === undefined) throw new ExprError(`variable "${x.name}" has no binding in ${lang}`);
        return t;
      }
      case 'unary': return `(${x.op}${go(x.arg)})`;
      case 'binary': {
        if (x.op === '^') return power(x.left, x.right);
        return `(${go(x.left)} ${x.op} ${go(x.right)})`;
      }
      case 'call': {
        const args = x.args.map(go);
        if (x.fn === 'erf' || x.fn === 'erfc') return `kf_${x.fn}(${args[0]})`;
        return lang === 'ts' ? `Math.${x.fn}(${args.join(', ')})` : `${x.fn}(${args.join(', ')})`;
      }
      default: throw new ExprError(`${x.kind} cannot be emitted as arithmetic`);
    }
  };
  const power = (base: Expr, exp: Expr): string => {
    const b = go(base);
    if (exp.kind === 'num' && Number.isInteger(exp.value) && Math.abs(exp.value) <= 16) {
      const n = Math.abs(exp.value);
      if (n === 0) return num(1);
      const prod = `(${Array(n).fill(b).join(' * ')})`;
      return exp.value > 0 ? prod : `(${num(1)} / ${prod})`;
    }
    return lang === 'ts' ? `Math.pow(${b}, ${go(exp)})` : `pow(${b}, ${go(exp)})`;
  };
  return go(e);
}
