// The rest of the MD step (issue 16), made faster without changing a bit of the results: the
// per-atom kick + drift against the flat loops over 3N numbers it replaced, SETTLE's three passes
// over blocks of molecules against one pass per molecule (the code it replaced, kept below as
// the reference), including molecules that hit the clamps, and the guard that now checks only
// the forces where the displacement check has seen finite positions: a NaN position is still
// named at the step it appears.
import { describe, it, expect } from 'vitest';
import { kickDrift, kick, forcesWithin, MdEngine, MdBlowUp } from '../../runtime/md/engine.ts';
import { Settle, settleRange, SETTLE_ACC_WORDS, SPCE_DOH, SPCE_DHH, type SettleJob } from '../../runtime/md/settle.ts';
import { RunChecks } from '../../runtime/md/sanity.ts';
import { SPCE, rng } from '../../runtime/md/system.ts';
import { prepareRun } from '../../runtime/md/setup.ts';

/** The update loops the engine had before: flat over 3N numbers, h per coordinate. */
function kickDriftFlat(v: Float64Array, x: Float64Array, xOld: Float64Array | undefined, h3: Float64Array, f: Float64Array, lambda: number, scale: number, dt: number): void {
  if (xOld) xOld.set(x);
  for (let i = 0; i < v.length; i++) {
    const vi = lambda === 1 && scale === 1 ? v[i]! + h3[i]! * f[i]! : lambda * v[i]! + scale * h3[i]! * f[i]!;
    v[i] = vi;
    x[i] = x[i]! + dt * vi;
  }
}

function same(a: Float64Array, b: Float64Array): boolean {
  return a.length === b.length && a.every((t, i) => Object.is(t, b[i]));
}

describe('kick and drift per atom', () => {
  it('equal the flat loops over 3N numbers bit for bit (half and full kick, with and without a thermostat factor, with and without keeping the old positions)', () => {
    const r = rng(11);
    const n = 1001;
    const dt = 0.002;
    const mass = Float64Array.from({ length: n }, (_, a) => (a % 3 ? 1.008 : 15.9994) * (0.5 + r()));
    const h = mass.map((m) => 0.5 * dt * (1 / m));
    const h3 = Float64Array.from({ length: 3 * n }, (_, i) => h[Math.floor(i / 3)]!);
    const x0 = Float64Array.from({ length: 3 * n }, () => 10 * (r() - 0.5));
    const v0 = Float64Array.from({ length: 3 * n }, () => r() - 0.5);
    const f = Float64Array.from({ length: 3 * n }, () => 2000 * (r() - 0.5));
    v0[7] = -0;
    f[8] = -0;
    for (const [lambda, scale] of [[1, 1], [1, 2], [0.9987, 2], [1.0123, 1]] as const) {
      for (const keep of [false, true]) {
        const [xa, va, xb, vb] = [x0, v0, x0, v0].map((t) => Float64Array.from(t)) as [Float64Array, Float64Array, Float64Array, Float64Array];
        const oa = keep ? new Float64Array(3 * n) : undefined;
        const ob = keep ? new Float64Array(3 * n) : undefined;
        kickDriftFlat(va, xa, oa, h3, f, lambda, scale, dt);
        kickDrift(vb, xb, ob, h, f, lambda, scale, dt);
        expect(same(va, vb) && same(xa, xb), `lambda ${lambda}, scale ${scale}, keep ${keep}`).toBe(true);
        if (oa && ob) expect(same(oa, ob) && same(ob, x0)).toBe(true);
      }
    }
    const va = Float64Array.from(v0);
    const vb = Float64Array.from(v0);
    for (let i = 0; i < va.length; i++) va[i] = va[i]! + h3[i]! * f[i]!;
    kick(vb, h, f);
    expect(same(va, vb)).toBe(true);
  });
});

