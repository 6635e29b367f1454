// SETTLE (runtime/md/settle.ts settleRange) in WebAssembly SIMD, two molecules per f64x2 vector,
// two vectors side by side (issue 16): the same operations in the same order on every number, so positions, velocities,
// virial sums and the clamp count equal the TypeScript code's bit for bit (WebAssembly f64
// arithmetic is IEEE without contraction; the virial sums are added lane by lane in molecule
// order). The text is built here from the formulas; `npm run settle-wasm` (scripts/settle-wasm.ts)
// assembles it with wabt into runtime/md/settle-simd-bytes.ts, which is committed and ships;
// test/runtime/settle-simd.test.ts checks the committed bytes are this text's.
//
// Export `settle(mols, xOld, xNew, v, acc, m0, m1, wO, wH, mH, ra, rb, rc, rc2, iv, doV, virial)`:
// byte offsets into the module's memory of the [O, H1, H2] triples (i32), the f64 arrays and 10
// f64 sums (the 9 virial sums and the clamp count, set, not added); molecules [m0, m1) with
// m1 - m0 a multiple of 4; rc2 = 2 rc (as settleRange's 2 * rc * cosphi rounds it). The module
// also holds the kick and drift, the guard's and the displacement check's passes, and the
// per-step transfers into and out of a md-nonbonded kernel's layout (`transfers` below).
import { createHash } from 'node:crypto';
import { assembleWat } from './post.ts';

