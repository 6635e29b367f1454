// SETTLE for rigid SPC/E water: exact geometry and centre of mass after positions(), the
// displacement equals the converged SHAKE solution (forces along the old bonds), leap-frog
// velocity correction, the constraint virial against hand-derived cases, the analytic velocity
// projection, and free rigid rotors integrated for 10,000 steps (leap-frog + SETTLE and
// velocity Verlet + RATTLE).
import { describe, it, expect } from 'vitest';
import { Settle, constrainedDof, SPCE_DOH, SPCE_DHH } from '../../runtime/md/settle.ts';
import { SPCE, rng } from '../../runtime/md/system.ts';

const mO = SPCE.massO;
const mH = SPCE.massH;
const M = mO + 2 * mH;
const H = Math.sqrt(SPCE_DOH ** 2 - (SPCE_DHH / 2) ** 2); // O to H-H midpoint

/** n waters at random places and orientations, exact geometry; atoms of molecule m at 3m..3m+2. */
function waters(n: number, seed: number): { x: Float64Array; mass: Float64Array; mols: Int32Array } {
  const r = rng(seed);
  const x = new Float64Array(9 * n);
  const mass = new Float64Array(3 * n);
  const mols = new Int32Array(3 * n);
  const body = [[0, 0, 0], [-SPCE_DHH / 2, -H, 0], [SPCE_DHH / 2, -H, 0]];
  for (let m = 0; m < n; m++) {
    // Random rotation from a random unit quaternion.
    let q = [r() - 0.5, r() - 0.5, r() - 0.5, r() - 0.5];
    const qn = Math.hypot(...q);
    q = q.map((t) => t / qn);
    const [w, a, b, c] = q as [number, number, number, number];
    const R = [
      [1 - 2 * (b * b + c * c), 2 * (a * b - w * c), 2 * (a * c + w * b)],
      [2 * (a * b + w * c), 1 - 2 * (a * a + c * c), 2 * (b * c - w * a)],
      [2 * (a * c - w * b), 2 * (b * c + w * a), 1 - 2 * (a * a + b * b)],
    ];
    const cen = [3 * r(), 3 * r(), 3 * r()];
    for (let k = 0; k < 3; k++) {
      mols[3 * m + k] = 3 * m + k;
      mass[3 * m + k] = k === 0 ? mO : mH;
      for (let d = 0; d < 3; d++) x[9 * m + 3 * k + d] = cen[d]! + R[d]![0]! * body[k]![0]! + R[d]![1]! * body[k]![1]! + R[d]![2]! * body[k]![2]!;
    }
  }
  return { x, mass, mols };
}

function dist(x: Float64Array, i: number, j: number): number {
  return Math.hypot(x[3 * i]! - x[3 * j]!, x[3 * i + 1]! - x[3 * j + 1]!, x[3 * i + 2]! - x[3 * j + 2]!);
}

function com(x: Float64Array, m: number, d: number): number {
  return (mO * x[9 * m + d]! + mH * (x[9 * m + 3 + d]! + x[9 * m + 6 + d]!)) / M;
}

/**
 * Reference: iterative SHAKE on one molecule (forces along the old bond vectors), converged
 * to roundoff. Returns the constrained positions and the three multipliers g (m_i d_i =
 * sum_j g_ij r0_ij, g > 0 pulling the pair together).
 */
function shake(x0: Float64Array, x1: Float64Array, m: number): { x: Float64Array; g: number[] } {
  const x = x1.slice(9 * m, 9 * m + 9);
  const o = x0.slice(9 * m, 9 * m + 9);
  const im = [1 / mO, 1 / mH, 1 / mH];
  const pairs: [number, number, number][] = [[0, 1, SPCE_DOH], [0, 2, SPCE_DOH], [1, 2, SPCE_DHH]];
  const g = [0, 0, 0];
  for (let it = 0; it < 1000; it++) {
    let worst = 0;
    pairs.forEach(([i, j, d], p) => {
      const r = [0, 1, 2].map((k) => x[3 * i + k]! - x[3 * j + k]!);
      const r0 = [0, 1, 2].map((k) => o[3 * i + k]! - o[3 * j + k]!);
      const diff = r[0]! ** 2 + r[1]! ** 2 + r[2]! ** 2 - d * d;
      worst = Math.max(worst, Math.abs(diff) / (d * d));
      const gg = diff / (2 * (im[i]! + im[j]!) * (r[0]! * r0[0]! + r[1]! * r0[1]! + r[2]! * r0[2]!));
      g[p]! += gg;
      for (let k = 0; k < 3; k++) {
        x[3 * i + k]! -= gg * im[i]! * r0[k]!;
        x[3 * j + k]! += gg * im[j]! * r0[k]!;
      }
    });
    if (worst < 1e-15) break;
  }
  return { x, g };
}

