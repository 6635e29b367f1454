// Public surface of the generator (build-time side of kernforge).
export { assembleWat, postStep } from './post.ts';
export { generate, renderVariant, renderLibrary, loadAndValidate, projectSpecs, variantFile, GENERATOR_VERSION } from './generate.ts';
export type { Manifest, ManifestEntry, OutFile } from './generate.ts';
export { parseSpec, loadSpec, SpecError } from './spec.ts';
export type { Spec, Axis, Rule } from './spec.ts';
export { expand, libraryVariants, variantKey, parseVariantKey, violations } from './space.ts';
export type { Variant } from './space.ts';