/** One pair's code: molecules mp + moff (lane 0) and mp + moff + 12 (lane 1); locals named with the suffix. */
function pairCode(sfx: string, moff: number, locals: string[]): { main: string[]; diffs: string[]; vel: string[]; vir: string[] } {
  const body: string[] = [];
  const v = (name0: string, expr: string): string => {
    const name = `${name0}${sfx}`;
    if (!locals.includes(name)) locals.push(name);
    body.push(`(local.set $${name} ${expr})`);
    return `(local.get $${name})`;
  };
  const op = (o: string, ...a: string[]): string => `(${o} ${a.join(' ')})`;
  const add = (a: string, b: string) => op('f64x2.add', a, b);
  const sub = (a: string, b: string) => op('f64x2.sub', a, b);
  const mul = (a: string, b: string) => op('f64x2.mul', a, b);
  const div = (a: string, b: string) => op('f64x2.div', a, b);
  const sqrt = (a: string) => op('f64x2.sqrt', a);
  const neg = (a: string) => op('f64x2.neg', a);
  const splat = (p: string) => `(f64x2.splat (local.get $${p}))`;
  const K = (c: number) => `(v128.const f64x2 ${c} ${c})`;
  const sel = (a: string, b: string, mask: string) => op('v128.bitselect', a, b, mask);
  // Lane 0 at molecule m, lane 1 at m + 1: byte offsets of their atoms in $a0.. / $a1..
  const ld = (arr: string, atom: string, k: number) =>
    `(f64x2.replace_lane 1 (f64x2.splat (f64.load offset=${8 * k} (i32.add (local.get $${arr}) (local.get $${atom}0${sfx})))) (f64.load offset=${8 * k} (i32.add (local.get $${arr}) (local.get $${atom}1${sfx}))))`;
  const st = (arr: string, atom: string, k: number, val: string): void => {
    body.push(`(f64.store offset=${8 * k} (i32.add (local.get $${arr}) (local.get $${atom}0${sfx})) (f64x2.extract_lane 0 ${val}))`);
    body.push(`(f64.store offset=${8 * k} (i32.add (local.get $${arr}) (local.get $${atom}1${sfx})) (f64x2.extract_lane 1 ${val}))`);
  };
  const one = K(1);
  const mone = K(-1);
  const zero = K(0);
  const countErrors = (mask: string) => body.push(`(local.set $err${sfx} (i64x2.sub (local.get $err${sfx}) ${mask}))`);

  // Atom byte offsets of both molecules.
  for (const [lane, off] of [[0, moff], [1, moff + 12]] as const) {
    ['a', 'b', 'c'].forEach((atom, k) => body.push(`(local.set $${atom}${lane}${sfx} (i32.mul (i32.load offset=${off + 4 * k} (local.get $mp)) (i32.const 24)))`));
  }
  const wO = splat('wO'), wH = splat('wH');
  // Old bond vectors from O.
  const xa0 = v('xa0', ld('xo', 'a', 0)), ya0 = v('ya0', ld('xo', 'a', 1)), za0 = v('za0', ld('xo', 'a', 2));
  const b0x = v('b0x', sub(ld('xo', 'b', 0), xa0)), b0y = v('b0y', sub(ld('xo', 'b', 1), ya0)), b0z = v('b0z', sub(ld('xo', 'b', 2), za0));
  const c0x = v('c0x', sub(ld('xo', 'c', 0), xa0)), c0y = v('c0y', sub(ld('xo', 'c', 1), ya0)), c0z = v('c0z', sub(ld('xo', 'c', 2), za0));
  // New positions and their centre of mass.
  const a1x = v('a1x', ld('xn', 'a', 0)), a1y = v('a1y', ld('xn', 'a', 1)), a1z = v('a1z', ld('xn', 'a', 2));
  const b1x = v('b1x', ld('xn', 'b', 0)), b1y = v('b1y', ld('xn', 'b', 1)), b1z = v('b1z', ld('xn', 'b', 2));
  const c1x = v('c1x', ld('xn', 'c', 0)), c1y = v('c1y', ld('xn', 'c', 1)), c1z = v('c1z', ld('xn', 'c', 2));
  const dx = v('dx', add(mul(wO, a1x), mul(wH, add(b1x, c1x))));
  const dy = v('dy', add(mul(wO, a1y), mul(wH, add(b1y, c1y))));
  const dz = v('dz', add(mul(wO, a1z), mul(wH, add(b1z, c1z))));
  const pax = v('pax', sub(a1x, dx)), pay = v('pay', sub(a1y, dy)), paz = v('paz', sub(a1z, dz));
  const pbx = v('pbx', sub(b1x, dx)), pby = v('pby', sub(b1y, dy)), pbz = v('pbz', sub(b1z, dz));
  const pcx = v('pcx', sub(c1x, dx)), pcy = v('pcy', sub(c1y, dy)), pcz = v('pcz', sub(c1z, dz));
  // Frame: ez normal to the old plane, ex = unit(a1' x ez), ey = ez x ex.
  let ezx = v('ezx', sub(mul(b0y, c0z), mul(b0z, c0y))), ezy = v('ezy', sub(mul(b0z, c0x), mul(b0x, c0z))), ezz = v('ezz', sub(mul(b0x, c0y), mul(b0y, c0x)));
  let s = v('s', div(one, sqrt(add(add(mul(ezx, ezx), mul(ezy, ezy)), mul(ezz, ezz)))));
  ezx = v('ezx', mul(ezx, s)); ezy = v('ezy', mul(ezy, s)); ezz = v('ezz', mul(ezz, s));
  let exx = v('exx', sub(mul(pay, ezz), mul(paz, ezy))), exy = v('exy', sub(mul(paz, ezx), mul(pax, ezz))), exz = v('exz', sub(mul(pax, ezy), mul(pay, ezx)));
  s = v('s', div(one, sqrt(add(add(mul(exx, exx), mul(exy, exy)), mul(exz, exz)))));
  exx = v('exx', mul(exx, s)); exy = v('exy', mul(exy, s)); exz = v('exz', mul(exz, s));
  const eyx = v('eyx', sub(mul(ezy, exz), mul(ezz, exy))), eyy = v('eyy', sub(mul(ezz, exx), mul(ezx, exz))), eyz = v('eyz', sub(mul(ezx, exy), mul(ezy, exx)));
  const dot = (ax: string, ay: string, az: string, bx: string, by: string, bz: string) => add(add(mul(ax, bx), mul(ay, by)), mul(az, bz));
  // Coordinates in the frame.
  const za1 = v('za1', dot(pax, pay, paz, ezx, ezy, ezz));
  const xb1 = v('xb1', dot(pbx, pby, pbz, exx, exy, exz)), yb1 = v('yb1', dot(pbx, pby, pbz, eyx, eyy, eyz)), zb1 = v('zb1', dot(pbx, pby, pbz, ezx, ezy, ezz));
  const xc1 = v('xc1', dot(pcx, pcy, pcz, exx, exy, exz)), yc1 = v('yc1', dot(pcx, pcy, pcz, eyx, eyy, eyz)), zc1 = v('zc1', dot(pcx, pcy, pcz, ezx, ezy, ezz));
  const xb0 = v('xb0', dot(b0x, b0y, b0z, exx, exy, exz)), yb0 = v('yb0', dot(b0x, b0y, b0z, eyx, eyy, eyz));
  const xc0 = v('xc0', dot(c0x, c0y, c0z, exx, exy, exz)), yc0 = v('yc0', dot(c0x, c0y, c0z, eyx, eyy, eyz));
  // Tilts phi and psi, clamped as settleRange clamps them (and counted).
  let sinphi = v('sinphi', div(za1, splat('ra')));
  const outPhi = v('mask', op('v128.or', op('f64x2.gt', sinphi, one), op('f64x2.lt', sinphi, mone)));
  countErrors(outPhi);
  sinphi = v('sinphi', sel(sel(one, mone, op('f64x2.gt', sinphi, zero)), sinphi, outPhi));
  const cosphi = v('cosphi', sqrt(sub(one, mul(sinphi, sinphi))));
  let sinpsi = v('sinpsi', div(sub(zb1, zc1), mul(splat('rc2'), cosphi)));
  const outPsi = v('mask', op('v128.not', op('v128.and', op('f64x2.le', sinpsi, one), op('f64x2.ge', sinpsi, mone))));
  countErrors(outPsi);
  sinpsi = v('sinpsi', sel(sel(one, mone, op('f64x2.gt', sinpsi, zero)), sinpsi, outPsi));
  const cospsi = v('cospsi', sqrt(sub(one, mul(sinpsi, sinpsi))));
  const ra = splat('ra'), rb = splat('rb'), rc = splat('rc');
  const nrb = v('nrb', neg(rb)), nrc = v('nrc', neg(rc));
  const ya2 = v('ya2', mul(ra, cosphi));
  const xb2 = v('xb2', mul(nrc, cospsi));
  const yb2 = v('yb2', sub(mul(nrb, cosphi), mul(mul(rc, sinpsi), sinphi)));
  const yc2 = v('yc2', add(mul(nrb, cosphi), mul(mul(rc, sinpsi), sinphi)));
  const za3 = v('za3', mul(ra, sinphi));
  const zb3 = v('zb3', add(mul(nrb, sinphi), mul(mul(rc, sinpsi), cosphi)));
  const zc3 = v('zc3', sub(mul(nrb, sinphi), mul(mul(rc, sinpsi), cosphi)));
  // In-plane rotation theta.
  const A = v('A', add(sub(add(mul(xb0, xb2), mul(yb0, yb2)), mul(xc0, xb2)), mul(yc0, yc2)));
  const B = v('B', add(add(sub(mul(xb0, yb2), mul(yb0, xb2)), mul(xc0, yc2)), mul(yc0, xb2)));
  const G = v('G', sub(add(sub(mul(xb0, yb1), mul(yb0, xb1)), mul(xc0, yc1)), mul(yc0, xc1)));
  const rho2 = v('rho2', add(mul(A, A), mul(B, B)));
  let disc = v('disc', sub(rho2, mul(G, G)));
  const negDisc = v('mask', op('f64x2.lt', disc, zero));
  countErrors(negDisc);
  disc = v('disc', sel(zero, disc, negDisc));
  let sinth = v('sinth', div(sub(mul(A, G), mul(B, sqrt(disc))), rho2));
  sinth = v('sinth', sel(one, sinth, op('f64x2.gt', sinth, one)));
  sinth = v('sinth', sel(mone, sinth, op('f64x2.lt', sinth, mone)));
  const costh = v('costh', sqrt(sub(one, mul(sinth, sinth))));
  const xa3 = v('xa3', mul(neg(ya2), sinth)), ya3 = v('ya3', mul(ya2, costh));
  const xb3 = v('xb3', sub(mul(xb2, costh), mul(yb2, sinth))), yb3 = v('yb3', add(mul(xb2, sinth), mul(yb2, costh)));
  const xc3 = v('xc3', sub(mul(neg(xb2), costh), mul(yc2, sinth))), yc3 = v('yc3', add(mul(neg(xb2), sinth), mul(yc2, costh)));
  // Back to the lab frame.
  const lab = (d: string, x: string, y: string, z: string, ex: string, ey: string, ez: string) => add(add(add(d, mul(x, ex)), mul(y, ey)), mul(z, ez));
  const a3x = v('a3x', lab(dx, xa3, ya3, za3, exx, eyx, ezx)), a3y = v('a3y', lab(dy, xa3, ya3, za3, exy, eyy, ezy)), a3z = v('a3z', lab(dz, xa3, ya3, za3, exz, eyz, ezz));
  const b3x = v('b3x', lab(dx, xb3, yb3, zb3, exx, eyx, ezx)), b3y = v('b3y', lab(dy, xb3, yb3, zb3, exy, eyy, ezy)), b3z = v('b3z', lab(dz, xb3, yb3, zb3, exz, eyz, ezz));
  const c3x = v('c3x', lab(dx, xc3, yc3, zc3, exx, eyx, ezx)), c3y = v('c3y', lab(dy, xc3, yc3, zc3, exy, eyy, ezy)), c3z = v('c3z', lab(dz, xc3, yc3, zc3, exz, eyz, ezz));
  st('xn', 'a', 0, a3x); st('xn', 'a', 1, a3y); st('xn', 'a', 2, a3z);
  st('xn', 'b', 0, b3x); st('xn', 'b', 1, b3y); st('xn', 'b', 2, b3z);
  st('xn', 'c', 0, c3x); st('xn', 'c', 1, c3y); st('xn', 'c', 2, c3z);
  const main = body.splice(0);
  // Velocity correction: v += (x3 - x1) * invdt.
  const iv = splat('iv');
  const moves: [string, string, number, string][] = [
    ['a', 'dax', 0, sub(a3x, a1x)], ['a', 'day', 1, sub(a3y, a1y)], ['a', 'daz', 2, sub(a3z, a1z)],
    ['b', 'dbx', 0, sub(b3x, b1x)], ['b', 'dby', 1, sub(b3y, b1y)], ['b', 'dbz', 2, sub(b3z, b1z)],
    ['c', 'dcx', 0, sub(c3x, c1x)], ['c', 'dcy', 1, sub(c3y, c1y)], ['c', 'dcz', 2, sub(c3z, c1z)],
  ];
  const d: Record<string, string> = {};
  for (const [, name, , expr] of moves) d[name] = v(name, expr);
  const diffs = body.splice(0);
  for (const [atom, name, k] of moves) st('v', atom, k, add(ld('v', atom, k), mul(d[name]!, iv)));
  const vel = body.splice(0);
  // Virial sums: each molecule's term in the vector, added to the scalar sums lane 0 then lane 1 (molecule order).
  const mH = splat('mH');
  const mb = [v('mbx', mul(mH, d.dbx!)), v('mby', mul(mH, d.dby!)), v('mbz', mul(mH, d.dbz!))];
  const mc = [v('mcx', mul(mH, d.dcx!)), v('mcy', mul(mH, d.dcy!)), v('mcz', mul(mH, d.dcz!))];
  const b0 = [b0x, b0y, b0z];
  const c0 = [c0x, c0y, c0z];
  for (let r = 0; r < 3; r++) {
    for (let c = 0; c < 3; c++) {
      const t = v('t', add(mul(b0[r]!, mb[c]!), mul(c0[r]!, mc[c]!)));
      for (const lane of [0, 1]) body.push(`(local.set $v${r}${c} (f64.add (local.get $v${r}${c}) (f64x2.extract_lane ${lane} ${t})))`);
    }
  }
  const vir = body.splice(0);
  return { main, diffs, vel, vir };
}