describe('Settle.positions', () => {
  const N = 1000;
  const { x: x0, mass, mols } = waters(N, 11);
  const r = rng(5);
  const x1 = x0.map((t) => t + 0.02 * (r() - 0.5)); // up to 0.01 nm per coordinate
  const settle = new Settle(mols, mass, SPCE_DOH, SPCE_DHH);
  const x3 = x1.slice();
  settle.positions(x0, x3);

  it('restores every O-H and H-H distance to 1e-10 relative and keeps the centre of mass', () => {
    let worst = 0;
    let worstCom = 0;
    for (let m = 0; m < N; m++) {
      worst = Math.max(worst, Math.abs(dist(x3, 3 * m, 3 * m + 1) / SPCE_DOH - 1), Math.abs(dist(x3, 3 * m, 3 * m + 2) / SPCE_DOH - 1), Math.abs(dist(x3, 3 * m + 1, 3 * m + 2) / SPCE_DHH - 1));
      for (let d = 0; d < 3; d++) worstCom = Math.max(worstCom, Math.abs(com(x3, m, d) - com(x1, m, d)));
    }
    expect(worst).toBeLessThan(1e-10);
    expect(worstCom).toBeLessThan(1e-12);
    expect(settle.errors).toBe(0);
    // The perturbation really broke the constraints.
    expect(Math.abs(dist(x1, 0, 1) / SPCE_DOH - 1)).toBeGreaterThan(1e-4);
  });

  it('equals the converged SHAKE solution (displacements along the old bonds, no torque)', () => {
    let worst = 0;
    for (let m = 0; m < N; m += 7) {
      const ref = shake(x0, x1, m).x;
      for (let k = 0; k < 9; k++) worst = Math.max(worst, Math.abs(ref[k]! - x3[9 * m + k]!));
    }
    expect(worst).toBeLessThan(1e-13);
  });

  it('is the identity on constrained input and exact for a rigid motion of it', () => {
    const y = x0.slice();
    settle.positions(x0, y);
    let worst = 0;
    for (let k = 0; k < y.length; k++) worst = Math.max(worst, Math.abs(y[k]! - x0[k]!));
    expect(worst).toBeLessThan(1e-14);
    // Translated and turned by 0.2 rad about an arbitrary axis: already rigid, so unchanged.
    const ax = [0.3, -0.5, 0.81];
    const an = Math.hypot(...ax);
    const [kx, ky, kz] = ax.map((t) => t / an) as [number, number, number];
    const cs = Math.cos(0.2), sn = Math.sin(0.2);
    const moved = x0.slice();
    for (let i = 0; i < 3 * N; i++) {
      const p = [x0[3 * i]!, x0[3 * i + 1]!, x0[3 * i + 2]!];
      const kd = kx * p[0]! + ky * p[1]! + kz * p[2]!;
      const cr = [ky * p[2]! - kz * p[1]!, kz * p[0]! - kx * p[2]!, kx * p[1]! - ky * p[0]!];
      const kk = [kx, ky, kz];
      for (let d = 0; d < 3; d++) moved[3 * i + d] = p[d]! * cs + cr[d]! * sn + kk[d]! * kd * (1 - cs) + 0.05 * (d + 1);
    }
    const z = moved.slice();
    settle.positions(x0, z);
    worst = 0;
    for (let k = 0; k < z.length; k++) worst = Math.max(worst, Math.abs(z[k]! - moved[k]!));
    expect(worst).toBeLessThan(1e-13);
  });

  it('corrects leap-frog velocities by displacement/dt, keeping each molecule\'s momentum', () => {
    const dt = 0.002;
    const v0 = x0.map(() => r() - 0.5);
    const v = v0.slice();
    const y = x1.slice();
    settle.positions(x0, y, v, 1 / dt);
    let worst = 0;
    let worstP = 0;
    for (let k = 0; k < y.length; k++) worst = Math.max(worst, Math.abs(v[k]! - v0[k]! - (y[k]! - x1[k]!) / dt));
    for (let m = 0; m < N; m++) {
      for (let d = 0; d < 3; d++) {
        const p = (u: Float64Array) => mO * u[9 * m + d]! + mH * (u[9 * m + 3 + d]! + u[9 * m + 6 + d]!);
        worstP = Math.max(worstP, Math.abs(p(v) - p(v0)));
      }
    }
    expect(worst).toBeLessThan(1e-12);
    expect(worstP).toBeLessThan(1e-10);
  });
});

