// The f64 reference against closed forms: LJ with and without shift, reaction-field with its
// self and exclusion terms, Ewald real space, forces as minus the energy gradient, the virial.
import { describe, it, expect } from 'vitest';
import { reference } from '../../runtime/md/reference.ts';
import { derive, ONE_4PI_EPS0, erf, erfc, type MdSettings } from '../../runtime/md/interaction.ts';
import { randomSystem, type MdSystem } from '../../runtime/md/system.ts';

function pair(r: number, o: Partial<MdSystem> = {}): MdSystem {
  return {
    box: [5, 5, 5],
    x: Float64Array.of(1, 1, 1, 1 + r, 1, 1),
    q: Float64Array.of(0, 0),
    type: Int32Array.of(0, 0),
    ljTypes: [{ sigma: 0.3, epsilon: 0.5 }],
    exclusions: [new Int32Array(0), new Int32Array(0)],
    ...o,
  };
}

describe('reference: two particles', () => {
  const r = 0.35;
  const lj = (x: number) => 4 * 0.5 * ((0.3 / x) ** 12 - (0.3 / x) ** 6);
  it('plain LJ energy and force', () => {
    const res = reference(pair(r), { interaction: 'lj', comb: 'geom', shift: false, rc: 1.2 });
    expect(res.vdw).toBeCloseTo(lj(r), 12);
    const F = (24 * 0.5 * (2 * (0.3 / r) ** 12 - (0.3 / r) ** 6)) / r;
    expect(res.f[0]).toBeCloseTo(-F, 9); // particle 0 sits at smaller x: pushed away
    expect(res.f[3]).toBeCloseTo(F, 9);
  });
  it('potential-shift makes V(rc) = 0', () => {
    const res = reference(pair(r), { interaction: 'lj', comb: 'lb', shift: true, rc: 1.2 });
    expect(res.vdw).toBeCloseTo(lj(r) - lj(1.2), 12);
  });
  it('reaction-field pair, exclusion and self terms (GROMACS conventions)', () => {
    const s: MdSettings = { interaction: 'lj-rf', comb: 'geom', shift: true, rc: 1.2, epsRf: 0 };
    const d = derive(s);
    expect(d.krf).toBeCloseTo(1 / (2 * 1.2 ** 3), 14);
    expect(d.crf).toBeCloseTo(1 / 1.2 + d.krf * 1.44, 14);
    const q = Float64Array.of(0.8, -0.6);
    const self = -0.5 * ONE_4PI_EPS0 * (0.64 + 0.36) * d.crf;
    const qq = ONE_4PI_EPS0 * 0.8 * -0.6;
    const inter = reference(pair(r, { q, ljTypes: [{ sigma: 0, epsilon: 0 }] }), s);
    expect(inter.coul).toBeCloseTo(qq * (1 / r + d.krf * r * r - d.crf) + self, 10);
    const excl = reference(pair(r, { q, ljTypes: [{ sigma: 0, epsilon: 0 }], exclusions: [Int32Array.of(1), Int32Array.of(0)] }), s);
    expect(excl.coul).toBeCloseTo(qq * (d.krf * r * r - d.crf) + self, 10);
    expect(excl.f[3]).toBeCloseTo(qq * (-2 * d.krf) * r, 10);
  });
  it('Ewald real space and its exclusion correction', () => {
    const s: MdSettings = { interaction: 'lj-ewald', comb: 'geom', shift: false, rc: 1.2, ewaldRtol: 1e-5 };
    const d = derive(s);
    expect(erfc(d.beta * 1.2)).toBeCloseTo(1e-5, 12);
    const q = Float64Array.of(1, 1);
    const self = (-ONE_4PI_EPS0 * d.beta * 2) / Math.sqrt(Math.PI);
    const res = reference(pair(r, { q, ljTypes: [{ sigma: 0, epsilon: 0 }] }), s);
    expect(res.coul).toBeCloseTo((ONE_4PI_EPS0 * erfc(d.beta * r)) / r + self, 9);
    const ex = reference(pair(r, { q, ljTypes: [{ sigma: 0, epsilon: 0 }], exclusions: [Int32Array.of(1), Int32Array.of(0)] }), s);
    expect(ex.coul).toBeCloseTo((-ONE_4PI_EPS0 * erf(d.beta * r)) / r + self, 9);
  });
});

describe('reference: many particles', () => {
  const sys = randomSystem({ n: 60, box: [1.9, 2.0, 2.1], seed: 3 });
  const energy = (s: MdSettings, x: Float64Array) => {
    const r = reference({ ...sys, x }, s);
    return r.vdw + r.coul;
  };
  for (const interaction of ['lj', 'lj-rf', 'lj-ewald']) {
    const s: MdSettings = { interaction, comb: 'geom', shift: true, rc: 0.9 };
    it(`${interaction}: forces are minus the energy gradient`, () => {
      const res = reference(sys, s);
      const h = 1e-6;
      for (const k of [0, 4, 17, 50, 101, 170]) {
        const xp = Float64Array.from(sys.x);
        const xm = Float64Array.from(sys.x);
        xp[k]! += h;
        xm[k]! -= h;
        const num = -(energy(s, xp) - energy(s, xm)) / (2 * h);
        expect(Math.abs(num - res.f[k]!)).toBeLessThan(1e-5 * (1 + Math.abs(res.f[k]!)) + 1e-3);
      }
    });
    it(`${interaction}: total force vanishes and the virial is symmetric`, () => {
      const res = reference(sys, s);
      for (let c = 0; c < 3; c++) {
        let sum = 0;
        for (let a = 0; a < 60; a++) sum += res.f[3 * a + c]!;
        expect(Math.abs(sum)).toBeLessThan(1e-9 * res.fAbs.reduce((p, q) => p + q, 0));
      }
      expect(res.virial[1]).toBeCloseTo(res.virial[3]!, 9);
      expect(res.virial[2]).toBeCloseTo(res.virial[6]!, 9);
    });
  }
});
