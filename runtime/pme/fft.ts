// The 3-D real-to-complex FFT of the PME mesh, in f64, for any grid size (GROMACS's sizes are
// products of 2, 3, 5 and 7: 42, 48, 60, 84, ...).
//
// Why our own: no registry library does a mixed-radix f64 transform well (bench/pme-fft.ts and
// docs/pme.md have the numbers): ndarray-fft is f64 but pads every size that is not a power of
// two to a Bluestein convolution, kissfft-js and kissfft-wasm are mixed radix but f32 only,
// fft.js is power-of-two only. So this is a Stockham autosort transform (radix 4, 2, 3, 5 and a
// generic odd radix) applied to many lines at once: a grid axis of length n is transformed as
// an [n][B] array whose B lines are contiguous, so every inner loop runs over adjacent numbers
// with the twiddle factors held in registers.
//
// Layout. The real grid is x-major, [nx][ny][nz] (index (ix*ny + iy)*nz + iz, as the spread
// writes it). forward() transforms x as two real halves packed into one complex transform,
// keeping kx = 0..nx/2 (nx/2+1 planes), then y, then z after a transpose, so the spectrum is
// [nz][nxc][ny] complex (re and im in two arrays; index (kz*nxc + kx)*ny + ky). backward()
// undoes it exactly, without the 1/(nx ny nz) normalisation (as FFTW and GROMACS).

/** The radices of a Stockham pass: 4, 2, 3, 5 first, any other prime as itself. */
function factorize(n: number): number[] {
  const out: number[] = [];
  let m = n;
  while (m % 4 === 0) { out.push(4); m /= 4; }
  while (m % 2 === 0) { out.push(2); m /= 2; }
  for (const p of [3, 5]) while (m % p === 0) { out.push(p); m /= p; }
  for (let p = 7; m > 1; p += 2) while (m % p === 0) { out.push(p); m /= p; }
  return out;
}

/** The numbers an FFT runs on: f64, or f32 (a pme-mesh f32 wasm variant's transform). */
export type Real = Float64Array | Float32Array;

interface Pass { p: number; ns: number; wr: Float64Array; wi: Float64Array }

/** A transform of B contiguous lines of one length ([n][B] from `off`), result back in (re, im), (tr, ti) scratch: what RealFft3d runs along each axis. */
export interface LineFft {
  run(re: Real, im: Real, off: number, B: number, tr: Real, ti: Real, inverse: boolean): void;
}

/** A complex FFT of length n over B contiguous lines ([n][B] layout), forward (e^-) or backward (e^+), unnormalised. */
export class BatchFft implements LineFft {
  readonly n: number;
  private readonly passes: { fwd: Pass[]; bwd: Pass[] };
  /** Cosines and sines of the generic radix's DFT matrix, per generic radix. */
  private readonly generic = new Map<number, { c: Float64Array; s: Float64Array }>();

  constructor(n: number) {
    if (!Number.isInteger(n) || n < 1) throw new RangeError(`FFT length ${n} is not a positive integer`);
    this.n = n;
    const make = (sign: number): Pass[] => {
      const out: Pass[] = [];
      let ns = 1;
      for (const p of factorize(n)) {
        const wr = new Float64Array(ns * (p - 1));
        const wi = new Float64Array(ns * (p - 1));
        for (let k = 0; k < ns; k++) {
          for (let r = 1; r < p; r++) {
            const a = (sign * 2 * Math.PI * r * k) / (ns * p);
            wr[k * (p - 1) + r - 1] = Math.cos(a);
            wi[k * (p - 1) + r - 1] = Math.sin(a);
          }
        }
        out.push({ p, ns, wr, wi });
        if (p > 5 && !this.generic.has(p)) {
          const c = new Float64Array(p * p);
          const s = new Float64Array(p * p);
          for (let i = 0; i < p; i++) for (let j = 0; j < p; j++) {
            c[i * p + j] = Math.cos((2 * Math.PI * ((i * j) % p)) / p);
            s[i * p + j] = Math.sin((2 * Math.PI * ((i * j) % p)) / p);
          }
          this.generic.set(p, { c, s });
        }
        ns *= p;
      }
      return out;
    };
    this.passes = { fwd: make(-1), bwd: make(1) };
  }

  /**
   * Transforms the B lines of (re, im) ([n][B] from `off`), using (tr, ti) of n*B as scratch;
   * the result is back in (re, im).
   */
  run(re: Real, im: Real, off: number, B: number, tr: Real, ti: Real, inverse: boolean): void {
    const passes = inverse ? this.passes.bwd : this.passes.fwd;
    const sgn = inverse ? 1 : -1;
    let xr = re, xi = im, xo = off, yr = tr, yi = ti, yo = 0;
    for (const ps of passes) {
      this.pass(ps, sgn, xr, xi, xo, yr, yi, yo, B);
      const sr = xr, si = xi, so = xo;
      xr = yr; xi = yi; xo = yo; yr = sr; yi = si; yo = so;
    }
    if (xr !== re) {
      const len = this.n * B;
      re.set(xr.subarray(xo, xo + len), off);
      im.set(xi.subarray(xo, xo + len), off);
    }
  }