describe('Settle constraint virial', () => {
  const dt = 0.002;
  const { x: x0, mass, mols } = waters(1, 3);
  const settle = new Settle(mols, mass, SPCE_DOH, SPCE_DHH);

  it('uniform dilation by (1+eps) about the centre of mass: virial = +0.5 eps/dt^2 sum m r r', () => {
    // The exact answer is the original molecule: d_i = -eps r_i (r about the centre of mass),
    // f_i = -m_i eps r_i / dt^2 and Xi = -0.5 sum r_i (x) f_i = 0.5 eps/dt^2 sum m_i r_i (x) r_i.
    const eps = 0.01;
    const c = [0, 1, 2].map((d) => com(x0, 0, d));
    const x1 = x0.map((t, k) => c[k % 3]! + (1 + eps) * (t - c[k % 3]!));
    const vir = new Float64Array(9);
    settle.positions(x0, x1, undefined, 1 / dt, vir);
    const expected = new Float64Array(9);
    for (let i = 0; i < 3; i++) {
      for (let a = 0; a < 3; a++) {
        for (let b = 0; b < 3; b++) expected[3 * a + b]! += ((0.5 * eps) / dt ** 2) * mass[i]! * (x0[3 * i + a]! - c[a]!) * (x0[3 * i + b]! - c[b]!);
      }
    }
    for (let k = 0; k < 9; k++) expect(Math.abs(x1[k]! - x0[k]!)).toBeLessThan(1e-14);
    for (let k = 0; k < 9; k++) expect(vir[k]!).toBeCloseTo(expected[k]!, 8);
    // Trace: 0.5 eps/dt^2 sum m |r|^2 > 0 (stretched bonds pull inward: lowers the pressure).
    const trace = vir[0]! + vir[4]! + vir[8]!;
    const inertia = mO * (2 * mH * H / M) ** 2 + 2 * mH * ((SPCE_DHH / 2) ** 2 + (H - (2 * mH * H) / M) ** 2);
    expect(trace).toBeCloseTo((0.5 * eps * inertia) / dt ** 2, 8);
    expect(trace).toBeGreaterThan(0);
  });

  it('one O-H bond stretched along itself: tension in that bond, virial = -0.5 sum_pairs r0_ij (x) f_ij', () => {
    const eps = 0.002; // nm
    const x1 = x0.slice();
    const u = [0, 1, 2].map((d) => (x0[3 + d]! - x0[d]!) / SPCE_DOH);
    for (let d = 0; d < 3; d++) x1[3 + d]! += eps * u[d]!;
    const { g } = shake(x0, x1, 0);
    // Pulling H1 out: the O-H1 constraint must pull it back (g > 0 = attractive), and it does
    // most of the work.
    expect(g[0]!).toBeGreaterThan(0);
    expect(Math.abs(g[0]!)).toBeGreaterThan(5 * Math.max(Math.abs(g[1]!), Math.abs(g[2]!)));
    const vir = new Float64Array(9);
    const y = x1.slice();
    settle.positions(x0, y, undefined, 1 / dt, vir);
    // Pair force on i from the (i, j) constraint is -g r0_ij / dt^2 with r0_ij = r0_i - r0_j,
    // so -0.5 r0_ij (x) f_ij = +0.5 g/dt^2 r0_ij (x) r0_ij.
    const expected = new Float64Array(9);
    ([[0, 1], [0, 2], [1, 2]] as const).forEach(([i, j], p) => {
      const rij = [0, 1, 2].map((d) => x0[3 * i + d]! - x0[3 * j + d]!);
      for (let a = 0; a < 3; a++) for (let b = 0; b < 3; b++) expected[3 * a + b]! += (0.5 * g[p]! / dt ** 2) * rij[a]! * rij[b]!;
    });
    for (let k = 0; k < 9; k++) expect(Math.abs(vir[k]! - expected[k]!)).toBeLessThan(1e-9 * Math.abs(expected[0]! + expected[4]! + expected[8]!));
    // Leading order: only the O-H1 bond, g ~ eps / (dOH (1/mO + 1/mH)) -> trace ~ 0.5 g dOH^2 / dt^2.
    const trace = vir[0]! + vir[4]! + vir[8]!;
    const g0 = eps / (SPCE_DOH * (1 / mO + 1 / mH));
    expect(trace).toBeGreaterThan(0);
    expect(trace / ((0.5 * g0 * SPCE_DOH ** 2) / dt ** 2)).toBeGreaterThan(0.8);
    expect(trace / ((0.5 * g0 * SPCE_DOH ** 2) / dt ** 2)).toBeLessThan(1.2);
    // Symmetric, as a sum of r0_ij (x) r0_ij.
    expect(Math.abs(vir[1]! - vir[3]!) + Math.abs(vir[2]! - vir[6]!) + Math.abs(vir[5]! - vir[7]!)).toBeLessThan(1e-9 * trace);
  });

  it('needs invdt for the virial', () => {
    expect(() => settle.positions(x0, x0.slice(), undefined, undefined, new Float64Array(9))).toThrow(/invdt/);
  });
});