function settleOnePass(job: SettleJob, m0: number, m1: number, acc: Float64Array): void {
  const { mols, mO, mH, ra, rb, rc, xOld, xNew, doV } = job;
  const v = job.v;
  const virial = job.virial;
  const iv = job.invdt;
  const wO = mO / (mO + 2 * mH), wH = mH / (mO + 2 * mH);
  let v00 = 0, v01 = 0, v02 = 0, v10 = 0, v11 = 0, v12 = 0, v20 = 0, v21 = 0, v22 = 0;
  let errors = 0;
    for (let m = m0; m < m1; m++) {
      const ia = 3 * mols[3 * m]!, ib = 3 * mols[3 * m + 1]!, ic = 3 * mols[3 * m + 2]!;
      // Old bond vectors from O.
      const xa0 = xOld[ia]!, ya0 = xOld[ia + 1]!, za0 = xOld[ia + 2]!;
      const b0x = xOld[ib]! - xa0, b0y = xOld[ib + 1]! - ya0, b0z = xOld[ib + 2]! - za0;
      const c0x = xOld[ic]! - xa0, c0y = xOld[ic + 1]! - ya0, c0z = xOld[ic + 2]! - za0;
      // New positions and their centre of mass.
      const a1x = xNew[ia]!, a1y = xNew[ia + 1]!, a1z = xNew[ia + 2]!;
      const b1x = xNew[ib]!, b1y = xNew[ib + 1]!, b1z = xNew[ib + 2]!;
      const c1x = xNew[ic]!, c1y = xNew[ic + 1]!, c1z = xNew[ic + 2]!;
      const dx = wO * a1x + wH * (b1x + c1x);
      const dy = wO * a1y + wH * (b1y + c1y);
      const dz = wO * a1z + wH * (b1z + c1z);
      const pax = a1x - dx, pay = a1y - dy, paz = a1z - dz;
      const pbx = b1x - dx, pby = b1y - dy, pbz = b1z - dz;
      const pcx = c1x - dx, pcy = c1y - dy, pcz = c1z - dz;
      // Frame: ez normal to the old plane, ex = unit(a1' x ez), ey = ez x ex.
      let ezx = b0y * c0z - b0z * c0y, ezy = b0z * c0x - b0x * c0z, ezz = b0x * c0y - b0y * c0x;
      let s = 1 / Math.sqrt(ezx * ezx + ezy * ezy + ezz * ezz);
      ezx *= s; ezy *= s; ezz *= s;
      let exx = pay * ezz - paz * ezy, exy = paz * ezx - pax * ezz, exz = pax * ezy - pay * ezx;
      s = 1 / Math.sqrt(exx * exx + exy * exy + exz * exz);
      exx *= s; exy *= s; exz *= s;
      const eyx = ezy * exz - ezz * exy, eyy = ezz * exx - ezx * exz, eyz = ezx * exy - ezy * exx;
      // Coordinates in the frame.
      const za1 = pax * ezx + pay * ezy + paz * ezz;
      const xb1 = pbx * exx + pby * exy + pbz * exz, yb1 = pbx * eyx + pby * eyy + pbz * eyz, zb1 = pbx * ezx + pby * ezy + pbz * ezz;
      const xc1 = pcx * exx + pcy * exy + pcz * exz, yc1 = pcx * eyx + pcy * eyy + pcz * eyz, zc1 = pcx * ezx + pcy * ezy + pcz * ezz;
      const xb0 = b0x * exx + b0y * exy + b0z * exz, yb0 = b0x * eyx + b0y * eyy + b0z * eyz;
      const xc0 = c0x * exx + c0y * exy + c0z * exz, yc0 = c0x * eyx + c0y * eyy + c0z * eyz;
      // Tilts phi (about X) and psi (about Y) from the conserved Z coordinates.
      let sinphi = za1 / ra;
      if (sinphi > 1 || sinphi < -1) { sinphi = sinphi > 0 ? 1 : -1; errors++; }
      const cosphi = Math.sqrt(1 - sinphi * sinphi);
      let sinpsi = (zb1 - zc1) / (2 * rc * cosphi);
      if (!(sinpsi <= 1 && sinpsi >= -1)) { sinpsi = sinpsi > 0 ? 1 : -1; errors++; }
      const cospsi = Math.sqrt(1 - sinpsi * sinpsi);
      const ya2 = ra * cosphi;
      const xb2 = -rc * cospsi;
      const yb2 = -rb * cosphi - rc * sinpsi * sinphi;
      const yc2 = -rb * cosphi + rc * sinpsi * sinphi;
      const za3 = ra * sinphi;
      const zb3 = -rb * sinphi + rc * sinpsi * cosphi;
      const zc3 = -rb * sinphi - rc * sinpsi * cosphi;
      // In-plane rotation theta from the torque-free condition (xc2 = -xb2).
      const A = xb0 * xb2 + yb0 * yb2 - xc0 * xb2 + yc0 * yc2;
      const B = xb0 * yb2 - yb0 * xb2 + xc0 * yc2 + yc0 * xb2;
      const G = xb0 * yb1 - yb0 * xb1 + xc0 * yc1 - yc0 * xc1;
      const rho2 = A * A + B * B;
      let disc = rho2 - G * G;
      if (disc < 0) { disc = 0; errors++; }
      let sinth = (A * G - B * Math.sqrt(disc)) / rho2;
      if (sinth > 1) sinth = 1; else if (sinth < -1) sinth = -1;
      const costh = Math.sqrt(1 - sinth * sinth);
      const xa3 = -ya2 * sinth, ya3 = ya2 * costh;
      const xb3 = xb2 * costh - yb2 * sinth, yb3 = xb2 * sinth + yb2 * costh;
      const xc3 = -xb2 * costh - yc2 * sinth, yc3 = -xb2 * sinth + yc2 * costh;
      // Back to the lab frame.
      const a3x = dx + xa3 * exx + ya3 * eyx + za3 * ezx;
      const a3y = dy + xa3 * exy + ya3 * eyy + za3 * ezy;
      const a3z = dz + xa3 * exz + ya3 * eyz + za3 * ezz;
      const b3x = dx + xb3 * exx + yb3 * eyx + zb3 * ezx;
      const b3y = dy + xb3 * exy + yb3 * eyy + zb3 * ezy;
      const b3z = dz + xb3 * exz + yb3 * eyz + zb3 * ezz;
      const c3x = dx + xc3 * exx + yc3 * eyx + zc3 * ezx;
      const c3y = dy + xc3 * exy + yc3 * eyy + zc3 * ezy;
      const c3z = dz + xc3 * exz + yc3 * eyz + zc3 * ezz;
      xNew[ia] = a3x; xNew[ia + 1] = a3y; xNew[ia + 2] = a3z;
      xNew[ib] = b3x; xNew[ib + 1] = b3y; xNew[ib + 2] = b3z;
      xNew[ic] = c3x; xNew[ic + 1] = c3y; xNew[ic + 2] = c3z;
      if (doV || virial) {
        const dax = a3x - a1x, day = a3y - a1y, daz = a3z - a1z;
        const dbx = b3x - b1x, dby = b3y - b1y, dbz = b3z - b1z;
        const dcx = c3x - c1x, dcy = c3y - c1y, dcz = c3z - c1z;
        if (doV) {
          v![ia] += dax * iv; v![ia + 1] += day * iv; v![ia + 2] += daz * iv;
          v![ib] += dbx * iv; v![ib + 1] += dby * iv; v![ib + 2] += dbz * iv;
          v![ic] += dcx * iv; v![ic + 1] += dcy * iv; v![ic + 2] += dcz * iv;
        }
        if (virial) {
          // sum_i m_i r0_i (x) d_i with r0 relative to the old O (origin-free since sum m d = 0).
          const mbx = mH * dbx, mby = mH * dby, mbz = mH * dbz;
          const mcx = mH * dcx, mcy = mH * dcy, mcz = mH * dcz;
          v00 += b0x * mbx + c0x * mcx; v01 += b0x * mby + c0x * mcy; v02 += b0x * mbz + c0x * mcz;
          v10 += b0y * mbx + c0y * mcx; v11 += b0y * mby + c0y * mcy; v12 += b0y * mbz + c0y * mcz;
          v20 += b0z * mbx + c0z * mcx; v21 += b0z * mby + c0z * mcy; v22 += b0z * mbz + c0z * mcz;
        }
      }
    }
  acc[0] = v00; acc[1] = v01; acc[2] = v02;
  acc[3] = v10; acc[4] = v11; acc[5] = v12;
  acc[6] = v20; acc[7] = v21; acc[8] = v22;
  acc[9] = errors;
}