/** Statements of two pairs taken in turn (independent chains side by side for the processor). */
function interleave(a: string[], b: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (i < a.length) out.push(a[i]!);
    if (i < b.length) out.push(b[i]!);
  }
  return out;
}

/**
 * The module's WebAssembly text. `shared`: the same code on an imported shared memory, for an
 * update workspace that worker threads run their ranges of atoms and molecules on (the kick and
 * drift and SETTLE split over threads: runtime/md/settle-simd.ts UpdateWorkspace, runtime/parallel/md.ts).
 */
export function settleWat(shared = false): string {
  const locals: string[] = [];
  // Four molecules per iteration: pairs A (molecules m, m+1) and B (m+2, m+3); B's virial terms
  // are added after A's (molecule order).
  const A = pairCode('A', 0, locals);
  const B = pairCode('B', 24, locals);
  const main = interleave(A.main, B.main);
  const diffs = interleave(A.diffs, B.diffs);
  const vel = interleave(A.vel, B.vel);
  const vir = [...A.vir, ...B.vir];
  const i32s = ['A', 'B'].flatMap((x) => ['a', 'b', 'c'].flatMap((atom) => [`${atom}0${x}`, `${atom}1${x}`]));
  const sums = [0, 1, 2].flatMap((r) => [0, 1, 2].map((c) => `v${r}${c}`));
  const ind = (lines: string[], n: number) => lines.map((l) => `${' '.repeat(n)}${l}`).join('\n');
  return `;; SETTLE, two molecules per f64x2 vector, four per iteration (generator/md-settle-wat.ts; do not edit).
(module
  (import "env" "memory" (memory 1${shared ? ' 65536 shared' : ''}))
${KICK_DRIFT}
${kickDriftMeasure()}
${KICK}
${CHECKS}
${transfers()}
  (func (export "settle")
    (param $mols i32) (param $xo i32) (param $xn i32) (param $v i32) (param $acc i32) (param $m0 i32) (param $m1 i32)
    (param $wO f64) (param $wH f64) (param $mH f64) (param $ra f64) (param $rb f64) (param $rc f64) (param $rc2 f64) (param $iv f64)
    (param $doV i32) (param $virial i32)
    (local $mp i32) (local $end i32) ${i32s.map((n) => `(local $${n} i32)`).join(' ')}
    (local $errA v128) (local $errB v128)
    ${sums.map((n) => `(local $${n} f64)`).join(' ')}
    ${locals.map((n) => `(local $${n} v128)`).join(' ')}
    (local.set $mp (i32.add (local.get $mols) (i32.mul (local.get $m0) (i32.const 12))))
    (local.set $end (i32.add (local.get $mols) (i32.mul (local.get $m1) (i32.const 12))))
    (block $done
      (loop $pair
        (br_if $done (i32.ge_u (local.get $mp) (local.get $end)))
${ind(main, 8)}
        (if (i32.or (local.get $doV) (local.get $virial))
          (then
${ind(diffs, 12)}
            (if (local.get $doV)
              (then
${ind(vel, 16)}))
            (if (local.get $virial)
              (then
${ind(vir, 16)}))))
        (local.set $mp (i32.add (local.get $mp) (i32.const 48)))
        (br $pair)))
${ind(sums.map((n, k) => `(f64.store offset=${8 * k} (local.get $acc) (local.get $${n}))`), 4)}
    (f64.store offset=72 (local.get $acc)
      (f64.convert_i64_s (i64.add
        (i64.add (i64x2.extract_lane 0 (local.get $errA)) (i64x2.extract_lane 1 (local.get $errA)))
        (i64.add (i64x2.extract_lane 0 (local.get $errB)) (i64x2.extract_lane 1 (local.get $errB))))))))
`;
}

