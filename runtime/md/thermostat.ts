// Velocity-scaling thermostats: Bussi-Donadio-Parrinello stochastic velocity rescaling
// (GROMACS `v-rescale`; J. Chem. Phys. 126, 014101 (2007)) and Berendsen weak coupling.
// Each returns the factor to multiply the velocities of the coupled group by.
// Units: GROMACS (kJ/mol, ps, K). Random numbers come from a caller-supplied uniform
// generator on [0, 1), e.g. the seeded Park-Miller `rng(seed)` of ./system.ts.

/** Boltzmann constant (kJ/mol/K), as in GROMACS. */
export const KB = 0.0083144626;

/** A uniform deviate on [0, 1). */
export type Uniform = () => number;

/** Kinetic energy 0.5 sum m_i |v_i|^2 (kJ/mol for u, nm/ps). */
export function kineticEnergy(v: Float64Array, mass: Float64Array): number {
  let k = 0;
  for (let i = 0, n = mass.length; i < n; i++) {
    const vx = v[3 * i]!, vy = v[3 * i + 1]!, vz = v[3 * i + 2]!;
    k += mass[i]! * (vx * vx + vy * vy + vz * vz);
  }
  return 0.5 * k;
}

/** Reference kinetic energy ndof kB T / 2 (kJ/mol). */
export function refKinetic(ndof: number, temperature: number): number {
  return 0.5 * ndof * KB * temperature;
}

/** Standard normal deviate (Box-Muller, one value per call; two uniforms). */
export function gaussian(rand: Uniform): number {
  const u1 = 1 - rand(); // (0, 1]
  const u2 = rand();
  return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
}

/**
 * Gamma deviate with the given shape and unit scale (density x^(k-1) e^-x / Gamma(k)):
 * Marsaglia & Tsang (2000) squeeze/rejection for shape >= 1, and
 * Gamma(k) = Gamma(k + 1) U^(1/k) for shape < 1.
 */
export function gammaDeviate(shape: number, rand: Uniform): number {
  if (!(shape > 0)) throw new Error(`gammaDeviate: shape must be > 0, got ${shape}`);
  if (shape < 1) return gammaDeviate(shape + 1, rand) * Math.pow(1 - rand(), 1 / shape);
  const d = shape - 1 / 3;
  const c = 1 / Math.sqrt(9 * d);
  for (;;) {
    let x: number, t: number;
    do {
      x = gaussian(rand);
      t = 1 + c * x;
    } while (t <= 0);
    const v = t * t * t;
    const u = 1 - rand(); // (0, 1]
    const x2 = x * x;
    if (u < 1 - 0.0331 * x2 * x2) return d * v;
    if (Math.log(u) < 0.5 * x2 + d * (1 - v + Math.log(v))) return d * v;
  }
}

/** Sum of k squared standard normals (chi-squared with k dof; 0 for k = 0): 2 Gamma(k/2). */
export function chiSquared(k: number, rand: Uniform): number {
  if (k <= 0) return 0;
  if (k === 1) {
    const g = gaussian(rand);
    return g * g;
  }
  return 2 * gammaDeviate(k / 2, rand);
}

/**
 * Stochastic velocity rescaling factor alpha (multiply the group's velocities by it).
 * With c = exp(-dt/tauT), Kref = refKinetic = ndof kB T0 / 2, R1 ~ N(0,1) and
 * S ~ chi^2(ndof - 1), the new kinetic energy K' = alpha^2 K is
 *   K' = c K + (1 - c) Kref (R1^2 + S) / ndof + 2 R1 sqrt(c (1 - c) K Kref / ndof),
 * i.e. alpha^2 = (sqrt(c) + R1 sqrt((1 - c) Kref / (ndof K)))^2 + (1 - c) S Kref / (ndof K),
 * the exact solution over dt of dK = (Kref - K) dt/tauT + 2 sqrt(K Kref / ndof) dW / sqrt(tauT),
 * whose stationary law is the canonical one, K ~ Gamma(ndof/2, scale kB T0); E[K'] =
 * c K + (1 - c) Kref. alpha is the positive root. tauT = 0 draws K' from the canonical
 * distribution at once; tauT < 0 means no coupling (returns 1), as does kinetic <= 0
 * (nothing to scale). Uses 1 normal and 1 chi-squared deviate per call.
 */
export function vrescaleFactor(kinetic: number, refKinetic: number, ndof: number, tauT: number, dt: number, rand: Uniform): number {
  if (!(ndof >= 1)) throw new Error(`vrescaleFactor: ndof must be >= 1, got ${ndof}`);
  if (tauT < 0 || !(kinetic > 0)) return 1;
  const c = tauT === 0 ? 0 : Math.exp(-dt / tauT);
  const q = refKinetic / (ndof * kinetic);
  const r1 = gaussian(rand);
  const s = chiSquared(ndof - 1, rand);
  const a = Math.sqrt(c) + r1 * Math.sqrt((1 - c) * q);
  return Math.sqrt(a * a + (1 - c) * q * s);
}

/**
 * Berendsen weak-coupling factor lambda = sqrt(1 + (dt/tauT) (Kref/K - 1)) (Kref/K = T0/T),
 * with the radicand floored at 0 and lambda clamped to [lo, hi] ([0.8, 1.25] as GROMACS does;
 * pass `null` for no clamp). tauT <= 0 or kinetic <= 0 returns 1.
 */
export function berendsenFactor(kinetic: number, refKinetic: number, tauT: number, dt: number, clamp: [number, number] | null = [0.8, 1.25]): number {
  if (!(tauT > 0) || !(kinetic > 0)) return 1;
  const lambda = Math.sqrt(Math.max(0, 1 + (dt / tauT) * (refKinetic / kinetic - 1)));
  if (!clamp) return lambda;
  return Math.min(clamp[1], Math.max(clamp[0], lambda));
}
