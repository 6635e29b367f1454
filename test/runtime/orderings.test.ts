// Bin orderings and the thesis's locality models (seed 004; runtime/md/orderings.ts).
import { describe, it, expect } from 'vitest';
import {
  ORDERINGS,
  parseOrdering,
  cellOrder,
  hilbertPath2,
  hilbertPath3,
  mortonKey,
  dilate,
  sphericalStencil,
  cubicStencil,
  sphericityDeviation,
  offsetHistogram,
  cumulativeFraction,
  cacheMisses,
} from '../../runtime/md/orderings.ts';

/** (x, y, z) of a row-major index (x fastest). */
const coords3 = (i: number, [nx, ny]: number[]) => [i % nx!, Math.floor(i / nx!) % ny!, Math.floor(i / (nx! * ny!))];

function isPermutation(a: Int32Array): boolean {
  const seen = new Uint8Array(a.length);
  for (const v of a) {
    if (v < 0 || v >= a.length || seen[v]) return false;
    seen[v] = 1;
  }
  return true;
}

function checkOrder(dims: number[], name: string, t?: number): void {
  const o = cellOrder(dims, name, { t });
  const N = dims.reduce((a, b) => a * b, 1);
  expect(o.rank.length, `${name} ${dims}`).toBe(N);
  expect(isPermutation(o.rank), `${name} ${dims} rank`).toBe(true);
  for (let p = 0; p < N; p++) if (o.rank[o.cells[p]!] !== p) throw new Error(`${name} ${dims}: cells is not the inverse of rank at ${p}`);
}

describe('Hilbert curves', () => {
  it('3-D: the corrected L-system is a unit-step path through all 8^n cells from (0,0,0) to (2^n-1,0,0), n = 1..3', () => {
    for (const n of [1, 2, 3]) {
      const P = 1 << n;
      const p = hilbertPath3(n);
      const seen = new Set<number>();
      for (let h = 0; h < P ** 3; h++) {
        const [x, y, z] = [p[3 * h]!, p[3 * h + 1]!, p[3 * h + 2]!];
        expect(Math.min(x, y, z)).toBeGreaterThanOrEqual(0);
        expect(Math.max(x, y, z)).toBeLessThan(P);
        seen.add((z * P + y) * P + x);
        if (h > 0) expect(Math.abs(x - p[3 * h - 3]!) + Math.abs(y - p[3 * h - 2]!) + Math.abs(z - p[3 * h - 1]!)).toBe(1);
      }
      expect(seen.size).toBe(P ** 3);
      expect([...p.slice(0, 3)]).toEqual([0, 0, 0]);
      expect([...p.slice(-3)]).toEqual([P - 1, 0, 0]);
    }
  });

  it('3-D level 1 visits the 2x2x2 cube in the expected order', () => {
    // Level 1 is ^<F^<F-F^>>F&F+>>F-F>->. By hand: D0 = rows [1,0,0],[0,0,1],[0,-1,0];
    // ^ gives rows [0,0,1],[-1,0,0],[0,-1,0]; < gives [0,-1,0],[-1,0,0],[0,0,-1]; F moves by the
    // first column (0,-1,0), i.e. to (0,1,0) once y is negated. ^ then < give rows [0,0,-1],
    // [0,1,0],[1,0,0]; F moves by (0,0,1) to (0,1,1). The rest as computed:
    expect([...hilbertPath3(1)]).toEqual([0, 0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 1, 1, 1, 1, 1, 1, 0, 1, 0, 0]);
  });

  it('2-D: unit-step path through all 4^n cells from (0,0) to (2^n-1,0), n = 1..5', () => {
    for (const n of [1, 2, 3, 4, 5]) {
      const P = 1 << n;
      const p = hilbertPath2(n);
      const seen = new Set<number>();
      for (let h = 0; h < P * P; h++) {
        const [x, y] = [p[2 * h]!, p[2 * h + 1]!];
        expect(x >= 0 && y >= 0 && x < P && y < P).toBe(true);
        seen.add(y * P + x);
        if (h > 0) expect(Math.abs(x - p[2 * h - 2]!) + Math.abs(y - p[2 * h - 1]!)).toBe(1);
      }
      expect(seen.size).toBe(P * P);
      expect([p[0], p[1], p[2 * P * P - 2], p[2 * P * P - 1]]).toEqual([0, 0, P - 1, 0]);
    }
    expect([...hilbertPath2(1)]).toEqual([0, 0, 0, 1, 1, 1, 1, 0]);
  });

  it('cellOrder hilbert on a power-of-two grid walks in unit steps (3-D 8^3, 2-D 16^2)', () => {
    const o = cellOrder([8, 8, 8], 'hilbert');
    for (let p = 1; p < 512; p++) {
      const a = coords3(o.cells[p - 1]!, [8, 8]), b = coords3(o.cells[p]!, [8, 8]);
      expect(Math.abs(a[0]! - b[0]!) + Math.abs(a[1]! - b[1]!) + Math.abs(a[2]! - b[2]!)).toBe(1);
    }
    expect(o.cells[0]).toBe(0);
    expect(o.cells[511]).toBe(7); // (7,0,0)
    const q = cellOrder([16, 16], 'hilbert');
    for (let p = 1; p < 256; p++) {
      const a = q.cells[p - 1]!, b = q.cells[p]!;
      expect(Math.abs((a % 16) - (b % 16)) + Math.abs(Math.floor(a / 16) - Math.floor(b / 16))).toBe(1);
    }
  });
});

