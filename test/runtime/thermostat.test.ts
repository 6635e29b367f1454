// Velocity-rescaling thermostats. v-rescale: the one-step law (tauT = 0 samples the canonical
// kinetic energy; finite tauT relaxes the mean as c K + (1 - c) Kref), and repeated application
// to a free system samples the canonical Gamma(ndof/2, kT) law: mean Kref, relative variance
// 2/ndof, and for ndof = 2 the exponential CDF (Kolmogorov-Smirnov). Bounds are 5 standard
// errors; everything is seeded, so the numbers are reproducible. Berendsen against its formula.
import { describe, it, expect } from 'vitest';
import { vrescaleFactor, berendsenFactor, gaussian, gammaDeviate, chiSquared, kineticEnergy, refKinetic, KB } from '../../runtime/md/thermostat.ts';
import { rng } from '../../runtime/md/system.ts';

function moments(xs: Float64Array): { mean: number; variance: number } {
  let s = 0;
  for (const x of xs) s += x;
  const mean = s / xs.length;
  let v = 0;
  for (const x of xs) v += (x - mean) ** 2;
  return { mean, variance: v / (xs.length - 1) };
}

/** Standard error of the sample variance of n independent Gamma(k) draws, relative to the variance. */
const relVarErr = (k: number, n: number) => Math.sqrt((2 + 6 / k) / n);

describe('random deviates', () => {
  it('gaussian: mean 0, variance 1', () => {
    const r = rng(1);
    const n = 200000;
    const { mean, variance } = moments(Float64Array.from({ length: n }, () => gaussian(r)));
    expect(Math.abs(mean)).toBeLessThan(5 / Math.sqrt(n));
    expect(Math.abs(variance - 1)).toBeLessThan(5 * Math.sqrt(2 / n));
  });

  it.each([0.3, 0.5, 1, 2.5, 40, 1500])('gamma(shape %f): mean and variance = shape', (k) => {
    const r = rng(7);
    const n = 100000;
    const { mean, variance } = moments(Float64Array.from({ length: n }, () => gammaDeviate(k, r)));
    expect(Math.abs(mean - k)).toBeLessThan(5 * Math.sqrt(k / n));
    expect(Math.abs(variance / k - 1)).toBeLessThan(5 * relVarErr(k, n));
  });

  it('chi-squared with k dof: mean k, variance 2k; 0 for k = 0', () => {
    const r = rng(9);
    const n = 100000;
    for (const k of [1, 2, 7]) {
      const { mean, variance } = moments(Float64Array.from({ length: n }, () => chiSquared(k, r)));
      expect(Math.abs(mean - k)).toBeLessThan(5 * Math.sqrt((2 * k) / n));
      expect(Math.abs(variance / (2 * k) - 1)).toBeLessThan(5 * relVarErr(k / 2, n));
    }
    expect(chiSquared(0, r)).toBe(0);
    expect(() => gammaDeviate(0, r)).toThrow(/shape/);
  });
});

