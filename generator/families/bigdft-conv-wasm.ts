// Render context of the bigdft-conv WebAssembly SIMD target (templates/wasm/bigdft-conv): one
// transposing 1-D pass (separable-t, Eq. 3) in f64x2 arithmetic. Each group of lines is first
// copied into a per-thread scratch row with its halo (periodic: the wrapped points; free:
// zeros), so the unrolled blocks read without any index arithmetic. Two vector schemes:
//   lines:   a v128 holds the same position of two lines (the scratch row interleaves them);
//            the block's outputs are stored as pairs y[i*m + j .. j+1], no shuffles;
//   shifted: a v128 holds two neighbouring positions of one line (aligned pair loads), the
//            filter as two copies shifted by one tap (the paper's SSE scheme, Fig. 2): each
//            output sums its pairs, then one horizontal add (two shuffles for two lines).
// The templates print the instruction lists built here.
import type { Variant } from '../space.ts';
import type { Filter } from './bigdft-filters.ts';

type Simd = 'lines' | 'shifted';

/** A WAT f64 literal that reads back as exactly v (hexadecimal float). */
export function watF64(v: number): string {
  if (v === 0) return Object.is(v, -0) ? '-0x0p+0' : '0x0p+0';
  const b = new DataView(new ArrayBuffer(8));
  b.setFloat64(0, v);
  const hi = b.getUint32(0);
  const lo = b.getUint32(4);
  const sign = hi >>> 31 ? '-' : '';
  const exp = (hi >>> 20) & 0x7ff;
  const mant = ((BigInt(hi & 0xfffff) << 32n) | BigInt(lo)).toString(16).padStart(13, '0');
  if (exp === 0) return `${sign}0x0.${mant}p-1022`;
  if (exp === 0x7ff) throw new Error(`filter coefficient ${v} is not finite`);
  return `${sign}0x1.${mant}p${exp - 1023 >= 0 ? '+' : ''}${exp - 1023}`;
}

/** Bytes of the coefficient table at address 0 (coeffs: array); the runtime keeps [0, RESERVED) free. */
export const WASM_RESERVED = 1024;

interface Coefs {
  /** The v128 operand of coefficient vector (lo, hi). */
  operand(lo: number, hi: number): string;
  /** Data segment text of the table (array mode), '' for inline. */
  data(): string;
}

function coefs(inline: boolean): Coefs {
  const table: [number, number][] = [];
  const index = new Map<string, number>();
  return {
    operand(lo, hi) {
      if (inline) return `(v128.const f64x2 ${watF64(lo)} ${watF64(hi)})`;
      const id = `${lo},${hi}`;
      if (!index.has(id)) {
        index.set(id, table.length);
        table.push([lo, hi]);
      }
      return `(v128.load offset=${16 * index.get(id)!} (i32.const 0))`;
    },
    data() {
      if (table.length * 16 > WASM_RESERVED) throw new Error(`coefficient table of ${table.length * 16} bytes exceeds the reserved ${WASM_RESERVED}`);
      const d = new DataView(new ArrayBuffer(16 * table.length));
      table.forEach(([lo, hi], t) => {
        d.setFloat64(16 * t, lo, true);
        d.setFloat64(16 * t + 8, hi, true);
      });
      return Array.from(new Uint8Array(d.buffer), (x) => `\\${x.toString(16).padStart(2, '0')}`).join('');
    },
  };
}

const get = (l: string): string => `(local.get $${l})`;
const addr = (base: string, extra?: string): string => (extra ? `(i32.add ${get(base)} ${get(extra)})` : get(base));

interface BlockOpts {
  f: Filter;
  simd: Simd;
  /** Positions along the line. */
  C: number;
  /** Lines: lines mode 1 (one line duplicated in both lanes) or even; shifted any. */
  L: number;
  kinetic: boolean;
  co: Coefs;
}

/** Scratch groups of a block: lines mode pairs of lines (one for L = 1), shifted mode single lines. */
const groupsOf = (simd: Simd, L: number): number => (simd === 'lines' ? Math.max(1, L / 2) : L);

