// Public runtime API of kernforge: systems, the cluster-pair data layout, running generated
// variants on TypeScript and WebGPU, the f64 references and the verification gate, for the
// md-nonbonded, gem-potential and bigdft-conv families.
export { waterBox, randomSystem, rng, SPCE, type MdSystem } from './md/system.ts';
export { buildClusters, buildPairList, CENTRAL_SHIFT, DUMMY_COORD, type ClusterLayout, type PairList } from './md/clusters.ts';
export { MdProblem, EWALD_TABLE_SCALE, type Precision } from './md/problem.ts';
export { derive, ewaldBeta, ONE_4PI_EPS0, type MdSettings } from './md/interaction.ts';
export { reference, type MdResult, type ReferenceResult } from './md/reference.ts';
export { runTs, mdShape, type MdTsModule } from './md/kernels.ts';
export { runWgsl, prepareWgsl, type PreparedWgsl } from './md/wgsl.ts';
export { verifyVariant, compare, tolerance, settingsOf, type Deviation, type VerifyCase } from './md/verify.ts';
export { verificationCases } from './md/cases.ts';
export { manifest, libraryKeys, loadTsModule, wgslSource, variantParams, UnknownVariantError } from './variants.ts';
export { gpu, probeGpu, NoAdapterError } from './backends/webgpu.ts';
export * from './gem/index.ts';
export { apply3d, prepare3d, ConvInputError, type Prepared3d, type Apply3dOptions } from './bigdft/apply.ts';
export { filter, type FilterName, type Filter } from './bigdft/filters.ts';
export { separable as bigdftSeparable, direct as bigdftDirect } from './bigdft/reference.ts';
