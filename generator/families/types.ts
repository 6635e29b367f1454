// What a kernel family contributes to the generator: spec checks beyond the schema, and
// the render context of one variant. Everything else (space, keys, files) is generic.
import type { Spec } from '../spec.ts';
import type { Variant } from '../space.ts';

export interface FamilyModule {
  family: string;
  /** Family-level checks of a spec; throw SpecError with a field path. */
  validate(spec: Spec): void;
  /** Everything the templates need for one variant, computed before rendering. */
  context(spec: Spec, v: Variant): Record<string, unknown>;
}

/** gpu.js backends a gpujs variant may name: the runtime's list (runtime/backends/gpujs.ts runs them). */
export { GPUJS_MODES } from '../../runtime/backends/gpujs-modes.ts';
