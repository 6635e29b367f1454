// `kernforge analyze orderings`: the thesis's locality analysis of bin orderings (seed 004,
// chapter 4; runtime/md/orderings.ts): Table 4.1 (spherical stencil sizes), the cumulative
// fraction of (bin, stencil bin) pairs within given memory offsets (Figs. 4.4/4.5) and the LRU
// cache model's miss counts (Algorithm 4.2, Figs. 4.6/4.7), per ordering, as aligned tables.
import type { Command } from 'commander';
import { UserError } from '../../runtime/errors.ts';
import {
  ORDERINGS,
  ORDERING_ALIASES,
  parseOrdering,
  cellOrder,
  cubicStencil,
  sphericalStencil,
  sphericityDeviation,
  offsetHistogram,
  cumulativeFraction,
  cacheMisses,
  type OrderingName,
  type Stencil,
} from '../../runtime/md/orderings.ts';

export interface AnalyzeOrderingsOptions {
  grid?: string;
  stencil?: string;
  shape?: string;
  line?: string;
  cache?: string;
  orderings?: string;
  within?: string;
  t?: string;
}

/** Largest grid the command analyses (cells). */
const MAX_CELLS = 1 << 24;

/** "16x16x16", "32x32" or "16" (a cube) -> dims. */
export function parseGridDims(s: string): number[] {
  const parts = s.trim().toLowerCase().split('x');
  const dims = parts.map((p) => (/^\d+$/.test(p.trim()) ? Number(p.trim()) : NaN));
  if (!(dims.length >= 1 && dims.length <= 3) || dims.some((n) => !Number.isSafeInteger(n) || n < 1))
    throw new UserError(`--grid "${s}" is not of the form NXxNYxNZ or NXxNY (positive integers, e.g. 16x16x16; a single N means N^3)`);
  const d = dims.length === 1 ? [dims[0]!, dims[0]!, dims[0]!] : dims;
  const cells = d.reduce((a, b) => a * b, 1);
  if (cells > MAX_CELLS) throw new UserError(`--grid ${d.join('x')} has ${cells} bins; at most ${MAX_CELLS} are analysed`);
  return d;
}

function intList(flag: string, s: string, min: number, what: string): number[] {
  const items = s.split(',').map((p) => p.trim());
  const out = items.map((p) => (/^-?\d+$/.test(p) ? Number(p) : NaN));
  const bad = items.filter((_, i) => !Number.isSafeInteger(out[i]!) || out[i]! < min);
  if (items.length === 0 || bad.length > 0) throw new UserError(`${flag} "${s}": ${bad.map((b) => `"${b}"`).join(', ')} is not ${what} (an integer >= ${min})`);
  return out;
}

function orderingList(s: string): OrderingName[] {
  const names = s.split(',').map((p) => p.trim()).filter((p) => p.length > 0);
  const out: OrderingName[] = [];
  for (const n of names) {
    const o = parseOrdering(n);
    if (!o) throw new UserError(`--orderings: unknown ordering "${n}"; allowed: ${ORDERINGS.join(', ')} (aliases: ${Object.keys(ORDERING_ALIASES).join(', ')})`);
    if (!out.includes(o)) out.push(o);
  }
  if (out.length === 0) throw new UserError(`--orderings is empty; allowed: ${ORDERINGS.join(', ')}`);
  return out;
}

/** Right-align every column but the first (left-aligned); rows of cells -> lines. */
export function alignTable(rows: string[][]): string[] {
  const w: number[] = [];
  for (const r of rows) r.forEach((c, i) => (w[i] = Math.max(w[i] ?? 0, c.length)));
  return rows.map((r) => r.map((c, i) => (i === 0 ? c.padEnd(w[i]!) : c.padStart(w[i]!))).join('  ').trimEnd());
}