  private pass(ps: Pass, sgn: number, xr: Real, xi: Real, xo: number, yr: Real, yi: Real, yo: number, B: number): void {
    const n = this.n;
    switch (ps.p) {
      case 2: return pass2(ps, sgn, xr, xi, xo, yr, yi, yo, B, n);
      case 4: return pass4(ps, sgn, xr, xi, xo, yr, yi, yo, B, n);
      case 3: return pass3(ps, sgn, xr, xi, xo, yr, yi, yo, B, n);
      case 5: return pass5(ps, sgn, xr, xi, xo, yr, yi, yo, B, n);
      case 7: return pass7(ps, sgn, xr, xi, xo, yr, yi, yo, B, n);
      default: return passGeneric(ps, sgn, xr, xi, xo, yr, yi, yo, B, n, this.generic.get(ps.p)!);
    }
  }
}

/** One Stockham pass of radix 2 (its own function, so V8 optimises each radix separately). */
function pass2(ps: Pass, sgn: number, xr: Real, xi: Real, xo: number, yr: Real, yi: Real, yo: number, B: number, n: number): void {
  const { p, ns, wr, wi } = ps;
  const m = n / p;
  const sB = m * B;
  const oB = ns * B;
  for (let j = 0; j < m; j++) {
    const k = j % ns;
    const inBase = xo + j * B;
    const outBase = yo + ((j - k) * p + k) * B;
    const t = k * (p - 1);
    const w1r = wr[t], w1i = wi[t];
    for (let b = 0; b < B; b++) {
      const i0 = inBase + b;
      const ar = xr[i0], ai = xi[i0];
      const cr0 = xr[i0 + sB], ci0 = xi[i0 + sB];
      const cr = cr0 * w1r - ci0 * w1i, ci = cr0 * w1i + ci0 * w1r;
      const o = outBase + b;
      yr[o] = ar + cr; yi[o] = ai + ci;
      yr[o + oB] = ar - cr; yi[o + oB] = ai - ci;
    }
  }
}

/** One Stockham pass of radix 4 (its own function, so V8 optimises each radix separately). */
function pass4(ps: Pass, sgn: number, xr: Real, xi: Real, xo: number, yr: Real, yi: Real, yo: number, B: number, n: number): void {
  const { p, ns, wr, wi } = ps;
  const m = n / p;
  const sB = m * B;
  const oB = ns * B;
  for (let j = 0; j < m; j++) {
    const k = j % ns;
    const inBase = xo + j * B;
    const outBase = yo + ((j - k) * p + k) * B;
    const t = k * (p - 1);
    const w1r = wr[t], w1i = wi[t], w2r = wr[t + 1], w2i = wi[t + 1], w3r = wr[t + 2], w3i = wi[t + 2];
    for (let b = 0; b < B; b++) {
      const i0 = inBase + b;
      const ar = xr[i0], ai = xi[i0];
      let r = xr[i0 + sB], i = xi[i0 + sB];
      const br = r * w1r - i * w1i, bi = r * w1i + i * w1r;
      r = xr[i0 + 2 * sB]; i = xi[i0 + 2 * sB];
      const cr = r * w2r - i * w2i, ci = r * w2i + i * w2r;
      r = xr[i0 + 3 * sB]; i = xi[i0 + 3 * sB];
      const dr = r * w3r - i * w3i, di = r * w3i + i * w3r;
      const s0r = ar + cr, s0i = ai + ci, d0r = ar - cr, d0i = ai - ci;
      const s1r = br + dr, s1i = bi + di;
      // (b - d) times sgn*i
      const d1r = -sgn * (bi - di), d1i = sgn * (br - dr);
      const o = outBase + b;
      yr[o] = s0r + s1r; yi[o] = s0i + s1i;
      yr[o + oB] = d0r + d1r; yi[o + oB] = d0i + d1i;
      yr[o + 2 * oB] = s0r - s1r; yi[o + 2 * oB] = s0i - s1i;
      yr[o + 3 * oB] = d0r - d1r; yi[o + 3 * oB] = d0i - d1i;
    }
  }
}