describe('vrescaleFactor', () => {
  it('tauT = 0: K f^2 is a fresh canonical draw, mean Kref and relative variance 2/ndof, whatever K', () => {
    const r = rng(123);
    const n = 200000;
    for (const [ndof, K, Kref] of [[50, 30, 10], [3000, 1000, 1200], [1, 0.1, 2]] as const) {
      const ks = Float64Array.from({ length: n }, () => K * vrescaleFactor(K, Kref, ndof, 0, 0.002, r) ** 2);
      const { mean, variance } = moments(ks);
      const relVar = 2 / ndof;
      expect(Math.abs(mean / Kref - 1)).toBeLessThan(5 * Math.sqrt(relVar / n));
      expect(Math.abs(variance / (Kref * Kref * relVar) - 1)).toBeLessThan(5 * relVarErr(ndof / 2, n));
    }
  });

  it('finite tauT: E[K f^2] = c K + (1 - c) Kref with c = exp(-dt/tauT)', () => {
    const r = rng(77);
    const n = 200000;
    const [ndof, K, Kref, tau, dt] = [30, 40, 25, 0.1, 0.02];
    const c = Math.exp(-dt / tau);
    const ks = Float64Array.from({ length: n }, () => K * vrescaleFactor(K, Kref, ndof, tau, dt, r) ** 2);
    const { mean, variance } = moments(ks);
    const expectMean = c * K + (1 - c) * Kref;
    // Var K' = (1-c)^2 Kref^2 2/ndof + 4 c (1-c) K Kref / ndof.
    const expectVar = ((1 - c) ** 2 * Kref * Kref * 2) / ndof + (4 * c * (1 - c) * K * Kref) / ndof;
    expect(Math.abs(mean - expectMean)).toBeLessThan(5 * Math.sqrt(expectVar / n));
    expect(Math.abs(variance / expectVar - 1)).toBeLessThan(0.03);
  });

  it('no coupling: tauT < 0, tauT = Infinity, or nothing to scale give exactly 1', () => {
    const r = rng(3);
    expect(vrescaleFactor(10, 20, 30, -1, 0.002, r)).toBe(1);
    expect(vrescaleFactor(10, 20, 30, Infinity, 0.002, r)).toBe(1);
    expect(vrescaleFactor(0, 20, 30, 0.1, 0.002, r)).toBe(1);
    expect(() => vrescaleFactor(10, 20, 0, 0.1, 0.002, r)).toThrow(/ndof/);
  });

  it('is deterministic for a seed', () => {
    const a = rng(42);
    const b = rng(42);
    for (let i = 0; i < 100; i++) expect(vrescaleFactor(12, 10, 17, 0.1, 0.002, a)).toBe(vrescaleFactor(12, 10, 17, 0.1, 0.002, b));
  });

  // Repeated application to a free system (no forces): K_(n+1) = f^2 K_n is a Markov chain whose
  // stationary law is Gamma(ndof/2, scale Kref*2/ndof); its autocorrelation is c^lag, so samples
  // every `thin` steps with c^thin < 1e-2 are nearly independent.
  const chain = (ndof: number, Kref: number, seed: number, nSamples: number, tau = 0.01, dt = 0.005, thin = 10): Float64Array => {
    const r = rng(seed);
    let K = 5 * Kref; // start far away; burn in
    for (let i = 0; i < 50 * thin; i++) K *= vrescaleFactor(K, Kref, ndof, tau, dt, r) ** 2;
    const out = new Float64Array(nSamples);
    for (let s = 0; s < nSamples; s++) {
      for (let i = 0; i < thin; i++) K *= vrescaleFactor(K, Kref, ndof, tau, dt, r) ** 2;
      out[s] = K;
    }
    return out;
  };

  it.each([1, 2, 6, 30, 3000])('free system with %i dof samples the canonical mean and 2/ndof relative variance', (ndof) => {
    const Kref = refKinetic(ndof, 300);
    const n = 40000;
    const { mean, variance } = moments(chain(ndof, Kref, 1000 + ndof, n));
    const relVar = 2 / ndof;
    expect(Math.abs(mean / Kref - 1)).toBeLessThan(5 * Math.sqrt(relVar / n));
    expect(Math.abs(variance / (Kref * Kref * relVar) - 1)).toBeLessThan(5 * relVarErr(ndof / 2, n));
  });

  it('ndof = 2: the kinetic energy is exponential (Kolmogorov-Smirnov)', () => {
    const Kref = 2.5;
    const xs = chain(2, Kref, 99, 40000).sort();
    let d = 0;
    for (let i = 0; i < xs.length; i++) {
      const F = 1 - Math.exp(-xs[i]! / Kref);
      d = Math.max(d, Math.abs(F - i / xs.length), Math.abs(F - (i + 1) / xs.length));
    }
    expect(d).toBeLessThan(1.95 / Math.sqrt(xs.length)); // p = 0.001
  });

  it('velocities of free particles rescaled every step reach the target temperature distribution', () => {
    const nAtoms = 10;
    const ndof = 3 * nAtoms;
    const T0 = 300;
    const r = rng(5);
    const mass = Float64Array.from({ length: nAtoms }, (_, i) => 1 + i);
    const v = Float64Array.from({ length: 3 * nAtoms }, () => 3 * (r() - 0.5));
    const Kref = refKinetic(ndof, T0);
    const n = 20000;
    const temps = new Float64Array(n);
    for (let s = -500; s < n; s++) {
      for (let i = 0; i < 10; i++) {
        // A free system: positions drift, velocities only change through the thermostat.
        const f = vrescaleFactor(kineticEnergy(v, mass), Kref, ndof, 0.01, 0.005, r);
        for (let k = 0; k < v.length; k++) v[k]! *= f;
      }
      if (s >= 0) temps[s] = (2 * kineticEnergy(v, mass)) / (ndof * KB);
    }
    const { mean, variance } = moments(temps);
    expect(Math.abs(mean / T0 - 1)).toBeLessThan(5 * Math.sqrt(2 / ndof / n));
    expect(Math.abs(variance / (T0 * T0 * (2 / ndof)) - 1)).toBeLessThan(5 * relVarErr(ndof / 2, n));
  });
});

describe('berendsenFactor', () => {
  it('matches sqrt(1 + dt/tau (Kref/K - 1)), clamped to [0.8, 1.25] by default', () => {
    for (const [K, Kref, tau, dt] of [[10, 12, 0.1, 0.002], [10, 8, 0.5, 0.001], [1, 1, 0.1, 0.002], [100, 3, 1, 0.002]] as const) {
      const exact = Math.sqrt(1 + (dt / tau) * (Kref / K - 1));
      expect(berendsenFactor(K, Kref, tau, dt, null)).toBeCloseTo(exact, 15);
      expect(berendsenFactor(K, Kref, tau, dt)).toBeCloseTo(Math.min(1.25, Math.max(0.8, exact)), 15);
    }
    // tau = dt: one step lands exactly on the reference (unclamped).
    expect(10 * berendsenFactor(10, 13, 0.002, 0.002, null) ** 2).toBeCloseTo(13, 12);
    expect(berendsenFactor(10, 13, 0.002, 0.002)).toBeCloseTo(Math.sqrt(1.3), 15);
    expect(berendsenFactor(10, 1000, 0.002, 0.002)).toBe(1.25);
    expect(berendsenFactor(1000, 1, 0.002, 0.002)).toBe(0.8);
    expect(berendsenFactor(1000, 1, 0.001, 0.002, null)).toBe(0); // radicand floored at 0
    expect(berendsenFactor(10, 13, 0, 0.002)).toBe(1);
    expect(berendsenFactor(0, 13, 0.1, 0.002)).toBe(1);
  });

  it('relaxes the temperature exponentially with time constant tau (to first order in dt)', () => {
    const [tau, dt, Kref] = [0.1, 0.0005, 10];
    let K = 20;
    for (let i = 0; i < 200; i++) K *= berendsenFactor(K, Kref, tau, dt) ** 2;
    // dK/dt = (Kref - K)/tau exactly per step: K_n - Kref = (1 - dt/tau)^n (K0 - Kref).
    expect(K - Kref).toBeCloseTo((1 - dt / tau) ** 200 * 10, 12);
    expect(K - Kref).toBeCloseTo(Math.exp(-200 * dt / tau) * 10, 1);
  });
});
