// Resource limits, up front: every workload estimates the memory a problem needs from its sizes
// before it allocates anything, and refuses (one line: the estimate, the limit and how to raise
// it) when the estimate is above the limit. The limit is `--max-memory <size>` on the command
// line, `maxMemory` in the API; by default half of the machine's memory (the platform's CPU facts,
// runtime/platform.ts), or 4 GiB where the platform does not say. Sizes that no limit can allow (a
// typed array of more than 2^32 elements, a WebAssembly memory of more than 4 GiB) are refused
// whatever the limit.
//
// The estimates are per workload (bigdftMemory, mdMemory, surfaceMemory, bigdftApiMemory); their
// constants were measured (peak resident memory of `kernforge run ...` at several sizes, see
// docs/safety-limits.md) and round up: an estimate errs on the high side, never far below.
import { KernforgeError } from './errors.ts';
import { platform } from './platform.ts';

/** A problem too large for the memory limit (or for any limit); the message says the estimate, the limit and the option that raises it. */
export class ResourceLimitError extends KernforgeError {}

/** One gibibyte (2^30 bytes): `--max-memory 4G` means 4 GiB. */
export const GiB = 2 ** 30;
/** The default limit is this fraction of the machine's memory. */
export const DEFAULT_MEMORY_FRACTION = 0.5;
/** The default limit where the platform does not know the machine's memory (a browser). */
export const UNKNOWN_MACHINE_LIMIT = 4 * GiB;
/** The most elements a JavaScript typed array can hold here (V8: 2^32). */
export const MAX_ARRAY_LENGTH = 2 ** 32;
/** The most bytes one WebAssembly memory (wasm32) can hold: 65,536 pages of 64 KiB. */
export const MAX_WASM_MEMORY = 4 * GiB;

/** A memory limit and where it came from (for messages). */
export interface MemoryLimit {
  /** The limit in bytes. */
  bytes: number;
  /** Where it came from: "given", or e.g. "half of this machine's 23.4 GiB". */
  source: string;
  /** The machine's memory in bytes, when the platform knows it. */
  machine?: number;
}

const UNITS: Record<string, number> = { '': 1, b: 1, k: 2 ** 10, m: 2 ** 20, g: GiB, t: 2 ** 40 };

/**
 * A memory size: a number of bytes, or a string such as `4G`, `512M`, `1.5GiB`, `2T`, `1000000`
 * (K, M, G, T are powers of 1024; a trailing B or iB is allowed). `name` names the option in the
 * message of a ResourceLimitError.
 */
export function parseMemorySize(v: unknown, name = '--max-memory'): number {
  let bytes = NaN;
  if (typeof v === 'number') bytes = v;
  else if (typeof v === 'string') {
    const m = /^\s*(\d+(?:\.\d*)?|\.\d+)(?:e(\d+))?\s*([kmgt]?)(?:i?b)?\s*$/i.exec(v);
    if (m) bytes = Number(m[1]) * 10 ** Number(m[2] ?? 0) * UNITS[m[3]!.toLowerCase()]!;
  }
  if (!(Number.isFinite(bytes) && bytes >= 1)) {
    const got = typeof v === 'string' ? JSON.stringify(v.length > 40 ? `${v.slice(0, 37)}...` : v) : String(v);
    throw new ResourceLimitError(`${name} ${got}: not a memory size; allowed: a positive size such as 512M, 4G, 1.5G or 2T (powers of 1024), or a number of bytes`);
  }
  return Math.floor(bytes);
}

/** Bytes for people: "149 GiB", "1.50 GiB", "512 MiB", "800 bytes". */
export function formatBytes(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB', 'EiB'];
  let u = 0;
  let x = n;
  while (x >= 1024 && u < units.length - 1) {
    x /= 1024;
    u++;
  }
  if (u === 0) return `${Math.round(x)} bytes`;
  return `${x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2)} ${units[u]}`;
}

/**
 * The memory limit: `given` (a size, see parseMemorySize) when there is one, else
 * DEFAULT_MEMORY_FRACTION of the machine's memory (UNKNOWN_MACHINE_LIMIT where it is not known).
 */
export function memoryLimit(given?: unknown, name = '--max-memory'): MemoryLimit {
  let machine: number | undefined;
  try {
    const m = platform().cpu().memoryBytes;
    if (typeof m === 'number' && Number.isFinite(m) && m > 0) machine = m;
  } catch {
    // no platform, or one that cannot say: the fixed default
  }
  if (given !== undefined && given !== null) return { bytes: parseMemorySize(given, name), source: 'given', ...(machine ? { machine } : {}) };
  if (machine === undefined) return { bytes: UNKNOWN_MACHINE_LIMIT, source: `the default where the machine's memory is unknown` };
  return { bytes: Math.floor(machine * DEFAULT_MEMORY_FRACTION), source: `half of this machine's ${formatBytes(machine)}`, machine };
}

