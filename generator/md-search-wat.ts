// The inner scan of the MD pair search (runtime/md/clusters.ts searchColumn) in WebAssembly SIMD
// (issue 16): for one i-cluster image and one grid column, the z window of j-clusters, the
// bounding-box distances two j boxes per f64x2 vector and, for boxes between rBB and rlist, the
// atom-pair prune (one i atom against two j atoms per vector). The same operations in the same
// order on every number as the TypeScript search (gaps by the same comparisons, (gx gx + gy gy) +
// gz gz, (dx dx + dy dy) + dz dz; WebAssembly f64 arithmetic is IEEE without contraction), so the
// same list. `npm run search-wasm` (scripts/search-wasm.ts) assembles the text with wabt into
// runtime/md/search-simd-bytes.ts, which is committed; test/runtime/search-simd.test.ts checks the
// committed bytes are this text's.
//
// Export `groupN<N>(bb, nj, xj, ix, out, full, exclJ, jdum, cols, k0, k1, jmin, jself, ci, fast, M, zlo,
// ilx, ily, ilz, ihx, ihy, ihz, rl2, rbb2, margin) -> entries`: one i-cluster image against the
// grid columns k0..k1-1 of one shift (cols: 48 bytes per column: f64 x lo, x hi, y lo, y hi; i32
// cursor, one past the last j-cluster), in searchColumn's order: the column's x/y gap, its cursor
// moved past the j-clusters below zlo (and stored), the z window, the box tests and the prune.
// bb: six f64 arrays of nj + 2 numbers (lo x, y, z, hi x, y, z per j-cluster); xj: per j-cluster
// N x, N y, N z (f64); ix: the i atoms with the shift (x, y, z per atom); exclJ: i32 per
// j-cluster (the i-cluster that has an excluded partner there); jdum: u8 per j-cluster, 1 when its
// last atom is a dummy; full: the full entries (all atoms real, no exclusion, not the self pair,
// within rlist), their count stored as an i32 at byte 4; out: two i32 per entry that TypeScript
// finishes: 4 j + kind (1: within not known, 2: boxes within rBB) and the full entries before it;
// returns their count. fast: all M i atoms real.
// The box tests made are stored as an i32 at byte 0.
import { createHash } from 'node:crypto';
import { assembleWat } from './post.ts';

/** The j-cluster sizes with a scan function. */
export const SEARCH_SIMD_N = [2, 4, 8] as const;

/** Append (j, a, b) as three i32 to the 12-byte records at $arr and count it in $count. */
function record(arr: string, count: string, a: string, b: string): string {
  const at = '              ';
  return [
    `(local.set $p (i32.add (local.get $${arr}) (i32.mul (local.get $${count}) (i32.const 12))))`,
    '(i32.store (local.get $p) (local.get $j))',
    `(i32.store offset=4 (local.get $p) (local.get $${a}))`,
    `(i32.store offset=8 (local.get $p) (local.get $${b}))`,
    `(local.set $${count} (i32.add (local.get $${count}) (i32.const 1)))`,
  ].map((l) => at + l).join('\n');
}