/**
 * kickDrift(x, v, xOld, h3, f, n, lambda, scale, dt, keep, plain, twice): runtime/md/engine.ts kickDrift
 * over n numbers, two per vector: v = lambda v + (scale h) F (plain: v + (scale h) F, for lambda
 * 1), xOld = x when keep, x += dt v; h3 is dt/(2m) per coordinate. With `twice`, v = v + h F first
 * (engine.ts kick: velocity Verlet's second half kick of the step before, left to this pass).
 */
const KICK_DRIFT = `  (func (export "kickDrift")
    (param $x i32) (param $v i32) (param $xo i32) (param $h i32) (param $f i32) (param $n i32)
    (param $lambda f64) (param $scale f64) (param $dt f64) (param $keep i32) (param $plain i32) (param $twice i32)
    (local $i i32) (local $end i32) (local $xi v128) (local $vi v128) (local $q v128) (local $L v128) (local $S v128) (local $D v128)
    (local $hv v128) (local $fv v128) (local $vo v128)
    (local $xs f64) (local $vs f64) (local $qs f64) (local $hs f64) (local $fs f64) (local $vos f64)
    (local.set $L (f64x2.splat (local.get $lambda)))
    (local.set $S (f64x2.splat (local.get $scale)))
    (local.set $D (f64x2.splat (local.get $dt)))
    (local.set $end (i32.shl (i32.and (local.get $n) (i32.const -2)) (i32.const 3)))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (local.get $end)))
        (local.set $xi (v128.load (i32.add (local.get $x) (local.get $i))))
        (if (local.get $keep) (then (v128.store (i32.add (local.get $xo) (local.get $i)) (local.get $xi))))
        (local.set $hv (v128.load (i32.add (local.get $h) (local.get $i))))
        (local.set $fv (v128.load (i32.add (local.get $f) (local.get $i))))
        (local.set $vo (v128.load (i32.add (local.get $v) (local.get $i))))
        (if (local.get $twice) (then (local.set $vo (f64x2.add (local.get $vo) (f64x2.mul (local.get $hv) (local.get $fv))))))
        (local.set $q (f64x2.mul (local.get $S) (local.get $hv)))
        (if (local.get $plain)
          (then (local.set $vi (f64x2.add (local.get $vo) (f64x2.mul (local.get $q) (local.get $fv)))))
          (else (local.set $vi (f64x2.add (f64x2.mul (local.get $L) (local.get $vo)) (f64x2.mul (local.get $q) (local.get $fv))))))
        (v128.store (i32.add (local.get $v) (local.get $i)) (local.get $vi))
        (v128.store (i32.add (local.get $x) (local.get $i)) (f64x2.add (local.get $xi) (f64x2.mul (local.get $D) (local.get $vi))))
        (local.set $i (i32.add (local.get $i) (i32.const 16)))
        (br $next)))
    (if (i32.and (local.get $n) (i32.const 1))
      (then
        (local.set $xs (f64.load (i32.add (local.get $x) (local.get $end))))
        (if (local.get $keep) (then (f64.store (i32.add (local.get $xo) (local.get $end)) (local.get $xs))))
        (local.set $hs (f64.load (i32.add (local.get $h) (local.get $end))))
        (local.set $fs (f64.load (i32.add (local.get $f) (local.get $end))))
        (local.set $vos (f64.load (i32.add (local.get $v) (local.get $end))))
        (if (local.get $twice) (then (local.set $vos (f64.add (local.get $vos) (f64.mul (local.get $hs) (local.get $fs))))))
        (local.set $qs (f64.mul (local.get $scale) (local.get $hs)))
        (if (local.get $plain)
          (then (local.set $vs (f64.add (local.get $vos) (f64.mul (local.get $qs) (local.get $fs)))))
          (else (local.set $vs (f64.add (f64.mul (local.get $lambda) (local.get $vos)) (f64.mul (local.get $qs) (local.get $fs))))))
        (f64.store (i32.add (local.get $v) (local.get $end)) (local.get $vs))
        (f64.store (i32.add (local.get $x) (local.get $end)) (f64.add (local.get $xs) (f64.mul (local.get $dt) (local.get $vs)))))))`;

