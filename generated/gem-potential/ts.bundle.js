var __defProp = Object.defineProperty;
var __export = (target, all) => {
  for (var name in all)
    __defProp(target, name, { get: all[name], enumerable: true });
};

// gem-potential/ts/region1.f32.nonzero.unroll4.div.block0.ts
var region1_f32_nonzero_unroll4_div_block0_exports = {};
__export(region1_f32_nonzero_unroll4_div_block0_exports, {
  BLOCK: () => BLOCK,
  K: () => K,
  kernel: () => kernel,
  key: () => key
});
var key = "gem-potential.ts.region1.f32.nonzero.unroll4.div.block0";
var K = 4;
var BLOCK = 0;
function kernel(a) {
  const vx = a.vx;
  const vy = a.vy;
  const vz = a.vz;
  const nx = a.nx;
  const ny = a.ny;
  const nz = a.nz;
  const ax = a.ax;
  const ay = a.ay;
  const az = a.az;
  const aq = a.aq;
  const phi = a.phi;
  const P = a.params;
  const nv = phi.length;
  const na = aq.length;
  const pp = P.p;
  const ion = P.ionRadius;
  const kappa = P.kappa;
  const beta = P.epsIn / P.epsOut;
  const ab1 = 1 + P.alpha * beta;
  const K0 = P.qScale / (ab1 * P.epsOut);
  const r = P.A + pp;
  const rp = P.A + P.ionRadius;
  let qTot = 0;
  for (let j = 0; j < na; j++) qTot += aq[j];
  const g = (1 - beta) / ab1;
  const r0 = P.A / 2;
  const h = (P.A * P.A - r0 * r0) * (P.A - r) * (P.A + r) / (P.A * P.A);
  const onSphere = h === 0;
  const scale = P.qScale / P.epsIn * (onSphere ? 1 - g : 1);
  const kc = K0 * (1 + P.alpha) * kappa / scale;
  const phi0 = qTot * K0 * P.alpha * (1 - beta) / rp * (1 - 1 / (1 + kappa * rp));
  {
    const b0 = 0;
    const b1 = na;
    for (let i = 0; i < nv; i += K) {
      const i0 = i;
      const px0 = vx[i0] + pp * nx[i0];
      const py0 = vy[i0] + pp * ny[i0];
      const pz0 = vz[i0] + pp * nz[i0];
      const ex0 = vx[i0] + ion * nx[i0];
      const ey0 = vy[i0] + ion * ny[i0];
      const ez0 = vz[i0] + ion * nz[i0];
      let s0 = 0;
      const i1 = Math.min(i + 1, nv - 1);
      const px1 = vx[i1] + pp * nx[i1];
      const py1 = vy[i1] + pp * ny[i1];
      const pz1 = vz[i1] + pp * nz[i1];
      const ex1 = vx[i1] + ion * nx[i1];
      const ey1 = vy[i1] + ion * ny[i1];
      const ez1 = vz[i1] + ion * nz[i1];
      let s1 = 0;
      const i2 = Math.min(i + 2, nv - 1);
      const px2 = vx[i2] + pp * nx[i2];
      const py2 = vy[i2] + pp * ny[i2];
      const pz2 = vz[i2] + pp * nz[i2];
      const ex2 = vx[i2] + ion * nx[i2];
      const ey2 = vy[i2] + ion * ny[i2];
      const ez2 = vz[i2] + ion * nz[i2];
      let s2 = 0;
      const i3 = Math.min(i + 3, nv - 1);
      const px3 = vx[i3] + pp * nx[i3];
      const py3 = vy[i3] + pp * ny[i3];
      const pz3 = vz[i3] + pp * nz[i3];
      const ex3 = vx[i3] + ion * nx[i3];
      const ey3 = vy[i3] + ion * ny[i3];
      const ez3 = vz[i3] + ion * nz[i3];
      let s3 = 0;
      if (onSphere) {
        for (let j = b0; j < b1; j++) {
          const xj = ax[j];
          const yj = ay[j];
          const zj = az[j];
          const qj = aq[j];
          const dx0 = px0 - xj;
          const dy0 = py0 - yj;
          const dz0 = pz0 - zj;
          const d2_0 = dx0 * dx0 + dy0 * dy0 + dz0 * dz0;
          const rd0 = 1 / Math.sqrt(d2_0);
          const fx0 = ex0 - xj;
          const fy0 = ey0 - yj;
          const fz0 = ez0 - zj;
          const e2_0 = fx0 * fx0 + fy0 * fy0 + fz0 * fz0;
          const re0 = 1 / Math.sqrt(e2_0);
          const dp0 = e2_0 * re0;
          s0 += qj * (rd0 - kc / (1 + kappa * dp0));
          const dx1 = px1 - xj;
          const dy1 = py1 - yj;
          const dz1 = pz1 - zj;
          const d2_1 = dx1 * dx1 + dy1 * dy1 + dz1 * dz1;
          const rd1 = 1 / Math.sqrt(d2_1);
          const fx1 = ex1 - xj;
          const fy1 = ey1 - yj;
          const fz1 = ez1 - zj;
          const e2_1 = fx1 * fx1 + fy1 * fy1 + fz1 * fz1;
          const re1 = 1 / Math.sqrt(e2_1);
          const dp1 = e2_1 * re1;
          s1 += qj * (rd1 - kc / (1 + kappa * dp1));
          const dx2 = px2 - xj;
          const dy2 = py2 - yj;
          const dz2 = pz2 - zj;
          const d2_2 = dx2 * dx2 + dy2 * dy2 + dz2 * dz2;
          const rd2 = 1 / Math.sqrt(d2_2);
          const fx2 = ex2 - xj;
          const fy2 = ey2 - yj;
          const fz2 = ez2 - zj;
          const e2_2 = fx2 * fx2 + fy2 * fy2 + fz2 * fz2;
          const re2 = 1 / Math.sqrt(e2_2);
          const dp2 = e2_2 * re2;
          s2 += qj * (rd2 - kc / (1 + kappa * dp2));
          const dx3 = px3 - xj;
          const dy3 = py3 - yj;
          const dz3 = pz3 - zj;
          const d2_3 = dx3 * dx3 + dy3 * dy3 + dz3 * dz3;
          const rd3 = 1 / Math.sqrt(d2_3);
          const fx3 = ex3 - xj;
          const fy3 = ey3 - yj;
          const fz3 = ez3 - zj;
          const e2_3 = fx3 * fx3 + fy3 * fy3 + fz3 * fz3;
          const re3 = 1 / Math.sqrt(e2_3);
          const dp3 = e2_3 * re3;
          s3 += qj * (rd3 - kc / (1 + kappa * dp3));
        }
      } else {
        for (let j = b0; j < b1; j++) {
          const xj = ax[j];
          const yj = ay[j];
          const zj = az[j];
          const qj = aq[j];
          const dx0 = px0 - xj;
          const dy0 = py0 - yj;
          const dz0 = pz0 - zj;
          const d2_0 = dx0 * dx0 + dy0 * dy0 + dz0 * dz0;
          const rd0 = 1 / Math.sqrt(d2_0);
          const fx0 = ex0 - xj;
          const fy0 = ey0 - yj;
          const fz0 = ez0 - zj;
          const e2_0 = fx0 * fx0 + fy0 * fy0 + fz0 * fz0;
          const re0 = 1 / Math.sqrt(e2_0);
          const dp0 = e2_0 * re0;
          const h2_0 = d2_0 + h;
          const rh0 = 1 / Math.sqrt(h2_0);
          s0 += qj * (rd0 - g * rh0 - kc / (1 + kappa * dp0));
          const dx1 = px1 - xj;
          const dy1 = py1 - yj;
          const dz1 = pz1 - zj;
          const d2_1 = dx1 * dx1 + dy1 * dy1 + dz1 * dz1;
          const rd1 = 1 / Math.sqrt(d2_1);
          const fx1 = ex1 - xj;
          const fy1 = ey1 - yj;
          const fz1 = ez1 - zj;
          const e2_1 = fx1 * fx1 + fy1 * fy1 + fz1 * fz1;
          const re1 = 1 / Math.sqrt(e2_1);
          const dp1 = e2_1 * re1;
          const h2_1 = d2_1 + h;
          const rh1 = 1 / Math.sqrt(h2_1);
          s1 += qj * (rd1 - g * rh1 - kc / (1 + kappa * dp1));
          const dx2 = px2 - xj;
          const dy2 = py2 - yj;
          const dz2 = pz2 - zj;
          const d2_2 = dx2 * dx2 + dy2 * dy2 + dz2 * dz2;
          const rd2 = 1 / Math.sqrt(d2_2);
          const fx2 = ex2 - xj;
          const fy2 = ey2 - yj;
          const fz2 = ez2 - zj;
          const e2_2 = fx2 * fx2 + fy2 * fy2 + fz2 * fz2;
          const re2 = 1 / Math.sqrt(e2_2);
          const dp2 = e2_2 * re2;
          const h2_2 = d2_2 + h;
          const rh2 = 1 / Math.sqrt(h2_2);
          s2 += qj * (rd2 - g * rh2 - kc / (1 + kappa * dp2));
          const dx3 = px3 - xj;
          const dy3 = py3 - yj;
          const dz3 = pz3 - zj;
          const d2_3 = dx3 * dx3 + dy3 * dy3 + dz3 * dz3;
          const rd3 = 1 / Math.sqrt(d2_3);
          const fx3 = ex3 - xj;
          const fy3 = ey3 - yj;
          const fz3 = ez3 - zj;
          const e2_3 = fx3 * fx3 + fy3 * fy3 + fz3 * fz3;
          const re3 = 1 / Math.sqrt(e2_3);
          const dp3 = e2_3 * re3;
          const h2_3 = d2_3 + h;
          const rh3 = 1 / Math.sqrt(h2_3);
          s3 += qj * (rd3 - g * rh3 - kc / (1 + kappa * dp3));
        }
      }
      phi[i] = phi0 + scale * s0;
      if (i + 1 < nv) phi[i + 1] = phi0 + scale * s1;
      if (i + 2 < nv) phi[i + 2] = phi0 + scale * s2;
      if (i + 3 < nv) phi[i + 3] = phi0 + scale * s3;
    }
  }
}

// gem-potential/ts/region1.f32.zero.unroll1.div.block0.ts
var region1_f32_zero_unroll1_div_block0_exports = {};
__export(region1_f32_zero_unroll1_div_block0_exports, {
  BLOCK: () => BLOCK2,
  K: () => K2,
  kernel: () => kernel2,
  key: () => key2
});
var key2 = "gem-potential.ts.region1.f32.zero.unroll1.div.block0";
var K2 = 1;
var BLOCK2 = 0;
function kernel2(a) {
  const vx = a.vx;
  const vy = a.vy;
  const vz = a.vz;
  const nx = a.nx;
  const ny = a.ny;
  const nz = a.nz;
  const ax = a.ax;
  const ay = a.ay;
  const az = a.az;
  const aq = a.aq;
  const phi = a.phi;
  const P = a.params;
  const nv = phi.length;
  const na = aq.length;
  const pp = P.p;
  const kappa = 0;
  const beta = P.epsIn / P.epsOut;
  const ab1 = 1 + P.alpha * beta;
  const K0 = P.qScale / (ab1 * P.epsOut);
  const r = P.A + pp;
  const rp = P.A + P.ionRadius;
  let qTot = 0;
  for (let j = 0; j < na; j++) qTot += aq[j];
  const g = (1 - beta) / ab1;
  const r0 = P.A / 2;
  const h = (P.A * P.A - r0 * r0) * (P.A - r) * (P.A + r) / (P.A * P.A);
  const onSphere = h === 0;
  const scale = P.qScale / P.epsIn * (onSphere ? 1 - g : 1);
  const phi0 = qTot * K0 * P.alpha * (1 - beta) / rp * (1 - 1 / (1 + kappa * rp));
  {
    const b0 = 0;
    const b1 = na;
    for (let i = 0; i < nv; i += K2) {
      const i0 = i;
      const px0 = vx[i0] + pp * nx[i0];
      const py0 = vy[i0] + pp * ny[i0];
      const pz0 = vz[i0] + pp * nz[i0];
      let s0 = 0;
      if (onSphere) {
        for (let j = b0; j < b1; j++) {
          const xj = ax[j];
          const yj = ay[j];
          const zj = az[j];
          const qj = aq[j];
          const dx0 = px0 - xj;
          const dy0 = py0 - yj;
          const dz0 = pz0 - zj;
          const d2_0 = dx0 * dx0 + dy0 * dy0 + dz0 * dz0;
          const rd0 = 1 / Math.sqrt(d2_0);
          s0 += qj * rd0;
        }
      } else {
        for (let j = b0; j < b1; j++) {
          const xj = ax[j];
          const yj = ay[j];
          const zj = az[j];
          const qj = aq[j];
          const dx0 = px0 - xj;
          const dy0 = py0 - yj;
          const dz0 = pz0 - zj;
          const d2_0 = dx0 * dx0 + dy0 * dy0 + dz0 * dz0;
          const rd0 = 1 / Math.sqrt(d2_0);
          const h2_0 = d2_0 + h;
          const rh0 = 1 / Math.sqrt(h2_0);
          s0 += qj * (rd0 - g * rh0);
        }
      }
      phi[i] = phi0 + scale * s0;
    }
  }
}

// gem-potential/ts/region1.f32.zero.unroll2.nr.block0.ts
var region1_f32_zero_unroll2_nr_block0_exports = {};
__export(region1_f32_zero_unroll2_nr_block0_exports, {
  BLOCK: () => BLOCK3,
  K: () => K3,
  kernel: () => kernel3,
  key: () => key3
});
var key3 = "gem-potential.ts.region1.f32.zero.unroll2.nr.block0";
var K3 = 2;
var BLOCK3 = 0;
var RS_F = new Float32Array(1);
var RS_I = new Int32Array(RS_F.buffer);
var RS_C = rsqrtTable();
function rsqrtTable() {
  const t = new Float64Array(4096);
  for (let k = 0; k < 4096; k++) {
    let c = 0;
    for (const low of [0, 4095]) {
      RS_I[0] = 1056964608 | k << 12 | low;
      const x = RS_F[0];
      RS_I[0] = 1597463007 - (RS_I[0] >> 1);
      c += 0.5 / (Math.sqrt(x) * RS_F[0]);
    }
    t[k] = c;
  }
  return t;
}
function kernel3(a) {
  const vx = a.vx;
  const vy = a.vy;
  const vz = a.vz;
  const nx = a.nx;
  const ny = a.ny;
  const nz = a.nz;
  const ax = a.ax;
  const ay = a.ay;
  const az = a.az;
  const aq = a.aq;
  const phi = a.phi;
  const P = a.params;
  const nv = phi.length;
  const na = aq.length;
  const pp = P.p;
  const kappa = 0;
  const beta = P.epsIn / P.epsOut;
  const ab1 = 1 + P.alpha * beta;
  const K0 = P.qScale / (ab1 * P.epsOut);
  const r = P.A + pp;
  const rp = P.A + P.ionRadius;
  let qTot = 0;
  for (let j = 0; j < na; j++) qTot += aq[j];
  const g = (1 - beta) / ab1;
  const r0 = P.A / 2;
  const h = (P.A * P.A - r0 * r0) * (P.A - r) * (P.A + r) / (P.A * P.A);
  const onSphere = h === 0;
  const scale = P.qScale / P.epsIn * (onSphere ? 1 - g : 1);
  const phi0 = qTot * K0 * P.alpha * (1 - beta) / rp * (1 - 1 / (1 + kappa * rp));
  {
    const b0 = 0;
    const b1 = na;
    for (let i = 0; i < nv; i += K3) {
      const i0 = i;
      const px0 = vx[i0] + pp * nx[i0];
      const py0 = vy[i0] + pp * ny[i0];
      const pz0 = vz[i0] + pp * nz[i0];
      let s0 = 0;
      const i1 = Math.min(i + 1, nv - 1);
      const px1 = vx[i1] + pp * nx[i1];
      const py1 = vy[i1] + pp * ny[i1];
      const pz1 = vz[i1] + pp * nz[i1];
      let s1 = 0;
      if (onSphere) {
        for (let j = b0; j < b1; j++) {
          const xj = ax[j];
          const yj = ay[j];
          const zj = az[j];
          const qj = aq[j];
          const dx0 = px0 - xj;
          const dy0 = py0 - yj;
          const dz0 = pz0 - zj;
          const d2_0 = dx0 * dx0 + dy0 * dy0 + dz0 * dz0;
          RS_F[0] = d2_0;
          const rd0b = RS_I[0];
          RS_I[0] = 1597463007 - (rd0b >> 1);
          const rd0e = RS_F[0] * RS_C[rd0b >>> 12 & 4095];
          const rd0 = rd0e * (1.5 - 0.5 * d2_0 * rd0e * rd0e);
          s0 += qj * rd0;
          const dx1 = px1 - xj;
          const dy1 = py1 - yj;
          const dz1 = pz1 - zj;
          const d2_1 = dx1 * dx1 + dy1 * dy1 + dz1 * dz1;
          RS_F[0] = d2_1;
          const rd1b = RS_I[0];
          RS_I[0] = 1597463007 - (rd1b >> 1);
          const rd1e = RS_F[0] * RS_C[rd1b >>> 12 & 4095];
          const rd1 = rd1e * (1.5 - 0.5 * d2_1 * rd1e * rd1e);
          s1 += qj * rd1;
        }
      } else {
        for (let j = b0; j < b1; j++) {
          const xj = ax[j];
          const yj = ay[j];
          const zj = az[j];
          const qj = aq[j];
          const dx0 = px0 - xj;
          const dy0 = py0 - yj;
          const dz0 = pz0 - zj;
          const d2_0 = dx0 * dx0 + dy0 * dy0 + dz0 * dz0;
          RS_F[0] = d2_0;
          const rd0b = RS_I[0];
          RS_I[0] = 1597463007 - (rd0b >> 1);
          const rd0e = RS_F[0] * RS_C[rd0b >>> 12 & 4095];
          const rd0 = rd0e * (1.5 - 0.5 * d2_0 * rd0e * rd0e);
          const h2_0 = d2_0 + h;
          RS_F[0] = h2_0;
          const rh0b = RS_I[0];
          RS_I[0] = 1597463007 - (rh0b >> 1);
          const rh0e = RS_F[0] * RS_C[rh0b >>> 12 & 4095];
          const rh0 = rh0e * (1.5 - 0.5 * h2_0 * rh0e * rh0e);
          s0 += qj * (rd0 - g * rh0);
          const dx1 = px1 - xj;
          const dy1 = py1 - yj;
          const dz1 = pz1 - zj;
          const d2_1 = dx1 * dx1 + dy1 * dy1 + dz1 * dz1;
          RS_F[0] = d2_1;
          const rd1b = RS_I[0];
          RS_I[0] = 1597463007 - (rd1b >> 1);
          const rd1e = RS_F[0] * RS_C[rd1b >>> 12 & 4095];
          const rd1 = rd1e * (1.5 - 0.5 * d2_1 * rd1e * rd1e);
          const h2_1 = d2_1 + h;
          RS_F[0] = h2_1;
          const rh1b = RS_I[0];
          RS_I[0] = 1597463007 - (rh1b >> 1);
          const rh1e = RS_F[0] * RS_C[rh1b >>> 12 & 4095];
          const rh1 = rh1e * (1.5 - 0.5 * h2_1 * rh1e * rh1e);
          s1 += qj * (rd1 - g * rh1);
        }
      }
      phi[i] = phi0 + scale * s0;
      if (i + 1 < nv) phi[i + 1] = phi0 + scale * s1;
    }
  }
}

// gem-potential/ts/region1.f32.zero.unroll4.div.block0.ts
var region1_f32_zero_unroll4_div_block0_exports = {};
__export(region1_f32_zero_unroll4_div_block0_exports, {
  BLOCK: () => BLOCK4,
  K: () => K4,
  kernel: () => kernel4,
  key: () => key4
});
var key4 = "gem-potential.ts.region1.f32.zero.unroll4.div.block0";
var K4 = 4;
var BLOCK4 = 0;
function kernel4(a) {
  const vx = a.vx;
  const vy = a.vy;
  const vz = a.vz;
  const nx = a.nx;
  const ny = a.ny;
  const nz = a.nz;
  const ax = a.ax;
  const ay = a.ay;
  const az = a.az;
  const aq = a.aq;
  const phi = a.phi;
  const P = a.params;
  const nv = phi.length;
  const na = aq.length;
  const pp = P.p;
  const kappa = 0;
  const beta = P.epsIn / P.epsOut;
  const ab1 = 1 + P.alpha * beta;
  const K0 = P.qScale / (ab1 * P.epsOut);
  const r = P.A + pp;
  const rp = P.A + P.ionRadius;
  let qTot = 0;
  for (let j = 0; j < na; j++) qTot += aq[j];
  const g = (1 - beta) / ab1;
  const r0 = P.A / 2;
  const h = (P.A * P.A - r0 * r0) * (P.A - r) * (P.A + r) / (P.A * P.A);
  const onSphere = h === 0;
  const scale = P.qScale / P.epsIn * (onSphere ? 1 - g : 1);
  const phi0 = qTot * K0 * P.alpha * (1 - beta) / rp * (1 - 1 / (1 + kappa * rp));
  {
    const b0 = 0;
    const b1 = na;
    for (let i = 0; i < nv; i += K4) {
      const i0 = i;
      const px0 = vx[i0] + pp * nx[i0];
      const py0 = vy[i0] + pp * ny[i0];
      const pz0 = vz[i0] + pp * nz[i0];
      let s0 = 0;
      const i1 = Math.min(i + 1, nv - 1);
      const px1 = vx[i1] + pp * nx[i1];
      const py1 = vy[i1] + pp * ny[i1];
      const pz1 = vz[i1] + pp * nz[i1];
      let s1 = 0;
      const i2 = Math.min(i + 2, nv - 1);
      const px2 = vx[i2] + pp * nx[i2];
      const py2 = vy[i2] + pp * ny[i2];
      const pz2 = vz[i2] + pp * nz[i2];
      let s2 = 0;
      const i3 = Math.min(i + 3, nv - 1);
      const px3 = vx[i3] + pp * nx[i3];
      const py3 = vy[i3] + pp * ny[i3];
      const pz3 = vz[i3] + pp * nz[i3];
      let s3 = 0;
      if (onSphere) {
        for (let j = b0; j < b1; j++) {
          const xj = ax[j];
          const yj = ay[j];
          const zj = az[j];
          const qj = aq[j];
          const dx0 = px0 - xj;
          const dy0 = py0 - yj;
          const dz0 = pz0 - zj;
          const d2_0 = dx0 * dx0 + dy0 * dy0 + dz0 * dz0;
          const rd0 = 1 / Math.sqrt(d2_0);
          s0 += qj * rd0;
          const dx1 = px1 - xj;
          const dy1 = py1 - yj;
          const dz1 = pz1 - zj;
          const d2_1 = dx1 * dx1 + dy1 * dy1 + dz1 * dz1;
          const rd1 = 1 / Math.sqrt(d2_1);
          s1 += qj * rd1;
          const dx2 = px2 - xj;
          const dy2 = py2 - yj;
          const dz2 = pz2 - zj;
          const d2_2 = dx2 * dx2 + dy2 * dy2 + dz2 * dz2;
          const rd2 = 1 / Math.sqrt(d2_2);
          s2 += qj * rd2;
          const dx3 = px3 - xj;
          const dy3 = py3 - yj;
          const dz3 = pz3 - zj;
          const d2_3 = dx3 * dx3 + dy3 * dy3 + dz3 * dz3;
          const rd3 = 1 / Math.sqrt(d2_3);
          s3 += qj * rd3;
        }
      } else {
        for (let j = b0; j < b1; j++) {
          const xj = ax[j];
          const yj = ay[j];
          const zj = az[j];
          const qj = aq[j];
          const dx0 = px0 - xj;
          const dy0 = py0 - yj;
          const dz0 = pz0 - zj;
          const d2_0 = dx0 * dx0 + dy0 * dy0 + dz0 * dz0;
          const rd0 = 1 / Math.sqrt(d2_0);
          const h2_0 = d2_0 + h;
          const rh0 = 1 / Math.sqrt(h2_0);
          s0 += qj * (rd0 - g * rh0);
          const dx1 = px1 - xj;
          const dy1 = py1 - yj;
          const dz1 = pz1 - zj;
          const d2_1 = dx1 * dx1 + dy1 * dy1 + dz1 * dz1;
          const rd1 = 1 / Math.sqrt(d2_1);
          const h2_1 = d2_1 + h;
          const rh1 = 1 / Math.sqrt(h2_1);
          s1 += qj * (rd1 - g * rh1);
          const dx2 = px2 - xj;
          const dy2 = py2 - yj;
          const dz2 = pz2 - zj;
          const d2_2 = dx2 * dx2 + dy2 * dy2 + dz2 * dz2;
          const rd2 = 1 / Math.sqrt(d2_2);
          const h2_2 = d2_2 + h;
          const rh2 = 1 / Math.sqrt(h2_2);
          s2 += qj * (rd2 - g * rh2);
          const dx3 = px3 - xj;
          const dy3 = py3 - yj;
          const dz3 = pz3 - zj;
          const d2_3 = dx3 * dx3 + dy3 * dy3 + dz3 * dz3;
          const rd3 = 1 / Math.sqrt(d2_3);
          const h2_3 = d2_3 + h;
          const rh3 = 1 / Math.sqrt(h2_3);
          s3 += qj * (rd3 - g * rh3);
        }
      }
      phi[i] = phi0 + scale * s0;
      if (i + 1 < nv) phi[i + 1] = phi0 + scale * s1;
      if (i + 2 < nv) phi[i + 2] = phi0 + scale * s2;
      if (i + 3 < nv) phi[i + 3] = phi0 + scale * s3;
    }
  }
}