/** One Stockham pass of radix 3 (its own function, so V8 optimises each radix separately). */
function pass3(ps: Pass, sgn: number, xr: Real, xi: Real, xo: number, yr: Real, yi: Real, yo: number, B: number, n: number): void {
  const { p, ns, wr, wi } = ps;
  const m = n / p;
  const sB = m * B;
  const oB = ns * B;
  for (let j = 0; j < m; j++) {
    const k = j % ns;
    const inBase = xo + j * B;
    const outBase = yo + ((j - k) * p + k) * B;
    const t = k * (p - 1);
    const w1r = wr[t], w1i = wi[t], w2r = wr[t + 1], w2i = wi[t + 1];
    const c = -0.5, s = sgn * Math.sqrt(3) / 2;
    for (let b = 0; b < B; b++) {
      const i0 = inBase + b;
      const ar = xr[i0], ai = xi[i0];
      let r = xr[i0 + sB], i = xi[i0 + sB];
      const br = r * w1r - i * w1i, bi = r * w1i + i * w1r;
      r = xr[i0 + 2 * sB]; i = xi[i0 + 2 * sB];
      const cr = r * w2r - i * w2i, ci = r * w2i + i * w2r;
      const tr = br + cr, ti = bi + ci;
      const mr = ar + c * tr, mi = ai + c * ti;
      const ur = -s * (bi - ci), ui = s * (br - cr);
      const o = outBase + b;
      yr[o] = ar + tr; yi[o] = ai + ti;
      yr[o + oB] = mr + ur; yi[o + oB] = mi + ui;
      yr[o + 2 * oB] = mr - ur; yi[o + 2 * oB] = mi - ui;
    }
  }
}

/** One Stockham pass of radix 5 (its own function, so V8 optimises each radix separately). */
function pass5(ps: Pass, sgn: number, xr: Real, xi: Real, xo: number, yr: Real, yi: Real, yo: number, B: number, n: number): void {
  const { p, ns, wr, wi } = ps;
  const m = n / p;
  const sB = m * B;
  const oB = ns * B;
  for (let j = 0; j < m; j++) {
    const k = j % ns;
    const inBase = xo + j * B;
    const outBase = yo + ((j - k) * p + k) * B;
    const t = k * (p - 1);
    const w1r = wr[t], w1i = wi[t], w2r = wr[t + 1], w2i = wi[t + 1], w3r = wr[t + 2], w3i = wi[t + 2], w4r = wr[t + 3], w4i = wi[t + 3];
    const c1 = Math.cos((2 * Math.PI) / 5), c2 = Math.cos((4 * Math.PI) / 5);
    const s1 = sgn * Math.sin((2 * Math.PI) / 5), s2 = sgn * Math.sin((4 * Math.PI) / 5);
    for (let b = 0; b < B; b++) {
      const i0 = inBase + b;
      const ar = xr[i0], ai = xi[i0];
      let r = xr[i0 + sB], i = xi[i0 + sB];
      const br = r * w1r - i * w1i, bi = r * w1i + i * w1r;
      r = xr[i0 + 2 * sB]; i = xi[i0 + 2 * sB];
      const cr = r * w2r - i * w2i, ci = r * w2i + i * w2r;
      r = xr[i0 + 3 * sB]; i = xi[i0 + 3 * sB];
      const dr = r * w3r - i * w3i, di = r * w3i + i * w3r;
      r = xr[i0 + 4 * sB]; i = xi[i0 + 4 * sB];
      const er = r * w4r - i * w4i, ei = r * w4i + i * w4r;
      const p1r = br + er, p1i = bi + ei, m1r = br - er, m1i = bi - ei;
      const p2r = cr + dr, p2i = ci + di, m2r = cr - dr, m2i = ci - di;
      const a1r = ar + c1 * p1r + c2 * p2r, a1i = ai + c1 * p1i + c2 * p2i;
      const a2r = ar + c2 * p1r + c1 * p2r, a2i = ai + c2 * p1i + c1 * p2i;
      // i*(s1 m1 + s2 m2) and i*(s2 m1 - s1 m2)
      const b1r = -(s1 * m1i + s2 * m2i), b1i = s1 * m1r + s2 * m2r;
      const b2r = -(s2 * m1i - s1 * m2i), b2i = s2 * m1r - s1 * m2r;
      const o = outBase + b;
      yr[o] = ar + p1r + p2r; yi[o] = ai + p1i + p2i;
      yr[o + oB] = a1r + b1r; yi[o + oB] = a1i + b1i;
      yr[o + 2 * oB] = a2r + b2r; yi[o + 2 * oB] = a2i + b2i;
      yr[o + 3 * oB] = a2r - b2r; yi[o + 3 * oB] = a2i - b2i;
      yr[o + 4 * oB] = a1r - b1r; yi[o + 4 * oB] = a1i - b1i;
    }
  }
}

