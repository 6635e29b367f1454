// Public API of the PME mesh (issue 15): one import for the MD engine and for users.
//   import { ewaldCoeff, pmeGrid, pmeReciprocal, ewaldSelf, ewaldNetCharge } from '../pme/index.ts';
// pmeReciprocal is the f64 reference (Essmann et al. 1995 as GROMACS computes it); ewaldDirect
// is a converged direct Ewald sum for small systems; RealFft3d is the mesh's FFT.
export {
  ewaldCoeff, pmeGrid, fftSize, pmeReciprocal, ewaldSelf, ewaldNetCharge, checkPmeParams, bsplineModuli, bsplineKnots, bsplineWeights,
  spreadReference, gatherReference, PmeSolver, PmeInputError, PME_ORDER_MIN, PME_ORDER_MAX, type PmeParams, type PmeResult,
} from './reference.ts';
export { ewaldDirect, type EwaldSum, type EwaldDirectOptions } from './direct.ts';
export { RealFft3d, BatchFft } from './fft.ts';
export { createPmeMesh, REFERENCE_MESH, type PmeMesh, type PmeMeshOptions } from './mesh.ts';
export type { PreparedMesh, Box3 } from './layout.ts';
export { verifyPmeKey, PME_GATE_TOLERANCE, type PmeGateResult } from './gate.ts';
export { defaultPmeMeshKey, preferredPmeMeshKey } from './defaults.ts';