describe('Morton', () => {
  it('dilate and the bit interleave dilate(x) | dilate(y) << 1 | dilate(z) << 2', () => {
    expect(dilate(0b101)).toBe(0b1000001);
    expect(dilate(0b11, 2)).toBe(0b101);
    // (1,0,0) -> 1, (0,1,0) -> 2, (0,0,1) -> 4, (3,0,0) -> 0b1001 = 9, (1,2,3): x=001 y=010 z=011
    // -> bits z1y1x1 z0y0x0 = 110 101 = 53; (5,3,6): x=101 y=011 z=110 -> 100 011 110 ... see below
    expect(mortonKey(1, 0, 0)).toBe(1);
    expect(mortonKey(0, 1, 0)).toBe(2);
    expect(mortonKey(0, 0, 1)).toBe(4);
    expect(mortonKey(3, 0, 0)).toBe(9);
    expect(mortonKey(1, 2, 3)).toBe(0b110101);
    // (5,3,6): bit2: z1 y0 x1 = 101; bit1: z1 y1 x0 = 110; bit0: z0 y1 x1 = 011 -> 101110011 = 371
    expect(mortonKey(5, 3, 6)).toBe(371);
    // 2-D, thesis 2.2 example: (x, y) = (4, 5) interleaved as y2x2 y1x1 y0x0 = 11 00 10 = 50
    expect(mortonKey(4, 5)).toBe(50);
  });

  it('cellOrder morton on 8^3 puts every cell at its interleaved key', () => {
    const o = cellOrder([8, 8, 8], 'morton');
    for (let i = 0; i < 512; i++) {
      const [x, y, z] = coords3(i, [8, 8]);
      expect(o.rank[i]).toBe(dilate(x!) | (dilate(y!) << 1) | (dilate(z!) << 2));
    }
    expect(o.rank[(3 * 8 + 2) * 8 + 1]).toBe(0b110101); // (x,y,z) = (1,2,3)
  });
});

