// `kernforge run gem <molecule.pqr>`: GEM's electrostatic surface potential (REFERENCES.md
// section 3) for one molecule. Reads the atoms and the MSMS surface (--vert, else `<molecule>.vert`
// beside the .pqr) or generates one (runtime/gem/surface.ts: --surface, or when there is no .vert
// file; --write-vert saves it), estimates the electrostatic
// radius A (unless fixed), picks the region once, chooses a variant for that region and salt
// (or takes --variant: a TS key runs here, a WGSL key on the WebGPU adapter, runtime/gem/wgsl.ts,
// a gpu.js key in its gpu.js mode, runtime/gem/gpujs.ts, a wasm key in WebAssembly SIMD,
// runtime/gem/wasm.ts; --target wasm picks the WebAssembly default instead of the TypeScript one),
// verifies it against the f64 reference on a subset of the vertices, runs it on all of them and
// writes GEM's output format atomically (`<file>.tmp`, then rename), and on request pictures of
// the potential on the surface (--picture x.png / x.html, runtime/gem/picture.ts).
import { Command, InvalidArgumentError } from 'commander';
import { existsSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import { libraryKeys, loadTsModule, manifest, siblingKey, variantParams } from '../../runtime/variants.ts';
import {
  GemInputError, readPqr, readVert, gemParams, gemReference, pairPotential, selectRegion, checkVariant, gemArgs, gemVariantInfo,
  type GemAtoms, type GemVertices, type GemParams, type GemRegion, type GemTsModule, type GemPrecision,
} from '../../runtime/gem/index.ts';
import { generateSurface, surfaceOptions, writeVert, type GemSurface, type SurfaceKind } from '../../runtime/gem/surface.ts';
import { writePicture } from '../../runtime/gem/picture.ts';
import { runGemParallel, shareGemArgs } from '../../runtime/gem/run.ts';
import { Pool, withPool, parseThreads, ThreadCountError } from '../../runtime/parallel/pool.ts';
import { writeFileAtomic } from '../../runtime/files.ts';

export { UserError } from '../../runtime/errors.ts';
import { UserError } from '../../runtime/errors.ts';

export interface GemWorkloadOptions {
  /** The molecule's atoms (.pqr). */
  molecule: string;
  /** MSMS .vert surface; default: `<molecule>.vert` beside the .pqr when it exists, else a generated surface. */
  vert?: string;
  /** Generate this surface (even when a .vert file lies beside the .pqr); default 'ses' when there is no .vert. */
  surface?: SurfaceKind;
  /** Probe radius for the generated surface (Angstrom, default 1.4). */
  probe?: number;
  /** Vertices per A^2 of the generated surface (default 3, as the bundled MSMS files). */
  density?: number;
  /** Write the generated surface here as an MSMS .vert file. */
  writeVert?: string;
  /** Pictures of the potential on the surface (.png and/or .html). */
  picture?: string[];
  epsOut?: number;
  epsIn?: number;
  /** Salt concentration (mol/L). */
  salt?: number;
  /** Projection length p along the normals (Angstrom). */
  projLen?: number;
  /** A fixed electrostatic radius (Angstrom); estimated from the atoms when absent. */
  fixA?: number;
  /** Output file (default phi.out). */
  output?: string;
  /** A gem-potential variant key; default: chosen from the region and the salt. */
  variant?: string;
  /** Vertices checked against the f64 reference before the run (default 200). */
  verifyVertices?: number;
  /** Worker threads for a TypeScript or wasm variant (default 1: this thread); the vertices are split between them. */
  threads?: number | string;
  /** The target of the default variant when --variant is not given: ts (default) or wasm. */
  target?: string;
}

export interface GemVerification {
  ok: boolean;
  /** Vertices checked. */
  vertices: number;
  /** Worst error as a fraction of the tolerance (<= 1 passes). */
  worst: number;
  /** Largest absolute difference from the f64 reference. */
  maxAbs: number;
  detail: string;
}

/** Where the vertices came from. */
export interface GemSurfaceInfo {
  source: 'file' | 'generated';
  /** Generated surfaces only. */
  kind?: SurfaceKind;
  probe?: number;
  density?: number;
  gridSpacing?: number;
  /** Mesh area (A^2) of a generated surface. */
  area?: number;
  /** Generation time (s). */
  seconds?: number;
  /** The .vert file written (--write-vert). */
  wroteVert?: string;
}

export interface GemWorkloadSummary {
  molecule: string;
  /** The .vert file read, or `generated <kind>`. */
  vert: string;
  surface: GemSurfaceInfo;
  /** Pictures written. */
  pictures: string[];
  output: string;
  atoms: number;
  vertices: number;
  A: number;
  /** True when A was computed from the atoms (not --fix-a). */
  aEstimated: boolean;
  region: GemRegion;
  params: GemParams;
  variant: string;
  /** Where the variant came from. */
  variantSource: 'library' | 'on-demand' | 'given' | 'tuned';
  /** Where the kernel ran: 'TypeScript (this process)' or `WebGPU <adapter>`. */
  device: string;
  verification: GemVerification;
  minPhi: number;
  maxPhi: number;
  /** Kernel time over all vertices (s). */
  kernelSeconds: number;
  /** Read to written (s). */
  totalSeconds: number;
  /** atoms x vertices / kernelSeconds. */
  pairsPerSecond: number;
}

const PREFERRED = { precision: 'f32', unroll: 4, rsqrt: 'div', block: 0 } as const;

/** Targets `run gem --target` accepts (the CPU ones; WGSL and gpu.js variants are given with --variant). */
export const GEM_DEFAULT_TARGETS = ['ts', 'wasm'] as const;
export type GemDefaultTarget = (typeof GEM_DEFAULT_TARGETS)[number];

/**
 * The key GEM's workload prefers for a region and salt: f32, exact division, no blocking; TS
 * unrolled by 4, wasm by 8 (two f32x4 vectors of vertices, in the library for every region and salt).
 */
export function preferredGemKey(region: GemRegion, salt: 'zero' | 'nonzero', target: GemDefaultTarget = 'ts'): string {
  if (target === 'wasm') return `gem-potential.wasm.region${region}.f32.${salt}.unroll8.div.block0.vertices`;
  return `gem-potential.ts.region${region}.${PREFERRED.precision}.${salt}.unroll${PREFERRED.unroll}.${PREFERRED.rsqrt}.block${PREFERRED.block}`;
}

/**
 * The default variant for a region and salt: the preferred key if the library has it, else any
 * library variant of that region and salt (f32 first, then unroll 4), else the preferred key
 * rendered on demand.
 */
export function chooseGemVariant(region: GemRegion, salt: 'zero' | 'nonzero', target: GemDefaultTarget = 'ts'): { key: string; source: 'library' | 'on-demand' } {
  const want = preferredGemKey(region, salt, target);
  const lib = libraryKeys('gem-potential', target);
  if (lib.includes(want)) return { key: want, source: 'library' };
  const m = manifest();
  const matching = lib.filter((k) => String(m.get(k)!.params.region) === String(region) && m.get(k)!.params.salt === salt);
  const rank = (k: string): number => {
    const p = m.get(k)!.params;
    return (p.precision === 'f32' ? 0 : 2) + (Number(p.unroll) === 4 ? 0 : 1);
  };
  matching.sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  if (matching.length > 0) return { key: matching[0]!, source: 'library' };
  return { key: want, source: 'on-demand' };
}

/** Vertices `idx` of v. */
function subset(v: GemVertices, idx: number[]): GemVertices {
  const pick = (a: Float64Array) => Float64Array.from(idx, (i) => a[i]!);
  return { n: idx.length, x: pick(v.x), y: pick(v.y), z: pick(v.z), nx: pick(v.nx), ny: pick(v.ny), nz: pick(v.nz) };
}

/**
 * Tolerance per vertex, relative to the sum of the magnitudes of its per-atom terms (the scale
 * rounding errors grow with, whatever the cancellation between charges): f32 accumulates over all
 * atoms in single precision, f64 in double.
 */
export const GEM_VERIFY_RTOL: Record<GemPrecision, number> = { f32: 5e-6, f64: 1e-11 };

/** `count` vertex indices spread evenly over the surface (every vertex when there are fewer). */
function spread(n: number, count: number): number[] {
  const m = Math.min(count, n);
  return Array.from({ length: m }, (_, i) => Math.floor((i * n) / m));
}

/**
 * Compare potentials computed on the vertices `idx` of v with the f64 reference there: each
 * vertex within rtol of the sum of the magnitudes of its per-atom terms. NaN or infinity fails.
 */
export function checkGemPotentials(got: ArrayLike<number>, idx: number[], rtol: number, atoms: GemAtoms, v: GemVertices, P: GemParams, region: GemRegion): GemVerification {
  const m = idx.length;
  const sub = subset(v, idx);
  const ref = gemReference(atoms, sub, P, region);
  let worst = 0, maxAbs = 0, detail = '';
  for (let i = 0; i < m; i++) {
    // The scale: sum over atoms of |term| at this vertex, from the same formula as the reference.
    const px = sub.x[i]! + P.p * sub.nx[i]!, py = sub.y[i]! + P.p * sub.ny[i]!, pz = sub.z[i]! + P.p * sub.nz[i]!;
    const ex = sub.x[i]! + P.ionRadius * sub.nx[i]!, ey = sub.y[i]! + P.ionRadius * sub.ny[i]!, ez = sub.z[i]! + P.ionRadius * sub.nz[i]!;
    let scale = 0;
    for (let j = 0; j < atoms.n; j++) {
      const d = Math.hypot(px - atoms.x[j]!, py - atoms.y[j]!, pz - atoms.z[j]!);
      const dp = Math.hypot(ex - atoms.x[j]!, ey - atoms.y[j]!, ez - atoms.z[j]!);
      scale += Math.abs(pairPotential(region, P, P.qScale * atoms.q[j]!, d, dp));
    }
    const g = got[i]!;
    const err = Math.abs(g - ref[i]!);
    const frac = Number.isFinite(g) ? err / (rtol * scale + Number.MIN_VALUE) : Infinity;
    if (Number.isFinite(err)) maxAbs = Math.max(maxAbs, err);
    if (!(frac <= worst)) {
      worst = frac;
      detail = `vertex ${idx[i]! + 1}: ${g} vs reference ${ref[i]} (|diff| ${err.toExponential(2)}, tolerance ${(rtol * scale).toExponential(2)})`;
    }
  }
  return { ok: worst <= 1, vertices: m, worst, maxAbs, detail };
}

/**
 * Check a loaded variant against the f64 reference on `count` vertices spread evenly over the
 * surface (every vertex when there are fewer). NaN or infinity always fails.
 */
export function verifyGemModule(mod: GemTsModule, precision: GemPrecision, atoms: GemAtoms, v: GemVertices, P: GemParams, region: GemRegion, count = 200): GemVerification {
  const idx = spread(v.n, count);
  const args = gemArgs(atoms, subset(v, idx), P, precision);
  mod.kernel(args);
  return checkGemPotentials(args.phi, idx, GEM_VERIFY_RTOL[precision], atoms, v, P, region);
}

/**
 * Check a WGSL variant (one dispatch on the `count` spread vertices) against the f64 reference,
 * with the f32 tolerance. WGSL computes and accumulates in f32, yet its worst vertex on the
 * bundled molecules (every library variant, region and salt) is at 0.12 of that tolerance.
 */
export async function verifyGemWgsl(key: string, atoms: GemAtoms, v: GemVertices, P: GemParams, region: GemRegion, count = 200): Promise<GemVerification> {
  const { runGemWgsl } = await import('../../runtime/gem/wgsl.ts');
  const idx = spread(v.n, count);
  const { phi } = await runGemWgsl(key, atoms, subset(v, idx), { params: P });
  return checkGemPotentials(phi, idx, GEM_VERIFY_RTOL.f32, atoms, v, P, region);
}

/**
 * Check a wasm variant (one run on the `count` spread vertices, this thread) against the f64
 * reference with the tolerance of its precision (f32x4 computes and accumulates in float).
 * `bytes` replaces the variant's binary (tests of the gate).
 */
export async function verifyGemWasm(key: string, atoms: GemAtoms, v: GemVertices, P: GemParams, region: GemRegion, count = 200, bytes?: Uint8Array): Promise<GemVerification> {
  const { runGemWasm } = await import('../../runtime/gem/wasm.ts');
  const info = await gemVariantInfo(key);
  const idx = spread(v.n, count);
  const { phi } = await runGemWasm(key, atoms, subset(v, idx), { params: P, bytes });
  return checkGemPotentials(phi, idx, GEM_VERIFY_RTOL[info.precision], atoms, v, P, region);
}

/**
 * Check a gpu.js variant (its own kernel in its mode, on the `count` spread vertices) against the
 * f64 reference with the f32 tolerance (gpu.js computes in single precision).
 */
export async function verifyGemGpujs(key: string, atoms: GemAtoms, v: GemVertices, P: GemParams, region: GemRegion, count = 200): Promise<GemVerification> {
  const { runGemGpujs } = await import('../../runtime/gem/gpujs.ts');
  const idx = spread(v.n, count);
  const { phi } = await runGemGpujs(key, atoms, subset(v, idx), { params: P });
  return checkGemPotentials(phi, idx, GEM_VERIFY_RTOL.f32, atoms, v, P, region);
}

/** The workload's gate for a key of any target: TS, wasm, WGSL or gpu.js, on `count` spread vertices. */
export async function verifyGemKey(key: string, atoms: GemAtoms, v: GemVertices, P: GemParams, region: GemRegion, count = 200): Promise<GemVerification> {
  const target = key.split('.')[1];
  if (target === 'wgsl') return verifyGemWgsl(key, atoms, v, P, region, count);
  if (target === 'wasm') return verifyGemWasm(key, atoms, v, P, region, count);
  if (target === 'gpujs') return verifyGemGpujs(key, atoms, v, P, region, count);
  const info = await gemVariantInfo(key);
  return verifyGemModule(await loadTsModule<GemTsModule>(key), info.precision, atoms, v, P, region, count);
}

/** GEM's output format: header, then `x y z  phi` per vertex. */
export function formatGemOutput(v: GemVertices, phi: ArrayLike<number>): string {
  const lines = new Array<string>(v.n + 1);
  lines[0] = 'X    Y    Z     potential';
  for (let i = 0; i < v.n; i++) lines[i + 1] = `${v.x[i]!.toFixed(6)} ${v.y[i]!.toFixed(6)} ${v.z[i]!.toFixed(6)}  ${phi[i]!.toFixed(6)}`;
  return `${lines.join('\n')}\n`;
}

/** Write `text` to `file` through `<file>.tmp` and a rename; nothing is left behind on failure. */
function writeAtomically(file: string, text: string): void {
  try {
    writeFileAtomic(file, text);
  } catch (e) {
    throw new UserError(`cannot write ${file}: ${(e as Error).message}`);
  }
}

/** Run a reader, turning its errors (malformed input, missing file) into user errors. */
function readInput<T>(path: string, what: string, read: (p: string) => T): T {
  if (!existsSync(path)) throw new UserError(`${what} not found: ${path}`);
  try {
    return read(path);
  } catch (e) {
    if (e instanceof GemInputError) throw new UserError(e.message);
    const code = (e as NodeJS.ErrnoException).code;
    if (code) throw new UserError(`cannot read ${what} ${path}: ${(e as Error).message}`);
    throw e;
  }
}

function checkNumber(name: string, x: number | undefined, ok: (x: number) => boolean, what: string): void {
  if (x !== undefined && !(Number.isFinite(x) && ok(x))) throw new UserError(`${name} must be ${what}, got ${x}`);
}

/** The surface file: --vert, else `<molecule>.vert` beside the .pqr unless --surface asks for a generated one; undefined: generate. */
function findVert(molecule: string, vert?: string, surface?: SurfaceKind): string | undefined {
  if (vert) return vert;
  if (surface) return undefined;
  const guess = join(dirname(molecule), `${basename(molecule, extname(molecule))}.vert`);
  return existsSync(guess) ? guess : undefined;
}

interface VariantRun {
  phi: ArrayLike<number>;
  verification: GemVerification;
  kernelSeconds: number;
  /** WGSL: the WebGPU adapter. */
  device?: string;
}

const refuse = (key: string, v: GemVerification): UserError =>
  new UserError(`variant ${key} failed verification against the f64 reference on ${v.vertices} vertices (${v.worst.toFixed(2)} x tolerance): ${v.detail}; refusing to use it`);

/**
 * A TypeScript variant: verified on a subset, then run on every vertex, on this thread or split
 * over `threads` workers (kernelSeconds leaves out starting them and loading the variant there).
 */
async function runTsVariant(key: string, precision: GemPrecision, atoms: GemAtoms, verts: GemVertices, params: GemParams, region: GemRegion, count: number, threads = 1): Promise<VariantRun> {
  const mod = await loadTsModule<GemTsModule>(key);
  const verification = verifyGemModule(mod, precision, atoms, verts, params, region, count);
  if (!verification.ok) throw refuse(key, verification);
  if (threads > 1) {
    return withPool(threads, async (pool) => {
      await pool.preload([key]);
      const args = shareGemArgs(gemArgs(atoms, verts, params, precision));
      const tk = performance.now();
      await runGemParallel(pool, key, args);
      return { phi: args.phi, verification, kernelSeconds: (performance.now() - tk) / 1000, device: `TypeScript (this process, ${threads} worker threads)` };
    });
  }
  const args = gemArgs(atoms, verts, params, precision);
  const tk = performance.now();
  mod.kernel(args);
  return { phi: args.phi, verification, kernelSeconds: (performance.now() - tk) / 1000 };
}

/**
 * A wasm variant: verified on a subset (this thread), then run on every vertex, on this thread or
 * split over `threads` workers (kernelSeconds: one run, the inputs already in the instances' memory).
 */
async function runWasmVariant(key: string, atoms: GemAtoms, verts: GemVertices, params: GemParams, region: GemRegion, count: number, threads = 1): Promise<VariantRun> {
  const verification = await verifyGemWasm(key, atoms, verts, params, region, count);
  if (!verification.ok) throw refuse(key, verification);
  const { prepareGemWasm } = await import('../../runtime/gem/wasm.ts');
  const prep = await prepareGemWasm(key, atoms, verts, { params, threads });
  try {
    const tk = performance.now();
    const phi = await prep.run();
    const where = threads > 1 ? `${threads} worker threads` : 'one thread';
    return { phi, verification, kernelSeconds: (performance.now() - tk) / 1000, device: `WebAssembly SIMD (this process, ${where})` };
  } finally {
    await prep.destroy();
  }
}

/**
 * A WGSL variant on the WebGPU adapter: verified on a subset (one dispatch), then one dispatch
 * over every vertex (kernelSeconds: that dispatch, uploads and read-back left out).
 */
async function runWgslVariant(key: string, atoms: GemAtoms, verts: GemVertices, params: GemParams, region: GemRegion, count: number): Promise<VariantRun> {
  const { NoAdapterError } = await import('../../runtime/backends/webgpu.ts');
  const { prepareGemWgsl, gemAdapter } = await import('../../runtime/gem/wgsl.ts');
  let adapter: { name: string; cpu: boolean };
  try {
    adapter = await gemAdapter();
  } catch (e) {
    if (e instanceof NoAdapterError) throw new UserError(`variant ${key} is a WGSL variant and needs a WebGPU adapter, but ${e.message.replace(/^no WebGPU adapter: /, 'none was found: ')} (leave out --variant, or give a gem-potential.ts key, to run on the CPU)`);
    throw e;
  }
  const verification = await verifyGemWgsl(key, atoms, verts, params, region, count);
  if (!verification.ok) throw refuse(key, verification);
  const prep = await prepareGemWgsl(key, atoms, verts, { params });
  try {
    const tk = performance.now();
    await prep.dispatch();
    const kernelSeconds = (performance.now() - tk) / 1000;
    return { phi: await prep.result(), verification, kernelSeconds, device: `WebGPU ${adapter.name}${adapter.cpu ? ' (a CPU rasterizer, not a GPU)' : ''}` };
  } finally {
    prep.destroy();
  }
}

/**
 * A gpu.js variant in its backend (mode): verified on a subset (its own kernel over the spread
 * vertices), then one kernel over every vertex (kernelSeconds: that run, compilation included,
 * since gpu.js compiles on the first call).
 */
async function runGpujsVariant(key: string, atoms: GemAtoms, verts: GemVertices, params: GemParams, region: GemRegion, count: number): Promise<VariantRun> {
  const { prepareGemGpujs, GpujsModeError } = await import('../../runtime/gem/gpujs.ts');
  let verification: GemVerification;
  try {
    verification = await verifyGemGpujs(key, atoms, verts, params, region, count);
  } catch (e) {
    if (e instanceof GpujsModeError) throw new UserError(`variant ${key}: ${e.message} (leave out --variant, or give a gem-potential.ts key, to run on the CPU)`);
    throw e;
  }
  if (!verification.ok) throw refuse(key, verification);
  const prep = await prepareGemGpujs(key, atoms, verts, { params });
  try {
    const tk = performance.now();
    const phi = await prep.run();
    return { phi, verification, kernelSeconds: (performance.now() - tk) / 1000, device: `gpu.js ${prep.mode} mode (this process)` };
  } finally {
    prep.destroy();
  }
}

/** The whole workload; returns the summary (the output file is written on success only). */
export async function runGemWorkload(o: GemWorkloadOptions): Promise<GemWorkloadSummary> {
  const t0 = performance.now();
  checkNumber('--eps-out', o.epsOut, (x) => x > 0, 'a positive number');
  checkNumber('--eps-in', o.epsIn, (x) => x > 0, 'a positive number');
  checkNumber('--salt', o.salt, (x) => x >= 0, 'a number >= 0 (mol/L)');
  checkNumber('--proj-len', o.projLen, () => true, 'a number (Angstrom)');
  checkNumber('--fix-a', o.fixA, (x) => x > 0, 'a positive number (Angstrom)');
  let threads: number;
  try {
    threads = parseThreads(o.threads ?? 1);
  } catch (e) {
    if (e instanceof ThreadCountError) throw new UserError(e.message);
    throw e;
  }
  const output = o.output ?? 'phi.out';
  if (o.target !== undefined && !(GEM_DEFAULT_TARGETS as readonly string[]).includes(o.target)) {
    throw new UserError(`--target ${o.target}: allowed are ${GEM_DEFAULT_TARGETS.join(', ')} (WGSL and gpu.js variants are given with --variant)`);
  }
  const defaultTarget = (o.target ?? 'ts') as GemDefaultTarget;
  if (o.vert && o.surface) throw new UserError('--vert reads a surface and --surface generates one: give one of them');
  const vertPath = findVert(o.molecule, o.vert, o.surface);
  if (vertPath) {
    for (const [name, x] of [['--probe', o.probe], ['--density', o.density], ['--write-vert', o.writeVert]] as const) {
      if (x !== undefined) throw new UserError(`${name} applies to a generated surface, but the surface is read from ${vertPath} (use --surface ses|sas to generate one)`);
    }
  }
  let genOpts: ReturnType<typeof surfaceOptions> | undefined;
  try {
    if (!vertPath) genOpts = surfaceOptions({ kind: o.surface, probe: o.probe, density: o.density });
  } catch (e) {
    if (e instanceof GemInputError) throw new UserError(e.message.replace(/^(surface|probe radius|density)/, (w) => ({ surface: '--surface', 'probe radius': '--probe', density: '--density' })[w]!));
    throw e;
  }
  for (const f of o.picture ?? []) {
    if (!/\.(png|html?)$/i.test(f)) throw new UserError(`--picture ${f}: the name must end in .png or .html`);
  }
  const atoms = readInput(o.molecule, 'molecule', readPqr);
  let verts: GemVertices;
  let generated: GemSurface | undefined;
  if (vertPath) verts = readInput(vertPath, 'surface', readVert);
  else {
    try {
      verts = generated = generateSurface(atoms, genOpts);
    } catch (e) {
      if (e instanceof GemInputError) throw new UserError(`${o.molecule}: surface generation: ${e.message}`);
      throw e;
    }
  }

  let params: GemParams;
  try {
    params = gemParams(atoms, { epsIn: o.epsIn, epsOut: o.epsOut, salt: o.salt, p: o.projLen, A: o.fixA });
  } catch (e) {
    throw new UserError(`${o.molecule}: ${(e as Error).message}`);
  }
  if (!(Number.isFinite(params.A) && params.A > 0)) throw new UserError(`${o.molecule}: the electrostatic radius is not a positive number (${params.A}); fix it with --fix-a`);
  const region = selectRegion(params.A, params.p, params.ionRadius);
  const salt = params.kappa === 0 ? 'zero' : 'nonzero';

  let key: string, source: GemWorkloadSummary['variantSource'];
  if (o.variant) {
    if (!o.variant.startsWith('gem-potential.')) throw new UserError(`${o.variant} is not a gem-potential variant (list them with \`kernforge list gem-potential\`)`);
    key = o.variant;
    source = 'given';
    if (o.target !== undefined && o.variant.split('.')[1] !== o.target) throw new UserError(`--variant ${o.variant} is not a ${o.target} variant, but --target ${o.target} was given: give one of them`);
  } else {
    ({ key, source } = chooseGemVariant(region, salt, defaultTarget));
    // The variant tuned on this machine (kernforge tune gem-potential), carried over to this
    // region and salt (its tuning axes kept); the default above when nothing was tuned.
    const { loadTuned } = await import('../../runtime/tune/tuned.ts');
    const t = await loadTuned('gem-potential', 'surface', { load: false });
    // With --target, only a winner on that target replaces its default.
    if (t.tuned && (o.target === undefined || t.key.split('.')[1] === o.target)) {
      try {
        key = await siblingKey(t.key, { region, salt });
        source = 'tuned';
        // the thread count it won with, unless --threads says otherwise
        if (o.threads === undefined) threads = t.threads;
      } catch {
        // the tuned tuning axes are not allowed with this region and salt: keep the default
      }
    }
  }
  const info = await gemVariantInfo(key); // UnknownVariantError for keys outside the space
  try {
    checkVariant(key, info, params);
  } catch (e) {
    throw new UserError(`${(e as Error).message} (leave out --variant to choose one automatically)`);
  }
  const target = (await variantParams(key)).target;
  const { phi, verification, kernelSeconds, device } = target === 'wgsl'
    ? await runWgslVariant(key, atoms, verts, params, region, o.verifyVertices ?? 200)
    : target === 'gpujs'
      ? await runGpujsVariant(key, atoms, verts, params, region, o.verifyVertices ?? 200)
      : target === 'wasm'
        ? await runWasmVariant(key, atoms, verts, params, region, o.verifyVertices ?? 200, threads)
        : await runTsVariant(key, info.precision, atoms, verts, params, region, o.verifyVertices ?? 200, threads);
  let minPhi = Infinity, maxPhi = -Infinity;
  for (let i = 0; i < verts.n; i++) {
    const x = phi[i]!;
    if (!Number.isFinite(x)) throw new UserError(`variant ${key} gave a non-finite potential (${x}) at vertex ${i + 1}; nothing written`);
    if (x < minPhi) minPhi = x;
    if (x > maxPhi) maxPhi = x;
  }
  writeAtomically(output, formatGemOutput(verts, phi));
  const surface: GemSurfaceInfo = generated
    ? { source: 'generated', kind: generated.kind, probe: generated.probe, density: generated.density, gridSpacing: generated.gridSpacing, area: generated.totalArea, seconds: generated.seconds }
    : { source: 'file' };
  if (generated && o.writeVert) {
    try {
      writeVert(o.writeVert, generated, atoms.n, basename(o.molecule));
    } catch (e) {
      throw new UserError(`cannot write ${o.writeVert}: ${(e as Error).message}`);
    }
    surface.wroteVert = o.writeVert;
  }
  const pictures: string[] = [];
  for (const f of o.picture ?? []) {
    try {
      writePicture(f, verts, phi, { title: `${basename(o.molecule)}: ${generated ? `generated ${generated.kind.toUpperCase()}` : basename(vertPath!)}` });
    } catch (e) {
      throw new UserError(`cannot write ${f}: ${(e as Error).message}`);
    }
    pictures.push(f);
  }
  return {
    molecule: o.molecule, vert: vertPath ?? `generated ${generated!.kind}`, surface, pictures, output,
    atoms: atoms.n, vertices: verts.n, A: params.A, aEstimated: o.fixA === undefined, region, params,
    variant: key, variantSource: source, device: device ?? 'TypeScript (this process, one thread)', verification, minPhi, maxPhi,
    kernelSeconds, totalSeconds: (performance.now() - t0) / 1000,
    pairsPerSecond: (atoms.n * verts.n) / Math.max(kernelSeconds, 1e-9),
  };
}

/** The summary as printed by `kernforge run gem`. */
export function formatGemSummary(s: GemWorkloadSummary): string {
  const P = s.params;
  const g = s.surface;
  return [
    `gem: ${s.molecule} (surface ${s.vert})`,
    `  atoms      ${s.atoms}`,
    `  vertices   ${s.vertices}`,
    ...(g.source === 'generated'
      ? [`  surface    generated ${g.kind!.toUpperCase()}, probe ${g.probe} Angstrom, density ${g.density}/A^2 (grid ${g.gridSpacing!.toFixed(3)} A): area ${g.area!.toFixed(1)} A^2, ${(s.vertices / g.area!).toFixed(2)} vertices/A^2, ${(g.seconds! * 1000).toFixed(0)} ms${g.wroteVert ? `; wrote ${g.wroteVert}` : ''}`]
      : []),
    `  A          ${s.A.toFixed(4)} Angstrom (${s.aEstimated ? 'estimated' : 'fixed'})`,
    `  region     ${s.region} (p = ${P.p}, eps ${P.epsOut}/${P.epsIn}, kappa ${P.kappa.toPrecision(4)})`,
    `  device     ${s.device}`,
    `  variant    ${s.variant} (${s.variantSource}); verified on ${s.verification.vertices} vertices, worst ${s.verification.worst.toPrecision(2)} of tolerance, max |diff| ${s.verification.maxAbs.toExponential(2)}`,
    `  potential  min ${s.minPhi.toFixed(6)}, max ${s.maxPhi.toFixed(6)} kcal/mol/e`,
    `  time       ${(s.kernelSeconds * 1000).toFixed(1)} ms kernel, ${(s.totalSeconds * 1000).toFixed(1)} ms in all`,
    `  pairs/s    ${s.pairsPerSecond.toExponential(3)}`,
    `  wrote      ${[s.output, ...s.pictures].join(', ')}`,
  ].join('\n');
}

const num = (name: string) => (v: string): number => {
  const x = Number(v);
  if (v.trim() === '' || !Number.isFinite(x)) throw new InvalidArgumentError(`${name} needs a number, got "${v}"`);
  return x;
};

/** Add `gem <molecule.pqr>` to the `run` command. */
export function registerGem(run: Command): void {
  run
    .command('gem')
    .description("GEM electrostatic surface potential of a molecule: verify the chosen variant, run it on every vertex, write GEM's format")
    .argument('<molecule.pqr>', 'atoms with charges and radii (PQR)')
    .option('--vert <file>', 'MSMS .vert surface (default: <molecule>.vert beside the .pqr if it exists, else a generated SES)')
    .option('--surface <kind>', 'generate the surface: ses (solvent excluded) or sas (solvent accessible), even when a .vert lies beside the .pqr')
    .option('--probe <r>', 'probe radius of the generated surface (Angstrom)', num('--probe'))
    .option('--density <d>', 'vertices per A^2 of the generated surface (default 3, as MSMS -density 3)', num('--density'))
    .option('--write-vert <file>', 'also write the generated surface as an MSMS .vert file')
    .option('--picture <file>', 'also draw the potential on the surface: .png (rendered here) or .html (interactive viewer); repeatable', (v: string, prev: string[] = []) => [...prev, v])
    .option('--eps-out <n>', 'exterior dielectric constant', num('--eps-out'), 80)
    .option('--eps-in <n>', 'interior dielectric constant', num('--eps-in'), 1)
    .option('--salt <n>', 'salt concentration (mol/L)', num('--salt'), 0)
    .option('--proj-len <L>', 'projection length p along the normals (Angstrom)', num('--proj-len'), 0)
    .option('--fix-a <A>', 'electrostatic radius (Angstrom); estimated from the atoms when absent', num('--fix-a'))
    .option('-o, --output <file>', 'output file', 'phi.out')
    .option('--variant <key>', 'gem-potential variant, TS, wasm, WGSL or gpu.js (default: TS f32 unroll 4 for the region and salt, or the tuned one); a wasm key runs in WebAssembly SIMD, a WGSL key on the WebGPU adapter, a gpu.js key in its gpu.js mode')
    .option('--threads <n>', 'worker threads for a TypeScript or wasm variant, the vertices split between them (default 1: this thread)')
    .option('--target <t>', 'target of the default variant: ts (TypeScript f32 unroll 4) or wasm (WebAssembly SIMD f32x4, 8 vertices per iteration)')
    .action(async (molecule: string, o: { vert?: string; surface?: SurfaceKind; probe?: number; density?: number; writeVert?: string; picture?: string[]; epsOut: number; epsIn: number; salt: number; projLen: number; fixA?: number; output: string; variant?: string; threads?: string; target?: string }) => {
      const s = await runGemWorkload({ molecule, ...o });
      console.log(formatGemSummary(s));
    });
}
