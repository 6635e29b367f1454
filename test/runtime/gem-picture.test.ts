// Pictures of the GEM potential (runtime/gem/picture.ts): the PNG decodes (with a decoder written
// here, CRCs checked), has the asked size, shows red and blue where the potential has both signs,
// background where nothing is drawn; the HTML viewer is self-contained; no partial file on error.
import { describe, it, expect, beforeAll } from 'vitest';
import { inflateSync } from 'node:zlib';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readPqr, readVert, gemParams, gemReference, type GemVertices } from '../../runtime/gem/index.ts';
import { potentialPng, potentialHtml, writePicture, colourScale, potentialColour, PICTURE_BACKGROUND } from '../../runtime/gem/picture.ts';

const DATA = new URL('../../data/gem/', import.meta.url).pathname;

function crc32(b: Uint8Array): number {
  let c = ~0;
  for (const x of b) {
    c ^= x;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
  }
  return ~c >>> 0;
}

/** A small PNG decoder: 8-bit RGB or RGBA, not interlaced, every filter type. */
function decodePng(buf: Buffer): { width: number; height: number; px: (x: number, y: number) => [number, number, number] } {
  expect([...buf.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  let off = 8, width = 0, height = 0, ch = 0;
  const idat: Buffer[] = [];
  for (;;) {
    const len = buf.readUInt32BE(off);
    const type = buf.toString('latin1', off + 4, off + 8);
    const data = buf.subarray(off + 8, off + 8 + len);
    expect(buf.readUInt32BE(off + 8 + len)).toBe(crc32(buf.subarray(off + 4, off + 8 + len)));
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      expect(data[8]).toBe(8);
      ch = data[9] === 2 ? 3 : data[9] === 6 ? 4 : 0;
      expect(ch).toBeGreaterThan(0);
      expect(data[12]).toBe(0);
    } else if (type === 'IDAT') idat.push(data);
    off += 12 + len;
    if (type === 'IEND') break;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * ch;
  expect(raw.length).toBe((stride + 1) * height);
  const out = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    const f = raw[y * (stride + 1)]!;
    for (let i = 0; i < stride; i++) {
      const x = raw[y * (stride + 1) + 1 + i]!;
      const a = i >= ch ? out[y * stride + i - ch]! : 0;
      const b = y > 0 ? out[(y - 1) * stride + i]! : 0;
      const c = i >= ch && y > 0 ? out[(y - 1) * stride + i - ch]! : 0;
      const p = a + b - c;
      const pr = Math.abs(p - a) <= Math.abs(p - b) && Math.abs(p - a) <= Math.abs(p - c) ? a : Math.abs(p - b) <= Math.abs(p - c) ? b : c;
      out[y * stride + i] = (x + [0, a, b, (a + b) >> 1, pr][f]!) & 255;
    }
  }
  return { width, height, px: (x, y) => [out[y * stride + x * ch]!, out[y * stride + x * ch + 1]!, out[y * stride + x * ch + 2]!] };
}

const count = (img: ReturnType<typeof decodePng>, pred: (c: [number, number, number]) => boolean): number => {
  let n = 0;
  for (let y = 0; y < img.height; y++) for (let x = 0; x < img.width; x++) if (pred(img.px(x, y))) n++;
  return n;
};
const reddish = ([r, g, b]: [number, number, number]) => r > 100 && r > g + 50 && r > b + 50;
const bluish = ([r, g, b]: [number, number, number]) => b > 100 && b > r + 50 && b > g + 50;

let mb: { v: GemVertices; phi: Float64Array };
let uwo: { v: GemVertices; phi: Float64Array };
beforeAll(() => {
  for (const m of ['mb_hhelix', '1uwo_A']) {
    const atoms = readPqr(`${DATA}${m}.pqr`);
    const v = readVert(`${DATA}${m}.vert`);
    const d = { v, phi: gemReference(atoms, v, gemParams(atoms)) };
    if (m === 'mb_hhelix') mb = d;
    else uwo = d;
  }
});

describe('PNG', () => {
  it('Mb.Hhelix (both signs): decodes, right size, red and blue pixels, background in the corners', () => {
    const img = decodePng(potentialPng(mb.v, mb.phi, { width: 320, height: 240 }));
    expect([img.width, img.height]).toEqual([320, 240]);
    for (const [x, y] of [[0, 0], [250, 0], [0, 239], [5, 120]]) expect(img.px(x, y)).toEqual([...PICTURE_BACKGROUND]);
    const surfacePixels = count(img, (c) => c.some((k, i) => k !== PICTURE_BACKGROUND[i]));
    expect(count(img, reddish)).toBeGreaterThan(200);
    expect(count(img, bluish)).toBeGreaterThan(200);
    expect(surfacePixels).toBeGreaterThan(0.1 * 320 * 240);
  });
  it('1uwo_A (nearly all negative on this surface): red, background around, blue only in the colour bar', () => {
    expect(Math.max(...uwo.phi)).toBeLessThan(0.1); // GEM's potential on 1uwo_A's MSMS surface is <= 0.08
    const img = decodePng(potentialPng(uwo.v, uwo.phi, { width: 400, height: 300 }));
    expect([img.width, img.height]).toEqual([400, 300]);
    expect(img.px(0, 0)).toEqual([...PICTURE_BACKGROUND]);
    expect(count(img, reddish)).toBeGreaterThan(2000);
    // blue pixels left of the colour bar: none
    let blueInView = 0;
    for (let y = 0; y < 300; y++) for (let x = 0; x < 340; x++) if (bluish(img.px(x, y))) blueInView++;
    expect(blueInView).toBe(0);
  });
  it('colours: red negative, white 0, blue positive, symmetric clamp', () => {
    expect(potentialColour(-1)).toEqual([255, 0, 0]);
    expect(potentialColour(0)).toEqual([255, 255, 255]);
    expect(potentialColour(2)).toEqual([0, 0, 255]);
    expect(colourScale([-10, 1, 2, 3], 100)).toBe(10);
    expect(colourScale([-10, 1, 2, 3], 75)).toBe(3);
  });
});

describe('HTML viewer and files', () => {
  it('is self-contained: inline script and data, nothing fetched', () => {
    const h = potentialHtml(mb.v, mb.phi, { title: 'Mb <test>' });
    expect(h).toMatch(/^<!doctype html>/);
    expect(h).toContain('<script>');
    expect(h).not.toMatch(/src=|href=|https?:\/\/|fetch\(|import /);
    expect(h).toContain('Mb &#60;test&#62;');
    expect(h).toContain(`${mb.v.n} vertices`);
  });
  it('writes by extension, atomically, and leaves nothing behind on failure', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kf-pic-'));
    expect(writePicture(join(dir, 'a.png'), mb.v, mb.phi, { width: 100, height: 80 })).toBe('png');
    expect(writePicture(join(dir, 'a.html'), mb.v, mb.phi)).toBe('html');
    expect(decodePng(readFileSync(join(dir, 'a.png'))).width).toBe(100);
    expect(() => writePicture(join(dir, 'a.jpg'), mb.v, mb.phi)).toThrow(/\.png or \.html/);
    mkdirSync(join(dir, 'taken.png')); // a directory where the file should go: the rename fails
    expect(() => writePicture(join(dir, 'taken.png'), mb.v, mb.phi, { width: 100, height: 80 })).toThrow();
    expect(() => writePicture(join(dir, 'b.png'), mb.v, mb.phi.subarray(1))).toThrow(/potentials for/);
    expect(() => writePicture(join(dir, 'c.png'), mb.v, mb.phi, { width: 10, height: 10 })).toThrow(/picture size/);
    expect(readdirSync(dir).sort()).toEqual(['a.html', 'a.png', 'taken.png']);
    expect(readdirSync(join(dir, 'taken.png'))).toEqual([]);
  });
});