// gem-potential/ts/region1.f32.zero.unroll4.div.block1024.ts
var region1_f32_zero_unroll4_div_block1024_exports = {};
__export(region1_f32_zero_unroll4_div_block1024_exports, {
  BLOCK: () => BLOCK5,
  K: () => K5,
  kernel: () => kernel5,
  key: () => key5
});
var key5 = "gem-potential.ts.region1.f32.zero.unroll4.div.block1024";
var K5 = 4;
var BLOCK5 = 1024;
function kernel5(a) {
  const vx = a.vx;
  const vy = a.vy;
  const vz = a.vz;
  const nx = a.nx;
  const ny = a.ny;
  const nz = a.nz;
  const ax = a.ax;
  const ay = a.ay;
  const az = a.az;
  const aq = a.aq;
  const phi = a.phi;
  const P = a.params;
  const nv = phi.length;
  const na = aq.length;
  const pp = P.p;
  const kappa = 0;
  const beta = P.epsIn / P.epsOut;
  const ab1 = 1 + P.alpha * beta;
  const K0 = P.qScale / (ab1 * P.epsOut);
  const r = P.A + pp;
  const rp = P.A + P.ionRadius;
  let qTot = 0;
  for (let j = 0; j < na; j++) qTot += aq[j];
  const g = (1 - beta) / ab1;
  const r0 = P.A / 2;
  const h = (P.A * P.A - r0 * r0) * (P.A - r) * (P.A + r) / (P.A * P.A);
  const onSphere = h === 0;
  const scale = P.qScale / P.epsIn * (onSphere ? 1 - g : 1);
  const phi0 = qTot * K0 * P.alpha * (1 - beta) / rp * (1 - 1 / (1 + kappa * rp));
  for (let i = 0; i < nv; i++) phi[i] = phi0;
  for (let b0 = 0; b0 < na; b0 += BLOCK5) {
    const b1 = Math.min(b0 + BLOCK5, na);
    for (let i = 0; i < nv; i += K5) {
      const i0 = i;
      const px0 = vx[i0] + pp * nx[i0];
      const py0 = vy[i0] + pp * ny[i0];
      const pz0 = vz[i0] + pp * nz[i0];
      let s0 = 0;
      const i1 = Math.min(i + 1, nv - 1);
      const px1 = vx[i1] + pp * nx[i1];
      const py1 = vy[i1] + pp * ny[i1];
      const pz1 = vz[i1] + pp * nz[i1];
      let s1 = 0;
      const i2 = Math.min(i + 2, nv - 1);
      const px2 = vx[i2] + pp * nx[i2];
      const py2 = vy[i2] + pp * ny[i2];
      const pz2 = vz[i2] + pp * nz[i2];
      let s2 = 0;
      const i3 = Math.min(i + 3, nv - 1);
      const px3 = vx[i3] + pp * nx[i3];
      const py3 = vy[i3] + pp * ny[i3];
      const pz3 = vz[i3] + pp * nz[i3];
      let s3 = 0;
      if (onSphere) {
        for (let j = b0; j < b1; j++) {
          const xj = ax[j];
          const yj = ay[j];
          const zj = az[j];
          const qj = aq[j];
          const dx0 = px0 - xj;
          const dy0 = py0 - yj;
          const dz0 = pz0 - zj;
          const d2_0 = dx0 * dx0 + dy0 * dy0 + dz0 * dz0;
          const rd0 = 1 / Math.sqrt(d2_0);
          s0 += qj * rd0;
          const dx1 = px1 - xj;
          const dy1 = py1 - yj;
          const dz1 = pz1 - zj;
          const d2_1 = dx1 * dx1 + dy1 * dy1 + dz1 * dz1;
          const rd1 = 1 / Math.sqrt(d2_1);
          s1 += qj * rd1;
          const dx2 = px2 - xj;
          const dy2 = py2 - yj;
          const dz2 = pz2 - zj;
          const d2_2 = dx2 * dx2 + dy2 * dy2 + dz2 * dz2;
          const rd2 = 1 / Math.sqrt(d2_2);
          s2 += qj * rd2;
          const dx3 = px3 - xj;
          const dy3 = py3 - yj;
          const dz3 = pz3 - zj;
          const d2_3 = dx3 * dx3 + dy3 * dy3 + dz3 * dz3;
          const rd3 = 1 / Math.sqrt(d2_3);
          s3 += qj * rd3;
        }
      } else {
        for (let j = b0; j < b1; j++) {
          const xj = ax[j];
          const yj = ay[j];
          const zj = az[j];
          const qj = aq[j];
          const dx0 = px0 - xj;
          const dy0 = py0 - yj;
          const dz0 = pz0 - zj;
          const d2_0 = dx0 * dx0 + dy0 * dy0 + dz0 * dz0;
          const rd0 = 1 / Math.sqrt(d2_0);
          const h2_0 = d2_0 + h;
          const rh0 = 1 / Math.sqrt(h2_0);
          s0 += qj * (rd0 - g * rh0);
          const dx1 = px1 - xj;
          const dy1 = py1 - yj;
          const dz1 = pz1 - zj;
          const d2_1 = dx1 * dx1 + dy1 * dy1 + dz1 * dz1;
          const rd1 = 1 / Math.sqrt(d2_1);
          const h2_1 = d2_1 + h;
          const rh1 = 1 / Math.sqrt(h2_1);
          s1 += qj * (rd1 - g * rh1);
          const dx2 = px2 - xj;
          const dy2 = py2 - yj;
          const dz2 = pz2 - zj;
          const d2_2 = dx2 * dx2 + dy2 * dy2 + dz2 * dz2;
          const rd2 = 1 / Math.sqrt(d2_2);
          const h2_2 = d2_2 + h;
          const rh2 = 1 / Math.sqrt(h2_2);
          s2 += qj * (rd2 - g * rh2);
          const dx3 = px3 - xj;
          const dy3 = py3 - yj;
          const dz3 = pz3 - zj;
          const d2_3 = dx3 * dx3 + dy3 * dy3 + dz3 * dz3;
          const rd3 = 1 / Math.sqrt(d2_3);
          const h2_3 = d2_3 + h;
          const rh3 = 1 / Math.sqrt(h2_3);
          s3 += qj * (rd3 - g * rh3);
        }
      }
      phi[i] += scale * s0;
      if (i + 1 < nv) phi[i + 1] += scale * s1;
      if (i + 2 < nv) phi[i + 2] += scale * s2;
      if (i + 3 < nv) phi[i + 3] += scale * s3;
    }
  }
}

// gem-potential/ts/region1.f32.zero.unroll4.div.block256.ts
var region1_f32_zero_unroll4_div_block256_exports = {};
__export(region1_f32_zero_unroll4_div_block256_exports, {
  BLOCK: () => BLOCK6,
  K: () => K6,
  kernel: () => kernel6,
  key: () => key6
});
var key6 = "gem-potential.ts.region1.f32.zero.unroll4.div.block256";
var K6 = 4;
var BLOCK6 = 256;
function kernel6(a) {
  const vx = a.vx;
  const vy = a.vy;
  const vz = a.vz;
  const nx = a.nx;
  const ny = a.ny;
  const nz = a.nz;
  const ax = a.ax;
  const ay = a.ay;
  const az = a.az;
  const aq = a.aq;
  const phi = a.phi;
  const P = a.params;
  const nv = phi.length;
  const na = aq.length;
  const pp = P.p;
  const kappa = 0;
  const beta = P.epsIn / P.epsOut;
  const ab1 = 1 + P.alpha * beta;
  const K0 = P.qScale / (ab1 * P.epsOut);
  const r = P.A + pp;
  const rp = P.A + P.ionRadius;
  let qTot = 0;
  for (let j = 0; j < na; j++) qTot += aq[j];
  const g = (1 - beta) / ab1;
  const r0 = P.A / 2;
  const h = (P.A * P.A - r0 * r0) * (P.A - r) * (P.A + r) / (P.A * P.A);
  const onSphere = h === 0;
  const scale = P.qScale / P.epsIn * (onSphere ? 1 - g : 1);
  const phi0 = qTot * K0 * P.alpha * (1 - beta) / rp * (1 - 1 / (1 + kappa * rp));
  for (let i = 0; i < nv; i++) phi[i] = phi0;
  for (let b0 = 0; b0 < na; b0 += BLOCK6) {
    const b1 = Math.min(b0 + BLOCK6, na);
    for (let i = 0; i < nv; i += K6) {
      const i0 = i;
      const px0 = vx[i0] + pp * nx[i0];
      const py0 = vy[i0] + pp * ny[i0];
      const pz0 = vz[i0] + pp * nz[i0];
      let s0 = 0;
      const i1 = Math.min(i + 1, nv - 1);
      const px1 = vx[i1] + pp * nx[i1];
      const py1 = vy[i1] + pp * ny[i1];
      const pz1 = vz[i1] + pp * nz[i1];
      let s1 = 0;
      const i2 = Math.min(i + 2, nv - 1);
      const px2 = vx[i2] + pp * nx[i2];
      const py2 = vy[i2] + pp * ny[i2];
      const pz2 = vz[i2] + pp * nz[i2];
      let s2 = 0;
      const i3 = Math.min(i + 3, nv - 1);
      const px3 = vx[i3] + pp * nx[i3];
      const py3 = vy[i3] + pp * ny[i3];
      const pz3 = vz[i3] + pp * nz[i3];
      let s3 = 0;
      if (onSphere) {
        for (let j = b0; j < b1; j++) {
          const xj = ax[j];
          const yj = ay[j];
          const zj = az[j];
          const qj = aq[j];
          const dx0 = px0 - xj;
          const dy0 = py0 - yj;
          const dz0 = pz0 - zj;
          const d2_0 = dx0 * dx0 + dy0 * dy0 + dz0 * dz0;
          const rd0 = 1 / Math.sqrt(d2_0);
          s0 += qj * rd0;
          const dx1 = px1 - xj;
          const dy1 = py1 - yj;
          const dz1 = pz1 - zj;
          const d2_1 = dx1 * dx1 + dy1 * dy1 + dz1 * dz1;
          const rd1 = 1 / Math.sqrt(d2_1);
          s1 += qj * rd1;
          const dx2 = px2 - xj;
          const dy2 = py2 - yj;
          const dz2 = pz2 - zj;
          const d2_2 = dx2 * dx2 + dy2 * dy2 + dz2 * dz2;
          const rd2 = 1 / Math.sqrt(d2_2);
          s2 += qj * rd2;
          const dx3 = px3 - xj;
          const dy3 = py3 - yj;
          const dz3 = pz3 - zj;
          const d2_3 = dx3 * dx3 + dy3 * dy3 + dz3 * dz3;
          const rd3 = 1 / Math.sqrt(d2_3);
          s3 += qj * rd3;
        }
      } else {
        for (let j = b0; j < b1; j++) {
          const xj = ax[j];
          const yj = ay[j];
          const zj = az[j];
          const qj = aq[j];
          const dx0 = px0 - xj;
          const dy0 = py0 - yj;
          const dz0 = pz0 - zj;
          const d2_0 = dx0 * dx0 + dy0 * dy0 + dz0 * dz0;
          const rd0 = 1 / Math.sqrt(d2_0);
          const h2_0 = d2_0 + h;
          const rh0 = 1 / Math.sqrt(h2_0);
          s0 += qj * (rd0 - g * rh0);
          const dx1 = px1 - xj;
          const dy1 = py1 - yj;
          const dz1 = pz1 - zj;
          const d2_1 = dx1 * dx1 + dy1 * dy1 + dz1 * dz1;
          const rd1 = 1 / Math.sqrt(d2_1);
          const h2_1 = d2_1 + h;
          const rh1 = 1 / Math.sqrt(h2_1);
          s1 += qj * (rd1 - g * rh1);
          const dx2 = px2 - xj;
          const dy2 = py2 - yj;
          const dz2 = pz2 - zj;
          const d2_2 = dx2 * dx2 + dy2 * dy2 + dz2 * dz2;
          const rd2 = 1 / Math.sqrt(d2_2);
          const h2_2 = d2_2 + h;
          const rh2 = 1 / Math.sqrt(h2_2);
          s2 += qj * (rd2 - g * rh2);
          const dx3 = px3 - xj;
          const dy3 = py3 - yj;
          const dz3 = pz3 - zj;
          const d2_3 = dx3 * dx3 + dy3 * dy3 + dz3 * dz3;
          const rd3 = 1 / Math.sqrt(d2_3);
          const h2_3 = d2_3 + h;
          const rh3 = 1 / Math.sqrt(h2_3);
          s3 += qj * (rd3 - g * rh3);
        }
      }
      phi[i] += scale * s0;
      if (i + 1 < nv) phi[i + 1] += scale * s1;
      if (i + 2 < nv) phi[i + 2] += scale * s2;
      if (i + 3 < nv) phi[i + 3] += scale * s3;
    }
  }
}

// gem-potential/ts/region1.f32.zero.unroll4.nr.block0.ts
var region1_f32_zero_unroll4_nr_block0_exports = {};
__export(region1_f32_zero_unroll4_nr_block0_exports, {
  BLOCK: () => BLOCK7,
  K: () => K7,
  kernel: () => kernel7,
  key: () => key7
});
var key7 = "gem-potential.ts.region1.f32.zero.unroll4.nr.block0";
var K7 = 4;
var BLOCK7 = 0;
var RS_F2 = new Float32Array(1);
var RS_I2 = new Int32Array(RS_F2.buffer);
var RS_C2 = rsqrtTable2();
function rsqrtTable2() {
  const t = new Float64Array(4096);
  for (let k = 0; k < 4096; k++) {
    let c = 0;
    for (const low of [0, 4095]) {
      RS_I2[0] = 1056964608 | k << 12 | low;
      const x = RS_F2[0];
      RS_I2[0] = 1597463007 - (RS_I2[0] >> 1);
      c += 0.5 / (Math.sqrt(x) * RS_F2[0]);
    }
    t[k] = c;
  }
  return t;
}
function kernel7(a) {
  const vx = a.vx;
  const vy = a.vy;
  const vz = a.vz;
  const nx = a.nx;
  const ny = a.ny;
  const nz = a.nz;
  const ax = a.ax;
  const ay = a.ay;
  const az = a.az;
  const aq = a.aq;
  const phi = a.phi;
  const P = a.params;
  const nv = phi.length;
  const na = aq.length;
  const pp = P.p;
  const kappa = 0;
  const beta = P.epsIn / P.epsOut;
  const ab1 = 1 + P.alpha * beta;
  const K0 = P.qScale / (ab1 * P.epsOut);
  const r = P.A + pp;
  const rp = P.A + P.ionRadius;
  let qTot = 0;
  for (let j = 0; j < na; j++) qTot += aq[j];
  const g = (1 - beta) / ab1;
  const r0 = P.A / 2;
  const h = (P.A * P.A - r0 * r0) * (P.A - r) * (P.A + r) / (P.A * P.A);
  const onSphere = h === 0;
  const scale = P.qScale / P.epsIn * (onSphere ? 1 - g : 1);
  const phi0 = qTot * K0 * P.alpha * (1 - beta) / rp * (1 - 1 / (1 + kappa * rp));
  {
    const b0 = 0;
    const b1 = na;
    for (let i = 0; i < nv; i += K7) {
      const i0 = i;
      const px0 = vx[i0] + pp * nx[i0];
      const py0 = vy[i0] + pp * ny[i0];
      const pz0 = vz[i0] + pp * nz[i0];
      let s0 = 0;
      const i1 = Math.min(i + 1, nv - 1);
      const px1 = vx[i1] + pp * nx[i1];
      const py1 = vy[i1] + pp * ny[i1];
      const pz1 = vz[i1] + pp * nz[i1];
      let s1 = 0;
      const i2 = Math.min(i + 2, nv - 1);
      const px2 = vx[i2] + pp * nx[i2];
      const py2 = vy[i2] + pp * ny[i2];
      const pz2 = vz[i2] + pp * nz[i2];
      let s2 = 0;
      const i3 = Math.min(i + 3, nv - 1);
      const px3 = vx[i3] + pp * nx[i3];
      const py3 = vy[i3] + pp * ny[i3];
      const pz3 = vz[i3] + pp * nz[i3];
      let s3 = 0;
      if (onSphere) {
        for (let j = b0; j < b1; j++) {
          const xj = ax[j];
          const yj = ay[j];
          const zj = az[j];
          const qj = aq[j];
          const dx0 = px0 - xj;
          const dy0 = py0 - yj;
          const dz0 = pz0 - zj;
          const d2_0 = dx0 * dx0 + dy0 * dy0 + dz0 * dz0;
          RS_F2[0] = d2_0;
          const rd0b = RS_I2[0];
          RS_I2[0] = 1597463007 - (rd0b >> 1);
          const rd0e = RS_F2[0] * RS_C2[rd0b >>> 12 & 4095];
          const rd0 = rd0e * (1.5 - 0.5 * d2_0 * rd0e * rd0e);
          s0 += qj * rd0;
          const dx1 = px1 - xj;
          const dy1 = py1 - yj;
          const dz1 = pz1 - zj;
          const d2_1 = dx1 * dx1 + dy1 * dy1 + dz1 * dz1;
          RS_F2[0] = d2_1;
          const rd1b = RS_I2[0];
          RS_I2[0] = 1597463007 - (rd1b >> 1);
          const rd1e = RS_F2[0] * RS_C2[rd1b >>> 12 & 4095];
          const rd1 = rd1e * (1.5 - 0.5 * d2_1 * rd1e * rd1e);
          s1 += qj * rd1;
          const dx2 = px2 - xj;
          const dy2 = py2 - yj;
          const dz2 = pz2 - zj;
          const d2_2 = dx2 * dx2 + dy2 * dy2 + dz2 * dz2;
          RS_F2[0] = d2_2;
          const rd2b = RS_I2[0];
          RS_I2[0] = 1597463007 - (rd2b >> 1);
          const rd2e = RS_F2[0] * RS_C2[rd2b >>> 12 & 4095];
          const rd2 = rd2e * (1.5 - 0.5 * d2_2 * rd2e * rd2e);
          s2 += qj * rd2;
          const dx3 = px3 - xj;
          const dy3 = py3 - yj;
          const dz3 = pz3 - zj;
          const d2_3 = dx3 * dx3 + dy3 * dy3 + dz3 * dz3;
          RS_F2[0] = d2_3;
          const rd3b = RS_I2[0];
          RS_I2[0] = 1597463007 - (rd3b >> 1);
          const rd3e = RS_F2[0] * RS_C2[rd3b >>> 12 & 4095];
          const rd3 = rd3e * (1.5 - 0.5 * d2_3 * rd3e * rd3e);
          s3 += qj * rd3;
        }
      } else {
        for (let j = b0; j < b1; j++) {
          const xj = ax[j];
          const yj = ay[j];
          const zj = az[j];
          const qj = aq[j];
          const dx0 = px0 - xj;
          const dy0 = py0 - yj;
          const dz0 = pz0 - zj;
          const d2_0 = dx0 * dx0 + dy0 * dy0 + dz0 * dz0;
          RS_F2[0] = d2_0;
          const rd0b = RS_I2[0];
          RS_I2[0] = 1597463007 - (rd0b >> 1);
          const rd0e = RS_F2[0] * RS_C2[rd0b >>> 12 & 4095];
          const rd0 = rd0e * (1.5 - 0.5 * d2_0 * rd0e * rd0e);
          const h2_0 = d2_0 + h;
          RS_F2[0] = h2_0;
          const rh0b = RS_I2[0];
          RS_I2[0] = 1597463007 - (rh0b >> 1);
          const rh0e = RS_F2[0] * RS_C2[rh0b >>> 12 & 4095];
          const rh0 = rh0e * (1.5 - 0.5 * h2_0 * rh0e * rh0e);
          s0 += qj * (rd0 - g * rh0);
          const dx1 = px1 - xj;
          const dy1 = py1 - yj;
          const dz1 = pz1 - zj;
          const d2_1 = dx1 * dx1 + dy1 * dy1 + dz1 * dz1;
          RS_F2[0] = d2_1;
          const rd1b = RS_I2[0];
          RS_I2[0] = 1597463007 - (rd1b >> 1);
          const rd1e = RS_F2[0] * RS_C2[rd1b >>> 12 & 4095];
          const rd1 = rd1e * (1.5 - 0.5 * d2_1 * rd1e * rd1e);
          const h2_1 = d2_1 + h;
          RS_F2[0] = h2_1;
          const rh1b = RS_I2[0];
          RS_I2[0] = 1597463007 - (rh1b >> 1);
          const rh1e = RS_F2[0] * RS_C2[rh1b >>> 12 & 4095];
          const rh1 = rh1e * (1.5 - 0.5 * h2_1 * rh1e * rh1e);
          s1 += qj * (rd1 - g * rh1);
          const dx2 = px2 - xj;
          const dy2 = py2 - yj;
          const dz2 = pz2 - zj;
          const d2_2 = dx2 * dx2 + dy2 * dy2 + dz2 * dz2;
          RS_F2[0] = d2_2;
          const rd2b = RS_I2[0];
          RS_I2[0] = 1597463007 - (rd2b >> 1);
          const rd2e = RS_F2[0] * RS_C2[rd2b >>> 12 & 4095];
          const rd2 = rd2e * (1.5 - 0.5 * d2_2 * rd2e * rd2e);
          const h2_2 = d2_2 + h;
          RS_F2[0] = h2_2;
          const rh2b = RS_I2[0];
          RS_I2[0] = 1597463007 - (rh2b >> 1);
          const rh2e = RS_F2[0] * RS_C2[rh2b >>> 12 & 4095];
          const rh2 = rh2e * (1.5 - 0.5 * h2_2 * rh2e * rh2e);
          s2 += qj * (rd2 - g * rh2);
          const dx3 = px3 - xj;
          const dy3 = py3 - yj;
          const dz3 = pz3 - zj;
          const d2_3 = dx3 * dx3 + dy3 * dy3 + dz3 * dz3;
          RS_F2[0] = d2_3;
          const rd3b = RS_I2[0];
          RS_I2[0] = 1597463007 - (rd3b >> 1);
          const rd3e = RS_F2[0] * RS_C2[rd3b >>> 12 & 4095];
          const rd3 = rd3e * (1.5 - 0.5 * d2_3 * rd3e * rd3e);
          const h2_3 = d2_3 + h;
          RS_F2[0] = h2_3;
          const rh3b = RS_I2[0];
          RS_I2[0] = 1597463007 - (rh3b >> 1);
          const rh3e = RS_F2[0] * RS_C2[rh3b >>> 12 & 4095];
          const rh3 = rh3e * (1.5 - 0.5 * h2_3 * rh3e * rh3e);
          s3 += qj * (rd3 - g * rh3);
        }
      }
      phi[i] = phi0 + scale * s0;
      if (i + 1 < nv) phi[i + 1] = phi0 + scale * s1;
      if (i + 2 < nv) phi[i + 2] = phi0 + scale * s2;
      if (i + 3 < nv) phi[i + 3] = phi0 + scale * s3;
    }
  }
}

// gem-potential/ts/region1.f32.zero.unroll4.nr.block1024.ts
var region1_f32_zero_unroll4_nr_block1024_exports = {};
__export(region1_f32_zero_unroll4_nr_block1024_exports, {
  BLOCK: () => BLOCK8,
  K: () => K8,
  kernel: () => kernel8,
  key: () => key8
});
var key8 = "gem-potential.ts.region1.f32.zero.unroll4.nr.block1024";
var K8 = 4;
var BLOCK8 = 1024;
var RS_F3 = new Float32Array(1);
var RS_I3 = new Int32Array(RS_F3.buffer);
var RS_C3 = rsqrtTable3();
function rsqrtTable3() {
  const t = new Float64Array(4096);
  for (let k = 0; k < 4096; k++) {
    let c = 0;
    for (const low of [0, 4095]) {
      RS_I3[0] = 1056964608 | k << 12 | low;
      const x = RS_F3[0];
      RS_I3[0] = 1597463007 - (RS_I3[0] >> 1);
      c += 0.5 / (Math.sqrt(x) * RS_F3[0]);
    }
    t[k] = c;
  }
  return t;
}
function kernel8(a) {
  const vx = a.vx;
  const vy = a.vy;
  const vz = a.vz;
  const nx = a.nx;
  const ny = a.ny;
  const nz = a.nz;
  const ax = a.ax;
  const ay = a.ay;
  const az = a.az;
  const aq = a.aq;
  const phi = a.phi;
  const P = a.params;
  const nv = phi.length;
  const na = aq.length;
  const pp = P.p;
  const kappa = 0;
  const beta = P.epsIn / P.epsOut;
  const ab1 = 1 + P.alpha * beta;
  const K0 = P.qScale / (ab1 * P.epsOut);
  const r = P.A + pp;
  const rp = P.A + P.ionRadius;
  let qTot = 0;
  for (let j = 0; j < na; j++) qTot += aq[j];
  const g = (1 - beta) / ab1;
  const r0 = P.A / 2;
  const h = (P.A * P.A - r0 * r0) * (P.A - r) * (P.A + r) / (P.A * P.A);
  const onSphere = h === 0;
  const scale = P.qScale / P.epsIn * (onSphere ? 1 - g : 1);
  const phi0 = qTot * K0 * P.alpha * (1 - beta) / rp * (1 - 1 / (1 + kappa * rp));
  for (let i = 0; i < nv; i++) phi[i] = phi0;
  for (let b0 = 0; b0 < na; b0 += BLOCK8) {
    const b1 = Math.min(b0 + BLOCK8, na);
    for (let i = 0; i < nv; i += K8) {
      const i0 = i;
      const px0 = vx[i0] + pp * nx[i0];
      const py0 = vy[i0] + pp * ny[i0];
      const pz0 = vz[i0] + pp * nz[i0];
      let s0 = 0;
      const i1 = Math.min(i + 1, nv - 1);
      const px1 = vx[i1] + pp * nx[i1];
      const py1 = vy[i1] + pp * ny[i1];
      const pz1 = vz[i1] + pp * nz[i1];
      let s1 = 0;
      const i2 = Math.min(i + 2, nv - 1);
      const px2 = vx[i2] + pp * nx[i2];
      const py2 = vy[i2] + pp * ny[i2];
      const pz2 = vz[i2] + pp * nz[i2];
      let s2 = 0;
      const i3 = Math.min(i + 3, nv - 1);
      const px3 = vx[i3] + pp * nx[i3];
      const py3 = vy[i3] + pp * ny[i3];
      const pz3 = vz[i3] + pp * nz[i3];
      let s3 = 0;
      if (onSphere) {
        for (let j = b0; j < b1; j++) {
          const xj = ax[j];
          const yj = ay[j];
          const zj = az[j];
          const qj = aq[j];
          const dx0 = px0 - xj;
          const dy0 = py0 - yj;
          const dz0 = pz0 - zj;
          const d2_0 = dx0 * dx0 + dy0 * dy0 + dz0 * dz0;
          RS_F3[0] = d2_0;
          const rd0b = RS_I3[0];
          RS_I3[0] = 1597463007 - (rd0b >> 1);
          const rd0e = RS_F3[0] * RS_C3[rd0b >>> 12 & 4095];
          const rd0 = rd0e * (1.5 - 0.5 * d2_0 * rd0e * rd0e);
          s0 += qj * rd0;
          const dx1 = px1 - xj;
          const dy1 = py1 - yj;
          const dz1 = pz1 - zj;
          const d2_1 = dx1 * dx1 + dy1 * dy1 + dz1 * dz1;
          RS_F3[0] = d2_1;
          const rd1b = RS_I3[0];
          RS_I3[0] = 1597463007 - (rd1b >> 1);
          const rd1e = RS_F3[0] * RS_C3[rd1b >>> 12 & 4095];
          const rd1 = rd1e * (1.5 - 0.5 * d2_1 * rd1e * rd1e);
          s1 += qj * rd1;
          const dx2 = px2 - xj;
          const dy2 = py2 - yj;
          const dz2 = pz2 - zj;
          const d2_2 = dx2 * dx2 + dy2 * dy2 + dz2 * dz2;
          RS_F3[0] = d2_2;
          const rd2b = RS_I3[0];
          RS_I3[0] = 1597463007 - (rd2b >> 1);
          const rd2e = RS_F3[0] * RS_C3[rd2b >>> 12 & 4095];
          const rd2 = rd2e * (1.5 - 0.5 * d2_2 * rd2e * rd2e);
          s2 += qj * rd2;
          const dx3 = px3 - xj;
          const dy3 = py3 - yj;
          const dz3 = pz3 - zj;
          const d2_3 = dx3 * dx3 + dy3 * dy3 + dz3 * dz3;
          RS_F3[0] = d2_3;
          const rd3b = RS_I3[0];
          RS_I3[0] = 1597463007 - (rd3b >> 1);
          const rd3e = RS_F3[0] * RS_C3[rd3b >>> 12 & 4095];
          const rd3 = rd3e * (1.5 - 0.5 * d2_3 * rd3e * rd3e);
          s3 += qj * rd3;
        }
      } else {
        for (let j = b0; j < b1; j++) {
          const xj = ax[j];
          const yj = ay[j];
          const zj = az[j];
          const qj = aq[j];
          const dx0 = px0 - xj;
          const dy0 = py0 - yj;
          const dz0 = pz0 - zj;
          const d2_0 = dx0 * dx0 + dy0 * dy0 + dz0 * dz0;
          RS_F3[0] = d2_0;
          const rd0b = RS_I3[0];
          RS_I3[0] = 1597463007 - (rd0b >> 1);
          const rd0e = RS_F3[0] * RS_C3[rd0b >>> 12 & 4095];
          const rd0 = rd0e * (1.5 - 0.5 * d2_0 * rd0e * rd0e);
          const h2_0 = d2_0 + h;
          RS_F3[0] = h2_0;
          const rh0b = RS_I3[0];
          RS_I3[0] = 1597463007 - (rh0b >> 1);
          const rh0e = RS_F3[0] * RS_C3[rh0b >>> 12 & 4095];
          const rh0 = rh0e * (1.5 - 0.5 * h2_0 * rh0e * rh0e);
          s0 += qj * (rd0 - g * rh0);
          const dx1 = px1 - xj;
          const dy1 = py1 - yj;
          const dz1 = pz1 - zj;
          const d2_1 = dx1 * dx1 + dy1 * dy1 + dz1 * dz1;
          RS_F3[0] = d2_1;
          const rd1b = RS_I3[0];
          RS_I3[0] = 1597463007 - (rd1b >> 1);
          const rd1e = RS_F3[0] * RS_C3[rd1b >>> 12 & 4095];
          const rd1 = rd1e * (1.5 - 0.5 * d2_1 * rd1e * rd1e);
          const h2_1 = d2_1 + h;
          RS_F3[0] = h2_1;
          const rh1b = RS_I3[0];
          RS_I3[0] = 1597463007 - (rh1b >> 1);
          const rh1e = RS_F3[0] * RS_C3[rh1b >>> 12 & 4095];
          const rh1 = rh1e * (1.5 - 0.5 * h2_1 * rh1e * rh1e);
          s1 += qj * (rd1 - g * rh1);
          const dx2 = px2 - xj;
          const dy2 = py2 - yj;
          const dz2 = pz2 - zj;
          const d2_2 = dx2 * dx2 + dy2 * dy2 + dz2 * dz2;
          RS_F3[0] = d2_2;
          const rd2b = RS_I3[0];
          RS_I3[0] = 1597463007 - (rd2b >> 1);
          const rd2e = RS_F3[0] * RS_C3[rd2b >>> 12 & 4095];
          const rd2 = rd2e * (1.5 - 0.5 * d2_2 * rd2e * rd2e);
          const h2_2 = d2_2 + h;
          RS_F3[0] = h2_2;
          const rh2b = RS_I3[0];
          RS_I3[0] = 1597463007 - (rh2b >> 1);
          const rh2e = RS_F3[0] * RS_C3[rh2b >>> 12 & 4095];
          const rh2 = rh2e * (1.5 - 0.5 * h2_2 * rh2e * rh2e);
          s2 += qj * (rd2 - g * rh2);
          const dx3 = px3 - xj;
          const dy3 = py3 - yj;
          const dz3 = pz3 - zj;
          const d2_3 = dx3 * dx3 + dy3 * dy3 + dz3 * dz3;
          RS_F3[0] = d2_3;
          const rd3b = RS_I3[0];
          RS_I3[0] = 1597463007 - (rd3b >> 1);
          const rd3e = RS_F3[0] * RS_C3[rd3b >>> 12 & 4095];
          const rd3 = rd3e * (1.5 - 0.5 * d2_3 * rd3e * rd3e);
          const h2_3 = d2_3 + h;
          RS_F3[0] = h2_3;
          const rh3b = RS_I3[0];
          RS_I3[0] = 1597463007 - (rh3b >> 1);
          const rh3e = RS_F3[0] * RS_C3[rh3b >>> 12 & 4095];
          const rh3 = rh3e * (1.5 - 0.5 * h2_3 * rh3e * rh3e);
          s3 += qj * (rd3 - g * rh3);
        }
      }
      phi[i] += scale * s0;
      if (i + 1 < nv) phi[i + 1] += scale * s1;
      if (i + 2 < nv) phi[i + 2] += scale * s2;
      if (i + 3 < nv) phi[i + 3] += scale * s3;
    }
  }
}

