// Pictures of a GEM potential on its surface: a PNG rendered here (orthographic point splatting
// with a z-buffer, Lambert shading from the vertex normals, a colour bar) and a self-contained
// HTML viewer (inline data and a small canvas 2-D point-splat renderer; drag to rotate, wheel to
// zoom; no network). Colours: red negative, white 0, blue positive, clamped symmetrically at a
// percentile of |phi|. Files are written through `<file>.tmp` and a rename.
import { deflateSync } from 'node:zlib';

import { extname } from 'node:path';
import { GemInputError, type GemVertices } from './io.ts';
import { writeFileAtomic } from '../files.ts';

export interface PictureOptions {
  /** Image size in pixels (default 800 x 600). */
  width?: number;
  height?: number;
  /** Rotation about the vertical then the horizontal screen axis, degrees (default 30, 20). */
  yaw?: number;
  pitch?: number;
  /** Percentile of |phi| where the colours saturate (default 95). */
  percentile?: number;
  /** Title drawn nowhere in the PNG; the HTML page shows it. */
  title?: string;
}

/** Background colour of the PNG (and the HTML canvas). */
export const PICTURE_BACKGROUND: readonly [number, number, number] = [24, 26, 32];

/** The colour scale: phi clamped to [-c, c] with c the given percentile of |phi|. */
export function colourScale(phi: ArrayLike<number>, percentile = 95): number {
  if (!(percentile > 0 && percentile <= 100)) throw new GemInputError(`colour percentile must be in (0, 100], got ${percentile}`);
  const a = Float64Array.from(phi, Math.abs).sort();
  if (a.length === 0) return 1;
  const c = a[Math.min(a.length - 1, Math.max(0, Math.ceil((percentile / 100) * a.length) - 1))]!;
  return c > 0 ? c : 1;
}

/** Red (negative) - white (0) - blue (positive), t in [-1, 1]; 0..255 each. */
export function potentialColour(t: number): [number, number, number] {
  const u = Math.max(-1, Math.min(1, t));
  return u < 0 ? [255, Math.round(255 * (1 + u)), Math.round(255 * (1 + u))] : [Math.round(255 * (1 - u)), Math.round(255 * (1 - u)), 255];
}

/** A 3 x 5 pixel font for the colour bar's numbers. */
const FONT: Record<string, string> = {
  '0': '111101101101111', '1': '010110010010111', '2': '111001111100111', '3': '111001111001111', '4': '101101111001001',
  '5': '111100111001111', '6': '111100111101111', '7': '111001001001001', '8': '111101111101111', '9': '111101111001111',
  '-': '000000111000000', '+': '000010111010000', '.': '000000000000010', 'e': '000111101110011',
};

interface Canvas {
  w: number;
  h: number;
  rgb: Uint8Array;
}

function text(c: Canvas, s: string, x: number, y: number, scale: number, col: [number, number, number]): void {
  for (const ch of s) {
    const g = FONT[ch];
    if (g) {
      for (let r = 0; r < 5; r++) for (let q = 0; q < 3; q++) {
        if (g[r * 3 + q] !== '1') continue;
        for (let dy = 0; dy < scale; dy++) for (let dx = 0; dx < scale; dx++) {
          const px = x + q * scale + dx, py = y + r * scale + dy;
          if (px >= 0 && py >= 0 && px < c.w && py < c.h) c.rgb.set(col, 3 * (py * c.w + px));
        }
      }
    }
    x += 4 * scale;
  }
}