/** One Stockham pass of radix 7 (its own function, so V8 optimises each radix separately). */
function pass7(ps: Pass, sgn: number, xr: Real, xi: Real, xo: number, yr: Real, yi: Real, yo: number, B: number, n: number): void {
  const { p, ns, wr, wi } = ps;
  const m = n / p;
  const sB = m * B;
  const oB = ns * B;
  for (let j = 0; j < m; j++) {
    const k = j % ns;
    const inBase = xo + j * B;
    const outBase = yo + ((j - k) * p + k) * B;
    const t = k * (p - 1);
    // pairs r and 7 - r: p_r = v_r + v_{7-r}, m_r = v_r - v_{7-r}; out_q = v0 + sum c(qr) p_r + i sum s(qr) m_r
    const w = [wr[t], wi[t], wr[t + 1], wi[t + 1], wr[t + 2], wi[t + 2], wr[t + 3], wi[t + 3], wr[t + 4], wi[t + 4], wr[t + 5], wi[t + 5]] as number[];
    const c1 = Math.cos((2 * Math.PI) / 7), c2 = Math.cos((4 * Math.PI) / 7), c3 = Math.cos((6 * Math.PI) / 7);
    const s1 = sgn * Math.sin((2 * Math.PI) / 7), s2 = sgn * Math.sin((4 * Math.PI) / 7), s3 = sgn * Math.sin((6 * Math.PI) / 7);
    const w1r = w[0]!, w1i = w[1]!, w2r = w[2]!, w2i = w[3]!, w3r = w[4]!, w3i = w[5]!, w4r = w[6]!, w4i = w[7]!, w5r = w[8]!, w5i = w[9]!, w6r = w[10]!, w6i = w[11]!;
    for (let b = 0; b < B; b++) {
      const i0 = inBase + b;
      const ar = xr[i0], ai = xi[i0];
      let r = xr[i0 + sB], i = xi[i0 + sB];
      const v1r = r * w1r - i * w1i, v1i = r * w1i + i * w1r;
      r = xr[i0 + 2 * sB]; i = xi[i0 + 2 * sB];
      const v2r = r * w2r - i * w2i, v2i = r * w2i + i * w2r;
      r = xr[i0 + 3 * sB]; i = xi[i0 + 3 * sB];
      const v3r = r * w3r - i * w3i, v3i = r * w3i + i * w3r;
      r = xr[i0 + 4 * sB]; i = xi[i0 + 4 * sB];
      const v4r = r * w4r - i * w4i, v4i = r * w4i + i * w4r;
      r = xr[i0 + 5 * sB]; i = xi[i0 + 5 * sB];
      const v5r = r * w5r - i * w5i, v5i = r * w5i + i * w5r;
      r = xr[i0 + 6 * sB]; i = xi[i0 + 6 * sB];
      const v6r = r * w6r - i * w6i, v6i = r * w6i + i * w6r;
      const p1r = v1r + v6r, p1i = v1i + v6i, m1r = v1r - v6r, m1i = v1i - v6i;
      const p2r = v2r + v5r, p2i = v2i + v5i, m2r = v2r - v5r, m2i = v2i - v5i;
      const p3r = v3r + v4r, p3i = v3i + v4i, m3r = v3r - v4r, m3i = v3i - v4i;
      const a1r = ar + c1 * p1r + c2 * p2r + c3 * p3r, a1i = ai + c1 * p1i + c2 * p2i + c3 * p3i;
      const a2r = ar + c2 * p1r + c3 * p2r + c1 * p3r, a2i = ai + c2 * p1i + c3 * p2i + c1 * p3i;
      const a3r = ar + c3 * p1r + c1 * p2r + c2 * p3r, a3i = ai + c3 * p1i + c1 * p2i + c2 * p3i;
      // B_q = sum_r s(qr mod 7) m_r, with s(k) = -s(7 - k) for k > 3
      const b1r = s1 * m1r + s2 * m2r + s3 * m3r, b1i = s1 * m1i + s2 * m2i + s3 * m3i;
      const b2r = s2 * m1r - s3 * m2r - s1 * m3r, b2i = s2 * m1i - s3 * m2i - s1 * m3i;
      const b3r = s3 * m1r - s1 * m2r + s2 * m3r, b3i = s3 * m1i - s1 * m2i + s2 * m3i;
      const o = outBase + b;
      yr[o] = ar + p1r + p2r + p3r; yi[o] = ai + p1i + p2i + p3i;
      // out_q = A_q + i B_q, out_{7-q} = A_q - i B_q
      yr[o + oB] = a1r - b1i; yi[o + oB] = a1i + b1r;
      yr[o + 6 * oB] = a1r + b1i; yi[o + 6 * oB] = a1i - b1r;
      yr[o + 2 * oB] = a2r - b2i; yi[o + 2 * oB] = a2i + b2r;
      yr[o + 5 * oB] = a2r + b2i; yi[o + 5 * oB] = a2i - b2r;
      yr[o + 3 * oB] = a3r - b3i; yi[o + 3 * oB] = a3i + b3r;
      yr[o + 4 * oB] = a3r + b3i; yi[o + 4 * oB] = a3i - b3r;
    }
  }
}