describe('Settle.velocities', () => {
  const N = 1000;
  const { x, mass, mols } = waters(N, 21);
  const settle = new Settle(mols, mass, SPCE_DOH, SPCE_DHH);
  const r = rng(8);
  const v0 = x.map(() => 2 * (r() - 0.5));
  const v = v0.slice();
  const vir = new Float64Array(9);
  settle.velocities(x, v, vir, 2 / 0.002);

  const relBond = (u: Float64Array, i: number, j: number): number => {
    let s = 0;
    for (let d = 0; d < 3; d++) s += (x[3 * i + d]! - x[3 * j + d]!) * (u[3 * i + d]! - u[3 * j + d]!);
    return s / dist(x, i, j);
  };

  it('leaves no relative velocity along any bond', () => {
    let worst = 0;
    let before = 0;
    for (let m = 0; m < N; m++) {
      for (const [i, j] of [[0, 1], [0, 2], [1, 2]] as const) {
        worst = Math.max(worst, Math.abs(relBond(v, 3 * m + i, 3 * m + j)));
        before = Math.max(before, Math.abs(relBond(v0, 3 * m + i, 3 * m + j)));
      }
    }
    expect(before).toBeGreaterThan(0.5);
    expect(worst).toBeLessThan(1e-10);
  });

  it('keeps each molecule\'s momentum and does not increase the kinetic energy', () => {
    let worstP = 0;
    let keBefore = 0;
    let keAfter = 0;
    for (let m = 0; m < N; m++) {
      let kb = 0;
      let ka = 0;
      for (let k = 0; k < 3; k++) {
        for (let d = 0; d < 3; d++) {
          kb += 0.5 * mass[3 * m + k]! * v0[9 * m + 3 * k + d]! ** 2;
          ka += 0.5 * mass[3 * m + k]! * v[9 * m + 3 * k + d]! ** 2;
        }
      }
      expect(ka).toBeLessThanOrEqual(kb * (1 + 1e-14));
      keBefore += kb;
      keAfter += ka;
      for (let d = 0; d < 3; d++) {
        const p = (u: Float64Array) => mO * u[9 * m + d]! + mH * (u[9 * m + 3 + d]! + u[9 * m + 6 + d]!);
        worstP = Math.max(worstP, Math.abs(p(v) - p(v0)));
      }
    }
    expect(worstP).toBeLessThan(1e-12);
    expect(keAfter).toBeLessThan(keBefore);
  });

  it('is a projection: idempotent, and rigid-body velocities pass unchanged', () => {
    const w = v.slice();
    settle.velocities(x, w);
    let worst = 0;
    for (let k = 0; k < w.length; k++) worst = Math.max(worst, Math.abs(w[k]! - v[k]!));
    expect(worst).toBeLessThan(1e-13);
    // v = V + omega x (r - c) per molecule.
    const rigid = new Float64Array(x.length);
    for (let m = 0; m < N; m++) {
      const V = [r() - 0.5, r() - 0.5, r() - 0.5];
      const om = [20 * (r() - 0.5), 20 * (r() - 0.5), 20 * (r() - 0.5)];
      const c = [0, 1, 2].map((d) => com(x, m, d));
      for (let k = 0; k < 3; k++) {
        const q = [0, 1, 2].map((d) => x[9 * m + 3 * k + d]! - c[d]!);
        rigid[9 * m + 3 * k] = V[0]! + om[1]! * q[2]! - om[2]! * q[1]!;
        rigid[9 * m + 3 * k + 1] = V[1]! + om[2]! * q[0]! - om[0]! * q[2]!;
        rigid[9 * m + 3 * k + 2] = V[2]! + om[0]! * q[1]! - om[1]! * q[0]!;
      }
    }
    const rv = rigid.slice();
    settle.velocities(x, rv);
    worst = 0;
    for (let k = 0; k < rv.length; k++) worst = Math.max(worst, Math.abs(rv[k]! - rigid[k]!));
    expect(worst).toBeLessThan(1e-12);
  });

  it('accumulates -0.5 sum x_i (x) dp_i * invdtKick, symmetric', () => {
    const expected = new Float64Array(9);
    for (let i = 0; i < 3 * N; i++) {
      for (let a = 0; a < 3; a++) {
        for (let b = 0; b < 3; b++) expected[3 * a + b]! += -0.5 * (2 / 0.002) * x[3 * i + a]! * mass[i]! * (v[3 * i + b]! - v0[3 * i + b]!);
      }
    }
    const scale = Math.abs(expected[0]!) + Math.abs(expected[4]!) + Math.abs(expected[8]!);
    for (let k = 0; k < 9; k++) expect(Math.abs(vir[k]! - expected[k]!)).toBeLessThan(1e-9 * scale);
    expect(Math.abs(vir[1]! - vir[3]!) + Math.abs(vir[2]! - vir[6]!) + Math.abs(vir[5]! - vir[7]!)).toBeLessThan(1e-9 * scale);
  });
});

