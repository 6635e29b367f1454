/**
 * Public surface of the generator (build-time side of kernforge).
 *
 * @module kernforge/generator
 */
export { assembleWat, postStep } from './post.ts';
export { generate, renderVariant, renderLibrary, loadAndValidate, projectSpecs, variantFile, GENERATOR_VERSION } from './generate.ts';
export type { Manifest, ManifestEntry, OutFile } from './generate.ts';
export { parseSpec, loadSpec, SpecError } from './spec.ts';
export type { Spec, Axis, Rule } from './spec.ts';
export { expand, libraryVariants, variantKey, parseVariantKey, violations } from './space.ts';
export type { Variant } from './space.ts';
// The md-nonbonded user potentials and the expression evaluator (the runtime's f64 reference
// evaluates user potentials with them: runtime/md/user-potential.ts).
export { potentials, type Potential } from './families/md-nonbonded.ts';
export { evalExpr, type Expr } from './expr.ts';