/** One unrolled block of C positions x L lines: the instruction list, then the stores. */
function block(o: BlockOpts): string[] {
  const { f, simd, C, L, kinetic, co } = o;
  const G = groupsOf(simd, L);
  const out: string[] = [];
  const acc = (c: number, g: number): string => `a${c}_${g}`;
  const upd = (a: string, coef: string): string => `(local.set $${a} (f64x2.add ${get(a)} (f64x2.mul (local.get $v) ${coef})))`;
  for (let g = 0; g < G; g++) for (let c = 0; c < C; c++) out.push(`(local.set $${acc(c, g)} (v128.const i64x2 0 0))`);
  const mc = (c: number): string | undefined => (c === 0 ? undefined : `mc${c}`);
  for (let g = 0; g < G; g++) {
    if (simd === 'lines') {
      for (let p = 0; p < C + f.taps - 1; p++) {
        out.push(`(local.set $v (v128.load offset=${16 * p} ${get(`sb${g}`)}))`);
        for (let c = 0; c < C; c++) {
          const k = p - c;
          const w = f.coefficients[k];
          if (w !== undefined) out.push(upd(acc(c, g), co.operand(w, w)));
        }
      }
    } else {
      // pair q covers positions 2q, 2q+1 of the block's window; output c takes taps 2q - c and 2q + 1 - c
      for (let q = 0; q < Math.ceil((C + f.taps - 1) / 2); q++) {
        out.push(`(local.set $v (v128.load offset=${16 * q} ${get(`sb${g}`)}))`);
        for (let c = 0; c < C; c++) {
          const lo = f.coefficients[2 * q - c];
          const hi = f.coefficients[2 * q + 1 - c];
          if (lo !== undefined || hi !== undefined) out.push(upd(acc(c, g), co.operand(lo ?? 0, hi ?? 0)));
        }
      }
    }
  }
  // stores: y[(i + c)*m + j + line] (yb advances with i and j); kinetic adds yin^T and writes xt
  const self = -f.offset; // scratch position of the output point itself
  const scale = (v: string): string => (kinetic ? `(f64x2.add $YIN (f64x2.mul (local.get $sc) ${v}))` : v);
  for (let c = 0; c < C; c++) {
    const ya = addr('yb', mc(c));
    const xa = addr('xb', mc(c));
    if (simd === 'lines') {
      for (let g = 0; g < G; g++) {
        const yin = `(v128.load64_lane offset=${8 * c} 1 ${get(`yq${g}`)} (v128.load64_splat offset=${8 * c} ${get(`yp${g}`)}))`;
        const val = scale(get(acc(c, g))).replace('$YIN', yin);
        const xv = `(v128.load offset=${16 * (c + self)} ${get(`sb${g}`)})`;
        if (L === 1) {
          out.push(`(f64.store ${ya} (f64x2.extract_lane 0 ${val}))`);
          if (kinetic) out.push(`(f64.store ${xa} (f64x2.extract_lane 0 ${xv}))`);
        } else {
          out.push(`(v128.store offset=${16 * g} ${ya} ${val})`);
          if (kinetic) out.push(`(v128.store offset=${16 * g} ${xa} ${xv})`);
        }
      }
    } else if (L === 1) {
      const a = get(acc(c, 0));
      const sum = `(f64.add (f64x2.extract_lane 0 ${a}) (f64x2.extract_lane 1 ${a}))`;
      if (kinetic) {
        out.push(`(f64.store ${ya} (f64.add (f64.load offset=${8 * c} ${get('yp0')}) (f64.mul (local.get $s1) ${sum})))`);
        out.push(`(f64.store ${xa} (f64.load offset=${8 * (c + self)} ${get('sb0')}))`);
      } else out.push(`(f64.store ${ya} ${sum})`);
    } else {
      // two lines at a time: (lo0 + hi0, lo1 + hi1) by two shuffles and one add, stored as a pair
      for (let g = 0; g + 1 < G; g += 2) {
        const a0 = get(acc(c, g));
        const a1 = get(acc(c, g + 1));
        const sum = `(f64x2.add (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 ${a0} ${a1}) (i8x16.shuffle 8 9 10 11 12 13 14 15 24 25 26 27 28 29 30 31 ${a0} ${a1}))`;
        const yin = `(v128.load64_lane offset=${8 * c} 1 ${get(`yp${g + 1}`)} (v128.load64_splat offset=${8 * c} ${get(`yp${g}`)}))`;
        out.push(`(v128.store offset=${8 * g} ${ya} ${scale(sum).replace('$YIN', yin)})`);
        if (kinetic) {
          const xv = `(v128.load64_lane offset=${8 * (c + self)} 1 ${get(`sb${g + 1}`)} (v128.load64_splat offset=${8 * (c + self)} ${get(`sb${g}`)}))`;
          out.push(`(v128.store offset=${8 * g} ${xa} ${xv})`);
        }
      }
    }
  }
  return out;
}