/** What a problem needs: its estimated memory and its largest array, for checkMemory. */
export interface MemoryEstimate {
  /** Estimated bytes the problem allocates. */
  bytes: number;
  /** How the estimate was made, for the message, e.g. "144 bytes per grid point". */
  basis: string;
  /** Elements of the largest typed array it allocates (checked against MAX_ARRAY_LENGTH). */
  largestArray: number;
  /** Bytes of its largest WebAssembly memory, when it uses one (checked against MAX_WASM_MEMORY). */
  wasmBytes?: number;
}

/**
 * Refuse a problem that does not fit: `what` says what was asked (e.g. "run bigdft: a
 * 1000x1000x1000 grid (1e9 points)"), `raise` how to raise the limit (e.g. "--max-memory
 * <size>"), `smaller` what to make smaller (e.g. "a smaller --grid"). Throws ResourceLimitError.
 */
export function checkMemory(what: string, e: MemoryEstimate, limit: MemoryLimit, raise: string, smaller: string): void {
  if (e.largestArray > MAX_ARRAY_LENGTH) {
    throw new ResourceLimitError(`${what} needs an array of ${fmtCount(e.largestArray)} elements, more than the ${fmtCount(MAX_ARRAY_LENGTH)} (2^32) a JavaScript typed array can hold, whatever the memory limit; use ${smaller}`);
  }
  if (e.wasmBytes !== undefined && e.wasmBytes > MAX_WASM_MEMORY) {
    throw new ResourceLimitError(`${what} needs ${formatBytes(e.wasmBytes)} in one WebAssembly memory, more than the 4 GiB a wasm32 memory can hold, whatever the memory limit; use ${smaller}, or a TypeScript variant`);
  }
  if (e.bytes > limit.bytes) {
    const machine = limit.source === 'given' && limit.machine !== undefined && e.bytes > limit.machine ? `; this machine has ${formatBytes(limit.machine)} in all` : '';
    const suggest = Math.ceil((e.bytes * 1.05) / GiB);
    throw new ResourceLimitError(
      `${what} needs about ${formatBytes(e.bytes)} of memory (${e.basis}), more than the limit of ${formatBytes(limit.bytes)} (${limit.source})${machine}; ` +
        `use ${smaller}, or raise the limit with ${raise} (e.g. ${raise.replace(/<size>/, `${suggest}G`)})`,
    );
  }
}

/** A count for messages: 1e9 -> "1.00e9", 4096 -> "4096". */
function fmtCount(n: number): string {
  return n < 1e6 ? String(n) : n.toExponential(2).replace('e+', 'e');
}

/**
 * Whether `e` is the engine refusing an allocation (a RangeError for an ArrayBuffer, typed array
 * or WebAssembly memory), which a workload turns into a one-line ResourceLimitError.
 */
export function isAllocationFailure(e: unknown): e is RangeError {
  return e instanceof RangeError && /Array buffer allocation failed|Invalid typed array length|Invalid array buffer length|could not allocate memory|Out of memory|Cannot allocate Wasm memory/i.test(e.message);
}

/**
 * The one-line error for an allocation the engine refused although the estimate was within the
 * limit (the machine could not give it, or a size the estimate does not cover).
 */
export function allocationFailed(what: string, e: RangeError, smaller: string): ResourceLimitError {
  return new ResourceLimitError(`${what}: the memory could not be allocated (${e.message}); use ${smaller}, or a lower --max-memory so that the estimate refuses such sizes up front`, { cause: e });
}

// ---------------------------------------------------------------------------------------------
// The estimates.

/** Bytes of one value of a precision. */
const bytesOf = (precision: 'f32' | 'f64'): number => (precision === 'f32' ? 4 : 8);

/**
 * Host bytes per grid point of one bigdft-conv variant bound to a grid: TypeScript separable-t
 * keeps four pass buffers (kinetic five) of its precision; wasm keeps the input, the pass buffers
 * and (kinetic) the transposed inputs and the zero sum in its memory (f64); WGSL and gpu.js keep
 * an f32 upload buffer and the read-back.
 */
export function bigdftVariantBytes(key: string, precision: 'f32' | 'f64'): { host: number; wasm: number } {
  const [, target = 'ts', filter = 'magic'] = key.split('.');
  const kinetic = filter === 'kinetic';
  if (target === 'wasm') return { host: 0, wasm: 8 * (kinetic ? 6 : 3) };
  if (target === 'wgsl' || target === 'gpujs') return { host: 8, wasm: 0 };
  return { host: bytesOf(precision) * (kinetic ? 5 : 4), wasm: 0 };
}

/**
 * Memory of `kernforge run bigdft` on a grid: psi and V (f64), x, V psi_r and H psi (working
 * precision; f32 adds an f32 copy of V) and the three variants' buffers (bigdftVariantBytes).
 */
