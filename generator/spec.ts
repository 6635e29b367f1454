// Loading and validating family specs. A spec error names the file, the line and column,
// the field path, what is wrong and what is allowed; nothing is generated from an invalid spec.
import { KernforgeError } from '../runtime/errors.ts';
import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { basename } from 'node:path';
import { parseDocument, LineCounter, isNode, type Document } from 'yaml';
import { Ajv, type ErrorObject } from 'ajv';
import { specSchema } from './spec-schema.ts';
import { commentText } from './render.ts';
import { parseExpr, clipExpr, ExprError, type Expr } from './expr.ts';

export type AxisValue = string | number;

/** One axis of a family's variant space. */
export interface Axis {
  /** Axis name, e.g. `cluster`. */
  name: string;
  /** semantic: changes the result (picked by the caller); tuning: changes only speed (picked by the tuner). */
  kind: 'semantic' | 'tuning';
  /** The allowed values (numbers appear in keys after the axis name, e.g. `unroll4`). */
  values: AxisValue[];
  /** The axis exists only where this predicate holds (absent: always). */
  when?: Expr;
  /** What the axis means, for people. */
  doc?: string;
}

/** A rule between axes: where `when` holds, `require` must hold, or the variant is invalid. */
export interface Rule {
  /** Rule name, e.g. `wgsl-is-f32`, quoted in messages. */
  name: string;
  /** Where the rule applies (absent: everywhere). */
  when?: Expr;
  /** What must hold there. */
  require: Expr;
  /** Why, quoted when a variant breaks the rule. */
  why?: string;
}

/** A validated spec. `raw` keeps the plain data for family modules. */
export interface Spec {
  /** Family name, e.g. `md-nonbonded`: the first part of every key. */
  family: string;
  /** The spec's version number. */
  version: number;
  /** The spec file's base name, for messages and banners. */
  file: string;
  /** sha256 of the spec text: part of every generated banner. */
  hash: string;
  /** The axes, in key order. */
  axes: Axis[];
  /** Rules between axes. */
  rules: Rule[];
  /** The default library: entries of axis values, each expanded to every valid combination. */
  library: Record<string, AxisValue[]>[];
  /** The parsed YAML as plain data (inputs, outputs, potentials...). */
  raw: Record<string, unknown>;
  /** file:line:col of a field path, for family-level errors. */
  where(path: (string | number)[]): string;
}

/** A user mistake in a spec. */
export class SpecError extends KernforgeError {
  constructor(
    /** The spec file. */
    readonly file: string,
    /** file:line:col of the offending field (or the file). */
    readonly location: string,
    /** Dotted path of the field, e.g. `axes.cluster.values.2` (empty for the whole spec). */
    readonly path: string,
    /** What is wrong and what is allowed. */
    readonly detail: string,
  ) {
    super(`${location}: ${path ? `${path}: ` : ''}${detail}`);
  }
}

function locator(file: string, doc: Document, lc: LineCounter) {
  // a file name with a newline (or other control characters) stays on the message's one line
  const shown = commentText(file);
  return (path: (string | number)[]): string => {
    for (let p = path; ; p = p.slice(0, -1)) {
      const node = p.length === 0 ? doc.contents : doc.getIn(p, true);
      if (isNode(node) && node.range) {
        const { line, col } = lc.linePos(node.range[0]);
        return `${shown}:${line}:${col}`;
      }
      if (p.length === 0) return shown;
    }
  };
}

const fmtPath = (p: (string | number)[]): string => p.map((s) => String(s)).join('.');