describe('hybrids and permutations', () => {
  it('names and aliases', () => {
    expect(ORDERINGS).toEqual(['row-major', 'hilbert', 'morton', 'hilbert-rm', 'hilbert-cm', 'morton-rm', 'morton-cm']);
    expect(parseOrdering('hybrid-rm-hilbert')).toBe('hilbert-rm');
    expect(parseOrdering('hybrid-cm-morton')).toBe('morton-cm');
    expect(parseOrdering('snake')).toBeUndefined();
    expect(() => cellOrder([4, 4, 4], 'snake')).toThrow(/unknown ordering "snake"/);
  });

  it('morton-rm with t = 1 is morton; every hybrid with 2^t >= the grid is row-/column-major', () => {
    expect(cellOrder([16, 16, 16], 'morton-rm', { t: 1 }).rank).toEqual(cellOrder([16, 16, 16], 'morton').rank);
    expect(cellOrder([8, 8, 8], 'hilbert-rm', { t: 3 }).rank).toEqual(cellOrder([8, 8, 8], 'row-major').rank);
    const cm = cellOrder([4, 4, 4], 'morton-cm', { t: 2 });
    for (let i = 0; i < 64; i++) {
      const [x, y, z] = coords3(i, [4, 4]);
      expect(cm.rank[i]).toBe((x! * 4 + y!) * 4 + z!);
    }
  });

  it('hybrid t = 2: 64 consecutive positions fill one 4x4x4 sub-block in row-major order, blocks follow the outer curve', () => {
    const o = cellOrder([16, 16, 16], 'hilbert-rm');
    const outer = cellOrder([4, 4, 4], 'hilbert');
    for (let blk = 0; blk < 64; blk++) {
      const [bx, by, bz] = coords3(outer.cells[blk]!, [4, 4]);
      for (let k = 0; k < 64; k++) {
        const [x, y, z] = coords3(o.cells[64 * blk + k]!, [16, 16]);
        expect([x! >> 2, y! >> 2, z! >> 2]).toEqual([bx, by, bz]);
        expect(((z! & 3) * 4 + (y! & 3)) * 4 + (x! & 3)).toBe(k);
      }
    }
  });

  it('every ordering is a permutation on cubes 1..40 and on odd / non-power-of-two / elongated grids', () => {
    for (const name of ORDERINGS) {
      for (let n = 1; n <= 40; n += n < 10 ? 1 : 3) checkOrder([n, n, n], name);
      for (const dims of [[3, 5, 7], [17, 1, 33], [5, 40, 2], [40, 39, 1], [200, 3, 2], [1, 1, 1]]) checkOrder(dims, name);
      for (const dims of [[1, 1], [7, 13], [40, 40], [33, 2], [1000, 3]]) checkOrder(dims, name);
      checkOrder([9, 11, 13], name, 1);
      checkOrder([9, 11, 13], name, 3);
    }
  });

  it('elongated grids (subtrees outside the grid skipped) keep the full curve order', () => {
    const filtered3 = (dims: number[], n: number) => {
      const p = hilbertPath3(n), out: number[] = [];
      for (let h = 0; h < p.length / 3; h++) {
        const [x, y, z] = [p[3 * h]!, p[3 * h + 1]!, p[3 * h + 2]!];
        if (x < dims[0]! && y < dims[1]! && z < dims[2]!) out.push((z * dims[1]! + y) * dims[0]! + x);
      }
      return out;
    };
    for (const dims of [[60, 3, 2], [2, 50, 5], [3, 3, 64], [33, 17, 9]]) expect([...cellOrder(dims, 'hilbert').cells]).toEqual(filtered3(dims, 6));
    const p2 = hilbertPath2(7);
    for (const dims of [[100, 3], [5, 128], [77, 65]]) {
      const out: number[] = [];
      for (let h = 0; h < p2.length / 2; h++) if (p2[2 * h]! < dims[0]! && p2[2 * h + 1]! < dims[1]!) out.push(p2[2 * h + 1]! * dims[0]! + p2[2 * h]!);
      expect([...cellOrder(dims, 'hilbert').cells]).toEqual(out);
    }
  });

  it('non-power-of-two grids keep the curve order of the enclosing cube', () => {
    // 5x6x7 lies in the 8^3 cube: its Hilbert positions are the 8^3 Hilbert indices, ranked.
    const small = cellOrder([5, 6, 7], 'hilbert');
    const big = cellOrder([8, 8, 8], 'hilbert');
    let last = -1;
    for (let p = 0; p < small.cells.length; p++) {
      const [x, y, z] = coords3(small.cells[p]!, [5, 6]);
      const h = big.rank[(z! * 8 + y!) * 8 + x!]!;
      expect(h).toBeGreaterThan(last);
      last = h;
    }
  });
});

