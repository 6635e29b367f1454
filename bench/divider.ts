// What the divider allows a WebAssembly kernel: independent square roots and divisions of one
// vector type in a loop, timed in this process. The GEM kernels compute, per vector of pairs,
// 2 square roots and 1 division (region 1, `div`) or 1 and 1 (region 3); where a kernel's time
// per vector equals the loop's with the same operations, the divider is what bounds it, and only
// moving work off it (which WebAssembly's lack of a reciprocal square-root estimate makes
// costly) can make it faster. `bench gem-potential` prints the comparison with its limits.
import { assembleWat } from '../generator/post.ts';

export type DividerVector = 'f32x4' | 'f64x2';

/** The loop's inputs per lane l (and accumulator k): x starts at X0, advances by STEP; the terms' constants C(k). */
const X0 = (l: number): number => 2 + l;
const STEP = (l: number): number => 1 / (1024 + l);
const C = (k: number, l: number): number => 1 + (k + 1) / (7 + 2 * l);

/**
 * The loop's WebAssembly text: `kernel(n)` runs n iterations; each advances x by c (one add on
 * the loop-carried chain) and adds `sqrt` square roots sqrt(x + c_k) and `div` quotients
 * c_k / x into accumulators of their own (so no root or quotient waits for another), and
 * returns lane 0 of the accumulators' sum (so nothing is dead code).
 */
export function dividerWat(sqrt: number, div: number, vt: DividerVector = 'f32x4'): string {
  const n = sqrt + div;
  if (!Number.isInteger(sqrt) || !Number.isInteger(div) || sqrt < 0 || div < 0 || n < 1 || n > 8) throw new Error(`divider loop: sqrt ${sqrt} and div ${div} must be whole, 1 to 8 in all`);
  const lanes = vt === 'f32x4' ? 4 : 2;
  const st = vt === 'f32x4' ? 'f32' : 'f64';
  // f32 constants as the exact f32 values (the reference rounds the same doubles with Math.fround)
  const r = vt === 'f32x4' ? Math.fround : (v: number) => v;
  const vec = (f: (l: number) => number) => `(v128.const ${vt} ${Array.from({ length: lanes }, (_, l) => r(f(l))).join(' ')})`;
  const L: string[] = [`(module (func (export "kernel") (param $n i32) (result ${st}) (local $i i32) (local $x v128) (local $c v128)`];
  for (let k = 0; k < n; k++) L.push(`  (local $a${k} v128) (local $c${k} v128)`);
  L.push(`  (local.set $x ${vec(X0)}) (local.set $c ${vec(STEP)})`);
  for (let k = 0; k < n; k++) L.push(`  (local.set $c${k} ${vec((l) => C(k, l))})`);
  L.push('  (block $done (loop $iter', '    (br_if $done (i32.ge_u (local.get $i) (local.get $n)))', `    (local.set $x (${vt}.add (local.get $x) (local.get $c)))`);
  for (let k = 0; k < n; k++) {
    const term = k < sqrt ? `(${vt}.sqrt (${vt}.add (local.get $x) (local.get $c${k})))` : `(${vt}.div (local.get $c${k}) (local.get $x))`;
    L.push(`    (local.set $a${k} (${vt}.add (local.get $a${k}) ${term}))`);
  }
  L.push('    (local.set $i (i32.add (local.get $i) (i32.const 1)))', '    (br $iter)))');
  let sum = '(local.get $a0)';
  for (let k = 1; k < n; k++) sum = `(${vt}.add ${sum} (local.get $a${k}))`;
  L.push(`  (${vt}.extract_lane 0 ${sum})))`);
  return L.join('\n');
}

/** Lane 0 of the loop's result computed in JavaScript with the module's roundings (the test's reference). */
export function dividerReference(sqrt: number, div: number, vt: DividerVector, iters: number): number {
  const r = vt === 'f32x4' ? Math.fround : (v: number) => v;
  const n = sqrt + div;
  const ck = Array.from({ length: n }, (_, k) => r(C(k, 0)));
  const a = new Array<number>(n).fill(0);
  let x = r(X0(0));
  const c = r(STEP(0));
  for (let i = 0; i < iters; i++) {
    x = r(x + c);
    for (let k = 0; k < n; k++) a[k] = r(a[k]! + (k < sqrt ? r(Math.sqrt(r(x + ck[k]!))) : r(ck[k]! / x)));
  }
  return a.reduce((s, v) => r(s + v));
}

export interface DividerLoop {
  /** The loop's kernel(n), compiled here. */
  run(iters: number): number;
}

/** The loop compiled in this process (TurboFan: the kernel is called until it is optimized before timing). */
export async function dividerLoop(sqrt: number, div: number, vt: DividerVector = 'f32x4'): Promise<DividerLoop> {
  const bytes = await assembleWat(`divider-${sqrt}s${div}d`, dividerWat(sqrt, div, vt));
  const inst = await WebAssembly.instantiate(await WebAssembly.compile(bytes as Uint8Array<ArrayBuffer>), {});
  const kernel = inst.exports.kernel as (n: number) => number;
  return { run: (iters) => kernel(iters) };
}

/** Nanoseconds per iteration: the fastest of `reps` runs of `iters` iterations, after a warm-up. */
export async function dividerNs(sqrt: number, div: number, vt: DividerVector = 'f32x4', o: { iters?: number; reps?: number } = {}): Promise<number> {
  const loop = await dividerLoop(sqrt, div, vt);
  const iters = o.iters ?? 1 << 20;
  for (let w = 0; w < 3; w++) loop.run(iters);
  let best = Infinity;
  for (let r = 0; r < (o.reps ?? 9); r++) {
    const t = performance.now();
    loop.run(iters);
    best = Math.min(best, performance.now() - t);
  }
  return (best * 1e6) / iters;
}