describe('free rigid water rotor, no forces, 10,000 steps', () => {
  const dt = 0.002;
  const setup = () => {
    const { x, mass, mols } = waters(1, 4);
    const c = [0, 1, 2].map((d) => com(x, 0, d));
    const V = [0.3, -0.2, 0.1];
    const om = [20, -10, 15]; // rad/ps, not along a principal axis
    const v = new Float64Array(9);
    for (let k = 0; k < 3; k++) {
      const q = [0, 1, 2].map((d) => x[3 * k + d]! - c[d]!);
      v[3 * k] = V[0]! + om[1]! * q[2]! - om[2]! * q[1]!;
      v[3 * k + 1] = V[1]! + om[2]! * q[0]! - om[0]! * q[2]!;
      v[3 * k + 2] = V[2]! + om[0]! * q[1]! - om[1]! * q[0]!;
    }
    return { x, v, mass, settle: new Settle(mols, mass, SPCE_DOH, SPCE_DHH) };
  };
  const ke = (v: Float64Array, mass: Float64Array) => {
    let k = 0;
    for (let i = 0; i < 3; i++) k += 0.5 * mass[i]! * (v[3 * i]! ** 2 + v[3 * i + 1]! ** 2 + v[3 * i + 2]! ** 2);
    return k;
  };
  const angmom = (x: Float64Array, v: Float64Array, mass: Float64Array) => {
    const l = [0, 0, 0];
    for (let i = 0; i < 3; i++) {
      const [rx, ry, rz] = [x[3 * i]!, x[3 * i + 1]!, x[3 * i + 2]!];
      const [px, py, pz] = [mass[i]! * v[3 * i]!, mass[i]! * v[3 * i + 1]!, mass[i]! * v[3 * i + 2]!];
      l[0]! += ry * pz - rz * py;
      l[1]! += rz * px - rx * pz;
      l[2]! += rx * py - ry * px;
    }
    return l;
  };

  it('leap-frog + SETTLE keeps kinetic energy and angular momentum', () => {
    const { x, v, mass, settle } = setup();
    const xn = new Float64Array(9);
    // The first step turns the initial (tangent) velocities into chord velocities; measure
    // from there. L_n = sum m x_n x v_(n+1/2) is conserved exactly by the scheme.
    const L0 = angmom(x, v, mass);
    let k0 = 0;
    let worstK = 0;
    let worstL = 0;
    let worstGeom = 0;
    for (let step = 0; step < 10000; step++) {
      for (let k = 0; k < 9; k++) xn[k] = x[k]! + v[k]! * dt;
      settle.positions(x, xn, v, 1 / dt);
      const l = angmom(x, v, mass);
      worstL = Math.max(worstL, Math.hypot(l[0]! - L0[0]!, l[1]! - L0[1]!, l[2]! - L0[2]!) / Math.hypot(...L0));
      x.set(xn);
      if (step === 0) k0 = ke(v, mass);
      worstK = Math.max(worstK, Math.abs(ke(v, mass) / k0 - 1));
      worstGeom = Math.max(worstGeom, Math.abs(dist(x, 0, 1) / SPCE_DOH - 1), Math.abs(dist(x, 1, 2) / SPCE_DHH - 1));
    }
    expect(worstK).toBeLessThan(1e-6);
    expect(worstL).toBeLessThan(1e-6);
    expect(worstGeom).toBeLessThan(1e-12);
    expect(settle.errors).toBe(0);
  });

  it('velocity Verlet + RATTLE (positions() then velocities()) keeps them too', () => {
    const { x, v, mass, settle } = setup();
    const xn = new Float64Array(9);
    settle.velocities(x, v);
    const k0 = ke(v, mass);
    const L0 = angmom(x, v, mass);
    let worstK = 0;
    let worstL = 0;
    for (let step = 0; step < 10000; step++) {
      for (let k = 0; k < 9; k++) xn[k] = x[k]! + v[k]! * dt;
      settle.positions(x, xn, v, 1 / dt);
      x.set(xn);
      settle.velocities(x, v);
      const l = angmom(x, v, mass);
      worstL = Math.max(worstL, Math.hypot(l[0]! - L0[0]!, l[1]! - L0[1]!, l[2]! - L0[2]!) / Math.hypot(...L0));
      worstK = Math.max(worstK, Math.abs(ke(v, mass) / k0 - 1));
    }
    expect(worstK).toBeLessThan(1e-6);
    expect(worstL).toBeLessThan(1e-6);
  });
});

describe('Settle setup', () => {
  it('constrainedDof = 3N - 3 nMols - 3', () => {
    expect(constrainedDof(3000, 1000)).toBe(9000 - 3000 - 3);
    expect(constrainedDof(3000, 1000, 0)).toBe(6000);
  });
  it('SPC/E H-H distance from the angle', () => {
    expect(SPCE_DHH).toBeCloseTo(0.16329931618554522, 4);
    expect(SPCE_DHH).toBeCloseTo(2 * 0.1 * Math.sin(((109.47 / 2) * Math.PI) / 180), 15);
  });
  it('rejects mixed masses and impossible geometry', () => {
    const { mass, mols } = waters(2, 1);
    expect(() => new Settle(mols, mass, 0.1, 0.25)).toThrow(/geometry/);
    const bad = mass.slice();
    bad[4] = 2.016;
    expect(() => new Settle(mols, bad, SPCE_DOH, SPCE_DHH)).toThrow(/masses/);
    expect(() => new Settle(mols.subarray(0, 4), mass, SPCE_DOH, SPCE_DHH)).toThrow(/multiple of 3/);
  });
});