/** The whole report as text. Throws UserError for bad options. */
export function analyzeOrderings(o: AnalyzeOrderingsOptions = {}): string {
  const dims = parseGridDims(o.grid ?? '16x16x16');
  const dim = dims.length as 2 | 3;
  const gs = intList('--stencil', o.stencil ?? '1,2,3', 1, 'a stencil width g');
  const shape = (o.shape ?? 'cubic').trim().toLowerCase();
  if (shape !== 'cubic' && shape !== 'spherical') throw new UserError(`--shape "${o.shape}": allowed: cubic, spherical`);
  const lines = intList('--line', o.line ?? '8', 1, 'a number of bins per cache line');
  if (lines.length !== 1) throw new UserError(`--line "${o.line}": give one number of bins per cache line`);
  const line = lines[0]!;
  const caches = intList('--cache', o.cache ?? '64,256,1024', 1, 'a number of cache lines');
  const within = intList('--within', o.within ?? '99,199,299,899', 0, 'a memory offset');
  const ts = intList('--t', o.t ?? '2', 0, 'a sub-block exponent');
  const t = ts[0]!;
  if (ts.length !== 1 || t > 10) throw new UserError(`--t ${t}: the hybrids' sub-blocks are 2^t per side; t must be 0..10`);
  const orderings = orderingList(o.orderings ?? ORDERINGS.join(','));
  const gMax = Math.max(...gs);
  const small = Math.min(...dims);
  if (small < 2 * gMax + 1)
    throw new UserError(`--grid ${dims.join('x')} is too small for --stencil g=${gMax}: every side needs at least 2g+1 = ${2 * gMax + 1} bins`);

  const out: string[] = [];
  out.push('Table 4.1: approximately spherical stencil (bins whose nearest point lies within g bin widths)');
  const t41: string[][] = [['g', 'bins M0(g)', 'deviation from sphericity %', 'cubic (2g+1)^3']];
  for (let g = 1; g <= Math.max(9, gMax); g++) t41.push([String(g), String(sphericalStencil(g).count), sphericityDeviation(g).toFixed(2), String((2 * g + 1) ** 3)]);
  out.push(...alignTable(t41).map((l) => `  ${l}`));

  const orders = new Map(orderings.map((name) => [name, cellOrder(dims, name, { t })]));
  const stencilOf = (g: number): Stencil => (shape === 'cubic' ? cubicStencil(g, dim) : sphericalStencil(g, dim));
  const grid = dims.join('x');
  const interior = (g: number) => dims.reduce((a, n) => a * (n - 2 * g), 1);

  for (const g of gs) {
    const st = stencilOf(g);
    out.push('');
    out.push(`Memory offsets (Alg. 4.1): grid ${grid}, ${shape} stencil g=${g} (${st.count} bins), ${interior(g)} bins outside the border zone`);
    out.push('  fraction of (bin, stencil bin) pairs with |position offset| <= the column value');
    const rows: string[][] = [['ordering', ...within.map((w) => `<=${w}`), 'offsets']];
    for (const [name, ord] of orders) {
      const h = offsetHistogram(dims, ord, st);
      rows.push([name, ...cumulativeFraction(h, within).map((f) => f.toFixed(3)), `${h.minOffset}..${h.maxOffset}`]);
    }
    out.push(...alignTable(rows).map((l) => `  ${l}`));
  }

  for (const g of gs) {
    const st = stencilOf(g);
    out.push('');
    out.push(`LRU cache model (Alg. 4.2): grid ${grid}, ${shape} stencil g=${g}, line ${line} bins, c cache lines (fully associative)`);
    let accesses = 0;
    const rows: string[][] = [['ordering', ...caches.map((c) => `c=${c} misses`), ...caches.map((c) => `c=${c} rate %`)]];
    for (const [name, ord] of orders) {
      const r = caches.map((c) => cacheMisses(dims, ord, st, { lineBins: line, cacheLines: c }));
      accesses = r[0]!.accesses;
      rows.push([name, ...r.map((x) => String(x.misses)), ...r.map((x) => (100 * x.missRate).toFixed(3))]);
    }
    out.push(`  ${accesses} accesses; at least ${Math.ceil(dims.reduce((a, b) => a * b, 1) / line)} lines hold the grid`);
    out.push(...alignTable(rows).map((l) => `  ${l}`));
  }
  if (orderings.some((n) => /-(rm|cm)$/.test(n))) out.push('', `Hybrids use sub-blocks of 2^${t} = ${2 ** t} bins per side.`);
  return out.join('\n');
}

/** Add `analyze orderings` to the program. */
export function registerAnalyze(program: Command): void {
  const analyze = program.command('analyze').description('analyses that need no kernels (data locality models)');
  analyze
    .command('orderings')
    .description('locality of bin orderings (MiniMD thesis ch. 4): Table 4.1, memory-offset fractions, LRU cache misses')
    .option('--grid <NXxNYxNZ>', 'bins per side (3-D, or NXxNY for 2-D; N alone = N^3)', '16x16x16')
    .option('--stencil <g,...>', 'stencil widths g', '1,2,3')
    .option('--shape <cubic|spherical>', 'stencil used for the offset and cache tables (the thesis figures use cubic)', 'cubic')
    .option('--line <b>', 'bins per cache line', '8')
    .option('--cache <c,...>', 'cache sizes in lines', '64,256,1024')
    .option('--orderings <list>', `orderings (${ORDERINGS.join(', ')})`, ORDERINGS.join(','))
    .option('--within <offsets>', 'offsets for the cumulative-fraction table', '99,199,299,899')
    .option('--t <t>', 'hybrids: sub-blocks of 2^t bins per side', '2')
    .action((o: AnalyzeOrderingsOptions) => {
      console.log(analyzeOrderings(o));
    });
}
