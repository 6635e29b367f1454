// Shared by the gem-potential tests of every target: region 1 inside the sphere r = A.
import { checkGemPotentials, GEM_VERIFY_RTOL } from '../../runtime/gem/gate.ts';
import type { GemAtoms, GemParams, GemVertices } from '../../runtime/gem/index.ts';

/**
 * Region 1 inside the sphere (p < 0: both roots): the f32 sums cancel there (1/d - g/sqrt(d^2 + h),
 * g near 1; a vertex moved inwards may come near an atom), so the RMSE bar of p = 0 does not
 * apply; the workload's gate does: its 200 vertices spread over the surface, each within
 * GEM_VERIFY_RTOL of the sum of its terms' magnitudes.
 */
export function insideGate(phi: ArrayLike<number>, atoms: GemAtoms, verts: GemVertices, P: GemParams, precision: 'f32' | 'f64') {
  const idx = Array.from({ length: 200 }, (_, i) => Math.floor((i * verts.n) / 200));
  return checkGemPotentials(idx.map((i) => phi[i]!), idx, GEM_VERIFY_RTOL[precision], atoms, verts, P, 1);
}