describe('stencils (thesis Table 4.1)', () => {
  it('spherical stencil sizes g = 1..9 and deviation from sphericity', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9].map((g) => sphericalStencil(g).count)).toEqual([27, 125, 311, 613, 1015, 1689, 2399, 3449, 4675]);
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9].map((g) => sphericityDeviation(g).toFixed(2))).toEqual(
      ['84.49', '73.19', '63.63', '56.27', '48.41', '46.43', '40.11', '37.82', '34.68'],
    );
  });

  it('cubic stencil, 2-D stencils, symmetry and order', () => {
    expect([1, 2, 3].map((g) => cubicStencil(g).count)).toEqual([27, 125, 343]);
    expect(cubicStencil(2, 2).count).toBe(25);
    // 2-D spherical: the gap along an axis is max(|d|-1, 0). g=2: the corner (2,2) has gaps (1,1),
    // 1+1 < 4, so all 5x5 = 25; g=3: corner gaps (2,2), 8 < 9, all 7x7 = 49; g=4: the corners
    // (4,4) have gaps (3,3), 18 >= 16, and go; (4,3) has 9+4 = 13 < 16 and stays: 81 - 4 = 77.
    expect(sphericalStencil(2, 2).count).toBe(25);
    expect(sphericalStencil(3, 2).count).toBe(49);
    expect(sphericalStencil(4, 2).count).toBe(77);
    const s = cubicStencil(1);
    expect([...s.offsets.slice(0, 6)]).toEqual([-1, -1, -1, 0, -1, -1]); // dx fastest
    const st = sphericalStencil(5);
    const set = new Set<string>();
    for (let k = 0; k < st.count; k++) set.add(`${st.offsets[3 * k]},${st.offsets[3 * k + 1]},${st.offsets[3 * k + 2]}`);
    for (let k = 0; k < st.count; k++) expect(set.has(`${-st.offsets[3 * k]!},${-st.offsets[3 * k + 1]!},${-st.offsets[3 * k + 2]!}`)).toBe(true);
    expect(() => sphericalStencil(0)).toThrow(/positive integer/);
  });
});

describe('memory-offset histogram (thesis Alg. 4.1, Figs. 4.2-4.5, M = 16, block stencil)', () => {
  const frac = (o: string, g: number, w: number[]) => cumulativeFraction(offsetHistogram([16, 16, 16], o, cubicStencil(g)), w).map((f) => Number(f.toFixed(3)));

  it('g = 1: row-major 1/3 within 199 and all within 299; Hilbert 0.817 / 0.867, Morton 0.787 / 0.862', () => {
    const rm = offsetHistogram([16, 16, 16], 'row-major', cubicStencil(1));
    expect(rm.total).toBe(14 ** 3 * 27);
    expect([rm.minOffset, rm.maxOffset]).toEqual([-273, 273]);
    expect(cumulativeFraction(rm, [199, 299])).toEqual([1 / 3, 1]);
    expect(frac('hilbert', 1, [199, 299])).toEqual([0.817, 0.867]);
    expect(frac('morton', 1, [199, 299])).toEqual([0.787, 0.862]);
  });

  it('g = 1 extents: Hilbert +-3767, Morton +-3073 (and 13.3% / 13.8% beyond 299)', () => {
    const h = offsetHistogram([16, 16, 16], 'hilbert', cubicStencil(1));
    const m = offsetHistogram([16, 16, 16], 'morton', cubicStencil(1));
    expect([h.minOffset, h.maxOffset, m.minOffset, m.maxOffset]).toEqual([-3767, 3767, -3073, 3073]);
  });

  it('g = 3: all row-major within 899, Hilbert 0.795, Morton 0.780; extents +-3794 and +-3129; Morton 22.0% beyond 899', () => {
    expect(frac('row-major', 3, [899])).toEqual([1]);
    expect(frac('hilbert', 3, [899])).toEqual([0.795]);
    expect(frac('morton', 3, [899])).toEqual([0.78]);
    const h = offsetHistogram([16, 16, 16], 'hilbert', cubicStencil(3));
    const m = offsetHistogram([16, 16, 16], 'morton', cubicStencil(3));
    expect(h.total).toBe(10 ** 3 * 343);
    expect([h.minOffset, h.maxOffset, m.minOffset, m.maxOffset]).toEqual([-3794, 3794, -3129, 3129]);
  });

  it('rejects a grid smaller than the stencil', () => {
    expect(() => offsetHistogram([4, 4, 4], 'hilbert', cubicStencil(2))).toThrow(/smaller than the stencil/);
  });
});

