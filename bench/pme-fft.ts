// The PME mesh's FFT choice (issue 15): a 3-D real-to-complex forward plus complex-to-real
// backward transform of the grids PME water uses (48^3, 60^3, 42x48x60), for
//   - ours: runtime/pme/fft.ts RealFft3d (f64 Stockham radix 4/2/3/5/generic, lines batched);
//   - naive: a DFT along each axis in turn (O(n) per point per axis, f64): the baseline, timed in
//     the same run, every other time printed as a ratio to it;
//   - ndarray-fft (f64; radix 2 for powers of two, Bluestein for every other size);
//   - kissfft-wasm (f32; KISS FFT's mixed-radix real N-D transform compiled to WebAssembly);
//   - kissfft-js (f32; KISS FFT through Emscripten, complex 1-D along each axis);
//   - fft.js (radix 4, powers of two only: it cannot do these sizes; shown as such).
// The registry candidates are not dependencies of kernforge: install them into any folder
// (`npm i --prefix DIR ndarray ndarray-fft kissfft-wasm kissfft-js fft.js`) and give
// KERNFORGE_FFT_CANDIDATES=DIR; the ones missing are reported and skipped.
// Each candidate's round trip is checked against ours (max |difference| / max |value| of the
// forward spectrum), so a fast but wrong or low-precision transform shows as such.
//
// Run: npx tsx bench/pme-fft.ts [--reps N]
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { RealFft3d, BatchFft } from '../runtime/pme/fft.ts';

type Grid = [number, number, number];
const GRIDS: Grid[] = [[48, 48, 48], [60, 60, 60], [42, 48, 60]];

/** A candidate: prepare for a grid, then one forward+backward of `x`; spectrum() gives the forward result as interleaved (re, im) of the half spectrum along the last axis [nx][ny][nz/2+1], for the accuracy check. */
interface Candidate {
  name: string;
  precision: string;
  prepare(g: Grid): { roundTrip(x: Float64Array): void; spectrum(x: Float64Array): Float64Array };
}

/** Ours, with the spectrum reordered to [nx][ny][nz/2+1] (it keeps [nz][nx/2+1][ny]): compared through the z-half of a transposed grid. */
const ours: Candidate = {
  name: 'ours (runtime/pme/fft.ts)',
  precision: 'f64',
  prepare(g) {
    const f = new RealFft3d(g);
    const out = new Float64Array(g[0] * g[1] * g[2]);
    return {
      roundTrip(x) {
        f.forward(x);
        f.backward(out);
      },
      spectrum(x) {
        return spectrumOf(f, g, x);
      },
    };
  },
};

/** The naive baseline: a DFT along each axis of the full complex grid (f64, precomputed twiddles). */
const naive: Candidate = {
  name: 'naive DFT by axes',
  precision: 'f64',
  prepare(g) {
    const [nx, ny, nz] = g;
    const n = nx * ny * nz;
    const re = new Float64Array(n), im = new Float64Array(n), tr = new Float64Array(Math.max(...g)), ti = new Float64Array(Math.max(...g));
    const tw = (m: number): { c: Float64Array; s: Float64Array } => ({
      c: Float64Array.from({ length: m }, (_, k) => Math.cos((2 * Math.PI * k) / m)),
      s: Float64Array.from({ length: m }, (_, k) => Math.sin((2 * Math.PI * k) / m)),
    });
    const T = g.map(tw);
    const axis = (d: number, sign: number): void => {
      const m = g[d]!;
      const stride = d === 0 ? ny * nz : d === 1 ? nz : 1;
      const { c, s } = T[d]!;
      for (let base = 0; base < n; base++) {
        // visit each line once: base is the first point of a line
        const coord = d === 0 ? Math.floor(base / (ny * nz)) : d === 1 ? Math.floor(base / nz) % ny : base % nz;
        if (coord !== 0) continue;
        for (let k = 0; k < m; k++) {
          let sr = 0, si = 0;
          for (let j = 0, kj = 0; j < m; j++, kj = (kj + k) % m) {
            const xr = re[base + j * stride]!, xi = im[base + j * stride]!;
            const cc = c[kj]!, ss = sign * s[kj]!;
            sr += xr * cc - xi * ss;
            si += xr * ss + xi * cc;
          }
          tr[k] = sr;
          ti[k] = si;
        }
        for (let k = 0; k < m; k++) { re[base + k * stride] = tr[k]!; im[base + k * stride] = ti[k]!; }
      }
    };
    const fwd = (x: Float64Array): void => {
      re.set(x);
      im.fill(0);
      for (let d = 0; d < 3; d++) axis(d, -1);
    };
    return {
      roundTrip(x) {
        fwd(x);
        for (let d = 0; d < 3; d++) axis(d, 1);
      },
      spectrum(x) {
        fwd(x);
        return halfOf(re, im, g);
      },
    };
  },
};

