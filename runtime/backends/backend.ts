// The Backend interface: what the runtime needs from a generated target (ts, wasm, wgsl, gpujs)
// whatever the family. A backend says whether it runs here (and why not) and loads a variant's
// code once per key (the TypeScript module, the compiled WebAssembly.Module, the WGSL source,
// the gpu.js kernel module), on top of runtime/variants.ts. Uploading a family's data, running
// and reading back are the family's runners (runtime/<family>/targets.ts, one table per family,
// runtime/backends/table.ts). The backends are registered in runtime/backends/registry.ts, one
// line each. A leaf module apart from the error type.
import { KernforgeError } from '../errors.ts';

/** The targets kernforge generates for, each with a built-in backend. */
export type BuiltinTarget = 'ts' | 'wasm' | 'wgsl' | 'gpujs';

/** Whether a backend runs here: what it runs on, or why it does not. */
export type BackendAvailability =
  | {
      /** It runs here. */
      ok: true;
      /** What it runs on, e.g. the WebGPU adapter's name. */
      detail: string;
    }
  | {
      /** It does not run here. */
      ok: false;
      /** Why, and what it would take. */
      why: string;
    };

/**
 * One generated target: whether it runs here and how its variants' code is loaded. `Loaded` is
 * what load() gives (a TypeScript module, a compiled WebAssembly.Module, WGSL source text, a
 * gpu.js kernel module).
 */
export interface Backend<Loaded = unknown> {
  /** The target: the value of a key's first axis (`ts`, `wasm`, `wgsl`, `gpujs`). */
  readonly target: string;
  /** What runs the variants, one line, for messages (e.g. `WebAssembly SIMD on the CPU`). */
  readonly description: string;
  /** Whether the families' runners split work over CPU worker threads on it (ts, wasm). */
  readonly threaded: boolean;
  /**
   * Whether it runs here, and why not: never throws. `mode` narrows the question where a target
   * has several (a gpu.js mode: cpu, webasm, headlessgl, webgpu).
   */
  available(mode?: string): Promise<BackendAvailability>;
  /** The variant's code, loaded (or compiled) once per key; UnknownVariantError for a key of another target. */
  load(key: string): Promise<Loaded>;
}

/** A target no backend is registered for; the message names the registered ones. */
export class UnknownTargetError extends KernforgeError {}