/** One Stockham pass of radix Generic (its own function, so V8 optimises each radix separately). */
function passGeneric(ps: Pass, sgn: number, xr: Real, xi: Real, xo: number, yr: Real, yi: Real, yo: number, B: number, n: number, g: { c: Float64Array; s: Float64Array }): void {
  const { p, ns, wr, wi } = ps;
  const m = n / p;
  const sB = m * B;
  const oB = ns * B;
  for (let j = 0; j < m; j++) {
    const k = j % ns;
    const inBase = xo + j * B;
    const outBase = yo + ((j - k) * p + k) * B;
    const t = k * (p - 1);
    
    const vr = new Float64Array(p), vi = new Float64Array(p);
    for (let b = 0; b < B; b++) {
      const i0 = inBase + b;
      vr[0] = xr[i0]; vi[0] = xi[i0];
      for (let r = 1; r < p; r++) {
        const xr0 = xr[i0 + r * sB], xi0 = xi[i0 + r * sB];
        const cw = wr[t + r - 1], sw = wi[t + r - 1];
        vr[r] = xr0 * cw - xi0 * sw; vi[r] = xr0 * sw + xi0 * cw;
      }
      const o = outBase + b;
      for (let q = 0; q < p; q++) {
        let sr = 0, si = 0;
        for (let r = 0; r < p; r++) {
          const cc = g.c[q * p + r], ss = sgn * g.s[q * p + r];
          sr += vr[r] * cc - vi[r] * ss;
          si += vr[r] * ss + vi[r] * cc;
        }
        yr[o + q * oB] = sr; yi[o + q * oB] = si;
      }
    }
  }
}

/** Where an FFT's numbers live: `opts.alloc` (e.g. a wasm variant's memory, in its precision), else new f64 arrays. */
export function fftAlloc(opts: RealFft3dOptions | undefined): (length: number) => Real {
  return opts?.alloc ?? ((length: number) => new Float64Array(length));
}

/** Where RealFft3d's work arrays come from and which line transform runs along each axis. */
export interface RealFft3dOptions {
  /** The work arrays (default new Float64Array; e.g. views of a wasm memory, f32 for an f32 variant's transform). */
  alloc?: (length: number) => Real;
  /** The transform of one axis length (default BatchFft). */
  lines?: (n: number) => LineFft;
  /** The data moves between the line transforms and the spectrum's scaling (default: TypeScript loops). */
  ops?: FftOps;
}

/**
 * The data moves of RealFft3d between its line transforms, and the product of its spectrum with
 * a real function (PmeSolver's influence function), as another implementation runs them
 * (WasmFftOps). Each computes exactly what the TypeScript loop it replaces does, or returns false
 * where it cannot (the loop then runs).
 */
export interface FftOps {
  /** Forward, after the x transform: the packed lines' spectra (ar, ai: [nx][h]) into the half spectra of lines b and b + h (tr, ti: [nxc][B]). */
  xsplit(ar: Real, ai: Real, tr: Real, ti: Real, nx: number, nxc: number, h: number, B: number): boolean;
  /** Backward, before the x transform: the half spectra (tr, ti: [nxc][B]) into the packed lines (ar, ai: [nx][h]). */
  xjoin(tr: Real, ti: Real, ar: Real, ai: Real, nx: number, nxc: number, h: number, B: number): boolean;
  /** dst[c][r] = src[r][c] for the real and the imaginary parts (rows x cols, from index 0 of each array). */
  tp(sr: Real, si: Real, dr: Real, di: Real, rows: number, cols: number): boolean;
  /** re[k] *= g[k] and im[k] *= g[k] for every k of g. */
  scale(re: Real, im: Real, g: Real): boolean;
}

/** A 3-D real-to-complex FFT plan for one grid; see the file comment for the layouts. */
export class RealFft3d {
  readonly nx: number;
  readonly ny: number;
  readonly nz: number;
  /** nx/2 + 1: the kx planes kept (kx = 0..nx/2). */
  readonly nxc: number;
  /** The spectrum's real and imaginary parts, [nz][nxc][ny]. */
  readonly re: Real;
  readonly im: Real;
  private readonly fx: LineFft;
  private readonly fy: LineFft;
  private readonly fz: LineFft;
  private readonly ar: Real;
  private readonly ai: Real;
  private readonly tr: Real;
  private readonly ti: Real;
  private readonly ops: FftOps | undefined;