describe('SETTLE in passes over blocks of molecules', () => {
  /** n rigid SPC/E waters, then moved by random displacements of up to `kick` nm per coordinate; atoms shuffled so molecules are not contiguous. */
  function job(n: number, seed: number, kick: number): SettleJob {
    const r = rng(seed);
    const h = Math.sqrt(SPCE_DOH ** 2 - (SPCE_DHH / 2) ** 2);
    const perm = Int32Array.from({ length: 3 * n }, (_, i) => i);
    for (let i = perm.length - 1; i > 0; i--) {
      const j = Math.floor(r() * (i + 1));
      [perm[i], perm[j]] = [perm[j]!, perm[i]!];
    }
    const mols = new Int32Array(3 * n);
    const mass = new Float64Array(3 * n);
    const xOld = new Float64Array(9 * n);
    for (let m = 0; m < n; m++) {
      const u = [r() - 0.5, r() - 0.5, r() - 0.5];
      const un = Math.hypot(...u);
      const e1 = u.map((t) => t / un);
      const w = [r() - 0.5, r() - 0.5, r() - 0.5];
      const d = e1[0]! * w[0]! + e1[1]! * w[1]! + e1[2]! * w[2]!;
      const p = w.map((t, k) => t - d * e1[k]!);
      const pn = Math.hypot(...p);
      const e2 = p.map((t) => t / pn);
      const c = [4 * r(), 4 * r(), 4 * r()];
      const body = [[0, 0], [-SPCE_DHH / 2, -h], [SPCE_DHH / 2, -h]];
      for (let k = 0; k < 3; k++) {
        const a = perm[3 * m + k]!;
        mols[3 * m + k] = a;
        mass[a] = k === 0 ? SPCE.massO : SPCE.massH;
        for (let q = 0; q < 3; q++) xOld[3 * a + q] = c[q]! + body[k]![0]! * e1[q]! + body[k]![1]! * e2[q]!;
      }
    }
    const s = new Settle(mols, mass, SPCE_DOH, SPCE_DHH);
    const xNew = xOld.map((t) => t + kick * (r() - 0.5));
    const v = Float64Array.from({ length: 9 * n }, () => r() - 0.5);
    return { mols, mO: s.mO, mH: s.mH, ra: s.ra, rb: s.rb, rc: s.rc, xOld, xNew, v, invdt: 500, doV: true, virial: true };
  }
  const copy = (j: SettleJob): SettleJob => ({ ...j, xNew: Float64Array.from(j.xNew), v: j.v && Float64Array.from(j.v) });

  it('give the positions, velocities, virial sums and error count of one pass per molecule, bit for bit', () => {
    // 1,000 molecules (not a multiple of the block), displacements of a normal step, and of steps
    // so long that molecules hit the clamps (the error count).
    for (const [kick, anyErrors] of [[0.004, false], [0.25, true]] as const) {
      const base = job(1000, kick === 0.004 ? 5 : 6, kick);
      for (const [m0, m1] of [[0, 1000], [0, 1], [63, 64], [37, 530], [999, 1000], [500, 500]] as const) {
        for (const [doV, virial] of [[true, true], [false, true], [true, false], [false, false]] as const) {
          const a = copy({ ...base, doV, virial });
          const b = copy({ ...base, doV, virial });
          const accA = new Float64Array(SETTLE_ACC_WORDS);
          const accB = new Float64Array(SETTLE_ACC_WORDS).fill(NaN);
          settleOnePass(a, m0, m1, accA);
          settleRange(b, m0, m1, accB);
          const what = `kick ${kick}, molecules [${m0}, ${m1}), doV ${doV}, virial ${virial}`;
          expect(same(a.xNew, b.xNew), what).toBe(true);
          expect(same(a.v!, b.v!), what).toBe(true);
          expect(same(accA, accB), what).toBe(true);
          if (m0 === 0 && m1 === 1000) expect(accA[9]! > 0, what).toBe(anyErrors);
        }
      }
    }
  });
});