/**
 * Two atoms' squared displacements folded into the running maximum $m: the squared coordinate
 * differences of atoms j, j+1 lie in three f64x2 locals a = (x, y), b = (z, x'), c = (y', z'), and
 * each atom's (dx^2 + dy^2) + dz^2 is taken in maxDisp2's order of additions (shared by maxDisp2
 * and kickDriftMeasure, which must give the same number).
 */
function maxOfPair(a: string, b: string, c: string): string {
  return `        ;; atoms j, j+1 in lanes 0, 1: (dx^2 + dy^2) + dz^2 from the lanes (x, y), (z, x'), (y', z')
        (local.set $m (f64x2.max (local.get $m)
          (f64x2.add
            (f64x2.add
              (i8x16.shuffle 0 1 2 3 4 5 6 7 24 25 26 27 28 29 30 31 (local.get ${a}) (local.get ${b}))
              (i8x16.shuffle 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 (local.get ${a}) (local.get ${c})))
            (i8x16.shuffle 0 1 2 3 4 5 6 7 24 25 26 27 28 29 30 31 (local.get ${b}) (local.get ${c})))))`;
}

/**
 * kickDriftMeasure(x, v, xOld, h3, f, atoms, lambda, scale, dt, keep, plain, twice, x0): kickDrift over
 * the atoms' 3 atoms numbers, the same operations on each, and the largest squared displacement of an atom
 * from x0 after the drift, as maxDisp2 computes it (NaN when any is NaN): the displacement check
 * in the same pass as the update, without reading x again (runtime/md/settle-simd.ts
 * UpdateRanges.run). Two atoms (three vectors) a time, the last odd atom in scalars.
 */