function schemaMessage(e: ErrorObject): string {
  switch (e.keyword) {
    case 'additionalProperties': {
      const known = Object.keys((e.parentSchema as { properties?: object } | undefined)?.properties ?? {});
      return `unknown field "${(e.params as { additionalProperty: string }).additionalProperty}"${known.length ? `; allowed: ${known.join(', ')}` : ''}`;
    }
    case 'required':
      return `missing required field "${(e.params as { missingProperty: string }).missingProperty}"`;
    case 'enum':
      return `must be one of ${(e.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'pattern':
      return `${e.message} (identifiers: lower-case letters, digits and '-')`;
    default:
      return e.message ?? e.keyword;
  }
}

const ajv = new Ajv({ allErrors: true, strict: true, verbose: true });
const validateSchema = ajv.compile(specSchema);

/** Parse and validate one spec file; throws SpecError on any problem. */
export function loadSpec(path: string): Spec {
  return parseSpec(readFileSync(path, 'utf8'), path);
}

/** Parse and validate spec text (the file name is used in messages only). */
export function parseSpec(text: string, file: string): Spec {
  const lc = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lc, prettyErrors: false });
  if (doc.errors.length > 0) {
    const e = doc.errors[0]!;
    const { line, col } = lc.linePos(e.pos[0]);
    throw new SpecError(file, `${commentText(file)}:${line}:${col}`, '', `invalid YAML: ${e.message.split('\n')[0]}`);
  }
  const where = locator(file, doc, lc);
  const raw = doc.toJS() as Record<string, unknown>;
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new SpecError(file, commentText(file), '', 'a spec must be a YAML mapping with family, version, axes and library');
  }
  if (!validateSchema(raw)) {
    const e = pickError(validateSchema.errors ?? []);
    const path = e.instancePath.split('/').slice(1).map(unescapePointer);
    if (e.keyword === 'additionalProperties') path.push((e.params as { additionalProperty: string }).additionalProperty);
    throw new SpecError(file, where(path), fmtPath(path), schemaMessage(e));
  }
  const err = (path: (string | number)[], detail: string): never => {
    throw new SpecError(file, where(path), fmtPath(path), detail);
  };

  const axesRaw = raw.axes as Record<string, { kind: 'semantic' | 'tuning'; values: AxisValue[]; when?: string; doc?: string }>;
  const axisNames = Object.keys(axesRaw);
  const parseLogic = (text: string, path: (string | number)[]): Expr => {
    try {
      const e = parseExpr(text, 'logic', axisNames);
      checkComparedValues(e, axesRaw, path, err);
      return e;
    } catch (x) {
      if (x instanceof ExprError) return err(path, x.message);
      throw x;
    }
  };

  const axes: Axis[] = axisNames.map((n) => {
    const a = axesRaw[n]!;
    const dup = a.values.find((v, i) => a.values.indexOf(v) !== i);
    if (dup !== undefined) err(['axes', n, 'values'], `value ${JSON.stringify(dup)} is listed twice`);
    return {
      name: n,
      kind: a.kind,
      values: a.values,
      ...(a.when !== undefined ? { when: parseLogic(a.when, ['axes', n, 'when']) } : {}),
      ...(a.doc !== undefined ? { doc: a.doc } : {}),
    };
  });

  const rulesRaw = (raw.rules ?? []) as { name: string; when?: string; require: string; why?: string }[];
  const rules: Rule[] = rulesRaw.map((r, i) => ({
    name: r.name,
    require: parseLogic(r.require, ['rules', i, 'require']),
    ...(r.when !== undefined ? { when: parseLogic(r.when, ['rules', i, 'when']) } : {}),
    ...(r.why !== undefined ? { why: r.why } : {}),
  }));

  const library = raw.library as Record<string, AxisValue[]>[];
  library.forEach((entry, i) => {
    for (const [k, vals] of Object.entries(entry)) {
      const axis = Object.hasOwn(axesRaw, k) ? axesRaw[k] : undefined;
      if (!axis) err(['library', i, k], `unknown axis "${k}"; axes are ${axisNames.join(', ')}`);
      vals.forEach((v, j) => {
        if (!axis!.values.includes(v)) {
          err(['library', i, k, j], `value ${JSON.stringify(v)} is not a value of axis "${k}"; allowed: ${axis!.values.join(', ')}`);
        }
      });
    }
  });

  return {
    family: raw.family as string,
    version: raw.version as number,
    file: basename(file),
    hash: createHash('sha256').update(text).digest('hex'),
    axes,
    rules,
    library,
    raw,
    where,
  };
}

// A schema failure under anyOf produces several errors; the deepest is the useful one.
function pickError(errors: ErrorObject[]): ErrorObject {
  return [...errors].sort((a, b) => b.instancePath.split('/').length - a.instancePath.split('/').length)[0]!;
}

function unescapePointer(s: string): string | number {
  const t = s.replace(/~1/g, '/').replace(/~0/g, '~');
  return /^\d+$/.test(t) ? Number(t) : t;
}

// `target == 'wsgl'` would silently never match: every literal compared with an axis must be one of its values.
function checkComparedValues(
  e: Expr,
  axes: Record<string, { values: AxisValue[] }>,
  path: (string | number)[],
  err: (path: (string | number)[], detail: string) => never,
): void {
  if (e.kind === 'unary') return checkComparedValues(e.arg, axes, path, err);
  if (e.kind !== 'binary') return;
  if (e.op === 'and' || e.op === 'or') {
    checkComparedValues(e.left, axes, path, err);
    checkComparedValues(e.right, axes, path, err);
    return;
  }
  const [v, lit] = e.left.kind === 'var' ? [e.left, e.right] : [e.right, e.left];
  if (v.kind !== 'var' || (lit.kind !== 'str' && lit.kind !== 'num')) return;
  const vals = axes[v.name]!.values;
  if ((e.op === '==' || e.op === '!=') && !vals.some((x) => String(x) === String(lit.value))) {
    err(path, `"${clipExpr(String(lit.value))}" is not a value of axis "${v.name}"; allowed: ${vals.join(', ')}`);
  }
}