/** The [nx][ny][nz/2+1] half of a full complex spectrum, interleaved. */
function halfOf(re: ArrayLike<number>, im: ArrayLike<number>, g: Grid): Float64Array {
  const [nx, ny, nz] = g;
  const hz = Math.floor(nz / 2) + 1;
  const s = new Float64Array(2 * nx * ny * hz);
  for (let a = 0; a < nx * ny; a++) for (let kz = 0; kz < hz; kz++) {
    s[2 * (a * hz + kz)] = re[a * nz + kz]!;
    s[2 * (a * hz + kz) + 1] = im[a * nz + kz]!;
  }
  return s;
}

async function registryCandidates(dir: string | undefined): Promise<{ list: Candidate[]; missing: string[] }> {
  const list: Candidate[] = [];
  const missing: string[] = [];
  if (!dir) return { list, missing: ['ndarray-fft', 'kissfft-wasm', 'kissfft-js', 'fft.js (set KERNFORGE_FFT_CANDIDATES)'] };
  const req = createRequire(join(dir, 'node_modules', 'x.js'));
  const tryReq = (name: string): any => {
    try {
      return req(name);
    } catch {
      missing.push(name);
      return undefined;
    }
  };
  const ndfft = tryReq('ndarray-fft');
  const ndarray = tryReq('ndarray');
  if (ndfft && ndarray) {
    list.push({
      name: 'ndarray-fft',
      precision: 'f64',
      prepare(g) {
        const n = g[0] * g[1] * g[2];
        const re = new Float64Array(n), im = new Float64Array(n);
        const R = ndarray(re, g), I = ndarray(im, g);
        return {
          roundTrip(x) {
            re.set(x);
            im.fill(0);
            ndfft(1, R, I);
            ndfft(-1, R, I);
          },
          spectrum(x) {
            re.set(x);
            im.fill(0);
            // ndarray-fft's direction 1 is unnormalised with e^{+i k x}: the conjugate of the others' forward
            ndfft(1, R, I);
            for (let i = 0; i < n; i++) im[i] = -im[i]!;
            return halfOf(re, im, g);
          },
        };
      },
    });
  }
  // kissfft-wasm 1.1.2's Emscripten loader fetch()es its .wasm by file path when a global fetch
  // exists (Node >= 18) and fails; hidden while it loads, it reads the file instead
  const fetch0 = globalThis.fetch;
  (globalThis as { fetch?: unknown }).fetch = undefined;
  let kw: any;
  try {
    kw = tryReq('kissfft-wasm');
    if (kw) await req('kissfft-wasm/lib/wasm.js').waitLoading();
  } finally {
    globalThis.fetch = fetch0;
  }
  if (kw) {
    list.push({
      name: 'kissfft-wasm (rfftnd)',
      precision: 'f32',
      prepare(g) {
        return {
          roundTrip(x) {
            const s = kw.rfftnd(x, g);
            kw.irfftnd(s, g);
          },
          spectrum(x) {
            return Float64Array.from(kw.rfftnd(x, g) as Float32Array);
          },
        };
      },
    });
  }
  const kj = tryReq('kissfft-js');
  if (kj) {
    list.push({
      name: 'kissfft-js (complex 1-D by axes)',
      precision: 'f32',
      prepare(g) {
        const [nx, ny, nz] = g;
        const n = nx * ny * nz;
        const plans = g.map((m) => new kj.FFT(m));
        const data = new Float64Array(2 * n);
        const line = g.map((m) => new Float32Array(2 * m));
        const axis = (d: number, inverse: boolean): void => {
          const m = g[d]!;
          const stride = d === 0 ? ny * nz : d === 1 ? nz : 1;
          const count = n / m;
          const ln = line[d]!;
          for (let l = 0; l < count; l++) {
            const base = d === 0 ? l : d === 1 ? Math.floor(l / nz) * ny * nz + (l % nz) : l * nz;
            for (let j = 0; j < m; j++) { ln[2 * j] = data[2 * (base + j * stride)]!; ln[2 * j + 1] = (inverse ? -1 : 1) * data[2 * (base + j * stride) + 1]!; }
            const out = plans[d]!.forward(ln) as Float32Array; // inverse = conj(forward(conj))
            for (let j = 0; j < m; j++) { data[2 * (base + j * stride)] = out[2 * j]!; data[2 * (base + j * stride) + 1] = (inverse ? -1 : 1) * out[2 * j + 1]!; }
          }
        };
        const fwd = (x: Float64Array): void => {
          for (let i = 0; i < n; i++) { data[2 * i] = x[i]!; data[2 * i + 1] = 0; }
          for (let d = 0; d < 3; d++) axis(d, false);
        };
        return {
          roundTrip(x) {
            fwd(x);
            for (let d = 0; d < 3; d++) axis(d, true);
          },
          spectrum(x) {
            fwd(x);
            const re = new Float64Array(n), im = new Float64Array(n);
            for (let i = 0; i < n; i++) { re[i] = data[2 * i]!; im[i] = data[2 * i + 1]!; }
            return halfOf(re, im, g);
          },
        };
      },
    });
  }
  if (!tryReq('fft.js')) {
    /* reported as missing */
  }
  return { list, missing };
}