// gem-potential/ts/region1.f32.zero.unroll4.nr.block256.ts
var region1_f32_zero_unroll4_nr_block256_exports = {};
__export(region1_f32_zero_unroll4_nr_block256_exports, {
  BLOCK: () => BLOCK9,
  K: () => K9,
  kernel: () => kernel9,
  key: () => key9
});
var key9 = "gem-potential.ts.region1.f32.zero.unroll4.nr.block256";
var K9 = 4;
var BLOCK9 = 256;
var RS_F4 = new Float32Array(1);
var RS_I4 = new Int32Array(RS_F4.buffer);
var RS_C4 = rsqrtTable4();
function rsqrtTable4() {
  const t = new Float64Array(4096);
  for (let k = 0; k < 4096; k++) {
    let c = 0;
    for (const low of [0, 4095]) {
      RS_I4[0] = 1056964608 | k << 12 | low;
      const x = RS_F4[0];
      RS_I4[0] = 1597463007 - (RS_I4[0] >> 1);
      c += 0.5 / (Math.sqrt(x) * RS_F4[0]);
    }
    t[k] = c;
  }
  return t;
}
function kernel9(a) {
  const vx = a.vx;
  const vy = a.vy;
  const vz = a.vz;
  const nx = a.nx;
  const ny = a.ny;
  const nz = a.nz;
  const ax = a.ax;
  const ay = a.ay;
  const az = a.az;
  const aq = a.aq;
  const phi = a.phi;
  const P = a.params;
  const nv = phi.length;
  const na = aq.length;
  const pp = P.p;
  const kappa = 0;
  const beta = P.epsIn / P.epsOut;
  const ab1 = 1 + P.alpha * beta;
  const K0 = P.qScale / (ab1 * P.epsOut);
  const r = P.A + pp;
  const rp = P.A + P.ionRadius;
  let qTot = 0;
  for (let j = 0; j < na; j++) qTot += aq[j];
  const g = (1 - beta) / ab1;
  const r0 = P.A / 2;
  const h = (P.A * P.A - r0 * r0) * (P.A - r) * (P.A + r) / (P.A * P.A);
  const onSphere = h === 0;
  const scale = P.qScale / P.epsIn * (onSphere ? 1 - g : 1);
  const phi0 = qTot * K0 * P.alpha * (1 - beta) / rp * (1 - 1 / (1 + kappa * rp));
  for (let i = 0; i < nv; i++) phi[i] = phi0;
  for (let b0 = 0; b0 < na; b0 += BLOCK9) {
    const b1 = Math.min(b0 + BLOCK9, na);
    for (let i = 0; i < nv; i += K9) {
      const i0 = i;
      const px0 = vx[i0] + pp * nx[i0];
      const py0 = vy[i0] + pp * ny[i0];
      const pz0 = vz[i0] + pp * nz[i0];
      let s0 = 0;
      const i1 = Math.min(i + 1, nv - 1);
      const px1 = vx[i1] + pp * nx[i1];
      const py1 = vy[i1] + pp * ny[i1];
      const pz1 = vz[i1] + pp * nz[i1];
      let s1 = 0;
      const i2 = Math.min(i + 2, nv - 1);
      const px2 = vx[i2] + pp * nx[i2];
      const py2 = vy[i2] + pp * ny[i2];
      const pz2 = vz[i2] + pp * nz[i2];
      let s2 = 0;
      const i3 = Math.min(i + 3, nv - 1);
      const px3 = vx[i3] + pp * nx[i3];
      const py3 = vy[i3] + pp * ny[i3];
      const pz3 = vz[i3] + pp * nz[i3];
      let s3 = 0;
      if (onSphere) {
        for (let j = b0; j < b1; j++) {
          const xj = ax[j];
          const yj = ay[j];
          const zj = az[j];
          const qj = aq[j];
          const dx0 = px0 - xj;
          const dy0 = py0 - yj;
          const dz0 = pz0 - zj;
          const d2_0 = dx0 * dx0 + dy0 * dy0 + dz0 * dz0;
          RS_F4[0] = d2_0;
          const rd0b = RS_I4[0];
          RS_I4[0] = 1597463007 - (rd0b >> 1);
          const rd0e = RS_F4[0] * RS_C4[rd0b >>> 12 & 4095];
          const rd0 = rd0e * (1.5 - 0.5 * d2_0 * rd0e * rd0e);
          s0 += qj * rd0;
          const dx1 = px1 - xj;
          const dy1 = py1 - yj;
          const dz1 = pz1 - zj;
          const d2_1 = dx1 * dx1 + dy1 * dy1 + dz1 * dz1;
          RS_F4[0] = d2_1;
          const rd1b = RS_I4[0];
          RS_I4[0] = 1597463007 - (rd1b >> 1);
          const rd1e = RS_F4[0] * RS_C4[rd1b >>> 12 & 4095];
          const rd1 = rd1e * (1.5 - 0.5 * d2_1 * rd1e * rd1e);
          s1 += qj * rd1;
          const dx2 = px2 - xj;
          const dy2 = py2 - yj;
          const dz2 = pz2 - zj;
          const d2_2 = dx2 * dx2 + dy2 * dy2 + dz2 * dz2;
          RS_F4[0] = d2_2;
          const rd2b = RS_I4[0];
          RS_I4[0] = 1597463007 - (rd2b >> 1);
          const rd2e = RS_F4[0] * RS_C4[rd2b >>> 12 & 4095];
          const rd2 = rd2e * (1.5 - 0.5 * d2_2 * rd2e * rd2e);
          s2 += qj * rd2;
          const dx3 = px3 - xj;
          const dy3 = py3 - yj;
          const dz3 = pz3 - zj;
          const d2_3 = dx3 * dx3 + dy3 * dy3 + dz3 * dz3;
          RS_F4[0] = d2_3;
          const rd3b = RS_I4[0];
          RS_I4[0] = 1597463007 - (rd3b >> 1);
          const rd3e = RS_F4[0] * RS_C4[rd3b >>> 12 & 4095];
          const rd3 = rd3e * (1.5 - 0.5 * d2_3 * rd3e * rd3e);
          s3 += qj * rd3;
        }
      } else {
        for (let j = b0; j < b1; j++) {
          const xj = ax[j];
          const yj = ay[j];
          const zj = az[j];
          const qj = aq[j];
          const dx0 = px0 - xj;
          const dy0 = py0 - yj;
          const dz0 = pz0 - zj;
          const d2_0 = dx0 * dx0 + dy0 * dy0 + dz0 * dz0;
          RS_F4[0] = d2_0;
          const rd0b = RS_I4[0];
          RS_I4[0] = 1597463007 - (rd0b >> 1);
          const rd0e = RS_F4[0] * RS_C4[rd0b >>> 12 & 4095];
          const rd0 = rd0e * (1.5 - 0.5 * d2_0 * rd0e * rd0e);
          const h2_0 = d2_0 + h;
          RS_F4[0] = h2_0;
          const rh0b = RS_I4[0];
          RS_I4[0] = 1597463007 - (rh0b >> 1);
          const rh0e = RS_F4[0] * RS_C4[rh0b >>> 12 & 4095];
          const rh0 = rh0e * (1.5 - 0.5 * h2_0 * rh0e * rh0e);
          s0 += qj * (rd0 - g * rh0);
          const dx1 = px1 - xj;
          const dy1 = py1 - yj;
          const dz1 = pz1 - zj;
          const d2_1 = dx1 * dx1 + dy1 * dy1 + dz1 * dz1;
          RS_F4[0] = d2_1;
          const rd1b = RS_I4[0];
          RS_I4[0] = 1597463007 - (rd1b >> 1);
          const rd1e = RS_F4[0] * RS_C4[rd1b >>> 12 & 4095];
          const rd1 = rd1e * (1.5 - 0.5 * d2_1 * rd1e * rd1e);
          const h2_1 = d2_1 + h;
          RS_F4[0] = h2_1;
          const rh1b = RS_I4[0];
          RS_I4[0] = 1597463007 - (rh1b >> 1);
          const rh1e = RS_F4[0] * RS_C4[rh1b >>> 12 & 4095];
          const rh1 = rh1e * (1.5 - 0.5 * h2_1 * rh1e * rh1e);
          s1 += qj * (rd1 - g * rh1);
          const dx2 = px2 - xj;
          const dy2 = py2 - yj;
          const dz2 = pz2 - zj;
          const d2_2 = dx2 * dx2 + dy2 * dy2 + dz2 * dz2;
          RS_F4[0] = d2_2;
          const rd2b = RS_I4[0];
          RS_I4[0] = 1597463007 - (rd2b >> 1);
          const rd2e = RS_F4[0] * RS_C4[rd2b >>> 12 & 4095];
          const rd2 = rd2e * (1.5 - 0.5 * d2_2 * rd2e * rd2e);
          const h2_2 = d2_2 + h;
          RS_F4[0] = h2_2;
          const rh2b = RS_I4[0];
          RS_I4[0] = 1597463007 - (rh2b >> 1);
          const rh2e = RS_F4[0] * RS_C4[rh2b >>> 12 & 4095];
          const rh2 = rh2e * (1.5 - 0.5 * h2_2 * rh2e * rh2e);
          s2 += qj * (rd2 - g * rh2);
          const dx3 = px3 - xj;
          const dy3 = py3 - yj;
          const dz3 = pz3 - zj;
          const d2_3 = dx3 * dx3 + dy3 * dy3 + dz3 * dz3;
          RS_F4[0] = d2_3;
          const rd3b = RS_I4[0];
          RS_I4[0] = 1597463007 - (rd3b >> 1);
          const rd3e = RS_F4[0] * RS_C4[rd3b >>> 12 & 4095];
          const rd3 = rd3e * (1.5 - 0.5 * d2_3 * rd3e * rd3e);
          const h2_3 = d2_3 + h;
          RS_F4[0] = h2_3;
          const rh3b = RS_I4[0];
          RS_I4[0] = 1597463007 - (rh3b >> 1);
          const rh3e = RS_F4[0] * RS_C4[rh3b >>> 12 & 4095];
          const rh3 = rh3e * (1.5 - 0.5 * h2_3 * rh3e * rh3e);
          s3 += qj * (rd3 - g * rh3);
        }
      }
      phi[i] += scale * s0;
      if (i + 1 < nv) phi[i + 1] += scale * s1;
      if (i + 2 < nv) phi[i + 2] += scale * s2;
      if (i + 3 < nv) phi[i + 3] += scale * s3;
    }
  }
}

// gem-potential/ts/region1.f32.zero.unroll8.nr.block0.ts
var region1_f32_zero_unroll8_nr_block0_exports = {};
__export(region1_f32_zero_unroll8_nr_block0_exports, {
  BLOCK: () => BLOCK10,
  K: () => K10,
  kernel: () => kernel10,
  key: () => key10
});
var key10 = "gem-potential.ts.region1.f32.zero.unroll8.nr.block0";
var K10 = 8;
var BLOCK10 = 0;
var RS_F5 = new Float32Array(1);
var RS_I5 = new Int32Array(RS_F5.buffer);
var RS_C5 = rsqrtTable5();
function rsqrtTable5() {
  const t = new Float64Array(4096);
  for (let k = 0; k < 4096; k++) {
    let c = 0;
    for (const low of [0, 4095]) {
      RS_I5[0] = 1056964608 | k << 12 | low;
      const x = RS_F5[0];
      RS_I5[0] = 1597463007 - (RS_I5[0] >> 1);
      c += 0.5 / (Math.sqrt(x) * RS_F5[0]);
    }
    t[k] = c;
  }
  return t;
}
function kernel10(a) {
  const vx = a.vx;
  const vy = a.vy;
  const vz = a.vz;
  const nx = a.nx;
  const ny = a.ny;
  const nz = a.nz;
  const ax = a.ax;
  const ay = a.ay;
  const az = a.az;
  const aq = a.aq;
  const phi = a.phi;
  const P = a.params;
  const nv = phi.length;
  const na = aq.length;
  const pp = P.p;
  const kappa = 0;
  const beta = P.epsIn / P.epsOut;
  const ab1 = 1 + P.alpha * beta;
  const K0 = P.qScale / (ab1 * P.epsOut);
  const r = P.A + pp;
  const rp = P.A + P.ionRadius;
  let qTot = 0;
  for (let j = 0; j < na; j++) qTot += aq[j];
  const g = (1 - beta) / ab1;
  const r0 = P.A / 2;
  const h = (P.A * P.A - r0 * r0) * (P.A - r) * (P.A + r) / (P.A * P.A);
  const onSphere = h === 0;
  const scale = P.qScale / P.epsIn * (onSphere ? 1 - g : 1);
  const phi0 = qTot * K0 * P.alpha * (1 - beta) / rp * (1 - 1 / (1 + kappa * rp));
  {
    const b0 = 0;
    const b1 = na;
    for (let i = 0; i < nv; i += K10) {
      const i0 = i;
      const px0 = vx[i0] + pp * nx[i0];
      const py0 = vy[i0] + pp * ny[i0];
      const pz0 = vz[i0] + pp * nz[i0];
      let s0 = 0;
      const i1 = Math.min(i + 1, nv - 1);
      const px1 = vx[i1] + pp * nx[i1];
      const py1 = vy[i1] + pp * ny[i1];
      const pz1 = vz[i1] + pp * nz[i1];
      let s1 = 0;
      const i2 = Math.min(i + 2, nv - 1);
      const px2 = vx[i2] + pp * nx[i2];
      const py2 = vy[i2] + pp * ny[i2];
      const pz2 = vz[i2] + pp * nz[i2];
      let s2 = 0;
      const i3 = Math.min(i + 3, nv - 1);
      const px3 = vx[i3] + pp * nx[i3];
      const py3 = vy[i3] + pp * ny[i3];
      const pz3 = vz[i3] + pp * nz[i3];
      let s3 = 0;
      const i4 = Math.min(i + 4, nv - 1);
      const px4 = vx[i4] + pp * nx[i4];
      const py4 = vy[i4] + pp * ny[i4];
      const pz4 = vz[i4] + pp * nz[i4];
      let s4 = 0;
      const i5 = Math.min(i + 5, nv - 1);
      const px5 = vx[i5] + pp * nx[i5];
      const py5 = vy[i5] + pp * ny[i5];
      const pz5 = vz[i5] + pp * nz[i5];
      let s5 = 0;
      const i6 = Math.min(i + 6, nv - 1);
      const px6 = vx[i6] + pp * nx[i6];
      const py6 = vy[i6] + pp * ny[i6];
      const pz6 = vz[i6] + pp * nz[i6];
      let s6 = 0;
      const i7 = Math.min(i + 7, nv - 1);
      const px7 = vx[i7] + pp * nx[i7];
      const py7 = vy[i7] + pp * ny[i7];
      const pz7 = vz[i7] + pp * nz[i7];
      let s7 = 0;
      if (onSphere) {
        for (let j = b0; j < b1; j++) {
          const xj = ax[j];
          const yj = ay[j];
          const zj = az[j];
          const qj = aq[j];
          const dx0 = px0 - xj;
          const dy0 = py0 - yj;
          const dz0 = pz0 - zj;
          const d2_0 = dx0 * dx0 + dy0 * dy0 + dz0 * dz0;
          RS_F5[0] = d2_0;
          const rd0b = RS_I5[0];
          RS_I5[0] = 1597463007 - (rd0b >> 1);
          const rd0e = RS_F5[0] * RS_C5[rd0b >>> 12 & 4095];
          const rd0 = rd0e * (1.5 - 0.5 * d2_0 * rd0e * rd0e);
          s0 += qj * rd0;
          const dx1 = px1 - xj;
          const dy1 = py1 - yj;
          const dz1 = pz1 - zj;
          const d2_1 = dx1 * dx1 + dy1 * dy1 + dz1 * dz1;
          RS_F5[0] = d2_1;
          const rd1b = RS_I5[0];
          RS_I5[0] = 1597463007 - (rd1b >> 1);
          const rd1e = RS_F5[0] * RS_C5[rd1b >>> 12 & 4095];
          const rd1 = rd1e * (1.5 - 0.5 * d2_1 * rd1e * rd1e);
          s1 += qj * rd1;
          const dx2 = px2 - xj;
          const dy2 = py2 - yj;
          const dz2 = pz2 - zj;
          const d2_2 = dx2 * dx2 + dy2 * dy2 + dz2 * dz2;
          RS_F5[0] = d2_2;
          const rd2b = RS_I5[0];
          RS_I5[0] = 1597463007 - (rd2b >> 1);
          const rd2e = RS_F5[0] * RS_C5[rd2b >>> 12 & 4095];
          const rd2 = rd2e * (1.5 - 0.5 * d2_2 * rd2e * rd2e);
          s2 += qj * rd2;
          const dx3 = px3 - xj;
          const dy3 = py3 - yj;
          const dz3 = pz3 - zj;
          const d2_3 = dx3 * dx3 + dy3 * dy3 + dz3 * dz3;
          RS_F5[0] = d2_3;
          const rd3b = RS_I5[0];
          RS_I5[0] = 1597463007 - (rd3b >> 1);
          const rd3e = RS_F5[0] * RS_C5[rd3b >>> 12 & 4095];
          const rd3 = rd3e * (1.5 - 0.5 * d2_3 * rd3e * rd3e);
          s3 += qj * rd3;
          const dx4 = px4 - xj;
          const dy4 = py4 - yj;
          const dz4 = pz4 - zj;
          const d2_4 = dx4 * dx4 + dy4 * dy4 + dz4 * dz4;
          RS_F5[0] = d2_4;
          const rd4b = RS_I5[0];
          RS_I5[0] = 1597463007 - (rd4b >> 1);
          const rd4e = RS_F5[0] * RS_C5[rd4b >>> 12 & 4095];
          const rd4 = rd4e * (1.5 - 0.5 * d2_4 * rd4e * rd4e);
          s4 += qj * rd4;
          const dx5 = px5 - xj;
          const dy5 = py5 - yj;
          const dz5 = pz5 - zj;
          const d2_5 = dx5 * dx5 + dy5 * dy5 + dz5 * dz5;
          RS_F5[0] = d2_5;
          const rd5b = RS_I5[0];
          RS_I5[0] = 1597463007 - (rd5b >> 1);
          const rd5e = RS_F5[0] * RS_C5[rd5b >>> 12 & 4095];
          const rd5 = rd5e * (1.5 - 0.5 * d2_5 * rd5e * rd5e);
          s5 += qj * rd5;
          const dx6 = px6 - xj;
          const dy6 = py6 - yj;
          const dz6 = pz6 - zj;
          const d2_6 = dx6 * dx6 + dy6 * dy6 + dz6 * dz6;
          RS_F5[0] = d2_6;
          const rd6b = RS_I5[0];
          RS_I5[0] = 1597463007 - (rd6b >> 1);
          const rd6e = RS_F5[0] * RS_C5[rd6b >>> 12 & 4095];
          const rd6 = rd6e * (1.5 - 0.5 * d2_6 * rd6e * rd6e);
          s6 += qj * rd6;
          const dx7 = px7 - xj;
          const dy7 = py7 - yj;
          const dz7 = pz7 - zj;
          const d2_7 = dx7 * dx7 + dy7 * dy7 + dz7 * dz7;
          RS_F5[0] = d2_7;
          const rd7b = RS_I5[0];
          RS_I5[0] = 1597463007 - (rd7b >> 1);
          const rd7e = RS_F5[0] * RS_C5[rd7b >>> 12 & 4095];
          const rd7 = rd7e * (1.5 - 0.5 * d2_7 * rd7e * rd7e);
          s7 += qj * rd7;
        }
      } else {
        for (let j = b0; j < b1; j++) {
          const xj = ax[j];
          const yj = ay[j];
          const zj = az[j];
          const qj = aq[j];
          const dx0 = px0 - xj;
          const dy0 = py0 - yj;
          const dz0 = pz0 - zj;
          const d2_0 = dx0 * dx0 + dy0 * dy0 + dz0 * dz0;
          RS_F5[0] = d2_0;
          const rd0b = RS_I5[0];
          RS_I5[0] = 1597463007 - (rd0b >> 1);
          const rd0e = RS_F5[0] * RS_C5[rd0b >>> 12 & 4095];
          const rd0 = rd0e * (1.5 - 0.5 * d2_0 * rd0e * rd0e);
          const h2_0 = d2_0 + h;
          RS_F5[0] = h2_0;
          const rh0b = RS_I5[0];
          RS_I5[0] = 1597463007 - (rh0b >> 1);
          const rh0e = RS_F5[0] * RS_C5[rh0b >>> 12 & 4095];
          const rh0 = rh0e * (1.5 - 0.5 * h2_0 * rh0e * rh0e);
          s0 += qj * (rd0 - g * rh0);
          const dx1 = px1 - xj;
          const dy1 = py1 - yj;
          const dz1 = pz1 - zj;
          const d2_1 = dx1 * dx1 + dy1 * dy1 + dz1 * dz1;
          RS_F5[0] = d2_1;
          const rd1b = RS_I5[0];
          RS_I5[0] = 1597463007 - (rd1b >> 1);
          const rd1e = RS_F5[0] * RS_C5[rd1b >>> 12 & 4095];
          const rd1 = rd1e * (1.5 - 0.5 * d2_1 * rd1e * rd1e);
          const h2_1 = d2_1 + h;
          RS_F5[0] = h2_1;
          const rh1b = RS_I5[0];
          RS_I5[0] = 1597463007 - (rh1b >> 1);
          const rh1e = RS_F5[0] * RS_C5[rh1b >>> 12 & 4095];
          const rh1 = rh1e * (1.5 - 0.5 * h2_1 * rh1e * rh1e);
          s1 += qj * (rd1 - g * rh1);
          const dx2 = px2 - xj;
          const dy2 = py2 - yj;
          const dz2 = pz2 - zj;
          const d2_2 = dx2 * dx2 + dy2 * dy2 + dz2 * dz2;
          RS_F5[0] = d2_2;
          const rd2b = RS_I5[0];
          RS_I5[0] = 1597463007 - (rd2b >> 1);
          const rd2e = RS_F5[0] * RS_C5[rd2b >>> 12 & 4095];
          const rd2 = rd2e * (1.5 - 0.5 * d2_2 * rd2e * rd2e);
          const h2_2 = d2_2 + h;
          RS_F5[0] = h2_2;
          const rh2b = RS_I5[0];
          RS_I5[0] = 1597463007 - (rh2b >> 1);
          const rh2e = RS_F5[0] * RS_C5[rh2b >>> 12 & 4095];
          const rh2 = rh2e * (1.5 - 0.5 * h2_2 * rh2e * rh2e);
          s2 += qj * (rd2 - g * rh2);
          const dx3 = px3 - xj;
          const dy3 = py3 - yj;
          const dz3 = pz3 - zj;
          const d2_3 = dx3 * dx3 + dy3 * dy3 + dz3 * dz3;
          RS_F5[0] = d2_3;
          const rd3b = RS_I5[0];
          RS_I5[0] = 1597463007 - (rd3b >> 1);
          const rd3e = RS_F5[0] * RS_C5[rd3b >>> 12 & 4095];
          const rd3 = rd3e * (1.5 - 0.5 * d2_3 * rd3e * rd3e);
          const h2_3 = d2_3 + h;
          RS_F5[0] = h2_3;
          const rh3b = RS_I5[0];
          RS_I5[0] = 1597463007 - (rh3b >> 1);
          const rh3e = RS_F5[0] * RS_C5[rh3b >>> 12 & 4095];
          const rh3 = rh3e * (1.5 - 0.5 * h2_3 * rh3e * rh3e);
          s3 += qj * (rd3 - g * rh3);
          const dx4 = px4 - xj;
          const dy4 = py4 - yj;
          const dz4 = pz4 - zj;
          const d2_4 = dx4 * dx4 + dy4 * dy4 + dz4 * dz4;
          RS_F5[0] = d2_4;
          const rd4b = RS_I5[0];
          RS_I5[0] = 1597463007 - (rd4b >> 1);
          const rd4e = RS_F5[0] * RS_C5[rd4b >>> 12 & 4095];
          const rd4 = rd4e * (1.5 - 0.5 * d2_4 * rd4e * rd4e);
          const h2_4 = d2_4 + h;
          RS_F5[0] = h2_4;
          const rh4b = RS_I5[0];
          RS_I5[0] = 1597463007 - (rh4b >> 1);
          const rh4e = RS_F5[0] * RS_C5[rh4b >>> 12 & 4095];
          const rh4 = rh4e * (1.5 - 0.5 * h2_4 * rh4e * rh4e);
          s4 += qj * (rd4 - g * rh4);
          const dx5 = px5 - xj;
          const dy5 = py5 - yj;
          const dz5 = pz5 - zj;
          const d2_5 = dx5 * dx5 + dy5 * dy5 + dz5 * dz5;
          RS_F5[0] = d2_5;
          const rd5b = RS_I5[0];
          RS_I5[0] = 1597463007 - (rd5b >> 1);
          const rd5e = RS_F5[0] * RS_C5[rd5b >>> 12 & 4095];
          const rd5 = rd5e * (1.5 - 0.5 * d2_5 * rd5e * rd5e);
          const h2_5 = d2_5 + h;
          RS_F5[0] = h2_5;
          const rh5b = RS_I5[0];
          RS_I5[0] = 1597463007 - (rh5b >> 1);
          const rh5e = RS_F5[0] * RS_C5[rh5b >>> 12 & 4095];
          const rh5 = rh5e * (1.5 - 0.5 * h2_5 * rh5e * rh5e);
          s5 += qj * (rd5 - g * rh5);
          const dx6 = px6 - xj;
          const dy6 = py6 - yj;
          const dz6 = pz6 - zj;
          const d2_6 = dx6 * dx6 + dy6 * dy6 + dz6 * dz6;
          RS_F5[0] = d2_6;
          const rd6b = RS_I5[0];
          RS_I5[0] = 1597463007 - (rd6b >> 1);
          const rd6e = RS_F5[0] * RS_C5[rd6b >>> 12 & 4095];
          const rd6 = rd6e * (1.5 - 0.5 * d2_6 * rd6e * rd6e);
          const h2_6 = d2_6 + h;
          RS_F5[0] = h2_6;
          const rh6b = RS_I5[0];
          RS_I5[0] = 1597463007 - (rh6b >> 1);
          const rh6e = RS_F5[0] * RS_C5[rh6b >>> 12 & 4095];
          const rh6 = rh6e * (1.5 - 0.5 * h2_6 * rh6e * rh6e);
          s6 += qj * (rd6 - g * rh6);
          const dx7 = px7 - xj;
          const dy7 = py7 - yj;
          const dz7 = pz7 - zj;
          const d2_7 = dx7 * dx7 + dy7 * dy7 + dz7 * dz7;
          RS_F5[0] = d2_7;
          const rd7b = RS_I5[0];
          RS_I5[0] = 1597463007 - (rd7b >> 1);
          const rd7e = RS_F5[0] * RS_C5[rd7b >>> 12 & 4095];
          const rd7 = rd7e * (1.5 - 0.5 * d2_7 * rd7e * rd7e);
          const h2_7 = d2_7 + h;
          RS_F5[0] = h2_7;
          const rh7b = RS_I5[0];
          RS_I5[0] = 1597463007 - (rh7b >> 1);
          const rh7e = RS_F5[0] * RS_C5[rh7b >>> 12 & 4095];
          const rh7 = rh7e * (1.5 - 0.5 * h2_7 * rh7e * rh7e);
          s7 += qj * (rd7 - g * rh7);
        }
      }
      phi[i] = phi0 + scale * s0;
      if (i + 1 < nv) phi[i + 1] = phi0 + scale * s1;
      if (i + 2 < nv) phi[i + 2] = phi0 + scale * s2;
      if (i + 3 < nv) phi[i + 3] = phi0 + scale * s3;
      if (i + 4 < nv) phi[i + 4] = phi0 + scale * s4;
      if (i + 5 < nv) phi[i + 5] = phi0 + scale * s5;
      if (i + 6 < nv) phi[i + 6] = phi0 + scale * s6;
      if (i + 7 < nv) phi[i + 7] = phi0 + scale * s7;
    }
  }
}