function kickDriftMeasure(): string {
  // One vector (offset o, 16 bytes) of kickDrift's loop into $n<k> (the new positions).
  const vec = (k: number, o: number): string => `        (local.set $xi (v128.load offset=${o} (local.get $p)))
        (if (local.get $keep) (then (v128.store offset=${o} (i32.add (local.get $xo) (local.get $i)) (local.get $xi))))
        (local.set $hv (v128.load offset=${o} (i32.add (local.get $h) (local.get $i))))
        (local.set $fv (v128.load offset=${o} (i32.add (local.get $f) (local.get $i))))
        (local.set $vo (v128.load offset=${o} (i32.add (local.get $v) (local.get $i))))
        (if (local.get $twice) (then (local.set $vo (f64x2.add (local.get $vo) (f64x2.mul (local.get $hv) (local.get $fv))))))
        (local.set $q (f64x2.mul (local.get $S) (local.get $hv)))
        (if (local.get $plain)
          (then (local.set $vi (f64x2.add (local.get $vo) (f64x2.mul (local.get $q) (local.get $fv)))))
          (else (local.set $vi (f64x2.add (f64x2.mul (local.get $L) (local.get $vo)) (f64x2.mul (local.get $q) (local.get $fv))))))
        (v128.store offset=${o} (i32.add (local.get $v) (local.get $i)) (local.get $vi))
        (local.set $n${k} (f64x2.add (local.get $xi) (f64x2.mul (local.get $D) (local.get $vi))))
        (v128.store offset=${o} (local.get $p) (local.get $n${k}))
        (local.set $d (f64x2.sub (local.get $n${k}) (v128.load offset=${o} (i32.add (local.get $x0) (local.get $i)))))
        (local.set $q${k} (f64x2.mul (local.get $d) (local.get $d)))`;
  // The odd atom's coordinate c (byte offset 8 c past $end) into $s<c> - x0's.
  const one = (c: number): string => `        (local.set $xs (f64.load offset=${8 * c} (local.get $p)))
        (if (local.get $keep) (then (f64.store offset=${8 * c} (i32.add (local.get $xo) (local.get $end)) (local.get $xs))))
        (local.set $hs (f64.load offset=${8 * c} (i32.add (local.get $h) (local.get $end))))
        (local.set $fs (f64.load offset=${8 * c} (i32.add (local.get $f) (local.get $end))))
        (local.set $vos (f64.load offset=${8 * c} (i32.add (local.get $v) (local.get $end))))
        (if (local.get $twice) (then (local.set $vos (f64.add (local.get $vos) (f64.mul (local.get $hs) (local.get $fs))))))
        (local.set $qs (f64.mul (local.get $scale) (local.get $hs)))
        (if (local.get $plain)
          (then (local.set $vs (f64.add (local.get $vos) (f64.mul (local.get $qs) (local.get $fs)))))
          (else (local.set $vs (f64.add (f64.mul (local.get $lambda) (local.get $vos)) (f64.mul (local.get $qs) (local.get $fs))))))
        (f64.store offset=${8 * c} (i32.add (local.get $v) (local.get $end)) (local.get $vs))
        (local.set $xs (f64.add (local.get $xs) (f64.mul (local.get $dt) (local.get $vs))))
        (f64.store offset=${8 * c} (local.get $p) (local.get $xs))
        (local.set $s${c} (f64.sub (local.get $xs) (f64.load offset=${8 * c} (i32.add (local.get $x0) (local.get $end)))))`;
  return `  (func (export "kickDriftMeasure")
    (param $x i32) (param $v i32) (param $xo i32) (param $h i32) (param $f i32) (param $atoms i32)
    (param $lambda f64) (param $scale f64) (param $dt f64) (param $keep i32) (param $plain i32) (param $twice i32) (param $x0 i32) (result f64)
    (local $i i32) (local $end i32) (local $p i32) (local $xi v128) (local $vi v128) (local $q v128) (local $L v128) (local $S v128) (local $D v128)
    (local $hv v128) (local $fv v128) (local $vo v128) (local $hs f64) (local $fs f64) (local $vos f64)
    (local $n0 v128) (local $n1 v128) (local $n2 v128) (local $q0 v128) (local $q1 v128) (local $q2 v128) (local $d v128) (local $m v128)
    (local $xs f64) (local $vs f64) (local $qs f64) (local $s0 f64) (local $s1 f64) (local $s2 f64) (local $r f64)
    (local.set $L (f64x2.splat (local.get $lambda)))
    (local.set $S (f64x2.splat (local.get $scale)))
    (local.set $D (f64x2.splat (local.get $dt)))
    (local.set $end (i32.mul (i32.and (local.get $atoms) (i32.const -2)) (i32.const 24)))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (local.get $end)))
        (local.set $p (i32.add (local.get $x) (local.get $i)))
${vec(0, 0)}
${vec(1, 16)}
${vec(2, 32)}
${maxOfPair('$q0', '$q1', '$q2')}
        (local.set $i (i32.add (local.get $i) (i32.const 48)))
        (br $next)))
    (local.set $r (f64.max (f64x2.extract_lane 0 (local.get $m)) (f64x2.extract_lane 1 (local.get $m))))
    (if (i32.and (local.get $atoms) (i32.const 1))
      (then
        (local.set $p (i32.add (local.get $x) (local.get $end)))
${one(0)}
${one(1)}
${one(2)}
        (local.set $r (f64.max (local.get $r)
          (f64.add (f64.add (f64.mul (local.get $s0) (local.get $s0)) (f64.mul (local.get $s1) (local.get $s1))) (f64.mul (local.get $s2) (local.get $s2)))))))
    (local.get $r))`;
}

/**
 * kick(v, h3, f, n): runtime/md/engine.ts kick (velocity Verlet's second half kick) over n
 * numbers, two per vector: v = v + h F, h3 being dt/(2m) per coordinate.
 */
const KICK = `  (func (export "kick") (param $v i32) (param $h i32) (param $f i32) (param $n i32)
    (local $i i32) (local $end i32)
    (local.set $end (i32.shl (i32.and (local.get $n) (i32.const -2)) (i32.const 3)))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (local.get $end)))
        (v128.store (i32.add (local.get $v) (local.get $i)) (f64x2.add (v128.load (i32.add (local.get $v) (local.get $i)))
          (f64x2.mul (v128.load (i32.add (local.get $h) (local.get $i))) (v128.load (i32.add (local.get $f) (local.get $i))))))
        (local.set $i (i32.add (local.get $i) (i32.const 16)))
        (br $next)))
    (if (i32.and (local.get $n) (i32.const 1))
      (then
        (f64.store (i32.add (local.get $v) (local.get $end)) (f64.add (f64.load (i32.add (local.get $v) (local.get $end)))
          (f64.mul (f64.load (i32.add (local.get $h) (local.get $end))) (f64.load (i32.add (local.get $f) (local.get $end)))))))))`;