  /**
   * `opts` lets another line transform run the passes (bench/pme-fft.ts times a WebAssembly SIMD
   * one): `alloc` gives the work arrays (e.g. views of a wasm memory), `lines(n)` the transform of
   * length n (default BatchFft).
   */
  constructor(grid: readonly [number, number, number], opts: RealFft3dOptions = {}) {
    const [nx, ny, nz] = grid;
    this.nx = nx; this.ny = ny; this.nz = nz;
    this.nxc = Math.floor(nx / 2) + 1;
    const size = Math.max(nx, this.nxc * 2) * ny * nz;
    const alloc = fftAlloc(opts);
    const lines = opts.lines ?? ((n: number) => new BatchFft(n));
    this.re = alloc(this.nxc * ny * nz);
    this.im = alloc(this.nxc * ny * nz);
    this.ar = alloc(size);
    this.ai = alloc(size);
    this.tr = alloc(size);
    this.ti = alloc(size);
    this.fx = lines(nx);
    this.fy = lines(ny);
    this.fz = lines(nz);
    this.ops = opts.ops;
  }

  /** Forward transform (e^{-2 pi i k.m/n}) of the real grid [nx][ny][nz] into re/im [nz][nxc][ny]. */
  forward(grid: Real): void {
    const { nx, ny, nz, nxc, ar, ai, tr, ti } = this;
    const B = ny * nz;
    const h = B >> 1;
    // x: pack lines b (< h) as real and b + h as imaginary parts; one complex transform of h lines
    // (an odd B leaves one line, transformed alone with a zero imaginary part).
    for (let ix = 0; ix < nx; ix++) {
      const src = ix * B;
      ar.set(grid.subarray(src, src + h), ix * h);
      ai.set(grid.subarray(src + h, src + 2 * h), ix * h);
    }
    this.fx.run(ar, ai, 0, h, tr, ti, false);
    // Unpack into [nxc][ny*nz] in (tr, ti): A(k) = (Z(k) + conj Z(-k))/2, C(k) = (Z(k) - conj Z(-k))/(2i).
    if (!this.ops?.xsplit(ar, ai, tr, ti, nx, nxc, h, B)) for (let kx = 0; kx < nxc; kx++) {
      const kn = kx === 0 ? 0 : nx - kx;
      const zk = kx * h, zn = kn * h, o = kx * B;
      for (let b = 0; b < h; b++) {
        const zr = ar[zk + b], zi = ai[zk + b], wr = ar[zn + b], wi = -ai[zn + b];
        tr[o + b] = 0.5 * (zr + wr); ti[o + b] = 0.5 * (zi + wi);
        tr[o + h + b] = 0.5 * (zi - wi); ti[o + h + b] = -0.5 * (zr - wr);
      }
    }
    if (B & 1) this.oddLineForward(grid, B - 1);
    // y: per kx plane, [ny][nz] with nz lines.
    for (let kx = 0; kx < nxc; kx++) this.fy.run(tr, ti, kx * B, nz, ar, ai, false);
    // z: transpose [nxc*ny][nz] -> [nz][nxc*ny] into re/im, then transform nxc*ny lines.
    const L = nxc * ny;
    const { re, im } = this;
    if (!this.ops?.tp(tr, ti, re, im, L, nz)) for (let l = 0; l < L; l++) {
      const s = l * nz;
      for (let kz = 0; kz < nz; kz++) { re[kz * L + l] = tr[s + kz]; im[kz * L + l] = ti[s + kz]; }
    }
    this.fz.run(re, im, 0, L, ar, ai, false);
  }

  /** Backward transform (e^{+2 pi i k.m/n}, unnormalised) of re/im [nz][nxc][ny] into the real grid [nx][ny][nz]; re/im are overwritten. */
  backward(grid: Real): void {
    const { nx, ny, nz, nxc, ar, ai, tr, ti, re, im } = this;
    const L = nxc * ny;
    const B = ny * nz;
    const h = B >> 1;
    this.fz.run(re, im, 0, L, ar, ai, true);
    if (!this.ops?.tp(re, im, tr, ti, nz, L)) for (let l = 0; l < L; l++) {
      const s = l * nz;
      for (let kz = 0; kz < nz; kz++) { tr[s + kz] = re[kz * L + l]; ti[s + kz] = im[kz * L + l]; }
    }
    for (let kx = 0; kx < nxc; kx++) this.fy.run(tr, ti, kx * B, nz, ar, ai, true);
    // x: the planes kx > nx/2 are the conjugates of nx - kx. Pack Z = A + iC with A, C the
    // Hermitian spectra of lines b and b + h; the complex inverse gives a + i c.
    if (!this.ops?.xjoin(tr, ti, ar, ai, nx, nxc, h, B)) for (let kx = 0; kx < nx; kx++) {
      const conj = kx >= nxc;
      const ks = conj ? nx - kx : kx;
      const src = ks * B, dst = kx * h;
      for (let b = 0; b < h; b++) {
        const aR = tr[src + b], aI = conj ? -ti[src + b] : ti[src + b];
        const cR = tr[src + h + b], cI = conj ? -ti[src + h + b] : ti[src + h + b];
        ar[dst + b] = aR - cI; ai[dst + b] = aI + cR;
      }
    }
    if (B & 1) this.oddLineBackward(grid, B - 1);
    const or = re, oi = im; // free scratch now
    this.fx.run(ar, ai, 0, h, or, oi, true);
    for (let ix = 0; ix < nx; ix++) {
      const dst = ix * B, src = ix * h;
      grid.set(ar.subarray(src, src + h), dst);
      grid.set(ai.subarray(src, src + h), dst + h);
    }
  }