// gem-potential/ts/region1.f64.nonzero.unroll4.div.block0.ts
var region1_f64_nonzero_unroll4_div_block0_exports = {};
__export(region1_f64_nonzero_unroll4_div_block0_exports, {
  BLOCK: () => BLOCK11,
  K: () => K11,
  kernel: () => kernel11,
  key: () => key11
});
var key11 = "gem-potential.ts.region1.f64.nonzero.unroll4.div.block0";
var K11 = 4;
var BLOCK11 = 0;
function kernel11(a) {
  const vx = a.vx;
  const vy = a.vy;
  const vz = a.vz;
  const nx = a.nx;
  const ny = a.ny;
  const nz = a.nz;
  const ax = a.ax;
  const ay = a.ay;
  const az = a.az;
  const aq = a.aq;
  const phi = a.phi;
  const P = a.params;
  const nv = phi.length;
  const na = aq.length;
  const pp = P.p;
  const ion = P.ionRadius;
  const kappa = P.kappa;
  const beta = P.epsIn / P.epsOut;
  const ab1 = 1 + P.alpha * beta;
  const K0 = P.qScale / (ab1 * P.epsOut);
  const r = P.A + pp;
  const rp = P.A + P.ionRadius;
  let qTot = 0;
  for (let j = 0; j < na; j++) qTot += aq[j];
  const g = (1 - beta) / ab1;
  const r0 = P.A / 2;
  const h = (P.A * P.A - r0 * r0) * (P.A - r) * (P.A + r) / (P.A * P.A);
  const onSphere = h === 0;
  const scale = P.qScale / P.epsIn * (onSphere ? 1 - g : 1);
  const kc = K0 * (1 + P.alpha) * kappa / scale;
  const phi0 = qTot * K0 * P.alpha * (1 - beta) / rp * (1 - 1 / (1 + kappa * rp));
  {
    const b0 = 0;
    const b1 = na;
    for (let i = 0; i < nv; i += K11) {
      const i0 = i;
      const px0 = vx[i0] + pp * nx[i0];
      const py0 = vy[i0] + pp * ny[i0];
      const pz0 = vz[i0] + pp * nz[i0];
      const ex0 = vx[i0] + ion * nx[i0];
      const ey0 = vy[i0] + ion * ny[i0];
      const ez0 = vz[i0] + ion * nz[i0];
      let s0 = 0;
      const i1 = Math.min(i + 1, nv - 1);
      const px1 = vx[i1] + pp * nx[i1];
      const py1 = vy[i1] + pp * ny[i1];
      const pz1 = vz[i1] + pp * nz[i1];
      const ex1 = vx[i1] + ion * nx[i1];
      const ey1 = vy[i1] + ion * ny[i1];
      const ez1 = vz[i1] + ion * nz[i1];
      let s1 = 0;
      const i2 = Math.min(i + 2, nv - 1);
      const px2 = vx[i2] + pp * nx[i2];
      const py2 = vy[i2] + pp * ny[i2];
      const pz2 = vz[i2] + pp * nz[i2];
      const ex2 = vx[i2] + ion * nx[i2];
      const ey2 = vy[i2] + ion * ny[i2];
      const ez2 = vz[i2] + ion * nz[i2];
      let s2 = 0;
      const i3 = Math.min(i + 3, nv - 1);
      const px3 = vx[i3] + pp * nx[i3];
      const py3 = vy[i3] + pp * ny[i3];
      const pz3 = vz[i3] + pp * nz[i3];
      const ex3 = vx[i3] + ion * nx[i3];
      const ey3 = vy[i3] + ion * ny[i3];
      const ez3 = vz[i3] + ion * nz[i3];
      let s3 = 0;
      if (onSphere) {
        for (let j = b0; j < b1; j++) {
          const xj = ax[j];
          const yj = ay[j];
          const zj = az[j];
          const qj = aq[j];
          const dx0 = px0 - xj;
          const dy0 = py0 - yj;
          const dz0 = pz0 - zj;
          const d2_0 = dx0 * dx0 + dy0 * dy0 + dz0 * dz0;
          const rd0 = 1 / Math.sqrt(d2_0);
          const fx0 = ex0 - xj;
          const fy0 = ey0 - yj;
          const fz0 = ez0 - zj;
          const e2_0 = fx0 * fx0 + fy0 * fy0 + fz0 * fz0;
          const re0 = 1 / Math.sqrt(e2_0);
          const dp0 = e2_0 * re0;
          s0 += qj * (rd0 - kc / (1 + kappa * dp0));
          const dx1 = px1 - xj;
          const dy1 = py1 - yj;
          const dz1 = pz1 - zj;
          const d2_1 = dx1 * dx1 + dy1 * dy1 + dz1 * dz1;
          const rd1 = 1 / Math.sqrt(d2_1);
          const fx1 = ex1 - xj;
          const fy1 = ey1 - yj;
          const fz1 = ez1 - zj;
          const e2_1 = fx1 * fx1 + fy1 * fy1 + fz1 * fz1;
          const re1 = 1 / Math.sqrt(e2_1);
          const dp1 = e2_1 * re1;
          s1 += qj * (rd1 - kc / (1 + kappa * dp1));
          const dx2 = px2 - xj;
          const dy2 = py2 - yj;
          const dz2 = pz2 - zj;
          const d2_2 = dx2 * dx2 + dy2 * dy2 + dz2 * dz2;
          const rd2 = 1 / Math.sqrt(d2_2);
          const fx2 = ex2 - xj;
          const fy2 = ey2 - yj;
          const fz2 = ez2 - zj;
          const e2_2 = fx2 * fx2 + fy2 * fy2 + fz2 * fz2;
          const re2 = 1 / Math.sqrt(e2_2);
          const dp2 = e2_2 * re2;
          s2 += qj * (rd2 - kc / (1 + kappa * dp2));
          const dx3 = px3 - xj;
          const dy3 = py3 - yj;
          const dz3 = pz3 - zj;
          const d2_3 = dx3 * dx3 + dy3 * dy3 + dz3 * dz3;
          const rd3 = 1 / Math.sqrt(d2_3);
          const fx3 = ex3 - xj;
          const fy3 = ey3 - yj;
          const fz3 = ez3 - zj;
          const e2_3 = fx3 * fx3 + fy3 * fy3 + fz3 * fz3;
          const re3 = 1 / Math.sqrt(e2_3);
          const dp3 = e2_3 * re3;
          s3 += qj * (rd3 - kc / (1 + kappa * dp3));
        }
      } else {
        for (let j = b0; j < b1; j++) {
          const xj = ax[j];
          const yj = ay[j];
          const zj = az[j];
          const qj = aq[j];
          const dx0 = px0 - xj;
          const dy0 = py0 - yj;
          const dz0 = pz0 - zj;
          const d2_0 = dx0 * dx0 + dy0 * dy0 + dz0 * dz0;
          const rd0 = 1 / Math.sqrt(d2_0);
          const fx0 = ex0 - xj;
          const fy0 = ey0 - yj;
          const fz0 = ez0 - zj;
          const e2_0 = fx0 * fx0 + fy0 * fy0 + fz0 * fz0;
          const re0 = 1 / Math.sqrt(e2_0);
          const dp0 = e2_0 * re0;
          const h2_0 = d2_0 + h;
          const rh0 = 1 / Math.sqrt(h2_0);
          s0 += qj * (rd0 - g * rh0 - kc / (1 + kappa * dp0));
          const dx1 = px1 - xj;
          const dy1 = py1 - yj;
          const dz1 = pz1 - zj;
          const d2_1 = dx1 * dx1 + dy1 * dy1 + dz1 * dz1;
          const rd1 = 1 / Math.sqrt(d2_1);
          const fx1 = ex1 - xj;
          const fy1 = ey1 - yj;
          const fz1 = ez1 - zj;
          const e2_1 = fx1 * fx1 + fy1 * fy1 + fz1 * fz1;
          const re1 = 1 / Math.sqrt(e2_1);
          const dp1 = e2_1 * re1;
          const h2_1 = d2_1 + h;
          const rh1 = 1 / Math.sqrt(h2_1);
          s1 += qj * (rd1 - g * rh1 - kc / (1 + kappa * dp1));
          const dx2 = px2 - xj;
          const dy2 = py2 - yj;
          const dz2 = pz2 - zj;
          const d2_2 = dx2 * dx2 + dy2 * dy2 + dz2 * dz2;
          const rd2 = 1 / Math.sqrt(d2_2);
          const fx2 = ex2 - xj;
          const fy2 = ey2 - yj;
          const fz2 = ez2 - zj;
          const e2_2 = fx2 * fx2 + fy2 * fy2 + fz2 * fz2;
          const re2 = 1 / Math.sqrt(e2_2);
          const dp2 = e2_2 * re2;
          const h2_2 = d2_2 + h;
          const rh2 = 1 / Math.sqrt(h2_2);
          s2 += qj * (rd2 - g * rh2 - kc / (1 + kappa * dp2));
          const dx3 = px3 - xj;
          const dy3 = py3 - yj;
          const dz3 = pz3 - zj;
          const d2_3 = dx3 * dx3 + dy3 * dy3 + dz3 * dz3;
          const rd3 = 1 / Math.sqrt(d2_3);
          const fx3 = ex3 - xj;
          const fy3 = ey3 - yj;
          const fz3 = ez3 - zj;
          const e2_3 = fx3 * fx3 + fy3 * fy3 + fz3 * fz3;
          const re3 = 1 / Math.sqrt(e2_3);
          const dp3 = e2_3 * re3;
          const h2_3 = d2_3 + h;
          const rh3 = 1 / Math.sqrt(h2_3);
          s3 += qj * (rd3 - g * rh3 - kc / (1 + kappa * dp3));
        }
      }
      phi[i] = phi0 + scale * s0;
      if (i + 1 < nv) phi[i + 1] = phi0 + scale * s1;
      if (i + 2 < nv) phi[i + 2] = phi0 + scale * s2;
      if (i + 3 < nv) phi[i + 3] = phi0 + scale * s3;
    }
  }
}

// gem-potential/ts/region1.f64.zero.unroll1.div.block0.ts
var region1_f64_zero_unroll1_div_block0_exports = {};
__export(region1_f64_zero_unroll1_div_block0_exports, {
  BLOCK: () => BLOCK12,
  K: () => K12,
  kernel: () => kernel12,
  key: () => key12
});
var key12 = "gem-potential.ts.region1.f64.zero.unroll1.div.block0";
var K12 = 1;
var BLOCK12 = 0;
function kernel12(a) {
  const vx = a.vx;
  const vy = a.vy;
  const vz = a.vz;
  const nx = a.nx;
  const ny = a.ny;
  const nz = a.nz;
  const ax = a.ax;
  const ay = a.ay;
  const az = a.az;
  const aq = a.aq;
  const phi = a.phi;
  const P = a.params;
  const nv = phi.length;
  const na = aq.length;
  const pp = P.p;
  const kappa = 0;
  const beta = P.epsIn / P.epsOut;
  const ab1 = 1 + P.alpha * beta;
  const K0 = P.qScale / (ab1 * P.epsOut);
  const r = P.A + pp;
  const rp = P.A + P.ionRadius;
  let qTot = 0;
  for (let j = 0; j < na; j++) qTot += aq[j];
  const g = (1 - beta) / ab1;
  const r0 = P.A / 2;
  const h = (P.A * P.A - r0 * r0) * (P.A - r) * (P.A + r) / (P.A * P.A);
  const onSphere = h === 0;
  const scale = P.qScale / P.epsIn * (onSphere ? 1 - g : 1);
  const phi0 = qTot * K0 * P.alpha * (1 - beta) / rp * (1 - 1 / (1 + kappa * rp));
  {
    const b0 = 0;
    const b1 = na;
    for (let i = 0; i < nv; i += K12) {
      const i0 = i;
      const px0 = vx[i0] + pp * nx[i0];
      const py0 = vy[i0] + pp * ny[i0];
      const pz0 = vz[i0] + pp * nz[i0];
      let s0 = 0;
      if (onSphere) {
        for (let j = b0; j < b1; j++) {
          const xj = ax[j];
          const yj = ay[j];
          const zj = az[j];
          const qj = aq[j];
          const dx0 = px0 - xj;
          const dy0 = py0 - yj;
          const dz0 = pz0 - zj;
          const d2_0 = dx0 * dx0 + dy0 * dy0 + dz0 * dz0;
          const rd0 = 1 / Math.sqrt(d2_0);
          s0 += qj * rd0;
        }
      } else {
        for (let j = b0; j < b1; j++) {
          const xj = ax[j];
          const yj = ay[j];
          const zj = az[j];
          const qj = aq[j];
          const dx0 = px0 - xj;
          const dy0 = py0 - yj;
          const dz0 = pz0 - zj;
          const d2_0 = dx0 * dx0 + dy0 * dy0 + dz0 * dz0;
          const rd0 = 1 / Math.sqrt(d2_0);
          const h2_0 = d2_0 + h;
          const rh0 = 1 / Math.sqrt(h2_0);
          s0 += qj * (rd0 - g * rh0);
        }
      }
      phi[i] = phi0 + scale * s0;
    }
  }
}

// gem-potential/ts/region1.f64.zero.unroll2.div.block0.ts
var region1_f64_zero_unroll2_div_block0_exports = {};
__export(region1_f64_zero_unroll2_div_block0_exports, {
  BLOCK: () => BLOCK13,
  K: () => K13,
  kernel: () => kernel13,
  key: () => key13
});
var key13 = "gem-potential.ts.region1.f64.zero.unroll2.div.block0";
var K13 = 2;
var BLOCK13 = 0;
function kernel13(a) {
  const vx = a.vx;
  const vy = a.vy;
  const vz = a.vz;
  const nx = a.nx;
  const ny = a.ny;
  const nz = a.nz;
  const ax = a.ax;
  const ay = a.ay;
  const az = a.az;
  const aq = a.aq;
  const phi = a.phi;
  const P = a.params;
  const nv = phi.length;
  const na = aq.length;
  const pp = P.p;
  const kappa = 0;
  const beta = P.epsIn / P.epsOut;
  const ab1 = 1 + P.alpha * beta;
  const K0 = P.qScale / (ab1 * P.epsOut);
  const r = P.A + pp;
  const rp = P.A + P.ionRadius;
  let qTot = 0;
  for (let j = 0; j < na; j++) qTot += aq[j];
  const g = (1 - beta) / ab1;
  const r0 = P.A / 2;
  const h = (P.A * P.A - r0 * r0) * (P.A - r) * (P.A + r) / (P.A * P.A);
  const onSphere = h === 0;
  const scale = P.qScale / P.epsIn * (onSphere ? 1 - g : 1);
  const phi0 = qTot * K0 * P.alpha * (1 - beta) / rp * (1 - 1 / (1 + kappa * rp));
  {
    const b0 = 0;
    const b1 = na;
    for (let i = 0; i < nv; i += K13) {
      const i0 = i;
      const px0 = vx[i0] + pp * nx[i0];
      const py0 = vy[i0] + pp * ny[i0];
      const pz0 = vz[i0] + pp * nz[i0];
      let s0 = 0;
      const i1 = Math.min(i + 1, nv - 1);
      const px1 = vx[i1] + pp * nx[i1];
      const py1 = vy[i1] + pp * ny[i1];
      const pz1 = vz[i1] + pp * nz[i1];
      let s1 = 0;
      if (onSphere) {
        for (let j = b0; j < b1; j++) {
          const xj = ax[j];
          const yj = ay[j];
          const zj = az[j];
          const qj = aq[j];
          const dx0 = px0 - xj;
          const dy0 = py0 - yj;
          const dz0 = pz0 - zj;
          const d2_0 = dx0 * dx0 + dy0 * dy0 + dz0 * dz0;
          const rd0 = 1 / Math.sqrt(d2_0);
          s0 += qj * rd0;
          const dx1 = px1 - xj;
          const dy1 = py1 - yj;
          const dz1 = pz1 - zj;
          const d2_1 = dx1 * dx1 + dy1 * dy1 + dz1 * dz1;
          const rd1 = 1 / Math.sqrt(d2_1);
          s1 += qj * rd1;
        }
      } else {
        for (let j = b0; j < b1; j++) {
          const xj = ax[j];
          const yj = ay[j];
          const zj = az[j];
          const qj = aq[j];
          const dx0 = px0 - xj;
          const dy0 = py0 - yj;
          const dz0 = pz0 - zj;
          const d2_0 = dx0 * dx0 + dy0 * dy0 + dz0 * dz0;
          const rd0 = 1 / Math.sqrt(d2_0);
          const h2_0 = d2_0 + h;
          const rh0 = 1 / Math.sqrt(h2_0);
          s0 += qj * (rd0 - g * rh0);
          const dx1 = px1 - xj;
          const dy1 = py1 - yj;
          const dz1 = pz1 - zj;
          const d2_1 = dx1 * dx1 + dy1 * dy1 + dz1 * dz1;
          const rd1 = 1 / Math.sqrt(d2_1);
          const h2_1 = d2_1 + h;
          const rh1 = 1 / Math.sqrt(h2_1);
          s1 += qj * (rd1 - g * rh1);
        }
      }
      phi[i] = phi0 + scale * s0;
      if (i + 1 < nv) phi[i + 1] = phi0 + scale * s1;
    }
  }
}

// gem-potential/ts/region1.f64.zero.unroll4.div.block0.ts
var region1_f64_zero_unroll4_div_block0_exports = {};
__export(region1_f64_zero_unroll4_div_block0_exports, {
  BLOCK: () => BLOCK14,
  K: () => K14,
  kernel: () => kernel14,
  key: () => key14
});
var key14 = "gem-potential.ts.region1.f64.zero.unroll4.div.block0";
var K14 = 4;
var BLOCK14 = 0;
function kernel14(a) {
  const vx = a.vx;
  const vy = a.vy;
  const vz = a.vz;
  const nx = a.nx;
  const ny = a.ny;
  const nz = a.nz;
  const ax = a.ax;
  const ay = a.ay;
  const az = a.az;
  const aq = a.aq;
  const phi = a.phi;
  const P = a.params;
  const nv = phi.length;
  const na = aq.length;
  const pp = P.p;
  const kappa = 0;
  const beta = P.epsIn / P.epsOut;
  const ab1 = 1 + P.alpha * beta;
  const K0 = P.qScale / (ab1 * P.epsOut);
  const r = P.A + pp;
  const rp = P.A + P.ionRadius;
  let qTot = 0;
  for (let j = 0; j < na; j++) qTot += aq[j];
  const g = (1 - beta) / ab1;
  const r0 = P.A / 2;
  const h = (P.A * P.A - r0 * r0) * (P.A - r) * (P.A + r) / (P.A * P.A);
  const onSphere = h === 0;
  const scale = P.qScale / P.epsIn * (onSphere ? 1 - g : 1);
  const phi0 = qTot * K0 * P.alpha * (1 - beta) / rp * (1 - 1 / (1 + kappa * rp));
  {
    const b0 = 0;
    const b1 = na;
    for (let i = 0; i < nv; i += K14) {
      const i0 = i;
      const px0 = vx[i0] + pp * nx[i0];
      const py0 = vy[i0] + pp * ny[i0];
      const pz0 = vz[i0] + pp * nz[i0];
      let s0 = 0;
      const i1 = Math.min(i + 1, nv - 1);
      const px1 = vx[i1] + pp * nx[i1];
      const py1 = vy[i1] + pp * ny[i1];
      const pz1 = vz[i1] + pp * nz[i1];
      let s1 = 0;
      const i2 = Math.min(i + 2, nv - 1);
      const px2 = vx[i2] + pp * nx[i2];
      const py2 = vy[i2] + pp * ny[i2];
      const pz2 = vz[i2] + pp * nz[i2];
      let s2 = 0;
      const i3 = Math.min(i + 3, nv - 1);
      const px3 = vx[i3] + pp * nx[i3];
      const py3 = vy[i3] + pp * ny[i3];
      const pz3 = vz[i3] + pp * nz[i3];
      let s3 = 0;
      if (onSphere) {
        for (let j = b0; j < b1; j++) {
          const xj = ax[j];
          const yj = ay[j];
          const zj = az[j];
          const qj = aq[j];
          const dx0 = px0 - xj;
          const dy0 = py0 - yj;
          const dz0 = pz0 - zj;
          const d2_0 = dx0 * dx0 + dy0 * dy0 + dz0 * dz0;
          const rd0 = 1 / Math.sqrt(d2_0);
          s0 += qj * rd0;
          const dx1 = px1 - xj;
          const dy1 = py1 - yj;
          const dz1 = pz1 - zj;
          const d2_1 = dx1 * dx1 + dy1 * dy1 + dz1 * dz1;
          const rd1 = 1 / Math.sqrt(d2_1);
          s1 += qj * rd1;
          const dx2 = px2 - xj;
          const dy2 = py2 - yj;
          const dz2 = pz2 - zj;
          const d2_2 = dx2 * dx2 + dy2 * dy2 + dz2 * dz2;
          const rd2 = 1 / Math.sqrt(d2_2);
          s2 += qj * rd2;
          const dx3 = px3 - xj;
          const dy3 = py3 - yj;
          const dz3 = pz3 - zj;
          const d2_3 = dx3 * dx3 + dy3 * dy3 + dz3 * dz3;
          const rd3 = 1 / Math.sqrt(d2_3);
          s3 += qj * rd3;
        }
      } else {
        for (let j = b0; j < b1; j++) {
          const xj = ax[j];
          const yj = ay[j];
          const zj = az[j];
          const qj = aq[j];
          const dx0 = px0 - xj;
          const dy0 = py0 - yj;
          const dz0 = pz0 - zj;
          const d2_0 = dx0 * dx0 + dy0 * dy0 + dz0 * dz0;
          const rd0 = 1 / Math.sqrt(d2_0);
          const h2_0 = d2_0 + h;
          const rh0 = 1 / Math.sqrt(h2_0);
          s0 += qj * (rd0 - g * rh0);
          const dx1 = px1 - xj;
          const dy1 = py1 - yj;
          const dz1 = pz1 - zj;
          const d2_1 = dx1 * dx1 + dy1 * dy1 + dz1 * dz1;
          const rd1 = 1 / Math.sqrt(d2_1);
          const h2_1 = d2_1 + h;
          const rh1 = 1 / Math.sqrt(h2_1);
          s1 += qj * (rd1 - g * rh1);
          const dx2 = px2 - xj;
          const dy2 = py2 - yj;
          const dz2 = pz2 - zj;
          const d2_2 = dx2 * dx2 + dy2 * dy2 + dz2 * dz2;
          const rd2 = 1 / Math.sqrt(d2_2);
          const h2_2 = d2_2 + h;
          const rh2 = 1 / Math.sqrt(h2_2);
          s2 += qj * (rd2 - g * rh2);
          const dx3 = px3 - xj;
          const dy3 = py3 - yj;
          const dz3 = pz3 - zj;
          const d2_3 = dx3 * dx3 + dy3 * dy3 + dz3 * dz3;
          const rd3 = 1 / Math.sqrt(d2_3);
          const h2_3 = d2_3 + h;
          const rh3 = 1 / Math.sqrt(h2_3);
          s3 += qj * (rd3 - g * rh3);
        }
      }
      phi[i] = phi0 + scale * s0;
      if (i + 1 < nv) phi[i + 1] = phi0 + scale * s1;
      if (i + 2 < nv) phi[i + 2] = phi0 + scale * s2;
      if (i + 3 < nv) phi[i + 3] = phi0 + scale * s3;
    }
  }
}