/** One tier of the line loop: `lines` lines per iteration, with its position blocks. */
function tier(o: Omit<BlockOpts, 'L'>, L: number) {
  const { simd, C } = o;
  const G = groupsOf(simd, L);
  const es = simd === 'lines' ? 16 : 8; // scratch bytes per position
  const groups = Array.from({ length: G }, (_, g) => {
    // first (and second) line of the group, relative to j
    const la = simd === 'lines' ? (L === 1 ? 0 : 2 * g) : g;
    const lb = simd === 'lines' ? (L === 1 ? 0 : 2 * g + 1) : g;
    return { g, la, lb };
  });
  // pointers that move with i (bytes per position step); yp/yq: yin of the group's lines
  const movers = (step: number) => [
    ...groups.map(({ g }) => ({ l: `sb${g}`, inc: es * step })),
    ...(o.kinetic ? groups.flatMap(({ g }) => [{ l: `yp${g}`, inc: 8 * step }, { l: `yq${g}`, inc: 8 * step }]) : []),
  ];
  return {
    L,
    groups,
    main: { C, body: block({ ...o, L }), movers: movers(C), mstep: `mc${C}` },
    col: { C: 1, body: block({ ...o, C: 1, L }), movers: movers(1), mstep: 'mc1' },
  };
}

/** The wasm render context of one variant (see the file comment). */
export function wasmContext(v: Variant, f: Filter, name: string): Record<string, unknown> {
  const simd = String(v.simd) as Simd;
  const [C, L] = String(v.unroll).split('x').map(Number) as [number, number];
  if (simd === 'lines' && L % 2 !== 0) throw new Error(`wasm lines variants need an even line count (got ${v.unroll})`);
  const kinetic = name === 'kinetic';
  const co = coefs(v.coeffs === 'inline');
  const base = { f, simd, C, kinetic, co };
  const tierLines = [L, ...(L > 2 ? [2] : []), ...(L > 1 ? [1] : [])];
  const tiers = tierLines.map((l) => tier(base, l));
  const G = groupsOf(simd, L);
  // window of the blocks: n + taps - 1 points (+1 so shifted pairs may read one past it)
  return {
    filter: name,
    taps: f.taps,
    offset: f.offset,
    left: -f.offset,
    right: f.taps - 1 + f.offset,
    left8: -8 * f.offset,
    left16: -16 * f.offset,
    right8: 8 * (f.taps - 1 + f.offset),
    right16: 16 * (f.taps - 1 + f.offset),
    // shifted: the extra point after the window (pairs may read it with a zero coefficient)
    last8: 8 * (f.taps - 1),
    kinetic,
    free: v.boundary === 'free',
    simd,
    lines: simd === 'lines',
    C,
    L,
    es: simd === 'lines' ? 16 : 8,
    tiers,
    accs: Array.from({ length: C * G }, (_, t) => ({ a: `a${t % C}_${Math.floor(t / C)}` })),
    groupLocals: Array.from({ length: G }, (_, g) => ({ g })),
    mcs: Array.from({ length: C }, (_, c) => ({ c: c + 1, c8: 8 * (c + 1) })),
    reserved: WASM_RESERVED,
    data: co.data(),
    inline: v.coeffs === 'inline',
  };
}