  private oddLineForward(grid: Real, b: number): void {
    const { nx, nxc, ny, nz, tr, ti } = this;
    const B = ny * nz;
    const lr = new Float64Array(nx), li = new Float64Array(nx), sr = new Float64Array(nx), si = new Float64Array(nx);
    for (let ix = 0; ix < nx; ix++) lr[ix] = grid[ix * B + b];
    this.fx.run(lr, li, 0, 1, sr, si, false);
    for (let kx = 0; kx < nxc; kx++) { tr[kx * B + b] = lr[kx]; ti[kx * B + b] = li[kx]; }
  }

  private oddLineBackward(grid: Real, b: number): void {
    const { nx, nxc, ny, nz, tr, ti } = this;
    const B = ny * nz;
    const lr = new Float64Array(nx), li = new Float64Array(nx), sr = new Float64Array(nx), si = new Float64Array(nx);
    for (let kx = 0; kx < nx; kx++) {
      const conj = kx >= nxc;
      const ks = conj ? nx - kx : kx;
      lr[kx] = tr[ks * B + b]; li[kx] = conj ? -ti[ks * B + b] : ti[ks * B + b];
    }
    this.fx.run(lr, li, 0, 1, sr, si, true);
    for (let ix = 0; ix < nx; ix++) grid[ix * B + b] = lr[ix];
  }
}

/** The FFT passes of a pme-mesh wasm variant: f<p> (forward) and b<p> (backward), p in 2, 3, 4, 5, 7, 11. */
export type WasmFftExports = Record<string, (xr: number, xi: number, yr: number, yi: number, B: number, m: number, ns: number, twr: number, twi: number) => void>;

/**
 * The line transform of RealFft3d on a pme-mesh wasm variant's SIMD passes (f64x2 over pairs of
 * adjacent lines, or f32x4 over four in an f32 variant; generator/families/pme-mesh.ts watPass).
 * Its work arrays and twiddles live in the module's memory (`alloc`, in the variant's precision);
 * a call with an odd line count, with arrays elsewhere or of the other precision, or a length
 * with a factor above 11 runs BatchFft's TypeScript passes instead.
 */
export class WasmLineFft implements LineFft {
  private readonly js: BatchFft;
  private readonly passes: { p: number; ns: number; twr: number; twi: number }[][] | undefined;
  /** Bytes per number of the module's passes (its twiddles' precision). */
  private bytes = 0;

  constructor(
    readonly n: number,
    private readonly ex: WasmFftExports,
    private readonly memory: WebAssembly.Memory,
    alloc: (length: number) => Real,
  ) {
    this.js = new BatchFft(n);
    // largest radix first: the first pass (ns = 1) has no twiddles, and the generated passes skip
    // their multiplies where k = 0, so the radix with the most twiddle work goes there
    const fac = factorize(n).sort((a, b) => b - a);
    if (fac.some((p) => !(`f${p}` in ex))) return;
    this.passes = [-1, 1].map((sign) => {
      let ns = 1;
      return fac.map((p) => {
        const wr = alloc(ns * (p - 1));
        const wi = alloc(ns * (p - 1));
        for (let k = 0; k < ns; k++) {
          for (let r = 1; r < p; r++) {
            const a = (sign * 2 * Math.PI * r * k) / (ns * p);
            wr[k * (p - 1) + r - 1] = Math.cos(a);
            wi[k * (p - 1) + r - 1] = Math.sin(a);
          }
        }
        this.bytes = wr.BYTES_PER_ELEMENT;
        const pass = { p, ns, twr: wr.byteOffset, twi: wi.byteOffset };
        ns *= p;
        return pass;
      });
    });
  }