// gem-potential/ts/region1.f64.zero.unroll8.div.block0.ts
var region1_f64_zero_unroll8_div_block0_exports = {};
__export(region1_f64_zero_unroll8_div_block0_exports, {
  BLOCK: () => BLOCK15,
  K: () => K15,
  kernel: () => kernel15,
  key: () => key15
});
var key15 = "gem-potential.ts.region1.f64.zero.unroll8.div.block0";
var K15 = 8;
var BLOCK15 = 0;
function kernel15(a) {
  const vx = a.vx;
  const vy = a.vy;
  const vz = a.vz;
  const nx = a.nx;
  const ny = a.ny;
  const nz = a.nz;
  const ax = a.ax;
  const ay = a.ay;
  const az = a.az;
  const aq = a.aq;
  const phi = a.phi;
  const P = a.params;
  const nv = phi.length;
  const na = aq.length;
  const pp = P.p;
  const kappa = 0;
  const beta = P.epsIn / P.epsOut;
  const ab1 = 1 + P.alpha * beta;
  const K0 = P.qScale / (ab1 * P.epsOut);
  const r = P.A + pp;
  const rp = P.A + P.ionRadius;
  let qTot = 0;
  for (let j = 0; j < na; j++) qTot += aq[j];
  const g = (1 - beta) / ab1;
  const r0 = P.A / 2;
  const h = (P.A * P.A - r0 * r0) * (P.A - r) * (P.A + r) / (P.A * P.A);
  const onSphere = h === 0;
  const scale = P.qScale / P.epsIn * (onSphere ? 1 - g : 1);
  const phi0 = qTot * K0 * P.alpha * (1 - beta) / rp * (1 - 1 / (1 + kappa * rp));
  {
    const b0 = 0;
    const b1 = na;
    for (let i = 0; i < nv; i += K15) {
      const i0 = i;
      const px0 = vx[i0] + pp * nx[i0];
      const py0 = vy[i0] + pp * ny[i0];
      const pz0 = vz[i0] + pp * nz[i0];
      let s0 = 0;
      const i1 = Math.min(i + 1, nv - 1);
      const px1 = vx[i1] + pp * nx[i1];
      const py1 = vy[i1] + pp * ny[i1];
      const pz1 = vz[i1] + pp * nz[i1];
      let s1 = 0;
      const i2 = Math.min(i + 2, nv - 1);
      const px2 = vx[i2] + pp * nx[i2];
      const py2 = vy[i2] + pp * ny[i2];
      const pz2 = vz[i2] + pp * nz[i2];
      let s2 = 0;
      const i3 = Math.min(i + 3, nv - 1);
      const px3 = vx[i3] + pp * nx[i3];
      const py3 = vy[i3] + pp * ny[i3];
      const pz3 = vz[i3] + pp * nz[i3];
      let s3 = 0;
      const i4 = Math.min(i + 4, nv - 1);
      const px4 = vx[i4] + pp * nx[i4];
      const py4 = vy[i4] + pp * ny[i4];
      const pz4 = vz[i4] + pp * nz[i4];
      let s4 = 0;
      const i5 = Math.min(i + 5, nv - 1);
      const px5 = vx[i5] + pp * nx[i5];
      const py5 = vy[i5] + pp * ny[i5];
      const pz5 = vz[i5] + pp * nz[i5];
      let s5 = 0;
      const i6 = Math.min(i + 6, nv - 1);
      const px6 = vx[i6] + pp * nx[i6];
      const py6 = vy[i6] + pp * ny[i6];
      const pz6 = vz[i6] + pp * nz[i6];
      let s6 = 0;
      const i7 = Math.min(i + 7, nv - 1);
      const px7 = vx[i7] + pp * nx[i7];
      const py7 = vy[i7] + pp * ny[i7];
      const pz7 = vz[i7] + pp * nz[i7];
      let s7 = 0;
      if (onSphere) {
        for (let j = b0; j < b1; j++) {
          const xj = ax[j];
          const yj = ay[j];
          const zj = az[j];
          const qj = aq[j];
          const dx0 = px0 - xj;
          const dy0 = py0 - yj;
          const dz0 = pz0 - zj;
          const d2_0 = dx0 * dx0 + dy0 * dy0 + dz0 * dz0;
          const rd0 = 1 / Math.sqrt(d2_0);
          s0 += qj * rd0;
          const dx1 = px1 - xj;
          const dy1 = py1 - yj;
          const dz1 = pz1 - zj;
          const d2_1 = dx1 * dx1 + dy1 * dy1 + dz1 * dz1;
          const rd1 = 1 / Math.sqrt(d2_1);
          s1 += qj * rd1;
          const dx2 = px2 - xj;
          const dy2 = py2 - yj;
          const dz2 = pz2 - zj;
          const d2_2 = dx2 * dx2 + dy2 * dy2 + dz2 * dz2;
          const rd2 = 1 / Math.sqrt(d2_2);
          s2 += qj * rd2;
          const dx3 = px3 - xj;
          const dy3 = py3 - yj;
          const dz3 = pz3 - zj;
          const d2_3 = dx3 * dx3 + dy3 * dy3 + dz3 * dz3;
          const rd3 = 1 / Math.sqrt(d2_3);
          s3 += qj * rd3;
          const dx4 = px4 - xj;
          const dy4 = py4 - yj;
          const dz4 = pz4 - zj;
          const d2_4 = dx4 * dx4 + dy4 * dy4 + dz4 * dz4;
          const rd4 = 1 / Math.sqrt(d2_4);
          s4 += qj * rd4;
          const dx5 = px5 - xj;
          const dy5 = py5 - yj;
          const dz5 = pz5 - zj;
          const d2_5 = dx5 * dx5 + dy5 * dy5 + dz5 * dz5;
          const rd5 = 1 / Math.sqrt(d2_5);
          s5 += qj * rd5;
          const dx6 = px6 - xj;
          const dy6 = py6 - yj;
          const dz6 = pz6 - zj;
          const d2_6 = dx6 * dx6 + dy6 * dy6 + dz6 * dz6;
          const rd6 = 1 / Math.sqrt(d2_6);
          s6 += qj * rd6;
          const dx7 = px7 - xj;
          const dy7 = py7 - yj;
          const dz7 = pz7 - zj;
          const d2_7 = dx7 * dx7 + dy7 * dy7 + dz7 * dz7;
          const rd7 = 1 / Math.sqrt(d2_7);
          s7 += qj * rd7;
        }
      } else {
        for (let j = b0; j < b1; j++) {
          const xj = ax[j];
          const yj = ay[j];
          const zj = az[j];
          const qj = aq[j];
          const dx0 = px0 - xj;
          const dy0 = py0 - yj;
          const dz0 = pz0 - zj;
          const d2_0 = dx0 * dx0 + dy0 * dy0 + dz0 * dz0;
          const rd0 = 1 / Math.sqrt(d2_0);
          const h2_0 = d2_0 + h;
          const rh0 = 1 / Math.sqrt(h2_0);
          s0 += qj * (rd0 - g * rh0);
          const dx1 = px1 - xj;
          const dy1 = py1 - yj;
          const dz1 = pz1 - zj;
          const d2_1 = dx1 * dx1 + dy1 * dy1 + dz1 * dz1;
          const rd1 = 1 / Math.sqrt(d2_1);
          const h2_1 = d2_1 + h;
          const rh1 = 1 / Math.sqrt(h2_1);
          s1 += qj * (rd1 - g * rh1);
          const dx2 = px2 - xj;
          const dy2 = py2 - yj;
          const dz2 = pz2 - zj;
          const d2_2 = dx2 * dx2 + dy2 * dy2 + dz2 * dz2;
          const rd2 = 1 / Math.sqrt(d2_2);
          const h2_2 = d2_2 + h;
          const rh2 = 1 / Math.sqrt(h2_2);
          s2 += qj * (rd2 - g * rh2);
          const dx3 = px3 - xj;
          const dy3 = py3 - yj;
          const dz3 = pz3 - zj;
          const d2_3 = dx3 * dx3 + dy3 * dy3 + dz3 * dz3;
          const rd3 = 1 / Math.sqrt(d2_3);
          const h2_3 = d2_3 + h;
          const rh3 = 1 / Math.sqrt(h2_3);
          s3 += qj * (rd3 - g * rh3);
          const dx4 = px4 - xj;
          const dy4 = py4 - yj;
          const dz4 = pz4 - zj;
          const d2_4 = dx4 * dx4 + dy4 * dy4 + dz4 * dz4;
          const rd4 = 1 / Math.sqrt(d2_4);
          const h2_4 = d2_4 + h;
          const rh4 = 1 / Math.sqrt(h2_4);
          s4 += qj * (rd4 - g * rh4);
          const dx5 = px5 - xj;
          const dy5 = py5 - yj;
          const dz5 = pz5 - zj;
          const d2_5 = dx5 * dx5 + dy5 * dy5 + dz5 * dz5;
          const rd5 = 1 / Math.sqrt(d2_5);
          const h2_5 = d2_5 + h;
          const rh5 = 1 / Math.sqrt(h2_5);
          s5 += qj * (rd5 - g * rh5);
          const dx6 = px6 - xj;
          const dy6 = py6 - yj;
          const dz6 = pz6 - zj;
          const d2_6 = dx6 * dx6 + dy6 * dy6 + dz6 * dz6;
          const rd6 = 1 / Math.sqrt(d2_6);
          const h2_6 = d2_6 + h;
          const rh6 = 1 / Math.sqrt(h2_6);
          s6 += qj * (rd6 - g * rh6);
          const dx7 = px7 - xj;
          const dy7 = py7 - yj;
          const dz7 = pz7 - zj;
          const d2_7 = dx7 * dx7 + dy7 * dy7 + dz7 * dz7;
          const rd7 = 1 / Math.sqrt(d2_7);
          const h2_7 = d2_7 + h;
          const rh7 = 1 / Math.sqrt(h2_7);
          s7 += qj * (rd7 - g * rh7);
        }
      }
      phi[i] = phi0 + scale * s0;
      if (i + 1 < nv) phi[i + 1] = phi0 + scale * s1;
      if (i + 2 < nv) phi[i + 2] = phi0 + scale * s2;
      if (i + 3 < nv) phi[i + 3] = phi0 + scale * s3;
      if (i + 4 < nv) phi[i + 4] = phi0 + scale * s4;
      if (i + 5 < nv) phi[i + 5] = phi0 + scale * s5;
      if (i + 6 < nv) phi[i + 6] = phi0 + scale * s6;
      if (i + 7 < nv) phi[i + 7] = phi0 + scale * s7;
    }
  }
}

// gem-potential/ts/region2.f32.nonzero.unroll4.div.block0.ts
var region2_f32_nonzero_unroll4_div_block0_exports = {};
__export(region2_f32_nonzero_unroll4_div_block0_exports, {
  BLOCK: () => BLOCK16,
  K: () => K16,
  kernel: () => kernel16,
  key: () => key16
});
var key16 = "gem-potential.ts.region2.f32.nonzero.unroll4.div.block0";
var K16 = 4;
var BLOCK16 = 0;
function kernel16(a) {
  const vx = a.vx;
  const vy = a.vy;
  const vz = a.vz;
  const nx = a.nx;
  const ny = a.ny;
  const nz = a.nz;
  const ax = a.ax;
  const ay = a.ay;
  const az = a.az;
  const aq = a.aq;
  const phi = a.phi;
  const P = a.params;
  const nv = phi.length;
  const na = aq.length;
  const pp = P.p;
  const ion = P.ionRadius;
  const kappa = P.kappa;
  const beta = P.epsIn / P.epsOut;
  const ab1 = 1 + P.alpha * beta;
  const K0 = P.qScale / (ab1 * P.epsOut);
  const r = P.A + pp;
  const rp = P.A + P.ionRadius;
  let qTot = 0;
  for (let j = 0; j < na; j++) qTot += aq[j];
  const scale = K0 * (1 + P.alpha);
  const phi0 = qTot * K0 * P.alpha * (1 - beta) * (1 / rp * (1 - 1 / (1 + kappa * rp)) - 1 / r);
  {
    const b0 = 0;
    const b1 = na;
    for (let i = 0; i < nv; i += K16) {
      const i0 = i;
      const px0 = vx[i0] + pp * nx[i0];
      const py0 = vy[i0] + pp * ny[i0];
      const pz0 = vz[i0] + pp * nz[i0];
      const ex0 = vx[i0] + ion * nx[i0];
      const ey0 = vy[i0] + ion * ny[i0];
      const ez0 = vz[i0] + ion * nz[i0];
      let s0 = 0;
      const i1 = Math.min(i + 1, nv - 1);
      const px1 = vx[i1] + pp * nx[i1];
      const py1 = vy[i1] + pp * ny[i1];
      const pz1 = vz[i1] + pp * nz[i1];
      const ex1 = vx[i1] + ion * nx[i1];
      const ey1 = vy[i1] + ion * ny[i1];
      const ez1 = vz[i1] + ion * nz[i1];
      let s1 = 0;
      const i2 = Math.min(i + 2, nv - 1);
      const px2 = vx[i2] + pp * nx[i2];
      const py2 = vy[i2] + pp * ny[i2];
      const pz2 = vz[i2] + pp * nz[i2];
      const ex2 = vx[i2] + ion * nx[i2];
      const ey2 = vy[i2] + ion * ny[i2];
      const ez2 = vz[i2] + ion * nz[i2];
      let s2 = 0;
      const i3 = Math.min(i + 3, nv - 1);
      const px3 = vx[i3] + pp * nx[i3];
      const py3 = vy[i3] + pp * ny[i3];
      const pz3 = vz[i3] + pp * nz[i3];
      const ex3 = vx[i3] + ion * nx[i3];
      const ey3 = vy[i3] + ion * ny[i3];
      const ez3 = vz[i3] + ion * nz[i3];
      let s3 = 0;
      for (let j = b0; j < b1; j++) {
        const xj = ax[j];
        const yj = ay[j];
        const zj = az[j];
        const qj = aq[j];
        const dx0 = px0 - xj;
        const dy0 = py0 - yj;
        const dz0 = pz0 - zj;
        const d2_0 = dx0 * dx0 + dy0 * dy0 + dz0 * dz0;
        const rd0 = 1 / Math.sqrt(d2_0);
        const fx0 = ex0 - xj;
        const fy0 = ey0 - yj;
        const fz0 = ez0 - zj;
        const e2_0 = fx0 * fx0 + fy0 * fy0 + fz0 * fz0;
        const re0 = 1 / Math.sqrt(e2_0);
        const dp0 = e2_0 * re0;
        s0 += qj * (rd0 - kappa / (1 + kappa * dp0));
        const dx1 = px1 - xj;
        const dy1 = py1 - yj;
        const dz1 = pz1 - zj;
        const d2_1 = dx1 * dx1 + dy1 * dy1 + dz1 * dz1;
        const rd1 = 1 / Math.sqrt(d2_1);
        const fx1 = ex1 - xj;
        const fy1 = ey1 - yj;
        const fz1 = ez1 - zj;
        const e2_1 = fx1 * fx1 + fy1 * fy1 + fz1 * fz1;
        const re1 = 1 / Math.sqrt(e2_1);
        const dp1 = e2_1 * re1;
        s1 += qj * (rd1 - kappa / (1 + kappa * dp1));
        const dx2 = px2 - xj;
        const dy2 = py2 - yj;
        const dz2 = pz2 - zj;
        const d2_2 = dx2 * dx2 + dy2 * dy2 + dz2 * dz2;
        const rd2 = 1 / Math.sqrt(d2_2);
        const fx2 = ex2 - xj;
        const fy2 = ey2 - yj;
        const fz2 = ez2 - zj;
        const e2_2 = fx2 * fx2 + fy2 * fy2 + fz2 * fz2;
        const re2 = 1 / Math.sqrt(e2_2);
        const dp2 = e2_2 * re2;
        s2 += qj * (rd2 - kappa / (1 + kappa * dp2));
        const dx3 = px3 - xj;
        const dy3 = py3 - yj;
        const dz3 = pz3 - zj;
        const d2_3 = dx3 * dx3 + dy3 * dy3 + dz3 * dz3;
        const rd3 = 1 / Math.sqrt(d2_3);
        const fx3 = ex3 - xj;
        const fy3 = ey3 - yj;
        const fz3 = ez3 - zj;
        const e2_3 = fx3 * fx3 + fy3 * fy3 + fz3 * fz3;
        const re3 = 1 / Math.sqrt(e2_3);
        const dp3 = e2_3 * re3;
        s3 += qj * (rd3 - kappa / (1 + kappa * dp3));
      }
      phi[i] = phi0 + scale * s0;
      if (i + 1 < nv) phi[i + 1] = phi0 + scale * s1;
      if (i + 2 < nv) phi[i + 2] = phi0 + scale * s2;
      if (i + 3 < nv) phi[i + 3] = phi0 + scale * s3;
    }
  }
}

// gem-potential/ts/region2.f32.nonzero.unroll4.nr.block0.ts
var region2_f32_nonzero_unroll4_nr_block0_exports = {};
__export(region2_f32_nonzero_unroll4_nr_block0_exports, {
  BLOCK: () => BLOCK17,
  K: () => K17,
  kernel: () => kernel17,
  key: () => key17
});
var key17 = "gem-potential.ts.region2.f32.nonzero.unroll4.nr.block0";
var K17 = 4;
var BLOCK17 = 0;
var RS_F6 = new Float32Array(1);
var RS_I6 = new Int32Array(RS_F6.buffer);
var RS_C6 = rsqrtTable6();
function rsqrtTable6() {
  const t = new Float64Array(4096);
  for (let k = 0; k < 4096; k++) {
    let c = 0;
    for (const low of [0, 4095]) {
      RS_I6[0] = 1056964608 | k << 12 | low;
      const x = RS_F6[0];
      RS_I6[0] = 1597463007 - (RS_I6[0] >> 1);
      c += 0.5 / (Math.sqrt(x) * RS_F6[0]);
    }
    t[k] = c;
  }
  return t;
}
function kernel17(a) {
  const vx = a.vx;
  const vy = a.vy;
  const vz = a.vz;
  const nx = a.nx;
  const ny = a.ny;
  const nz = a.nz;
  const ax = a.ax;
  const ay = a.ay;
  const az = a.az;
  const aq = a.aq;
  const phi = a.phi;
  const P = a.params;
  const nv = phi.length;
  const na = aq.length;
  const pp = P.p;
  const ion = P.ionRadius;
  const kappa = P.kappa;
  const beta = P.epsIn / P.epsOut;
  const ab1 = 1 + P.alpha * beta;
  const K0 = P.qScale / (ab1 * P.epsOut);
  const r = P.A + pp;
  const rp = P.A + P.ionRadius;
  let qTot = 0;
  for (let j = 0; j < na; j++) qTot += aq[j];
  const scale = K0 * (1 + P.alpha);
  const phi0 = qTot * K0 * P.alpha * (1 - beta) * (1 / rp * (1 - 1 / (1 + kappa * rp)) - 1 / r);
  {
    const b0 = 0;
    const b1 = na;
    for (let i = 0; i < nv; i += K17) {
      const i0 = i;
      const px0 = vx[i0] + pp * nx[i0];
      const py0 = vy[i0] + pp * ny[i0];
      const pz0 = vz[i0] + pp * nz[i0];
      const ex0 = vx[i0] + ion * nx[i0];
      const ey0 = vy[i0] + ion * ny[i0];
      const ez0 = vz[i0] + ion * nz[i0];
      let s0 = 0;
      const i1 = Math.min(i + 1, nv - 1);
      const px1 = vx[i1] + pp * nx[i1];
      const py1 = vy[i1] + pp * ny[i1];
      const pz1 = vz[i1] + pp * nz[i1];
      const ex1 = vx[i1] + ion * nx[i1];
      const ey1 = vy[i1] + ion * ny[i1];
      const ez1 = vz[i1] + ion * nz[i1];
      let s1 = 0;
      const i2 = Math.min(i + 2, nv - 1);
      const px2 = vx[i2] + pp * nx[i2];
      const py2 = vy[i2] + pp * ny[i2];
      const pz2 = vz[i2] + pp * nz[i2];
      const ex2 = vx[i2] + ion * nx[i2];
      const ey2 = vy[i2] + ion * ny[i2];
      const ez2 = vz[i2] + ion * nz[i2];
      let s2 = 0;
      const i3 = Math.min(i + 3, nv - 1);
      const px3 = vx[i3] + pp * nx[i3];
      const py3 = vy[i3] + pp * ny[i3];
      const pz3 = vz[i3] + pp * nz[i3];
      const ex3 = vx[i3] + ion * nx[i3];
      const ey3 = vy[i3] + ion * ny[i3];
      const ez3 = vz[i3] + ion * nz[i3];
      let s3 = 0;
      for (let j = b0; j < b1; j++) {
        const xj = ax[j];
        const yj = ay[j];
        const zj = az[j];
        const qj = aq[j];
        const dx0 = px0 - xj;
        const dy0 = py0 - yj;
        const dz0 = pz0 - zj;
        const d2_0 = dx0 * dx0 + dy0 * dy0 + dz0 * dz0;
        RS_F6[0] = d2_0;
        const rd0b = RS_I6[0];
        RS_I6[0] = 1597463007 - (rd0b >> 1);
        const rd0e = RS_F6[0] * RS_C6[rd0b >>> 12 & 4095];
        const rd0 = rd0e * (1.5 - 0.5 * d2_0 * rd0e * rd0e);
        const fx0 = ex0 - xj;
        const fy0 = ey0 - yj;
        const fz0 = ez0 - zj;
        const e2_0 = fx0 * fx0 + fy0 * fy0 + fz0 * fz0;
        RS_F6[0] = e2_0;
        const re0b = RS_I6[0];
        RS_I6[0] = 1597463007 - (re0b >> 1);
        const re0e = RS_F6[0] * RS_C6[re0b >>> 12 & 4095];
        const re0 = re0e * (1.5 - 0.5 * e2_0 * re0e * re0e);
        const dp0 = e2_0 * re0;
        s0 += qj * (rd0 - kappa / (1 + kappa * dp0));
        const dx1 = px1 - xj;
        const dy1 = py1 - yj;
        const dz1 = pz1 - zj;
        const d2_1 = dx1 * dx1 + dy1 * dy1 + dz1 * dz1;
        RS_F6[0] = d2_1;
        const rd1b = RS_I6[0];
        RS_I6[0] = 1597463007 - (rd1b >> 1);
        const rd1e = RS_F6[0] * RS_C6[rd1b >>> 12 & 4095];
        const rd1 = rd1e * (1.5 - 0.5 * d2_1 * rd1e * rd1e);
        const fx1 = ex1 - xj;
        const fy1 = ey1 - yj;
        const fz1 = ez1 - zj;
        const e2_1 = fx1 * fx1 + fy1 * fy1 + fz1 * fz1;
        RS_F6[0] = e2_1;
        const re1b = RS_I6[0];
        RS_I6[0] = 1597463007 - (re1b >> 1);
        const re1e = RS_F6[0] * RS_C6[re1b >>> 12 & 4095];
        const re1 = re1e * (1.5 - 0.5 * e2_1 * re1e * re1e);
        const dp1 = e2_1 * re1;
        s1 += qj * (rd1 - kappa / (1 + kappa * dp1));
        const dx2 = px2 - xj;
        const dy2 = py2 - yj;
        const dz2 = pz2 - zj;
        const d2_2 = dx2 * dx2 + dy2 * dy2 + dz2 * dz2;
        RS_F6[0] = d2_2;
        const rd2b = RS_I6[0];
        RS_I6[0] = 1597463007 - (rd2b >> 1);
        const rd2e = RS_F6[0] * RS_C6[rd2b >>> 12 & 4095];
        const rd2 = rd2e * (1.5 - 0.5 * d2_2 * rd2e * rd2e);
        const fx2 = ex2 - xj;
        const fy2 = ey2 - yj;
        const fz2 = ez2 - zj;
        const e2_2 = fx2 * fx2 + fy2 * fy2 + fz2 * fz2;
        RS_F6[0] = e2_2;
        const re2b = RS_I6[0];
        RS_I6[0] = 1597463007 - (re2b >> 1);
        const re2e = RS_F6[0] * RS_C6[re2b >>> 12 & 4095];
        const re2 = re2e * (1.5 - 0.5 * e2_2 * re2e * re2e);
        const dp2 = e2_2 * re2;
        s2 += qj * (rd2 - kappa / (1 + kappa * dp2));
        const dx3 = px3 - xj;
        const dy3 = py3 - yj;
        const dz3 = pz3 - zj;
        const d2_3 = dx3 * dx3 + dy3 * dy3 + dz3 * dz3;
        RS_F6[0] = d2_3;
        const rd3b = RS_I6[0];
        RS_I6[0] = 1597463007 - (rd3b >> 1);
        const rd3e = RS_F6[0] * RS_C6[rd3b >>> 12 & 4095];
        const rd3 = rd3e * (1.5 - 0.5 * d2_3 * rd3e * rd3e);
        const fx3 = ex3 - xj;
        const fy3 = ey3 - yj;
        const fz3 = ez3 - zj;
        const e2_3 = fx3 * fx3 + fy3 * fy3 + fz3 * fz3;
        RS_F6[0] = e2_3;
        const re3b = RS_I6[0];
        RS_I6[0] = 1597463007 - (re3b >> 1);
        const re3e = RS_F6[0] * RS_C6[re3b >>> 12 & 4095];
        const re3 = re3e * (1.5 - 0.5 * e2_3 * re3e * re3e);
        const dp3 = e2_3 * re3;
        s3 += qj * (rd3 - kappa / (1 + kappa * dp3));
      }
      phi[i] = phi0 + scale * s0;
      if (i + 1 < nv) phi[i + 1] = phi0 + scale * s1;
      if (i + 2 < nv) phi[i + 2] = phi0 + scale * s2;
      if (i + 3 < nv) phi[i + 3] = phi0 + scale * s3;
    }
  }
}

// gem-potential/ts/region2.f32.zero.unroll1.div.block0.ts
var region2_f32_zero_unroll1_div_block0_exports = {};
__export(region2_f32_zero_unroll1_div_block0_exports, {
  BLOCK: () => BLOCK18,
  K: () => K18,
  kernel: () => kernel18,
  key: () => key18
});
var key18 = "gem-potential.ts.region2.f32.zero.unroll1.div.block0";
var K18 = 1;
var BLOCK18 = 0;
function kernel18(a) {
  const vx = a.vx;
  const vy = a.vy;
  const vz = a.vz;
  const nx = a.nx;
  const ny = a.ny;
  const nz = a.nz;
  const ax = a.ax;
  const ay = a.ay;
  const az = a.az;
  const aq = a.aq;
  const phi = a.phi;
  const P = a.params;
  const nv = phi.length;
  const na = aq.length;
  const pp = P.p;
  const kappa = 0;
  const beta = P.epsIn / P.epsOut;
  const ab1 = 1 + P.alpha * beta;
  const K0 = P.qScale / (ab1 * P.epsOut);
  const r = P.A + pp;
  const rp = P.A + P.ionRadius;
  let qTot = 0;
  for (let j = 0; j < na; j++) qTot += aq[j];
  const scale = K0 * (1 + P.alpha);
  const phi0 = qTot * K0 * P.alpha * (1 - beta) * (1 / rp * (1 - 1 / (1 + kappa * rp)) - 1 / r);
  {
    const b0 = 0;
    const b1 = na;
    for (let i = 0; i < nv; i += K18) {
      const i0 = i;
      const px0 = vx[i0] + pp * nx[i0];
      const py0 = vy[i0] + pp * ny[i0];
      const pz0 = vz[i0] + pp * nz[i0];
      let s0 = 0;
      for (let j = b0; j < b1; j++) {
        const xj = ax[j];
        const yj = ay[j];
        const zj = az[j];
        const qj = aq[j];
        const dx0 = px0 - xj;
        const dy0 = py0 - yj;
        const dz0 = pz0 - zj;
        const d2_0 = dx0 * dx0 + dy0 * dy0 + dz0 * dz0;
        const rd0 = 1 / Math.sqrt(d2_0);
        s0 += qj * rd0;
      }
      phi[i] = phi0 + scale * s0;
    }
  }
}

