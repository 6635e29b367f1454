// The variant space of a spec: axes (some conditional), rules between them, the default
// library, and the one canonical key of a variant. Everything here is data-driven; no
// family-specific knowledge.
import type { Axis, AxisValue, Spec } from './spec.ts';
import { evalExpr, exprVars, ExprError } from './expr.ts';

/** One point of the space: a value for every axis that applies. */
export type Variant = Record<string, AxisValue>;

const applies = (axis: Axis, v: Variant): boolean => !axis.when || Boolean(evalExpr(axis.when, v));

// During validation a condition may name an axis the variant lacks: that is a finding, not a crash.
function appliesOrMissing(axis: Axis, v: Variant): boolean | string {
  try {
    return applies(axis, v);
  } catch (e) {
    if (e instanceof ExprError) return e.message;
    throw e;
  }
}

/** Rules violated by a variant, as readable reasons (empty: the variant is valid). */
export function violations(spec: Spec, v: Variant): string[] {
  const out: string[] = [];
  for (const a of spec.axes) {
    const has = a.name in v;
    const ap = appliesOrMissing(a, v);
    if (typeof ap === 'string') {
      out.push(`axis "${a.name}" cannot be decided: ${ap}`);
      continue;
    }
    if (ap !== has) out.push(has ? `axis "${a.name}" does not apply here` : `axis "${a.name}" needs a value`);
    else if (has && !a.values.includes(v[a.name]!)) {
      out.push(`"${v[a.name]}" is not a value of "${a.name}" (allowed: ${a.values.join(', ')})`);
    }
  }
  if (out.length > 0) return out;
  for (const r of spec.rules) {
    if ((!r.when || evalExpr(r.when, v)) && !evalExpr(r.require, v)) out.push(`rule ${r.name}${r.why ? `: ${r.why}` : ''}`);
  }
  return out;
}

/** Every valid variant whose axis values lie in `choices` (all values where an axis is not named). */
export function expand(spec: Spec, choices: Record<string, AxisValue[]> = {}): Variant[] {
  const out: Variant[] = [];
  const walk = (i: number, v: Variant): void => {
    if (i === spec.axes.length) {
      if (violations(spec, v).length === 0) out.push({ ...v });
      return;
    }
    const a = spec.axes[i]!;
    if (!applies(a, v)) return walk(i + 1, v);
    for (const val of choices[a.name] ?? a.values) {
      v[a.name] = val;
      walk(i + 1, v);
      delete v[a.name];
    }
  };
  walk(0, {});
  return out;
}

/** The default library: union of the spec's library entries, de-duplicated, in key order. */
export function libraryVariants(spec: Spec): Variant[] {
  const byKey = new Map<string, Variant>();
  for (const entry of spec.library) for (const v of expand(spec, entry)) byKey.set(variantKey(spec, v), v);
  return [...byKey.keys()].sort().map((k) => byKey.get(k)!);
}

const token = (a: Axis, val: AxisValue): string => (typeof val === 'number' ? `${a.name}${val}` : val);

/** The canonical key, e.g. `md-nonbonded.ts.lj-rf.geom.shift.f32.fev.4x4.mask.mask`. */
export function variantKey(spec: Spec, v: Variant): string {
  return [spec.family, ...spec.axes.filter((a) => a.name in v).map((a) => token(a, v[a.name]!))].join('.');
}

/** Inverse of variantKey; throws with the reason when the key names no valid variant. */
export function parseVariantKey(spec: Spec, key: string): Variant {
  const parts = key.split('.');
  if (parts[0] !== spec.family) throw new Error(`key "${key}" is not of family ${spec.family}`);
  const v: Variant = {};
  let k = 1;
  for (const a of spec.axes) {
    if (!applies(a, v)) continue;
    const t = parts[k++];
    const val = a.values.find((x) => token(a, x) === t);
    if (val === undefined) {
      throw new Error(`key "${key}": "${t ?? '(missing)'}" is not a value of axis "${a.name}" (allowed: ${a.values.map((x) => token(a, x)).join(', ')})`);
    }
    v[a.name] = val;
  }
  if (k !== parts.length) throw new Error(`key "${key}" has ${parts.length - k} extra part(s)`);
  const bad = violations(spec, v);
  if (bad.length > 0) throw new Error(`key "${key}" breaks ${bad.join('; ')}`);
  return v;
}

/** Axis conditions may only look at earlier axes, so keys parse left to right. */
export function checkAxisOrder(spec: Spec): { path: (string | number)[]; message: string } | undefined {
  for (let i = 0; i < spec.axes.length; i++) {
    const a = spec.axes[i]!;
    if (!a.when) continue;
    for (const n of exprVars(a.when)) {
      const j = spec.axes.findIndex((b) => b.name === n);
      if (j >= i) return { path: ['axes', a.name, 'when'], message: `uses "${n}", which must be declared before "${a.name}"` };
    }
  }
  return undefined;
}
