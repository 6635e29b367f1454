// Public API of the gem-potential runtime: readers, the model and its reference, running variants.
export { parsePqr, parseVert, readPqr, readVert, GemInputError, type GemAtoms, type GemVertices } from './io.ts';
export { electrostaticRadius, selectRegion, gemParams, gemReference, pairPotential, GEM_QSCALE, GEM_ALPHA, GEM_ION_RADIUS, type GemParams, type GemRegion, type GemSettings } from './model.ts';
export { runGem, gemArgs, gemVariantInfo, checkVariant, type GemTsModule, type GemRunOptions, type GemRunResult, type GemPrecision } from './run.ts';
export { runGemWgsl, prepareGemWgsl, gemWgslConstants, type PreparedGemWgsl } from './wgsl.ts';
export { runGemGpujs, prepareGemGpujs, loadGpujsModule, gpujsSource, probeGpujsMode, GpujsModeError, type PreparedGemGpujs, type GpujsMode, type GemGpujsModule } from './gpujs.ts';