function scanFunc(N: number): string {
  const nv = N / 2;
  // f32x4 vectors per j-cluster coordinate for the single-precision pre-test (none for N = 2).
  const nf = N >= 4 ? N / 4 : 0;
  // The pre-test: the smallest d^2 per lane over the i atoms, in f32 from coordinates rounded to
  // f32 (i atoms as splats at ixs, 48 bytes each; j atoms at xjf, N x, N y, N z per cluster). Below
  // lo some pair is within rlist for certain, at or above hi none is; lo and hi leave more room
  // than the f32 rounding can move d^2 (searchWorkspace's bounds), so a decision here is the one the
  // f64 test would make. In between, the f64 test decides. pmin keeps the minimum where a d^2 is NaN, as the
  // f64 test ignores a NaN pair.
  const prefilter = (l: number) => `              (local.set $p (i32.add (local.get $xjf) (i32.mul (local.get $j) (i32.const ${12 * N}))))
${Array.from({ length: 3 * nf }, (_, k) => `              (local.set $f${k} (v128.load offset=${16 * k} (local.get $p)))`).join('\n')}
              (local.set $mn (v128.const f32x4 inf inf inf inf))
              (local.set $aEnd (local.get $nI))
              (local.set $a (local.get $ixs))
              (loop $fatoms
                (local.set $ax (v128.load (local.get $a)))
                (local.set $ay (v128.load offset=16 (local.get $a)))
                (local.set $az (v128.load offset=32 (local.get $a)))
${Array.from({ length: nf }, (_, v) => `                (local.set $dx (f32x4.sub (local.get $ax) (local.get $f${v})))
                (local.set $dy (f32x4.sub (local.get $ay) (local.get $f${nf + v})))
                (local.set $dz (f32x4.sub (local.get $az) (local.get $f${2 * nf + v})))
                (local.set $mn (f32x4.pmin (local.get $mn) (f32x4.add (f32x4.add (f32x4.mul (local.get $dx) (local.get $dx)) (f32x4.mul (local.get $dy) (local.get $dy))) (f32x4.mul (local.get $dz) (local.get $dz)))))`).join('\n')}
                (local.set $a (i32.add (local.get $a) (i32.const 48)))
                (local.set $aEnd (i32.sub (local.get $aEnd) (i32.const 1)))
                (br_if $fatoms (local.get $aEnd))
              )
              (br_if $found (v128.any_true (f32x4.lt (local.get $mn) (local.get $lov))))
              (br_if $skip${l} (i32.eqz (v128.any_true (f32x4.lt (local.get $mn) (local.get $hiv)))))`;
  const ld = (arr: number, j: string) => `(v128.load (i32.add (local.get $b${arr}) (i32.shl ${j} (i32.const 3))))`;
  const ldz = (arr: number, j: string) => `(f64.load (i32.add (local.get $b${arr}) (i32.shl ${j} (i32.const 3))))`;
  // gap = jl > ih ? jl - ih : il > jh ? il - jh : 0 (lanes: two j boxes)
  const gap = (d: number, il: string, ih: string) => {
    const jl = `(local.get $jl${d})`, jh = `(local.get $jh${d})`;
    return `(local.set $jl${d} ${ld(d, '(local.get $j)')})
        (local.set $jh${d} ${ld(d + 3, '(local.get $j)')})
        (local.set $g${d} (v128.bitselect (f64x2.sub ${jl} (local.get $${ih})) (v128.bitselect (f64x2.sub (local.get $${il}) ${jh}) (v128.const i64x2 0 0) (f64x2.gt (local.get $${il}) ${jh})) (f64x2.gt ${jl} (local.get $${ih}))))`;
  };
  // One lane's entry: box test, kind, prune.
  const lane = (l: number) => `
        (br_if $done (i32.ge_u (local.get $j) (local.get $j1)))
        (br_if $done (f64.gt ${ldz(2, '(local.get $j)')} (local.get $zhi)))
        (local.set $checks (i32.add (local.get $checks) (i32.const 1)))
        (local.set $d2 (f64x2.extract_lane ${l} (local.get $d2v)))
        (block $skip${l}
          (br_if $skip${l} (f64.ge (local.get $d2) (local.get $rl2)))
          ;; the self pair: finished in TypeScript, with its place among the full and masked entries
          (if (i32.lt_u (local.get $j) (local.get $jself))
            (then
${record('out', 'n', 'nf', 'nm')}
              (br $skip${l})
            )
          )
          ;; the pairs of real atoms, less the excluded ones
          (local.set $p (i32.add (local.get $rrow) (i32.shl (i32.load8_u (i32.add (local.get $jn) (local.get $j))) (i32.const 3))))
          (local.set $m0 (i32.load (local.get $p)))
          (local.set $m1 (i32.load offset=4 (local.get $p)))
          (if (i32.eq (i32.load (i32.add (local.get $exclJ) (i32.shl (local.get $j) (i32.const 2)))) (local.get $ci))
            (then
              (local.set $p (i32.add (local.get $exm) (i32.shl (local.get $j) (i32.const 3))))
              (local.set $m0 (i32.and (local.get $m0) (i32.xor (i32.load (local.get $p)) (i32.const -1))))
              (local.set $m1 (i32.and (local.get $m1) (i32.xor (i32.load offset=4 (local.get $p)) (i32.const -1))))
            )
          )
          (if (i32.eqz (f64.lt (local.get $d2) (local.get $rbb2)))
            (then
            ;; every i atom against the j atoms, one decision at the end: no branch on the
            ;; data in the loop (an exit at the first pair within rlist cost more in mispredicted
            ;; branches than it saved: 42% of the pruned cluster pairs pass)
            (block $found
${nf > 0 ? prefilter(l) : ''}
            (local.set $p (i32.add (local.get $xj) (i32.mul (local.get $j) (i32.const ${24 * N}))))
${Array.from({ length: 3 * nv }, (_, k) => `                  (local.set $x${k} (v128.load offset=${16 * k} (local.get $p)))`).join('\n')}
            (local.set $aEnd (local.get $nI))
            (local.set $a (local.get $ix))
            (local.set $hit (v128.const i64x2 0 0))
              (loop $atoms
                (local.set $ax (f64x2.splat (f64.load (local.get $a))))
                (local.set $ay (f64x2.splat (f64.load offset=8 (local.get $a))))
                (local.set $az (f64x2.splat (f64.load offset=16 (local.get $a))))
${Array.from({ length: nv }, (_, v) => `                      (local.set $dx (f64x2.sub (local.get $ax) (local.get $x${v})))
                (local.set $dy (f64x2.sub (local.get $ay) (local.get $x${nv + v})))
                (local.set $dz (f64x2.sub (local.get $az) (local.get $x${2 * nv + v})))
                (local.set $hit (v128.or (local.get $hit) (f64x2.lt (f64x2.add (f64x2.add (f64x2.mul (local.get $dx) (local.get $dx)) (f64x2.mul (local.get $dy) (local.get $dy))) (f64x2.mul (local.get $dz) (local.get $dz))) (local.get $rl2v))))`).join('\n')}
                (local.set $a (i32.add (local.get $a) (i32.const 24)))
                (local.set $aEnd (i32.sub (local.get $aEnd) (i32.const 1)))
                (br_if $atoms (local.get $aEnd))
              )
                (br_if $found (v128.any_true (local.get $hit)))
                (br $skip${l})
              )
            )
          )
          (if (i32.and (i32.eq (local.get $m0) (local.get $full0)) (i32.eq (local.get $m1) (local.get $full1)))
            (then
              (i32.store (i32.add (local.get $full) (i32.shl (local.get $nf) (i32.const 2))) (local.get $j))
              (local.set $nf (i32.add (local.get $nf) (i32.const 1)))
            )
            (else
${record('msk', 'nm', 'm0', 'm1')}
            )
          )
        )
        (local.set $j (i32.add (local.get $j) (i32.const 1)))`;
  const xs = Array.from({ length: 3 * nv }, (_, k) => `(local $x${k} v128)`).join(' ');
  return `  (func (export "groupN${N}") (param $bb i32) (param $nj i32) (param $xj i32) (param $ix i32) (param $out i32) (param $full i32) (param $msk i32) (param $exclJ i32) (param $exm i32) (param $jn i32)
    (param $cols i32) (param $k0 i32) (param $k1 i32) (param $jmin i32) (param $jself i32) (param $ci i32) (param $nI i32) (param $rrow i32) (param $full0 i32) (param $full1 i32)
    (param $zlo f64) (param $ilx f64) (param $ily f64) (param $ilz f64) (param $ihx f64) (param $ihy f64) (param $ihz f64)
    (param $rl2 f64) (param $rbb2 f64) (param $margin f64) (param $xjf i32) (param $ixs i32) (param $lo f32) (param $hi f32) (result i32)
    (local $j i32) (local $j1 i32) (local $kp i32) (local $kEnd i32) (local $zloC f64) (local $zhi f64) (local $dxy2 f64) (local $gcx f64) (local $gcy f64) (local $cxl f64) (local $cxh f64) (local $cyl f64) (local $cyh f64)
    (local $stride i32) (local $b0 i32) (local $b1 i32) (local $b2 i32) (local $b3 i32) (local $b4 i32) (local $b5 i32) (local $n i32) (local $nf i32) (local $nm i32) (local $m0 i32) (local $m1 i32) (local $checks i32) (local $self i32) (local $within i32) (local $p i32) (local $a i32) (local $aEnd i32)
    (local $d2 f64) (local $d2v v128) (local $rl2v v128) (local $hit v128) (local $ax v128) (local $ay v128) (local $az v128)
    (local $dx v128) (local $dy v128) (local $dz v128) ${xs}
    (local $mn v128) (local $lov v128) (local $hiv v128)${Array.from({ length: 3 * nf }, (_, k) => ` (local $f${k} v128)`).join('')}
    (local $il0 v128) (local $il1 v128) (local $il2 v128) (local $ih0 v128) (local $ih1 v128) (local $ih2 v128)
    (local $jl0 v128) (local $jl1 v128) (local $jl2 v128) (local $jh0 v128) (local $jh1 v128) (local $jh2 v128)
    (local $g0 v128) (local $g1 v128) (local $g2 v128)
    (local.set $stride (i32.shl (i32.add (local.get $nj) (i32.const 2)) (i32.const 3)))
    (local.set $b0 (i32.add (local.get $bb) (i32.mul (local.get $stride) (i32.const 0))))
    (local.set $b1 (i32.add (local.get $bb) (i32.mul (local.get $stride) (i32.const 1))))
    (local.set $b2 (i32.add (local.get $bb) (i32.mul (local.get $stride) (i32.const 2))))
    (local.set $b3 (i32.add (local.get $bb) (i32.mul (local.get $stride) (i32.const 3))))
    (local.set $b4 (i32.add (local.get $bb) (i32.mul (local.get $stride) (i32.const 4))))
    (local.set $b5 (i32.add (local.get $bb) (i32.mul (local.get $stride) (i32.const 5))))
    (local.set $rl2v (f64x2.splat (local.get $rl2)))
    (local.set $lov (f32x4.splat (local.get $lo)))
    (local.set $hiv (f32x4.splat (local.get $hi)))
    (local.set $il0 (f64x2.splat (local.get $ilx)))
    (local.set $il1 (f64x2.splat (local.get $ily)))
    (local.set $il2 (f64x2.splat (local.get $ilz)))
    (local.set $ih0 (f64x2.splat (local.get $ihx)))
    (local.set $ih1 (f64x2.splat (local.get $ihy)))
    (local.set $ih2 (f64x2.splat (local.get $ihz)))
    (local.set $kp (i32.add (local.get $cols) (i32.mul (local.get $k0) (i32.const 48))))
    (local.set $kEnd (i32.add (local.get $cols) (i32.mul (local.get $k1) (i32.const 48))))
    (block $cols
      (loop $col
        (br_if $cols (i32.ge_u (local.get $kp) (local.get $kEnd)))
        (block $nextcol
          ;; the column's x/y gap to the i box (as in TypeScript: the same comparisons)
          (local.set $cxl (f64.load (local.get $kp)))
          (local.set $cxh (f64.load offset=8 (local.get $kp)))
          (local.set $cyl (f64.load offset=16 (local.get $kp)))
          (local.set $cyh (f64.load offset=24 (local.get $kp)))
          (local.set $gcx (select (f64.sub (local.get $cxl) (local.get $ihx)) (select (f64.sub (local.get $ilx) (local.get $cxh)) (f64.const 0) (f64.gt (local.get $ilx) (local.get $cxh))) (f64.gt (local.get $cxl) (local.get $ihx))))
          (local.set $gcy (select (f64.sub (local.get $cyl) (local.get $ihy)) (select (f64.sub (local.get $ily) (local.get $cyh)) (f64.const 0) (f64.gt (local.get $ily) (local.get $cyh))) (f64.gt (local.get $cyl) (local.get $ihy))))
          (local.set $dxy2 (f64.add (f64.mul (local.get $gcx) (local.get $gcx)) (f64.mul (local.get $gcy) (local.get $gcy))))
          (br_if $nextcol (f64.ge (local.get $dxy2) (local.get $rl2)))
          (local.set $j1 (i32.load offset=36 (local.get $kp)))
          (br_if $nextcol (i32.le_s (local.get $j1) (local.get $jmin)))
          ;; the cursor past the j-clusters entirely below the i box
          (local.set $j (i32.load offset=32 (local.get $kp)))
          (block $below
            (loop $up
              (br_if $below (i32.ge_s (local.get $j) (local.get $j1)))
              (br_if $below (i32.eqz (f64.lt ${ldz(5, '(local.get $j)')} (local.get $zlo))))
              (local.set $j (i32.add (local.get $j) (i32.const 1)))
              (br $up)
            )
          )
          (i32.store offset=32 (local.get $kp) (local.get $j))
          (if (i32.lt_s (local.get $j) (local.get $jmin)) (then (local.set $j (local.get $jmin))))
          ;; the z window within rlist of the i box
          (local.set $dxy2 (f64.add (f64.sqrt (f64.sub (local.get $rl2) (local.get $dxy2))) (local.get $margin)))
          (local.set $zloC (f64.sub (local.get $ilz) (local.get $dxy2)))
          (local.set $zhi (f64.add (local.get $ihz) (local.get $dxy2)))
          ;; the j-clusters entirely below the window
          (block $low
            (loop $skip
              (br_if $low (i32.ge_u (local.get $j) (local.get $j1)))
              (br_if $low (i32.eqz (f64.lt ${ldz(5, '(local.get $j)')} (local.get $zloC))))
              (local.set $j (i32.add (local.get $j) (i32.const 1)))
              (br $skip)
            )
          )
          (block $done
            (loop $pairs
              (br_if $done (i32.ge_u (local.get $j) (local.get $j1)))
              ${gap(0, 'il0', 'ih0')}
              ${gap(1, 'il1', 'ih1')}
              ${gap(2, 'il2', 'ih2')}
              (local.set $d2v (f64x2.add (f64x2.add (f64x2.mul (local.get $g0) (local.get $g0)) (f64x2.mul (local.get $g1) (local.get $g1))) (f64x2.mul (local.get $g2) (local.get $g2))))
      ${lane(0)}
      ${lane(1)}
              (br $pairs)
            )
          )
        )
        (local.set $kp (i32.add (local.get $kp) (i32.const 48)))
        (br $col)
      )
    )
    (i32.store (i32.const 0) (local.get $checks))
    (i32.store (i32.const 4) (local.get $nf))
    (i32.store (i32.const 8) (local.get $nm))
    (local.get $n)
  )`;
}

/** The module's text: one scan function per j-cluster size, on an imported memory. */
export function searchWat(): string {
  return `(module
  (import "env" "memory" (memory 1))
${SEARCH_SIMD_N.map(scanFunc).join('\n')}
)
`;
}

/** runtime/md/search-simd-bytes.ts: the assembled module in base64. */
export async function searchBytesModule(): Promise<string> {
  const text = searchWat();
  const bytes = await assembleWat('md-search.wat', text);
  const b64 = Buffer.from(bytes).toString('base64');
  const lines = b64.match(/.{1,100}/g) ?? [];
  return `// The MD pair search's inner scan in WebAssembly SIMD: generated by generator/md-search-wat.ts
// (\`npm run search-wasm\`); do not edit. The text's sha256: ${createHash('sha256').update(text).digest('hex')}.
export const SEARCH_SIMD_WASM =
${lines.map((l, i) => `  '${l}'${i < lines.length - 1 ? ' +' : ';'}`).join('\n')}
`;
}