/**
 * The per-step transfers between the engine's arrays and a md-nonbonded wasm kernel's layout
 * (runtime/md/wasm.ts writePositions and gatherWasmForces, in WebAssembly): an instance of this
 * module on the kernel instance's memory runs them there (runtime/md/wasm.ts WasmMd.positions,
 * forcesToAtoms). The kernel layout holds 4-slot blocks: positions at 24 reals per block (x[4]
 * y[4] z[4] ...), forces at 12 (fx[4] fy[4] fz[4]), reals of 4 bytes (f32) or 8 (f64).
 * - slots<T>(x, atomOf, off, out, np): slot p < np of atom a = atomOf[p] >= 0 gets x[3a + k] +
 *   off[3p + k] (f64, then rounded to T once, as a typed-array store rounds it); dummy slots keep theirs.
 * - atoms<T>(fb, slotOf, f, n): f[3a + k] = the force of slot slotOf[a] (widened to f64), a < n.
 * - atomsF32ToF32(fb, slotOf, f, n): the same from an f32 layout into f32 (the kernel's own numbers,
 *   half the bytes: what a worker thread hands over for the force sums, runtime/parallel/md.ts).
 */
function transfers(): string {
  return (['f32', 'f64'] as const).map((t) => {
    const rb = t === 'f32' ? 4 : 8;
    const shift = t === 'f32' ? 2 : 3;
    const st = (k: number, v: string) => `(${t}.store offset=${16 * (rb / 4) * k} (local.get $b) ${t === 'f32' ? `(f32.demote_f64 ${v})` : v})`;
    return `  (func (export "slots${t.toUpperCase()}") (param $x i32) (param $atomOf i32) (param $off i32) (param $out i32) (param $np i32)
    (local $p i32) (local $a i32) (local $b i32) (local $o i32) (local $s i32)
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $p) (local.get $np)))
        (local.set $a (i32.load (i32.add (local.get $atomOf) (i32.shl (local.get $p) (i32.const 2)))))
        (if (i32.ge_s (local.get $a) (i32.const 0))
          (then
            (local.set $b (i32.add (local.get $out) (i32.add (i32.mul (i32.shr_u (local.get $p) (i32.const 2)) (i32.const ${24 * rb})) (i32.shl (i32.and (local.get $p) (i32.const 3)) (i32.const ${shift})))))
            (local.set $o (i32.add (local.get $off) (i32.mul (local.get $p) (i32.const 24))))
            (local.set $s (i32.add (local.get $x) (i32.mul (local.get $a) (i32.const 24))))
            ${st(0, '(f64.add (f64.load (local.get $s)) (f64.load (local.get $o)))')}
            ${st(1, '(f64.add (f64.load offset=8 (local.get $s)) (f64.load offset=8 (local.get $o)))')}
            ${st(2, '(f64.add (f64.load offset=16 (local.get $s)) (f64.load offset=16 (local.get $o)))')}))
        (local.set $p (i32.add (local.get $p) (i32.const 1)))
        (br $next))))
${atomsFunc(`atoms${t.toUpperCase()}`, t, 'f64')}${t === 'f32' ? `\n${atomsFunc('atomsF32ToF32', 'f32', 'f32')}` : ''}`;
  }).join('\n');
}

/**
 * The gather of forces into atom order (transfers' atoms<T> and atomsF32ToF32): from a layout of
 * reals `t` (12 per 4-slot block: fx[4] fy[4] fz[4]) into 3 reals `out` per atom, by slotOf;
 * f32 into f64 widens exactly.
 */
function atomsFunc(name: string, t: 'f32' | 'f64', out: 'f32' | 'f64'): string {
  const rb = t === 'f32' ? 4 : 8;
  const ob = out === 'f32' ? 4 : 8;
  const ld = (k: number) => (t === out ? `(${t}.load offset=${4 * rb * k} (local.get $b))` : `(f64.promote_f32 (f32.load offset=${16 * k} (local.get $b)))`);
  return `  (func (export "${name}") (param $fb i32) (param $slotOf i32) (param $f i32) (param $n i32)
    (local $a i32) (local $p i32) (local $b i32) (local $d i32)
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $a) (local.get $n)))
        (local.set $p (i32.load (i32.add (local.get $slotOf) (i32.shl (local.get $a) (i32.const 2)))))
        (local.set $b (i32.add (local.get $fb) (i32.add (i32.mul (i32.shr_u (local.get $p) (i32.const 2)) (i32.const ${12 * rb})) (i32.shl (i32.and (local.get $p) (i32.const 3)) (i32.const ${t === 'f32' ? 2 : 3})))))
        (local.set $d (i32.add (local.get $f) (i32.mul (local.get $a) (i32.const ${3 * ob}))))
        (${out}.store (local.get $d) ${ld(0)})
        (${out}.store offset=${ob} (local.get $d) ${ld(1)})
        (${out}.store offset=${2 * ob} (local.get $d) ${ld(2)})
        (local.set $a (i32.add (local.get $a) (i32.const 1)))
        (br $next))))`;
}