// gem-potential/ts/region2.f32.zero.unroll4.div.block0.ts
var region2_f32_zero_unroll4_div_block0_exports = {};
__export(region2_f32_zero_unroll4_div_block0_exports, {
  BLOCK: () => BLOCK19,
  K: () => K19,
  kernel: () => kernel19,
  key: () => key19
});
var key19 = "gem-potential.ts.region2.f32.zero.unroll4.div.block0";
var K19 = 4;
var BLOCK19 = 0;
function kernel19(a) {
  const vx = a.vx;
  const vy = a.vy;
  const vz = a.vz;
  const nx = a.nx;
  const ny = a.ny;
  const nz = a.nz;
  const ax = a.ax;
  const ay = a.ay;
  const az = a.az;
  const aq = a.aq;
  const phi = a.phi;
  const P = a.params;
  const nv = phi.length;
  const na = aq.length;
  const pp = P.p;
  const kappa = 0;
  const beta = P.epsIn / P.epsOut;
  const ab1 = 1 + P.alpha * beta;
  const K0 = P.qScale / (ab1 * P.epsOut);
  const r = P.A + pp;
  const rp = P.A + P.ionRadius;
  let qTot = 0;
  for (let j = 0; j < na; j++) qTot += aq[j];
  const scale = K0 * (1 + P.alpha);
  const phi0 = qTot * K0 * P.alpha * (1 - beta) * (1 / rp * (1 - 1 / (1 + kappa * rp)) - 1 / r);
  {
    const b0 = 0;
    const b1 = na;
    for (let i = 0; i < nv; i += K19) {
      const i0 = i;
      const px0 = vx[i0] + pp * nx[i0];
      const py0 = vy[i0] + pp * ny[i0];
      const pz0 = vz[i0] + pp * nz[i0];
      let s0 = 0;
      const i1 = Math.min(i + 1, nv - 1);
      const px1 = vx[i1] + pp * nx[i1];
      const py1 = vy[i1] + pp * ny[i1];
      const pz1 = vz[i1] + pp * nz[i1];
      let s1 = 0;
      const i2 = Math.min(i + 2, nv - 1);
      const px2 = vx[i2] + pp * nx[i2];
      const py2 = vy[i2] + pp * ny[i2];
      const pz2 = vz[i2] + pp * nz[i2];
      let s2 = 0;
      const i3 = Math.min(i + 3, nv - 1);
      const px3 = vx[i3] + pp * nx[i3];
      const py3 = vy[i3] + pp * ny[i3];
      const pz3 = vz[i3] + pp * nz[i3];
      let s3 = 0;
      for (let j = b0; j < b1; j++) {
        const xj = ax[j];
        const yj = ay[j];
        const zj = az[j];
        const qj = aq[j];
        const dx0 = px0 - xj;
        const dy0 = py0 - yj;
        const dz0 = pz0 - zj;
        const d2_0 = dx0 * dx0 + dy0 * dy0 + dz0 * dz0;
        const rd0 = 1 / Math.sqrt(d2_0);
        s0 += qj * rd0;
        const dx1 = px1 - xj;
        const dy1 = py1 - yj;
        const dz1 = pz1 - zj;
        const d2_1 = dx1 * dx1 + dy1 * dy1 + dz1 * dz1;
        const rd1 = 1 / Math.sqrt(d2_1);
        s1 += qj * rd1;
        const dx2 = px2 - xj;
        const dy2 = py2 - yj;
        const dz2 = pz2 - zj;
        const d2_2 = dx2 * dx2 + dy2 * dy2 + dz2 * dz2;
        const rd2 = 1 / Math.sqrt(d2_2);
        s2 += qj * rd2;
        const dx3 = px3 - xj;
        const dy3 = py3 - yj;
        const dz3 = pz3 - zj;
        const d2_3 = dx3 * dx3 + dy3 * dy3 + dz3 * dz3;
        const rd3 = 1 / Math.sqrt(d2_3);
        s3 += qj * rd3;
      }
      phi[i] = phi0 + scale * s0;
      if (i + 1 < nv) phi[i + 1] = phi0 + scale * s1;
      if (i + 2 < nv) phi[i + 2] = phi0 + scale * s2;
      if (i + 3 < nv) phi[i + 3] = phi0 + scale * s3;
    }
  }
}

// gem-potential/ts/region2.f64.nonzero.unroll4.div.block0.ts
var region2_f64_nonzero_unroll4_div_block0_exports = {};
__export(region2_f64_nonzero_unroll4_div_block0_exports, {
  BLOCK: () => BLOCK20,
  K: () => K20,
  kernel: () => kernel20,
  key: () => key20
});
var key20 = "gem-potential.ts.region2.f64.nonzero.unroll4.div.block0";
var K20 = 4;
var BLOCK20 = 0;
function kernel20(a) {
  const vx = a.vx;
  const vy = a.vy;
  const vz = a.vz;
  const nx = a.nx;
  const ny = a.ny;
  const nz = a.nz;
  const ax = a.ax;
  const ay = a.ay;
  const az = a.az;
  const aq = a.aq;
  const phi = a.phi;
  const P = a.params;
  const nv = phi.length;
  const na = aq.length;
  const pp = P.p;
  const ion = P.ionRadius;
  const kappa = P.kappa;
  const beta = P.epsIn / P.epsOut;
  const ab1 = 1 + P.alpha * beta;
  const K0 = P.qScale / (ab1 * P.epsOut);
  const r = P.A + pp;
  const rp = P.A + P.ionRadius;
  let qTot = 0;
  for (let j = 0; j < na; j++) qTot += aq[j];
  const scale = K0 * (1 + P.alpha);
  const phi0 = qTot * K0 * P.alpha * (1 - beta) * (1 / rp * (1 - 1 / (1 + kappa * rp)) - 1 / r);
  {
    const b0 = 0;
    const b1 = na;
    for (let i = 0; i < nv; i += K20) {
      const i0 = i;
      const px0 = vx[i0] + pp * nx[i0];
      const py0 = vy[i0] + pp * ny[i0];
      const pz0 = vz[i0] + pp * nz[i0];
      const ex0 = vx[i0] + ion * nx[i0];
      const ey0 = vy[i0] + ion * ny[i0];
      const ez0 = vz[i0] + ion * nz[i0];
      let s0 = 0;
      const i1 = Math.min(i + 1, nv - 1);
      const px1 = vx[i1] + pp * nx[i1];
      const py1 = vy[i1] + pp * ny[i1];
      const pz1 = vz[i1] + pp * nz[i1];
      const ex1 = vx[i1] + ion * nx[i1];
      const ey1 = vy[i1] + ion * ny[i1];
      const ez1 = vz[i1] + ion * nz[i1];
      let s1 = 0;
      const i2 = Math.min(i + 2, nv - 1);
      const px2 = vx[i2] + pp * nx[i2];
      const py2 = vy[i2] + pp * ny[i2];
      const pz2 = vz[i2] + pp * nz[i2];
      const ex2 = vx[i2] + ion * nx[i2];
      const ey2 = vy[i2] + ion * ny[i2];
      const ez2 = vz[i2] + ion * nz[i2];
      let s2 = 0;
      const i3 = Math.min(i + 3, nv - 1);
      const px3 = vx[i3] + pp * nx[i3];
      const py3 = vy[i3] + pp * ny[i3];
      const pz3 = vz[i3] + pp * nz[i3];
      const ex3 = vx[i3] + ion * nx[i3];
      const ey3 = vy[i3] + ion * ny[i3];
      const ez3 = vz[i3] + ion * nz[i3];
      let s3 = 0;
      for (let j = b0; j < b1; j++) {
        const xj = ax[j];
        const yj = ay[j];
        const zj = az[j];
        const qj = aq[j];
        const dx0 = px0 - xj;
        const dy0 = py0 - yj;
        const dz0 = pz0 - zj;
        const d2_0 = dx0 * dx0 + dy0 * dy0 + dz0 * dz0;
        const rd0 = 1 / Math.sqrt(d2_0);
        const fx0 = ex0 - xj;
        const fy0 = ey0 - yj;
        const fz0 = ez0 - zj;
        const e2_0 = fx0 * fx0 + fy0 * fy0 + fz0 * fz0;
        const re0 = 1 / Math.sqrt(e2_0);
        const dp0 = e2_0 * re0;
        s0 += qj * (rd0 - kappa / (1 + kappa * dp0));
        const dx1 = px1 - xj;
        const dy1 = py1 - yj;
        const dz1 = pz1 - zj;
        const d2_1 = dx1 * dx1 + dy1 * dy1 + dz1 * dz1;
        const rd1 = 1 / Math.sqrt(d2_1);
        const fx1 = ex1 - xj;
        const fy1 = ey1 - yj;
        const fz1 = ez1 - zj;
        const e2_1 = fx1 * fx1 + fy1 * fy1 + fz1 * fz1;
        const re1 = 1 / Math.sqrt(e2_1);
        const dp1 = e2_1 * re1;
        s1 += qj * (rd1 - kappa / (1 + kappa * dp1));
        const dx2 = px2 - xj;
        const dy2 = py2 - yj;
        const dz2 = pz2 - zj;
        const d2_2 = dx2 * dx2 + dy2 * dy2 + dz2 * dz2;
        const rd2 = 1 / Math.sqrt(d2_2);
        const fx2 = ex2 - xj;
        const fy2 = ey2 - yj;
        const fz2 = ez2 - zj;
        const e2_2 = fx2 * fx2 + fy2 * fy2 + fz2 * fz2;
        const re2 = 1 / Math.sqrt(e2_2);
        const dp2 = e2_2 * re2;
        s2 += qj * (rd2 - kappa / (1 + kappa * dp2));
        const dx3 = px3 - xj;
        const dy3 = py3 - yj;
        const dz3 = pz3 - zj;
        const d2_3 = dx3 * dx3 + dy3 * dy3 + dz3 * dz3;
        const rd3 = 1 / Math.sqrt(d2_3);
        const fx3 = ex3 - xj;
        const fy3 = ey3 - yj;
        const fz3 = ez3 - zj;
        const e2_3 = fx3 * fx3 + fy3 * fy3 + fz3 * fz3;
        const re3 = 1 / Math.sqrt(e2_3);
        const dp3 = e2_3 * re3;
        s3 += qj * (rd3 - kappa / (1 + kappa * dp3));
      }
      phi[i] = phi0 + scale * s0;
      if (i + 1 < nv) phi[i + 1] = phi0 + scale * s1;
      if (i + 2 < nv) phi[i + 2] = phi0 + scale * s2;
      if (i + 3 < nv) phi[i + 3] = phi0 + scale * s3;
    }
  }
}

// gem-potential/ts/region2.f64.nonzero.unroll4.div.block256.ts
var region2_f64_nonzero_unroll4_div_block256_exports = {};
__export(region2_f64_nonzero_unroll4_div_block256_exports, {
  BLOCK: () => BLOCK21,
  K: () => K21,
  kernel: () => kernel21,
  key: () => key21
});
var key21 = "gem-potential.ts.region2.f64.nonzero.unroll4.div.block256";
var K21 = 4;
var BLOCK21 = 256;
function kernel21(a) {
  const vx = a.vx;
  const vy = a.vy;
  const vz = a.vz;
  const nx = a.nx;
  const ny = a.ny;
  const nz = a.nz;
  const ax = a.ax;
  const ay = a.ay;
  const az = a.az;
  const aq = a.aq;
  const phi = a.phi;
  const P = a.params;
  const nv = phi.length;
  const na = aq.length;
  const pp = P.p;
  const ion = P.ionRadius;
  const kappa = P.kappa;
  const beta = P.epsIn / P.epsOut;
  const ab1 = 1 + P.alpha * beta;
  const K0 = P.qScale / (ab1 * P.epsOut);
  const r = P.A + pp;
  const rp = P.A + P.ionRadius;
  let qTot = 0;
  for (let j = 0; j < na; j++) qTot += aq[j];
  const scale = K0 * (1 + P.alpha);
  const phi0 = qTot * K0 * P.alpha * (1 - beta) * (1 / rp * (1 - 1 / (1 + kappa * rp)) - 1 / r);
  for (let i = 0; i < nv; i++) phi[i] = phi0;
  for (let b0 = 0; b0 < na; b0 += BLOCK21) {
    const b1 = Math.min(b0 + BLOCK21, na);
    for (let i = 0; i < nv; i += K21) {
      const i0 = i;
      const px0 = vx[i0] + pp * nx[i0];
      const py0 = vy[i0] + pp * ny[i0];
      const pz0 = vz[i0] + pp * nz[i0];
      const ex0 = vx[i0] + ion * nx[i0];
      const ey0 = vy[i0] + ion * ny[i0];
      const ez0 = vz[i0] + ion * nz[i0];
      let s0 = 0;
      const i1 = Math.min(i + 1, nv - 1);
      const px1 = vx[i1] + pp * nx[i1];
      const py1 = vy[i1] + pp * ny[i1];
      const pz1 = vz[i1] + pp * nz[i1];
      const ex1 = vx[i1] + ion * nx[i1];
      const ey1 = vy[i1] + ion * ny[i1];
      const ez1 = vz[i1] + ion * nz[i1];
      let s1 = 0;
      const i2 = Math.min(i + 2, nv - 1);
      const px2 = vx[i2] + pp * nx[i2];
      const py2 = vy[i2] + pp * ny[i2];
      const pz2 = vz[i2] + pp * nz[i2];
      const ex2 = vx[i2] + ion * nx[i2];
      const ey2 = vy[i2] + ion * ny[i2];
      const ez2 = vz[i2] + ion * nz[i2];
      let s2 = 0;
      const i3 = Math.min(i + 3, nv - 1);
      const px3 = vx[i3] + pp * nx[i3];
      const py3 = vy[i3] + pp * ny[i3];
      const pz3 = vz[i3] + pp * nz[i3];
      const ex3 = vx[i3] + ion * nx[i3];
      const ey3 = vy[i3] + ion * ny[i3];
      const ez3 = vz[i3] + ion * nz[i3];
      let s3 = 0;
      for (let j = b0; j < b1; j++) {
        const xj = ax[j];
        const yj = ay[j];
        const zj = az[j];
        const qj = aq[j];
        const dx0 = px0 - xj;
        const dy0 = py0 - yj;
        const dz0 = pz0 - zj;
        const d2_0 = dx0 * dx0 + dy0 * dy0 + dz0 * dz0;
        const rd0 = 1 / Math.sqrt(d2_0);
        const fx0 = ex0 - xj;
        const fy0 = ey0 - yj;
        const fz0 = ez0 - zj;
        const e2_0 = fx0 * fx0 + fy0 * fy0 + fz0 * fz0;
        const re0 = 1 / Math.sqrt(e2_0);
        const dp0 = e2_0 * re0;
        s0 += qj * (rd0 - kappa / (1 + kappa * dp0));
        const dx1 = px1 - xj;
        const dy1 = py1 - yj;
        const dz1 = pz1 - zj;
        const d2_1 = dx1 * dx1 + dy1 * dy1 + dz1 * dz1;
        const rd1 = 1 / Math.sqrt(d2_1);
        const fx1 = ex1 - xj;
        const fy1 = ey1 - yj;
        const fz1 = ez1 - zj;
        const e2_1 = fx1 * fx1 + fy1 * fy1 + fz1 * fz1;
        const re1 = 1 / Math.sqrt(e2_1);
        const dp1 = e2_1 * re1;
        s1 += qj * (rd1 - kappa / (1 + kappa * dp1));
        const dx2 = px2 - xj;
        const dy2 = py2 - yj;
        const dz2 = pz2 - zj;
        const d2_2 = dx2 * dx2 + dy2 * dy2 + dz2 * dz2;
        const rd2 = 1 / Math.sqrt(d2_2);
        const fx2 = ex2 - xj;
        const fy2 = ey2 - yj;
        const fz2 = ez2 - zj;
        const e2_2 = fx2 * fx2 + fy2 * fy2 + fz2 * fz2;
        const re2 = 1 / Math.sqrt(e2_2);
        const dp2 = e2_2 * re2;
        s2 += qj * (rd2 - kappa / (1 + kappa * dp2));
        const dx3 = px3 - xj;
        const dy3 = py3 - yj;
        const dz3 = pz3 - zj;
        const d2_3 = dx3 * dx3 + dy3 * dy3 + dz3 * dz3;
        const rd3 = 1 / Math.sqrt(d2_3);
        const fx3 = ex3 - xj;
        const fy3 = ey3 - yj;
        const fz3 = ez3 - zj;
        const e2_3 = fx3 * fx3 + fy3 * fy3 + fz3 * fz3;
        const re3 = 1 / Math.sqrt(e2_3);
        const dp3 = e2_3 * re3;
        s3 += qj * (rd3 - kappa / (1 + kappa * dp3));
      }
      phi[i] += scale * s0;
      if (i + 1 < nv) phi[i + 1] += scale * s1;
      if (i + 2 < nv) phi[i + 2] += scale * s2;
      if (i + 3 < nv) phi[i + 3] += scale * s3;
    }
  }
}

// gem-potential/ts/region2.f64.zero.unroll1.div.block0.ts
var region2_f64_zero_unroll1_div_block0_exports = {};
__export(region2_f64_zero_unroll1_div_block0_exports, {
  BLOCK: () => BLOCK22,
  K: () => K22,
  kernel: () => kernel22,
  key: () => key22
});
var key22 = "gem-potential.ts.region2.f64.zero.unroll1.div.block0";
var K22 = 1;
var BLOCK22 = 0;
function kernel22(a) {
  const vx = a.vx;
  const vy = a.vy;
  const vz = a.vz;
  const nx = a.nx;
  const ny = a.ny;
  const nz = a.nz;
  const ax = a.ax;
  const ay = a.ay;
  const az = a.az;
  const aq = a.aq;
  const phi = a.phi;
  const P = a.params;
  const nv = phi.length;
  const na = aq.length;
  const pp = P.p;
  const kappa = 0;
  const beta = P.epsIn / P.epsOut;
  const ab1 = 1 + P.alpha * beta;
  const K0 = P.qScale / (ab1 * P.epsOut);
  const r = P.A + pp;
  const rp = P.A + P.ionRadius;
  let qTot = 0;
  for (let j = 0; j < na; j++) qTot += aq[j];
  const scale = K0 * (1 + P.alpha);
  const phi0 = qTot * K0 * P.alpha * (1 - beta) * (1 / rp * (1 - 1 / (1 + kappa * rp)) - 1 / r);
  {
    const b0 = 0;
    const b1 = na;
    for (let i = 0; i < nv; i += K22) {
      const i0 = i;
      const px0 = vx[i0] + pp * nx[i0];
      const py0 = vy[i0] + pp * ny[i0];
      const pz0 = vz[i0] + pp * nz[i0];
      let s0 = 0;
      for (let j = b0; j < b1; j++) {
        const xj = ax[j];
        const yj = ay[j];
        const zj = az[j];
        const qj = aq[j];
        const dx0 = px0 - xj;
        const dy0 = py0 - yj;
        const dz0 = pz0 - zj;
        const d2_0 = dx0 * dx0 + dy0 * dy0 + dz0 * dz0;
        const rd0 = 1 / Math.sqrt(d2_0);
        s0 += qj * rd0;
      }
      phi[i] = phi0 + scale * s0;
    }
  }
}

// gem-potential/ts/region2.f64.zero.unroll4.div.block0.ts
var region2_f64_zero_unroll4_div_block0_exports = {};
__export(region2_f64_zero_unroll4_div_block0_exports, {
  BLOCK: () => BLOCK23,
  K: () => K23,
  kernel: () => kernel23,
  key: () => key23
});
var key23 = "gem-potential.ts.region2.f64.zero.unroll4.div.block0";
var K23 = 4;
var BLOCK23 = 0;
function kernel23(a) {
  const vx = a.vx;
  const vy = a.vy;
  const vz = a.vz;
  const nx = a.nx;
  const ny = a.ny;
  const nz = a.nz;
  const ax = a.ax;
  const ay = a.ay;
  const az = a.az;
  const aq = a.aq;
  const phi = a.phi;
  const P = a.params;
  const nv = phi.length;
  const na = aq.length;
  const pp = P.p;
  const kappa = 0;
  const beta = P.epsIn / P.epsOut;
  const ab1 = 1 + P.alpha * beta;
  const K0 = P.qScale / (ab1 * P.epsOut);
  const r = P.A + pp;
  const rp = P.A + P.ionRadius;
  let qTot = 0;
  for (let j = 0; j < na; j++) qTot += aq[j];
  const scale = K0 * (1 + P.alpha);
  const phi0 = qTot * K0 * P.alpha * (1 - beta) * (1 / rp * (1 - 1 / (1 + kappa * rp)) - 1 / r);
  {
    const b0 = 0;
    const b1 = na;
    for (let i = 0; i < nv; i += K23) {
      const i0 = i;
      const px0 = vx[i0] + pp * nx[i0];
      const py0 = vy[i0] + pp * ny[i0];
      const pz0 = vz[i0] + pp * nz[i0];
      let s0 = 0;
      const i1 = Math.min(i + 1, nv - 1);
      const px1 = vx[i1] + pp * nx[i1];
      const py1 = vy[i1] + pp * ny[i1];
      const pz1 = vz[i1] + pp * nz[i1];
      let s1 = 0;
      const i2 = Math.min(i + 2, nv - 1);
      const px2 = vx[i2] + pp * nx[i2];
      const py2 = vy[i2] + pp * ny[i2];
      const pz2 = vz[i2] + pp * nz[i2];
      let s2 = 0;
      const i3 = Math.min(i + 3, nv - 1);
      const px3 = vx[i3] + pp * nx[i3];
      const py3 = vy[i3] + pp * ny[i3];
      const pz3 = vz[i3] + pp * nz[i3];
      let s3 = 0;
      for (let j = b0; j < b1; j++) {
        const xj = ax[j];
        const yj = ay[j];
        const zj = az[j];
        const qj = aq[j];
        const dx0 = px0 - xj;
        const dy0 = py0 - yj;
        const dz0 = pz0 - zj;
        const d2_0 = dx0 * dx0 + dy0 * dy0 + dz0 * dz0;
        const rd0 = 1 / Math.sqrt(d2_0);
        s0 += qj * rd0;
        const dx1 = px1 - xj;
        const dy1 = py1 - yj;
        const dz1 = pz1 - zj;
        const d2_1 = dx1 * dx1 + dy1 * dy1 + dz1 * dz1;
        const rd1 = 1 / Math.sqrt(d2_1);
        s1 += qj * rd1;
        const dx2 = px2 - xj;
        const dy2 = py2 - yj;
        const dz2 = pz2 - zj;
        const d2_2 = dx2 * dx2 + dy2 * dy2 + dz2 * dz2;
        const rd2 = 1 / Math.sqrt(d2_2);
        s2 += qj * rd2;
        const dx3 = px3 - xj;
        const dy3 = py3 - yj;
        const dz3 = pz3 - zj;
        const d2_3 = dx3 * dx3 + dy3 * dy3 + dz3 * dz3;
        const rd3 = 1 / Math.sqrt(d2_3);
        s3 += qj * rd3;
      }
      phi[i] = phi0 + scale * s0;
      if (i + 1 < nv) phi[i + 1] = phi0 + scale * s1;
      if (i + 2 < nv) phi[i + 2] = phi0 + scale * s2;
      if (i + 3 < nv) phi[i + 3] = phi0 + scale * s3;
    }
  }
}

// gem-potential/ts/region3.f32.nonzero.unroll4.div.block0.ts
var region3_f32_nonzero_unroll4_div_block0_exports = {};
__export(region3_f32_nonzero_unroll4_div_block0_exports, {
  BLOCK: () => BLOCK24,
  K: () => K24,
  kernel: () => kernel24,
  key: () => key24
});
var key24 = "gem-potential.ts.region3.f32.nonzero.unroll4.div.block0";
var K24 = 4;
var BLOCK24 = 0;
function kernel24(a) {
  const vx = a.vx;
  const vy = a.vy;
  const vz = a.vz;
  const nx = a.nx;
  const ny = a.ny;
  const nz = a.nz;
  const ax = a.ax;
  const ay = a.ay;
  const az = a.az;
  const aq = a.aq;
  const phi = a.phi;
  const P = a.params;
  const nv = phi.length;
  const na = aq.length;
  const pp = P.p;
  const ion = P.ionRadius;
  const kappa = P.kappa;
  const beta = P.epsIn / P.epsOut;
  const ab1 = 1 + P.alpha * beta;
  const K0 = P.qScale / (ab1 * P.epsOut);
  const r = P.A + pp;
  const rp = P.A + P.ionRadius;
  let qTot = 0;
  for (let j = 0; j < na; j++) qTot += aq[j];
  const scale = K0 * (1 + P.alpha);
  const phi0 = -(qTot * K0 * P.alpha * (1 - beta) * Math.exp(-kappa * (r - rp))) / (r * (1 + kappa * rp));
  {
    const b0 = 0;
    const b1 = na;
    for (let i = 0; i < nv; i += K24) {
      const i0 = i;
      const px0 = vx[i0] + pp * nx[i0];
      const py0 = vy[i0] + pp * ny[i0];
      const pz0 = vz[i0] + pp * nz[i0];
      const ex0 = vx[i0] + ion * nx[i0];
      const ey0 = vy[i0] + ion * ny[i0];
      const ez0 = vz[i0] + ion * nz[i0];
      let s0 = 0;
      const i1 = Math.min(i + 1, nv - 1);
      const px1 = vx[i1] + pp * nx[i1];
      const py1 = vy[i1] + pp * ny[i1];
      const pz1 = vz[i1] + pp * nz[i1];
      const ex1 = vx[i1] + ion * nx[i1];
      const ey1 = vy[i1] + ion * ny[i1];
      const ez1 = vz[i1] + ion * nz[i1];
      let s1 = 0;
      const i2 = Math.min(i + 2, nv - 1);
      const px2 = vx[i2] + pp * nx[i2];
      const py2 = vy[i2] + pp * ny[i2];
      const pz2 = vz[i2] + pp * nz[i2];
      const ex2 = vx[i2] + ion * nx[i2];
      const ey2 = vy[i2] + ion * ny[i2];
      const ez2 = vz[i2] + ion * nz[i2];
      let s2 = 0;
      const i3 = Math.min(i + 3, nv - 1);
      const px3 = vx[i3] + pp * nx[i3];
      const py3 = vy[i3] + pp * ny[i3];
      const pz3 = vz[i3] + pp * nz[i3];
      const ex3 = vx[i3] + ion * nx[i3];
      const ey3 = vy[i3] + ion * ny[i3];
      const ez3 = vz[i3] + ion * nz[i3];
      let s3 = 0;
      for (let j = b0; j < b1; j++) {
        const xj = ax[j];
        const yj = ay[j];
        const zj = az[j];
        const qj = aq[j];
        const dx0 = px0 - xj;
        const dy0 = py0 - yj;
        const dz0 = pz0 - zj;
        const d2_0 = dx0 * dx0 + dy0 * dy0 + dz0 * dz0;
        const rd0 = 1 / Math.sqrt(d2_0);
        const fx0 = ex0 - xj;
        const fy0 = ey0 - yj;
        const fz0 = ez0 - zj;
        const e2_0 = fx0 * fx0 + fy0 * fy0 + fz0 * fz0;
        const re0 = 1 / Math.sqrt(e2_0);
        const dp0 = e2_0 * re0;
        s0 += qj * rd0 * Math.exp(kappa * (dp0 - d2_0 * rd0)) / (1 + kappa * dp0);
        const dx1 = px1 - xj;
        const dy1 = py1 - yj;
        const dz1 = pz1 - zj;
        const d2_1 = dx1 * dx1 + dy1 * dy1 + dz1 * dz1;
        const rd1 = 1 / Math.sqrt(d2_1);
        const fx1 = ex1 - xj;
        const fy1 = ey1 - yj;
        const fz1 = ez1 - zj;
        const e2_1 = fx1 * fx1 + fy1 * fy1 + fz1 * fz1;
        const re1 = 1 / Math.sqrt(e2_1);
        const dp1 = e2_1 * re1;
        s1 += qj * rd1 * Math.exp(kappa * (dp1 - d2_1 * rd1)) / (1 + kappa * dp1);
        const dx2 = px2 - xj;
        const dy2 = py2 - yj;
        const dz2 = pz2 - zj;
        const d2_2 = dx2 * dx2 + dy2 * dy2 + dz2 * dz2;
        const rd2 = 1 / Math.sqrt(d2_2);
        const fx2 = ex2 - xj;
        const fy2 = ey2 - yj;
        const fz2 = ez2 - zj;
        const e2_2 = fx2 * fx2 + fy2 * fy2 + fz2 * fz2;
        const re2 = 1 / Math.sqrt(e2_2);
        const dp2 = e2_2 * re2;
        s2 += qj * rd2 * Math.exp(kappa * (dp2 - d2_2 * rd2)) / (1 + kappa * dp2);
        const dx3 = px3 - xj;
        const dy3 = py3 - yj;
        const dz3 = pz3 - zj;
        const d2_3 = dx3 * dx3 + dy3 * dy3 + dz3 * dz3;
        const rd3 = 1 / Math.sqrt(d2_3);
        const fx3 = ex3 - xj;
        const fy3 = ey3 - yj;
        const fz3 = ez3 - zj;
        const e2_3 = fx3 * fx3 + fy3 * fy3 + fz3 * fz3;
        const re3 = 1 / Math.sqrt(e2_3);
        const dp3 = e2_3 * re3;
        s3 += qj * rd3 * Math.exp(kappa * (dp3 - d2_3 * rd3)) / (1 + kappa * dp3);
      }
      phi[i] = phi0 + scale * s0;
      if (i + 1 < nv) phi[i + 1] = phi0 + scale * s1;
      if (i + 2 < nv) phi[i + 2] = phi0 + scale * s2;
      if (i + 3 < nv) phi[i + 3] = phi0 + scale * s3;
    }
  }
}