function median(a: number[]): number {
  const s = [...a].sort((x, y) => x - y);
  return s[Math.floor(s.length / 2)]!;
}

/** Times every candidate on every grid; returns rows for the table. */
export async function benchPmeFft(o: { reps: number; dir?: string; log?: (s: string) => void }): Promise<{ grid: string; name: string; precision: string; ms: number; median: number; ratio: number; error: number }[]> {
  const log = o.log ?? console.log;
  const { list, missing } = await registryCandidates(o.dir);
  const simd = await simdCandidate();
  if (missing.length) log(`not installed (skipped): ${missing.join(', ')}`);
  log('fft.js: radix 4, powers of two only: cannot transform 42, 48 or 60 points (not timed)');
  const rows: { grid: string; name: string; precision: string; ms: number; median: number; ratio: number; error: number }[] = [];
  for (const g of GRIDS) {
    const n = g[0] * g[1] * g[2];
    const x = Float64Array.from({ length: n }, (_, i) => Math.sin(0.37 * i) + Math.cos(0.0013 * i * i));
    const ref = ours.prepare(g).spectrum(x);
    const scale = ref.reduce((m, v) => Math.max(m, Math.abs(v)), 0);
    const times = new Map<string, number>();
    for (const c of [naive, ours, simd, ...list]) {
      const p = c.prepare(g);
      const s = p.spectrum(x);
      let err = 0;
      for (let i = 0; i < ref.length; i++) err = Math.max(err, Math.abs(s[i]! - ref[i]!));
      for (let w = 0; w < (c === naive ? 1 : 3); w++) p.roundTrip(x); // warm-up (the JIT)
      const reps = c === naive ? 1 : o.reps;
      const t: number[] = [];
      for (let r = 0; r < reps; r++) {
        const t0 = performance.now();
        p.roundTrip(x);
        t.push(performance.now() - t0);
      }
      // the minimum: the least disturbed run on a shared machine (the median is printed beside it)
      const ms = Math.min(...t);
      const med = median(t);
      times.set(c.name, ms);
      rows.push({ grid: g.join('x'), name: c.name, precision: c.precision, ms, median: med, ratio: times.get(naive.name)! / ms, error: err / scale });
    }
  }
  log('grid       candidate                          prec  min ms (fwd+bwd)  median ms  x naive (min)  max error / max |X|');
  for (const r of rows) log(`${r.grid.padEnd(10)} ${r.name.padEnd(34)} ${r.precision}  ${r.ms.toFixed(2).padStart(16)}  ${r.median.toFixed(2).padStart(9)}  ${r.ratio.toFixed(1).padStart(13)}  ${r.error.toExponential(1)}`);
  return rows;
}


// ---------------------------------------------------------------------------------------------
// A kernel we could generate ourselves: the same Stockham passes in WebAssembly SIMD (f64x2 over
// pairs of adjacent lines), one function per radix and direction written out here as WAT with
// the radix's DFT constants folded, assembled with wabt, run through RealFft3d's `lines` hook on
// arrays in the module's memory (odd line counts fall back to BatchFft).

const SIMD_RADICES = [2, 3, 4, 5, 7];

