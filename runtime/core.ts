/**
 * The portable core of kernforge: everything of the runtime API that needs no Node, so that it
 * bundles for a browser (`kernforge` under the `browser` export condition; esbuild
 * `platform: 'browser'` reaches no Node built-in and no Node-only package, test/portable.test.ts).
 * open() and its handles, the bundled data, the systems, the per-target runners, the f64
 * references and the verification gates of the md-nonbonded, gem-potential and bigdft-conv
 * families, variants, devices and the autotuner. Files, environment, stderr, CPU facts, hashing,
 * worker threads, WebGPU and on-demand generation come from the platform (runtime/platform.ts):
 * call setPlatform() before using it outside Node (in a browser: installBrowserPlatform()). The Node entry is runtime/index.ts.
 *
 * @module kernforge/core
 */
// The platform adapter (runtime/platform.ts).
export { platform, setPlatform, assetPath, PACKAGE_ROOT, NoPlatformError, type Platform, type CpuFacts, type WorkerHandlers, type TaskWorker, type PolledChannel, type FileWriter, type PathInfo, type ProgressBar, type OnDemand, type GeneratorModule } from './platform.ts';
// The browser platform (runtime/platform/browser.ts; docs/browser.md): installBrowserPlatform() before open() in a page.
export { installBrowserPlatform, createBrowserPlatform, sha256Hex, type BrowserPlatform, type BrowserPlatformOptions, type PreloadOptions } from './platform/browser.ts';
export { open, TARGETS, VerificationError, type Kernforge, type OpenOptions, type Target, type Choice, type VariantSource } from './open.ts';
export type { GemHandle, GemPotential, GemPotentialOptions } from './gem/handle.ts';
export type { BigdftHandle, BigdftApplyOptions, BigdftResult, HamiltonianResult } from './bigdft/handle.ts';
export type { MdHandle, MdForces, MdForcesOptions, MdRunOptions } from './md/handle.ts';
export type { RunMdSummary } from './md/workload.ts';
export { KernforgeError, UserError, isUserError } from './errors.ts';
export { OutputError } from './output.ts';
export { ApiInputError } from './args.ts';
export { ResourceLimitError, memoryLimit, parseMemorySize, type MemoryLimit } from './limits.ts';
export { BUNDLED_MOLECULES, bundledMolecule, type BundledMolecule } from './data.ts';
export { readGro, writeGro, GroError, type GroFrame, type GroAtom } from './md/gro.ts';
export { waterBox, randomSystem, rng, SPCE, type MdSystem } from './md/system.ts';
export { buildClusters, buildPairList, CENTRAL_SHIFT, DUMMY_COORD, type ClusterLayout, type PairList } from './md/clusters.ts';
export { MdProblem, EWALD_TABLE_SCALE, type Precision } from './md/problem.ts';
export { derive, ewaldBeta, ONE_4PI_EPS0, type MdSettings } from './md/interaction.ts';
export { reference, type MdResult, type ReferenceResult } from './md/reference.ts';
export { readTop, systemFromTop, TopError, BUNDLED_SALT_WATER, BUNDLED_FF_DIR, type Topology, type TopSystem } from './md/top.ts';
export { rerunEnergies, evaluateEnergies, rerunReport, type RerunOptions, type RerunResult } from './md/rerun.ts';
export { pmeSettings, PmeLongRange, type CoulombOptions, type PmeSettings } from './md/pme.ts';
export { runTs, mdShape, type MdTsModule } from './md/kernels.ts';
export { runWgsl, prepareWgsl, type PreparedWgsl } from './md/wgsl.ts';
export { runWasm, loadWasmKernel } from './md/wasm.ts';
export { verifyVariant, compare, tolerance, settingsOf, type Deviation, type VerifyCase } from './md/verify.ts';
export { verificationCases } from './md/cases.ts';
export { manifest, libraryKeys, loadTsModule, wgslSource, variantParams, UnknownVariantError } from './variants.ts';
export { gpu, probeGpu, NoAdapterError } from './backends/webgpu.ts';
// gem-potential: runtime/gem/index.ts but the file readers (readPqr, readVert: the Node entry's)
export { parsePqr, parseVert, GemInputError, type GemAtoms, type GemVertices } from './gem/io.ts';
export { electrostaticRadius, selectRegion, gemParams, gemReference, pairPotential, GEM_QSCALE, GEM_ALPHA, GEM_ION_RADIUS, type GemParams, type GemRegion, type GemSettings } from './gem/model.ts';
export { runGem, gemArgs, gemVariantInfo, checkVariant, type GemTsModule, type GemRunOptions, type GemRunResult, type GemPrecision } from './gem/run.ts';
export { runGemWgsl, prepareGemWgsl, gemWgslConstants, type PreparedGemWgsl } from './gem/wgsl.ts';
export { runGemGpujs, prepareGemGpujs, loadGpujsModule, gpujsSource, probeGpujsMode, GpujsModeError, type PreparedGemGpujs, type GpujsMode, type GemGpujsModule } from './gem/gpujs.ts';
export { apply3d, prepare3d, ConvInputError, type Prepared3d, type Apply3dOptions } from './bigdft/apply.ts';
export { filter, type FilterName, type Filter } from './bigdft/filters.ts';
export { separable as bigdftSeparable, direct as bigdftDirect } from './bigdft/reference.ts';
// Autotuning (issue 6): devices, the tuner and its strategies, the cache, the tuned runtime.
export { detectDevices, cpuDevice, webgpuDevice, fingerprintOf, type Device, type DeviceId, type DeviceTarget } from './tune/devices.ts';
export { tune, formatSummary, sampleStats, type TuneOptions, type TuneOutcome, type TuneRow } from './tune/tuner.ts';
export { STRATEGIES, STRATEGY_NAMES, replayStrategy, seededRng, neighbours, type Strategy, type StrategyName, type Candidate, type Evaluate, type ReplayResult } from './tune/strategies.ts';
export { TuneCache, validateCache, cachePath, resultId, CACHE_FORMAT, CACHE_VERSION, DEFAULT_CACHE_DIR, type CacheFile, type CacheResult, type CacheRun, type ResultStatus } from './tune/cache.ts';
export { loadTuned, readTuned, tunedPath, mergeTuned, TunedFileError, type Tuned, type TunedEntry, type TunedFile, type LoadTunedOptions } from './tune/tuned.ts';
export { tuningFamilies, tuningFamily } from './tune/families/index.ts';
export type { TuningFamily, ProblemClass, PreparedProblem, VerifyOutcome } from './tune/family.ts';