/** The committed module runtime/md/settle-simd-bytes.ts: the assembled bytes in base64, and the text's sha256. */
export async function settleBytesModule(): Promise<string> {
  const texts = [settleWat(), settleWat(true)];
  const b64 = await Promise.all(texts.map(async (t) => Buffer.from(await assembleWat('md-settle.wat', t)).toString('base64')));
  const constant = (name: string, s: string): string => {
    const lines = s.match(/.{1,100}/g) ?? [];
    return `export const ${name} =\n${lines.map((l, i) => `  '${l}'${i < lines.length - 1 ? ' +' : ';'}`).join('\n')}\n`;
  };
  return `// SETTLE in WebAssembly SIMD (two molecules per f64x2): generated by generator/md-settle-wat.ts
// (\`npm run settle-wasm\`); do not edit. The texts' sha256: ${texts.map((t) => createHash('sha256').update(t).digest('hex')).join(', ')}.
${constant('SETTLE_SIMD_WASM', b64[0]!)}
/** The same module on an imported shared memory (settleWat(true)). */
${constant('SETTLE_SIMD_SHARED_WASM', b64[1]!)}`;
}

/**
 * The guard's and the displacement check's passes (runtime/md/engine.ts forcesWithin,
 * runtime/md/sanity.ts maxDisplacement2): sumSq(f, n), the sum of the squares of n numbers in
 * four chains (a bound only: the exact check stays in TypeScript); maxDisp2(x, x0, nAtoms), the
 * largest squared distance of an atom between x and x0, each atom's (dx dx + dy dy) + dz dz as
 * maxDisplacement2 rounds it, NaN when any is NaN.
 */
const CHECKS = `  (func (export "sumSq") (param $f i32) (param $n i32) (result f64)
    (local $i i32) (local $end i32) (local $s0 v128) (local $s1 v128) (local $a v128) (local $b v128) (local $t f64)
    (local.set $end (i32.shl (i32.and (local.get $n) (i32.const -4)) (i32.const 3)))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (local.get $end)))
        (local.set $a (v128.load (i32.add (local.get $f) (local.get $i))))
        (local.set $b (v128.load offset=16 (i32.add (local.get $f) (local.get $i))))
        (local.set $s0 (f64x2.add (local.get $s0) (f64x2.mul (local.get $a) (local.get $a))))
        (local.set $s1 (f64x2.add (local.get $s1) (f64x2.mul (local.get $b) (local.get $b))))
        (local.set $i (i32.add (local.get $i) (i32.const 32)))
        (br $next)))
    (local.set $end (i32.shl (local.get $n) (i32.const 3)))
    (block $tail
      (loop $more
        (br_if $tail (i32.ge_u (local.get $i) (local.get $end)))
        (local.set $t (f64.load (i32.add (local.get $f) (local.get $i))))
        (local.set $s0 (f64x2.replace_lane 0 (local.get $s0) (f64.add (f64x2.extract_lane 0 (local.get $s0)) (f64.mul (local.get $t) (local.get $t)))))
        (local.set $i (i32.add (local.get $i) (i32.const 8)))
        (br $more)))
    (local.set $s0 (f64x2.add (local.get $s0) (local.get $s1)))
    (f64.add (f64x2.extract_lane 0 (local.get $s0)) (f64x2.extract_lane 1 (local.get $s0))))
  (func (export "maxDisp2") (param $x i32) (param $x0 i32) (param $atoms i32) (result f64)
    (local $i i32) (local $end i32) (local $q1 v128) (local $q2 v128) (local $q3 v128) (local $d v128) (local $m v128)
    (local $a f64) (local $b f64) (local $c f64) (local $r f64)
    (local.set $end (i32.mul (i32.and (local.get $atoms) (i32.const -2)) (i32.const 24)))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (local.get $end)))
        (local.set $d (f64x2.sub (v128.load (i32.add (local.get $x) (local.get $i))) (v128.load (i32.add (local.get $x0) (local.get $i)))))
        (local.set $q1 (f64x2.mul (local.get $d) (local.get $d)))
        (local.set $d (f64x2.sub (v128.load offset=16 (i32.add (local.get $x) (local.get $i))) (v128.load offset=16 (i32.add (local.get $x0) (local.get $i)))))
        (local.set $q2 (f64x2.mul (local.get $d) (local.get $d)))
        (local.set $d (f64x2.sub (v128.load offset=32 (i32.add (local.get $x) (local.get $i))) (v128.load offset=32 (i32.add (local.get $x0) (local.get $i)))))
        (local.set $q3 (f64x2.mul (local.get $d) (local.get $d)))
${maxOfPair('$q1', '$q2', '$q3')}
        (local.set $i (i32.add (local.get $i) (i32.const 48)))
        (br $next)))
    (local.set $r (f64.max (f64x2.extract_lane 0 (local.get $m)) (f64x2.extract_lane 1 (local.get $m))))
    (if (i32.and (local.get $atoms) (i32.const 1))
      (then
        (local.set $a (f64.sub (f64.load (i32.add (local.get $x) (local.get $end))) (f64.load (i32.add (local.get $x0) (local.get $end)))))
        (local.set $b (f64.sub (f64.load offset=8 (i32.add (local.get $x) (local.get $end))) (f64.load offset=8 (i32.add (local.get $x0) (local.get $end)))))
        (local.set $c (f64.sub (f64.load offset=16 (i32.add (local.get $x) (local.get $end))) (f64.load offset=16 (i32.add (local.get $x0) (local.get $end)))))
        (local.set $r (f64.max (local.get $r)
          (f64.add (f64.add (f64.mul (local.get $a) (local.get $a)) (f64.mul (local.get $b) (local.get $b))) (f64.mul (local.get $c) (local.get $c)))))))
    (local.get $r))`;