// gem-potential/ts/region3.f32.zero.unroll1.div.block0.ts
var region3_f32_zero_unroll1_div_block0_exports = {};
__export(region3_f32_zero_unroll1_div_block0_exports, {
  BLOCK: () => BLOCK25,
  K: () => K25,
  kernel: () => kernel25,
  key: () => key25
});
var key25 = "gem-potential.ts.region3.f32.zero.unroll1.div.block0";
var K25 = 1;
var BLOCK25 = 0;
function kernel25(a) {
  const vx = a.vx;
  const vy = a.vy;
  const vz = a.vz;
  const nx = a.nx;
  const ny = a.ny;
  const nz = a.nz;
  const ax = a.ax;
  const ay = a.ay;
  const az = a.az;
  const aq = a.aq;
  const phi = a.phi;
  const P = a.params;
  const nv = phi.length;
  const na = aq.length;
  const pp = P.p;
  const kappa = 0;
  const beta = P.epsIn / P.epsOut;
  const ab1 = 1 + P.alpha * beta;
  const K0 = P.qScale / (ab1 * P.epsOut);
  const r = P.A + pp;
  const rp = P.A + P.ionRadius;
  let qTot = 0;
  for (let j = 0; j < na; j++) qTot += aq[j];
  const scale = K0 * (1 + P.alpha);
  const phi0 = -(qTot * K0 * P.alpha * (1 - beta) * Math.exp(-kappa * (r - rp))) / (r * (1 + kappa * rp));
  {
    const b0 = 0;
    const b1 = na;
    for (let i = 0; i < nv; i += K25) {
      const i0 = i;
      const px0 = vx[i0] + pp * nx[i0];
      const py0 = vy[i0] + pp * ny[i0];
      const pz0 = vz[i0] + pp * nz[i0];
      let s0 = 0;
      for (let j = b0; j < b1; j++) {
        const xj = ax[j];
        const yj = ay[j];
        const zj = az[j];
        const qj = aq[j];
        const dx0 = px0 - xj;
        const dy0 = py0 - yj;
        const dz0 = pz0 - zj;
        const d2_0 = dx0 * dx0 + dy0 * dy0 + dz0 * dz0;
        const rd0 = 1 / Math.sqrt(d2_0);
        s0 += qj * rd0;
      }
      phi[i] = phi0 + scale * s0;
    }
  }
}

// gem-potential/ts/region3.f32.zero.unroll4.div.block0.ts
var region3_f32_zero_unroll4_div_block0_exports = {};
__export(region3_f32_zero_unroll4_div_block0_exports, {
  BLOCK: () => BLOCK26,
  K: () => K26,
  kernel: () => kernel26,
  key: () => key26
});
var key26 = "gem-potential.ts.region3.f32.zero.unroll4.div.block0";
var K26 = 4;
var BLOCK26 = 0;
function kernel26(a) {
  const vx = a.vx;
  const vy = a.vy;
  const vz = a.vz;
  const nx = a.nx;
  const ny = a.ny;
  const nz = a.nz;
  const ax = a.ax;
  const ay = a.ay;
  const az = a.az;
  const aq = a.aq;
  const phi = a.phi;
  const P = a.params;
  const nv = phi.length;
  const na = aq.length;
  const pp = P.p;
  const kappa = 0;
  const beta = P.epsIn / P.epsOut;
  const ab1 = 1 + P.alpha * beta;
  const K0 = P.qScale / (ab1 * P.epsOut);
  const r = P.A + pp;
  const rp = P.A + P.ionRadius;
  let qTot = 0;
  for (let j = 0; j < na; j++) qTot += aq[j];
  const scale = K0 * (1 + P.alpha);
  const phi0 = -(qTot * K0 * P.alpha * (1 - beta) * Math.exp(-kappa * (r - rp))) / (r * (1 + kappa * rp));
  {
    const b0 = 0;
    const b1 = na;
    for (let i = 0; i < nv; i += K26) {
      const i0 = i;
      const px0 = vx[i0] + pp * nx[i0];
      const py0 = vy[i0] + pp * ny[i0];
      const pz0 = vz[i0] + pp * nz[i0];
      let s0 = 0;
      const i1 = Math.min(i + 1, nv - 1);
      const px1 = vx[i1] + pp * nx[i1];
      const py1 = vy[i1] + pp * ny[i1];
      const pz1 = vz[i1] + pp * nz[i1];
      let s1 = 0;
      const i2 = Math.min(i + 2, nv - 1);
      const px2 = vx[i2] + pp * nx[i2];
      const py2 = vy[i2] + pp * ny[i2];
      const pz2 = vz[i2] + pp * nz[i2];
      let s2 = 0;
      const i3 = Math.min(i + 3, nv - 1);
      const px3 = vx[i3] + pp * nx[i3];
      const py3 = vy[i3] + pp * ny[i3];
      const pz3 = vz[i3] + pp * nz[i3];
      let s3 = 0;
      for (let j = b0; j < b1; j++) {
        const xj = ax[j];
        const yj = ay[j];
        const zj = az[j];
        const qj = aq[j];
        const dx0 = px0 - xj;
        const dy0 = py0 - yj;
        const dz0 = pz0 - zj;
        const d2_0 = dx0 * dx0 + dy0 * dy0 + dz0 * dz0;
        const rd0 = 1 / Math.sqrt(d2_0);
        s0 += qj * rd0;
        const dx1 = px1 - xj;
        const dy1 = py1 - yj;
        const dz1 = pz1 - zj;
        const d2_1 = dx1 * dx1 + dy1 * dy1 + dz1 * dz1;
        const rd1 = 1 / Math.sqrt(d2_1);
        s1 += qj * rd1;
        const dx2 = px2 - xj;
        const dy2 = py2 - yj;
        const dz2 = pz2 - zj;
        const d2_2 = dx2 * dx2 + dy2 * dy2 + dz2 * dz2;
        const rd2 = 1 / Math.sqrt(d2_2);
        s2 += qj * rd2;
        const dx3 = px3 - xj;
        const dy3 = py3 - yj;
        const dz3 = pz3 - zj;
        const d2_3 = dx3 * dx3 + dy3 * dy3 + dz3 * dz3;
        const rd3 = 1 / Math.sqrt(d2_3);
        s3 += qj * rd3;
      }
      phi[i] = phi0 + scale * s0;
      if (i + 1 < nv) phi[i + 1] = phi0 + scale * s1;
      if (i + 2 < nv) phi[i + 2] = phi0 + scale * s2;
      if (i + 3 < nv) phi[i + 3] = phi0 + scale * s3;
    }
  }
}

// gem-potential/ts/region3.f32.zero.unroll4.div.block1024.ts
var region3_f32_zero_unroll4_div_block1024_exports = {};
__export(region3_f32_zero_unroll4_div_block1024_exports, {
  BLOCK: () => BLOCK27,
  K: () => K27,
  kernel: () => kernel27,
  key: () => key27
});
var key27 = "gem-potential.ts.region3.f32.zero.unroll4.div.block1024";
var K27 = 4;
var BLOCK27 = 1024;
function kernel27(a) {
  const vx = a.vx;
  const vy = a.vy;
  const vz = a.vz;
  const nx = a.nx;
  const ny = a.ny;
  const nz = a.nz;
  const ax = a.ax;
  const ay = a.ay;
  const az = a.az;
  const aq = a.aq;
  const phi = a.phi;
  const P = a.params;
  const nv = phi.length;
  const na = aq.length;
  const pp = P.p;
  const kappa = 0;
  const beta = P.epsIn / P.epsOut;
  const ab1 = 1 + P.alpha * beta;
  const K0 = P.qScale / (ab1 * P.epsOut);
  const r = P.A + pp;
  const rp = P.A + P.ionRadius;
  let qTot = 0;
  for (let j = 0; j < na; j++) qTot += aq[j];
  const scale = K0 * (1 + P.alpha);
  const phi0 = -(qTot * K0 * P.alpha * (1 - beta) * Math.exp(-kappa * (r - rp))) / (r * (1 + kappa * rp));
  for (let i = 0; i < nv; i++) phi[i] = phi0;
  for (let b0 = 0; b0 < na; b0 += BLOCK27) {
    const b1 = Math.min(b0 + BLOCK27, na);
    for (let i = 0; i < nv; i += K27) {
      const i0 = i;
      const px0 = vx[i0] + pp * nx[i0];
      const py0 = vy[i0] + pp * ny[i0];
      const pz0 = vz[i0] + pp * nz[i0];
      let s0 = 0;
      const i1 = Math.min(i + 1, nv - 1);
      const px1 = vx[i1] + pp * nx[i1];
      const py1 = vy[i1] + pp * ny[i1];
      const pz1 = vz[i1] + pp * nz[i1];
      let s1 = 0;
      const i2 = Math.min(i + 2, nv - 1);
      const px2 = vx[i2] + pp * nx[i2];
      const py2 = vy[i2] + pp * ny[i2];
      const pz2 = vz[i2] + pp * nz[i2];
      let s2 = 0;
      const i3 = Math.min(i + 3, nv - 1);
      const px3 = vx[i3] + pp * nx[i3];
      const py3 = vy[i3] + pp * ny[i3];
      const pz3 = vz[i3] + pp * nz[i3];
      let s3 = 0;
      for (let j = b0; j < b1; j++) {
        const xj = ax[j];
        const yj = ay[j];
        const zj = az[j];
        const qj = aq[j];
        const dx0 = px0 - xj;
        const dy0 = py0 - yj;
        const dz0 = pz0 - zj;
        const d2_0 = dx0 * dx0 + dy0 * dy0 + dz0 * dz0;
        const rd0 = 1 / Math.sqrt(d2_0);
        s0 += qj * rd0;
        const dx1 = px1 - xj;
        const dy1 = py1 - yj;
        const dz1 = pz1 - zj;
        const d2_1 = dx1 * dx1 + dy1 * dy1 + dz1 * dz1;
        const rd1 = 1 / Math.sqrt(d2_1);
        s1 += qj * rd1;
        const dx2 = px2 - xj;
        const dy2 = py2 - yj;
        const dz2 = pz2 - zj;
        const d2_2 = dx2 * dx2 + dy2 * dy2 + dz2 * dz2;
        const rd2 = 1 / Math.sqrt(d2_2);
        s2 += qj * rd2;
        const dx3 = px3 - xj;
        const dy3 = py3 - yj;
        const dz3 = pz3 - zj;
        const d2_3 = dx3 * dx3 + dy3 * dy3 + dz3 * dz3;
        const rd3 = 1 / Math.sqrt(d2_3);
        s3 += qj * rd3;
      }
      phi[i] += scale * s0;
      if (i + 1 < nv) phi[i + 1] += scale * s1;
      if (i + 2 < nv) phi[i + 2] += scale * s2;
      if (i + 3 < nv) phi[i + 3] += scale * s3;
    }
  }
}

// gem-potential/ts/region3.f32.zero.unroll4.div.block256.ts
var region3_f32_zero_unroll4_div_block256_exports = {};
__export(region3_f32_zero_unroll4_div_block256_exports, {
  BLOCK: () => BLOCK28,
  K: () => K28,
  kernel: () => kernel28,
  key: () => key28
});
var key28 = "gem-potential.ts.region3.f32.zero.unroll4.div.block256";
var K28 = 4;
var BLOCK28 = 256;
function kernel28(a) {
  const vx = a.vx;
  const vy = a.vy;
  const vz = a.vz;
  const nx = a.nx;
  const ny = a.ny;
  const nz = a.nz;
  const ax = a.ax;
  const ay = a.ay;
  const az = a.az;
  const aq = a.aq;
  const phi = a.phi;
  const P = a.params;
  const nv = phi.length;
  const na = aq.length;
  const pp = P.p;
  const kappa = 0;
  const beta = P.epsIn / P.epsOut;
  const ab1 = 1 + P.alpha * beta;
  const K0 = P.qScale / (ab1 * P.epsOut);
  const r = P.A + pp;
  const rp = P.A + P.ionRadius;
  let qTot = 0;
  for (let j = 0; j < na; j++) qTot += aq[j];
  const scale = K0 * (1 + P.alpha);
  const phi0 = -(qTot * K0 * P.alpha * (1 - beta) * Math.exp(-kappa * (r - rp))) / (r * (1 + kappa * rp));
  for (let i = 0; i < nv; i++) phi[i] = phi0;
  for (let b0 = 0; b0 < na; b0 += BLOCK28) {
    const b1 = Math.min(b0 + BLOCK28, na);
    for (let i = 0; i < nv; i += K28) {
      const i0 = i;
      const px0 = vx[i0] + pp * nx[i0];
      const py0 = vy[i0] + pp * ny[i0];
      const pz0 = vz[i0] + pp * nz[i0];
      let s0 = 0;
      const i1 = Math.min(i + 1, nv - 1);
      const px1 = vx[i1] + pp * nx[i1];
      const py1 = vy[i1] + pp * ny[i1];
      const pz1 = vz[i1] + pp * nz[i1];
      let s1 = 0;
      const i2 = Math.min(i + 2, nv - 1);
      const px2 = vx[i2] + pp * nx[i2];
      const py2 = vy[i2] + pp * ny[i2];
      const pz2 = vz[i2] + pp * nz[i2];
      let s2 = 0;
      const i3 = Math.min(i + 3, nv - 1);
      const px3 = vx[i3] + pp * nx[i3];
      const py3 = vy[i3] + pp * ny[i3];
      const pz3 = vz[i3] + pp * nz[i3];
      let s3 = 0;
      for (let j = b0; j < b1; j++) {
        const xj = ax[j];
        const yj = ay[j];
        const zj = az[j];
        const qj = aq[j];
        const dx0 = px0 - xj;
        const dy0 = py0 - yj;
        const dz0 = pz0 - zj;
        const d2_0 = dx0 * dx0 + dy0 * dy0 + dz0 * dz0;
        const rd0 = 1 / Math.sqrt(d2_0);
        s0 += qj * rd0;
        const dx1 = px1 - xj;
        const dy1 = py1 - yj;
        const dz1 = pz1 - zj;
        const d2_1 = dx1 * dx1 + dy1 * dy1 + dz1 * dz1;
        const rd1 = 1 / Math.sqrt(d2_1);
        s1 += qj * rd1;
        const dx2 = px2 - xj;
        const dy2 = py2 - yj;
        const dz2 = pz2 - zj;
        const d2_2 = dx2 * dx2 + dy2 * dy2 + dz2 * dz2;
        const rd2 = 1 / Math.sqrt(d2_2);
        s2 += qj * rd2;
        const dx3 = px3 - xj;
        const dy3 = py3 - yj;
        const dz3 = pz3 - zj;
        const d2_3 = dx3 * dx3 + dy3 * dy3 + dz3 * dz3;
        const rd3 = 1 / Math.sqrt(d2_3);
        s3 += qj * rd3;
      }
      phi[i] += scale * s0;
      if (i + 1 < nv) phi[i + 1] += scale * s1;
      if (i + 2 < nv) phi[i + 2] += scale * s2;
      if (i + 3 < nv) phi[i + 3] += scale * s3;
    }
  }
}

// gem-potential/ts/region3.f32.zero.unroll4.nr.block1024.ts
var region3_f32_zero_unroll4_nr_block1024_exports = {};
__export(region3_f32_zero_unroll4_nr_block1024_exports, {
  BLOCK: () => BLOCK29,
  K: () => K29,
  kernel: () => kernel29,
  key: () => key29
});
var key29 = "gem-potential.ts.region3.f32.zero.unroll4.nr.block1024";
var K29 = 4;
var BLOCK29 = 1024;
var RS_F7 = new Float32Array(1);
var RS_I7 = new Int32Array(RS_F7.buffer);
var RS_C7 = rsqrtTable7();
function rsqrtTable7() {
  const t = new Float64Array(4096);
  for (let k = 0; k < 4096; k++) {
    let c = 0;
    for (const low of [0, 4095]) {
      RS_I7[0] = 1056964608 | k << 12 | low;
      const x = RS_F7[0];
      RS_I7[0] = 1597463007 - (RS_I7[0] >> 1);
      c += 0.5 / (Math.sqrt(x) * RS_F7[0]);
    }
    t[k] = c;
  }
  return t;
}
function kernel29(a) {
  const vx = a.vx;
  const vy = a.vy;
  const vz = a.vz;
  const nx = a.nx;
  const ny = a.ny;
  const nz = a.nz;
  const ax = a.ax;
  const ay = a.ay;
  const az = a.az;
  const aq = a.aq;
  const phi = a.phi;
  const P = a.params;
  const nv = phi.length;
  const na = aq.length;
  const pp = P.p;
  const kappa = 0;
  const beta = P.epsIn / P.epsOut;
  const ab1 = 1 + P.alpha * beta;
  const K0 = P.qScale / (ab1 * P.epsOut);
  const r = P.A + pp;
  const rp = P.A + P.ionRadius;
  let qTot = 0;
  for (let j = 0; j < na; j++) qTot += aq[j];
  const scale = K0 * (1 + P.alpha);
  const phi0 = -(qTot * K0 * P.alpha * (1 - beta) * Math.exp(-kappa * (r - rp))) / (r * (1 + kappa * rp));
  for (let i = 0; i < nv; i++) phi[i] = phi0;
  for (let b0 = 0; b0 < na; b0 += BLOCK29) {
    const b1 = Math.min(b0 + BLOCK29, na);
    for (let i = 0; i < nv; i += K29) {
      const i0 = i;
      const px0 = vx[i0] + pp * nx[i0];
      const py0 = vy[i0] + pp * ny[i0];
      const pz0 = vz[i0] + pp * nz[i0];
      let s0 = 0;
      const i1 = Math.min(i + 1, nv - 1);
      const px1 = vx[i1] + pp * nx[i1];
      const py1 = vy[i1] + pp * ny[i1];
      const pz1 = vz[i1] + pp * nz[i1];
      let s1 = 0;
      const i2 = Math.min(i + 2, nv - 1);
      const px2 = vx[i2] + pp * nx[i2];
      const py2 = vy[i2] + pp * ny[i2];
      const pz2 = vz[i2] + pp * nz[i2];
      let s2 = 0;
      const i3 = Math.min(i + 3, nv - 1);
      const px3 = vx[i3] + pp * nx[i3];
      const py3 = vy[i3] + pp * ny[i3];
      const pz3 = vz[i3] + pp * nz[i3];
      let s3 = 0;
      for (let j = b0; j < b1; j++) {
        const xj = ax[j];
        const yj = ay[j];
        const zj = az[j];
        const qj = aq[j];
        const dx0 = px0 - xj;
        const dy0 = py0 - yj;
        const dz0 = pz0 - zj;
        const d2_0 = dx0 * dx0 + dy0 * dy0 + dz0 * dz0;
        RS_F7[0] = d2_0;
        const rd0b = RS_I7[0];
        RS_I7[0] = 1597463007 - (rd0b >> 1);
        const rd0e = RS_F7[0] * RS_C7[rd0b >>> 12 & 4095];
        const rd0 = rd0e * (1.5 - 0.5 * d2_0 * rd0e * rd0e);
        s0 += qj * rd0;
        const dx1 = px1 - xj;
        const dy1 = py1 - yj;
        const dz1 = pz1 - zj;
        const d2_1 = dx1 * dx1 + dy1 * dy1 + dz1 * dz1;
        RS_F7[0] = d2_1;
        const rd1b = RS_I7[0];
        RS_I7[0] = 1597463007 - (rd1b >> 1);
        const rd1e = RS_F7[0] * RS_C7[rd1b >>> 12 & 4095];
        const rd1 = rd1e * (1.5 - 0.5 * d2_1 * rd1e * rd1e);
        s1 += qj * rd1;
        const dx2 = px2 - xj;
        const dy2 = py2 - yj;
        const dz2 = pz2 - zj;
        const d2_2 = dx2 * dx2 + dy2 * dy2 + dz2 * dz2;
        RS_F7[0] = d2_2;
        const rd2b = RS_I7[0];
        RS_I7[0] = 1597463007 - (rd2b >> 1);
        const rd2e = RS_F7[0] * RS_C7[rd2b >>> 12 & 4095];
        const rd2 = rd2e * (1.5 - 0.5 * d2_2 * rd2e * rd2e);
        s2 += qj * rd2;
        const dx3 = px3 - xj;
        const dy3 = py3 - yj;
        const dz3 = pz3 - zj;
        const d2_3 = dx3 * dx3 + dy3 * dy3 + dz3 * dz3;
        RS_F7[0] = d2_3;
        const rd3b = RS_I7[0];
        RS_I7[0] = 1597463007 - (rd3b >> 1);
        const rd3e = RS_F7[0] * RS_C7[rd3b >>> 12 & 4095];
        const rd3 = rd3e * (1.5 - 0.5 * d2_3 * rd3e * rd3e);
        s3 += qj * rd3;
      }
      phi[i] += scale * s0;
      if (i + 1 < nv) phi[i + 1] += scale * s1;
      if (i + 2 < nv) phi[i + 2] += scale * s2;
      if (i + 3 < nv) phi[i + 3] += scale * s3;
    }
  }
}

// gem-potential/ts/region3.f32.zero.unroll4.nr.block256.ts
var region3_f32_zero_unroll4_nr_block256_exports = {};
__export(region3_f32_zero_unroll4_nr_block256_exports, {
  BLOCK: () => BLOCK30,
  K: () => K30,
  kernel: () => kernel30,
  key: () => key30
});
var key30 = "gem-potential.ts.region3.f32.zero.unroll4.nr.block256";
var K30 = 4;
var BLOCK30 = 256;
var RS_F8 = new Float32Array(1);
var RS_I8 = new Int32Array(RS_F8.buffer);
var RS_C8 = rsqrtTable8();
function rsqrtTable8() {
  const t = new Float64Array(4096);
  for (let k = 0; k < 4096; k++) {
    let c = 0;
    for (const low of [0, 4095]) {
      RS_I8[0] = 1056964608 | k << 12 | low;
      const x = RS_F8[0];
      RS_I8[0] = 1597463007 - (RS_I8[0] >> 1);
      c += 0.5 / (Math.sqrt(x) * RS_F8[0]);
    }
    t[k] = c;
  }
  return t;
}
function kernel30(a) {
  const vx = a.vx;
  const vy = a.vy;
  const vz = a.vz;
  const nx = a.nx;
  const ny = a.ny;
  const nz = a.nz;
  const ax = a.ax;
  const ay = a.ay;
  const az = a.az;
  const aq = a.aq;
  const phi = a.phi;
  const P = a.params;
  const nv = phi.length;
  const na = aq.length;
  const pp = P.p;
  const kappa = 0;
  const beta = P.epsIn / P.epsOut;
  const ab1 = 1 + P.alpha * beta;
  const K0 = P.qScale / (ab1 * P.epsOut);
  const r = P.A + pp;
  const rp = P.A + P.ionRadius;
  let qTot = 0;
  for (let j = 0; j < na; j++) qTot += aq[j];
  const scale = K0 * (1 + P.alpha);
  const phi0 = -(qTot * K0 * P.alpha * (1 - beta) * Math.exp(-kappa * (r - rp))) / (r * (1 + kappa * rp));
  for (let i = 0; i < nv; i++) phi[i] = phi0;
  for (let b0 = 0; b0 < na; b0 += BLOCK30) {
    const b1 = Math.min(b0 + BLOCK30, na);
    for (let i = 0; i < nv; i += K30) {
      const i0 = i;
      const px0 = vx[i0] + pp * nx[i0];
      const py0 = vy[i0] + pp * ny[i0];
      const pz0 = vz[i0] + pp * nz[i0];
      let s0 = 0;
      const i1 = Math.min(i + 1, nv - 1);
      const px1 = vx[i1] + pp * nx[i1];
      const py1 = vy[i1] + pp * ny[i1];
      const pz1 = vz[i1] + pp * nz[i1];
      let s1 = 0;
      const i2 = Math.min(i + 2, nv - 1);
      const px2 = vx[i2] + pp * nx[i2];
      const py2 = vy[i2] + pp * ny[i2];
      const pz2 = vz[i2] + pp * nz[i2];
      let s2 = 0;
      const i3 = Math.min(i + 3, nv - 1);
      const px3 = vx[i3] + pp * nx[i3];
      const py3 = vy[i3] + pp * ny[i3];
      const pz3 = vz[i3] + pp * nz[i3];
      let s3 = 0;
      for (let j = b0; j < b1; j++) {
        const xj = ax[j];
        const yj = ay[j];
        const zj = az[j];
        const qj = aq[j];
        const dx0 = px0 - xj;
        const dy0 = py0 - yj;
        const dz0 = pz0 - zj;
        const d2_0 = dx0 * dx0 + dy0 * dy0 + dz0 * dz0;
        RS_F8[0] = d2_0;
        const rd0b = RS_I8[0];
        RS_I8[0] = 1597463007 - (rd0b >> 1);
        const rd0e = RS_F8[0] * RS_C8[rd0b >>> 12 & 4095];
        const rd0 = rd0e * (1.5 - 0.5 * d2_0 * rd0e * rd0e);
        s0 += qj * rd0;
        const dx1 = px1 - xj;
        const dy1 = py1 - yj;
        const dz1 = pz1 - zj;
        const d2_1 = dx1 * dx1 + dy1 * dy1 + dz1 * dz1;
        RS_F8[0] = d2_1;
        const rd1b = RS_I8[0];
        RS_I8[0] = 1597463007 - (rd1b >> 1);
        const rd1e = RS_F8[0] * RS_C8[rd1b >>> 12 & 4095];
        const rd1 = rd1e * (1.5 - 0.5 * d2_1 * rd1e * rd1e);
        s1 += qj * rd1;
        const dx2 = px2 - xj;
        const dy2 = py2 - yj;
        const dz2 = pz2 - zj;
        const d2_2 = dx2 * dx2 + dy2 * dy2 + dz2 * dz2;
        RS_F8[0] = d2_2;
        const rd2b = RS_I8[0];
        RS_I8[0] = 1597463007 - (rd2b >> 1);
        const rd2e = RS_F8[0] * RS_C8[rd2b >>> 12 & 4095];
        const rd2 = rd2e * (1.5 - 0.5 * d2_2 * rd2e * rd2e);
        s2 += qj * rd2;
        const dx3 = px3 - xj;
        const dy3 = py3 - yj;
        const dz3 = pz3 - zj;
        const d2_3 = dx3 * dx3 + dy3 * dy3 + dz3 * dz3;
        RS_F8[0] = d2_3;
        const rd3b = RS_I8[0];
        RS_I8[0] = 1597463007 - (rd3b >> 1);
        const rd3e = RS_F8[0] * RS_C8[rd3b >>> 12 & 4095];
        const rd3 = rd3e * (1.5 - 0.5 * d2_3 * rd3e * rd3e);
        s3 += qj * rd3;
      }
      phi[i] += scale * s0;
      if (i + 1 < nv) phi[i + 1] += scale * s1;
      if (i + 2 < nv) phi[i + 2] += scale * s2;
      if (i + 3 < nv) phi[i + 3] += scale * s3;
    }
  }
}