describe('LRU cache model (thesis Alg. 4.2)', () => {
  it('hand-worked 2-D case: 4x4 Morton, 3x3 stencil, lines of 4 bins, 2 lines', () => {
    // Morton lines are the 2x2 quadrants: line 0 = x<2,y<2; 1 = x>=2,y<2; 2 = x<2,y>=2; 3 = both >= 2.
    // Interior bins in memory order: (1,1) key 3, (2,1) key 6, (1,2) key 9, (2,2) key 12. Stencil
    // order dy outer, dx inner. Line sequences and LRU (c = 2) misses:
    //   (1,1): 0 0 1 | 0 0 1 | 2 2 3   -> 0 miss, 1 miss, 2 miss (evicts 0), 3 miss (evicts 1): 4
    //   (2,1): 0 1 1 | 0 1 1 | 2 3 3   cache {2,3}: 0 miss, 1 miss, 2 miss, 3 miss: 4
    //   (1,2): 0 0 1 | 2 2 3 | 2 2 3   cache {2,3}: 0 miss, 1 miss, 2 miss, 3 miss: 4
    //   (2,2): 0 1 1 | 2 3 3 | 2 3 3   cache {2,3}: 0, 1, 2, 3 miss: 4
    // 16 misses in 36 accesses; with 4 lines only the 4 compulsory misses remain.
    const st = cubicStencil(1, 2);
    expect(cacheMisses([4, 4], 'morton', st, { lineBins: 4, cacheLines: 2 })).toEqual({ misses: 16, accesses: 36, missRate: 16 / 36 });
    expect(cacheMisses([4, 4], 'morton', st, { lineBins: 4, cacheLines: 4 }).misses).toBe(4);
    // Row-major, same cache: lines are the rows y = 0..3, visited (1,1), (2,1), (1,2), (2,2).
    //   (1,1): rows 0 0 0 1 1 1 2 2 2 -> 0, 1, 2 miss (2 evicts 0): 3, cache {1,2}
    //   (2,1): rows 0 1 2 -> 0 miss (evicts 1), 1 miss (evicts 2), 2 miss (evicts 0): 3, cache {1,2}
    //   (1,2): rows 1 2 3 -> 1 hit, 2 hit, 3 miss (evicts 1): 1, cache {2,3}
    //   (2,2): rows 1 2 3 -> 1 miss (evicts 2), 2 miss (evicts 3), 3 miss: 3
    expect(cacheMisses([4, 4], 'row-major', st, { lineBins: 4, cacheLines: 2 }).misses).toBe(10);
  });

  it('row-major 8x8x8, lines = x rows: analytic miss counts', () => {
    // b = 8 = nx, so a line is one x row (y, z); a bin's cubic g=1 stencil touches 9 rows, 3
    // consecutive accesses each. Interior: 6x6x6 bins.
    const st = cubicStencil(1);
    // c = 3 lines: the 9 rows are cycled through with only 3 lines: every row access misses once
    // per bin: 9 * 216 = 1944.
    expect(cacheMisses([8, 8, 8], 'row-major', st, { lineBins: 8, cacheLines: 3 }).misses).toBe(1944);
    // c = 9 lines: the 9 rows stay for the whole x run; a step in y brings 3 new rows; a step in z
    // brings 9 new rows: per z plane 9 + 3 * 5 = 24, times 6 planes = 144.
    expect(cacheMisses([8, 8, 8], 'row-major', st, { lineBins: 8, cacheLines: 9 }).misses).toBe(144);
    // c >= 64 lines: only compulsory misses, every row of the grid once.
    expect(cacheMisses([8, 8, 8], 'row-major', st, { lineBins: 8, cacheLines: 64 }).misses).toBe(64);
    // b = 1, c = 1: consecutive accesses never repeat a bin, so every access misses.
    const r = cacheMisses([8, 8, 8], 'row-major', st, { lineBins: 1, cacheLines: 1 });
    expect(r.misses).toBe(216 * 27);
    expect(r.missRate).toBe(1);
  });

  it('matches a naive LRU simulation on small grids for every ordering', () => {
    const naive = (dims: number[], name: string, g: number, b: number, c: number) => {
      const o = cellOrder(dims, name);
      const st = sphericalStencil(g, dims.length as 2 | 3);
      const [nx, ny] = dims as [number, number];
      const nz = dims[2] ?? 1;
      const lru: number[] = [];
      let misses = 0;
      for (let p = 0; p < o.cells.length; p++) {
        const i = o.cells[p]!;
        const x = i % nx, y = Math.floor(i / nx) % ny, z = Math.floor(i / (nx * ny));
        if (x < g || y < g || x >= nx - g || y >= ny - g || (dims.length === 3 && (z < g || z >= nz - g))) continue;
        for (let k = 0; k < st.count; k++) {
          const d = dims.length;
          const j = x + st.offsets[d * k]! + nx * (y + st.offsets[d * k + 1]! + ny * (d === 3 ? z + st.offsets[d * k + 2]! : 0));
          const line = Math.floor(o.rank[j]! / b);
          const at = lru.indexOf(line);
          if (at >= 0) lru.splice(at, 1);
          else {
            misses++;
            if (lru.length === c) lru.shift();
          }
          lru.push(line);
        }
      }
      return misses;
    };
    for (const name of ORDERINGS)
      for (const [dims, g, b, c] of [[[9, 7, 6], 1, 4, 5], [[10, 10, 10], 2, 2, 16], [[12, 9], 2, 3, 4]] as [number[], number, number, number][])
        expect(cacheMisses(dims, name, sphericalStencil(g, dims.length as 2 | 3), { lineBins: b, cacheLines: c }).misses, `${name} ${dims}`).toBe(naive(dims, name, g, b, c));
  });

  it('32^3, g = 1, line 2: Hilbert has the lowest miss rate for c = 64 and 256, row-major the highest (thesis Fig. 4.6)', () => {
    const st = cubicStencil(1);
    for (const c of [64, 256]) {
      const m = Object.fromEntries(['row-major', 'hilbert', 'morton'].map((o) => [o, cacheMisses([32, 32, 32], o, st, { lineBins: 2, cacheLines: c }).misses]));
      expect(m.hilbert!).toBeLessThan(m.morton!);
      expect(m.morton!).toBeLessThan(m['row-major']!);
    }
  });

  it('64^3 with g = 3 runs in seconds', () => {
    const t0 = performance.now();
    const o = cellOrder([64, 64, 64], 'hilbert');
    const r = cacheMisses([64, 64, 64], o, sphericalStencil(3), { lineBins: 8, cacheLines: 256 });
    expect(r.accesses).toBe(58 ** 3 * 311);
    expect(performance.now() - t0).toBeLessThan(10_000);
  });
});