/** Typical spacing between neighbouring vertices (A): the median nearest-neighbour distance of a sample. */
export function vertexSpacing(v: GemVertices): number {
  if (v.n < 2) return 1;
  let x0 = Infinity, y0 = Infinity, z0 = Infinity, x1 = -Infinity, y1 = -Infinity, z1 = -Infinity;
  for (let i = 0; i < v.n; i++) {
    x0 = Math.min(x0, v.x[i]!); x1 = Math.max(x1, v.x[i]!);
    y0 = Math.min(y0, v.y[i]!); y1 = Math.max(y1, v.y[i]!);
    z0 = Math.min(z0, v.z[i]!); z1 = Math.max(z1, v.z[i]!);
  }
  const c = Math.max(1e-3, Math.cbrt(((x1 - x0 + 1) * (y1 - y0 + 1) * (z1 - z0 + 1)) / v.n));
  const cells = new Map<string, number[]>();
  const key = (x: number, y: number, z: number) => `${x},${y},${z}`;
  for (let i = 0; i < v.n; i++) {
    const k = key(Math.floor((v.x[i]! - x0) / c), Math.floor((v.y[i]! - y0) / c), Math.floor((v.z[i]! - z0) / c));
    const l = cells.get(k);
    if (l) l.push(i);
    else cells.set(k, [i]);
  }
  const m = Math.min(400, v.n);
  const ds: number[] = [];
  for (let s = 0; s < m; s++) {
    const i = Math.floor((s * v.n) / m);
    const cx = Math.floor((v.x[i]! - x0) / c), cy = Math.floor((v.y[i]! - y0) / c), cz = Math.floor((v.z[i]! - z0) / c);
    let best = Infinity;
    for (let dz = -1; dz <= 1; dz++) for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) {
      for (const j of cells.get(key(cx + dx, cy + dy, cz + dz)) ?? []) {
        if (j === i) continue;
        const d = Math.hypot(v.x[i]! - v.x[j]!, v.y[i]! - v.y[j]!, v.z[i]! - v.z[j]!);
        if (d > 1e-9 && d < best) best = d;
      }
    }
    if (Number.isFinite(best)) ds.push(best);
  }
  ds.sort((a, b) => a - b);
  return ds.length ? ds[Math.floor(ds.length / 2)]! : c;
}

/** Render the surface coloured by phi into RGB pixels (row major, 3 bytes a pixel). */
export function renderPotential(v: GemVertices, phi: ArrayLike<number>, o: PictureOptions = {}): { width: number; height: number; rgb: Uint8Array; clamp: number } {
  const W = o.width ?? 800, H = o.height ?? 600;
  if (!(Number.isInteger(W) && Number.isInteger(H) && W >= 64 && H >= 64 && W <= 8192 && H <= 8192)) throw new GemInputError(`picture size must be integers in 64..8192, got ${W} x ${H}`);
  if (phi.length !== v.n) throw new GemInputError(`${phi.length} potentials for ${v.n} vertices`);
  if (v.n === 0) throw new GemInputError('no vertices to draw');
  const clamp = colourScale(phi, o.percentile ?? 95);
  const c: Canvas = { w: W, h: H, rgb: new Uint8Array(W * H * 3) };
  for (let p = 0; p < W * H; p++) c.rgb.set(PICTURE_BACKGROUND, 3 * p);

  // view: centre, rotate (yaw about y, then pitch about x), fit the bounding sphere into the drawing area
  let mx = 0, my = 0, mz = 0;
  for (let i = 0; i < v.n; i++) {
    mx += v.x[i]!;
    my += v.y[i]!;
    mz += v.z[i]!;
  }
  mx /= v.n;
  my /= v.n;
  mz /= v.n;
  let rad = 0;
  for (let i = 0; i < v.n; i++) rad = Math.max(rad, Math.hypot(v.x[i]! - mx, v.y[i]! - my, v.z[i]! - mz));
  const barW = Math.max(60, Math.round(W * 0.12));
  const areaW = W - barW;
  const scale = (0.92 * Math.min(areaW, H)) / (2 * Math.max(rad, 1e-6));
  const a = ((o.yaw ?? 30) * Math.PI) / 180, b = ((o.pitch ?? 20) * Math.PI) / 180;
  const [ca, sa, cb, sb] = [Math.cos(a), Math.sin(a), Math.cos(b), Math.sin(b)];
  const rot = (x: number, y: number, z: number): [number, number, number] => {
    const x1 = ca * x + sa * z, z1 = -sa * x + ca * z;
    return [x1, cb * y - sb * z1, sb * y + cb * z1];
  };
  const splat = Math.max(1, 0.75 * vertexSpacing(v) * scale);
  const zbuf = new Float32Array(W * H).fill(-Infinity);
  const L = (() => {
    const l = [0.35, 0.45, 1];
    const n = Math.hypot(...l);
    return l.map((x) => x / n) as [number, number, number];
  })();
  const rr = Math.ceil(splat);
  for (let i = 0; i < v.n; i++) {
    const [px, py, pz] = rot(v.x[i]! - mx, v.y[i]! - my, v.z[i]! - mz);
    const [nx, ny, nz] = rot(v.nx[i]!, v.ny[i]!, v.nz[i]!);
    if (nz < -0.2) continue; // facing away
    const shade = 0.35 + 0.65 * Math.max(0, nx * L[0] + ny * L[1] + nz * L[2]);
    const col = potentialColour(phi[i]! / clamp).map((k) => Math.round(k * shade)) as [number, number, number];
    const sx = areaW / 2 + px * scale, sy = H / 2 - py * scale;
    for (let dy = -rr; dy <= rr; dy++) for (let dx = -rr; dx <= rr; dx++) {
      if (dx * dx + dy * dy > splat * splat) continue;
      const X = Math.round(sx) + dx, Y = Math.round(sy) + dy;
      if (X < 0 || Y < 0 || X >= areaW || Y >= H) continue;
      const k = Y * W + X;
      if (pz > zbuf[k]!) {
        zbuf[k] = pz;
        c.rgb.set(col, 3 * k);
      }
    }
  }

  // colour bar: blue (+clamp) at the top, red (-clamp) at the bottom, with the values
  const fs = Math.max(1, Math.round(H / 200));
  const bx = areaW + Math.round(barW * 0.15), bw = Math.max(8, Math.round(barW * 0.25));
  const by0 = Math.round(H * 0.1), by1 = Math.round(H * 0.9);
  for (let y = by0; y <= by1; y++) {
    const col = potentialColour(1 - (2 * (y - by0)) / (by1 - by0));
    for (let x = bx; x < bx + bw; x++) c.rgb.set(col, 3 * (y * W + x));
  }
  const label = (x: number) => (Math.abs(x) >= 1000 || (Math.abs(x) < 0.01 && x !== 0) ? x.toExponential(1) : x.toPrecision(3)).replace('e+', 'e');
  const white: [number, number, number] = [235, 235, 235];
  text(c, `+${label(clamp)}`, bx, by0 - 7 * fs, fs, white);
  text(c, '0', bx + bw + 3 * fs, Math.round((by0 + by1) / 2) - 2 * fs, fs, white);
  text(c, `-${label(clamp)}`, bx, by1 + 3 * fs, fs, white);
  return { width: W, height: H, rgb: c.rgb, clamp };
}