// gem-potential/ts/region3.f64.nonzero.unroll4.div.block0.ts
var region3_f64_nonzero_unroll4_div_block0_exports = {};
__export(region3_f64_nonzero_unroll4_div_block0_exports, {
  BLOCK: () => BLOCK31,
  K: () => K31,
  kernel: () => kernel31,
  key: () => key31
});
var key31 = "gem-potential.ts.region3.f64.nonzero.unroll4.div.block0";
var K31 = 4;
var BLOCK31 = 0;
function kernel31(a) {
  const vx = a.vx;
  const vy = a.vy;
  const vz = a.vz;
  const nx = a.nx;
  const ny = a.ny;
  const nz = a.nz;
  const ax = a.ax;
  const ay = a.ay;
  const az = a.az;
  const aq = a.aq;
  const phi = a.phi;
  const P = a.params;
  const nv = phi.length;
  const na = aq.length;
  const pp = P.p;
  const ion = P.ionRadius;
  const kappa = P.kappa;
  const beta = P.epsIn / P.epsOut;
  const ab1 = 1 + P.alpha * beta;
  const K0 = P.qScale / (ab1 * P.epsOut);
  const r = P.A + pp;
  const rp = P.A + P.ionRadius;
  let qTot = 0;
  for (let j = 0; j < na; j++) qTot += aq[j];
  const scale = K0 * (1 + P.alpha);
  const phi0 = -(qTot * K0 * P.alpha * (1 - beta) * Math.exp(-kappa * (r - rp))) / (r * (1 + kappa * rp));
  {
    const b0 = 0;
    const b1 = na;
    for (let i = 0; i < nv; i += K31) {
      const i0 = i;
      const px0 = vx[i0] + pp * nx[i0];
      const py0 = vy[i0] + pp * ny[i0];
      const pz0 = vz[i0] + pp * nz[i0];
      const ex0 = vx[i0] + ion * nx[i0];
      const ey0 = vy[i0] + ion * ny[i0];
      const ez0 = vz[i0] + ion * nz[i0];
      let s0 = 0;
      const i1 = Math.min(i + 1, nv - 1);
      const px1 = vx[i1] + pp * nx[i1];
      const py1 = vy[i1] + pp * ny[i1];
      const pz1 = vz[i1] + pp * nz[i1];
      const ex1 = vx[i1] + ion * nx[i1];
      const ey1 = vy[i1] + ion * ny[i1];
      const ez1 = vz[i1] + ion * nz[i1];
      let s1 = 0;
      const i2 = Math.min(i + 2, nv - 1);
      const px2 = vx[i2] + pp * nx[i2];
      const py2 = vy[i2] + pp * ny[i2];
      const pz2 = vz[i2] + pp * nz[i2];
      const ex2 = vx[i2] + ion * nx[i2];
      const ey2 = vy[i2] + ion * ny[i2];
      const ez2 = vz[i2] + ion * nz[i2];
      let s2 = 0;
      const i3 = Math.min(i + 3, nv - 1);
      const px3 = vx[i3] + pp * nx[i3];
      const py3 = vy[i3] + pp * ny[i3];
      const pz3 = vz[i3] + pp * nz[i3];
      const ex3 = vx[i3] + ion * nx[i3];
      const ey3 = vy[i3] + ion * ny[i3];
      const ez3 = vz[i3] + ion * nz[i3];
      let s3 = 0;
      for (let j = b0; j < b1; j++) {
        const xj = ax[j];
        const yj = ay[j];
        const zj = az[j];
        const qj = aq[j];
        const dx0 = px0 - xj;
        const dy0 = py0 - yj;
        const dz0 = pz0 - zj;
        const d2_0 = dx0 * dx0 + dy0 * dy0 + dz0 * dz0;
        const rd0 = 1 / Math.sqrt(d2_0);
        const fx0 = ex0 - xj;
        const fy0 = ey0 - yj;
        const fz0 = ez0 - zj;
        const e2_0 = fx0 * fx0 + fy0 * fy0 + fz0 * fz0;
        const re0 = 1 / Math.sqrt(e2_0);
        const dp0 = e2_0 * re0;
        s0 += qj * rd0 * Math.exp(kappa * (dp0 - d2_0 * rd0)) / (1 + kappa * dp0);
        const dx1 = px1 - xj;
        const dy1 = py1 - yj;
        const dz1 = pz1 - zj;
        const d2_1 = dx1 * dx1 + dy1 * dy1 + dz1 * dz1;
        const rd1 = 1 / Math.sqrt(d2_1);
        const fx1 = ex1 - xj;
        const fy1 = ey1 - yj;
        const fz1 = ez1 - zj;
        const e2_1 = fx1 * fx1 + fy1 * fy1 + fz1 * fz1;
        const re1 = 1 / Math.sqrt(e2_1);
        const dp1 = e2_1 * re1;
        s1 += qj * rd1 * Math.exp(kappa * (dp1 - d2_1 * rd1)) / (1 + kappa * dp1);
        const dx2 = px2 - xj;
        const dy2 = py2 - yj;
        const dz2 = pz2 - zj;
        const d2_2 = dx2 * dx2 + dy2 * dy2 + dz2 * dz2;
        const rd2 = 1 / Math.sqrt(d2_2);
        const fx2 = ex2 - xj;
        const fy2 = ey2 - yj;
        const fz2 = ez2 - zj;
        const e2_2 = fx2 * fx2 + fy2 * fy2 + fz2 * fz2;
        const re2 = 1 / Math.sqrt(e2_2);
        const dp2 = e2_2 * re2;
        s2 += qj * rd2 * Math.exp(kappa * (dp2 - d2_2 * rd2)) / (1 + kappa * dp2);
        const dx3 = px3 - xj;
        const dy3 = py3 - yj;
        const dz3 = pz3 - zj;
        const d2_3 = dx3 * dx3 + dy3 * dy3 + dz3 * dz3;
        const rd3 = 1 / Math.sqrt(d2_3);
        const fx3 = ex3 - xj;
        const fy3 = ey3 - yj;
        const fz3 = ez3 - zj;
        const e2_3 = fx3 * fx3 + fy3 * fy3 + fz3 * fz3;
        const re3 = 1 / Math.sqrt(e2_3);
        const dp3 = e2_3 * re3;
        s3 += qj * rd3 * Math.exp(kappa * (dp3 - d2_3 * rd3)) / (1 + kappa * dp3);
      }
      phi[i] = phi0 + scale * s0;
      if (i + 1 < nv) phi[i + 1] = phi0 + scale * s1;
      if (i + 2 < nv) phi[i + 2] = phi0 + scale * s2;
      if (i + 3 < nv) phi[i + 3] = phi0 + scale * s3;
    }
  }
}

// gem-potential/ts/region3.f64.zero.unroll1.div.block0.ts
var region3_f64_zero_unroll1_div_block0_exports = {};
__export(region3_f64_zero_unroll1_div_block0_exports, {
  BLOCK: () => BLOCK32,
  K: () => K32,
  kernel: () => kernel32,
  key: () => key32
});
var key32 = "gem-potential.ts.region3.f64.zero.unroll1.div.block0";
var K32 = 1;
var BLOCK32 = 0;
function kernel32(a) {
  const vx = a.vx;
  const vy = a.vy;
  const vz = a.vz;
  const nx = a.nx;
  const ny = a.ny;
  const nz = a.nz;
  const ax = a.ax;
  const ay = a.ay;
  const az = a.az;
  const aq = a.aq;
  const phi = a.phi;
  const P = a.params;
  const nv = phi.length;
  const na = aq.length;
  const pp = P.p;
  const kappa = 0;
  const beta = P.epsIn / P.epsOut;
  const ab1 = 1 + P.alpha * beta;
  const K0 = P.qScale / (ab1 * P.epsOut);
  const r = P.A + pp;
  const rp = P.A + P.ionRadius;
  let qTot = 0;
  for (let j = 0; j < na; j++) qTot += aq[j];
  const scale = K0 * (1 + P.alpha);
  const phi0 = -(qTot * K0 * P.alpha * (1 - beta) * Math.exp(-kappa * (r - rp))) / (r * (1 + kappa * rp));
  {
    const b0 = 0;
    const b1 = na;
    for (let i = 0; i < nv; i += K32) {
      const i0 = i;
      const px0 = vx[i0] + pp * nx[i0];
      const py0 = vy[i0] + pp * ny[i0];
      const pz0 = vz[i0] + pp * nz[i0];
      let s0 = 0;
      for (let j = b0; j < b1; j++) {
        const xj = ax[j];
        const yj = ay[j];
        const zj = az[j];
        const qj = aq[j];
        const dx0 = px0 - xj;
        const dy0 = py0 - yj;
        const dz0 = pz0 - zj;
        const d2_0 = dx0 * dx0 + dy0 * dy0 + dz0 * dz0;
        const rd0 = 1 / Math.sqrt(d2_0);
        s0 += qj * rd0;
      }
      phi[i] = phi0 + scale * s0;
    }
  }
}

// gem-potential/ts/region3.f64.zero.unroll2.div.block0.ts
var region3_f64_zero_unroll2_div_block0_exports = {};
__export(region3_f64_zero_unroll2_div_block0_exports, {
  BLOCK: () => BLOCK33,
  K: () => K33,
  kernel: () => kernel33,
  key: () => key33
});
var key33 = "gem-potential.ts.region3.f64.zero.unroll2.div.block0";
var K33 = 2;
var BLOCK33 = 0;
function kernel33(a) {
  const vx = a.vx;
  const vy = a.vy;
  const vz = a.vz;
  const nx = a.nx;
  const ny = a.ny;
  const nz = a.nz;
  const ax = a.ax;
  const ay = a.ay;
  const az = a.az;
  const aq = a.aq;
  const phi = a.phi;
  const P = a.params;
  const nv = phi.length;
  const na = aq.length;
  const pp = P.p;
  const kappa = 0;
  const beta = P.epsIn / P.epsOut;
  const ab1 = 1 + P.alpha * beta;
  const K0 = P.qScale / (ab1 * P.epsOut);
  const r = P.A + pp;
  const rp = P.A + P.ionRadius;
  let qTot = 0;
  for (let j = 0; j < na; j++) qTot += aq[j];
  const scale = K0 * (1 + P.alpha);
  const phi0 = -(qTot * K0 * P.alpha * (1 - beta) * Math.exp(-kappa * (r - rp))) / (r * (1 + kappa * rp));
  {
    const b0 = 0;
    const b1 = na;
    for (let i = 0; i < nv; i += K33) {
      const i0 = i;
      const px0 = vx[i0] + pp * nx[i0];
      const py0 = vy[i0] + pp * ny[i0];
      const pz0 = vz[i0] + pp * nz[i0];
      let s0 = 0;
      const i1 = Math.min(i + 1, nv - 1);
      const px1 = vx[i1] + pp * nx[i1];
      const py1 = vy[i1] + pp * ny[i1];
      const pz1 = vz[i1] + pp * nz[i1];
      let s1 = 0;
      for (let j = b0; j < b1; j++) {
        const xj = ax[j];
        const yj = ay[j];
        const zj = az[j];
        const qj = aq[j];
        const dx0 = px0 - xj;
        const dy0 = py0 - yj;
        const dz0 = pz0 - zj;
        const d2_0 = dx0 * dx0 + dy0 * dy0 + dz0 * dz0;
        const rd0 = 1 / Math.sqrt(d2_0);
        s0 += qj * rd0;
        const dx1 = px1 - xj;
        const dy1 = py1 - yj;
        const dz1 = pz1 - zj;
        const d2_1 = dx1 * dx1 + dy1 * dy1 + dz1 * dz1;
        const rd1 = 1 / Math.sqrt(d2_1);
        s1 += qj * rd1;
      }
      phi[i] = phi0 + scale * s0;
      if (i + 1 < nv) phi[i + 1] = phi0 + scale * s1;
    }
  }
}

// gem-potential/ts/region3.f64.zero.unroll4.div.block0.ts
var region3_f64_zero_unroll4_div_block0_exports = {};
__export(region3_f64_zero_unroll4_div_block0_exports, {
  BLOCK: () => BLOCK34,
  K: () => K34,
  kernel: () => kernel34,
  key: () => key34
});
var key34 = "gem-potential.ts.region3.f64.zero.unroll4.div.block0";
var K34 = 4;
var BLOCK34 = 0;
function kernel34(a) {
  const vx = a.vx;
  const vy = a.vy;
  const vz = a.vz;
  const nx = a.nx;
  const ny = a.ny;
  const nz = a.nz;
  const ax = a.ax;
  const ay = a.ay;
  const az = a.az;
  const aq = a.aq;
  const phi = a.phi;
  const P = a.params;
  const nv = phi.length;
  const na = aq.length;
  const pp = P.p;
  const kappa = 0;
  const beta = P.epsIn / P.epsOut;
  const ab1 = 1 + P.alpha * beta;
  const K0 = P.qScale / (ab1 * P.epsOut);
  const r = P.A + pp;
  const rp = P.A + P.ionRadius;
  let qTot = 0;
  for (let j = 0; j < na; j++) qTot += aq[j];
  const scale = K0 * (1 + P.alpha);
  const phi0 = -(qTot * K0 * P.alpha * (1 - beta) * Math.exp(-kappa * (r - rp))) / (r * (1 + kappa * rp));
  {
    const b0 = 0;
    const b1 = na;
    for (let i = 0; i < nv; i += K34) {
      const i0 = i;
      const px0 = vx[i0] + pp * nx[i0];
      const py0 = vy[i0] + pp * ny[i0];
      const pz0 = vz[i0] + pp * nz[i0];
      let s0 = 0;
      const i1 = Math.min(i + 1, nv - 1);
      const px1 = vx[i1] + pp * nx[i1];
      const py1 = vy[i1] + pp * ny[i1];
      const pz1 = vz[i1] + pp * nz[i1];
      let s1 = 0;
      const i2 = Math.min(i + 2, nv - 1);
      const px2 = vx[i2] + pp * nx[i2];
      const py2 = vy[i2] + pp * ny[i2];
      const pz2 = vz[i2] + pp * nz[i2];
      let s2 = 0;
      const i3 = Math.min(i + 3, nv - 1);
      const px3 = vx[i3] + pp * nx[i3];
      const py3 = vy[i3] + pp * ny[i3];
      const pz3 = vz[i3] + pp * nz[i3];
      let s3 = 0;
      for (let j = b0; j < b1; j++) {
        const xj = ax[j];
        const yj = ay[j];
        const zj = az[j];
        const qj = aq[j];
        const dx0 = px0 - xj;
        const dy0 = py0 - yj;
        const dz0 = pz0 - zj;
        const d2_0 = dx0 * dx0 + dy0 * dy0 + dz0 * dz0;
        const rd0 = 1 / Math.sqrt(d2_0);
        s0 += qj * rd0;
        const dx1 = px1 - xj;
        const dy1 = py1 - yj;
        const dz1 = pz1 - zj;
        const d2_1 = dx1 * dx1 + dy1 * dy1 + dz1 * dz1;
        const rd1 = 1 / Math.sqrt(d2_1);
        s1 += qj * rd1;
        const dx2 = px2 - xj;
        const dy2 = py2 - yj;
        const dz2 = pz2 - zj;
        const d2_2 = dx2 * dx2 + dy2 * dy2 + dz2 * dz2;
        const rd2 = 1 / Math.sqrt(d2_2);
        s2 += qj * rd2;
        const dx3 = px3 - xj;
        const dy3 = py3 - yj;
        const dz3 = pz3 - zj;
        const d2_3 = dx3 * dx3 + dy3 * dy3 + dz3 * dz3;
        const rd3 = 1 / Math.sqrt(d2_3);
        s3 += qj * rd3;
      }
      phi[i] = phi0 + scale * s0;
      if (i + 1 < nv) phi[i + 1] = phi0 + scale * s1;
      if (i + 2 < nv) phi[i + 2] = phi0 + scale * s2;
      if (i + 3 < nv) phi[i + 3] = phi0 + scale * s3;
    }
  }
}

// gem-potential/ts/region3.f64.zero.unroll8.div.block0.ts
var region3_f64_zero_unroll8_div_block0_exports = {};
__export(region3_f64_zero_unroll8_div_block0_exports, {
  BLOCK: () => BLOCK35,
  K: () => K35,
  kernel: () => kernel35,
  key: () => key35
});
var key35 = "gem-potential.ts.region3.f64.zero.unroll8.div.block0";
var K35 = 8;
var BLOCK35 = 0;
function kernel35(a) {
  const vx = a.vx;
  const vy = a.vy;
  const vz = a.vz;
  const nx = a.nx;
  const ny = a.ny;
  const nz = a.nz;
  const ax = a.ax;
  const ay = a.ay;
  const az = a.az;
  const aq = a.aq;
  const phi = a.phi;
  const P = a.params;
  const nv = phi.length;
  const na = aq.length;
  const pp = P.p;
  const kappa = 0;
  const beta = P.epsIn / P.epsOut;
  const ab1 = 1 + P.alpha * beta;
  const K0 = P.qScale / (ab1 * P.epsOut);
  const r = P.A + pp;
  const rp = P.A + P.ionRadius;
  let qTot = 0;
  for (let j = 0; j < na; j++) qTot += aq[j];
  const scale = K0 * (1 + P.alpha);
  const phi0 = -(qTot * K0 * P.alpha * (1 - beta) * Math.exp(-kappa * (r - rp))) / (r * (1 + kappa * rp));
  {
    const b0 = 0;
    const b1 = na;
    for (let i = 0; i < nv; i += K35) {
      const i0 = i;
      const px0 = vx[i0] + pp * nx[i0];
      const py0 = vy[i0] + pp * ny[i0];
      const pz0 = vz[i0] + pp * nz[i0];
      let s0 = 0;
      const i1 = Math.min(i + 1, nv - 1);
      const px1 = vx[i1] + pp * nx[i1];
      const py1 = vy[i1] + pp * ny[i1];
      const pz1 = vz[i1] + pp * nz[i1];
      let s1 = 0;
      const i2 = Math.min(i + 2, nv - 1);
      const px2 = vx[i2] + pp * nx[i2];
      const py2 = vy[i2] + pp * ny[i2];
      const pz2 = vz[i2] + pp * nz[i2];
      let s2 = 0;
      const i3 = Math.min(i + 3, nv - 1);
      const px3 = vx[i3] + pp * nx[i3];
      const py3 = vy[i3] + pp * ny[i3];
      const pz3 = vz[i3] + pp * nz[i3];
      let s3 = 0;
      const i4 = Math.min(i + 4, nv - 1);
      const px4 = vx[i4] + pp * nx[i4];
      const py4 = vy[i4] + pp * ny[i4];
      const pz4 = vz[i4] + pp * nz[i4];
      let s4 = 0;
      const i5 = Math.min(i + 5, nv - 1);
      const px5 = vx[i5] + pp * nx[i5];
      const py5 = vy[i5] + pp * ny[i5];
      const pz5 = vz[i5] + pp * nz[i5];
      let s5 = 0;
      const i6 = Math.min(i + 6, nv - 1);
      const px6 = vx[i6] + pp * nx[i6];
      const py6 = vy[i6] + pp * ny[i6];
      const pz6 = vz[i6] + pp * nz[i6];
      let s6 = 0;
      const i7 = Math.min(i + 7, nv - 1);
      const px7 = vx[i7] + pp * nx[i7];
      const py7 = vy[i7] + pp * ny[i7];
      const pz7 = vz[i7] + pp * nz[i7];
      let s7 = 0;
      for (let j = b0; j < b1; j++) {
        const xj = ax[j];
        const yj = ay[j];
        const zj = az[j];
        const qj = aq[j];
        const dx0 = px0 - xj;
        const dy0 = py0 - yj;
        const dz0 = pz0 - zj;
        const d2_0 = dx0 * dx0 + dy0 * dy0 + dz0 * dz0;
        const rd0 = 1 / Math.sqrt(d2_0);
        s0 += qj * rd0;
        const dx1 = px1 - xj;
        const dy1 = py1 - yj;
        const dz1 = pz1 - zj;
        const d2_1 = dx1 * dx1 + dy1 * dy1 + dz1 * dz1;
        const rd1 = 1 / Math.sqrt(d2_1);
        s1 += qj * rd1;
        const dx2 = px2 - xj;
        const dy2 = py2 - yj;
        const dz2 = pz2 - zj;
        const d2_2 = dx2 * dx2 + dy2 * dy2 + dz2 * dz2;
        const rd2 = 1 / Math.sqrt(d2_2);
        s2 += qj * rd2;
        const dx3 = px3 - xj;
        const dy3 = py3 - yj;
        const dz3 = pz3 - zj;
        const d2_3 = dx3 * dx3 + dy3 * dy3 + dz3 * dz3;
        const rd3 = 1 / Math.sqrt(d2_3);
        s3 += qj * rd3;
        const dx4 = px4 - xj;
        const dy4 = py4 - yj;
        const dz4 = pz4 - zj;
        const d2_4 = dx4 * dx4 + dy4 * dy4 + dz4 * dz4;
        const rd4 = 1 / Math.sqrt(d2_4);
        s4 += qj * rd4;
        const dx5 = px5 - xj;
        const dy5 = py5 - yj;
        const dz5 = pz5 - zj;
        const d2_5 = dx5 * dx5 + dy5 * dy5 + dz5 * dz5;
        const rd5 = 1 / Math.sqrt(d2_5);
        s5 += qj * rd5;
        const dx6 = px6 - xj;
        const dy6 = py6 - yj;
        const dz6 = pz6 - zj;
        const d2_6 = dx6 * dx6 + dy6 * dy6 + dz6 * dz6;
        const rd6 = 1 / Math.sqrt(d2_6);
        s6 += qj * rd6;
        const dx7 = px7 - xj;
        const dy7 = py7 - yj;
        const dz7 = pz7 - zj;
        const d2_7 = dx7 * dx7 + dy7 * dy7 + dz7 * dz7;
        const rd7 = 1 / Math.sqrt(d2_7);
        s7 += qj * rd7;
      }
      phi[i] = phi0 + scale * s0;
      if (i + 1 < nv) phi[i + 1] = phi0 + scale * s1;
      if (i + 2 < nv) phi[i + 2] = phi0 + scale * s2;
      if (i + 3 < nv) phi[i + 3] = phi0 + scale * s3;
      if (i + 4 < nv) phi[i + 4] = phi0 + scale * s4;
      if (i + 5 < nv) phi[i + 5] = phi0 + scale * s5;
      if (i + 6 < nv) phi[i + 6] = phi0 + scale * s6;
      if (i + 7 < nv) phi[i + 7] = phi0 + scale * s7;
    }
  }
}

// gem-potential/ts/index.ts
var variants = {
  "gem-potential.ts.region1.f32.nonzero.unroll4.div.block0": region1_f32_nonzero_unroll4_div_block0_exports,
  "gem-potential.ts.region1.f32.zero.unroll1.div.block0": region1_f32_zero_unroll1_div_block0_exports,
  "gem-potential.ts.region1.f32.zero.unroll2.nr.block0": region1_f32_zero_unroll2_nr_block0_exports,
  "gem-potential.ts.region1.f32.zero.unroll4.div.block0": region1_f32_zero_unroll4_div_block0_exports,
  "gem-potential.ts.region1.f32.zero.unroll4.div.block1024": region1_f32_zero_unroll4_div_block1024_exports,
  "gem-potential.ts.region1.f32.zero.unroll4.div.block256": region1_f32_zero_unroll4_div_block256_exports,
  "gem-potential.ts.region1.f32.zero.unroll4.nr.block0": region1_f32_zero_unroll4_nr_block0_exports,
  "gem-potential.ts.region1.f32.zero.unroll4.nr.block1024": region1_f32_zero_unroll4_nr_block1024_exports,
  "gem-potential.ts.region1.f32.zero.unroll4.nr.block256": region1_f32_zero_unroll4_nr_block256_exports,
  "gem-potential.ts.region1.f32.zero.unroll8.nr.block0": region1_f32_zero_unroll8_nr_block0_exports,
  "gem-potential.ts.region1.f64.nonzero.unroll4.div.block0": region1_f64_nonzero_unroll4_div_block0_exports,
  "gem-potential.ts.region1.f64.zero.unroll1.div.block0": region1_f64_zero_unroll1_div_block0_exports,
  "gem-potential.ts.region1.f64.zero.unroll2.div.block0": region1_f64_zero_unroll2_div_block0_exports,
  "gem-potential.ts.region1.f64.zero.unroll4.div.block0": region1_f64_zero_unroll4_div_block0_exports,
  "gem-potential.ts.region1.f64.zero.unroll8.div.block0": region1_f64_zero_unroll8_div_block0_exports,
  "gem-potential.ts.region2.f32.nonzero.unroll4.div.block0": region2_f32_nonzero_unroll4_div_block0_exports,
  "gem-potential.ts.region2.f32.nonzero.unroll4.nr.block0": region2_f32_nonzero_unroll4_nr_block0_exports,
  "gem-potential.ts.region2.f32.zero.unroll1.div.block0": region2_f32_zero_unroll1_div_block0_exports,
  "gem-potential.ts.region2.f32.zero.unroll4.div.block0": region2_f32_zero_unroll4_div_block0_exports,
  "gem-potential.ts.region2.f64.nonzero.unroll4.div.block0": region2_f64_nonzero_unroll4_div_block0_exports,
  "gem-potential.ts.region2.f64.nonzero.unroll4.div.block256": region2_f64_nonzero_unroll4_div_block256_exports,
  "gem-potential.ts.region2.f64.zero.unroll1.div.block0": region2_f64_zero_unroll1_div_block0_exports,
  "gem-potential.ts.region2.f64.zero.unroll4.div.block0": region2_f64_zero_unroll4_div_block0_exports,
  "gem-potential.ts.region3.f32.nonzero.unroll4.div.block0": region3_f32_nonzero_unroll4_div_block0_exports,
  "gem-potential.ts.region3.f32.zero.unroll1.div.block0": region3_f32_zero_unroll1_div_block0_exports,
  "gem-potential.ts.region3.f32.zero.unroll4.div.block0": region3_f32_zero_unroll4_div_block0_exports,
  "gem-potential.ts.region3.f32.zero.unroll4.div.block1024": region3_f32_zero_unroll4_div_block1024_exports,
  "gem-potential.ts.region3.f32.zero.unroll4.div.block256": region3_f32_zero_unroll4_div_block256_exports,
  "gem-potential.ts.region3.f32.zero.unroll4.nr.block1024": region3_f32_zero_unroll4_nr_block1024_exports,
  "gem-potential.ts.region3.f32.zero.unroll4.nr.block256": region3_f32_zero_unroll4_nr_block256_exports,
  "gem-potential.ts.region3.f64.nonzero.unroll4.div.block0": region3_f64_nonzero_unroll4_div_block0_exports,
  "gem-potential.ts.region3.f64.zero.unroll1.div.block0": region3_f64_zero_unroll1_div_block0_exports,
  "gem-potential.ts.region3.f64.zero.unroll2.div.block0": region3_f64_zero_unroll2_div_block0_exports,
  "gem-potential.ts.region3.f64.zero.unroll4.div.block0": region3_f64_zero_unroll4_div_block0_exports,
  "gem-potential.ts.region3.f64.zero.unroll8.div.block0": region3_f64_zero_unroll8_div_block0_exports
};
export {
  variants
};
