// Public runtime API of kernforge: systems, the cluster-pair data layout, running generated
// variants on TypeScript and WebGPU, the f64 reference and the verification gate.
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