describe('the guard with the displacement check', () => {
  it('forcesWithin: every component within fmax, exactly, whatever the sum of the squares', () => {
    const r = rng(3);
    const f = Float64Array.from({ length: 3001 }, () => 2000 * (r() - 0.5));
    expect(forcesWithin(f, 1e7)).toBe(true);
    expect(forcesWithin(f, 999)).toBe(false);
    for (const [bad, within] of [[1e7, true], [-1e7, true], [1e7 * (1 + 2 ** -52), false], [NaN, false], [-Infinity, false]] as const) {
      for (const at of [0, 1500, 3000]) {
        const g = Float64Array.from(f);
        g[at] = bad;
        expect(forcesWithin(g, 1e7), `${bad} at ${at}`).toBe(within);
      }
    }
    // Every component at 0.9 fmax: the sum of the squares is far above fmax^2, the answer still yes.
    expect(forcesWithin(new Float64Array(3001).fill(0.9e7), 1e7)).toBe(true);
    expect(forcesWithin(new Float64Array(3001).fill(1e300), 1e300)).toBe(true);
  });

  it('RunChecks.lastFinite: whether the positions the displacement check measured were all finite', () => {
    const c = new RunChecks({ n: 2, rlist: 2.8, rc: 2.5, nstlist: 20, kB: 1, units: 'lj' });
    c.listBuilt(0, Float64Array.of(0, 0, 0, 5, 5, 5));
    expect(c.displacement(1, Float64Array.of(0.1, 0, 0, 5, 5, 5))).toBeUndefined();
    expect(c.lastFinite).toBe(true);
    expect(c.displacement(2, Float64Array.of(0.1, 0, 0, 5, NaN, 5))).toBeUndefined();
    expect(c.lastFinite).toBe(false);
    expect(c.displacement(3, Float64Array.of(0.1, 0, 0, 5, 5, Infinity))).toMatch(/^step 3: atom 2 moved Infinity sigma/);
    expect(c.lastFinite).toBe(false);
  });

  it('a position that turns NaN between pair searches stops the run at the next step', async () => {
    for (const sanity of [undefined, false] as const) {
      const p = await prepareRun({ system: 'lj', cells: 4, nstlist: 10, nstcalcenergy: 100, tuned: false });
      const eng = await MdEngine.create({ ...p.run, ...(sanity === false ? { sanity } : {}) });
      const err = (() => {
        try {
          eng.simulate(20, { onStep: (step, x) => void (step === 3 && (x[3 * 4 + 1] = NaN)) });
        } catch (e) {
          return e;
        }
      })() as MdBlowUp;
      expect(err, `sanity ${sanity}`).toBeInstanceOf(MdBlowUp);
      // The guard names the first coordinate that fails: the NaN atom's neighbours get NaN forces.
      expect(err.message).toMatch(/^step 4: (atom 5 has a non-finite position|force NaN on atom \d+ exceeds 1e\+6); the system blew up/);
      expect(err.lastGood.step).toBe(0);
      await eng.close();
    }
  });
});