export function bigdftMemory(dims: readonly [number, number, number], precision: 'f32' | 'f64', keys: readonly string[]): MemoryEstimate {
  const points = dims[0] * dims[1] * dims[2];
  const p = bytesOf(precision);
  let perPoint = 16 + 3 * p + (precision === 'f32' ? 4 : 0);
  let wasm = 0;
  for (const k of keys) {
    const b = bigdftVariantBytes(k, precision);
    perPoint += b.host + b.wasm;
    wasm = Math.max(wasm, b.wasm * points);
  }
  return { bytes: perPoint * points, basis: `${perPoint} bytes per grid point`, largestArray: points, ...(wasm > 0 ? { wasmBytes: wasm } : {}) };
}

/**
 * Memory of one open() bigdft call on a grid, whatever variant it runs: the result (f64), a copy
 * of the input in the variant's precision and the variant's pass buffers (five f64 at most);
 * `hamiltonian` holds three more grids (MF psi, MF^T V psi_r, T psi) and H psi.
 */
export function bigdftApiMemory(dims: readonly [number, number, number], call: 'apply' | 'hamiltonian'): MemoryEstimate {
  const points = dims[0] * dims[1] * dims[2];
  const perPoint = call === 'apply' ? 8 + 8 + 5 * 8 : 4 * 8 + 8 + 5 * 8;
  return { bytes: perPoint * points, basis: `${perPoint} bytes per grid point`, largestArray: points };
}

/** Measured bytes per atom of an MD run besides its pair list (positions, velocities, forces, the cluster grid, thermo). */
export const MD_BYTES_PER_ATOM = 1000;
/** Measured bytes of pair list per neighbour (atoms within rlist) of an atom, by list kind. */
export const MD_BYTES_PER_NEIGHBOUR = { cluster: 4, half: 16, full: 40 } as const;
/** Measured bytes a worker thread adds: its isolate, and a force buffer per atom. */
export const MD_THREAD_BYTES = { fixed: 64 * 2 ** 20, perAtom: 32 } as const;

/**
 * Memory of an MD run of `atoms` atoms in `volume` (cubed length unit) with pair-list radius
 * `rlist`: MD_BYTES_PER_ATOM per atom, plus the pair list (neighbours per atom = density x the
 * rlist sphere, times MD_BYTES_PER_NEIGHBOUR for the list kind), plus each extra thread.
 */
export function mdMemory(o: { atoms: number; volume: number; rlist: number; cluster?: string; list?: 'half' | 'full'; threads?: number }): MemoryEstimate {
  const n = o.atoms;
  const density = o.volume > 0 ? n / o.volume : 0;
  const neighbours = Math.min(n, density * (4 / 3) * Math.PI * o.rlist ** 3);
  const kind = o.cluster === '1x1' ? (o.list === 'full' ? 'full' : 'half') : 'cluster';
  const perAtom = MD_BYTES_PER_ATOM + neighbours * MD_BYTES_PER_NEIGHBOUR[kind];
  const threads = Math.max(1, o.threads ?? 1);
  const bytes = n * perAtom + (threads - 1) * (MD_THREAD_BYTES.fixed + MD_THREAD_BYTES.perAtom * n);
  return {
    bytes,
    basis: `${Math.round(perAtom)} bytes per atom with ${neighbours.toFixed(0)} neighbours within rlist ${Number(o.rlist.toPrecision(4))}${threads > 1 ? `, ${threads} threads` : ''}`,
    largestArray: 3 * n,
  };
}

/** Measured bytes per point of the surface generator's grid (the field, its owners, flags, the flood-fill queue, signs, the probe-point cells). */
export const SURFACE_BYTES_PER_GRID_POINT = 18;
/** Measured bytes per vertex of the marching-tetrahedra mesh (positions, normals, triangles, the edge map, growth slack). */
export const SURFACE_BYTES_PER_MESH_VERTEX = 200;
/** Mesh vertices per A^2 of surface times h^2 (marching tetrahedra; runtime/gem/surface.ts measures 4.4). */
export const SURFACE_MESH_VERTICES = 4.5;
/** Bytes per A^2 of surface for the SES's accessible probe points (about 4 per A^2). */
export const SURFACE_BYTES_PER_AREA = 250;

/**
 * Memory of a generated surface: the grid (`gridPoints` points) and the mesh on it, whose area is
 * estimated as `area` (A^2; the caller takes the smaller of the atoms' inflated spheres and the
 * grid box's faces) at grid spacing `h`.
 */
export function surfaceMemory(o: { gridPoints: number; area: number; h: number }): MemoryEstimate {
  const meshVertices = (SURFACE_MESH_VERTICES * o.area) / (o.h * o.h);
  const bytes = SURFACE_BYTES_PER_GRID_POINT * o.gridPoints + SURFACE_BYTES_PER_MESH_VERTEX * meshVertices + SURFACE_BYTES_PER_AREA * o.area;
  return {
    bytes,
    basis: `${fmtCount(o.gridPoints)} grid points of ${SURFACE_BYTES_PER_GRID_POINT} bytes and about ${fmtCount(Math.round(meshVertices))} mesh vertices of ${SURFACE_BYTES_PER_MESH_VERTEX}`,
    largestArray: Math.max(o.gridPoints, 3 * meshVertices),
  };
}
