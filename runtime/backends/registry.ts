// The registry of backends, one per target. The built-in ones are registered below, one line
// each: adding a target is its templates (generator), one backend module and one line here, plus
// one runner line in the table of each family that runs it (runtime/<family>/targets.ts).
// registerBackend adds others at run time (tests register a fake target and remove it again).
import { UnknownTargetError, type Backend, type BuiltinTarget } from './backend.ts';
import { gpujsBackend } from './gpujs.ts';
import { tsBackend } from './ts.ts';
import { wasmBackend } from './wasm.ts';
import { wgslBackend, type WgslBackend } from './wgsl.ts';

/** The built-in backends by target, with what their load() gives. */
export interface BuiltinBackends {
  /** TypeScript: the variant's ES module. */
  ts: Backend<unknown>;
  /** WebAssembly SIMD: the compiled WebAssembly.Module. */
  wasm: Backend<WebAssembly.Module>;
  /** WGSL: the source text, and compute pipelines on the shared device. */
  wgsl: WgslBackend;
  /** gpu.js: the variant's kernel module. */
  gpujs: Backend<unknown>;
}

const registry = new Map<string, Backend>();

/**
 * Register the backend of a target (replacing one of the same target); returns a function that
 * undoes it (the one replaced comes back).
 */
export function registerBackend(b: Backend): () => void {
  const before = registry.get(b.target);
  registry.set(b.target, b);
  return () => {
    if (registry.get(b.target) !== b) return;
    if (before) registry.set(b.target, before);
    else registry.delete(b.target);
  };
}

/** Every registered backend, built-in ones first. */
export function backends(): Backend[] {
  return [...registry.values()];
}

/** The backend of `target`; UnknownTargetError naming the registered targets when there is none. */
export function backend<T extends BuiltinTarget>(target: T): BuiltinBackends[T];
export function backend(target: string): Backend;
export function backend(target: string): Backend {
  const b = registry.get(target);
  if (!b) throw new UnknownTargetError(`unknown target "${target}"; registered targets: ${[...registry.keys()].join(', ')}`);
  return b;
}

// The built-in targets, one line each.
registerBackend(tsBackend);
registerBackend(wasmBackend);
registerBackend(wgslBackend);
registerBackend(gpujsBackend);
