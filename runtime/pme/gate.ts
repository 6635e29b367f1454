// pme-mesh's gate: a variant's spread and gather, around its solve (f64, or f32 in an f32 wasm
// variant's module, as the MD engine runs it: runtime/pme/prepared.ts), against the f64
// reference (reference.ts pmeReciprocal) on a small neutral ion system with the variant's order.
// f64 variants must agree to rounding (energy 1e-11 relative, forces 1e-10 of the RMS force);
// f32 grids (TypeScript f32, WGSL) to single precision (energy 2e-5, forces 2e-4).
import { ewaldCoeff, pmeGrid, pmeReciprocal, PmeSolver, type PmeParams } from './reference.ts';
import { meshShape, periodicGrid, type Box3 } from './layout.ts';

/** The gate's outcome: ok, the worst error as a fraction of its tolerance, what failed. */
export interface PmeGateResult {
  ok: boolean;
  /** max(energy error / its tolerance, force error / its tolerance). */
  worst: number;
  /** Relative energy error and RMS force error relative to the RMS force. */
  energyError: number;
  forceError: number;
  detail: string;
}

/** Tolerances by precision: relative energy, RMS force error over the RMS force. */
export const PME_GATE_TOLERANCE = { f64: { energy: 1e-11, force: 1e-10 }, f32: { energy: 2e-5, force: 2e-4 } } as const;

/** The gate's system: n ions (+1/-1 alternating, at least 0.2 nm apart) in a 2.1 x 2.3 x 2.5 nm box, deterministic. */
export function gateSystem(n = 240, box: Box3 = [2.1, 2.3, 2.5]): { x: Float64Array; q: Float64Array; box: Box3 } {
  let s = 20261124;
  const rnd = (): number => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
  const x = new Float64Array(3 * n);
  const q = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    for (let tries = 0; ; tries++) {
      for (let d = 0; d < 3; d++) x[3 * i + d] = rnd() * box[d]!;
      let ok = true;
      for (let j = 0; j < i && ok; j++) {
        let r2 = 0;
        for (let d = 0; d < 3; d++) {
          let dx = x[3 * i + d]! - x[3 * j + d]!;
          dx -= box[d]! * Math.round(dx / box[d]!);
          r2 += dx * dx;
        }
        ok = r2 > 0.04;
      }
      if (ok || tries > 100) break;
    }
    q[i] = i % 2 ? -1 : 1;
  }
  // one image moved out of the box: the kernels must wrap positions
  x[0] = x[0]! + box[0]!;
  x[4] = x[4]! - box[1]!;
  return { x, q, box };
}

const cache = new Map<string, Promise<PmeGateResult>>();

/** Checks variant `key` on the gate system (cached per key): spread, the variant's solve, gather against pmeReciprocal. */
export function verifyPmeKey(key: string): Promise<PmeGateResult> {
  let p = cache.get(key);
  if (!p) {
    p = check(key);
    p.catch(() => cache.delete(key));
    cache.set(key, p);
  }
  return p;
}

async function check(key: string): Promise<PmeGateResult> {
  const shape = await meshShape(key);
  const { x, q, box } = gateSystem();
  const params: PmeParams = { beta: ewaldCoeff(0.9, 1e-5), grid: pmeGrid(box, 0.12), order: shape.order };
  const fRef = new Float64Array(x.length);
  const ref = pmeReciprocal(x, q, box, params, fRef);
  const { PME_TARGETS } = await import('./targets.ts');
  const prep = await PME_TARGETS.get(shape.target, 'verify').prepare(key, box, params.grid, q.length);
  const f = new Float64Array(x.length);
  let energy: number;
  try {
    // the variant's own FFT (a wasm variant's SIMD passes) between its spread and gather, on a
    // grid where prepareMesh puts it (a wasm variant's memory, in its precision)
    const solver = new PmeSolver(box, params, prep.fft);
    const g = periodicGrid(prep, params.grid);
    await prep.spread(x, q, g);
    energy = solver.solve(g).energy;
    await prep.gather(g, f);
  } finally {
    prep.dispose();
  }
  const tol = PME_GATE_TOLERANCE[shape.precision];
  const energyError = Math.abs(energy - ref.energy) / Math.abs(ref.energy);
  let num = 0;
  let den = 0;
  for (let i = 0; i < f.length; i++) {
    num += (f[i]! - fRef[i]!) ** 2;
    den += fRef[i]! ** 2;
  }
  const forceError = Number.isFinite(num) ? Math.sqrt(num / den) : Infinity;
  const worst = Math.max(energyError / tol.energy, forceError / tol.force);
  const ok = worst <= 1 && Number.isFinite(worst);
  const detail = `energy ${energy} vs ${ref.energy} (relative ${energyError.toExponential(2)}, allowed ${tol.energy}); forces RMS error ${forceError.toExponential(2)} of the RMS force (allowed ${tol.force})`;
  return { ok, worst: Number.isFinite(worst) ? worst : Infinity, energyError, forceError, detail };
}
