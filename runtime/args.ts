// Checks on what API callers pass (open(), the family handles): each failure is an ApiInputError
// naming the argument (as a path: `atoms.x[12]`), what it got and what is allowed, thrown before
// anything reaches a kernel.
import { KernforgeError } from './errors.ts';

/** A bad argument to the API; the message names the argument, what it got and what is allowed. */
export class ApiInputError extends KernforgeError {}

/** A short, safe rendering of a value for an error message. */
export function show(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v.length > 60 ? `${v.slice(0, 57)}...` : v);
  if (typeof v === 'number' || typeof v === 'boolean' || v === null || v === undefined) return String(v);
  if (Array.isArray(v)) return `an array of ${v.length}`;
  if (ArrayBuffer.isView(v)) return `a ${v.constructor.name} of ${(v as unknown as ArrayLike<number>).length}`;
  return `a ${typeof v === 'object' ? (v.constructor?.name ?? 'object') : typeof v}`;
}

/** `v` must be one of `allowed`. */
export function oneOf<T extends string>(name: string, v: unknown, allowed: readonly T[]): T {
  if (typeof v !== 'string' || !(allowed as readonly string[]).includes(v)) throw new ApiInputError(`${name}: got ${show(v)}; allowed: ${allowed.join(', ')}`);
  return v as T;
}

/** `v` must be a finite number (within [min, max] when given). */
export function finiteNumber(name: string, v: unknown, o: { min?: number; max?: number; exclusiveMin?: boolean; what?: string } = {}): number {
  const ok = typeof v === 'number' && Number.isFinite(v) && (o.min === undefined || (o.exclusiveMin ? v > o.min : v >= o.min)) && (o.max === undefined || v <= o.max);
  if (!ok) {
    const range = o.what ?? (o.min !== undefined ? `a number ${o.exclusiveMin ? '>' : '>='} ${o.min}${o.max !== undefined ? ` and <= ${o.max}` : ''}` : 'a finite number');
    throw new ApiInputError(`${name}: got ${show(v)}; allowed: ${range}`);
  }
  return v as number;
}

/** `v` must be an integer in [min, max]. */
export function integer(name: string, v: unknown, min: number, max = Number.MAX_SAFE_INTEGER): number {
  if (!(typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max)) throw new ApiInputError(`${name}: got ${show(v)}; allowed: an integer from ${min}${max < Number.MAX_SAFE_INTEGER ? ` to ${max}` : ''}`);
  return v;
}

/**
 * `v` must be an array or typed array of `length` finite numbers (any length when undefined);
 * returns it as it is. The first non-finite entry is named.
 */
export function finiteArray(name: string, v: unknown, length?: number, what = 'numbers'): ArrayLike<number> {
  if (!(Array.isArray(v) || (ArrayBuffer.isView(v) && !(v instanceof DataView)))) throw new ApiInputError(`${name}: got ${show(v)}; allowed: an array or typed array of ${length ?? 'n'} finite ${what}`);
  const a = v as ArrayLike<number>;
  if (length !== undefined && a.length !== length) throw new ApiInputError(`${name}: has ${a.length} values; allowed: exactly ${length}`);
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    if (typeof x !== 'number' || !Number.isFinite(x)) throw new ApiInputError(`${name}[${i}] = ${show(x)}: every value must be a finite number`);
  }
  return a;
}

/** `v` must be a plain object (or undefined: {}). */
export function options<T extends object>(name: string, v: unknown): Partial<T> {
  if (v === undefined) return {};
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new ApiInputError(`${name}: got ${show(v)}; allowed: an options object`);
  return v as Partial<T>;
}
