// `kernforge analyze orderings` through cli/main.ts: the thesis's numbers in the printed tables,
// and one-line errors with exit status 2 for bad options.
import { describe, it, expect, vi, afterEach } from 'vitest';
import { main } from '../cli/main.ts';

async function run(...args: string[]): Promise<{ status: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void out.push(a.join(' ')));
  const error = vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void err.push(a.join(' ')));
  const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  try {
    const status = await main(['analyze', 'orderings', ...args]);
    return { status, out: out.join('\n'), err: err.join('\n') };
  } finally {
    log.mockRestore();
    error.mockRestore();
    stderr.mockRestore();
  }
}

/** The whitespace-separated cells of the first line starting with `name` after `heading`. */
function row(text: string, heading: string, name: string): string[] {
  const lines = text.split('\n');
  const at = lines.findIndex((l) => l.startsWith(heading));
  expect(at, heading).toBeGreaterThanOrEqual(0);
  const line = lines.slice(at).find((l) => l.trim().split(/\s+/)[0] === name);
  expect(line, `${name} after ${heading}`).toBeDefined();
  return line!.trim().split(/\s+/).slice(1);
}

afterEach(() => vi.restoreAllMocks());

describe('kernforge analyze orderings', () => {
  it('prints Table 4.1, the Fig. 4.4 fractions and the LRU misses (16^3, g = 1)', async () => {
    const r = await run('--grid', '16x16x16', '--stencil', '1', '--line', '8', '--cache', '64,1024', '--orderings', 'row-major,hilbert,morton,hybrid-rm-hilbert');
    expect(r.status).toBe(0);
    expect(r.err).toBe('');
    // Table 4.1: g, M0(g), deviation %, cubic count
    expect(row(r.out, 'Table 4.1', '1')).toEqual(['27', '84.49', '27']);
    expect(row(r.out, 'Table 4.1', '9')).toEqual(['4675', '34.68', '6859']);
    // Columns: <=99 <=199 <=299 <=899 offsets
    expect(row(r.out, 'Memory offsets', 'row-major')).toEqual(['0.333', '0.333', '1.000', '1.000', '-273..273']);
    expect(row(r.out, 'Memory offsets', 'hilbert')).toEqual(['0.768', '0.817', '0.867', '0.941', '-3767..3767']);
    expect(row(r.out, 'Memory offsets', 'morton').slice(1, 3)).toEqual(['0.787', '0.862']);
    expect(r.out).toMatch(/hilbert-rm/);
    // LRU: 16^3 in lines of 8 bins is 512 lines; with 1024 lines only compulsory misses remain.
    expect(r.out).toMatch(/74088 accesses; at least 512 lines hold the grid/);
    expect(row(r.out, 'LRU cache model', 'row-major')).toEqual(['1344', '512', '1.814', '0.691']);
    expect(row(r.out, 'LRU cache model', 'hilbert')[1]).toBe('512');
  });

  it('accepts a spherical stencil and a 2-D grid', async () => {
    const r = await run('--grid', '32x32', '--stencil', '2', '--shape', 'spherical', '--orderings', 'morton', '--cache', '16');
    expect(r.status).toBe(0);
    expect(r.out).toMatch(/grid 32x32, spherical stencil g=2 \(25 bins\), 784 bins outside the border zone/);
    expect(r.out).not.toMatch(/Hybrids use/);
  });

  it.each([
    [['--grid', '16x16x'], /--grid "16x16x" is not of the form/],
    [['--grid', 'abc'], /--grid "abc" is not of the form/],
    [['--stencil', '0'], /--stencil "0": "0" is not a stencil width g \(an integer >= 1\)/],
    [['--stencil', '1,x'], /--stencil "1,x"/],
    [['--grid', '8x8x8', '--stencil', '4'], /--grid 8x8x8 is too small for --stencil g=4: every side needs at least 2g\+1 = 9 bins/],
    [['--orderings', 'hilbert,snake'], /unknown ordering "snake"; allowed: row-major, hilbert, morton, hilbert-rm, hilbert-cm, morton-rm, morton-cm/],
    [['--line', '0'], /--line "0"/],
    [['--cache', '64,-1'], /--cache "64,-1"/],
    [['--shape', 'round'], /--shape "round": allowed: cubic, spherical/],
  ])('bad options %j: one line on stderr, exit 2', async (args, message) => {
    const r = await run(...args);
    expect(r.status).toBe(2);
    expect(r.out).toBe('');
    expect(r.err.split('\n')).toHaveLength(1);
    expect(r.err).toMatch(/^kernforge: error: /);
    expect(r.err).toMatch(message);
  });
});
