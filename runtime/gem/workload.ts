// GEM's workload (`kernforge run gem`, the main job, a library call): the electrostatic surface
// potential (REFERENCES.md section 3) of one molecule. Takes the atoms (a .pqr file, or atoms
// already read) and the surface (an MSMS .vert file: the given one, else `<molecule>.vert` beside
// the .pqr; vertices already read; or a surface generated here, runtime/gem/surface.ts, which
// `writeVert` saves), estimates the electrostatic radius A (unless fixed), picks the region once,
// chooses a variant for that region and salt (runtime/gem/defaults.ts, or the variant tuned on
// this machine, or the given one), runs it on its target's runner (runtime/gem/targets.ts: a TS
// key here, a WGSL key on the WebGPU adapter, a gpu.js key in its gpu.js mode, a wasm key in
// WebAssembly SIMD), verifies it against the f64 reference on a subset of
// the vertices (runtime/gem/gate.ts), runs it on all of them and writes GEM's output format
// atomically (unless output is null), and on request pictures of the potential on the surface
// (runtime/gem/picture.ts). Every mistake in the input is a UserError (runtime/errors.ts); the
// option names in the messages are the command line's.
import { keyTarget } from '../keys.ts';
import { existsSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import { variantParams } from '../variants.ts';
import { GemInputError, readPqr, readVert, type GemAtoms, type GemVertices } from './io.ts';
import { gemParams, selectRegion, type GemParams, type GemRegion } from './model.ts';
import { carryOverGemKey, checkVariant, gemVariantInfo } from './run.ts';
import { generateSurface, surfaceOptions, writeVert, type GemSurface, type SurfaceKind } from './surface.ts';
import { writePicture } from './picture.ts';
import { checkGemInputs } from './inputs.ts';
import { chooseGemVariant, GEM_DEFAULT_TARGETS, type GemDefaultTarget } from './defaults.ts';
import { verifyGemKey, type GemVerification } from './gate.ts';
import { GEM_TARGETS } from './targets.ts';
import { parseThreads, ThreadCountError } from '../parallel/pool.ts';
import { writeFileAtomic } from '../files.ts';
import { checkOutputFile } from '../output.ts';
import { UserError } from '../errors.ts';

export interface GemWorkloadOptions {
  /** The molecule's atoms (.pqr file); or give `atoms`. */
  molecule?: string;
  /** The atoms, already read (instead of `molecule`). */
  atoms?: GemAtoms;
  /** The surface's vertices, already read (instead of `vert` or a generated surface). */
  vertices?: GemVertices;
  /** The molecule's name in messages, the summary and pictures (default: the .pqr's name, else 'molecule'). */
  name?: string;
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
  /** Output file (default phi.out); null: write none (the potentials are in the summary's phi). */
  output?: string | null;
  /** A gem-potential variant key; default: chosen from the region and the salt. */
  variant?: string;
  /** Vertices checked against the f64 reference before the run (default 200). */
  verifyVertices?: number;
  /** Worker threads for a TypeScript or wasm variant (default 1: this thread); the vertices are split between them. */
  threads?: number | string;
  /** The target of the default variant when --variant is not given: ts (default) or wasm. */
  target?: string;
  /** Memory limit for a generated surface (bytes, or a size such as '4G'; `--max-memory`); default: half of the machine's memory (runtime/limits.ts). */
  maxMemory?: number | string;
  /**
   * Run on the vertices [first, end) only (a shard of a batch, runtime/batch/gem.ts): the inputs
   * are checked whole, then the variant is verified on and runs over that range; phi, the output
   * and the summary hold the range's vertices only. A function gets the surface's vertex count.
   */
  vertexRange?: [number, number] | ((vertices: number) => [number, number]);
}

/** Where the vertices came from. */
export interface GemSurfaceInfo {
  source: 'file' | 'generated' | 'given';
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
  /** The .pqr file read, or the name of the atoms given. */
  molecule: string;
  /** The .vert file read, `generated <kind>`, or `given` for vertices passed in. */
  vert: string;
  surface: GemSurfaceInfo;
  /** Pictures written. */
  pictures: string[];
  /** The output file written; null when none was asked for. */
  output: string | null;
  /** The potential at every vertex (kcal/mol/e), in the variant's precision. */
  phi: ArrayLike<number>;
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

/** GEM's output format: header, then `x y z  phi` per vertex. */
export function formatGemOutput(v: GemVertices, phi: ArrayLike<number>): string {
  const lines = new Array<string>(v.n + 1);
  lines[0] = 'X    Y    Z     potential';
  for (let i = 0; i < v.n; i++) lines[i + 1] = `${v.x[i]!.toFixed(6)} ${v.y[i]!.toFixed(6)} ${v.z[i]!.toFixed(6)}  ${phi[i]!.toFixed(6)}`;
  return `${lines.join('\n')}\n`;
}

/** Write `text` to `file` by the output policy (runtime/output.ts): complete or not at all, a failure one line. */
function writeAtomically(file: string, text: string): void {
  try {
    writeFileAtomic(file, text);
  } catch (e) {
    if (e instanceof UserError) throw e; // an OutputError: names the file already
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

/** Atoms given to the API: n and one finite coordinate, charge and radius array of length n each. */
function checkAtoms(a: GemAtoms): GemAtoms {
  checkArrays('atoms', a, ['x', 'y', 'z', 'q', 'r']);
  if (a.n < 1) throw new UserError('atoms: there are no atoms');
  return a;
}

/** Vertices given to the API: n and finite positions and normals of length n each. */
function checkVertices(v: GemVertices): GemVertices {
  checkArrays('vertices', v, ['x', 'y', 'z', 'nx', 'ny', 'nz']);
  if (v.n < 1) throw new UserError('vertices: there are no vertices');
  return v;
}

function checkArrays(what: string, o: object, names: string[]): void {
  const rec = o as Record<string, unknown>;
  const n = rec.n;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0) throw new UserError(`${what}.n must be a non-negative integer, got ${String(n)}`);
  for (const k of names) {
    const a = rec[k];
    if (!(a instanceof Float64Array)) throw new UserError(`${what}.${k} must be a Float64Array`);
    if (a.length !== n) throw new UserError(`${what}.${k} has ${a.length} values, but ${what}.n is ${n}`);
    for (let i = 0; i < n; i++) if (!Number.isFinite(a[i])) throw new UserError(`${what}.${k}[${i}] = ${a[i]} is not finite`);
  }
}

/** The surface file: --vert, else `<molecule>.vert` beside the .pqr unless --surface asks for a generated one; undefined: generate. */
function findVert(molecule: string | undefined, vert?: string, surface?: SurfaceKind): string | undefined {
  if (vert) return vert;
  if (surface || molecule === undefined) return undefined;
  const guess = join(dirname(molecule), `${basename(molecule, extname(molecule))}.vert`);
  return existsSync(guess) ? guess : undefined;
}

const refuse = (key: string, v: GemVerification): UserError =>
  new UserError(`variant ${key} failed verification against the f64 reference on ${v.vertices} vertices (${v.worst.toFixed(2)} x tolerance): ${v.detail}; refusing to use it`);

/**
 * Verify a variant on a subset of the vertices (the gate, runtime/gem/gate.ts verifyGemKey), then
 * run it on every vertex on its target's runner (runtime/gem/targets.ts): TS and wasm on this
 * thread or split over `threads` workers, WGSL one dispatch, gpu.js one kernel call (compiled on
 * the first, so its compilation is timed). kernelSeconds is the run alone: the layout, the upload,
 * starting workers and the read-back are left out.
 */
async function runVariant(key: string, target: string, atoms: GemAtoms, verts: GemVertices, params: GemParams, region: GemRegion, count: number, threads: number): Promise<{ phi: Float64Array; verification: GemVerification; kernelSeconds: number; device: string }> {
  const runner = GEM_TARGETS.get(target, 'run gem');
  let verification: GemVerification;
  try {
    verification = await verifyGemKey(key, atoms, verts, params, region, count);
  } catch (e) {
    throw runner.unavailable?.(key, e) ?? e;
  }
  if (!verification.ok) throw refuse(key, verification);
  const prep = await runner.prepare(key, atoms, verts, { params, threads });
  try {
    const tk = performance.now();
    await prep.run();
    const kernelSeconds = (performance.now() - tk) / 1000;
    return { phi: await prep.result(), verification, kernelSeconds, device: prep.device };
  } finally {
    await prep.dispose();
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
  const output = o.output === null ? null : (o.output ?? 'phi.out');
  if (o.target !== undefined && !(GEM_DEFAULT_TARGETS as readonly string[]).includes(o.target)) {
    throw new UserError(`--target ${o.target}: allowed are ${GEM_DEFAULT_TARGETS.join(', ')} (gpu.js variants are given with --variant)`);
  }
  const defaultTarget = (o.target ?? 'ts') as GemDefaultTarget;
  if (o.molecule === undefined && o.atoms === undefined) throw new UserError('give the molecule: a .pqr file (molecule) or the atoms already read (atoms)');
  if (o.molecule !== undefined && o.atoms !== undefined) throw new UserError('give the molecule as a .pqr file (molecule) or as atoms already read (atoms), not both');
  const name = o.name ?? o.molecule ?? 'molecule';
  if (o.vert && o.surface) throw new UserError('--vert reads a surface and --surface generates one: give one of them');
  if (o.vertices !== undefined) {
    for (const [opt, x] of [['--vert', o.vert], ['--surface', o.surface], ['--probe', o.probe], ['--density', o.density], ['--write-vert', o.writeVert]] as const) {
      if (x !== undefined) throw new UserError(`${opt} reads or generates a surface, but the vertices were given`);
    }
  }
  const vertPath = o.vertices !== undefined ? undefined : findVert(o.molecule, o.vert, o.surface);
  if (vertPath) {
    for (const [opt, x] of [['--probe', o.probe], ['--density', o.density], ['--write-vert', o.writeVert]] as const) {
      if (x !== undefined) throw new UserError(`${opt} applies to a generated surface, but the surface is read from ${vertPath} (use --surface ses|sas to generate one)`);
    }
  }
  let genOpts: ReturnType<typeof surfaceOptions> | undefined;
  try {
    if (!vertPath && o.vertices === undefined) genOpts = surfaceOptions({ kind: o.surface, probe: o.probe, density: o.density });
  } catch (e) {
    if (e instanceof GemInputError) throw new UserError(e.message.replace(/^(surface|probe radius|density)/, (w) => ({ surface: '--surface', 'probe radius': '--probe', density: '--density' })[w]!));
    throw e;
  }
  for (const f of o.picture ?? []) {
    if (!/\.(png|html?)$/i.test(f)) throw new UserError(`--picture ${f}: the name must end in .png or .html`);
  }
  // the output policy (runtime/output.ts): the output paths are checked before the run, not after it
  if (output !== null) checkOutputFile(output, '-o');
  if (o.writeVert) checkOutputFile(o.writeVert, '--write-vert');
  for (const f of o.picture ?? []) checkOutputFile(f, '--picture');
  const atoms = o.atoms !== undefined ? checkAtoms(o.atoms) : readInput(o.molecule!, 'molecule', readPqr);
  let verts: GemVertices;
  let generated: GemSurface | undefined;
  if (o.vertices !== undefined) verts = checkVertices(o.vertices);
  else if (vertPath) verts = readInput(vertPath, 'surface', readVert);
  else {
    try {
      verts = generated = generateSurface(atoms, { ...genOpts, maxMemory: o.maxMemory });
    } catch (e) {
      if (e instanceof GemInputError) throw new UserError(`${name}: surface generation: ${e.message}`);
      throw e;
    }
  }
  // the atoms and the surface together, before any variant runs: the input is blamed, not a variant
  checkGemInputs(atoms, verts, { pqr: o.atoms ? undefined : o.molecule, vert: vertPath, surface: generated ? 'the generated surface' : 'the given vertices', p: o.projLen });
  if (o.vertexRange) {
    const [v0, v1] = typeof o.vertexRange === 'function' ? o.vertexRange(verts.n) : o.vertexRange;
    if (!(Number.isInteger(v0) && Number.isInteger(v1) && v0 >= 0 && v0 < v1 && v1 <= verts.n)) throw new UserError(`vertex range [${v0}, ${v1}) is not within the ${verts.n} vertices`);
    const cut = (a: Float64Array) => a.slice(v0, v1);
    verts = { n: v1 - v0, x: cut(verts.x), y: cut(verts.y), z: cut(verts.z), nx: cut(verts.nx), ny: cut(verts.ny), nz: cut(verts.nz) };
  }

  let params: GemParams;
  try {
    params = gemParams(atoms, { epsIn: o.epsIn, epsOut: o.epsOut, salt: o.salt, p: o.projLen, A: o.fixA });
  } catch (e) {
    throw new UserError(`${name}: ${(e as Error).message}`);
  }
  if (!(Number.isFinite(params.A) && params.A > 0)) throw new UserError(`${name}: the electrostatic radius is not a positive number (${params.A}); fix it with --fix-a`);
  const region = selectRegion(params.A, params.p, params.ionRadius);
  const salt = params.kappa === 0 ? 'zero' : 'nonzero';

  let key: string, source: GemWorkloadSummary['variantSource'];
  if (o.variant) {
    if (!o.variant.startsWith('gem-potential.')) throw new UserError(`${o.variant} is not a gem-potential variant (list them with \`kernforge list gem-potential\`)`);
    key = o.variant;
    source = 'given';
    if (o.target !== undefined && keyTarget(o.variant) !== o.target) throw new UserError(`--variant ${o.variant} is not a ${o.target} variant, but --target ${o.target} was given: give one of them`);
  } else {
    ({ key, source } = chooseGemVariant(region, salt, defaultTarget));
    // The variant tuned on this machine (kernforge tune gem-potential), carried over to this
    // region and salt (its tuning axes kept); the default above when nothing was tuned.
    // --target wgsl: the winner tuned on the WebGPU adapter (kernforge tune --device webgpu).
    const { loadTuned } = await import('../tune/tuned.ts');
    // (Without an adapter the default stays, and running it says what is missing.)
    const t = await loadTuned('gem-potential', 'surface', { load: false, ...(defaultTarget === 'wgsl' ? { device: 'webgpu' as const, warn: () => {} } : {}) });
    // With --target, only a winner on that target replaces its default.
    if (t.tuned && (o.target === undefined || keyTarget(t.key) === o.target)) {
      try {
        key = await carryOverGemKey(t.key, region, salt);
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
  const target = String((await variantParams(key)).target);
  const { phi, verification, kernelSeconds, device } = await runVariant(key, target, atoms, verts, params, region, o.verifyVertices ?? 200, threads);
  let minPhi = Infinity, maxPhi = -Infinity;
  for (let i = 0; i < verts.n; i++) {
    const x = phi[i]!;
    if (!Number.isFinite(x)) throw new UserError(`variant ${key} gave a non-finite potential (${x}) at vertex ${i + 1}; nothing written`);
    if (x < minPhi) minPhi = x;
    if (x > maxPhi) maxPhi = x;
  }
  if (output !== null) writeAtomically(output, formatGemOutput(verts, phi));
  const surface: GemSurfaceInfo = generated
    ? { source: 'generated', kind: generated.kind, probe: generated.probe, density: generated.density, gridSpacing: generated.gridSpacing, area: generated.totalArea, seconds: generated.seconds }
    : { source: o.vertices !== undefined ? 'given' : 'file' };
  if (generated && o.writeVert) {
    try {
      writeVert(o.writeVert, generated, atoms.n, basename(name));
    } catch (e) {
      if (e instanceof UserError) throw e;
      throw new UserError(`cannot write ${o.writeVert}: ${(e as Error).message}`);
    }
    surface.wroteVert = o.writeVert;
  }
  const pictures: string[] = [];
  for (const f of o.picture ?? []) {
    try {
      writePicture(f, verts, phi, { title: `${basename(name)}: ${generated ? `generated ${generated.kind.toUpperCase()}` : vertPath ? basename(vertPath) : 'given surface'}` });
    } catch (e) {
      if (e instanceof UserError) throw e;
      throw new UserError(`cannot write ${f}: ${(e as Error).message}`);
    }
    pictures.push(f);
  }
  return {
    molecule: name, vert: vertPath ?? (generated ? `generated ${generated.kind}` : 'given'), surface, pictures, output, phi,
    atoms: atoms.n, vertices: verts.n, A: params.A, aEstimated: o.fixA === undefined, region, params,
    variant: key, variantSource: source, device, verification, minPhi, maxPhi,
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
    ...(s.output !== null || s.pictures.length > 0 ? [`  wrote      ${[...(s.output !== null ? [s.output] : []), ...s.pictures].join(', ')}`] : []),
  ].join('\n');
}