/** The generated SIMD candidate: a module with every radix's passes, a bump allocator on its memory, RealFft3d on top. */
async function simdCandidate(): Promise<Candidate> {
  const { assembleWat } = await import('../generator/post.ts');
  const { watPass } = await import('../generator/families/pme-mesh.ts');
  const funcs = SIMD_RADICES.flatMap((p) => [watPass(p, -1, `f${p}`), watPass(p, 1, `b${p}`)]);
  const wat = `(module\n  (memory (export "memory") 1)\n${funcs.join('\n')}\n)`;
  const mod = await WebAssembly.compile((await assembleWat('pme-fft-simd.wat', wat)) as Uint8Array<ArrayBuffer>);
  return {
    name: 'ours in wasm SIMD (generated WAT)',
    precision: 'f64',
    prepare(g) {
      const inst = new WebAssembly.Instance(mod, {});
      const ex = inst.exports as unknown as { memory: WebAssembly.Memory } & Record<string, (...a: number[]) => void>;
      const mem = ex.memory;
      // grown once up front: growing later would detach the views already handed out
      const bytes = 6 * 8 * (g[0] + 2) * g[1] * g[2] + (1 << 20);
      mem.grow(Math.ceil(bytes / 65536));
      let top = 16;
      const alloc = (length: number): Float64Array => {
        const off = top;
        top += (8 * length + 15) & ~15;
        if (top > mem.buffer.byteLength) throw new Error('simd candidate: memory estimate too small');
        return new Float64Array(mem.buffer, off, length);
      };
      class SimdLines {
        private readonly js: BatchFft;
        private readonly passes: { p: number; ns: number; twr: number; twi: number }[][];
        constructor(readonly n: number) {
          this.js = new BatchFft(n);
          const fac: number[] = [];
          let m = n;
          for (const p of [4, 2, 3, 5, 7]) while (m % p === 0) { fac.push(p); m /= p; }
          if (m !== 1) throw new Error(`no SIMD radix for ${n}`);
          this.passes = [-1, 1].map((sign) => {
            let ns = 1;
            return fac.map((p) => {
              const wr = alloc(ns * (p - 1)), wi = alloc(ns * (p - 1));
              for (let k = 0; k < ns; k++) for (let r = 1; r < p; r++) {
                const a = (sign * 2 * Math.PI * r * k) / (ns * p);
                wr[k * (p - 1) + r - 1] = Math.cos(a);
                wi[k * (p - 1) + r - 1] = Math.sin(a);
              }
              const out = { p, ns, twr: wr.byteOffset, twi: wi.byteOffset };
              ns *= p;
              return out;
            });
          });
        }
        run(re: Float64Array, im: Float64Array, off: number, B: number, tr: Float64Array, ti: Float64Array, inverse: boolean): void {
          if (B & 1 || re.buffer !== mem.buffer || tr.buffer !== mem.buffer) return this.js.run(re, im, off, B, tr, ti, inverse);
          let xr = re.byteOffset + 8 * off, xi = im.byteOffset + 8 * off, yr = tr.byteOffset, yi = ti.byteOffset;
          const ps = this.passes[inverse ? 1 : 0]!;
          for (const s of ps) {
            ex[`${inverse ? 'b' : 'f'}${s.p}`]!(xr, xi, yr, yi, B, this.n / s.p, s.ns, s.twr, s.twi);
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
      const f = new RealFft3d(g, { alloc, lines: (n) => new SimdLines(n) });
      const out = new Float64Array(g[0] * g[1] * g[2]);
      return {
        roundTrip(x) {
          f.forward(x);
          f.backward(out);
        },
        spectrum(x) {
          return spectrumOf(f, g, x);
        },
      };
    },
  };
}

/** The spectrum of a RealFft3d as [kx][ky][kz <= nz/2] (as ours.spectrum). */
function spectrumOf(f: RealFft3d, g: Grid, x: Float64Array): Float64Array {
  f.forward(x);
  const [nx, ny, nz] = g;
  const hz = Math.floor(nz / 2) + 1;
  const s = new Float64Array(2 * nx * ny * hz);
  for (let kx = 0; kx < nx; kx++) for (let ky = 0; ky < ny; ky++) for (let kz = 0; kz < hz; kz++) {
    let ax = kx, ay = ky, az = kz, sg = 1;
    if (kx >= f.nxc) { ax = nx - kx; ay = (ny - ky) % ny; az = (nz - kz) % nz; sg = -1; }
    const i = (az * f.nxc + ax) * ny + ay;
    const o = 2 * ((kx * ny + ky) * hz + kz);
    s[o] = f.re[i]!;
    s[o + 1] = sg * f.im[i]!;
  }
  return s;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const i = process.argv.indexOf('--reps');
  await benchPmeFft({ reps: i > 0 ? Number(process.argv[i + 1]) : 5, dir: process.env.KERNFORGE_FFT_CANDIDATES });
}