  run(re: Real, im: Real, off: number, B: number, tr: Real, ti: Real, inverse: boolean): void {
    const buf = this.memory.buffer;
    const e = this.bytes;
    if (!this.passes || B & 1 || [re, im, tr, ti].some((a) => a.buffer !== buf || a.BYTES_PER_ELEMENT !== e)) {
      this.js.run(re, im, off, B, tr, ti, inverse);
      return;
    }
    let xr = re.byteOffset + e * off, xi = im.byteOffset + e * off, yr = tr.byteOffset, yi = ti.byteOffset;
    const ps = this.passes[inverse ? 1 : 0]!;
    for (const s of ps) {
      this.ex[`${inverse ? 'b' : 'f'}${s.p}`]!(xr, xi, yr, yi, B, this.n / s.p, s.ns, s.twr, s.twi);
      [xr, yr] = [yr, xr];
      [xi, yi] = [yi, xi];
    }
    if (ps.length % 2 === 1) {
      const len = this.n * B;
      re.set(tr.subarray(0, len), off);
      im.set(ti.subarray(0, len), off);
    }
  }
}

/** The FFT ops of a pme-mesh wasm variant (generator/families/pme-mesh.ts watFftOps), byte offsets in its memory. */
export interface WasmFftOpExports {
  xsplit(ar: number, ai: number, tr: number, ti: number, nx: number, nxc: number, h: number, B: number): void;
  xjoin(tr: number, ti: number, ar: number, ai: number, nx: number, nxc: number, h: number, B: number): void;
  tp(sr: number, si: number, dr: number, di: number, rows: number, cols: number): void;
  scale(re: number, im: number, g: number, n: number): void;
}

/**
 * RealFft3d's data moves and the spectrum's scaling on a pme-mesh wasm variant's SIMD functions
 * (in the variant's precision, `bytes` per number; the same operations as the TypeScript loops):
 * for arrays of that precision in the module's memory, an even h and, for the transposes and the
 * scaling, even lengths; false otherwise.
 */
export class WasmFftOps implements FftOps {
  constructor(private readonly ex: WasmFftOpExports, private readonly memory: WebAssembly.Memory, private readonly bytes: 4 | 8) {}

  private inMemory(...a: Real[]): boolean {
    const buf = this.memory.buffer;
    return a.every((x) => x.buffer === buf && x.BYTES_PER_ELEMENT === this.bytes);
  }

  xsplit(ar: Real, ai: Real, tr: Real, ti: Real, nx: number, nxc: number, h: number, B: number): boolean {
    if (h & 1 || !this.inMemory(ar, ai, tr, ti)) return false;
    this.ex.xsplit(ar.byteOffset, ai.byteOffset, tr.byteOffset, ti.byteOffset, nx, nxc, h, B);
    return true;
  }

  xjoin(tr: Real, ti: Real, ar: Real, ai: Real, nx: number, nxc: number, h: number, B: number): boolean {
    if (h & 1 || !this.inMemory(ar, ai, tr, ti)) return false;
    this.ex.xjoin(tr.byteOffset, ti.byteOffset, ar.byteOffset, ai.byteOffset, nx, nxc, h, B);
    return true;
  }

  tp(sr: Real, si: Real, dr: Real, di: Real, rows: number, cols: number): boolean {
    if (rows & 1 || cols & 1 || !this.inMemory(sr, si, dr, di)) return false;
    this.ex.tp(sr.byteOffset, si.byteOffset, dr.byteOffset, di.byteOffset, rows, cols);
    return true;
  }

  scale(re: Real, im: Real, g: Real): boolean {
    if (g.length & 1 || re.length < g.length || im.length < g.length || !this.inMemory(re, im, g)) return false;
    this.ex.scale(re.byteOffset, im.byteOffset, g.byteOffset, g.length);
    return true;
  }
}

/** The bytes RealFft3d's work arrays and WasmLineFft's twiddles take for one grid, with PmeSolver's influence function and prepareMesh's real grid, at `bytes` per number (an upper bound, 16-byte aligned pieces). */
export function realFft3dBytes(grid: readonly [number, number, number], bytes: 4 | 8 = 8): number {
  const [nx, ny, nz] = grid;
  const nxc = Math.floor(nx / 2) + 1;
  const size = Math.max(nx, nxc * 2) * ny * nz;
  // the spectrum (re, im), four work arrays, PmeSolver's influence function (as the spectrum)
  // and the real grid (prepareMesh's)
  const arrays = 3 * (bytes * nxc * ny * nz + 16) + 4 * (bytes * size + 16) + bytes * nx * ny * nz + 16;
  const twiddles = 2 * 2 * grid.reduce((s, n) => s + bytes * 2 * n + 16 * 8, 0);
  return arrays + twiddles;
}
