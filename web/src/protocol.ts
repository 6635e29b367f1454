// The messages between the page (web/src/main.ts) and its worker (web/src/worker.ts). One worker
// runs one job and is ended afterwards (or terminated to cancel it); it installs the browser
// platform (runtime/platform/browser.ts), whose files (the tuning cache, the tuned artefact) are
// kept in IndexedDB and shared that way between the jobs and across reloads.

/** The tune budget of the page (the quick problem classes; `one`: one quick class per family). */
export interface TuneJob {
  job: 'tune';
  families: string[];
  devices: ('cpu' | 'webgpu')[];
  problems: 'quick' | 'one';
  maxEvals: number;
  reps: number;
  /** Thread counts to tune (default: every count a family offers). */
  threads?: number[];
}

export interface GemJob {
  job: 'gem';
  /** A bundled molecule, or files the user gave (a .pqr and optionally its .vert). */
  molecule?: string;
  files?: File[];
  /** Whether WebGPU may be used (the page found an adapter). */
  webgpu: boolean;
}

export interface MdJob {
  job: 'md';
  system: 'lj' | 'water';
  steps: number;
  /** f32: the kernels of the f32 classes (TypeScript, wasm SIMD); f64: TypeScript f64. */
  precision: 'f32' | 'f64';
}

export type Job =
  | { job: 'devices'; webgpu: boolean }
  | TuneJob
  | GemJob
  | MdJob
  | { job: 'files' }
  | { job: 'forget' };

/** The largest input file the page reads (bytes). */
export const MAX_INPUT_BYTES = 64 * 2 ** 20;

/** One tuning result row as the page shows it (runtime/tune/tuner.ts TuneRow, cloned). */
export interface RowOut {
  device: string;
  family: string;
  problem: string;
  candidates: number;
  bestKey?: string;
  bestMs?: number;
  chosenKey?: string;
  defaultKey?: string;
  defaultMs?: number;
  speedup?: number;
  measured: number;
  cached: number;
  failed: number;
  note?: string;
  bestByTarget?: Record<string, { key: string; medianMs: number }>;
}

export type Reply =
  | { type: 'log'; line: string }
  | { type: 'status'; text: string }
  | { type: 'progress'; done: number; total: number; label: string }
  | { type: 'devices'; devices: unknown[] }
  | { type: 'tuned'; rows: RowOut[]; interrupted: boolean; notes: string[]; seconds: number }
  | { type: 'files'; caches: { file: string; text: string }[]; tuned?: string }
  | {
      type: 'gem';
      name: string;
      atoms: number;
      n: number;
      /** x y z per vertex, then the normals (f32). */
      xyz: Float32Array;
      normals: Float32Array;
      phi: Float64Array;
      key: string;
      target: string;
      source: string;
      generated: boolean;
      ms: number;
      /** The surface (every vertex, or `vertices` spread over it) against the f64 reference: worst error / tolerance (f32: 5e-6 of the sum of |terms|). */
      check: { ok: boolean; worst: number; maxAbs: number; detail: string; vertices: number };
      params: Record<string, number>;
    }
  | { type: 'thermo'; step: number; values: Record<string, number> }
  | { type: 'md'; steps: number; stepsPerSecond: number; key: string; drift: number }
  | { type: 'done' }
  | { type: 'error'; message: string; user: boolean };