const CRC = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

function crc32(buf: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < buf.length; i++) c = CRC[(c ^ buf[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  out.set(data, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/** A PNG (8-bit RGB, no interlace, filter 0 on every row) of RGB pixels. */
export function encodePng(width: number, height: number, rgb: Uint8Array): Buffer {
  if (rgb.length !== width * height * 3) throw new Error(`encodePng: ${rgb.length} bytes for ${width} x ${height} RGB`);
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) raw.set(rgb.subarray(y * width * 3, (y + 1) * width * 3), y * (width * 3 + 1) + 1);
  const sig = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([sig, chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', new Uint8Array(0))]);
}

/** The PNG file's bytes for a surface and its potentials. */
export function potentialPng(v: GemVertices, phi: ArrayLike<number>, o: PictureOptions = {}): Buffer {
  const r = renderPotential(v, phi, o);
  return encodePng(r.width, r.height, r.rgb);
}

/** A self-contained HTML viewer: the data inline (base64 f32), a canvas point-splat renderer, a colour bar. */
export function potentialHtml(v: GemVertices, phi: ArrayLike<number>, o: PictureOptions = {}): string {
  if (phi.length !== v.n) throw new GemInputError(`${phi.length} potentials for ${v.n} vertices`);
  if (v.n === 0) throw new GemInputError('no vertices to draw');
  const clamp = colourScale(phi, o.percentile ?? 95);
  const data = new Float32Array(7 * v.n);
  for (let i = 0; i < v.n; i++) data.set([v.x[i]!, v.y[i]!, v.z[i]!, v.nx[i]!, v.ny[i]!, v.nz[i]!, phi[i]!], 7 * i);
  const b64 = Buffer.from(data.buffer).toString('base64');
  const title = (o.title ?? 'GEM surface potential').replace(/[<>&"]/g, (ch) => `&#${ch.charCodeAt(0)};`);
  const spacing = vertexSpacing(v);
  const [br, bg, bb] = PICTURE_BACKGROUND;
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>${title}</title>
<style>body{margin:0;background:rgb(${br},${bg},${bb});color:#eee;font:14px sans-serif;overflow:hidden}
#bar{position:absolute;right:24px;top:10%;height:80%;width:22px;background:linear-gradient(#0000ff,#fff,#ff0000)}
.l{position:absolute;right:54px}#info{position:absolute;left:10px;top:8px}</style></head>
<body><canvas id="c"></canvas><div id="bar"></div>
<div class="l" style="top:calc(10% - 8px)">+${clamp.toPrecision(3)}</div><div class="l" style="top:calc(50% - 8px)">0</div>
<div class="l" style="top:calc(90% - 8px)">-${clamp.toPrecision(3)}</div>
<div id="info">${title}: ${v.n} vertices, potential (kcal/mol/e) clamped at &plusmn;${clamp.toPrecision(3)}; drag to rotate, wheel to zoom</div>
<script>
"use strict";
const B="${b64}";
const bin=atob(B),u8=new Uint8Array(bin.length);for(let i=0;i<bin.length;i++)u8[i]=bin.charCodeAt(i);
const D=new Float32Array(u8.buffer),N=D.length/7,CL=${clamp},SP=${spacing},BG=[${br},${bg},${bb}];
let mx=0,my=0,mz=0;for(let i=0;i<N;i++){mx+=D[7*i];my+=D[7*i+1];mz+=D[7*i+2];}mx/=N;my/=N;mz/=N;
let rad=0;for(let i=0;i<N;i++)rad=Math.max(rad,Math.hypot(D[7*i]-mx,D[7*i+1]-my,D[7*i+2]-mz));
const cv=document.getElementById("c"),cx=cv.getContext("2d");
let yaw=${((o.yaw ?? 30) * Math.PI) / 180},pitch=${((o.pitch ?? 20) * Math.PI) / 180},zoom=1;
function col(t){t=Math.max(-1,Math.min(1,t));return t<0?[255,255*(1+t),255*(1+t)]:[255*(1-t),255*(1-t),255];}
function draw(){
const W=cv.width=innerWidth,H=cv.height=innerHeight,img=cx.createImageData(W,H),p=img.data;
for(let k=0;k<W*H;k++){p[4*k]=BG[0];p[4*k+1]=BG[1];p[4*k+2]=BG[2];p[4*k+3]=255;}
const z=new Float32Array(W*H).fill(-Infinity),s=zoom*0.9*Math.min(W-80,H)/(2*rad),r=Math.max(1,0.75*SP*s),R=Math.ceil(r);
const ca=Math.cos(yaw),sa=Math.sin(yaw),cb=Math.cos(pitch),sb=Math.sin(pitch);
const L=[0.35,0.45,1],ln=Math.hypot(L[0],L[1],L[2]);
for(let i=0;i<N;i++){
const x=D[7*i]-mx,y=D[7*i+1]-my,w=D[7*i+2]-mz;
const x1=ca*x+sa*w,z1=-sa*x+ca*w,py=cb*y-sb*z1,pz=sb*y+cb*z1;
const nx0=D[7*i+3],ny0=D[7*i+4],nz0=D[7*i+5];
const nx=ca*nx0+sa*nz0,nz1=-sa*nx0+ca*nz0,ny=cb*ny0-sb*nz1,nz=sb*ny0+cb*nz1;
if(nz<-0.2)continue;
const sh=0.35+0.65*Math.max(0,(nx*L[0]+ny*L[1]+nz*L[2])/ln),c=col(D[7*i+6]/CL);
const sx=Math.round((W-80)/2+x1*s),sy=Math.round(H/2-py*s);
for(let dy=-R;dy<=R;dy++)for(let dx=-R;dx<=R;dx++){
if(dx*dx+dy*dy>r*r)continue;const X=sx+dx,Y=sy+dy;if(X<0||Y<0||X>=W-80||Y>=H)continue;
const k=Y*W+X;if(pz>z[k]){z[k]=pz;p[4*k]=c[0]*sh;p[4*k+1]=c[1]*sh;p[4*k+2]=c[2]*sh;}}}
cx.putImageData(img,0,0);}
let drag=null;
cv.onmousedown=e=>{drag=[e.clientX,e.clientY];};
onmouseup=()=>{drag=null;};
onmousemove=e=>{if(!drag)return;yaw+=(e.clientX-drag[0])*0.01;pitch+=(e.clientY-drag[1])*0.01;drag=[e.clientX,e.clientY];requestAnimationFrame(draw);};
cv.onwheel=e=>{e.preventDefault();zoom*=Math.exp(-e.deltaY*0.001);requestAnimationFrame(draw);};
onresize=()=>requestAnimationFrame(draw);
draw();
</script></body></html>
`;
}

/** Write a picture (.png or .html by the extension) atomically (runtime/files.ts). */
export function writePicture(file: string, v: GemVertices, phi: ArrayLike<number>, o: PictureOptions = {}): 'png' | 'html' {
  const ext = extname(file).toLowerCase();
  const kind = ext === '.png' ? 'png' : ext === '.html' || ext === '.htm' ? 'html' : undefined;
  if (!kind) throw new GemInputError(`picture ${file}: the name must end in .png or .html`);
  const body = kind === 'png' ? potentialPng(v, phi, o) : potentialHtml(v, phi, o);
  writeFileAtomic(file, body);
  return kind;
}
