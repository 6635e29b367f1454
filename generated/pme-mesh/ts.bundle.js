var __defProp = Object.defineProperty;
var __export = (target, all) => {
  for (var name in all)
    __defProp(target, name, { get: all[name], enumerable: true });
};

// pme-mesh/ts/order4.f32.full.tile0.ts
var order4_f32_full_tile0_exports = {};
__export(order4_f32_full_tile0_exports, {
  ORDER: () => ORDER,
  TILE: () => TILE,
  gather: () => gather,
  key: () => key,
  spread: () => spread
});
var key = "pme-mesh.ts.order4.f32.full.tile0";
var ORDER = 4;
var TILE = 0;
function spread(a) {
  const grid = a.grid;
  const frac = a.frac;
  const q = a.q;
  const cell = a.cell;
  const ord = a.order;
  const py = a.dims[1];
  const pz = a.dims[2];
  grid.fill(0);
  for (let ii = 0; ii < a.n; ii++) {
    const i = ord === null ? ii : ord[ii];
    const qi = q[i];
    if (qi === 0) continue;
    const wx = frac[3 * i];
    const wy = frac[3 * i + 1];
    const wz = frac[3 * i + 2];
    const x2_0 = wx;
    const x2_1 = 1 - wx;
    const x3_0 = 0.5 * (wx * x2_0);
    const x3_1 = 0.5 * ((wx + 1) * x2_1 + (2 - wx) * x2_0);
    const x3_2 = 0.5 * ((1 - wx) * x2_1);
    const x4_0 = 0.3333333333333333 * (wx * x3_0);
    const x4_1 = 0.3333333333333333 * ((wx + 1) * x3_1 + (3 - wx) * x3_0);
    const x4_2 = 0.3333333333333333 * ((wx + 2) * x3_2 + (2 - wx) * x3_1);
    const x4_3 = 0.3333333333333333 * ((1 - wx) * x3_2);
    const xM0 = x4_0;
    const xM1 = x4_1;
    const xM2 = x4_2;
    const xM3 = x4_3;
    const y2_0 = wy;
    const y2_1 = 1 - wy;
    const y3_0 = 0.5 * (wy * y2_0);
    const y3_1 = 0.5 * ((wy + 1) * y2_1 + (2 - wy) * y2_0);
    const y3_2 = 0.5 * ((1 - wy) * y2_1);
    const y4_0 = 0.3333333333333333 * (wy * y3_0);
    const y4_1 = 0.3333333333333333 * ((wy + 1) * y3_1 + (3 - wy) * y3_0);
    const y4_2 = 0.3333333333333333 * ((wy + 2) * y3_2 + (2 - wy) * y3_1);
    const y4_3 = 0.3333333333333333 * ((1 - wy) * y3_2);
    const yM0 = y4_0;
    const yM1 = y4_1;
    const yM2 = y4_2;
    const yM3 = y4_3;
    const z2_0 = wz;
    const z2_1 = 1 - wz;
    const z3_0 = 0.5 * (wz * z2_0);
    const z3_1 = 0.5 * ((wz + 1) * z2_1 + (2 - wz) * z2_0);
    const z3_2 = 0.5 * ((1 - wz) * z2_1);
    const z4_0 = 0.3333333333333333 * (wz * z3_0);
    const z4_1 = 0.3333333333333333 * ((wz + 1) * z3_1 + (3 - wz) * z3_0);
    const z4_2 = 0.3333333333333333 * ((wz + 2) * z3_2 + (2 - wz) * z3_1);
    const z4_3 = 0.3333333333333333 * ((1 - wz) * z3_2);
    const zM0 = z4_0;
    const zM1 = z4_1;
    const zM2 = z4_2;
    const zM3 = z4_3;
    const cx = cell[3 * i];
    const cy = cell[3 * i + 1];
    const cz = cell[3 * i + 2];
    {
      const base = ((cx + 0) * py + cy + 0) * pz + cz;
      const t = qi * xM3 * yM3;
      grid[base + 0] += t * zM3;
      grid[base + 1] += t * zM2;
      grid[base + 2] += t * zM1;
      grid[base + 3] += t * zM0;
    }
    {
      const base = ((cx + 0) * py + cy + 1) * pz + cz;
      const t = qi * xM3 * yM2;
      grid[base + 0] += t * zM3;
      grid[base + 1] += t * zM2;
      grid[base + 2] += t * zM1;
      grid[base + 3] += t * zM0;
    }
    {
      const base = ((cx + 0) * py + cy + 2) * pz + cz;
      const t = qi * xM3 * yM1;
      grid[base + 0] += t * zM3;
      grid[base + 1] += t * zM2;
      grid[base + 2] += t * zM1;
      grid[base + 3] += t * zM0;
    }
    {
      const base = ((cx + 0) * py + cy + 3) * pz + cz;
      const t = qi * xM3 * yM0;
      grid[base + 0] += t * zM3;
      grid[base + 1] += t * zM2;
      grid[base + 2] += t * zM1;
      grid[base + 3] += t * zM0;
    }
    {
      const base = ((cx + 1) * py + cy + 0) * pz + cz;
      const t = qi * xM2 * yM3;
      grid[base + 0] += t * zM3;
      grid[base + 1] += t * zM2;
      grid[base + 2] += t * zM1;
      grid[base + 3] += t * zM0;
    }
    {
      const base = ((cx + 1) * py + cy + 1) * pz + cz;
      const t = qi * xM2 * yM2;
      grid[base + 0] += t * zM3;
      grid[base + 1] += t * zM2;
      grid[base + 2] += t * zM1;
      grid[base + 3] += t * zM0;
    }
    {
      const base = ((cx + 1) * py + cy + 2) * pz + cz;
      const t = qi * xM2 * yM1;
      grid[base + 0] += t * zM3;
      grid[base + 1] += t * zM2;
      grid[base + 2] += t * zM1;
      grid[base + 3] += t * zM0;
    }
    {
      const base = ((cx + 1) * py + cy + 3) * pz + cz;
      const t = qi * xM2 * yM0;
      grid[base + 0] += t * zM3;
      grid[base + 1] += t * zM2;
      grid[base + 2] += t * zM1;
      grid[base + 3] += t * zM0;
    }
    {
      const base = ((cx + 2) * py + cy + 0) * pz + cz;
      const t = qi * xM1 * yM3;
      grid[base + 0] += t * zM3;
      grid[base + 1] += t * zM2;
      grid[base + 2] += t * zM1;
      grid[base + 3] += t * zM0;
    }
    {
      const base = ((cx + 2) * py + cy + 1) * pz + cz;
      const t = qi * xM1 * yM2;
      grid[base + 0] += t * zM3;
      grid[base + 1] += t * zM2;
      grid[base + 2] += t * zM1;
      grid[base + 3] += t * zM0;
    }
    {
      const base = ((cx + 2) * py + cy + 2) * pz + cz;
      const t = qi * xM1 * yM1;
      grid[base + 0] += t * zM3;
      grid[base + 1] += t * zM2;
      grid[base + 2] += t * zM1;
      grid[base + 3] += t * zM0;
    }
    {
      const base = ((cx + 2) * py + cy + 3) * pz + cz;
      const t = qi * xM1 * yM0;
      grid[base + 0] += t * zM3;
      grid[base + 1] += t * zM2;
      grid[base + 2] += t * zM1;
      grid[base + 3] += t * zM0;
    }
    {
      const base = ((cx + 3) * py + cy + 0) * pz + cz;
      const t = qi * xM0 * yM3;
      grid[base + 0] += t * zM3;
      grid[base + 1] += t * zM2;
      grid[base + 2] += t * zM1;
      grid[base + 3] += t * zM0;
    }
    {
      const base = ((cx + 3) * py + cy + 1) * pz + cz;
      const t = qi * xM0 * yM2;
      grid[base + 0] += t * zM3;
      grid[base + 1] += t * zM2;
      grid[base + 2] += t * zM1;
      grid[base + 3] += t * zM0;
    }
    {
      const base = ((cx + 3) * py + cy + 2) * pz + cz;
      const t = qi * xM0 * yM1;
      grid[base + 0] += t * zM3;
      grid[base + 1] += t * zM2;
      grid[base + 2] += t * zM1;
      grid[base + 3] += t * zM0;
    }
    {
      const base = ((cx + 3) * py + cy + 3) * pz + cz;
      const t = qi * xM0 * yM0;
      grid[base + 0] += t * zM3;
      grid[base + 1] += t * zM2;
      grid[base + 2] += t * zM1;
      grid[base + 3] += t * zM0;
    }
  }
}
function gather(a) {
  const phi = a.grid;
  const frac = a.frac;
  const q = a.q;
  const cell = a.cell;
  const ord = a.order;
  const f = a.f;
  const py = a.dims[1];
  const pz = a.dims[2];
  const [sx, sy, sz] = a.scale;
  for (let ii = 0; ii < a.n; ii++) {
    const i = ord === null ? ii : ord[ii];
    const qi = q[i];
    if (qi === 0) continue;
    const wx = frac[3 * i];
    const wy = frac[3 * i + 1];
    const wz = frac[3 * i + 2];
    const x2_0 = wx;
    const x2_1 = 1 - wx;
    const x3_0 = 0.5 * (wx * x2_0);
    const x3_1 = 0.5 * ((wx + 1) * x2_1 + (2 - wx) * x2_0);
    const x3_2 = 0.5 * ((1 - wx) * x2_1);
    const x4_0 = 0.3333333333333333 * (wx * x3_0);
    const x4_1 = 0.3333333333333333 * ((wx + 1) * x3_1 + (3 - wx) * x3_0);
    const x4_2 = 0.3333333333333333 * ((wx + 2) * x3_2 + (2 - wx) * x3_1);
    const x4_3 = 0.3333333333333333 * ((1 - wx) * x3_2);
    const xM0 = x4_0;
    const xM1 = x4_1;
    const xM2 = x4_2;
    const xM3 = x4_3;
    const xD0 = x3_0;
    const xD1 = x3_1 - x3_0;
    const xD2 = x3_2 - x3_1;
    const xD3 = -x3_2;
    const y2_0 = wy;
    const y2_1 = 1 - wy;
    const y3_0 = 0.5 * (wy * y2_0);
    const y3_1 = 0.5 * ((wy + 1) * y2_1 + (2 - wy) * y2_0);
    const y3_2 = 0.5 * ((1 - wy) * y2_1);
    const y4_0 = 0.3333333333333333 * (wy * y3_0);
    const y4_1 = 0.3333333333333333 * ((wy + 1) * y3_1 + (3 - wy) * y3_0);
    const y4_2 = 0.3333333333333333 * ((wy + 2) * y3_2 + (2 - wy) * y3_1);
    const y4_3 = 0.3333333333333333 * ((1 - wy) * y3_2);
    const yM0 = y4_0;
    const yM1 = y4_1;
    const yM2 = y4_2;
    const yM3 = y4_3;
    const yD0 = y3_0;
    const yD1 = y3_1 - y3_0;
    const yD2 = y3_2 - y3_1;
    const yD3 = -y3_2;
    const z2_0 = wz;
    const z2_1 = 1 - wz;
    const z3_0 = 0.5 * (wz * z2_0);
    const z3_1 = 0.5 * ((wz + 1) * z2_1 + (2 - wz) * z2_0);
    const z3_2 = 0.5 * ((1 - wz) * z2_1);
    const z4_0 = 0.3333333333333333 * (wz * z3_0);
    const z4_1 = 0.3333333333333333 * ((wz + 1) * z3_1 + (3 - wz) * z3_0);
    const z4_2 = 0.3333333333333333 * ((wz + 2) * z3_2 + (2 - wz) * z3_1);
    const z4_3 = 0.3333333333333333 * ((1 - wz) * z3_2);
    const zM0 = z4_0;
    const zM1 = z4_1;
    const zM2 = z4_2;
    const zM3 = z4_3;
    const zD0 = z3_0;
    const zD1 = z3_1 - z3_0;
    const zD2 = z3_2 - z3_1;
    const zD3 = -z3_2;
    const cx = cell[3 * i];
    const cy = cell[3 * i + 1];
    const cz = cell[3 * i + 2];
    let fx = 0;
    let fy = 0;
    let fz = 0;
    {
      const base = ((cx + 0) * py + cy + 0) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const s = p0 * zM3 + p1 * zM2 + p2 * zM1 + p3 * zM0;
      const ds = p0 * zD3 + p1 * zD2 + p2 * zD1 + p3 * zD0;
      fx += xD3 * yM3 * s;
      fy += xM3 * yD3 * s;
      fz += xM3 * yM3 * ds;
    }
    {
      const base = ((cx + 0) * py + cy + 1) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const s = p0 * zM3 + p1 * zM2 + p2 * zM1 + p3 * zM0;
      const ds = p0 * zD3 + p1 * zD2 + p2 * zD1 + p3 * zD0;
      fx += xD3 * yM2 * s;
      fy += xM3 * yD2 * s;
      fz += xM3 * yM2 * ds;
    }
    {
      const base = ((cx + 0) * py + cy + 2) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const s = p0 * zM3 + p1 * zM2 + p2 * zM1 + p3 * zM0;
      const ds = p0 * zD3 + p1 * zD2 + p2 * zD1 + p3 * zD0;
      fx += xD3 * yM1 * s;
      fy += xM3 * yD1 * s;
      fz += xM3 * yM1 * ds;
    }
    {
      const base = ((cx + 0) * py + cy + 3) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const s = p0 * zM3 + p1 * zM2 + p2 * zM1 + p3 * zM0;
      const ds = p0 * zD3 + p1 * zD2 + p2 * zD1 + p3 * zD0;
      fx += xD3 * yM0 * s;
      fy += xM3 * yD0 * s;
      fz += xM3 * yM0 * ds;
    }
    {
      const base = ((cx + 1) * py + cy + 0) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const s = p0 * zM3 + p1 * zM2 + p2 * zM1 + p3 * zM0;
      const ds = p0 * zD3 + p1 * zD2 + p2 * zD1 + p3 * zD0;
      fx += xD2 * yM3 * s;
      fy += xM2 * yD3 * s;
      fz += xM2 * yM3 * ds;
    }
    {
      const base = ((cx + 1) * py + cy + 1) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const s = p0 * zM3 + p1 * zM2 + p2 * zM1 + p3 * zM0;
      const ds = p0 * zD3 + p1 * zD2 + p2 * zD1 + p3 * zD0;
      fx += xD2 * yM2 * s;
      fy += xM2 * yD2 * s;
      fz += xM2 * yM2 * ds;
    }
    {
      const base = ((cx + 1) * py + cy + 2) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const s = p0 * zM3 + p1 * zM2 + p2 * zM1 + p3 * zM0;
      const ds = p0 * zD3 + p1 * zD2 + p2 * zD1 + p3 * zD0;
      fx += xD2 * yM1 * s;
      fy += xM2 * yD1 * s;
      fz += xM2 * yM1 * ds;
    }
    {
      const base = ((cx + 1) * py + cy + 3) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const s = p0 * zM3 + p1 * zM2 + p2 * zM1 + p3 * zM0;
      const ds = p0 * zD3 + p1 * zD2 + p2 * zD1 + p3 * zD0;
      fx += xD2 * yM0 * s;
      fy += xM2 * yD0 * s;
      fz += xM2 * yM0 * ds;
    }
    {
      const base = ((cx + 2) * py + cy + 0) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const s = p0 * zM3 + p1 * zM2 + p2 * zM1 + p3 * zM0;
      const ds = p0 * zD3 + p1 * zD2 + p2 * zD1 + p3 * zD0;
      fx += xD1 * yM3 * s;
      fy += xM1 * yD3 * s;
      fz += xM1 * yM3 * ds;
    }
    {
      const base = ((cx + 2) * py + cy + 1) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const s = p0 * zM3 + p1 * zM2 + p2 * zM1 + p3 * zM0;
      const ds = p0 * zD3 + p1 * zD2 + p2 * zD1 + p3 * zD0;
      fx += xD1 * yM2 * s;
      fy += xM1 * yD2 * s;
      fz += xM1 * yM2 * ds;
    }
    {
      const base = ((cx + 2) * py + cy + 2) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const s = p0 * zM3 + p1 * zM2 + p2 * zM1 + p3 * zM0;
      const ds = p0 * zD3 + p1 * zD2 + p2 * zD1 + p3 * zD0;
      fx += xD1 * yM1 * s;
      fy += xM1 * yD1 * s;
      fz += xM1 * yM1 * ds;
    }
    {
      const base = ((cx + 2) * py + cy + 3) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const s = p0 * zM3 + p1 * zM2 + p2 * zM1 + p3 * zM0;
      const ds = p0 * zD3 + p1 * zD2 + p2 * zD1 + p3 * zD0;
      fx += xD1 * yM0 * s;
      fy += xM1 * yD0 * s;
      fz += xM1 * yM0 * ds;
    }
    {
      const base = ((cx + 3) * py + cy + 0) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const s = p0 * zM3 + p1 * zM2 + p2 * zM1 + p3 * zM0;
      const ds = p0 * zD3 + p1 * zD2 + p2 * zD1 + p3 * zD0;
      fx += xD0 * yM3 * s;
      fy += xM0 * yD3 * s;
      fz += xM0 * yM3 * ds;
    }
    {
      const base = ((cx + 3) * py + cy + 1) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const s = p0 * zM3 + p1 * zM2 + p2 * zM1 + p3 * zM0;
      const ds = p0 * zD3 + p1 * zD2 + p2 * zD1 + p3 * zD0;
      fx += xD0 * yM2 * s;
      fy += xM0 * yD2 * s;
      fz += xM0 * yM2 * ds;
    }
    {
      const base = ((cx + 3) * py + cy + 2) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const s = p0 * zM3 + p1 * zM2 + p2 * zM1 + p3 * zM0;
      const ds = p0 * zD3 + p1 * zD2 + p2 * zD1 + p3 * zD0;
      fx += xD0 * yM1 * s;
      fy += xM0 * yD1 * s;
      fz += xM0 * yM1 * ds;
    }
    {
      const base = ((cx + 3) * py + cy + 3) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const s = p0 * zM3 + p1 * zM2 + p2 * zM1 + p3 * zM0;
      const ds = p0 * zD3 + p1 * zD2 + p2 * zD1 + p3 * zD0;
      fx += xD0 * yM0 * s;
      fy += xM0 * yD0 * s;
      fz += xM0 * yM0 * ds;
    }
    f[3 * i] -= qi * fx * sx;
    f[3 * i + 1] -= qi * fy * sy;
    f[3 * i + 2] -= qi * fz * sz;
  }
}

// pme-mesh/ts/order4.f64.full.tile0.ts
var order4_f64_full_tile0_exports = {};
__export(order4_f64_full_tile0_exports, {
  ORDER: () => ORDER2,
  TILE: () => TILE2,
  gather: () => gather2,
  key: () => key2,
  spread: () => spread2
});
var key2 = "pme-mesh.ts.order4.f64.full.tile0";
var ORDER2 = 4;
var TILE2 = 0;
function spread2(a) {
  const grid = a.grid;
  const frac = a.frac;
  const q = a.q;
  const cell = a.cell;
  const ord = a.order;
  const py = a.dims[1];
  const pz = a.dims[2];
  grid.fill(0);
  for (let ii = 0; ii < a.n; ii++) {
    const i = ord === null ? ii : ord[ii];
    const qi = q[i];
    if (qi === 0) continue;
    const wx = frac[3 * i];
    const wy = frac[3 * i + 1];
    const wz = frac[3 * i + 2];
    const x2_0 = wx;
    const x2_1 = 1 - wx;
    const x3_0 = 0.5 * (wx * x2_0);
    const x3_1 = 0.5 * ((wx + 1) * x2_1 + (2 - wx) * x2_0);
    const x3_2 = 0.5 * ((1 - wx) * x2_1);
    const x4_0 = 0.3333333333333333 * (wx * x3_0);
    const x4_1 = 0.3333333333333333 * ((wx + 1) * x3_1 + (3 - wx) * x3_0);
    const x4_2 = 0.3333333333333333 * ((wx + 2) * x3_2 + (2 - wx) * x3_1);
    const x4_3 = 0.3333333333333333 * ((1 - wx) * x3_2);
    const xM0 = x4_0;
    const xM1 = x4_1;
    const xM2 = x4_2;
    const xM3 = x4_3;
    const y2_0 = wy;
    const y2_1 = 1 - wy;
    const y3_0 = 0.5 * (wy * y2_0);
    const y3_1 = 0.5 * ((wy + 1) * y2_1 + (2 - wy) * y2_0);
    const y3_2 = 0.5 * ((1 - wy) * y2_1);
    const y4_0 = 0.3333333333333333 * (wy * y3_0);
    const y4_1 = 0.3333333333333333 * ((wy + 1) * y3_1 + (3 - wy) * y3_0);
    const y4_2 = 0.3333333333333333 * ((wy + 2) * y3_2 + (2 - wy) * y3_1);
    const y4_3 = 0.3333333333333333 * ((1 - wy) * y3_2);
    const yM0 = y4_0;
    const yM1 = y4_1;
    const yM2 = y4_2;
    const yM3 = y4_3;
    const z2_0 = wz;
    const z2_1 = 1 - wz;
    const z3_0 = 0.5 * (wz * z2_0);
    const z3_1 = 0.5 * ((wz + 1) * z2_1 + (2 - wz) * z2_0);
    const z3_2 = 0.5 * ((1 - wz) * z2_1);
    const z4_0 = 0.3333333333333333 * (wz * z3_0);
    const z4_1 = 0.3333333333333333 * ((wz + 1) * z3_1 + (3 - wz) * z3_0);
    const z4_2 = 0.3333333333333333 * ((wz + 2) * z3_2 + (2 - wz) * z3_1);
    const z4_3 = 0.3333333333333333 * ((1 - wz) * z3_2);
    const zM0 = z4_0;
    const zM1 = z4_1;
    const zM2 = z4_2;
    const zM3 = z4_3;
    const cx = cell[3 * i];
    const cy = cell[3 * i + 1];
    const cz = cell[3 * i + 2];
    {
      const base = ((cx + 0) * py + cy + 0) * pz + cz;
      const t = qi * xM3 * yM3;
      grid[base + 0] += t * zM3;
      grid[base + 1] += t * zM2;
      grid[base + 2] += t * zM1;
      grid[base + 3] += t * zM0;
    }
    {
      const base = ((cx + 0) * py + cy + 1) * pz + cz;
      const t = qi * xM3 * yM2;
      grid[base + 0] += t * zM3;
      grid[base + 1] += t * zM2;
      grid[base + 2] += t * zM1;
      grid[base + 3] += t * zM0;
    }
    {
      const base = ((cx + 0) * py + cy + 2) * pz + cz;
      const t = qi * xM3 * yM1;
      grid[base + 0] += t * zM3;
      grid[base + 1] += t * zM2;
      grid[base + 2] += t * zM1;
      grid[base + 3] += t * zM0;
    }
    {
      const base = ((cx + 0) * py + cy + 3) * pz + cz;
      const t = qi * xM3 * yM0;
      grid[base + 0] += t * zM3;
      grid[base + 1] += t * zM2;
      grid[base + 2] += t * zM1;
      grid[base + 3] += t * zM0;
    }
    {
      const base = ((cx + 1) * py + cy + 0) * pz + cz;
      const t = qi * xM2 * yM3;
      grid[base + 0] += t * zM3;
      grid[base + 1] += t * zM2;
      grid[base + 2] += t * zM1;
      grid[base + 3] += t * zM0;
    }
    {
      const base = ((cx + 1) * py + cy + 1) * pz + cz;
      const t = qi * xM2 * yM2;
      grid[base + 0] += t * zM3;
      grid[base + 1] += t * zM2;
      grid[base + 2] += t * zM1;
      grid[base + 3] += t * zM0;
    }
    {
      const base = ((cx + 1) * py + cy + 2) * pz + cz;
      const t = qi * xM2 * yM1;
      grid[base + 0] += t * zM3;
      grid[base + 1] += t * zM2;
      grid[base + 2] += t * zM1;
      grid[base + 3] += t * zM0;
    }
    {
      const base = ((cx + 1) * py + cy + 3) * pz + cz;
      const t = qi * xM2 * yM0;
      grid[base + 0] += t * zM3;
      grid[base + 1] += t * zM2;
      grid[base + 2] += t * zM1;
      grid[base + 3] += t * zM0;
    }
    {
      const base = ((cx + 2) * py + cy + 0) * pz + cz;
      const t = qi * xM1 * yM3;
      grid[base + 0] += t * zM3;
      grid[base + 1] += t * zM2;
      grid[base + 2] += t * zM1;
      grid[base + 3] += t * zM0;
    }
    {
      const base = ((cx + 2) * py + cy + 1) * pz + cz;
      const t = qi * xM1 * yM2;
      grid[base + 0] += t * zM3;
      grid[base + 1] += t * zM2;
      grid[base + 2] += t * zM1;
      grid[base + 3] += t * zM0;
    }
    {
      const base = ((cx + 2) * py + cy + 2) * pz + cz;
      const t = qi * xM1 * yM1;
      grid[base + 0] += t * zM3;
      grid[base + 1] += t * zM2;
      grid[base + 2] += t * zM1;
      grid[base + 3] += t * zM0;
    }
    {
      const base = ((cx + 2) * py + cy + 3) * pz + cz;
      const t = qi * xM1 * yM0;
      grid[base + 0] += t * zM3;
      grid[base + 1] += t * zM2;
      grid[base + 2] += t * zM1;
      grid[base + 3] += t * zM0;
    }
    {
      const base = ((cx + 3) * py + cy + 0) * pz + cz;
      const t = qi * xM0 * yM3;
      grid[base + 0] += t * zM3;
      grid[base + 1] += t * zM2;
      grid[base + 2] += t * zM1;
      grid[base + 3] += t * zM0;
    }
    {
      const base = ((cx + 3) * py + cy + 1) * pz + cz;
      const t = qi * xM0 * yM2;
      grid[base + 0] += t * zM3;
      grid[base + 1] += t * zM2;
      grid[base + 2] += t * zM1;
      grid[base + 3] += t * zM0;
    }
    {
      const base = ((cx + 3) * py + cy + 2) * pz + cz;
      const t = qi * xM0 * yM1;
      grid[base + 0] += t * zM3;
      grid[base + 1] += t * zM2;
      grid[base + 2] += t * zM1;
      grid[base + 3] += t * zM0;
    }
    {
      const base = ((cx + 3) * py + cy + 3) * pz + cz;
      const t = qi * xM0 * yM0;
      grid[base + 0] += t * zM3;
      grid[base + 1] += t * zM2;
      grid[base + 2] += t * zM1;
      grid[base + 3] += t * zM0;
    }
  }
}
function gather2(a) {
  const phi = a.grid;
  const frac = a.frac;
  const q = a.q;
  const cell = a.cell;
  const ord = a.order;
  const f = a.f;
  const py = a.dims[1];
  const pz = a.dims[2];
  const [sx, sy, sz] = a.scale;
  for (let ii = 0; ii < a.n; ii++) {
    const i = ord === null ? ii : ord[ii];
    const qi = q[i];
    if (qi === 0) continue;
    const wx = frac[3 * i];
    const wy = frac[3 * i + 1];
    const wz = frac[3 * i + 2];
    const x2_0 = wx;
    const x2_1 = 1 - wx;
    const x3_0 = 0.5 * (wx * x2_0);
    const x3_1 = 0.5 * ((wx + 1) * x2_1 + (2 - wx) * x2_0);
    const x3_2 = 0.5 * ((1 - wx) * x2_1);
    const x4_0 = 0.3333333333333333 * (wx * x3_0);
    const x4_1 = 0.3333333333333333 * ((wx + 1) * x3_1 + (3 - wx) * x3_0);
    const x4_2 = 0.3333333333333333 * ((wx + 2) * x3_2 + (2 - wx) * x3_1);
    const x4_3 = 0.3333333333333333 * ((1 - wx) * x3_2);
    const xM0 = x4_0;
    const xM1 = x4_1;
    const xM2 = x4_2;
    const xM3 = x4_3;
    const xD0 = x3_0;
    const xD1 = x3_1 - x3_0;
    const xD2 = x3_2 - x3_1;
    const xD3 = -x3_2;
    const y2_0 = wy;
    const y2_1 = 1 - wy;
    const y3_0 = 0.5 * (wy * y2_0);
    const y3_1 = 0.5 * ((wy + 1) * y2_1 + (2 - wy) * y2_0);
    const y3_2 = 0.5 * ((1 - wy) * y2_1);
    const y4_0 = 0.3333333333333333 * (wy * y3_0);
    const y4_1 = 0.3333333333333333 * ((wy + 1) * y3_1 + (3 - wy) * y3_0);
    const y4_2 = 0.3333333333333333 * ((wy + 2) * y3_2 + (2 - wy) * y3_1);
    const y4_3 = 0.3333333333333333 * ((1 - wy) * y3_2);
    const yM0 = y4_0;
    const yM1 = y4_1;
    const yM2 = y4_2;
    const yM3 = y4_3;
    const yD0 = y3_0;
    const yD1 = y3_1 - y3_0;
    const yD2 = y3_2 - y3_1;
    const yD3 = -y3_2;
    const z2_0 = wz;
    const z2_1 = 1 - wz;
    const z3_0 = 0.5 * (wz * z2_0);
    const z3_1 = 0.5 * ((wz + 1) * z2_1 + (2 - wz) * z2_0);
    const z3_2 = 0.5 * ((1 - wz) * z2_1);
    const z4_0 = 0.3333333333333333 * (wz * z3_0);
    const z4_1 = 0.3333333333333333 * ((wz + 1) * z3_1 + (3 - wz) * z3_0);
    const z4_2 = 0.3333333333333333 * ((wz + 2) * z3_2 + (2 - wz) * z3_1);
    const z4_3 = 0.3333333333333333 * ((1 - wz) * z3_2);
    const zM0 = z4_0;
    const zM1 = z4_1;
    const zM2 = z4_2;
    const zM3 = z4_3;
    const zD0 = z3_0;
    const zD1 = z3_1 - z3_0;
    const zD2 = z3_2 - z3_1;
    const zD3 = -z3_2;
    const cx = cell[3 * i];
    const cy = cell[3 * i + 1];
    const cz = cell[3 * i + 2];
    let fx = 0;
    let fy = 0;
    let fz = 0;
    {
      const base = ((cx + 0) * py + cy + 0) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const s = p0 * zM3 + p1 * zM2 + p2 * zM1 + p3 * zM0;
      const ds = p0 * zD3 + p1 * zD2 + p2 * zD1 + p3 * zD0;
      fx += xD3 * yM3 * s;
      fy += xM3 * yD3 * s;
      fz += xM3 * yM3 * ds;
    }
    {
      const base = ((cx + 0) * py + cy + 1) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const s = p0 * zM3 + p1 * zM2 + p2 * zM1 + p3 * zM0;
      const ds = p0 * zD3 + p1 * zD2 + p2 * zD1 + p3 * zD0;
      fx += xD3 * yM2 * s;
      fy += xM3 * yD2 * s;
      fz += xM3 * yM2 * ds;
    }
    {
      const base = ((cx + 0) * py + cy + 2) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const s = p0 * zM3 + p1 * zM2 + p2 * zM1 + p3 * zM0;
      const ds = p0 * zD3 + p1 * zD2 + p2 * zD1 + p3 * zD0;
      fx += xD3 * yM1 * s;
      fy += xM3 * yD1 * s;
      fz += xM3 * yM1 * ds;
    }
    {
      const base = ((cx + 0) * py + cy + 3) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const s = p0 * zM3 + p1 * zM2 + p2 * zM1 + p3 * zM0;
      const ds = p0 * zD3 + p1 * zD2 + p2 * zD1 + p3 * zD0;
      fx += xD3 * yM0 * s;
      fy += xM3 * yD0 * s;
      fz += xM3 * yM0 * ds;
    }
    {
      const base = ((cx + 1) * py + cy + 0) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const s = p0 * zM3 + p1 * zM2 + p2 * zM1 + p3 * zM0;
      const ds = p0 * zD3 + p1 * zD2 + p2 * zD1 + p3 * zD0;
      fx += xD2 * yM3 * s;
      fy += xM2 * yD3 * s;
      fz += xM2 * yM3 * ds;
    }
    {
      const base = ((cx + 1) * py + cy + 1) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const s = p0 * zM3 + p1 * zM2 + p2 * zM1 + p3 * zM0;
      const ds = p0 * zD3 + p1 * zD2 + p2 * zD1 + p3 * zD0;
      fx += xD2 * yM2 * s;
      fy += xM2 * yD2 * s;
      fz += xM2 * yM2 * ds;
    }
    {
      const base = ((cx + 1) * py + cy + 2) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const s = p0 * zM3 + p1 * zM2 + p2 * zM1 + p3 * zM0;
      const ds = p0 * zD3 + p1 * zD2 + p2 * zD1 + p3 * zD0;
      fx += xD2 * yM1 * s;
      fy += xM2 * yD1 * s;
      fz += xM2 * yM1 * ds;
    }
    {
      const base = ((cx + 1) * py + cy + 3) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const s = p0 * zM3 + p1 * zM2 + p2 * zM1 + p3 * zM0;
      const ds = p0 * zD3 + p1 * zD2 + p2 * zD1 + p3 * zD0;
      fx += xD2 * yM0 * s;
      fy += xM2 * yD0 * s;
      fz += xM2 * yM0 * ds;
    }
    {
      const base = ((cx + 2) * py + cy + 0) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const s = p0 * zM3 + p1 * zM2 + p2 * zM1 + p3 * zM0;
      const ds = p0 * zD3 + p1 * zD2 + p2 * zD1 + p3 * zD0;
      fx += xD1 * yM3 * s;
      fy += xM1 * yD3 * s;
      fz += xM1 * yM3 * ds;
    }
    {
      const base = ((cx + 2) * py + cy + 1) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const s = p0 * zM3 + p1 * zM2 + p2 * zM1 + p3 * zM0;
      const ds = p0 * zD3 + p1 * zD2 + p2 * zD1 + p3 * zD0;
      fx += xD1 * yM2 * s;
      fy += xM1 * yD2 * s;
      fz += xM1 * yM2 * ds;
    }
    {
      const base = ((cx + 2) * py + cy + 2) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const s = p0 * zM3 + p1 * zM2 + p2 * zM1 + p3 * zM0;
      const ds = p0 * zD3 + p1 * zD2 + p2 * zD1 + p3 * zD0;
      fx += xD1 * yM1 * s;
      fy += xM1 * yD1 * s;
      fz += xM1 * yM1 * ds;
    }
    {
      const base = ((cx + 2) * py + cy + 3) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const s = p0 * zM3 + p1 * zM2 + p2 * zM1 + p3 * zM0;
      const ds = p0 * zD3 + p1 * zD2 + p2 * zD1 + p3 * zD0;
      fx += xD1 * yM0 * s;
      fy += xM1 * yD0 * s;
      fz += xM1 * yM0 * ds;
    }
    {
      const base = ((cx + 3) * py + cy + 0) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const s = p0 * zM3 + p1 * zM2 + p2 * zM1 + p3 * zM0;
      const ds = p0 * zD3 + p1 * zD2 + p2 * zD1 + p3 * zD0;
      fx += xD0 * yM3 * s;
      fy += xM0 * yD3 * s;
      fz += xM0 * yM3 * ds;
    }
    {
      const base = ((cx + 3) * py + cy + 1) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const s = p0 * zM3 + p1 * zM2 + p2 * zM1 + p3 * zM0;
      const ds = p0 * zD3 + p1 * zD2 + p2 * zD1 + p3 * zD0;
      fx += xD0 * yM2 * s;
      fy += xM0 * yD2 * s;
      fz += xM0 * yM2 * ds;
    }
    {
      const base = ((cx + 3) * py + cy + 2) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const s = p0 * zM3 + p1 * zM2 + p2 * zM1 + p3 * zM0;
      const ds = p0 * zD3 + p1 * zD2 + p2 * zD1 + p3 * zD0;
      fx += xD0 * yM1 * s;
      fy += xM0 * yD1 * s;
      fz += xM0 * yM1 * ds;
    }
    {
      const base = ((cx + 3) * py + cy + 3) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const s = p0 * zM3 + p1 * zM2 + p2 * zM1 + p3 * zM0;
      const ds = p0 * zD3 + p1 * zD2 + p2 * zD1 + p3 * zD0;
      fx += xD0 * yM0 * s;
      fy += xM0 * yD0 * s;
      fz += xM0 * yM0 * ds;
    }
    f[3 * i] -= qi * fx * sx;
    f[3 * i + 1] -= qi * fy * sy;
    f[3 * i + 2] -= qi * fz * sz;
  }
}

// pme-mesh/ts/order4.f64.full.tile4.ts
var order4_f64_full_tile4_exports = {};
__export(order4_f64_full_tile4_exports, {
  ORDER: () => ORDER3,
  TILE: () => TILE3,
  gather: () => gather3,
  key: () => key3,
  spread: () => spread3
});
var key3 = "pme-mesh.ts.order4.f64.full.tile4";
var ORDER3 = 4;
var TILE3 = 4;
function spread3(a) {
  const grid = a.grid;
  const frac = a.frac;
  const q = a.q;
  const cell = a.cell;
  const ord = a.order;
  const py = a.dims[1];
  const pz = a.dims[2];
  grid.fill(0);
  for (let ii = 0; ii < a.n; ii++) {
    const i = ord === null ? ii : ord[ii];
    const qi = q[i];
    if (qi === 0) continue;
    const wx = frac[3 * i];
    const wy = frac[3 * i + 1];
    const wz = frac[3 * i + 2];
    const x2_0 = wx;
    const x2_1 = 1 - wx;
    const x3_0 = 0.5 * (wx * x2_0);
    const x3_1 = 0.5 * ((wx + 1) * x2_1 + (2 - wx) * x2_0);
    const x3_2 = 0.5 * ((1 - wx) * x2_1);
    const x4_0 = 0.3333333333333333 * (wx * x3_0);
    const x4_1 = 0.3333333333333333 * ((wx + 1) * x3_1 + (3 - wx) * x3_0);
    const x4_2 = 0.3333333333333333 * ((wx + 2) * x3_2 + (2 - wx) * x3_1);
    const x4_3 = 0.3333333333333333 * ((1 - wx) * x3_2);
    const xM0 = x4_0;
    const xM1 = x4_1;
    const xM2 = x4_2;
    const xM3 = x4_3;
    const y2_0 = wy;
    const y2_1 = 1 - wy;
    const y3_0 = 0.5 * (wy * y2_0);
    const y3_1 = 0.5 * ((wy + 1) * y2_1 + (2 - wy) * y2_0);
    const y3_2 = 0.5 * ((1 - wy) * y2_1);
    const y4_0 = 0.3333333333333333 * (wy * y3_0);
    const y4_1 = 0.3333333333333333 * ((wy + 1) * y3_1 + (3 - wy) * y3_0);
    const y4_2 = 0.3333333333333333 * ((wy + 2) * y3_2 + (2 - wy) * y3_1);
    const y4_3 = 0.3333333333333333 * ((1 - wy) * y3_2);
    const yM0 = y4_0;
    const yM1 = y4_1;
    const yM2 = y4_2;
    const yM3 = y4_3;
    const z2_0 = wz;
    const z2_1 = 1 - wz;
    const z3_0 = 0.5 * (wz * z2_0);
    const z3_1 = 0.5 * ((wz + 1) * z2_1 + (2 - wz) * z2_0);
    const z3_2 = 0.5 * ((1 - wz) * z2_1);
    const z4_0 = 0.3333333333333333 * (wz * z3_0);
    const z4_1 = 0.3333333333333333 * ((wz + 1) * z3_1 + (3 - wz) * z3_0);
    const z4_2 = 0.3333333333333333 * ((wz + 2) * z3_2 + (2 - wz) * z3_1);
    const z4_3 = 0.3333333333333333 * ((1 - wz) * z3_2);
    const zM0 = z4_0;
    const zM1 = z4_1;
    const zM2 = z4_2;
    const zM3 = z4_3;
    const cx = cell[3 * i];
    const cy = cell[3 * i + 1];
    const cz = cell[3 * i + 2];
    {
      const base = ((cx + 0) * py + cy + 0) * pz + cz;
      const t = qi * xM3 * yM3;
      grid[base + 0] += t * zM3;
      grid[base + 1] += t * zM2;
      grid[base + 2] += t * zM1;
      grid[base + 3] += t * zM0;
    }
    {
      const base = ((cx + 0) * py + cy + 1) * pz + cz;
      const t = qi * xM3 * yM2;
      grid[base + 0] += t * zM3;
      grid[base + 1] += t * zM2;
      grid[base + 2] += t * zM1;
      grid[base + 3] += t * zM0;
    }
    {
      const base = ((cx + 0) * py + cy + 2) * pz + cz;
      const t = qi * xM3 * yM1;
      grid[base + 0] += t * zM3;
      grid[base + 1] += t * zM2;
      grid[base + 2] += t * zM1;
      grid[base + 3] += t * zM0;
    }
    {
      const base = ((cx + 0) * py + cy + 3) * pz + cz;
      const t = qi * xM3 * yM0;
      grid[base + 0] += t * zM3;
      grid[base + 1] += t * zM2;
      grid[base + 2] += t * zM1;
      grid[base + 3] += t * zM0;
    }
    {
      const base = ((cx + 1) * py + cy + 0) * pz + cz;
      const t = qi * xM2 * yM3;
      grid[base + 0] += t * zM3;
      grid[base + 1] += t * zM2;
      grid[base + 2] += t * zM1;
      grid[base + 3] += t * zM0;
    }
    {
      const base = ((cx + 1) * py + cy + 1) * pz + cz;
      const t = qi * xM2 * yM2;
      grid[base + 0] += t * zM3;
      grid[base + 1] += t * zM2;
      grid[base + 2] += t * zM1;
      grid[base + 3] += t * zM0;
    }
    {
      const base = ((cx + 1) * py + cy + 2) * pz + cz;
      const t = qi * xM2 * yM1;
      grid[base + 0] += t * zM3;
      grid[base + 1] += t * zM2;
      grid[base + 2] += t * zM1;
      grid[base + 3] += t * zM0;
    }
    {
      const base = ((cx + 1) * py + cy + 3) * pz + cz;
      const t = qi * xM2 * yM0;
      grid[base + 0] += t * zM3;
      grid[base + 1] += t * zM2;
      grid[base + 2] += t * zM1;
      grid[base + 3] += t * zM0;
    }
    {
      const base = ((cx + 2) * py + cy + 0) * pz + cz;
      const t = qi * xM1 * yM3;
      grid[base + 0] += t * zM3;
      grid[base + 1] += t * zM2;
      grid[base + 2] += t * zM1;
      grid[base + 3] += t * zM0;
    }
    {
      const base = ((cx + 2) * py + cy + 1) * pz + cz;
      const t = qi * xM1 * yM2;
      grid[base + 0] += t * zM3;
      grid[base + 1] += t * zM2;
      grid[base + 2] += t * zM1;
      grid[base + 3] += t * zM0;
    }
    {
      const base = ((cx + 2) * py + cy + 2) * pz + cz;
      const t = qi * xM1 * yM1;
      grid[base + 0] += t * zM3;
      grid[base + 1] += t * zM2;
      grid[base + 2] += t * zM1;
      grid[base + 3] += t * zM0;
    }
    {
      const base = ((cx + 2) * py + cy + 3) * pz + cz;
      const t = qi * xM1 * yM0;
      grid[base + 0] += t * zM3;
      grid[base + 1] += t * zM2;
      grid[base + 2] += t * zM1;
      grid[base + 3] += t * zM0;
    }
    {
      const base = ((cx + 3) * py + cy + 0) * pz + cz;
      const t = qi * xM0 * yM3;
      grid[base + 0] += t * zM3;
      grid[base + 1] += t * zM2;
      grid[base + 2] += t * zM1;
      grid[base + 3] += t * zM0;
    }
    {
      const base = ((cx + 3) * py + cy + 1) * pz + cz;
      const t = qi * xM0 * yM2;
      grid[base + 0] += t * zM3;
      grid[base + 1] += t * zM2;
      grid[base + 2] += t * zM1;
      grid[base + 3] += t * zM0;
    }
    {
      const base = ((cx + 3) * py + cy + 2) * pz + cz;
      const t = qi * xM0 * yM1;
      grid[base + 0] += t * zM3;
      grid[base + 1] += t * zM2;
      grid[base + 2] += t * zM1;
      grid[base + 3] += t * zM0;
    }
    {
      const base = ((cx + 3) * py + cy + 3) * pz + cz;
      const t = qi * xM0 * yM0;
      grid[base + 0] += t * zM3;
      grid[base + 1] += t * zM2;
      grid[base + 2] += t * zM1;
      grid[base + 3] += t * zM0;
    }
  }
}
function gather3(a) {
  const phi = a.grid;
  const frac = a.frac;
  const q = a.q;
  const cell = a.cell;
  const ord = a.order;
  const f = a.f;
  const py = a.dims[1];
  const pz = a.dims[2];
  const [sx, sy, sz] = a.scale;
  for (let ii = 0; ii < a.n; ii++) {
    const i = ord === null ? ii : ord[ii];
    const qi = q[i];
    if (qi === 0) continue;
    const wx = frac[3 * i];
    const wy = frac[3 * i + 1];
    const wz = frac[3 * i + 2];
    const x2_0 = wx;
    const x2_1 = 1 - wx;
    const x3_0 = 0.5 * (wx * x2_0);
    const x3_1 = 0.5 * ((wx + 1) * x2_1 + (2 - wx) * x2_0);
    const x3_2 = 0.5 * ((1 - wx) * x2_1);
    const x4_0 = 0.3333333333333333 * (wx * x3_0);
    const x4_1 = 0.3333333333333333 * ((wx + 1) * x3_1 + (3 - wx) * x3_0);
    const x4_2 = 0.3333333333333333 * ((wx + 2) * x3_2 + (2 - wx) * x3_1);
    const x4_3 = 0.3333333333333333 * ((1 - wx) * x3_2);
    const xM0 = x4_0;
    const xM1 = x4_1;
    const xM2 = x4_2;
    const xM3 = x4_3;
    const xD0 = x3_0;
    const xD1 = x3_1 - x3_0;
    const xD2 = x3_2 - x3_1;
    const xD3 = -x3_2;
    const y2_0 = wy;
    const y2_1 = 1 - wy;
    const y3_0 = 0.5 * (wy * y2_0);
    const y3_1 = 0.5 * ((wy + 1) * y2_1 + (2 - wy) * y2_0);
    const y3_2 = 0.5 * ((1 - wy) * y2_1);
    const y4_0 = 0.3333333333333333 * (wy * y3_0);
    const y4_1 = 0.3333333333333333 * ((wy + 1) * y3_1 + (3 - wy) * y3_0);
    const y4_2 = 0.3333333333333333 * ((wy + 2) * y3_2 + (2 - wy) * y3_1);
    const y4_3 = 0.3333333333333333 * ((1 - wy) * y3_2);
    const yM0 = y4_0;
    const yM1 = y4_1;
    const yM2 = y4_2;
    const yM3 = y4_3;
    const yD0 = y3_0;
    const yD1 = y3_1 - y3_0;
    const yD2 = y3_2 - y3_1;
    const yD3 = -y3_2;
    const z2_0 = wz;
    const z2_1 = 1 - wz;
    const z3_0 = 0.5 * (wz * z2_0);
    const z3_1 = 0.5 * ((wz + 1) * z2_1 + (2 - wz) * z2_0);
    const z3_2 = 0.5 * ((1 - wz) * z2_1);
    const z4_0 = 0.3333333333333333 * (wz * z3_0);
    const z4_1 = 0.3333333333333333 * ((wz + 1) * z3_1 + (3 - wz) * z3_0);
    const z4_2 = 0.3333333333333333 * ((wz + 2) * z3_2 + (2 - wz) * z3_1);
    const z4_3 = 0.3333333333333333 * ((1 - wz) * z3_2);
    const zM0 = z4_0;
    const zM1 = z4_1;
    const zM2 = z4_2;
    const zM3 = z4_3;
    const zD0 = z3_0;
    const zD1 = z3_1 - z3_0;
    const zD2 = z3_2 - z3_1;
    const zD3 = -z3_2;
    const cx = cell[3 * i];
    const cy = cell[3 * i + 1];
    const cz = cell[3 * i + 2];
    let fx = 0;
    let fy = 0;
    let fz = 0;
    {
      const base = ((cx + 0) * py + cy + 0) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const s = p0 * zM3 + p1 * zM2 + p2 * zM1 + p3 * zM0;
      const ds = p0 * zD3 + p1 * zD2 + p2 * zD1 + p3 * zD0;
      fx += xD3 * yM3 * s;
      fy += xM3 * yD3 * s;
      fz += xM3 * yM3 * ds;
    }
    {
      const base = ((cx + 0) * py + cy + 1) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const s = p0 * zM3 + p1 * zM2 + p2 * zM1 + p3 * zM0;
      const ds = p0 * zD3 + p1 * zD2 + p2 * zD1 + p3 * zD0;
      fx += xD3 * yM2 * s;
      fy += xM3 * yD2 * s;
      fz += xM3 * yM2 * ds;
    }
    {
      const base = ((cx + 0) * py + cy + 2) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const s = p0 * zM3 + p1 * zM2 + p2 * zM1 + p3 * zM0;
      const ds = p0 * zD3 + p1 * zD2 + p2 * zD1 + p3 * zD0;
      fx += xD3 * yM1 * s;
      fy += xM3 * yD1 * s;
      fz += xM3 * yM1 * ds;
    }
    {
      const base = ((cx + 0) * py + cy + 3) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const s = p0 * zM3 + p1 * zM2 + p2 * zM1 + p3 * zM0;
      const ds = p0 * zD3 + p1 * zD2 + p2 * zD1 + p3 * zD0;
      fx += xD3 * yM0 * s;
      fy += xM3 * yD0 * s;
      fz += xM3 * yM0 * ds;
    }
    {
      const base = ((cx + 1) * py + cy + 0) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const s = p0 * zM3 + p1 * zM2 + p2 * zM1 + p3 * zM0;
      const ds = p0 * zD3 + p1 * zD2 + p2 * zD1 + p3 * zD0;
      fx += xD2 * yM3 * s;
      fy += xM2 * yD3 * s;
      fz += xM2 * yM3 * ds;
    }
    {
      const base = ((cx + 1) * py + cy + 1) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const s = p0 * zM3 + p1 * zM2 + p2 * zM1 + p3 * zM0;
      const ds = p0 * zD3 + p1 * zD2 + p2 * zD1 + p3 * zD0;
      fx += xD2 * yM2 * s;
      fy += xM2 * yD2 * s;
      fz += xM2 * yM2 * ds;
    }
    {
      const base = ((cx + 1) * py + cy + 2) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const s = p0 * zM3 + p1 * zM2 + p2 * zM1 + p3 * zM0;
      const ds = p0 * zD3 + p1 * zD2 + p2 * zD1 + p3 * zD0;
      fx += xD2 * yM1 * s;
      fy += xM2 * yD1 * s;
      fz += xM2 * yM1 * ds;
    }
    {
      const base = ((cx + 1) * py + cy + 3) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const s = p0 * zM3 + p1 * zM2 + p2 * zM1 + p3 * zM0;
      const ds = p0 * zD3 + p1 * zD2 + p2 * zD1 + p3 * zD0;
      fx += xD2 * yM0 * s;
      fy += xM2 * yD0 * s;
      fz += xM2 * yM0 * ds;
    }
    {
      const base = ((cx + 2) * py + cy + 0) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const s = p0 * zM3 + p1 * zM2 + p2 * zM1 + p3 * zM0;
      const ds = p0 * zD3 + p1 * zD2 + p2 * zD1 + p3 * zD0;
      fx += xD1 * yM3 * s;
      fy += xM1 * yD3 * s;
      fz += xM1 * yM3 * ds;
    }
    {
      const base = ((cx + 2) * py + cy + 1) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const s = p0 * zM3 + p1 * zM2 + p2 * zM1 + p3 * zM0;
      const ds = p0 * zD3 + p1 * zD2 + p2 * zD1 + p3 * zD0;
      fx += xD1 * yM2 * s;
      fy += xM1 * yD2 * s;
      fz += xM1 * yM2 * ds;
    }
    {
      const base = ((cx + 2) * py + cy + 2) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const s = p0 * zM3 + p1 * zM2 + p2 * zM1 + p3 * zM0;
      const ds = p0 * zD3 + p1 * zD2 + p2 * zD1 + p3 * zD0;
      fx += xD1 * yM1 * s;
      fy += xM1 * yD1 * s;
      fz += xM1 * yM1 * ds;
    }
    {
      const base = ((cx + 2) * py + cy + 3) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const s = p0 * zM3 + p1 * zM2 + p2 * zM1 + p3 * zM0;
      const ds = p0 * zD3 + p1 * zD2 + p2 * zD1 + p3 * zD0;
      fx += xD1 * yM0 * s;
      fy += xM1 * yD0 * s;
      fz += xM1 * yM0 * ds;
    }
    {
      const base = ((cx + 3) * py + cy + 0) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const s = p0 * zM3 + p1 * zM2 + p2 * zM1 + p3 * zM0;
      const ds = p0 * zD3 + p1 * zD2 + p2 * zD1 + p3 * zD0;
      fx += xD0 * yM3 * s;
      fy += xM0 * yD3 * s;
      fz += xM0 * yM3 * ds;
    }
    {
      const base = ((cx + 3) * py + cy + 1) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const s = p0 * zM3 + p1 * zM2 + p2 * zM1 + p3 * zM0;
      const ds = p0 * zD3 + p1 * zD2 + p2 * zD1 + p3 * zD0;
      fx += xD0 * yM2 * s;
      fy += xM0 * yD2 * s;
      fz += xM0 * yM2 * ds;
    }
    {
      const base = ((cx + 3) * py + cy + 2) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const s = p0 * zM3 + p1 * zM2 + p2 * zM1 + p3 * zM0;
      const ds = p0 * zD3 + p1 * zD2 + p2 * zD1 + p3 * zD0;
      fx += xD0 * yM1 * s;
      fy += xM0 * yD1 * s;
      fz += xM0 * yM1 * ds;
    }
    {
      const base = ((cx + 3) * py + cy + 3) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const s = p0 * zM3 + p1 * zM2 + p2 * zM1 + p3 * zM0;
      const ds = p0 * zD3 + p1 * zD2 + p2 * zD1 + p3 * zD0;
      fx += xD0 * yM0 * s;
      fy += xM0 * yD0 * s;
      fz += xM0 * yM0 * ds;
    }
    f[3 * i] -= qi * fx * sx;
    f[3 * i + 1] -= qi * fy * sy;
    f[3 * i + 2] -= qi * fz * sz;
  }
}

// pme-mesh/ts/order4.f64.full.tile8.ts
var order4_f64_full_tile8_exports = {};
__export(order4_f64_full_tile8_exports, {
  ORDER: () => ORDER4,
  TILE: () => TILE4,
  gather: () => gather4,
  key: () => key4,
  spread: () => spread4
});
var key4 = "pme-mesh.ts.order4.f64.full.tile8";
var ORDER4 = 4;
var TILE4 = 8;
function spread4(a) {
  const grid = a.grid;
  const frac = a.frac;
  const q = a.q;
  const cell = a.cell;
  const ord = a.order;
  const py = a.dims[1];
  const pz = a.dims[2];
  grid.fill(0);
  for (let ii = 0; ii < a.n; ii++) {
    const i = ord === null ? ii : ord[ii];
    const qi = q[i];
    if (qi === 0) continue;
    const wx = frac[3 * i];
    const wy = frac[3 * i + 1];
    const wz = frac[3 * i + 2];
    const x2_0 = wx;
    const x2_1 = 1 - wx;
    const x3_0 = 0.5 * (wx * x2_0);
    const x3_1 = 0.5 * ((wx + 1) * x2_1 + (2 - wx) * x2_0);
    const x3_2 = 0.5 * ((1 - wx) * x2_1);
    const x4_0 = 0.3333333333333333 * (wx * x3_0);
    const x4_1 = 0.3333333333333333 * ((wx + 1) * x3_1 + (3 - wx) * x3_0);
    const x4_2 = 0.3333333333333333 * ((wx + 2) * x3_2 + (2 - wx) * x3_1);
    const x4_3 = 0.3333333333333333 * ((1 - wx) * x3_2);
    const xM0 = x4_0;
    const xM1 = x4_1;
    const xM2 = x4_2;
    const xM3 = x4_3;
    const y2_0 = wy;
    const y2_1 = 1 - wy;
    const y3_0 = 0.5 * (wy * y2_0);
    const y3_1 = 0.5 * ((wy + 1) * y2_1 + (2 - wy) * y2_0);
    const y3_2 = 0.5 * ((1 - wy) * y2_1);
    const y4_0 = 0.3333333333333333 * (wy * y3_0);
    const y4_1 = 0.3333333333333333 * ((wy + 1) * y3_1 + (3 - wy) * y3_0);
    const y4_2 = 0.3333333333333333 * ((wy + 2) * y3_2 + (2 - wy) * y3_1);
    const y4_3 = 0.3333333333333333 * ((1 - wy) * y3_2);
    const yM0 = y4_0;
    const yM1 = y4_1;
    const yM2 = y4_2;
    const yM3 = y4_3;
    const z2_0 = wz;
    const z2_1 = 1 - wz;
    const z3_0 = 0.5 * (wz * z2_0);
    const z3_1 = 0.5 * ((wz + 1) * z2_1 + (2 - wz) * z2_0);
    const z3_2 = 0.5 * ((1 - wz) * z2_1);
    const z4_0 = 0.3333333333333333 * (wz * z3_0);
    const z4_1 = 0.3333333333333333 * ((wz + 1) * z3_1 + (3 - wz) * z3_0);
    const z4_2 = 0.3333333333333333 * ((wz + 2) * z3_2 + (2 - wz) * z3_1);
    const z4_3 = 0.3333333333333333 * ((1 - wz) * z3_2);
    const zM0 = z4_0;
    const zM1 = z4_1;
    const zM2 = z4_2;
    const zM3 = z4_3;
    const cx = cell[3 * i];
    const cy = cell[3 * i + 1];
    const cz = cell[3 * i + 2];
    {
      const base = ((cx + 0) * py + cy + 0) * pz + cz;
      const t = qi * xM3 * yM3;
      grid[base + 0] += t * zM3;
      grid[base + 1] += t * zM2;
      grid[base + 2] += t * zM1;
      grid[base + 3] += t * zM0;
    }
    {
      const base = ((cx + 0) * py + cy + 1) * pz + cz;
      const t = qi * xM3 * yM2;
      grid[base + 0] += t * zM3;
      grid[base + 1] += t * zM2;
      grid[base + 2] += t * zM1;
      grid[base + 3] += t * zM0;
    }
    {
      const base = ((cx + 0) * py + cy + 2) * pz + cz;
      const t = qi * xM3 * yM1;
      grid[base + 0] += t * zM3;
      grid[base + 1] += t * zM2;
      grid[base + 2] += t * zM1;
      grid[base + 3] += t * zM0;
    }
    {
      const base = ((cx + 0) * py + cy + 3) * pz + cz;
      const t = qi * xM3 * yM0;
      grid[base + 0] += t * zM3;
      grid[base + 1] += t * zM2;
      grid[base + 2] += t * zM1;
      grid[base + 3] += t * zM0;
    }
    {
      const base = ((cx + 1) * py + cy + 0) * pz + cz;
      const t = qi * xM2 * yM3;
      grid[base + 0] += t * zM3;
      grid[base + 1] += t * zM2;
      grid[base + 2] += t * zM1;
      grid[base + 3] += t * zM0;
    }
    {
      const base = ((cx + 1) * py + cy + 1) * pz + cz;
      const t = qi * xM2 * yM2;
      grid[base + 0] += t * zM3;
      grid[base + 1] += t * zM2;
      grid[base + 2] += t * zM1;
      grid[base + 3] += t * zM0;
    }
    {
      const base = ((cx + 1) * py + cy + 2) * pz + cz;
      const t = qi * xM2 * yM1;
      grid[base + 0] += t * zM3;
      grid[base + 1] += t * zM2;
      grid[base + 2] += t * zM1;
      grid[base + 3] += t * zM0;
    }
    {
      const base = ((cx + 1) * py + cy + 3) * pz + cz;
      const t = qi * xM2 * yM0;
      grid[base + 0] += t * zM3;
      grid[base + 1] += t * zM2;
      grid[base + 2] += t * zM1;
      grid[base + 3] += t * zM0;
    }
    {
      const base = ((cx + 2) * py + cy + 0) * pz + cz;
      const t = qi * xM1 * yM3;
      grid[base + 0] += t * zM3;
      grid[base + 1] += t * zM2;
      grid[base + 2] += t * zM1;
      grid[base + 3] += t * zM0;
    }
    {
      const base = ((cx + 2) * py + cy + 1) * pz + cz;
      const t = qi * xM1 * yM2;
      grid[base + 0] += t * zM3;
      grid[base + 1] += t * zM2;
      grid[base + 2] += t * zM1;
      grid[base + 3] += t * zM0;
    }
    {
      const base = ((cx + 2) * py + cy + 2) * pz + cz;
      const t = qi * xM1 * yM1;
      grid[base + 0] += t * zM3;
      grid[base + 1] += t * zM2;
      grid[base + 2] += t * zM1;
      grid[base + 3] += t * zM0;
    }
    {
      const base = ((cx + 2) * py + cy + 3) * pz + cz;
      const t = qi * xM1 * yM0;
      grid[base + 0] += t * zM3;
      grid[base + 1] += t * zM2;
      grid[base + 2] += t * zM1;
      grid[base + 3] += t * zM0;
    }
    {
      const base = ((cx + 3) * py + cy + 0) * pz + cz;
      const t = qi * xM0 * yM3;
      grid[base + 0] += t * zM3;
      grid[base + 1] += t * zM2;
      grid[base + 2] += t * zM1;
      grid[base + 3] += t * zM0;
    }
    {
      const base = ((cx + 3) * py + cy + 1) * pz + cz;
      const t = qi * xM0 * yM2;
      grid[base + 0] += t * zM3;
      grid[base + 1] += t * zM2;
      grid[base + 2] += t * zM1;
      grid[base + 3] += t * zM0;
    }
    {
      const base = ((cx + 3) * py + cy + 2) * pz + cz;
      const t = qi * xM0 * yM1;
      grid[base + 0] += t * zM3;
      grid[base + 1] += t * zM2;
      grid[base + 2] += t * zM1;
      grid[base + 3] += t * zM0;
    }
    {
      const base = ((cx + 3) * py + cy + 3) * pz + cz;
      const t = qi * xM0 * yM0;
      grid[base + 0] += t * zM3;
      grid[base + 1] += t * zM2;
      grid[base + 2] += t * zM1;
      grid[base + 3] += t * zM0;
    }
  }
}
function gather4(a) {
  const phi = a.grid;
  const frac = a.frac;
  const q = a.q;
  const cell = a.cell;
  const ord = a.order;
  const f = a.f;
  const py = a.dims[1];
  const pz = a.dims[2];
  const [sx, sy, sz] = a.scale;
  for (let ii = 0; ii < a.n; ii++) {
    const i = ord === null ? ii : ord[ii];
    const qi = q[i];
    if (qi === 0) continue;
    const wx = frac[3 * i];
    const wy = frac[3 * i + 1];
    const wz = frac[3 * i + 2];
    const x2_0 = wx;
    const x2_1 = 1 - wx;
    const x3_0 = 0.5 * (wx * x2_0);
    const x3_1 = 0.5 * ((wx + 1) * x2_1 + (2 - wx) * x2_0);
    const x3_2 = 0.5 * ((1 - wx) * x2_1);
    const x4_0 = 0.3333333333333333 * (wx * x3_0);
    const x4_1 = 0.3333333333333333 * ((wx + 1) * x3_1 + (3 - wx) * x3_0);
    const x4_2 = 0.3333333333333333 * ((wx + 2) * x3_2 + (2 - wx) * x3_1);
    const x4_3 = 0.3333333333333333 * ((1 - wx) * x3_2);
    const xM0 = x4_0;
    const xM1 = x4_1;
    const xM2 = x4_2;
    const xM3 = x4_3;
    const xD0 = x3_0;
    const xD1 = x3_1 - x3_0;
    const xD2 = x3_2 - x3_1;
    const xD3 = -x3_2;
    const y2_0 = wy;
    const y2_1 = 1 - wy;
    const y3_0 = 0.5 * (wy * y2_0);
    const y3_1 = 0.5 * ((wy + 1) * y2_1 + (2 - wy) * y2_0);
    const y3_2 = 0.5 * ((1 - wy) * y2_1);
    const y4_0 = 0.3333333333333333 * (wy * y3_0);
    const y4_1 = 0.3333333333333333 * ((wy + 1) * y3_1 + (3 - wy) * y3_0);
    const y4_2 = 0.3333333333333333 * ((wy + 2) * y3_2 + (2 - wy) * y3_1);
    const y4_3 = 0.3333333333333333 * ((1 - wy) * y3_2);
    const yM0 = y4_0;
    const yM1 = y4_1;
    const yM2 = y4_2;
    const yM3 = y4_3;
    const yD0 = y3_0;
    const yD1 = y3_1 - y3_0;
    const yD2 = y3_2 - y3_1;
    const yD3 = -y3_2;
    const z2_0 = wz;
    const z2_1 = 1 - wz;
    const z3_0 = 0.5 * (wz * z2_0);
    const z3_1 = 0.5 * ((wz + 1) * z2_1 + (2 - wz) * z2_0);
    const z3_2 = 0.5 * ((1 - wz) * z2_1);
    const z4_0 = 0.3333333333333333 * (wz * z3_0);
    const z4_1 = 0.3333333333333333 * ((wz + 1) * z3_1 + (3 - wz) * z3_0);
    const z4_2 = 0.3333333333333333 * ((wz + 2) * z3_2 + (2 - wz) * z3_1);
    const z4_3 = 0.3333333333333333 * ((1 - wz) * z3_2);
    const zM0 = z4_0;
    const zM1 = z4_1;
    const zM2 = z4_2;
    const zM3 = z4_3;
    const zD0 = z3_0;
    const zD1 = z3_1 - z3_0;
    const zD2 = z3_2 - z3_1;
    const zD3 = -z3_2;
    const cx = cell[3 * i];
    const cy = cell[3 * i + 1];
    const cz = cell[3 * i + 2];
    let fx = 0;
    let fy = 0;
    let fz = 0;
    {
      const base = ((cx + 0) * py + cy + 0) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const s = p0 * zM3 + p1 * zM2 + p2 * zM1 + p3 * zM0;
      const ds = p0 * zD3 + p1 * zD2 + p2 * zD1 + p3 * zD0;
      fx += xD3 * yM3 * s;
      fy += xM3 * yD3 * s;
      fz += xM3 * yM3 * ds;
    }
    {
      const base = ((cx + 0) * py + cy + 1) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const s = p0 * zM3 + p1 * zM2 + p2 * zM1 + p3 * zM0;
      const ds = p0 * zD3 + p1 * zD2 + p2 * zD1 + p3 * zD0;
      fx += xD3 * yM2 * s;
      fy += xM3 * yD2 * s;
      fz += xM3 * yM2 * ds;
    }
    {
      const base = ((cx + 0) * py + cy + 2) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const s = p0 * zM3 + p1 * zM2 + p2 * zM1 + p3 * zM0;
      const ds = p0 * zD3 + p1 * zD2 + p2 * zD1 + p3 * zD0;
      fx += xD3 * yM1 * s;
      fy += xM3 * yD1 * s;
      fz += xM3 * yM1 * ds;
    }
    {
      const base = ((cx + 0) * py + cy + 3) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const s = p0 * zM3 + p1 * zM2 + p2 * zM1 + p3 * zM0;
      const ds = p0 * zD3 + p1 * zD2 + p2 * zD1 + p3 * zD0;
      fx += xD3 * yM0 * s;
      fy += xM3 * yD0 * s;
      fz += xM3 * yM0 * ds;
    }
    {
      const base = ((cx + 1) * py + cy + 0) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const s = p0 * zM3 + p1 * zM2 + p2 * zM1 + p3 * zM0;
      const ds = p0 * zD3 + p1 * zD2 + p2 * zD1 + p3 * zD0;
      fx += xD2 * yM3 * s;
      fy += xM2 * yD3 * s;
      fz += xM2 * yM3 * ds;
    }
    {
      const base = ((cx + 1) * py + cy + 1) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const s = p0 * zM3 + p1 * zM2 + p2 * zM1 + p3 * zM0;
      const ds = p0 * zD3 + p1 * zD2 + p2 * zD1 + p3 * zD0;
      fx += xD2 * yM2 * s;
      fy += xM2 * yD2 * s;
      fz += xM2 * yM2 * ds;
    }
    {
      const base = ((cx + 1) * py + cy + 2) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const s = p0 * zM3 + p1 * zM2 + p2 * zM1 + p3 * zM0;
      const ds = p0 * zD3 + p1 * zD2 + p2 * zD1 + p3 * zD0;
      fx += xD2 * yM1 * s;
      fy += xM2 * yD1 * s;
      fz += xM2 * yM1 * ds;
    }
    {
      const base = ((cx + 1) * py + cy + 3) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const s = p0 * zM3 + p1 * zM2 + p2 * zM1 + p3 * zM0;
      const ds = p0 * zD3 + p1 * zD2 + p2 * zD1 + p3 * zD0;
      fx += xD2 * yM0 * s;
      fy += xM2 * yD0 * s;
      fz += xM2 * yM0 * ds;
    }
    {
      const base = ((cx + 2) * py + cy + 0) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const s = p0 * zM3 + p1 * zM2 + p2 * zM1 + p3 * zM0;
      const ds = p0 * zD3 + p1 * zD2 + p2 * zD1 + p3 * zD0;
      fx += xD1 * yM3 * s;
      fy += xM1 * yD3 * s;
      fz += xM1 * yM3 * ds;
    }
    {
      const base = ((cx + 2) * py + cy + 1) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const s = p0 * zM3 + p1 * zM2 + p2 * zM1 + p3 * zM0;
      const ds = p0 * zD3 + p1 * zD2 + p2 * zD1 + p3 * zD0;
      fx += xD1 * yM2 * s;
      fy += xM1 * yD2 * s;
      fz += xM1 * yM2 * ds;
    }
    {
      const base = ((cx + 2) * py + cy + 2) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const s = p0 * zM3 + p1 * zM2 + p2 * zM1 + p3 * zM0;
      const ds = p0 * zD3 + p1 * zD2 + p2 * zD1 + p3 * zD0;
      fx += xD1 * yM1 * s;
      fy += xM1 * yD1 * s;
      fz += xM1 * yM1 * ds;
    }
    {
      const base = ((cx + 2) * py + cy + 3) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const s = p0 * zM3 + p1 * zM2 + p2 * zM1 + p3 * zM0;
      const ds = p0 * zD3 + p1 * zD2 + p2 * zD1 + p3 * zD0;
      fx += xD1 * yM0 * s;
      fy += xM1 * yD0 * s;
      fz += xM1 * yM0 * ds;
    }
    {
      const base = ((cx + 3) * py + cy + 0) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const s = p0 * zM3 + p1 * zM2 + p2 * zM1 + p3 * zM0;
      const ds = p0 * zD3 + p1 * zD2 + p2 * zD1 + p3 * zD0;
      fx += xD0 * yM3 * s;
      fy += xM0 * yD3 * s;
      fz += xM0 * yM3 * ds;
    }
    {
      const base = ((cx + 3) * py + cy + 1) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const s = p0 * zM3 + p1 * zM2 + p2 * zM1 + p3 * zM0;
      const ds = p0 * zD3 + p1 * zD2 + p2 * zD1 + p3 * zD0;
      fx += xD0 * yM2 * s;
      fy += xM0 * yD2 * s;
      fz += xM0 * yM2 * ds;
    }
    {
      const base = ((cx + 3) * py + cy + 2) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const s = p0 * zM3 + p1 * zM2 + p2 * zM1 + p3 * zM0;
      const ds = p0 * zD3 + p1 * zD2 + p2 * zD1 + p3 * zD0;
      fx += xD0 * yM1 * s;
      fy += xM0 * yD1 * s;
      fz += xM0 * yM1 * ds;
    }
    {
      const base = ((cx + 3) * py + cy + 3) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const s = p0 * zM3 + p1 * zM2 + p2 * zM1 + p3 * zM0;
      const ds = p0 * zD3 + p1 * zD2 + p2 * zD1 + p3 * zD0;
      fx += xD0 * yM0 * s;
      fy += xM0 * yD0 * s;
      fz += xM0 * yM0 * ds;
    }
    f[3 * i] -= qi * fx * sx;
    f[3 * i + 1] -= qi * fy * sy;
    f[3 * i + 2] -= qi * fz * sz;
  }
}

// pme-mesh/ts/order4.f64.loop.tile0.ts
var order4_f64_loop_tile0_exports = {};
__export(order4_f64_loop_tile0_exports, {
  ORDER: () => ORDER5,
  TILE: () => TILE5,
  gather: () => gather5,
  key: () => key5,
  spread: () => spread5
});
var key5 = "pme-mesh.ts.order4.f64.loop.tile0";
var ORDER5 = 4;
var TILE5 = 0;
function spread5(a) {
  const grid = a.grid;
  const frac = a.frac;
  const q = a.q;
  const cell = a.cell;
  const ord = a.order;
  const py = a.dims[1];
  const pz = a.dims[2];
  grid.fill(0);
  const Wx = new Float64Array(4);
  const Wy = new Float64Array(4);
  const Wz = new Float64Array(4);
  for (let ii = 0; ii < a.n; ii++) {
    const i = ord === null ? ii : ord[ii];
    const qi = q[i];
    if (qi === 0) continue;
    const wx = frac[3 * i];
    const wy = frac[3 * i + 1];
    const wz = frac[3 * i + 2];
    const x2_0 = wx;
    const x2_1 = 1 - wx;
    const x3_0 = 0.5 * (wx * x2_0);
    const x3_1 = 0.5 * ((wx + 1) * x2_1 + (2 - wx) * x2_0);
    const x3_2 = 0.5 * ((1 - wx) * x2_1);
    const x4_0 = 0.3333333333333333 * (wx * x3_0);
    const x4_1 = 0.3333333333333333 * ((wx + 1) * x3_1 + (3 - wx) * x3_0);
    const x4_2 = 0.3333333333333333 * ((wx + 2) * x3_2 + (2 - wx) * x3_1);
    const x4_3 = 0.3333333333333333 * ((1 - wx) * x3_2);
    const xM0 = x4_0;
    const xM1 = x4_1;
    const xM2 = x4_2;
    const xM3 = x4_3;
    const y2_0 = wy;
    const y2_1 = 1 - wy;
    const y3_0 = 0.5 * (wy * y2_0);
    const y3_1 = 0.5 * ((wy + 1) * y2_1 + (2 - wy) * y2_0);
    const y3_2 = 0.5 * ((1 - wy) * y2_1);
    const y4_0 = 0.3333333333333333 * (wy * y3_0);
    const y4_1 = 0.3333333333333333 * ((wy + 1) * y3_1 + (3 - wy) * y3_0);
    const y4_2 = 0.3333333333333333 * ((wy + 2) * y3_2 + (2 - wy) * y3_1);
    const y4_3 = 0.3333333333333333 * ((1 - wy) * y3_2);
    const yM0 = y4_0;
    const yM1 = y4_1;
    const yM2 = y4_2;
    const yM3 = y4_3;
    const z2_0 = wz;
    const z2_1 = 1 - wz;
    const z3_0 = 0.5 * (wz * z2_0);
    const z3_1 = 0.5 * ((wz + 1) * z2_1 + (2 - wz) * z2_0);
    const z3_2 = 0.5 * ((1 - wz) * z2_1);
    const z4_0 = 0.3333333333333333 * (wz * z3_0);
    const z4_1 = 0.3333333333333333 * ((wz + 1) * z3_1 + (3 - wz) * z3_0);
    const z4_2 = 0.3333333333333333 * ((wz + 2) * z3_2 + (2 - wz) * z3_1);
    const z4_3 = 0.3333333333333333 * ((1 - wz) * z3_2);
    const zM0 = z4_0;
    const zM1 = z4_1;
    const zM2 = z4_2;
    const zM3 = z4_3;
    const cx = cell[3 * i];
    const cy = cell[3 * i + 1];
    const cz = cell[3 * i + 2];
    Wx[0] = xM3;
    Wy[0] = yM3;
    Wz[0] = zM3;
    Wx[1] = xM2;
    Wy[1] = yM2;
    Wz[1] = zM2;
    Wx[2] = xM1;
    Wy[2] = yM1;
    Wz[2] = zM1;
    Wx[3] = xM0;
    Wy[3] = yM0;
    Wz[3] = zM0;
    for (let ax = 0; ax < 4; ax++) {
      const tx = qi * Wx[ax];
      for (let by = 0; by < 4; by++) {
        const t = tx * Wy[by];
        const base = ((cx + ax) * py + cy + by) * pz + cz;
        for (let c = 0; c < 4; c++) grid[base + c] += t * Wz[c];
      }
    }
  }
}
function gather5(a) {
  const phi = a.grid;
  const frac = a.frac;
  const q = a.q;
  const cell = a.cell;
  const ord = a.order;
  const f = a.f;
  const py = a.dims[1];
  const pz = a.dims[2];
  const [sx, sy, sz] = a.scale;
  const Wx = new Float64Array(4);
  const Wy = new Float64Array(4);
  const Wz = new Float64Array(4);
  const Dx = new Float64Array(4);
  const Dy = new Float64Array(4);
  const Dz = new Float64Array(4);
  for (let ii = 0; ii < a.n; ii++) {
    const i = ord === null ? ii : ord[ii];
    const qi = q[i];
    if (qi === 0) continue;
    const wx = frac[3 * i];
    const wy = frac[3 * i + 1];
    const wz = frac[3 * i + 2];
    const x2_0 = wx;
    const x2_1 = 1 - wx;
    const x3_0 = 0.5 * (wx * x2_0);
    const x3_1 = 0.5 * ((wx + 1) * x2_1 + (2 - wx) * x2_0);
    const x3_2 = 0.5 * ((1 - wx) * x2_1);
    const x4_0 = 0.3333333333333333 * (wx * x3_0);
    const x4_1 = 0.3333333333333333 * ((wx + 1) * x3_1 + (3 - wx) * x3_0);
    const x4_2 = 0.3333333333333333 * ((wx + 2) * x3_2 + (2 - wx) * x3_1);
    const x4_3 = 0.3333333333333333 * ((1 - wx) * x3_2);
    const xM0 = x4_0;
    const xM1 = x4_1;
    const xM2 = x4_2;
    const xM3 = x4_3;
    const xD0 = x3_0;
    const xD1 = x3_1 - x3_0;
    const xD2 = x3_2 - x3_1;
    const xD3 = -x3_2;
    const y2_0 = wy;
    const y2_1 = 1 - wy;
    const y3_0 = 0.5 * (wy * y2_0);
    const y3_1 = 0.5 * ((wy + 1) * y2_1 + (2 - wy) * y2_0);
    const y3_2 = 0.5 * ((1 - wy) * y2_1);
    const y4_0 = 0.3333333333333333 * (wy * y3_0);
    const y4_1 = 0.3333333333333333 * ((wy + 1) * y3_1 + (3 - wy) * y3_0);
    const y4_2 = 0.3333333333333333 * ((wy + 2) * y3_2 + (2 - wy) * y3_1);
    const y4_3 = 0.3333333333333333 * ((1 - wy) * y3_2);
    const yM0 = y4_0;
    const yM1 = y4_1;
    const yM2 = y4_2;
    const yM3 = y4_3;
    const yD0 = y3_0;
    const yD1 = y3_1 - y3_0;
    const yD2 = y3_2 - y3_1;
    const yD3 = -y3_2;
    const z2_0 = wz;
    const z2_1 = 1 - wz;
    const z3_0 = 0.5 * (wz * z2_0);
    const z3_1 = 0.5 * ((wz + 1) * z2_1 + (2 - wz) * z2_0);
    const z3_2 = 0.5 * ((1 - wz) * z2_1);
    const z4_0 = 0.3333333333333333 * (wz * z3_0);
    const z4_1 = 0.3333333333333333 * ((wz + 1) * z3_1 + (3 - wz) * z3_0);
    const z4_2 = 0.3333333333333333 * ((wz + 2) * z3_2 + (2 - wz) * z3_1);
    const z4_3 = 0.3333333333333333 * ((1 - wz) * z3_2);
    const zM0 = z4_0;
    const zM1 = z4_1;
    const zM2 = z4_2;
    const zM3 = z4_3;
    const zD0 = z3_0;
    const zD1 = z3_1 - z3_0;
    const zD2 = z3_2 - z3_1;
    const zD3 = -z3_2;
    const cx = cell[3 * i];
    const cy = cell[3 * i + 1];
    const cz = cell[3 * i + 2];
    let fx = 0;
    let fy = 0;
    let fz = 0;
    Wx[0] = xM3;
    Wy[0] = yM3;
    Wz[0] = zM3;
    Dx[0] = xD3;
    Dy[0] = yD3;
    Dz[0] = zD3;
    Wx[1] = xM2;
    Wy[1] = yM2;
    Wz[1] = zM2;
    Dx[1] = xD2;
    Dy[1] = yD2;
    Dz[1] = zD2;
    Wx[2] = xM1;
    Wy[2] = yM1;
    Wz[2] = zM1;
    Dx[2] = xD1;
    Dy[2] = yD1;
    Dz[2] = zD1;
    Wx[3] = xM0;
    Wy[3] = yM0;
    Wz[3] = zM0;
    Dx[3] = xD0;
    Dy[3] = yD0;
    Dz[3] = zD0;
    for (let ax = 0; ax < 4; ax++) {
      for (let by = 0; by < 4; by++) {
        const base = ((cx + ax) * py + cy + by) * pz + cz;
        let s = 0;
        let ds = 0;
        for (let c = 0; c < 4; c++) {
          const p = phi[base + c];
          s += p * Wz[c];
          ds += p * Dz[c];
        }
        fx += Dx[ax] * Wy[by] * s;
        fy += Wx[ax] * Dy[by] * s;
        fz += Wx[ax] * Wy[by] * ds;
      }
    }
    f[3 * i] -= qi * fx * sx;
    f[3 * i + 1] -= qi * fy * sy;
    f[3 * i + 2] -= qi * fz * sz;
  }
}

// pme-mesh/ts/order4.f64.loop.tile4.ts
var order4_f64_loop_tile4_exports = {};
__export(order4_f64_loop_tile4_exports, {
  ORDER: () => ORDER6,
  TILE: () => TILE6,
  gather: () => gather6,
  key: () => key6,
  spread: () => spread6
});
var key6 = "pme-mesh.ts.order4.f64.loop.tile4";
var ORDER6 = 4;
var TILE6 = 4;
function spread6(a) {
  const grid = a.grid;
  const frac = a.frac;
  const q = a.q;
  const cell = a.cell;
  const ord = a.order;
  const py = a.dims[1];
  const pz = a.dims[2];
  grid.fill(0);
  const Wx = new Float64Array(4);
  const Wy = new Float64Array(4);
  const Wz = new Float64Array(4);
  for (let ii = 0; ii < a.n; ii++) {
    const i = ord === null ? ii : ord[ii];
    const qi = q[i];
    if (qi === 0) continue;
    const wx = frac[3 * i];
    const wy = frac[3 * i + 1];
    const wz = frac[3 * i + 2];
    const x2_0 = wx;
    const x2_1 = 1 - wx;
    const x3_0 = 0.5 * (wx * x2_0);
    const x3_1 = 0.5 * ((wx + 1) * x2_1 + (2 - wx) * x2_0);
    const x3_2 = 0.5 * ((1 - wx) * x2_1);
    const x4_0 = 0.3333333333333333 * (wx * x3_0);
    const x4_1 = 0.3333333333333333 * ((wx + 1) * x3_1 + (3 - wx) * x3_0);
    const x4_2 = 0.3333333333333333 * ((wx + 2) * x3_2 + (2 - wx) * x3_1);
    const x4_3 = 0.3333333333333333 * ((1 - wx) * x3_2);
    const xM0 = x4_0;
    const xM1 = x4_1;
    const xM2 = x4_2;
    const xM3 = x4_3;
    const y2_0 = wy;
    const y2_1 = 1 - wy;
    const y3_0 = 0.5 * (wy * y2_0);
    const y3_1 = 0.5 * ((wy + 1) * y2_1 + (2 - wy) * y2_0);
    const y3_2 = 0.5 * ((1 - wy) * y2_1);
    const y4_0 = 0.3333333333333333 * (wy * y3_0);
    const y4_1 = 0.3333333333333333 * ((wy + 1) * y3_1 + (3 - wy) * y3_0);
    const y4_2 = 0.3333333333333333 * ((wy + 2) * y3_2 + (2 - wy) * y3_1);
    const y4_3 = 0.3333333333333333 * ((1 - wy) * y3_2);
    const yM0 = y4_0;
    const yM1 = y4_1;
    const yM2 = y4_2;
    const yM3 = y4_3;
    const z2_0 = wz;
    const z2_1 = 1 - wz;
    const z3_0 = 0.5 * (wz * z2_0);
    const z3_1 = 0.5 * ((wz + 1) * z2_1 + (2 - wz) * z2_0);
    const z3_2 = 0.5 * ((1 - wz) * z2_1);
    const z4_0 = 0.3333333333333333 * (wz * z3_0);
    const z4_1 = 0.3333333333333333 * ((wz + 1) * z3_1 + (3 - wz) * z3_0);
    const z4_2 = 0.3333333333333333 * ((wz + 2) * z3_2 + (2 - wz) * z3_1);
    const z4_3 = 0.3333333333333333 * ((1 - wz) * z3_2);
    const zM0 = z4_0;
    const zM1 = z4_1;
    const zM2 = z4_2;
    const zM3 = z4_3;
    const cx = cell[3 * i];
    const cy = cell[3 * i + 1];
    const cz = cell[3 * i + 2];
    Wx[0] = xM3;
    Wy[0] = yM3;
    Wz[0] = zM3;
    Wx[1] = xM2;
    Wy[1] = yM2;
    Wz[1] = zM2;
    Wx[2] = xM1;
    Wy[2] = yM1;
    Wz[2] = zM1;
    Wx[3] = xM0;
    Wy[3] = yM0;
    Wz[3] = zM0;
    for (let ax = 0; ax < 4; ax++) {
      const tx = qi * Wx[ax];
      for (let by = 0; by < 4; by++) {
        const t = tx * Wy[by];
        const base = ((cx + ax) * py + cy + by) * pz + cz;
        for (let c = 0; c < 4; c++) grid[base + c] += t * Wz[c];
      }
    }
  }
}
function gather6(a) {
  const phi = a.grid;
  const frac = a.frac;
  const q = a.q;
  const cell = a.cell;
  const ord = a.order;
  const f = a.f;
  const py = a.dims[1];
  const pz = a.dims[2];
  const [sx, sy, sz] = a.scale;
  const Wx = new Float64Array(4);
  const Wy = new Float64Array(4);
  const Wz = new Float64Array(4);
  const Dx = new Float64Array(4);
  const Dy = new Float64Array(4);
  const Dz = new Float64Array(4);
  for (let ii = 0; ii < a.n; ii++) {
    const i = ord === null ? ii : ord[ii];
    const qi = q[i];
    if (qi === 0) continue;
    const wx = frac[3 * i];
    const wy = frac[3 * i + 1];
    const wz = frac[3 * i + 2];
    const x2_0 = wx;
    const x2_1 = 1 - wx;
    const x3_0 = 0.5 * (wx * x2_0);
    const x3_1 = 0.5 * ((wx + 1) * x2_1 + (2 - wx) * x2_0);
    const x3_2 = 0.5 * ((1 - wx) * x2_1);
    const x4_0 = 0.3333333333333333 * (wx * x3_0);
    const x4_1 = 0.3333333333333333 * ((wx + 1) * x3_1 + (3 - wx) * x3_0);
    const x4_2 = 0.3333333333333333 * ((wx + 2) * x3_2 + (2 - wx) * x3_1);
    const x4_3 = 0.3333333333333333 * ((1 - wx) * x3_2);
    const xM0 = x4_0;
    const xM1 = x4_1;
    const xM2 = x4_2;
    const xM3 = x4_3;
    const xD0 = x3_0;
    const xD1 = x3_1 - x3_0;
    const xD2 = x3_2 - x3_1;
    const xD3 = -x3_2;
    const y2_0 = wy;
    const y2_1 = 1 - wy;
    const y3_0 = 0.5 * (wy * y2_0);
    const y3_1 = 0.5 * ((wy + 1) * y2_1 + (2 - wy) * y2_0);
    const y3_2 = 0.5 * ((1 - wy) * y2_1);
    const y4_0 = 0.3333333333333333 * (wy * y3_0);
    const y4_1 = 0.3333333333333333 * ((wy + 1) * y3_1 + (3 - wy) * y3_0);
    const y4_2 = 0.3333333333333333 * ((wy + 2) * y3_2 + (2 - wy) * y3_1);
    const y4_3 = 0.3333333333333333 * ((1 - wy) * y3_2);
    const yM0 = y4_0;
    const yM1 = y4_1;
    const yM2 = y4_2;
    const yM3 = y4_3;
    const yD0 = y3_0;
    const yD1 = y3_1 - y3_0;
    const yD2 = y3_2 - y3_1;
    const yD3 = -y3_2;
    const z2_0 = wz;
    const z2_1 = 1 - wz;
    const z3_0 = 0.5 * (wz * z2_0);
    const z3_1 = 0.5 * ((wz + 1) * z2_1 + (2 - wz) * z2_0);
    const z3_2 = 0.5 * ((1 - wz) * z2_1);
    const z4_0 = 0.3333333333333333 * (wz * z3_0);
    const z4_1 = 0.3333333333333333 * ((wz + 1) * z3_1 + (3 - wz) * z3_0);
    const z4_2 = 0.3333333333333333 * ((wz + 2) * z3_2 + (2 - wz) * z3_1);
    const z4_3 = 0.3333333333333333 * ((1 - wz) * z3_2);
    const zM0 = z4_0;
    const zM1 = z4_1;
    const zM2 = z4_2;
    const zM3 = z4_3;
    const zD0 = z3_0;
    const zD1 = z3_1 - z3_0;
    const zD2 = z3_2 - z3_1;
    const zD3 = -z3_2;
    const cx = cell[3 * i];
    const cy = cell[3 * i + 1];
    const cz = cell[3 * i + 2];
    let fx = 0;
    let fy = 0;
    let fz = 0;
    Wx[0] = xM3;
    Wy[0] = yM3;
    Wz[0] = zM3;
    Dx[0] = xD3;
    Dy[0] = yD3;
    Dz[0] = zD3;
    Wx[1] = xM2;
    Wy[1] = yM2;
    Wz[1] = zM2;
    Dx[1] = xD2;
    Dy[1] = yD2;
    Dz[1] = zD2;
    Wx[2] = xM1;
    Wy[2] = yM1;
    Wz[2] = zM1;
    Dx[2] = xD1;
    Dy[2] = yD1;
    Dz[2] = zD1;
    Wx[3] = xM0;
    Wy[3] = yM0;
    Wz[3] = zM0;
    Dx[3] = xD0;
    Dy[3] = yD0;
    Dz[3] = zD0;
    for (let ax = 0; ax < 4; ax++) {
      for (let by = 0; by < 4; by++) {
        const base = ((cx + ax) * py + cy + by) * pz + cz;
        let s = 0;
        let ds = 0;
        for (let c = 0; c < 4; c++) {
          const p = phi[base + c];
          s += p * Wz[c];
          ds += p * Dz[c];
        }
        fx += Dx[ax] * Wy[by] * s;
        fy += Wx[ax] * Dy[by] * s;
        fz += Wx[ax] * Wy[by] * ds;
      }
    }
    f[3 * i] -= qi * fx * sx;
    f[3 * i + 1] -= qi * fy * sy;
    f[3 * i + 2] -= qi * fz * sz;
  }
}

// pme-mesh/ts/order4.f64.loop.tile8.ts
var order4_f64_loop_tile8_exports = {};
__export(order4_f64_loop_tile8_exports, {
  ORDER: () => ORDER7,
  TILE: () => TILE7,
  gather: () => gather7,
  key: () => key7,
  spread: () => spread7
});
var key7 = "pme-mesh.ts.order4.f64.loop.tile8";
var ORDER7 = 4;
var TILE7 = 8;
function spread7(a) {
  const grid = a.grid;
  const frac = a.frac;
  const q = a.q;
  const cell = a.cell;
  const ord = a.order;
  const py = a.dims[1];
  const pz = a.dims[2];
  grid.fill(0);
  const Wx = new Float64Array(4);
  const Wy = new Float64Array(4);
  const Wz = new Float64Array(4);
  for (let ii = 0; ii < a.n; ii++) {
    const i = ord === null ? ii : ord[ii];
    const qi = q[i];
    if (qi === 0) continue;
    const wx = frac[3 * i];
    const wy = frac[3 * i + 1];
    const wz = frac[3 * i + 2];
    const x2_0 = wx;
    const x2_1 = 1 - wx;
    const x3_0 = 0.5 * (wx * x2_0);
    const x3_1 = 0.5 * ((wx + 1) * x2_1 + (2 - wx) * x2_0);
    const x3_2 = 0.5 * ((1 - wx) * x2_1);
    const x4_0 = 0.3333333333333333 * (wx * x3_0);
    const x4_1 = 0.3333333333333333 * ((wx + 1) * x3_1 + (3 - wx) * x3_0);
    const x4_2 = 0.3333333333333333 * ((wx + 2) * x3_2 + (2 - wx) * x3_1);
    const x4_3 = 0.3333333333333333 * ((1 - wx) * x3_2);
    const xM0 = x4_0;
    const xM1 = x4_1;
    const xM2 = x4_2;
    const xM3 = x4_3;
    const y2_0 = wy;
    const y2_1 = 1 - wy;
    const y3_0 = 0.5 * (wy * y2_0);
    const y3_1 = 0.5 * ((wy + 1) * y2_1 + (2 - wy) * y2_0);
    const y3_2 = 0.5 * ((1 - wy) * y2_1);
    const y4_0 = 0.3333333333333333 * (wy * y3_0);
    const y4_1 = 0.3333333333333333 * ((wy + 1) * y3_1 + (3 - wy) * y3_0);
    const y4_2 = 0.3333333333333333 * ((wy + 2) * y3_2 + (2 - wy) * y3_1);
    const y4_3 = 0.3333333333333333 * ((1 - wy) * y3_2);
    const yM0 = y4_0;
    const yM1 = y4_1;
    const yM2 = y4_2;
    const yM3 = y4_3;
    const z2_0 = wz;
    const z2_1 = 1 - wz;
    const z3_0 = 0.5 * (wz * z2_0);
    const z3_1 = 0.5 * ((wz + 1) * z2_1 + (2 - wz) * z2_0);
    const z3_2 = 0.5 * ((1 - wz) * z2_1);
    const z4_0 = 0.3333333333333333 * (wz * z3_0);
    const z4_1 = 0.3333333333333333 * ((wz + 1) * z3_1 + (3 - wz) * z3_0);
    const z4_2 = 0.3333333333333333 * ((wz + 2) * z3_2 + (2 - wz) * z3_1);
    const z4_3 = 0.3333333333333333 * ((1 - wz) * z3_2);
    const zM0 = z4_0;
    const zM1 = z4_1;
    const zM2 = z4_2;
    const zM3 = z4_3;
    const cx = cell[3 * i];
    const cy = cell[3 * i + 1];
    const cz = cell[3 * i + 2];
    Wx[0] = xM3;
    Wy[0] = yM3;
    Wz[0] = zM3;
    Wx[1] = xM2;
    Wy[1] = yM2;
    Wz[1] = zM2;
    Wx[2] = xM1;
    Wy[2] = yM1;
    Wz[2] = zM1;
    Wx[3] = xM0;
    Wy[3] = yM0;
    Wz[3] = zM0;
    for (let ax = 0; ax < 4; ax++) {
      const tx = qi * Wx[ax];
      for (let by = 0; by < 4; by++) {
        const t = tx * Wy[by];
        const base = ((cx + ax) * py + cy + by) * pz + cz;
        for (let c = 0; c < 4; c++) grid[base + c] += t * Wz[c];
      }
    }
  }
}
function gather7(a) {
  const phi = a.grid;
  const frac = a.frac;
  const q = a.q;
  const cell = a.cell;
  const ord = a.order;
  const f = a.f;
  const py = a.dims[1];
  const pz = a.dims[2];
  const [sx, sy, sz] = a.scale;
  const Wx = new Float64Array(4);
  const Wy = new Float64Array(4);
  const Wz = new Float64Array(4);
  const Dx = new Float64Array(4);
  const Dy = new Float64Array(4);
  const Dz = new Float64Array(4);
  for (let ii = 0; ii < a.n; ii++) {
    const i = ord === null ? ii : ord[ii];
    const qi = q[i];
    if (qi === 0) continue;
    const wx = frac[3 * i];
    const wy = frac[3 * i + 1];
    const wz = frac[3 * i + 2];
    const x2_0 = wx;
    const x2_1 = 1 - wx;
    const x3_0 = 0.5 * (wx * x2_0);
    const x3_1 = 0.5 * ((wx + 1) * x2_1 + (2 - wx) * x2_0);
    const x3_2 = 0.5 * ((1 - wx) * x2_1);
    const x4_0 = 0.3333333333333333 * (wx * x3_0);
    const x4_1 = 0.3333333333333333 * ((wx + 1) * x3_1 + (3 - wx) * x3_0);
    const x4_2 = 0.3333333333333333 * ((wx + 2) * x3_2 + (2 - wx) * x3_1);
    const x4_3 = 0.3333333333333333 * ((1 - wx) * x3_2);
    const xM0 = x4_0;
    const xM1 = x4_1;
    const xM2 = x4_2;
    const xM3 = x4_3;
    const xD0 = x3_0;
    const xD1 = x3_1 - x3_0;
    const xD2 = x3_2 - x3_1;
    const xD3 = -x3_2;
    const y2_0 = wy;
    const y2_1 = 1 - wy;
    const y3_0 = 0.5 * (wy * y2_0);
    const y3_1 = 0.5 * ((wy + 1) * y2_1 + (2 - wy) * y2_0);
    const y3_2 = 0.5 * ((1 - wy) * y2_1);
    const y4_0 = 0.3333333333333333 * (wy * y3_0);
    const y4_1 = 0.3333333333333333 * ((wy + 1) * y3_1 + (3 - wy) * y3_0);
    const y4_2 = 0.3333333333333333 * ((wy + 2) * y3_2 + (2 - wy) * y3_1);
    const y4_3 = 0.3333333333333333 * ((1 - wy) * y3_2);
    const yM0 = y4_0;
    const yM1 = y4_1;
    const yM2 = y4_2;
    const yM3 = y4_3;
    const yD0 = y3_0;
    const yD1 = y3_1 - y3_0;
    const yD2 = y3_2 - y3_1;
    const yD3 = -y3_2;
    const z2_0 = wz;
    const z2_1 = 1 - wz;
    const z3_0 = 0.5 * (wz * z2_0);
    const z3_1 = 0.5 * ((wz + 1) * z2_1 + (2 - wz) * z2_0);
    const z3_2 = 0.5 * ((1 - wz) * z2_1);
    const z4_0 = 0.3333333333333333 * (wz * z3_0);
    const z4_1 = 0.3333333333333333 * ((wz + 1) * z3_1 + (3 - wz) * z3_0);
    const z4_2 = 0.3333333333333333 * ((wz + 2) * z3_2 + (2 - wz) * z3_1);
    const z4_3 = 0.3333333333333333 * ((1 - wz) * z3_2);
    const zM0 = z4_0;
    const zM1 = z4_1;
    const zM2 = z4_2;
    const zM3 = z4_3;
    const zD0 = z3_0;
    const zD1 = z3_1 - z3_0;
    const zD2 = z3_2 - z3_1;
    const zD3 = -z3_2;
    const cx = cell[3 * i];
    const cy = cell[3 * i + 1];
    const cz = cell[3 * i + 2];
    let fx = 0;
    let fy = 0;
    let fz = 0;
    Wx[0] = xM3;
    Wy[0] = yM3;
    Wz[0] = zM3;
    Dx[0] = xD3;
    Dy[0] = yD3;
    Dz[0] = zD3;
    Wx[1] = xM2;
    Wy[1] = yM2;
    Wz[1] = zM2;
    Dx[1] = xD2;
    Dy[1] = yD2;
    Dz[1] = zD2;
    Wx[2] = xM1;
    Wy[2] = yM1;
    Wz[2] = zM1;
    Dx[2] = xD1;
    Dy[2] = yD1;
    Dz[2] = zD1;
    Wx[3] = xM0;
    Wy[3] = yM0;
    Wz[3] = zM0;
    Dx[3] = xD0;
    Dy[3] = yD0;
    Dz[3] = zD0;
    for (let ax = 0; ax < 4; ax++) {
      for (let by = 0; by < 4; by++) {
        const base = ((cx + ax) * py + cy + by) * pz + cz;
        let s = 0;
        let ds = 0;
        for (let c = 0; c < 4; c++) {
          const p = phi[base + c];
          s += p * Wz[c];
          ds += p * Dz[c];
        }
        fx += Dx[ax] * Wy[by] * s;
        fy += Wx[ax] * Dy[by] * s;
        fz += Wx[ax] * Wy[by] * ds;
      }
    }
    f[3 * i] -= qi * fx * sx;
    f[3 * i + 1] -= qi * fy * sy;
    f[3 * i + 2] -= qi * fz * sz;
  }
}

// pme-mesh/ts/order5.f32.full.tile0.ts
var order5_f32_full_tile0_exports = {};
__export(order5_f32_full_tile0_exports, {
  ORDER: () => ORDER8,
  TILE: () => TILE8,
  gather: () => gather8,
  key: () => key8,
  spread: () => spread8
});
var key8 = "pme-mesh.ts.order5.f32.full.tile0";
var ORDER8 = 5;
var TILE8 = 0;
function spread8(a) {
  const grid = a.grid;
  const frac = a.frac;
  const q = a.q;
  const cell = a.cell;
  const ord = a.order;
  const py = a.dims[1];
  const pz = a.dims[2];
  grid.fill(0);
  for (let ii = 0; ii < a.n; ii++) {
    const i = ord === null ? ii : ord[ii];
    const qi = q[i];
    if (qi === 0) continue;
    const wx = frac[3 * i];
    const wy = frac[3 * i + 1];
    const wz = frac[3 * i + 2];
    const x2_0 = wx;
    const x2_1 = 1 - wx;
    const x3_0 = 0.5 * (wx * x2_0);
    const x3_1 = 0.5 * ((wx + 1) * x2_1 + (2 - wx) * x2_0);
    const x3_2 = 0.5 * ((1 - wx) * x2_1);
    const x4_0 = 0.3333333333333333 * (wx * x3_0);
    const x4_1 = 0.3333333333333333 * ((wx + 1) * x3_1 + (3 - wx) * x3_0);
    const x4_2 = 0.3333333333333333 * ((wx + 2) * x3_2 + (2 - wx) * x3_1);
    const x4_3 = 0.3333333333333333 * ((1 - wx) * x3_2);
    const x5_0 = 0.25 * (wx * x4_0);
    const x5_1 = 0.25 * ((wx + 1) * x4_1 + (4 - wx) * x4_0);
    const x5_2 = 0.25 * ((wx + 2) * x4_2 + (3 - wx) * x4_1);
    const x5_3 = 0.25 * ((wx + 3) * x4_3 + (2 - wx) * x4_2);
    const x5_4 = 0.25 * ((1 - wx) * x4_3);
    const xM0 = x5_0;
    const xM1 = x5_1;
    const xM2 = x5_2;
    const xM3 = x5_3;
    const xM4 = x5_4;
    const y2_0 = wy;
    const y2_1 = 1 - wy;
    const y3_0 = 0.5 * (wy * y2_0);
    const y3_1 = 0.5 * ((wy + 1) * y2_1 + (2 - wy) * y2_0);
    const y3_2 = 0.5 * ((1 - wy) * y2_1);
    const y4_0 = 0.3333333333333333 * (wy * y3_0);
    const y4_1 = 0.3333333333333333 * ((wy + 1) * y3_1 + (3 - wy) * y3_0);
    const y4_2 = 0.3333333333333333 * ((wy + 2) * y3_2 + (2 - wy) * y3_1);
    const y4_3 = 0.3333333333333333 * ((1 - wy) * y3_2);
    const y5_0 = 0.25 * (wy * y4_0);
    const y5_1 = 0.25 * ((wy + 1) * y4_1 + (4 - wy) * y4_0);
    const y5_2 = 0.25 * ((wy + 2) * y4_2 + (3 - wy) * y4_1);
    const y5_3 = 0.25 * ((wy + 3) * y4_3 + (2 - wy) * y4_2);
    const y5_4 = 0.25 * ((1 - wy) * y4_3);
    const yM0 = y5_0;
    const yM1 = y5_1;
    const yM2 = y5_2;
    const yM3 = y5_3;
    const yM4 = y5_4;
    const z2_0 = wz;
    const z2_1 = 1 - wz;
    const z3_0 = 0.5 * (wz * z2_0);
    const z3_1 = 0.5 * ((wz + 1) * z2_1 + (2 - wz) * z2_0);
    const z3_2 = 0.5 * ((1 - wz) * z2_1);
    const z4_0 = 0.3333333333333333 * (wz * z3_0);
    const z4_1 = 0.3333333333333333 * ((wz + 1) * z3_1 + (3 - wz) * z3_0);
    const z4_2 = 0.3333333333333333 * ((wz + 2) * z3_2 + (2 - wz) * z3_1);
    const z4_3 = 0.3333333333333333 * ((1 - wz) * z3_2);
    const z5_0 = 0.25 * (wz * z4_0);
    const z5_1 = 0.25 * ((wz + 1) * z4_1 + (4 - wz) * z4_0);
    const z5_2 = 0.25 * ((wz + 2) * z4_2 + (3 - wz) * z4_1);
    const z5_3 = 0.25 * ((wz + 3) * z4_3 + (2 - wz) * z4_2);
    const z5_4 = 0.25 * ((1 - wz) * z4_3);
    const zM0 = z5_0;
    const zM1 = z5_1;
    const zM2 = z5_2;
    const zM3 = z5_3;
    const zM4 = z5_4;
    const cx = cell[3 * i];
    const cy = cell[3 * i + 1];
    const cz = cell[3 * i + 2];
    {
      const base = ((cx + 0) * py + cy + 0) * pz + cz;
      const t = qi * xM4 * yM4;
      grid[base + 0] += t * zM4;
      grid[base + 1] += t * zM3;
      grid[base + 2] += t * zM2;
      grid[base + 3] += t * zM1;
      grid[base + 4] += t * zM0;
    }
    {
      const base = ((cx + 0) * py + cy + 1) * pz + cz;
      const t = qi * xM4 * yM3;
      grid[base + 0] += t * zM4;
      grid[base + 1] += t * zM3;
      grid[base + 2] += t * zM2;
      grid[base + 3] += t * zM1;
      grid[base + 4] += t * zM0;
    }
    {
      const base = ((cx + 0) * py + cy + 2) * pz + cz;
      const t = qi * xM4 * yM2;
      grid[base + 0] += t * zM4;
      grid[base + 1] += t * zM3;
      grid[base + 2] += t * zM2;
      grid[base + 3] += t * zM1;
      grid[base + 4] += t * zM0;
    }
    {
      const base = ((cx + 0) * py + cy + 3) * pz + cz;
      const t = qi * xM4 * yM1;
      grid[base + 0] += t * zM4;
      grid[base + 1] += t * zM3;
      grid[base + 2] += t * zM2;
      grid[base + 3] += t * zM1;
      grid[base + 4] += t * zM0;
    }
    {
      const base = ((cx + 0) * py + cy + 4) * pz + cz;
      const t = qi * xM4 * yM0;
      grid[base + 0] += t * zM4;
      grid[base + 1] += t * zM3;
      grid[base + 2] += t * zM2;
      grid[base + 3] += t * zM1;
      grid[base + 4] += t * zM0;
    }
    {
      const base = ((cx + 1) * py + cy + 0) * pz + cz;
      const t = qi * xM3 * yM4;
      grid[base + 0] += t * zM4;
      grid[base + 1] += t * zM3;
      grid[base + 2] += t * zM2;
      grid[base + 3] += t * zM1;
      grid[base + 4] += t * zM0;
    }
    {
      const base = ((cx + 1) * py + cy + 1) * pz + cz;
      const t = qi * xM3 * yM3;
      grid[base + 0] += t * zM4;
      grid[base + 1] += t * zM3;
      grid[base + 2] += t * zM2;
      grid[base + 3] += t * zM1;
      grid[base + 4] += t * zM0;
    }
    {
      const base = ((cx + 1) * py + cy + 2) * pz + cz;
      const t = qi * xM3 * yM2;
      grid[base + 0] += t * zM4;
      grid[base + 1] += t * zM3;
      grid[base + 2] += t * zM2;
      grid[base + 3] += t * zM1;
      grid[base + 4] += t * zM0;
    }
    {
      const base = ((cx + 1) * py + cy + 3) * pz + cz;
      const t = qi * xM3 * yM1;
      grid[base + 0] += t * zM4;
      grid[base + 1] += t * zM3;
      grid[base + 2] += t * zM2;
      grid[base + 3] += t * zM1;
      grid[base + 4] += t * zM0;
    }
    {
      const base = ((cx + 1) * py + cy + 4) * pz + cz;
      const t = qi * xM3 * yM0;
      grid[base + 0] += t * zM4;
      grid[base + 1] += t * zM3;
      grid[base + 2] += t * zM2;
      grid[base + 3] += t * zM1;
      grid[base + 4] += t * zM0;
    }
    {
      const base = ((cx + 2) * py + cy + 0) * pz + cz;
      const t = qi * xM2 * yM4;
      grid[base + 0] += t * zM4;
      grid[base + 1] += t * zM3;
      grid[base + 2] += t * zM2;
      grid[base + 3] += t * zM1;
      grid[base + 4] += t * zM0;
    }
    {
      const base = ((cx + 2) * py + cy + 1) * pz + cz;
      const t = qi * xM2 * yM3;
      grid[base + 0] += t * zM4;
      grid[base + 1] += t * zM3;
      grid[base + 2] += t * zM2;
      grid[base + 3] += t * zM1;
      grid[base + 4] += t * zM0;
    }
    {
      const base = ((cx + 2) * py + cy + 2) * pz + cz;
      const t = qi * xM2 * yM2;
      grid[base + 0] += t * zM4;
      grid[base + 1] += t * zM3;
      grid[base + 2] += t * zM2;
      grid[base + 3] += t * zM1;
      grid[base + 4] += t * zM0;
    }
    {
      const base = ((cx + 2) * py + cy + 3) * pz + cz;
      const t = qi * xM2 * yM1;
      grid[base + 0] += t * zM4;
      grid[base + 1] += t * zM3;
      grid[base + 2] += t * zM2;
      grid[base + 3] += t * zM1;
      grid[base + 4] += t * zM0;
    }
    {
      const base = ((cx + 2) * py + cy + 4) * pz + cz;
      const t = qi * xM2 * yM0;
      grid[base + 0] += t * zM4;
      grid[base + 1] += t * zM3;
      grid[base + 2] += t * zM2;
      grid[base + 3] += t * zM1;
      grid[base + 4] += t * zM0;
    }
    {
      const base = ((cx + 3) * py + cy + 0) * pz + cz;
      const t = qi * xM1 * yM4;
      grid[base + 0] += t * zM4;
      grid[base + 1] += t * zM3;
      grid[base + 2] += t * zM2;
      grid[base + 3] += t * zM1;
      grid[base + 4] += t * zM0;
    }
    {
      const base = ((cx + 3) * py + cy + 1) * pz + cz;
      const t = qi * xM1 * yM3;
      grid[base + 0] += t * zM4;
      grid[base + 1] += t * zM3;
      grid[base + 2] += t * zM2;
      grid[base + 3] += t * zM1;
      grid[base + 4] += t * zM0;
    }
    {
      const base = ((cx + 3) * py + cy + 2) * pz + cz;
      const t = qi * xM1 * yM2;
      grid[base + 0] += t * zM4;
      grid[base + 1] += t * zM3;
      grid[base + 2] += t * zM2;
      grid[base + 3] += t * zM1;
      grid[base + 4] += t * zM0;
    }
    {
      const base = ((cx + 3) * py + cy + 3) * pz + cz;
      const t = qi * xM1 * yM1;
      grid[base + 0] += t * zM4;
      grid[base + 1] += t * zM3;
      grid[base + 2] += t * zM2;
      grid[base + 3] += t * zM1;
      grid[base + 4] += t * zM0;
    }
    {
      const base = ((cx + 3) * py + cy + 4) * pz + cz;
      const t = qi * xM1 * yM0;
      grid[base + 0] += t * zM4;
      grid[base + 1] += t * zM3;
      grid[base + 2] += t * zM2;
      grid[base + 3] += t * zM1;
      grid[base + 4] += t * zM0;
    }
    {
      const base = ((cx + 4) * py + cy + 0) * pz + cz;
      const t = qi * xM0 * yM4;
      grid[base + 0] += t * zM4;
      grid[base + 1] += t * zM3;
      grid[base + 2] += t * zM2;
      grid[base + 3] += t * zM1;
      grid[base + 4] += t * zM0;
    }
    {
      const base = ((cx + 4) * py + cy + 1) * pz + cz;
      const t = qi * xM0 * yM3;
      grid[base + 0] += t * zM4;
      grid[base + 1] += t * zM3;
      grid[base + 2] += t * zM2;
      grid[base + 3] += t * zM1;
      grid[base + 4] += t * zM0;
    }
    {
      const base = ((cx + 4) * py + cy + 2) * pz + cz;
      const t = qi * xM0 * yM2;
      grid[base + 0] += t * zM4;
      grid[base + 1] += t * zM3;
      grid[base + 2] += t * zM2;
      grid[base + 3] += t * zM1;
      grid[base + 4] += t * zM0;
    }
    {
      const base = ((cx + 4) * py + cy + 3) * pz + cz;
      const t = qi * xM0 * yM1;
      grid[base + 0] += t * zM4;
      grid[base + 1] += t * zM3;
      grid[base + 2] += t * zM2;
      grid[base + 3] += t * zM1;
      grid[base + 4] += t * zM0;
    }
    {
      const base = ((cx + 4) * py + cy + 4) * pz + cz;
      const t = qi * xM0 * yM0;
      grid[base + 0] += t * zM4;
      grid[base + 1] += t * zM3;
      grid[base + 2] += t * zM2;
      grid[base + 3] += t * zM1;
      grid[base + 4] += t * zM0;
    }
  }
}
function gather8(a) {
  const phi = a.grid;
  const frac = a.frac;
  const q = a.q;
  const cell = a.cell;
  const ord = a.order;
  const f = a.f;
  const py = a.dims[1];
  const pz = a.dims[2];
  const [sx, sy, sz] = a.scale;
  for (let ii = 0; ii < a.n; ii++) {
    const i = ord === null ? ii : ord[ii];
    const qi = q[i];
    if (qi === 0) continue;
    const wx = frac[3 * i];
    const wy = frac[3 * i + 1];
    const wz = frac[3 * i + 2];
    const x2_0 = wx;
    const x2_1 = 1 - wx;
    const x3_0 = 0.5 * (wx * x2_0);
    const x3_1 = 0.5 * ((wx + 1) * x2_1 + (2 - wx) * x2_0);
    const x3_2 = 0.5 * ((1 - wx) * x2_1);
    const x4_0 = 0.3333333333333333 * (wx * x3_0);
    const x4_1 = 0.3333333333333333 * ((wx + 1) * x3_1 + (3 - wx) * x3_0);
    const x4_2 = 0.3333333333333333 * ((wx + 2) * x3_2 + (2 - wx) * x3_1);
    const x4_3 = 0.3333333333333333 * ((1 - wx) * x3_2);
    const x5_0 = 0.25 * (wx * x4_0);
    const x5_1 = 0.25 * ((wx + 1) * x4_1 + (4 - wx) * x4_0);
    const x5_2 = 0.25 * ((wx + 2) * x4_2 + (3 - wx) * x4_1);
    const x5_3 = 0.25 * ((wx + 3) * x4_3 + (2 - wx) * x4_2);
    const x5_4 = 0.25 * ((1 - wx) * x4_3);
    const xM0 = x5_0;
    const xM1 = x5_1;
    const xM2 = x5_2;
    const xM3 = x5_3;
    const xM4 = x5_4;
    const xD0 = x4_0;
    const xD1 = x4_1 - x4_0;
    const xD2 = x4_2 - x4_1;
    const xD3 = x4_3 - x4_2;
    const xD4 = -x4_3;
    const y2_0 = wy;
    const y2_1 = 1 - wy;
    const y3_0 = 0.5 * (wy * y2_0);
    const y3_1 = 0.5 * ((wy + 1) * y2_1 + (2 - wy) * y2_0);
    const y3_2 = 0.5 * ((1 - wy) * y2_1);
    const y4_0 = 0.3333333333333333 * (wy * y3_0);
    const y4_1 = 0.3333333333333333 * ((wy + 1) * y3_1 + (3 - wy) * y3_0);
    const y4_2 = 0.3333333333333333 * ((wy + 2) * y3_2 + (2 - wy) * y3_1);
    const y4_3 = 0.3333333333333333 * ((1 - wy) * y3_2);
    const y5_0 = 0.25 * (wy * y4_0);
    const y5_1 = 0.25 * ((wy + 1) * y4_1 + (4 - wy) * y4_0);
    const y5_2 = 0.25 * ((wy + 2) * y4_2 + (3 - wy) * y4_1);
    const y5_3 = 0.25 * ((wy + 3) * y4_3 + (2 - wy) * y4_2);
    const y5_4 = 0.25 * ((1 - wy) * y4_3);
    const yM0 = y5_0;
    const yM1 = y5_1;
    const yM2 = y5_2;
    const yM3 = y5_3;
    const yM4 = y5_4;
    const yD0 = y4_0;
    const yD1 = y4_1 - y4_0;
    const yD2 = y4_2 - y4_1;
    const yD3 = y4_3 - y4_2;
    const yD4 = -y4_3;
    const z2_0 = wz;
    const z2_1 = 1 - wz;
    const z3_0 = 0.5 * (wz * z2_0);
    const z3_1 = 0.5 * ((wz + 1) * z2_1 + (2 - wz) * z2_0);
    const z3_2 = 0.5 * ((1 - wz) * z2_1);
    const z4_0 = 0.3333333333333333 * (wz * z3_0);
    const z4_1 = 0.3333333333333333 * ((wz + 1) * z3_1 + (3 - wz) * z3_0);
    const z4_2 = 0.3333333333333333 * ((wz + 2) * z3_2 + (2 - wz) * z3_1);
    const z4_3 = 0.3333333333333333 * ((1 - wz) * z3_2);
    const z5_0 = 0.25 * (wz * z4_0);
    const z5_1 = 0.25 * ((wz + 1) * z4_1 + (4 - wz) * z4_0);
    const z5_2 = 0.25 * ((wz + 2) * z4_2 + (3 - wz) * z4_1);
    const z5_3 = 0.25 * ((wz + 3) * z4_3 + (2 - wz) * z4_2);
    const z5_4 = 0.25 * ((1 - wz) * z4_3);
    const zM0 = z5_0;
    const zM1 = z5_1;
    const zM2 = z5_2;
    const zM3 = z5_3;
    const zM4 = z5_4;
    const zD0 = z4_0;
    const zD1 = z4_1 - z4_0;
    const zD2 = z4_2 - z4_1;
    const zD3 = z4_3 - z4_2;
    const zD4 = -z4_3;
    const cx = cell[3 * i];
    const cy = cell[3 * i + 1];
    const cz = cell[3 * i + 2];
    let fx = 0;
    let fy = 0;
    let fz = 0;
    {
      const base = ((cx + 0) * py + cy + 0) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const s = p0 * zM4 + p1 * zM3 + p2 * zM2 + p3 * zM1 + p4 * zM0;
      const ds = p0 * zD4 + p1 * zD3 + p2 * zD2 + p3 * zD1 + p4 * zD0;
      fx += xD4 * yM4 * s;
      fy += xM4 * yD4 * s;
      fz += xM4 * yM4 * ds;
    }
    {
      const base = ((cx + 0) * py + cy + 1) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const s = p0 * zM4 + p1 * zM3 + p2 * zM2 + p3 * zM1 + p4 * zM0;
      const ds = p0 * zD4 + p1 * zD3 + p2 * zD2 + p3 * zD1 + p4 * zD0;
      fx += xD4 * yM3 * s;
      fy += xM4 * yD3 * s;
      fz += xM4 * yM3 * ds;
    }
    {
      const base = ((cx + 0) * py + cy + 2) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const s = p0 * zM4 + p1 * zM3 + p2 * zM2 + p3 * zM1 + p4 * zM0;
      const ds = p0 * zD4 + p1 * zD3 + p2 * zD2 + p3 * zD1 + p4 * zD0;
      fx += xD4 * yM2 * s;
      fy += xM4 * yD2 * s;
      fz += xM4 * yM2 * ds;
    }
    {
      const base = ((cx + 0) * py + cy + 3) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const s = p0 * zM4 + p1 * zM3 + p2 * zM2 + p3 * zM1 + p4 * zM0;
      const ds = p0 * zD4 + p1 * zD3 + p2 * zD2 + p3 * zD1 + p4 * zD0;
      fx += xD4 * yM1 * s;
      fy += xM4 * yD1 * s;
      fz += xM4 * yM1 * ds;
    }
    {
      const base = ((cx + 0) * py + cy + 4) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const s = p0 * zM4 + p1 * zM3 + p2 * zM2 + p3 * zM1 + p4 * zM0;
      const ds = p0 * zD4 + p1 * zD3 + p2 * zD2 + p3 * zD1 + p4 * zD0;
      fx += xD4 * yM0 * s;
      fy += xM4 * yD0 * s;
      fz += xM4 * yM0 * ds;
    }
    {
      const base = ((cx + 1) * py + cy + 0) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const s = p0 * zM4 + p1 * zM3 + p2 * zM2 + p3 * zM1 + p4 * zM0;
      const ds = p0 * zD4 + p1 * zD3 + p2 * zD2 + p3 * zD1 + p4 * zD0;
      fx += xD3 * yM4 * s;
      fy += xM3 * yD4 * s;
      fz += xM3 * yM4 * ds;
    }
    {
      const base = ((cx + 1) * py + cy + 1) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const s = p0 * zM4 + p1 * zM3 + p2 * zM2 + p3 * zM1 + p4 * zM0;
      const ds = p0 * zD4 + p1 * zD3 + p2 * zD2 + p3 * zD1 + p4 * zD0;
      fx += xD3 * yM3 * s;
      fy += xM3 * yD3 * s;
      fz += xM3 * yM3 * ds;
    }
    {
      const base = ((cx + 1) * py + cy + 2) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const s = p0 * zM4 + p1 * zM3 + p2 * zM2 + p3 * zM1 + p4 * zM0;
      const ds = p0 * zD4 + p1 * zD3 + p2 * zD2 + p3 * zD1 + p4 * zD0;
      fx += xD3 * yM2 * s;
      fy += xM3 * yD2 * s;
      fz += xM3 * yM2 * ds;
    }
    {
      const base = ((cx + 1) * py + cy + 3) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const s = p0 * zM4 + p1 * zM3 + p2 * zM2 + p3 * zM1 + p4 * zM0;
      const ds = p0 * zD4 + p1 * zD3 + p2 * zD2 + p3 * zD1 + p4 * zD0;
      fx += xD3 * yM1 * s;
      fy += xM3 * yD1 * s;
      fz += xM3 * yM1 * ds;
    }
    {
      const base = ((cx + 1) * py + cy + 4) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const s = p0 * zM4 + p1 * zM3 + p2 * zM2 + p3 * zM1 + p4 * zM0;
      const ds = p0 * zD4 + p1 * zD3 + p2 * zD2 + p3 * zD1 + p4 * zD0;
      fx += xD3 * yM0 * s;
      fy += xM3 * yD0 * s;
      fz += xM3 * yM0 * ds;
    }
    {
      const base = ((cx + 2) * py + cy + 0) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const s = p0 * zM4 + p1 * zM3 + p2 * zM2 + p3 * zM1 + p4 * zM0;
      const ds = p0 * zD4 + p1 * zD3 + p2 * zD2 + p3 * zD1 + p4 * zD0;
      fx += xD2 * yM4 * s;
      fy += xM2 * yD4 * s;
      fz += xM2 * yM4 * ds;
    }
    {
      const base = ((cx + 2) * py + cy + 1) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const s = p0 * zM4 + p1 * zM3 + p2 * zM2 + p3 * zM1 + p4 * zM0;
      const ds = p0 * zD4 + p1 * zD3 + p2 * zD2 + p3 * zD1 + p4 * zD0;
      fx += xD2 * yM3 * s;
      fy += xM2 * yD3 * s;
      fz += xM2 * yM3 * ds;
    }
    {
      const base = ((cx + 2) * py + cy + 2) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const s = p0 * zM4 + p1 * zM3 + p2 * zM2 + p3 * zM1 + p4 * zM0;
      const ds = p0 * zD4 + p1 * zD3 + p2 * zD2 + p3 * zD1 + p4 * zD0;
      fx += xD2 * yM2 * s;
      fy += xM2 * yD2 * s;
      fz += xM2 * yM2 * ds;
    }
    {
      const base = ((cx + 2) * py + cy + 3) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const s = p0 * zM4 + p1 * zM3 + p2 * zM2 + p3 * zM1 + p4 * zM0;
      const ds = p0 * zD4 + p1 * zD3 + p2 * zD2 + p3 * zD1 + p4 * zD0;
      fx += xD2 * yM1 * s;
      fy += xM2 * yD1 * s;
      fz += xM2 * yM1 * ds;
    }
    {
      const base = ((cx + 2) * py + cy + 4) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const s = p0 * zM4 + p1 * zM3 + p2 * zM2 + p3 * zM1 + p4 * zM0;
      const ds = p0 * zD4 + p1 * zD3 + p2 * zD2 + p3 * zD1 + p4 * zD0;
      fx += xD2 * yM0 * s;
      fy += xM2 * yD0 * s;
      fz += xM2 * yM0 * ds;
    }
    {
      const base = ((cx + 3) * py + cy + 0) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const s = p0 * zM4 + p1 * zM3 + p2 * zM2 + p3 * zM1 + p4 * zM0;
      const ds = p0 * zD4 + p1 * zD3 + p2 * zD2 + p3 * zD1 + p4 * zD0;
      fx += xD1 * yM4 * s;
      fy += xM1 * yD4 * s;
      fz += xM1 * yM4 * ds;
    }
    {
      const base = ((cx + 3) * py + cy + 1) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const s = p0 * zM4 + p1 * zM3 + p2 * zM2 + p3 * zM1 + p4 * zM0;
      const ds = p0 * zD4 + p1 * zD3 + p2 * zD2 + p3 * zD1 + p4 * zD0;
      fx += xD1 * yM3 * s;
      fy += xM1 * yD3 * s;
      fz += xM1 * yM3 * ds;
    }
    {
      const base = ((cx + 3) * py + cy + 2) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const s = p0 * zM4 + p1 * zM3 + p2 * zM2 + p3 * zM1 + p4 * zM0;
      const ds = p0 * zD4 + p1 * zD3 + p2 * zD2 + p3 * zD1 + p4 * zD0;
      fx += xD1 * yM2 * s;
      fy += xM1 * yD2 * s;
      fz += xM1 * yM2 * ds;
    }
    {
      const base = ((cx + 3) * py + cy + 3) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const s = p0 * zM4 + p1 * zM3 + p2 * zM2 + p3 * zM1 + p4 * zM0;
      const ds = p0 * zD4 + p1 * zD3 + p2 * zD2 + p3 * zD1 + p4 * zD0;
      fx += xD1 * yM1 * s;
      fy += xM1 * yD1 * s;
      fz += xM1 * yM1 * ds;
    }
    {
      const base = ((cx + 3) * py + cy + 4) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const s = p0 * zM4 + p1 * zM3 + p2 * zM2 + p3 * zM1 + p4 * zM0;
      const ds = p0 * zD4 + p1 * zD3 + p2 * zD2 + p3 * zD1 + p4 * zD0;
      fx += xD1 * yM0 * s;
      fy += xM1 * yD0 * s;
      fz += xM1 * yM0 * ds;
    }
    {
      const base = ((cx + 4) * py + cy + 0) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const s = p0 * zM4 + p1 * zM3 + p2 * zM2 + p3 * zM1 + p4 * zM0;
      const ds = p0 * zD4 + p1 * zD3 + p2 * zD2 + p3 * zD1 + p4 * zD0;
      fx += xD0 * yM4 * s;
      fy += xM0 * yD4 * s;
      fz += xM0 * yM4 * ds;
    }
    {
      const base = ((cx + 4) * py + cy + 1) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const s = p0 * zM4 + p1 * zM3 + p2 * zM2 + p3 * zM1 + p4 * zM0;
      const ds = p0 * zD4 + p1 * zD3 + p2 * zD2 + p3 * zD1 + p4 * zD0;
      fx += xD0 * yM3 * s;
      fy += xM0 * yD3 * s;
      fz += xM0 * yM3 * ds;
    }
    {
      const base = ((cx + 4) * py + cy + 2) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const s = p0 * zM4 + p1 * zM3 + p2 * zM2 + p3 * zM1 + p4 * zM0;
      const ds = p0 * zD4 + p1 * zD3 + p2 * zD2 + p3 * zD1 + p4 * zD0;
      fx += xD0 * yM2 * s;
      fy += xM0 * yD2 * s;
      fz += xM0 * yM2 * ds;
    }
    {
      const base = ((cx + 4) * py + cy + 3) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const s = p0 * zM4 + p1 * zM3 + p2 * zM2 + p3 * zM1 + p4 * zM0;
      const ds = p0 * zD4 + p1 * zD3 + p2 * zD2 + p3 * zD1 + p4 * zD0;
      fx += xD0 * yM1 * s;
      fy += xM0 * yD1 * s;
      fz += xM0 * yM1 * ds;
    }
    {
      const base = ((cx + 4) * py + cy + 4) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const s = p0 * zM4 + p1 * zM3 + p2 * zM2 + p3 * zM1 + p4 * zM0;
      const ds = p0 * zD4 + p1 * zD3 + p2 * zD2 + p3 * zD1 + p4 * zD0;
      fx += xD0 * yM0 * s;
      fy += xM0 * yD0 * s;
      fz += xM0 * yM0 * ds;
    }
    f[3 * i] -= qi * fx * sx;
    f[3 * i + 1] -= qi * fy * sy;
    f[3 * i + 2] -= qi * fz * sz;
  }
}

// pme-mesh/ts/order5.f64.full.tile0.ts
var order5_f64_full_tile0_exports = {};
__export(order5_f64_full_tile0_exports, {
  ORDER: () => ORDER9,
  TILE: () => TILE9,
  gather: () => gather9,
  key: () => key9,
  spread: () => spread9
});
var key9 = "pme-mesh.ts.order5.f64.full.tile0";
var ORDER9 = 5;
var TILE9 = 0;
function spread9(a) {
  const grid = a.grid;
  const frac = a.frac;
  const q = a.q;
  const cell = a.cell;
  const ord = a.order;
  const py = a.dims[1];
  const pz = a.dims[2];
  grid.fill(0);
  for (let ii = 0; ii < a.n; ii++) {
    const i = ord === null ? ii : ord[ii];
    const qi = q[i];
    if (qi === 0) continue;
    const wx = frac[3 * i];
    const wy = frac[3 * i + 1];
    const wz = frac[3 * i + 2];
    const x2_0 = wx;
    const x2_1 = 1 - wx;
    const x3_0 = 0.5 * (wx * x2_0);
    const x3_1 = 0.5 * ((wx + 1) * x2_1 + (2 - wx) * x2_0);
    const x3_2 = 0.5 * ((1 - wx) * x2_1);
    const x4_0 = 0.3333333333333333 * (wx * x3_0);
    const x4_1 = 0.3333333333333333 * ((wx + 1) * x3_1 + (3 - wx) * x3_0);
    const x4_2 = 0.3333333333333333 * ((wx + 2) * x3_2 + (2 - wx) * x3_1);
    const x4_3 = 0.3333333333333333 * ((1 - wx) * x3_2);
    const x5_0 = 0.25 * (wx * x4_0);
    const x5_1 = 0.25 * ((wx + 1) * x4_1 + (4 - wx) * x4_0);
    const x5_2 = 0.25 * ((wx + 2) * x4_2 + (3 - wx) * x4_1);
    const x5_3 = 0.25 * ((wx + 3) * x4_3 + (2 - wx) * x4_2);
    const x5_4 = 0.25 * ((1 - wx) * x4_3);
    const xM0 = x5_0;
    const xM1 = x5_1;
    const xM2 = x5_2;
    const xM3 = x5_3;
    const xM4 = x5_4;
    const y2_0 = wy;
    const y2_1 = 1 - wy;
    const y3_0 = 0.5 * (wy * y2_0);
    const y3_1 = 0.5 * ((wy + 1) * y2_1 + (2 - wy) * y2_0);
    const y3_2 = 0.5 * ((1 - wy) * y2_1);
    const y4_0 = 0.3333333333333333 * (wy * y3_0);
    const y4_1 = 0.3333333333333333 * ((wy + 1) * y3_1 + (3 - wy) * y3_0);
    const y4_2 = 0.3333333333333333 * ((wy + 2) * y3_2 + (2 - wy) * y3_1);
    const y4_3 = 0.3333333333333333 * ((1 - wy) * y3_2);
    const y5_0 = 0.25 * (wy * y4_0);
    const y5_1 = 0.25 * ((wy + 1) * y4_1 + (4 - wy) * y4_0);
    const y5_2 = 0.25 * ((wy + 2) * y4_2 + (3 - wy) * y4_1);
    const y5_3 = 0.25 * ((wy + 3) * y4_3 + (2 - wy) * y4_2);
    const y5_4 = 0.25 * ((1 - wy) * y4_3);
    const yM0 = y5_0;
    const yM1 = y5_1;
    const yM2 = y5_2;
    const yM3 = y5_3;
    const yM4 = y5_4;
    const z2_0 = wz;
    const z2_1 = 1 - wz;
    const z3_0 = 0.5 * (wz * z2_0);
    const z3_1 = 0.5 * ((wz + 1) * z2_1 + (2 - wz) * z2_0);
    const z3_2 = 0.5 * ((1 - wz) * z2_1);
    const z4_0 = 0.3333333333333333 * (wz * z3_0);
    const z4_1 = 0.3333333333333333 * ((wz + 1) * z3_1 + (3 - wz) * z3_0);
    const z4_2 = 0.3333333333333333 * ((wz + 2) * z3_2 + (2 - wz) * z3_1);
    const z4_3 = 0.3333333333333333 * ((1 - wz) * z3_2);
    const z5_0 = 0.25 * (wz * z4_0);
    const z5_1 = 0.25 * ((wz + 1) * z4_1 + (4 - wz) * z4_0);
    const z5_2 = 0.25 * ((wz + 2) * z4_2 + (3 - wz) * z4_1);
    const z5_3 = 0.25 * ((wz + 3) * z4_3 + (2 - wz) * z4_2);
    const z5_4 = 0.25 * ((1 - wz) * z4_3);
    const zM0 = z5_0;
    const zM1 = z5_1;
    const zM2 = z5_2;
    const zM3 = z5_3;
    const zM4 = z5_4;
    const cx = cell[3 * i];
    const cy = cell[3 * i + 1];
    const cz = cell[3 * i + 2];
    {
      const base = ((cx + 0) * py + cy + 0) * pz + cz;
      const t = qi * xM4 * yM4;
      grid[base + 0] += t * zM4;
      grid[base + 1] += t * zM3;
      grid[base + 2] += t * zM2;
      grid[base + 3] += t * zM1;
      grid[base + 4] += t * zM0;
    }
    {
      const base = ((cx + 0) * py + cy + 1) * pz + cz;
      const t = qi * xM4 * yM3;
      grid[base + 0] += t * zM4;
      grid[base + 1] += t * zM3;
      grid[base + 2] += t * zM2;
      grid[base + 3] += t * zM1;
      grid[base + 4] += t * zM0;
    }
    {
      const base = ((cx + 0) * py + cy + 2) * pz + cz;
      const t = qi * xM4 * yM2;
      grid[base + 0] += t * zM4;
      grid[base + 1] += t * zM3;
      grid[base + 2] += t * zM2;
      grid[base + 3] += t * zM1;
      grid[base + 4] += t * zM0;
    }
    {
      const base = ((cx + 0) * py + cy + 3) * pz + cz;
      const t = qi * xM4 * yM1;
      grid[base + 0] += t * zM4;
      grid[base + 1] += t * zM3;
      grid[base + 2] += t * zM2;
      grid[base + 3] += t * zM1;
      grid[base + 4] += t * zM0;
    }
    {
      const base = ((cx + 0) * py + cy + 4) * pz + cz;
      const t = qi * xM4 * yM0;
      grid[base + 0] += t * zM4;
      grid[base + 1] += t * zM3;
      grid[base + 2] += t * zM2;
      grid[base + 3] += t * zM1;
      grid[base + 4] += t * zM0;
    }
    {
      const base = ((cx + 1) * py + cy + 0) * pz + cz;
      const t = qi * xM3 * yM4;
      grid[base + 0] += t * zM4;
      grid[base + 1] += t * zM3;
      grid[base + 2] += t * zM2;
      grid[base + 3] += t * zM1;
      grid[base + 4] += t * zM0;
    }
    {
      const base = ((cx + 1) * py + cy + 1) * pz + cz;
      const t = qi * xM3 * yM3;
      grid[base + 0] += t * zM4;
      grid[base + 1] += t * zM3;
      grid[base + 2] += t * zM2;
      grid[base + 3] += t * zM1;
      grid[base + 4] += t * zM0;
    }
    {
      const base = ((cx + 1) * py + cy + 2) * pz + cz;
      const t = qi * xM3 * yM2;
      grid[base + 0] += t * zM4;
      grid[base + 1] += t * zM3;
      grid[base + 2] += t * zM2;
      grid[base + 3] += t * zM1;
      grid[base + 4] += t * zM0;
    }
    {
      const base = ((cx + 1) * py + cy + 3) * pz + cz;
      const t = qi * xM3 * yM1;
      grid[base + 0] += t * zM4;
      grid[base + 1] += t * zM3;
      grid[base + 2] += t * zM2;
      grid[base + 3] += t * zM1;
      grid[base + 4] += t * zM0;
    }
    {
      const base = ((cx + 1) * py + cy + 4) * pz + cz;
      const t = qi * xM3 * yM0;
      grid[base + 0] += t * zM4;
      grid[base + 1] += t * zM3;
      grid[base + 2] += t * zM2;
      grid[base + 3] += t * zM1;
      grid[base + 4] += t * zM0;
    }
    {
      const base = ((cx + 2) * py + cy + 0) * pz + cz;
      const t = qi * xM2 * yM4;
      grid[base + 0] += t * zM4;
      grid[base + 1] += t * zM3;
      grid[base + 2] += t * zM2;
      grid[base + 3] += t * zM1;
      grid[base + 4] += t * zM0;
    }
    {
      const base = ((cx + 2) * py + cy + 1) * pz + cz;
      const t = qi * xM2 * yM3;
      grid[base + 0] += t * zM4;
      grid[base + 1] += t * zM3;
      grid[base + 2] += t * zM2;
      grid[base + 3] += t * zM1;
      grid[base + 4] += t * zM0;
    }
    {
      const base = ((cx + 2) * py + cy + 2) * pz + cz;
      const t = qi * xM2 * yM2;
      grid[base + 0] += t * zM4;
      grid[base + 1] += t * zM3;
      grid[base + 2] += t * zM2;
      grid[base + 3] += t * zM1;
      grid[base + 4] += t * zM0;
    }
    {
      const base = ((cx + 2) * py + cy + 3) * pz + cz;
      const t = qi * xM2 * yM1;
      grid[base + 0] += t * zM4;
      grid[base + 1] += t * zM3;
      grid[base + 2] += t * zM2;
      grid[base + 3] += t * zM1;
      grid[base + 4] += t * zM0;
    }
    {
      const base = ((cx + 2) * py + cy + 4) * pz + cz;
      const t = qi * xM2 * yM0;
      grid[base + 0] += t * zM4;
      grid[base + 1] += t * zM3;
      grid[base + 2] += t * zM2;
      grid[base + 3] += t * zM1;
      grid[base + 4] += t * zM0;
    }
    {
      const base = ((cx + 3) * py + cy + 0) * pz + cz;
      const t = qi * xM1 * yM4;
      grid[base + 0] += t * zM4;
      grid[base + 1] += t * zM3;
      grid[base + 2] += t * zM2;
      grid[base + 3] += t * zM1;
      grid[base + 4] += t * zM0;
    }
    {
      const base = ((cx + 3) * py + cy + 1) * pz + cz;
      const t = qi * xM1 * yM3;
      grid[base + 0] += t * zM4;
      grid[base + 1] += t * zM3;
      grid[base + 2] += t * zM2;
      grid[base + 3] += t * zM1;
      grid[base + 4] += t * zM0;
    }
    {
      const base = ((cx + 3) * py + cy + 2) * pz + cz;
      const t = qi * xM1 * yM2;
      grid[base + 0] += t * zM4;
      grid[base + 1] += t * zM3;
      grid[base + 2] += t * zM2;
      grid[base + 3] += t * zM1;
      grid[base + 4] += t * zM0;
    }
    {
      const base = ((cx + 3) * py + cy + 3) * pz + cz;
      const t = qi * xM1 * yM1;
      grid[base + 0] += t * zM4;
      grid[base + 1] += t * zM3;
      grid[base + 2] += t * zM2;
      grid[base + 3] += t * zM1;
      grid[base + 4] += t * zM0;
    }
    {
      const base = ((cx + 3) * py + cy + 4) * pz + cz;
      const t = qi * xM1 * yM0;
      grid[base + 0] += t * zM4;
      grid[base + 1] += t * zM3;
      grid[base + 2] += t * zM2;
      grid[base + 3] += t * zM1;
      grid[base + 4] += t * zM0;
    }
    {
      const base = ((cx + 4) * py + cy + 0) * pz + cz;
      const t = qi * xM0 * yM4;
      grid[base + 0] += t * zM4;
      grid[base + 1] += t * zM3;
      grid[base + 2] += t * zM2;
      grid[base + 3] += t * zM1;
      grid[base + 4] += t * zM0;
    }
    {
      const base = ((cx + 4) * py + cy + 1) * pz + cz;
      const t = qi * xM0 * yM3;
      grid[base + 0] += t * zM4;
      grid[base + 1] += t * zM3;
      grid[base + 2] += t * zM2;
      grid[base + 3] += t * zM1;
      grid[base + 4] += t * zM0;
    }
    {
      const base = ((cx + 4) * py + cy + 2) * pz + cz;
      const t = qi * xM0 * yM2;
      grid[base + 0] += t * zM4;
      grid[base + 1] += t * zM3;
      grid[base + 2] += t * zM2;
      grid[base + 3] += t * zM1;
      grid[base + 4] += t * zM0;
    }
    {
      const base = ((cx + 4) * py + cy + 3) * pz + cz;
      const t = qi * xM0 * yM1;
      grid[base + 0] += t * zM4;
      grid[base + 1] += t * zM3;
      grid[base + 2] += t * zM2;
      grid[base + 3] += t * zM1;
      grid[base + 4] += t * zM0;
    }
    {
      const base = ((cx + 4) * py + cy + 4) * pz + cz;
      const t = qi * xM0 * yM0;
      grid[base + 0] += t * zM4;
      grid[base + 1] += t * zM3;
      grid[base + 2] += t * zM2;
      grid[base + 3] += t * zM1;
      grid[base + 4] += t * zM0;
    }
  }
}
function gather9(a) {
  const phi = a.grid;
  const frac = a.frac;
  const q = a.q;
  const cell = a.cell;
  const ord = a.order;
  const f = a.f;
  const py = a.dims[1];
  const pz = a.dims[2];
  const [sx, sy, sz] = a.scale;
  for (let ii = 0; ii < a.n; ii++) {
    const i = ord === null ? ii : ord[ii];
    const qi = q[i];
    if (qi === 0) continue;
    const wx = frac[3 * i];
    const wy = frac[3 * i + 1];
    const wz = frac[3 * i + 2];
    const x2_0 = wx;
    const x2_1 = 1 - wx;
    const x3_0 = 0.5 * (wx * x2_0);
    const x3_1 = 0.5 * ((wx + 1) * x2_1 + (2 - wx) * x2_0);
    const x3_2 = 0.5 * ((1 - wx) * x2_1);
    const x4_0 = 0.3333333333333333 * (wx * x3_0);
    const x4_1 = 0.3333333333333333 * ((wx + 1) * x3_1 + (3 - wx) * x3_0);
    const x4_2 = 0.3333333333333333 * ((wx + 2) * x3_2 + (2 - wx) * x3_1);
    const x4_3 = 0.3333333333333333 * ((1 - wx) * x3_2);
    const x5_0 = 0.25 * (wx * x4_0);
    const x5_1 = 0.25 * ((wx + 1) * x4_1 + (4 - wx) * x4_0);
    const x5_2 = 0.25 * ((wx + 2) * x4_2 + (3 - wx) * x4_1);
    const x5_3 = 0.25 * ((wx + 3) * x4_3 + (2 - wx) * x4_2);
    const x5_4 = 0.25 * ((1 - wx) * x4_3);
    const xM0 = x5_0;
    const xM1 = x5_1;
    const xM2 = x5_2;
    const xM3 = x5_3;
    const xM4 = x5_4;
    const xD0 = x4_0;
    const xD1 = x4_1 - x4_0;
    const xD2 = x4_2 - x4_1;
    const xD3 = x4_3 - x4_2;
    const xD4 = -x4_3;
    const y2_0 = wy;
    const y2_1 = 1 - wy;
    const y3_0 = 0.5 * (wy * y2_0);
    const y3_1 = 0.5 * ((wy + 1) * y2_1 + (2 - wy) * y2_0);
    const y3_2 = 0.5 * ((1 - wy) * y2_1);
    const y4_0 = 0.3333333333333333 * (wy * y3_0);
    const y4_1 = 0.3333333333333333 * ((wy + 1) * y3_1 + (3 - wy) * y3_0);
    const y4_2 = 0.3333333333333333 * ((wy + 2) * y3_2 + (2 - wy) * y3_1);
    const y4_3 = 0.3333333333333333 * ((1 - wy) * y3_2);
    const y5_0 = 0.25 * (wy * y4_0);
    const y5_1 = 0.25 * ((wy + 1) * y4_1 + (4 - wy) * y4_0);
    const y5_2 = 0.25 * ((wy + 2) * y4_2 + (3 - wy) * y4_1);
    const y5_3 = 0.25 * ((wy + 3) * y4_3 + (2 - wy) * y4_2);
    const y5_4 = 0.25 * ((1 - wy) * y4_3);
    const yM0 = y5_0;
    const yM1 = y5_1;
    const yM2 = y5_2;
    const yM3 = y5_3;
    const yM4 = y5_4;
    const yD0 = y4_0;
    const yD1 = y4_1 - y4_0;
    const yD2 = y4_2 - y4_1;
    const yD3 = y4_3 - y4_2;
    const yD4 = -y4_3;
    const z2_0 = wz;
    const z2_1 = 1 - wz;
    const z3_0 = 0.5 * (wz * z2_0);
    const z3_1 = 0.5 * ((wz + 1) * z2_1 + (2 - wz) * z2_0);
    const z3_2 = 0.5 * ((1 - wz) * z2_1);
    const z4_0 = 0.3333333333333333 * (wz * z3_0);
    const z4_1 = 0.3333333333333333 * ((wz + 1) * z3_1 + (3 - wz) * z3_0);
    const z4_2 = 0.3333333333333333 * ((wz + 2) * z3_2 + (2 - wz) * z3_1);
    const z4_3 = 0.3333333333333333 * ((1 - wz) * z3_2);
    const z5_0 = 0.25 * (wz * z4_0);
    const z5_1 = 0.25 * ((wz + 1) * z4_1 + (4 - wz) * z4_0);
    const z5_2 = 0.25 * ((wz + 2) * z4_2 + (3 - wz) * z4_1);
    const z5_3 = 0.25 * ((wz + 3) * z4_3 + (2 - wz) * z4_2);
    const z5_4 = 0.25 * ((1 - wz) * z4_3);
    const zM0 = z5_0;
    const zM1 = z5_1;
    const zM2 = z5_2;
    const zM3 = z5_3;
    const zM4 = z5_4;
    const zD0 = z4_0;
    const zD1 = z4_1 - z4_0;
    const zD2 = z4_2 - z4_1;
    const zD3 = z4_3 - z4_2;
    const zD4 = -z4_3;
    const cx = cell[3 * i];
    const cy = cell[3 * i + 1];
    const cz = cell[3 * i + 2];
    let fx = 0;
    let fy = 0;
    let fz = 0;
    {
      const base = ((cx + 0) * py + cy + 0) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const s = p0 * zM4 + p1 * zM3 + p2 * zM2 + p3 * zM1 + p4 * zM0;
      const ds = p0 * zD4 + p1 * zD3 + p2 * zD2 + p3 * zD1 + p4 * zD0;
      fx += xD4 * yM4 * s;
      fy += xM4 * yD4 * s;
      fz += xM4 * yM4 * ds;
    }
    {
      const base = ((cx + 0) * py + cy + 1) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const s = p0 * zM4 + p1 * zM3 + p2 * zM2 + p3 * zM1 + p4 * zM0;
      const ds = p0 * zD4 + p1 * zD3 + p2 * zD2 + p3 * zD1 + p4 * zD0;
      fx += xD4 * yM3 * s;
      fy += xM4 * yD3 * s;
      fz += xM4 * yM3 * ds;
    }
    {
      const base = ((cx + 0) * py + cy + 2) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const s = p0 * zM4 + p1 * zM3 + p2 * zM2 + p3 * zM1 + p4 * zM0;
      const ds = p0 * zD4 + p1 * zD3 + p2 * zD2 + p3 * zD1 + p4 * zD0;
      fx += xD4 * yM2 * s;
      fy += xM4 * yD2 * s;
      fz += xM4 * yM2 * ds;
    }
    {
      const base = ((cx + 0) * py + cy + 3) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const s = p0 * zM4 + p1 * zM3 + p2 * zM2 + p3 * zM1 + p4 * zM0;
      const ds = p0 * zD4 + p1 * zD3 + p2 * zD2 + p3 * zD1 + p4 * zD0;
      fx += xD4 * yM1 * s;
      fy += xM4 * yD1 * s;
      fz += xM4 * yM1 * ds;
    }
    {
      const base = ((cx + 0) * py + cy + 4) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const s = p0 * zM4 + p1 * zM3 + p2 * zM2 + p3 * zM1 + p4 * zM0;
      const ds = p0 * zD4 + p1 * zD3 + p2 * zD2 + p3 * zD1 + p4 * zD0;
      fx += xD4 * yM0 * s;
      fy += xM4 * yD0 * s;
      fz += xM4 * yM0 * ds;
    }
    {
      const base = ((cx + 1) * py + cy + 0) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const s = p0 * zM4 + p1 * zM3 + p2 * zM2 + p3 * zM1 + p4 * zM0;
      const ds = p0 * zD4 + p1 * zD3 + p2 * zD2 + p3 * zD1 + p4 * zD0;
      fx += xD3 * yM4 * s;
      fy += xM3 * yD4 * s;
      fz += xM3 * yM4 * ds;
    }
    {
      const base = ((cx + 1) * py + cy + 1) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const s = p0 * zM4 + p1 * zM3 + p2 * zM2 + p3 * zM1 + p4 * zM0;
      const ds = p0 * zD4 + p1 * zD3 + p2 * zD2 + p3 * zD1 + p4 * zD0;
      fx += xD3 * yM3 * s;
      fy += xM3 * yD3 * s;
      fz += xM3 * yM3 * ds;
    }
    {
      const base = ((cx + 1) * py + cy + 2) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const s = p0 * zM4 + p1 * zM3 + p2 * zM2 + p3 * zM1 + p4 * zM0;
      const ds = p0 * zD4 + p1 * zD3 + p2 * zD2 + p3 * zD1 + p4 * zD0;
      fx += xD3 * yM2 * s;
      fy += xM3 * yD2 * s;
      fz += xM3 * yM2 * ds;
    }
    {
      const base = ((cx + 1) * py + cy + 3) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const s = p0 * zM4 + p1 * zM3 + p2 * zM2 + p3 * zM1 + p4 * zM0;
      const ds = p0 * zD4 + p1 * zD3 + p2 * zD2 + p3 * zD1 + p4 * zD0;
      fx += xD3 * yM1 * s;
      fy += xM3 * yD1 * s;
      fz += xM3 * yM1 * ds;
    }
    {
      const base = ((cx + 1) * py + cy + 4) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const s = p0 * zM4 + p1 * zM3 + p2 * zM2 + p3 * zM1 + p4 * zM0;
      const ds = p0 * zD4 + p1 * zD3 + p2 * zD2 + p3 * zD1 + p4 * zD0;
      fx += xD3 * yM0 * s;
      fy += xM3 * yD0 * s;
      fz += xM3 * yM0 * ds;
    }
    {
      const base = ((cx + 2) * py + cy + 0) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const s = p0 * zM4 + p1 * zM3 + p2 * zM2 + p3 * zM1 + p4 * zM0;
      const ds = p0 * zD4 + p1 * zD3 + p2 * zD2 + p3 * zD1 + p4 * zD0;
      fx += xD2 * yM4 * s;
      fy += xM2 * yD4 * s;
      fz += xM2 * yM4 * ds;
    }
    {
      const base = ((cx + 2) * py + cy + 1) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const s = p0 * zM4 + p1 * zM3 + p2 * zM2 + p3 * zM1 + p4 * zM0;
      const ds = p0 * zD4 + p1 * zD3 + p2 * zD2 + p3 * zD1 + p4 * zD0;
      fx += xD2 * yM3 * s;
      fy += xM2 * yD3 * s;
      fz += xM2 * yM3 * ds;
    }
    {
      const base = ((cx + 2) * py + cy + 2) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const s = p0 * zM4 + p1 * zM3 + p2 * zM2 + p3 * zM1 + p4 * zM0;
      const ds = p0 * zD4 + p1 * zD3 + p2 * zD2 + p3 * zD1 + p4 * zD0;
      fx += xD2 * yM2 * s;
      fy += xM2 * yD2 * s;
      fz += xM2 * yM2 * ds;
    }
    {
      const base = ((cx + 2) * py + cy + 3) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const s = p0 * zM4 + p1 * zM3 + p2 * zM2 + p3 * zM1 + p4 * zM0;
      const ds = p0 * zD4 + p1 * zD3 + p2 * zD2 + p3 * zD1 + p4 * zD0;
      fx += xD2 * yM1 * s;
      fy += xM2 * yD1 * s;
      fz += xM2 * yM1 * ds;
    }
    {
      const base = ((cx + 2) * py + cy + 4) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const s = p0 * zM4 + p1 * zM3 + p2 * zM2 + p3 * zM1 + p4 * zM0;
      const ds = p0 * zD4 + p1 * zD3 + p2 * zD2 + p3 * zD1 + p4 * zD0;
      fx += xD2 * yM0 * s;
      fy += xM2 * yD0 * s;
      fz += xM2 * yM0 * ds;
    }
    {
      const base = ((cx + 3) * py + cy + 0) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const s = p0 * zM4 + p1 * zM3 + p2 * zM2 + p3 * zM1 + p4 * zM0;
      const ds = p0 * zD4 + p1 * zD3 + p2 * zD2 + p3 * zD1 + p4 * zD0;
      fx += xD1 * yM4 * s;
      fy += xM1 * yD4 * s;
      fz += xM1 * yM4 * ds;
    }
    {
      const base = ((cx + 3) * py + cy + 1) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const s = p0 * zM4 + p1 * zM3 + p2 * zM2 + p3 * zM1 + p4 * zM0;
      const ds = p0 * zD4 + p1 * zD3 + p2 * zD2 + p3 * zD1 + p4 * zD0;
      fx += xD1 * yM3 * s;
      fy += xM1 * yD3 * s;
      fz += xM1 * yM3 * ds;
    }
    {
      const base = ((cx + 3) * py + cy + 2) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const s = p0 * zM4 + p1 * zM3 + p2 * zM2 + p3 * zM1 + p4 * zM0;
      const ds = p0 * zD4 + p1 * zD3 + p2 * zD2 + p3 * zD1 + p4 * zD0;
      fx += xD1 * yM2 * s;
      fy += xM1 * yD2 * s;
      fz += xM1 * yM2 * ds;
    }
    {
      const base = ((cx + 3) * py + cy + 3) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const s = p0 * zM4 + p1 * zM3 + p2 * zM2 + p3 * zM1 + p4 * zM0;
      const ds = p0 * zD4 + p1 * zD3 + p2 * zD2 + p3 * zD1 + p4 * zD0;
      fx += xD1 * yM1 * s;
      fy += xM1 * yD1 * s;
      fz += xM1 * yM1 * ds;
    }
    {
      const base = ((cx + 3) * py + cy + 4) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const s = p0 * zM4 + p1 * zM3 + p2 * zM2 + p3 * zM1 + p4 * zM0;
      const ds = p0 * zD4 + p1 * zD3 + p2 * zD2 + p3 * zD1 + p4 * zD0;
      fx += xD1 * yM0 * s;
      fy += xM1 * yD0 * s;
      fz += xM1 * yM0 * ds;
    }
    {
      const base = ((cx + 4) * py + cy + 0) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const s = p0 * zM4 + p1 * zM3 + p2 * zM2 + p3 * zM1 + p4 * zM0;
      const ds = p0 * zD4 + p1 * zD3 + p2 * zD2 + p3 * zD1 + p4 * zD0;
      fx += xD0 * yM4 * s;
      fy += xM0 * yD4 * s;
      fz += xM0 * yM4 * ds;
    }
    {
      const base = ((cx + 4) * py + cy + 1) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const s = p0 * zM4 + p1 * zM3 + p2 * zM2 + p3 * zM1 + p4 * zM0;
      const ds = p0 * zD4 + p1 * zD3 + p2 * zD2 + p3 * zD1 + p4 * zD0;
      fx += xD0 * yM3 * s;
      fy += xM0 * yD3 * s;
      fz += xM0 * yM3 * ds;
    }
    {
      const base = ((cx + 4) * py + cy + 2) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const s = p0 * zM4 + p1 * zM3 + p2 * zM2 + p3 * zM1 + p4 * zM0;
      const ds = p0 * zD4 + p1 * zD3 + p2 * zD2 + p3 * zD1 + p4 * zD0;
      fx += xD0 * yM2 * s;
      fy += xM0 * yD2 * s;
      fz += xM0 * yM2 * ds;
    }
    {
      const base = ((cx + 4) * py + cy + 3) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const s = p0 * zM4 + p1 * zM3 + p2 * zM2 + p3 * zM1 + p4 * zM0;
      const ds = p0 * zD4 + p1 * zD3 + p2 * zD2 + p3 * zD1 + p4 * zD0;
      fx += xD0 * yM1 * s;
      fy += xM0 * yD1 * s;
      fz += xM0 * yM1 * ds;
    }
    {
      const base = ((cx + 4) * py + cy + 4) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const s = p0 * zM4 + p1 * zM3 + p2 * zM2 + p3 * zM1 + p4 * zM0;
      const ds = p0 * zD4 + p1 * zD3 + p2 * zD2 + p3 * zD1 + p4 * zD0;
      fx += xD0 * yM0 * s;
      fy += xM0 * yD0 * s;
      fz += xM0 * yM0 * ds;
    }
    f[3 * i] -= qi * fx * sx;
    f[3 * i + 1] -= qi * fy * sy;
    f[3 * i + 2] -= qi * fz * sz;
  }
}

// pme-mesh/ts/order5.f64.loop.tile0.ts
var order5_f64_loop_tile0_exports = {};
__export(order5_f64_loop_tile0_exports, {
  ORDER: () => ORDER10,
  TILE: () => TILE10,
  gather: () => gather10,
  key: () => key10,
  spread: () => spread10
});
var key10 = "pme-mesh.ts.order5.f64.loop.tile0";
var ORDER10 = 5;
var TILE10 = 0;
function spread10(a) {
  const grid = a.grid;
  const frac = a.frac;
  const q = a.q;
  const cell = a.cell;
  const ord = a.order;
  const py = a.dims[1];
  const pz = a.dims[2];
  grid.fill(0);
  const Wx = new Float64Array(5);
  const Wy = new Float64Array(5);
  const Wz = new Float64Array(5);
  for (let ii = 0; ii < a.n; ii++) {
    const i = ord === null ? ii : ord[ii];
    const qi = q[i];
    if (qi === 0) continue;
    const wx = frac[3 * i];
    const wy = frac[3 * i + 1];
    const wz = frac[3 * i + 2];
    const x2_0 = wx;
    const x2_1 = 1 - wx;
    const x3_0 = 0.5 * (wx * x2_0);
    const x3_1 = 0.5 * ((wx + 1) * x2_1 + (2 - wx) * x2_0);
    const x3_2 = 0.5 * ((1 - wx) * x2_1);
    const x4_0 = 0.3333333333333333 * (wx * x3_0);
    const x4_1 = 0.3333333333333333 * ((wx + 1) * x3_1 + (3 - wx) * x3_0);
    const x4_2 = 0.3333333333333333 * ((wx + 2) * x3_2 + (2 - wx) * x3_1);
    const x4_3 = 0.3333333333333333 * ((1 - wx) * x3_2);
    const x5_0 = 0.25 * (wx * x4_0);
    const x5_1 = 0.25 * ((wx + 1) * x4_1 + (4 - wx) * x4_0);
    const x5_2 = 0.25 * ((wx + 2) * x4_2 + (3 - wx) * x4_1);
    const x5_3 = 0.25 * ((wx + 3) * x4_3 + (2 - wx) * x4_2);
    const x5_4 = 0.25 * ((1 - wx) * x4_3);
    const xM0 = x5_0;
    const xM1 = x5_1;
    const xM2 = x5_2;
    const xM3 = x5_3;
    const xM4 = x5_4;
    const y2_0 = wy;
    const y2_1 = 1 - wy;
    const y3_0 = 0.5 * (wy * y2_0);
    const y3_1 = 0.5 * ((wy + 1) * y2_1 + (2 - wy) * y2_0);
    const y3_2 = 0.5 * ((1 - wy) * y2_1);
    const y4_0 = 0.3333333333333333 * (wy * y3_0);
    const y4_1 = 0.3333333333333333 * ((wy + 1) * y3_1 + (3 - wy) * y3_0);
    const y4_2 = 0.3333333333333333 * ((wy + 2) * y3_2 + (2 - wy) * y3_1);
    const y4_3 = 0.3333333333333333 * ((1 - wy) * y3_2);
    const y5_0 = 0.25 * (wy * y4_0);
    const y5_1 = 0.25 * ((wy + 1) * y4_1 + (4 - wy) * y4_0);
    const y5_2 = 0.25 * ((wy + 2) * y4_2 + (3 - wy) * y4_1);
    const y5_3 = 0.25 * ((wy + 3) * y4_3 + (2 - wy) * y4_2);
    const y5_4 = 0.25 * ((1 - wy) * y4_3);
    const yM0 = y5_0;
    const yM1 = y5_1;
    const yM2 = y5_2;
    const yM3 = y5_3;
    const yM4 = y5_4;
    const z2_0 = wz;
    const z2_1 = 1 - wz;
    const z3_0 = 0.5 * (wz * z2_0);
    const z3_1 = 0.5 * ((wz + 1) * z2_1 + (2 - wz) * z2_0);
    const z3_2 = 0.5 * ((1 - wz) * z2_1);
    const z4_0 = 0.3333333333333333 * (wz * z3_0);
    const z4_1 = 0.3333333333333333 * ((wz + 1) * z3_1 + (3 - wz) * z3_0);
    const z4_2 = 0.3333333333333333 * ((wz + 2) * z3_2 + (2 - wz) * z3_1);
    const z4_3 = 0.3333333333333333 * ((1 - wz) * z3_2);
    const z5_0 = 0.25 * (wz * z4_0);
    const z5_1 = 0.25 * ((wz + 1) * z4_1 + (4 - wz) * z4_0);
    const z5_2 = 0.25 * ((wz + 2) * z4_2 + (3 - wz) * z4_1);
    const z5_3 = 0.25 * ((wz + 3) * z4_3 + (2 - wz) * z4_2);
    const z5_4 = 0.25 * ((1 - wz) * z4_3);
    const zM0 = z5_0;
    const zM1 = z5_1;
    const zM2 = z5_2;
    const zM3 = z5_3;
    const zM4 = z5_4;
    const cx = cell[3 * i];
    const cy = cell[3 * i + 1];
    const cz = cell[3 * i + 2];
    Wx[0] = xM4;
    Wy[0] = yM4;
    Wz[0] = zM4;
    Wx[1] = xM3;
    Wy[1] = yM3;
    Wz[1] = zM3;
    Wx[2] = xM2;
    Wy[2] = yM2;
    Wz[2] = zM2;
    Wx[3] = xM1;
    Wy[3] = yM1;
    Wz[3] = zM1;
    Wx[4] = xM0;
    Wy[4] = yM0;
    Wz[4] = zM0;
    for (let ax = 0; ax < 5; ax++) {
      const tx = qi * Wx[ax];
      for (let by = 0; by < 5; by++) {
        const t = tx * Wy[by];
        const base = ((cx + ax) * py + cy + by) * pz + cz;
        for (let c = 0; c < 5; c++) grid[base + c] += t * Wz[c];
      }
    }
  }
}
function gather10(a) {
  const phi = a.grid;
  const frac = a.frac;
  const q = a.q;
  const cell = a.cell;
  const ord = a.order;
  const f = a.f;
  const py = a.dims[1];
  const pz = a.dims[2];
  const [sx, sy, sz] = a.scale;
  const Wx = new Float64Array(5);
  const Wy = new Float64Array(5);
  const Wz = new Float64Array(5);
  const Dx = new Float64Array(5);
  const Dy = new Float64Array(5);
  const Dz = new Float64Array(5);
  for (let ii = 0; ii < a.n; ii++) {
    const i = ord === null ? ii : ord[ii];
    const qi = q[i];
    if (qi === 0) continue;
    const wx = frac[3 * i];
    const wy = frac[3 * i + 1];
    const wz = frac[3 * i + 2];
    const x2_0 = wx;
    const x2_1 = 1 - wx;
    const x3_0 = 0.5 * (wx * x2_0);
    const x3_1 = 0.5 * ((wx + 1) * x2_1 + (2 - wx) * x2_0);
    const x3_2 = 0.5 * ((1 - wx) * x2_1);
    const x4_0 = 0.3333333333333333 * (wx * x3_0);
    const x4_1 = 0.3333333333333333 * ((wx + 1) * x3_1 + (3 - wx) * x3_0);
    const x4_2 = 0.3333333333333333 * ((wx + 2) * x3_2 + (2 - wx) * x3_1);
    const x4_3 = 0.3333333333333333 * ((1 - wx) * x3_2);
    const x5_0 = 0.25 * (wx * x4_0);
    const x5_1 = 0.25 * ((wx + 1) * x4_1 + (4 - wx) * x4_0);
    const x5_2 = 0.25 * ((wx + 2) * x4_2 + (3 - wx) * x4_1);
    const x5_3 = 0.25 * ((wx + 3) * x4_3 + (2 - wx) * x4_2);
    const x5_4 = 0.25 * ((1 - wx) * x4_3);
    const xM0 = x5_0;
    const xM1 = x5_1;
    const xM2 = x5_2;
    const xM3 = x5_3;
    const xM4 = x5_4;
    const xD0 = x4_0;
    const xD1 = x4_1 - x4_0;
    const xD2 = x4_2 - x4_1;
    const xD3 = x4_3 - x4_2;
    const xD4 = -x4_3;
    const y2_0 = wy;
    const y2_1 = 1 - wy;
    const y3_0 = 0.5 * (wy * y2_0);
    const y3_1 = 0.5 * ((wy + 1) * y2_1 + (2 - wy) * y2_0);
    const y3_2 = 0.5 * ((1 - wy) * y2_1);
    const y4_0 = 0.3333333333333333 * (wy * y3_0);
    const y4_1 = 0.3333333333333333 * ((wy + 1) * y3_1 + (3 - wy) * y3_0);
    const y4_2 = 0.3333333333333333 * ((wy + 2) * y3_2 + (2 - wy) * y3_1);
    const y4_3 = 0.3333333333333333 * ((1 - wy) * y3_2);
    const y5_0 = 0.25 * (wy * y4_0);
    const y5_1 = 0.25 * ((wy + 1) * y4_1 + (4 - wy) * y4_0);
    const y5_2 = 0.25 * ((wy + 2) * y4_2 + (3 - wy) * y4_1);
    const y5_3 = 0.25 * ((wy + 3) * y4_3 + (2 - wy) * y4_2);
    const y5_4 = 0.25 * ((1 - wy) * y4_3);
    const yM0 = y5_0;
    const yM1 = y5_1;
    const yM2 = y5_2;
    const yM3 = y5_3;
    const yM4 = y5_4;
    const yD0 = y4_0;
    const yD1 = y4_1 - y4_0;
    const yD2 = y4_2 - y4_1;
    const yD3 = y4_3 - y4_2;
    const yD4 = -y4_3;
    const z2_0 = wz;
    const z2_1 = 1 - wz;
    const z3_0 = 0.5 * (wz * z2_0);
    const z3_1 = 0.5 * ((wz + 1) * z2_1 + (2 - wz) * z2_0);
    const z3_2 = 0.5 * ((1 - wz) * z2_1);
    const z4_0 = 0.3333333333333333 * (wz * z3_0);
    const z4_1 = 0.3333333333333333 * ((wz + 1) * z3_1 + (3 - wz) * z3_0);
    const z4_2 = 0.3333333333333333 * ((wz + 2) * z3_2 + (2 - wz) * z3_1);
    const z4_3 = 0.3333333333333333 * ((1 - wz) * z3_2);
    const z5_0 = 0.25 * (wz * z4_0);
    const z5_1 = 0.25 * ((wz + 1) * z4_1 + (4 - wz) * z4_0);
    const z5_2 = 0.25 * ((wz + 2) * z4_2 + (3 - wz) * z4_1);
    const z5_3 = 0.25 * ((wz + 3) * z4_3 + (2 - wz) * z4_2);
    const z5_4 = 0.25 * ((1 - wz) * z4_3);
    const zM0 = z5_0;
    const zM1 = z5_1;
    const zM2 = z5_2;
    const zM3 = z5_3;
    const zM4 = z5_4;
    const zD0 = z4_0;
    const zD1 = z4_1 - z4_0;
    const zD2 = z4_2 - z4_1;
    const zD3 = z4_3 - z4_2;
    const zD4 = -z4_3;
    const cx = cell[3 * i];
    const cy = cell[3 * i + 1];
    const cz = cell[3 * i + 2];
    let fx = 0;
    let fy = 0;
    let fz = 0;
    Wx[0] = xM4;
    Wy[0] = yM4;
    Wz[0] = zM4;
    Dx[0] = xD4;
    Dy[0] = yD4;
    Dz[0] = zD4;
    Wx[1] = xM3;
    Wy[1] = yM3;
    Wz[1] = zM3;
    Dx[1] = xD3;
    Dy[1] = yD3;
    Dz[1] = zD3;
    Wx[2] = xM2;
    Wy[2] = yM2;
    Wz[2] = zM2;
    Dx[2] = xD2;
    Dy[2] = yD2;
    Dz[2] = zD2;
    Wx[3] = xM1;
    Wy[3] = yM1;
    Wz[3] = zM1;
    Dx[3] = xD1;
    Dy[3] = yD1;
    Dz[3] = zD1;
    Wx[4] = xM0;
    Wy[4] = yM0;
    Wz[4] = zM0;
    Dx[4] = xD0;
    Dy[4] = yD0;
    Dz[4] = zD0;
    for (let ax = 0; ax < 5; ax++) {
      for (let by = 0; by < 5; by++) {
        const base = ((cx + ax) * py + cy + by) * pz + cz;
        let s = 0;
        let ds = 0;
        for (let c = 0; c < 5; c++) {
          const p = phi[base + c];
          s += p * Wz[c];
          ds += p * Dz[c];
        }
        fx += Dx[ax] * Wy[by] * s;
        fy += Wx[ax] * Dy[by] * s;
        fz += Wx[ax] * Wy[by] * ds;
      }
    }
    f[3 * i] -= qi * fx * sx;
    f[3 * i + 1] -= qi * fy * sy;
    f[3 * i + 2] -= qi * fz * sz;
  }
}

// pme-mesh/ts/order6.f32.full.tile0.ts
var order6_f32_full_tile0_exports = {};
__export(order6_f32_full_tile0_exports, {
  ORDER: () => ORDER11,
  TILE: () => TILE11,
  gather: () => gather11,
  key: () => key11,
  spread: () => spread11
});
var key11 = "pme-mesh.ts.order6.f32.full.tile0";
var ORDER11 = 6;
var TILE11 = 0;
function spread11(a) {
  const grid = a.grid;
  const frac = a.frac;
  const q = a.q;
  const cell = a.cell;
  const ord = a.order;
  const py = a.dims[1];
  const pz = a.dims[2];
  grid.fill(0);
  for (let ii = 0; ii < a.n; ii++) {
    const i = ord === null ? ii : ord[ii];
    const qi = q[i];
    if (qi === 0) continue;
    const wx = frac[3 * i];
    const wy = frac[3 * i + 1];
    const wz = frac[3 * i + 2];
    const x2_0 = wx;
    const x2_1 = 1 - wx;
    const x3_0 = 0.5 * (wx * x2_0);
    const x3_1 = 0.5 * ((wx + 1) * x2_1 + (2 - wx) * x2_0);
    const x3_2 = 0.5 * ((1 - wx) * x2_1);
    const x4_0 = 0.3333333333333333 * (wx * x3_0);
    const x4_1 = 0.3333333333333333 * ((wx + 1) * x3_1 + (3 - wx) * x3_0);
    const x4_2 = 0.3333333333333333 * ((wx + 2) * x3_2 + (2 - wx) * x3_1);
    const x4_3 = 0.3333333333333333 * ((1 - wx) * x3_2);
    const x5_0 = 0.25 * (wx * x4_0);
    const x5_1 = 0.25 * ((wx + 1) * x4_1 + (4 - wx) * x4_0);
    const x5_2 = 0.25 * ((wx + 2) * x4_2 + (3 - wx) * x4_1);
    const x5_3 = 0.25 * ((wx + 3) * x4_3 + (2 - wx) * x4_2);
    const x5_4 = 0.25 * ((1 - wx) * x4_3);
    const x6_0 = 0.2 * (wx * x5_0);
    const x6_1 = 0.2 * ((wx + 1) * x5_1 + (5 - wx) * x5_0);
    const x6_2 = 0.2 * ((wx + 2) * x5_2 + (4 - wx) * x5_1);
    const x6_3 = 0.2 * ((wx + 3) * x5_3 + (3 - wx) * x5_2);
    const x6_4 = 0.2 * ((wx + 4) * x5_4 + (2 - wx) * x5_3);
    const x6_5 = 0.2 * ((1 - wx) * x5_4);
    const xM0 = x6_0;
    const xM1 = x6_1;
    const xM2 = x6_2;
    const xM3 = x6_3;
    const xM4 = x6_4;
    const xM5 = x6_5;
    const y2_0 = wy;
    const y2_1 = 1 - wy;
    const y3_0 = 0.5 * (wy * y2_0);
    const y3_1 = 0.5 * ((wy + 1) * y2_1 + (2 - wy) * y2_0);
    const y3_2 = 0.5 * ((1 - wy) * y2_1);
    const y4_0 = 0.3333333333333333 * (wy * y3_0);
    const y4_1 = 0.3333333333333333 * ((wy + 1) * y3_1 + (3 - wy) * y3_0);
    const y4_2 = 0.3333333333333333 * ((wy + 2) * y3_2 + (2 - wy) * y3_1);
    const y4_3 = 0.3333333333333333 * ((1 - wy) * y3_2);
    const y5_0 = 0.25 * (wy * y4_0);
    const y5_1 = 0.25 * ((wy + 1) * y4_1 + (4 - wy) * y4_0);
    const y5_2 = 0.25 * ((wy + 2) * y4_2 + (3 - wy) * y4_1);
    const y5_3 = 0.25 * ((wy + 3) * y4_3 + (2 - wy) * y4_2);
    const y5_4 = 0.25 * ((1 - wy) * y4_3);
    const y6_0 = 0.2 * (wy * y5_0);
    const y6_1 = 0.2 * ((wy + 1) * y5_1 + (5 - wy) * y5_0);
    const y6_2 = 0.2 * ((wy + 2) * y5_2 + (4 - wy) * y5_1);
    const y6_3 = 0.2 * ((wy + 3) * y5_3 + (3 - wy) * y5_2);
    const y6_4 = 0.2 * ((wy + 4) * y5_4 + (2 - wy) * y5_3);
    const y6_5 = 0.2 * ((1 - wy) * y5_4);
    const yM0 = y6_0;
    const yM1 = y6_1;
    const yM2 = y6_2;
    const yM3 = y6_3;
    const yM4 = y6_4;
    const yM5 = y6_5;
    const z2_0 = wz;
    const z2_1 = 1 - wz;
    const z3_0 = 0.5 * (wz * z2_0);
    const z3_1 = 0.5 * ((wz + 1) * z2_1 + (2 - wz) * z2_0);
    const z3_2 = 0.5 * ((1 - wz) * z2_1);
    const z4_0 = 0.3333333333333333 * (wz * z3_0);
    const z4_1 = 0.3333333333333333 * ((wz + 1) * z3_1 + (3 - wz) * z3_0);
    const z4_2 = 0.3333333333333333 * ((wz + 2) * z3_2 + (2 - wz) * z3_1);
    const z4_3 = 0.3333333333333333 * ((1 - wz) * z3_2);
    const z5_0 = 0.25 * (wz * z4_0);
    const z5_1 = 0.25 * ((wz + 1) * z4_1 + (4 - wz) * z4_0);
    const z5_2 = 0.25 * ((wz + 2) * z4_2 + (3 - wz) * z4_1);
    const z5_3 = 0.25 * ((wz + 3) * z4_3 + (2 - wz) * z4_2);
    const z5_4 = 0.25 * ((1 - wz) * z4_3);
    const z6_0 = 0.2 * (wz * z5_0);
    const z6_1 = 0.2 * ((wz + 1) * z5_1 + (5 - wz) * z5_0);
    const z6_2 = 0.2 * ((wz + 2) * z5_2 + (4 - wz) * z5_1);
    const z6_3 = 0.2 * ((wz + 3) * z5_3 + (3 - wz) * z5_2);
    const z6_4 = 0.2 * ((wz + 4) * z5_4 + (2 - wz) * z5_3);
    const z6_5 = 0.2 * ((1 - wz) * z5_4);
    const zM0 = z6_0;
    const zM1 = z6_1;
    const zM2 = z6_2;
    const zM3 = z6_3;
    const zM4 = z6_4;
    const zM5 = z6_5;
    const cx = cell[3 * i];
    const cy = cell[3 * i + 1];
    const cz = cell[3 * i + 2];
    {
      const base = ((cx + 0) * py + cy + 0) * pz + cz;
      const t = qi * xM5 * yM5;
      grid[base + 0] += t * zM5;
      grid[base + 1] += t * zM4;
      grid[base + 2] += t * zM3;
      grid[base + 3] += t * zM2;
      grid[base + 4] += t * zM1;
      grid[base + 5] += t * zM0;
    }
    {
      const base = ((cx + 0) * py + cy + 1) * pz + cz;
      const t = qi * xM5 * yM4;
      grid[base + 0] += t * zM5;
      grid[base + 1] += t * zM4;
      grid[base + 2] += t * zM3;
      grid[base + 3] += t * zM2;
      grid[base + 4] += t * zM1;
      grid[base + 5] += t * zM0;
    }
    {
      const base = ((cx + 0) * py + cy + 2) * pz + cz;
      const t = qi * xM5 * yM3;
      grid[base + 0] += t * zM5;
      grid[base + 1] += t * zM4;
      grid[base + 2] += t * zM3;
      grid[base + 3] += t * zM2;
      grid[base + 4] += t * zM1;
      grid[base + 5] += t * zM0;
    }
    {
      const base = ((cx + 0) * py + cy + 3) * pz + cz;
      const t = qi * xM5 * yM2;
      grid[base + 0] += t * zM5;
      grid[base + 1] += t * zM4;
      grid[base + 2] += t * zM3;
      grid[base + 3] += t * zM2;
      grid[base + 4] += t * zM1;
      grid[base + 5] += t * zM0;
    }
    {
      const base = ((cx + 0) * py + cy + 4) * pz + cz;
      const t = qi * xM5 * yM1;
      grid[base + 0] += t * zM5;
      grid[base + 1] += t * zM4;
      grid[base + 2] += t * zM3;
      grid[base + 3] += t * zM2;
      grid[base + 4] += t * zM1;
      grid[base + 5] += t * zM0;
    }
    {
      const base = ((cx + 0) * py + cy + 5) * pz + cz;
      const t = qi * xM5 * yM0;
      grid[base + 0] += t * zM5;
      grid[base + 1] += t * zM4;
      grid[base + 2] += t * zM3;
      grid[base + 3] += t * zM2;
      grid[base + 4] += t * zM1;
      grid[base + 5] += t * zM0;
    }
    {
      const base = ((cx + 1) * py + cy + 0) * pz + cz;
      const t = qi * xM4 * yM5;
      grid[base + 0] += t * zM5;
      grid[base + 1] += t * zM4;
      grid[base + 2] += t * zM3;
      grid[base + 3] += t * zM2;
      grid[base + 4] += t * zM1;
      grid[base + 5] += t * zM0;
    }
    {
      const base = ((cx + 1) * py + cy + 1) * pz + cz;
      const t = qi * xM4 * yM4;
      grid[base + 0] += t * zM5;
      grid[base + 1] += t * zM4;
      grid[base + 2] += t * zM3;
      grid[base + 3] += t * zM2;
      grid[base + 4] += t * zM1;
      grid[base + 5] += t * zM0;
    }
    {
      const base = ((cx + 1) * py + cy + 2) * pz + cz;
      const t = qi * xM4 * yM3;
      grid[base + 0] += t * zM5;
      grid[base + 1] += t * zM4;
      grid[base + 2] += t * zM3;
      grid[base + 3] += t * zM2;
      grid[base + 4] += t * zM1;
      grid[base + 5] += t * zM0;
    }
    {
      const base = ((cx + 1) * py + cy + 3) * pz + cz;
      const t = qi * xM4 * yM2;
      grid[base + 0] += t * zM5;
      grid[base + 1] += t * zM4;
      grid[base + 2] += t * zM3;
      grid[base + 3] += t * zM2;
      grid[base + 4] += t * zM1;
      grid[base + 5] += t * zM0;
    }
    {
      const base = ((cx + 1) * py + cy + 4) * pz + cz;
      const t = qi * xM4 * yM1;
      grid[base + 0] += t * zM5;
      grid[base + 1] += t * zM4;
      grid[base + 2] += t * zM3;
      grid[base + 3] += t * zM2;
      grid[base + 4] += t * zM1;
      grid[base + 5] += t * zM0;
    }
    {
      const base = ((cx + 1) * py + cy + 5) * pz + cz;
      const t = qi * xM4 * yM0;
      grid[base + 0] += t * zM5;
      grid[base + 1] += t * zM4;
      grid[base + 2] += t * zM3;
      grid[base + 3] += t * zM2;
      grid[base + 4] += t * zM1;
      grid[base + 5] += t * zM0;
    }
    {
      const base = ((cx + 2) * py + cy + 0) * pz + cz;
      const t = qi * xM3 * yM5;
      grid[base + 0] += t * zM5;
      grid[base + 1] += t * zM4;
      grid[base + 2] += t * zM3;
      grid[base + 3] += t * zM2;
      grid[base + 4] += t * zM1;
      grid[base + 5] += t * zM0;
    }
    {
      const base = ((cx + 2) * py + cy + 1) * pz + cz;
      const t = qi * xM3 * yM4;
      grid[base + 0] += t * zM5;
      grid[base + 1] += t * zM4;
      grid[base + 2] += t * zM3;
      grid[base + 3] += t * zM2;
      grid[base + 4] += t * zM1;
      grid[base + 5] += t * zM0;
    }
    {
      const base = ((cx + 2) * py + cy + 2) * pz + cz;
      const t = qi * xM3 * yM3;
      grid[base + 0] += t * zM5;
      grid[base + 1] += t * zM4;
      grid[base + 2] += t * zM3;
      grid[base + 3] += t * zM2;
      grid[base + 4] += t * zM1;
      grid[base + 5] += t * zM0;
    }
    {
      const base = ((cx + 2) * py + cy + 3) * pz + cz;
      const t = qi * xM3 * yM2;
      grid[base + 0] += t * zM5;
      grid[base + 1] += t * zM4;
      grid[base + 2] += t * zM3;
      grid[base + 3] += t * zM2;
      grid[base + 4] += t * zM1;
      grid[base + 5] += t * zM0;
    }
    {
      const base = ((cx + 2) * py + cy + 4) * pz + cz;
      const t = qi * xM3 * yM1;
      grid[base + 0] += t * zM5;
      grid[base + 1] += t * zM4;
      grid[base + 2] += t * zM3;
      grid[base + 3] += t * zM2;
      grid[base + 4] += t * zM1;
      grid[base + 5] += t * zM0;
    }
    {
      const base = ((cx + 2) * py + cy + 5) * pz + cz;
      const t = qi * xM3 * yM0;
      grid[base + 0] += t * zM5;
      grid[base + 1] += t * zM4;
      grid[base + 2] += t * zM3;
      grid[base + 3] += t * zM2;
      grid[base + 4] += t * zM1;
      grid[base + 5] += t * zM0;
    }
    {
      const base = ((cx + 3) * py + cy + 0) * pz + cz;
      const t = qi * xM2 * yM5;
      grid[base + 0] += t * zM5;
      grid[base + 1] += t * zM4;
      grid[base + 2] += t * zM3;
      grid[base + 3] += t * zM2;
      grid[base + 4] += t * zM1;
      grid[base + 5] += t * zM0;
    }
    {
      const base = ((cx + 3) * py + cy + 1) * pz + cz;
      const t = qi * xM2 * yM4;
      grid[base + 0] += t * zM5;
      grid[base + 1] += t * zM4;
      grid[base + 2] += t * zM3;
      grid[base + 3] += t * zM2;
      grid[base + 4] += t * zM1;
      grid[base + 5] += t * zM0;
    }
    {
      const base = ((cx + 3) * py + cy + 2) * pz + cz;
      const t = qi * xM2 * yM3;
      grid[base + 0] += t * zM5;
      grid[base + 1] += t * zM4;
      grid[base + 2] += t * zM3;
      grid[base + 3] += t * zM2;
      grid[base + 4] += t * zM1;
      grid[base + 5] += t * zM0;
    }
    {
      const base = ((cx + 3) * py + cy + 3) * pz + cz;
      const t = qi * xM2 * yM2;
      grid[base + 0] += t * zM5;
      grid[base + 1] += t * zM4;
      grid[base + 2] += t * zM3;
      grid[base + 3] += t * zM2;
      grid[base + 4] += t * zM1;
      grid[base + 5] += t * zM0;
    }
    {
      const base = ((cx + 3) * py + cy + 4) * pz + cz;
      const t = qi * xM2 * yM1;
      grid[base + 0] += t * zM5;
      grid[base + 1] += t * zM4;
      grid[base + 2] += t * zM3;
      grid[base + 3] += t * zM2;
      grid[base + 4] += t * zM1;
      grid[base + 5] += t * zM0;
    }
    {
      const base = ((cx + 3) * py + cy + 5) * pz + cz;
      const t = qi * xM2 * yM0;
      grid[base + 0] += t * zM5;
      grid[base + 1] += t * zM4;
      grid[base + 2] += t * zM3;
      grid[base + 3] += t * zM2;
      grid[base + 4] += t * zM1;
      grid[base + 5] += t * zM0;
    }
    {
      const base = ((cx + 4) * py + cy + 0) * pz + cz;
      const t = qi * xM1 * yM5;
      grid[base + 0] += t * zM5;
      grid[base + 1] += t * zM4;
      grid[base + 2] += t * zM3;
      grid[base + 3] += t * zM2;
      grid[base + 4] += t * zM1;
      grid[base + 5] += t * zM0;
    }
    {
      const base = ((cx + 4) * py + cy + 1) * pz + cz;
      const t = qi * xM1 * yM4;
      grid[base + 0] += t * zM5;
      grid[base + 1] += t * zM4;
      grid[base + 2] += t * zM3;
      grid[base + 3] += t * zM2;
      grid[base + 4] += t * zM1;
      grid[base + 5] += t * zM0;
    }
    {
      const base = ((cx + 4) * py + cy + 2) * pz + cz;
      const t = qi * xM1 * yM3;
      grid[base + 0] += t * zM5;
      grid[base + 1] += t * zM4;
      grid[base + 2] += t * zM3;
      grid[base + 3] += t * zM2;
      grid[base + 4] += t * zM1;
      grid[base + 5] += t * zM0;
    }
    {
      const base = ((cx + 4) * py + cy + 3) * pz + cz;
      const t = qi * xM1 * yM2;
      grid[base + 0] += t * zM5;
      grid[base + 1] += t * zM4;
      grid[base + 2] += t * zM3;
      grid[base + 3] += t * zM2;
      grid[base + 4] += t * zM1;
      grid[base + 5] += t * zM0;
    }
    {
      const base = ((cx + 4) * py + cy + 4) * pz + cz;
      const t = qi * xM1 * yM1;
      grid[base + 0] += t * zM5;
      grid[base + 1] += t * zM4;
      grid[base + 2] += t * zM3;
      grid[base + 3] += t * zM2;
      grid[base + 4] += t * zM1;
      grid[base + 5] += t * zM0;
    }
    {
      const base = ((cx + 4) * py + cy + 5) * pz + cz;
      const t = qi * xM1 * yM0;
      grid[base + 0] += t * zM5;
      grid[base + 1] += t * zM4;
      grid[base + 2] += t * zM3;
      grid[base + 3] += t * zM2;
      grid[base + 4] += t * zM1;
      grid[base + 5] += t * zM0;
    }
    {
      const base = ((cx + 5) * py + cy + 0) * pz + cz;
      const t = qi * xM0 * yM5;
      grid[base + 0] += t * zM5;
      grid[base + 1] += t * zM4;
      grid[base + 2] += t * zM3;
      grid[base + 3] += t * zM2;
      grid[base + 4] += t * zM1;
      grid[base + 5] += t * zM0;
    }
    {
      const base = ((cx + 5) * py + cy + 1) * pz + cz;
      const t = qi * xM0 * yM4;
      grid[base + 0] += t * zM5;
      grid[base + 1] += t * zM4;
      grid[base + 2] += t * zM3;
      grid[base + 3] += t * zM2;
      grid[base + 4] += t * zM1;
      grid[base + 5] += t * zM0;
    }
    {
      const base = ((cx + 5) * py + cy + 2) * pz + cz;
      const t = qi * xM0 * yM3;
      grid[base + 0] += t * zM5;
      grid[base + 1] += t * zM4;
      grid[base + 2] += t * zM3;
      grid[base + 3] += t * zM2;
      grid[base + 4] += t * zM1;
      grid[base + 5] += t * zM0;
    }
    {
      const base = ((cx + 5) * py + cy + 3) * pz + cz;
      const t = qi * xM0 * yM2;
      grid[base + 0] += t * zM5;
      grid[base + 1] += t * zM4;
      grid[base + 2] += t * zM3;
      grid[base + 3] += t * zM2;
      grid[base + 4] += t * zM1;
      grid[base + 5] += t * zM0;
    }
    {
      const base = ((cx + 5) * py + cy + 4) * pz + cz;
      const t = qi * xM0 * yM1;
      grid[base + 0] += t * zM5;
      grid[base + 1] += t * zM4;
      grid[base + 2] += t * zM3;
      grid[base + 3] += t * zM2;
      grid[base + 4] += t * zM1;
      grid[base + 5] += t * zM0;
    }
    {
      const base = ((cx + 5) * py + cy + 5) * pz + cz;
      const t = qi * xM0 * yM0;
      grid[base + 0] += t * zM5;
      grid[base + 1] += t * zM4;
      grid[base + 2] += t * zM3;
      grid[base + 3] += t * zM2;
      grid[base + 4] += t * zM1;
      grid[base + 5] += t * zM0;
    }
  }
}
function gather11(a) {
  const phi = a.grid;
  const frac = a.frac;
  const q = a.q;
  const cell = a.cell;
  const ord = a.order;
  const f = a.f;
  const py = a.dims[1];
  const pz = a.dims[2];
  const [sx, sy, sz] = a.scale;
  for (let ii = 0; ii < a.n; ii++) {
    const i = ord === null ? ii : ord[ii];
    const qi = q[i];
    if (qi === 0) continue;
    const wx = frac[3 * i];
    const wy = frac[3 * i + 1];
    const wz = frac[3 * i + 2];
    const x2_0 = wx;
    const x2_1 = 1 - wx;
    const x3_0 = 0.5 * (wx * x2_0);
    const x3_1 = 0.5 * ((wx + 1) * x2_1 + (2 - wx) * x2_0);
    const x3_2 = 0.5 * ((1 - wx) * x2_1);
    const x4_0 = 0.3333333333333333 * (wx * x3_0);
    const x4_1 = 0.3333333333333333 * ((wx + 1) * x3_1 + (3 - wx) * x3_0);
    const x4_2 = 0.3333333333333333 * ((wx + 2) * x3_2 + (2 - wx) * x3_1);
    const x4_3 = 0.3333333333333333 * ((1 - wx) * x3_2);
    const x5_0 = 0.25 * (wx * x4_0);
    const x5_1 = 0.25 * ((wx + 1) * x4_1 + (4 - wx) * x4_0);
    const x5_2 = 0.25 * ((wx + 2) * x4_2 + (3 - wx) * x4_1);
    const x5_3 = 0.25 * ((wx + 3) * x4_3 + (2 - wx) * x4_2);
    const x5_4 = 0.25 * ((1 - wx) * x4_3);
    const x6_0 = 0.2 * (wx * x5_0);
    const x6_1 = 0.2 * ((wx + 1) * x5_1 + (5 - wx) * x5_0);
    const x6_2 = 0.2 * ((wx + 2) * x5_2 + (4 - wx) * x5_1);
    const x6_3 = 0.2 * ((wx + 3) * x5_3 + (3 - wx) * x5_2);
    const x6_4 = 0.2 * ((wx + 4) * x5_4 + (2 - wx) * x5_3);
    const x6_5 = 0.2 * ((1 - wx) * x5_4);
    const xM0 = x6_0;
    const xM1 = x6_1;
    const xM2 = x6_2;
    const xM3 = x6_3;
    const xM4 = x6_4;
    const xM5 = x6_5;
    const xD0 = x5_0;
    const xD1 = x5_1 - x5_0;
    const xD2 = x5_2 - x5_1;
    const xD3 = x5_3 - x5_2;
    const xD4 = x5_4 - x5_3;
    const xD5 = -x5_4;
    const y2_0 = wy;
    const y2_1 = 1 - wy;
    const y3_0 = 0.5 * (wy * y2_0);
    const y3_1 = 0.5 * ((wy + 1) * y2_1 + (2 - wy) * y2_0);
    const y3_2 = 0.5 * ((1 - wy) * y2_1);
    const y4_0 = 0.3333333333333333 * (wy * y3_0);
    const y4_1 = 0.3333333333333333 * ((wy + 1) * y3_1 + (3 - wy) * y3_0);
    const y4_2 = 0.3333333333333333 * ((wy + 2) * y3_2 + (2 - wy) * y3_1);
    const y4_3 = 0.3333333333333333 * ((1 - wy) * y3_2);
    const y5_0 = 0.25 * (wy * y4_0);
    const y5_1 = 0.25 * ((wy + 1) * y4_1 + (4 - wy) * y4_0);
    const y5_2 = 0.25 * ((wy + 2) * y4_2 + (3 - wy) * y4_1);
    const y5_3 = 0.25 * ((wy + 3) * y4_3 + (2 - wy) * y4_2);
    const y5_4 = 0.25 * ((1 - wy) * y4_3);
    const y6_0 = 0.2 * (wy * y5_0);
    const y6_1 = 0.2 * ((wy + 1) * y5_1 + (5 - wy) * y5_0);
    const y6_2 = 0.2 * ((wy + 2) * y5_2 + (4 - wy) * y5_1);
    const y6_3 = 0.2 * ((wy + 3) * y5_3 + (3 - wy) * y5_2);
    const y6_4 = 0.2 * ((wy + 4) * y5_4 + (2 - wy) * y5_3);
    const y6_5 = 0.2 * ((1 - wy) * y5_4);
    const yM0 = y6_0;
    const yM1 = y6_1;
    const yM2 = y6_2;
    const yM3 = y6_3;
    const yM4 = y6_4;
    const yM5 = y6_5;
    const yD0 = y5_0;
    const yD1 = y5_1 - y5_0;
    const yD2 = y5_2 - y5_1;
    const yD3 = y5_3 - y5_2;
    const yD4 = y5_4 - y5_3;
    const yD5 = -y5_4;
    const z2_0 = wz;
    const z2_1 = 1 - wz;
    const z3_0 = 0.5 * (wz * z2_0);
    const z3_1 = 0.5 * ((wz + 1) * z2_1 + (2 - wz) * z2_0);
    const z3_2 = 0.5 * ((1 - wz) * z2_1);
    const z4_0 = 0.3333333333333333 * (wz * z3_0);
    const z4_1 = 0.3333333333333333 * ((wz + 1) * z3_1 + (3 - wz) * z3_0);
    const z4_2 = 0.3333333333333333 * ((wz + 2) * z3_2 + (2 - wz) * z3_1);
    const z4_3 = 0.3333333333333333 * ((1 - wz) * z3_2);
    const z5_0 = 0.25 * (wz * z4_0);
    const z5_1 = 0.25 * ((wz + 1) * z4_1 + (4 - wz) * z4_0);
    const z5_2 = 0.25 * ((wz + 2) * z4_2 + (3 - wz) * z4_1);
    const z5_3 = 0.25 * ((wz + 3) * z4_3 + (2 - wz) * z4_2);
    const z5_4 = 0.25 * ((1 - wz) * z4_3);
    const z6_0 = 0.2 * (wz * z5_0);
    const z6_1 = 0.2 * ((wz + 1) * z5_1 + (5 - wz) * z5_0);
    const z6_2 = 0.2 * ((wz + 2) * z5_2 + (4 - wz) * z5_1);
    const z6_3 = 0.2 * ((wz + 3) * z5_3 + (3 - wz) * z5_2);
    const z6_4 = 0.2 * ((wz + 4) * z5_4 + (2 - wz) * z5_3);
    const z6_5 = 0.2 * ((1 - wz) * z5_4);
    const zM0 = z6_0;
    const zM1 = z6_1;
    const zM2 = z6_2;
    const zM3 = z6_3;
    const zM4 = z6_4;
    const zM5 = z6_5;
    const zD0 = z5_0;
    const zD1 = z5_1 - z5_0;
    const zD2 = z5_2 - z5_1;
    const zD3 = z5_3 - z5_2;
    const zD4 = z5_4 - z5_3;
    const zD5 = -z5_4;
    const cx = cell[3 * i];
    const cy = cell[3 * i + 1];
    const cz = cell[3 * i + 2];
    let fx = 0;
    let fy = 0;
    let fz = 0;
    {
      const base = ((cx + 0) * py + cy + 0) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const p5 = phi[base + 5];
      const s = p0 * zM5 + p1 * zM4 + p2 * zM3 + p3 * zM2 + p4 * zM1 + p5 * zM0;
      const ds = p0 * zD5 + p1 * zD4 + p2 * zD3 + p3 * zD2 + p4 * zD1 + p5 * zD0;
      fx += xD5 * yM5 * s;
      fy += xM5 * yD5 * s;
      fz += xM5 * yM5 * ds;
    }
    {
      const base = ((cx + 0) * py + cy + 1) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const p5 = phi[base + 5];
      const s = p0 * zM5 + p1 * zM4 + p2 * zM3 + p3 * zM2 + p4 * zM1 + p5 * zM0;
      const ds = p0 * zD5 + p1 * zD4 + p2 * zD3 + p3 * zD2 + p4 * zD1 + p5 * zD0;
      fx += xD5 * yM4 * s;
      fy += xM5 * yD4 * s;
      fz += xM5 * yM4 * ds;
    }
    {
      const base = ((cx + 0) * py + cy + 2) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const p5 = phi[base + 5];
      const s = p0 * zM5 + p1 * zM4 + p2 * zM3 + p3 * zM2 + p4 * zM1 + p5 * zM0;
      const ds = p0 * zD5 + p1 * zD4 + p2 * zD3 + p3 * zD2 + p4 * zD1 + p5 * zD0;
      fx += xD5 * yM3 * s;
      fy += xM5 * yD3 * s;
      fz += xM5 * yM3 * ds;
    }
    {
      const base = ((cx + 0) * py + cy + 3) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const p5 = phi[base + 5];
      const s = p0 * zM5 + p1 * zM4 + p2 * zM3 + p3 * zM2 + p4 * zM1 + p5 * zM0;
      const ds = p0 * zD5 + p1 * zD4 + p2 * zD3 + p3 * zD2 + p4 * zD1 + p5 * zD0;
      fx += xD5 * yM2 * s;
      fy += xM5 * yD2 * s;
      fz += xM5 * yM2 * ds;
    }
    {
      const base = ((cx + 0) * py + cy + 4) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const p5 = phi[base + 5];
      const s = p0 * zM5 + p1 * zM4 + p2 * zM3 + p3 * zM2 + p4 * zM1 + p5 * zM0;
      const ds = p0 * zD5 + p1 * zD4 + p2 * zD3 + p3 * zD2 + p4 * zD1 + p5 * zD0;
      fx += xD5 * yM1 * s;
      fy += xM5 * yD1 * s;
      fz += xM5 * yM1 * ds;
    }
    {
      const base = ((cx + 0) * py + cy + 5) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const p5 = phi[base + 5];
      const s = p0 * zM5 + p1 * zM4 + p2 * zM3 + p3 * zM2 + p4 * zM1 + p5 * zM0;
      const ds = p0 * zD5 + p1 * zD4 + p2 * zD3 + p3 * zD2 + p4 * zD1 + p5 * zD0;
      fx += xD5 * yM0 * s;
      fy += xM5 * yD0 * s;
      fz += xM5 * yM0 * ds;
    }
    {
      const base = ((cx + 1) * py + cy + 0) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const p5 = phi[base + 5];
      const s = p0 * zM5 + p1 * zM4 + p2 * zM3 + p3 * zM2 + p4 * zM1 + p5 * zM0;
      const ds = p0 * zD5 + p1 * zD4 + p2 * zD3 + p3 * zD2 + p4 * zD1 + p5 * zD0;
      fx += xD4 * yM5 * s;
      fy += xM4 * yD5 * s;
      fz += xM4 * yM5 * ds;
    }
    {
      const base = ((cx + 1) * py + cy + 1) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const p5 = phi[base + 5];
      const s = p0 * zM5 + p1 * zM4 + p2 * zM3 + p3 * zM2 + p4 * zM1 + p5 * zM0;
      const ds = p0 * zD5 + p1 * zD4 + p2 * zD3 + p3 * zD2 + p4 * zD1 + p5 * zD0;
      fx += xD4 * yM4 * s;
      fy += xM4 * yD4 * s;
      fz += xM4 * yM4 * ds;
    }
    {
      const base = ((cx + 1) * py + cy + 2) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const p5 = phi[base + 5];
      const s = p0 * zM5 + p1 * zM4 + p2 * zM3 + p3 * zM2 + p4 * zM1 + p5 * zM0;
      const ds = p0 * zD5 + p1 * zD4 + p2 * zD3 + p3 * zD2 + p4 * zD1 + p5 * zD0;
      fx += xD4 * yM3 * s;
      fy += xM4 * yD3 * s;
      fz += xM4 * yM3 * ds;
    }
    {
      const base = ((cx + 1) * py + cy + 3) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const p5 = phi[base + 5];
      const s = p0 * zM5 + p1 * zM4 + p2 * zM3 + p3 * zM2 + p4 * zM1 + p5 * zM0;
      const ds = p0 * zD5 + p1 * zD4 + p2 * zD3 + p3 * zD2 + p4 * zD1 + p5 * zD0;
      fx += xD4 * yM2 * s;
      fy += xM4 * yD2 * s;
      fz += xM4 * yM2 * ds;
    }
    {
      const base = ((cx + 1) * py + cy + 4) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const p5 = phi[base + 5];
      const s = p0 * zM5 + p1 * zM4 + p2 * zM3 + p3 * zM2 + p4 * zM1 + p5 * zM0;
      const ds = p0 * zD5 + p1 * zD4 + p2 * zD3 + p3 * zD2 + p4 * zD1 + p5 * zD0;
      fx += xD4 * yM1 * s;
      fy += xM4 * yD1 * s;
      fz += xM4 * yM1 * ds;
    }
    {
      const base = ((cx + 1) * py + cy + 5) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const p5 = phi[base + 5];
      const s = p0 * zM5 + p1 * zM4 + p2 * zM3 + p3 * zM2 + p4 * zM1 + p5 * zM0;
      const ds = p0 * zD5 + p1 * zD4 + p2 * zD3 + p3 * zD2 + p4 * zD1 + p5 * zD0;
      fx += xD4 * yM0 * s;
      fy += xM4 * yD0 * s;
      fz += xM4 * yM0 * ds;
    }
    {
      const base = ((cx + 2) * py + cy + 0) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const p5 = phi[base + 5];
      const s = p0 * zM5 + p1 * zM4 + p2 * zM3 + p3 * zM2 + p4 * zM1 + p5 * zM0;
      const ds = p0 * zD5 + p1 * zD4 + p2 * zD3 + p3 * zD2 + p4 * zD1 + p5 * zD0;
      fx += xD3 * yM5 * s;
      fy += xM3 * yD5 * s;
      fz += xM3 * yM5 * ds;
    }
    {
      const base = ((cx + 2) * py + cy + 1) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const p5 = phi[base + 5];
      const s = p0 * zM5 + p1 * zM4 + p2 * zM3 + p3 * zM2 + p4 * zM1 + p5 * zM0;
      const ds = p0 * zD5 + p1 * zD4 + p2 * zD3 + p3 * zD2 + p4 * zD1 + p5 * zD0;
      fx += xD3 * yM4 * s;
      fy += xM3 * yD4 * s;
      fz += xM3 * yM4 * ds;
    }
    {
      const base = ((cx + 2) * py + cy + 2) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const p5 = phi[base + 5];
      const s = p0 * zM5 + p1 * zM4 + p2 * zM3 + p3 * zM2 + p4 * zM1 + p5 * zM0;
      const ds = p0 * zD5 + p1 * zD4 + p2 * zD3 + p3 * zD2 + p4 * zD1 + p5 * zD0;
      fx += xD3 * yM3 * s;
      fy += xM3 * yD3 * s;
      fz += xM3 * yM3 * ds;
    }
    {
      const base = ((cx + 2) * py + cy + 3) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const p5 = phi[base + 5];
      const s = p0 * zM5 + p1 * zM4 + p2 * zM3 + p3 * zM2 + p4 * zM1 + p5 * zM0;
      const ds = p0 * zD5 + p1 * zD4 + p2 * zD3 + p3 * zD2 + p4 * zD1 + p5 * zD0;
      fx += xD3 * yM2 * s;
      fy += xM3 * yD2 * s;
      fz += xM3 * yM2 * ds;
    }
    {
      const base = ((cx + 2) * py + cy + 4) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const p5 = phi[base + 5];
      const s = p0 * zM5 + p1 * zM4 + p2 * zM3 + p3 * zM2 + p4 * zM1 + p5 * zM0;
      const ds = p0 * zD5 + p1 * zD4 + p2 * zD3 + p3 * zD2 + p4 * zD1 + p5 * zD0;
      fx += xD3 * yM1 * s;
      fy += xM3 * yD1 * s;
      fz += xM3 * yM1 * ds;
    }
    {
      const base = ((cx + 2) * py + cy + 5) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const p5 = phi[base + 5];
      const s = p0 * zM5 + p1 * zM4 + p2 * zM3 + p3 * zM2 + p4 * zM1 + p5 * zM0;
      const ds = p0 * zD5 + p1 * zD4 + p2 * zD3 + p3 * zD2 + p4 * zD1 + p5 * zD0;
      fx += xD3 * yM0 * s;
      fy += xM3 * yD0 * s;
      fz += xM3 * yM0 * ds;
    }
    {
      const base = ((cx + 3) * py + cy + 0) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const p5 = phi[base + 5];
      const s = p0 * zM5 + p1 * zM4 + p2 * zM3 + p3 * zM2 + p4 * zM1 + p5 * zM0;
      const ds = p0 * zD5 + p1 * zD4 + p2 * zD3 + p3 * zD2 + p4 * zD1 + p5 * zD0;
      fx += xD2 * yM5 * s;
      fy += xM2 * yD5 * s;
      fz += xM2 * yM5 * ds;
    }
    {
      const base = ((cx + 3) * py + cy + 1) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const p5 = phi[base + 5];
      const s = p0 * zM5 + p1 * zM4 + p2 * zM3 + p3 * zM2 + p4 * zM1 + p5 * zM0;
      const ds = p0 * zD5 + p1 * zD4 + p2 * zD3 + p3 * zD2 + p4 * zD1 + p5 * zD0;
      fx += xD2 * yM4 * s;
      fy += xM2 * yD4 * s;
      fz += xM2 * yM4 * ds;
    }
    {
      const base = ((cx + 3) * py + cy + 2) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const p5 = phi[base + 5];
      const s = p0 * zM5 + p1 * zM4 + p2 * zM3 + p3 * zM2 + p4 * zM1 + p5 * zM0;
      const ds = p0 * zD5 + p1 * zD4 + p2 * zD3 + p3 * zD2 + p4 * zD1 + p5 * zD0;
      fx += xD2 * yM3 * s;
      fy += xM2 * yD3 * s;
      fz += xM2 * yM3 * ds;
    }
    {
      const base = ((cx + 3) * py + cy + 3) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const p5 = phi[base + 5];
      const s = p0 * zM5 + p1 * zM4 + p2 * zM3 + p3 * zM2 + p4 * zM1 + p5 * zM0;
      const ds = p0 * zD5 + p1 * zD4 + p2 * zD3 + p3 * zD2 + p4 * zD1 + p5 * zD0;
      fx += xD2 * yM2 * s;
      fy += xM2 * yD2 * s;
      fz += xM2 * yM2 * ds;
    }
    {
      const base = ((cx + 3) * py + cy + 4) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const p5 = phi[base + 5];
      const s = p0 * zM5 + p1 * zM4 + p2 * zM3 + p3 * zM2 + p4 * zM1 + p5 * zM0;
      const ds = p0 * zD5 + p1 * zD4 + p2 * zD3 + p3 * zD2 + p4 * zD1 + p5 * zD0;
      fx += xD2 * yM1 * s;
      fy += xM2 * yD1 * s;
      fz += xM2 * yM1 * ds;
    }
    {
      const base = ((cx + 3) * py + cy + 5) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const p5 = phi[base + 5];
      const s = p0 * zM5 + p1 * zM4 + p2 * zM3 + p3 * zM2 + p4 * zM1 + p5 * zM0;
      const ds = p0 * zD5 + p1 * zD4 + p2 * zD3 + p3 * zD2 + p4 * zD1 + p5 * zD0;
      fx += xD2 * yM0 * s;
      fy += xM2 * yD0 * s;
      fz += xM2 * yM0 * ds;
    }
    {
      const base = ((cx + 4) * py + cy + 0) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const p5 = phi[base + 5];
      const s = p0 * zM5 + p1 * zM4 + p2 * zM3 + p3 * zM2 + p4 * zM1 + p5 * zM0;
      const ds = p0 * zD5 + p1 * zD4 + p2 * zD3 + p3 * zD2 + p4 * zD1 + p5 * zD0;
      fx += xD1 * yM5 * s;
      fy += xM1 * yD5 * s;
      fz += xM1 * yM5 * ds;
    }
    {
      const base = ((cx + 4) * py + cy + 1) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const p5 = phi[base + 5];
      const s = p0 * zM5 + p1 * zM4 + p2 * zM3 + p3 * zM2 + p4 * zM1 + p5 * zM0;
      const ds = p0 * zD5 + p1 * zD4 + p2 * zD3 + p3 * zD2 + p4 * zD1 + p5 * zD0;
      fx += xD1 * yM4 * s;
      fy += xM1 * yD4 * s;
      fz += xM1 * yM4 * ds;
    }
    {
      const base = ((cx + 4) * py + cy + 2) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const p5 = phi[base + 5];
      const s = p0 * zM5 + p1 * zM4 + p2 * zM3 + p3 * zM2 + p4 * zM1 + p5 * zM0;
      const ds = p0 * zD5 + p1 * zD4 + p2 * zD3 + p3 * zD2 + p4 * zD1 + p5 * zD0;
      fx += xD1 * yM3 * s;
      fy += xM1 * yD3 * s;
      fz += xM1 * yM3 * ds;
    }
    {
      const base = ((cx + 4) * py + cy + 3) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const p5 = phi[base + 5];
      const s = p0 * zM5 + p1 * zM4 + p2 * zM3 + p3 * zM2 + p4 * zM1 + p5 * zM0;
      const ds = p0 * zD5 + p1 * zD4 + p2 * zD3 + p3 * zD2 + p4 * zD1 + p5 * zD0;
      fx += xD1 * yM2 * s;
      fy += xM1 * yD2 * s;
      fz += xM1 * yM2 * ds;
    }
    {
      const base = ((cx + 4) * py + cy + 4) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const p5 = phi[base + 5];
      const s = p0 * zM5 + p1 * zM4 + p2 * zM3 + p3 * zM2 + p4 * zM1 + p5 * zM0;
      const ds = p0 * zD5 + p1 * zD4 + p2 * zD3 + p3 * zD2 + p4 * zD1 + p5 * zD0;
      fx += xD1 * yM1 * s;
      fy += xM1 * yD1 * s;
      fz += xM1 * yM1 * ds;
    }
    {
      const base = ((cx + 4) * py + cy + 5) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const p5 = phi[base + 5];
      const s = p0 * zM5 + p1 * zM4 + p2 * zM3 + p3 * zM2 + p4 * zM1 + p5 * zM0;
      const ds = p0 * zD5 + p1 * zD4 + p2 * zD3 + p3 * zD2 + p4 * zD1 + p5 * zD0;
      fx += xD1 * yM0 * s;
      fy += xM1 * yD0 * s;
      fz += xM1 * yM0 * ds;
    }
    {
      const base = ((cx + 5) * py + cy + 0) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const p5 = phi[base + 5];
      const s = p0 * zM5 + p1 * zM4 + p2 * zM3 + p3 * zM2 + p4 * zM1 + p5 * zM0;
      const ds = p0 * zD5 + p1 * zD4 + p2 * zD3 + p3 * zD2 + p4 * zD1 + p5 * zD0;
      fx += xD0 * yM5 * s;
      fy += xM0 * yD5 * s;
      fz += xM0 * yM5 * ds;
    }
    {
      const base = ((cx + 5) * py + cy + 1) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const p5 = phi[base + 5];
      const s = p0 * zM5 + p1 * zM4 + p2 * zM3 + p3 * zM2 + p4 * zM1 + p5 * zM0;
      const ds = p0 * zD5 + p1 * zD4 + p2 * zD3 + p3 * zD2 + p4 * zD1 + p5 * zD0;
      fx += xD0 * yM4 * s;
      fy += xM0 * yD4 * s;
      fz += xM0 * yM4 * ds;
    }
    {
      const base = ((cx + 5) * py + cy + 2) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const p5 = phi[base + 5];
      const s = p0 * zM5 + p1 * zM4 + p2 * zM3 + p3 * zM2 + p4 * zM1 + p5 * zM0;
      const ds = p0 * zD5 + p1 * zD4 + p2 * zD3 + p3 * zD2 + p4 * zD1 + p5 * zD0;
      fx += xD0 * yM3 * s;
      fy += xM0 * yD3 * s;
      fz += xM0 * yM3 * ds;
    }
    {
      const base = ((cx + 5) * py + cy + 3) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const p5 = phi[base + 5];
      const s = p0 * zM5 + p1 * zM4 + p2 * zM3 + p3 * zM2 + p4 * zM1 + p5 * zM0;
      const ds = p0 * zD5 + p1 * zD4 + p2 * zD3 + p3 * zD2 + p4 * zD1 + p5 * zD0;
      fx += xD0 * yM2 * s;
      fy += xM0 * yD2 * s;
      fz += xM0 * yM2 * ds;
    }
    {
      const base = ((cx + 5) * py + cy + 4) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const p5 = phi[base + 5];
      const s = p0 * zM5 + p1 * zM4 + p2 * zM3 + p3 * zM2 + p4 * zM1 + p5 * zM0;
      const ds = p0 * zD5 + p1 * zD4 + p2 * zD3 + p3 * zD2 + p4 * zD1 + p5 * zD0;
      fx += xD0 * yM1 * s;
      fy += xM0 * yD1 * s;
      fz += xM0 * yM1 * ds;
    }
    {
      const base = ((cx + 5) * py + cy + 5) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const p5 = phi[base + 5];
      const s = p0 * zM5 + p1 * zM4 + p2 * zM3 + p3 * zM2 + p4 * zM1 + p5 * zM0;
      const ds = p0 * zD5 + p1 * zD4 + p2 * zD3 + p3 * zD2 + p4 * zD1 + p5 * zD0;
      fx += xD0 * yM0 * s;
      fy += xM0 * yD0 * s;
      fz += xM0 * yM0 * ds;
    }
    f[3 * i] -= qi * fx * sx;
    f[3 * i + 1] -= qi * fy * sy;
    f[3 * i + 2] -= qi * fz * sz;
  }
}

// pme-mesh/ts/order6.f64.full.tile0.ts
var order6_f64_full_tile0_exports = {};
__export(order6_f64_full_tile0_exports, {
  ORDER: () => ORDER12,
  TILE: () => TILE12,
  gather: () => gather12,
  key: () => key12,
  spread: () => spread12
});
var key12 = "pme-mesh.ts.order6.f64.full.tile0";
var ORDER12 = 6;
var TILE12 = 0;
function spread12(a) {
  const grid = a.grid;
  const frac = a.frac;
  const q = a.q;
  const cell = a.cell;
  const ord = a.order;
  const py = a.dims[1];
  const pz = a.dims[2];
  grid.fill(0);
  for (let ii = 0; ii < a.n; ii++) {
    const i = ord === null ? ii : ord[ii];
    const qi = q[i];
    if (qi === 0) continue;
    const wx = frac[3 * i];
    const wy = frac[3 * i + 1];
    const wz = frac[3 * i + 2];
    const x2_0 = wx;
    const x2_1 = 1 - wx;
    const x3_0 = 0.5 * (wx * x2_0);
    const x3_1 = 0.5 * ((wx + 1) * x2_1 + (2 - wx) * x2_0);
    const x3_2 = 0.5 * ((1 - wx) * x2_1);
    const x4_0 = 0.3333333333333333 * (wx * x3_0);
    const x4_1 = 0.3333333333333333 * ((wx + 1) * x3_1 + (3 - wx) * x3_0);
    const x4_2 = 0.3333333333333333 * ((wx + 2) * x3_2 + (2 - wx) * x3_1);
    const x4_3 = 0.3333333333333333 * ((1 - wx) * x3_2);
    const x5_0 = 0.25 * (wx * x4_0);
    const x5_1 = 0.25 * ((wx + 1) * x4_1 + (4 - wx) * x4_0);
    const x5_2 = 0.25 * ((wx + 2) * x4_2 + (3 - wx) * x4_1);
    const x5_3 = 0.25 * ((wx + 3) * x4_3 + (2 - wx) * x4_2);
    const x5_4 = 0.25 * ((1 - wx) * x4_3);
    const x6_0 = 0.2 * (wx * x5_0);
    const x6_1 = 0.2 * ((wx + 1) * x5_1 + (5 - wx) * x5_0);
    const x6_2 = 0.2 * ((wx + 2) * x5_2 + (4 - wx) * x5_1);
    const x6_3 = 0.2 * ((wx + 3) * x5_3 + (3 - wx) * x5_2);
    const x6_4 = 0.2 * ((wx + 4) * x5_4 + (2 - wx) * x5_3);
    const x6_5 = 0.2 * ((1 - wx) * x5_4);
    const xM0 = x6_0;
    const xM1 = x6_1;
    const xM2 = x6_2;
    const xM3 = x6_3;
    const xM4 = x6_4;
    const xM5 = x6_5;
    const y2_0 = wy;
    const y2_1 = 1 - wy;
    const y3_0 = 0.5 * (wy * y2_0);
    const y3_1 = 0.5 * ((wy + 1) * y2_1 + (2 - wy) * y2_0);
    const y3_2 = 0.5 * ((1 - wy) * y2_1);
    const y4_0 = 0.3333333333333333 * (wy * y3_0);
    const y4_1 = 0.3333333333333333 * ((wy + 1) * y3_1 + (3 - wy) * y3_0);
    const y4_2 = 0.3333333333333333 * ((wy + 2) * y3_2 + (2 - wy) * y3_1);
    const y4_3 = 0.3333333333333333 * ((1 - wy) * y3_2);
    const y5_0 = 0.25 * (wy * y4_0);
    const y5_1 = 0.25 * ((wy + 1) * y4_1 + (4 - wy) * y4_0);
    const y5_2 = 0.25 * ((wy + 2) * y4_2 + (3 - wy) * y4_1);
    const y5_3 = 0.25 * ((wy + 3) * y4_3 + (2 - wy) * y4_2);
    const y5_4 = 0.25 * ((1 - wy) * y4_3);
    const y6_0 = 0.2 * (wy * y5_0);
    const y6_1 = 0.2 * ((wy + 1) * y5_1 + (5 - wy) * y5_0);
    const y6_2 = 0.2 * ((wy + 2) * y5_2 + (4 - wy) * y5_1);
    const y6_3 = 0.2 * ((wy + 3) * y5_3 + (3 - wy) * y5_2);
    const y6_4 = 0.2 * ((wy + 4) * y5_4 + (2 - wy) * y5_3);
    const y6_5 = 0.2 * ((1 - wy) * y5_4);
    const yM0 = y6_0;
    const yM1 = y6_1;
    const yM2 = y6_2;
    const yM3 = y6_3;
    const yM4 = y6_4;
    const yM5 = y6_5;
    const z2_0 = wz;
    const z2_1 = 1 - wz;
    const z3_0 = 0.5 * (wz * z2_0);
    const z3_1 = 0.5 * ((wz + 1) * z2_1 + (2 - wz) * z2_0);
    const z3_2 = 0.5 * ((1 - wz) * z2_1);
    const z4_0 = 0.3333333333333333 * (wz * z3_0);
    const z4_1 = 0.3333333333333333 * ((wz + 1) * z3_1 + (3 - wz) * z3_0);
    const z4_2 = 0.3333333333333333 * ((wz + 2) * z3_2 + (2 - wz) * z3_1);
    const z4_3 = 0.3333333333333333 * ((1 - wz) * z3_2);
    const z5_0 = 0.25 * (wz * z4_0);
    const z5_1 = 0.25 * ((wz + 1) * z4_1 + (4 - wz) * z4_0);
    const z5_2 = 0.25 * ((wz + 2) * z4_2 + (3 - wz) * z4_1);
    const z5_3 = 0.25 * ((wz + 3) * z4_3 + (2 - wz) * z4_2);
    const z5_4 = 0.25 * ((1 - wz) * z4_3);
    const z6_0 = 0.2 * (wz * z5_0);
    const z6_1 = 0.2 * ((wz + 1) * z5_1 + (5 - wz) * z5_0);
    const z6_2 = 0.2 * ((wz + 2) * z5_2 + (4 - wz) * z5_1);
    const z6_3 = 0.2 * ((wz + 3) * z5_3 + (3 - wz) * z5_2);
    const z6_4 = 0.2 * ((wz + 4) * z5_4 + (2 - wz) * z5_3);
    const z6_5 = 0.2 * ((1 - wz) * z5_4);
    const zM0 = z6_0;
    const zM1 = z6_1;
    const zM2 = z6_2;
    const zM3 = z6_3;
    const zM4 = z6_4;
    const zM5 = z6_5;
    const cx = cell[3 * i];
    const cy = cell[3 * i + 1];
    const cz = cell[3 * i + 2];
    {
      const base = ((cx + 0) * py + cy + 0) * pz + cz;
      const t = qi * xM5 * yM5;
      grid[base + 0] += t * zM5;
      grid[base + 1] += t * zM4;
      grid[base + 2] += t * zM3;
      grid[base + 3] += t * zM2;
      grid[base + 4] += t * zM1;
      grid[base + 5] += t * zM0;
    }
    {
      const base = ((cx + 0) * py + cy + 1) * pz + cz;
      const t = qi * xM5 * yM4;
      grid[base + 0] += t * zM5;
      grid[base + 1] += t * zM4;
      grid[base + 2] += t * zM3;
      grid[base + 3] += t * zM2;
      grid[base + 4] += t * zM1;
      grid[base + 5] += t * zM0;
    }
    {
      const base = ((cx + 0) * py + cy + 2) * pz + cz;
      const t = qi * xM5 * yM3;
      grid[base + 0] += t * zM5;
      grid[base + 1] += t * zM4;
      grid[base + 2] += t * zM3;
      grid[base + 3] += t * zM2;
      grid[base + 4] += t * zM1;
      grid[base + 5] += t * zM0;
    }
    {
      const base = ((cx + 0) * py + cy + 3) * pz + cz;
      const t = qi * xM5 * yM2;
      grid[base + 0] += t * zM5;
      grid[base + 1] += t * zM4;
      grid[base + 2] += t * zM3;
      grid[base + 3] += t * zM2;
      grid[base + 4] += t * zM1;
      grid[base + 5] += t * zM0;
    }
    {
      const base = ((cx + 0) * py + cy + 4) * pz + cz;
      const t = qi * xM5 * yM1;
      grid[base + 0] += t * zM5;
      grid[base + 1] += t * zM4;
      grid[base + 2] += t * zM3;
      grid[base + 3] += t * zM2;
      grid[base + 4] += t * zM1;
      grid[base + 5] += t * zM0;
    }
    {
      const base = ((cx + 0) * py + cy + 5) * pz + cz;
      const t = qi * xM5 * yM0;
      grid[base + 0] += t * zM5;
      grid[base + 1] += t * zM4;
      grid[base + 2] += t * zM3;
      grid[base + 3] += t * zM2;
      grid[base + 4] += t * zM1;
      grid[base + 5] += t * zM0;
    }
    {
      const base = ((cx + 1) * py + cy + 0) * pz + cz;
      const t = qi * xM4 * yM5;
      grid[base + 0] += t * zM5;
      grid[base + 1] += t * zM4;
      grid[base + 2] += t * zM3;
      grid[base + 3] += t * zM2;
      grid[base + 4] += t * zM1;
      grid[base + 5] += t * zM0;
    }
    {
      const base = ((cx + 1) * py + cy + 1) * pz + cz;
      const t = qi * xM4 * yM4;
      grid[base + 0] += t * zM5;
      grid[base + 1] += t * zM4;
      grid[base + 2] += t * zM3;
      grid[base + 3] += t * zM2;
      grid[base + 4] += t * zM1;
      grid[base + 5] += t * zM0;
    }
    {
      const base = ((cx + 1) * py + cy + 2) * pz + cz;
      const t = qi * xM4 * yM3;
      grid[base + 0] += t * zM5;
      grid[base + 1] += t * zM4;
      grid[base + 2] += t * zM3;
      grid[base + 3] += t * zM2;
      grid[base + 4] += t * zM1;
      grid[base + 5] += t * zM0;
    }
    {
      const base = ((cx + 1) * py + cy + 3) * pz + cz;
      const t = qi * xM4 * yM2;
      grid[base + 0] += t * zM5;
      grid[base + 1] += t * zM4;
      grid[base + 2] += t * zM3;
      grid[base + 3] += t * zM2;
      grid[base + 4] += t * zM1;
      grid[base + 5] += t * zM0;
    }
    {
      const base = ((cx + 1) * py + cy + 4) * pz + cz;
      const t = qi * xM4 * yM1;
      grid[base + 0] += t * zM5;
      grid[base + 1] += t * zM4;
      grid[base + 2] += t * zM3;
      grid[base + 3] += t * zM2;
      grid[base + 4] += t * zM1;
      grid[base + 5] += t * zM0;
    }
    {
      const base = ((cx + 1) * py + cy + 5) * pz + cz;
      const t = qi * xM4 * yM0;
      grid[base + 0] += t * zM5;
      grid[base + 1] += t * zM4;
      grid[base + 2] += t * zM3;
      grid[base + 3] += t * zM2;
      grid[base + 4] += t * zM1;
      grid[base + 5] += t * zM0;
    }
    {
      const base = ((cx + 2) * py + cy + 0) * pz + cz;
      const t = qi * xM3 * yM5;
      grid[base + 0] += t * zM5;
      grid[base + 1] += t * zM4;
      grid[base + 2] += t * zM3;
      grid[base + 3] += t * zM2;
      grid[base + 4] += t * zM1;
      grid[base + 5] += t * zM0;
    }
    {
      const base = ((cx + 2) * py + cy + 1) * pz + cz;
      const t = qi * xM3 * yM4;
      grid[base + 0] += t * zM5;
      grid[base + 1] += t * zM4;
      grid[base + 2] += t * zM3;
      grid[base + 3] += t * zM2;
      grid[base + 4] += t * zM1;
      grid[base + 5] += t * zM0;
    }
    {
      const base = ((cx + 2) * py + cy + 2) * pz + cz;
      const t = qi * xM3 * yM3;
      grid[base + 0] += t * zM5;
      grid[base + 1] += t * zM4;
      grid[base + 2] += t * zM3;
      grid[base + 3] += t * zM2;
      grid[base + 4] += t * zM1;
      grid[base + 5] += t * zM0;
    }
    {
      const base = ((cx + 2) * py + cy + 3) * pz + cz;
      const t = qi * xM3 * yM2;
      grid[base + 0] += t * zM5;
      grid[base + 1] += t * zM4;
      grid[base + 2] += t * zM3;
      grid[base + 3] += t * zM2;
      grid[base + 4] += t * zM1;
      grid[base + 5] += t * zM0;
    }
    {
      const base = ((cx + 2) * py + cy + 4) * pz + cz;
      const t = qi * xM3 * yM1;
      grid[base + 0] += t * zM5;
      grid[base + 1] += t * zM4;
      grid[base + 2] += t * zM3;
      grid[base + 3] += t * zM2;
      grid[base + 4] += t * zM1;
      grid[base + 5] += t * zM0;
    }
    {
      const base = ((cx + 2) * py + cy + 5) * pz + cz;
      const t = qi * xM3 * yM0;
      grid[base + 0] += t * zM5;
      grid[base + 1] += t * zM4;
      grid[base + 2] += t * zM3;
      grid[base + 3] += t * zM2;
      grid[base + 4] += t * zM1;
      grid[base + 5] += t * zM0;
    }
    {
      const base = ((cx + 3) * py + cy + 0) * pz + cz;
      const t = qi * xM2 * yM5;
      grid[base + 0] += t * zM5;
      grid[base + 1] += t * zM4;
      grid[base + 2] += t * zM3;
      grid[base + 3] += t * zM2;
      grid[base + 4] += t * zM1;
      grid[base + 5] += t * zM0;
    }
    {
      const base = ((cx + 3) * py + cy + 1) * pz + cz;
      const t = qi * xM2 * yM4;
      grid[base + 0] += t * zM5;
      grid[base + 1] += t * zM4;
      grid[base + 2] += t * zM3;
      grid[base + 3] += t * zM2;
      grid[base + 4] += t * zM1;
      grid[base + 5] += t * zM0;
    }
    {
      const base = ((cx + 3) * py + cy + 2) * pz + cz;
      const t = qi * xM2 * yM3;
      grid[base + 0] += t * zM5;
      grid[base + 1] += t * zM4;
      grid[base + 2] += t * zM3;
      grid[base + 3] += t * zM2;
      grid[base + 4] += t * zM1;
      grid[base + 5] += t * zM0;
    }
    {
      const base = ((cx + 3) * py + cy + 3) * pz + cz;
      const t = qi * xM2 * yM2;
      grid[base + 0] += t * zM5;
      grid[base + 1] += t * zM4;
      grid[base + 2] += t * zM3;
      grid[base + 3] += t * zM2;
      grid[base + 4] += t * zM1;
      grid[base + 5] += t * zM0;
    }
    {
      const base = ((cx + 3) * py + cy + 4) * pz + cz;
      const t = qi * xM2 * yM1;
      grid[base + 0] += t * zM5;
      grid[base + 1] += t * zM4;
      grid[base + 2] += t * zM3;
      grid[base + 3] += t * zM2;
      grid[base + 4] += t * zM1;
      grid[base + 5] += t * zM0;
    }
    {
      const base = ((cx + 3) * py + cy + 5) * pz + cz;
      const t = qi * xM2 * yM0;
      grid[base + 0] += t * zM5;
      grid[base + 1] += t * zM4;
      grid[base + 2] += t * zM3;
      grid[base + 3] += t * zM2;
      grid[base + 4] += t * zM1;
      grid[base + 5] += t * zM0;
    }
    {
      const base = ((cx + 4) * py + cy + 0) * pz + cz;
      const t = qi * xM1 * yM5;
      grid[base + 0] += t * zM5;
      grid[base + 1] += t * zM4;
      grid[base + 2] += t * zM3;
      grid[base + 3] += t * zM2;
      grid[base + 4] += t * zM1;
      grid[base + 5] += t * zM0;
    }
    {
      const base = ((cx + 4) * py + cy + 1) * pz + cz;
      const t = qi * xM1 * yM4;
      grid[base + 0] += t * zM5;
      grid[base + 1] += t * zM4;
      grid[base + 2] += t * zM3;
      grid[base + 3] += t * zM2;
      grid[base + 4] += t * zM1;
      grid[base + 5] += t * zM0;
    }
    {
      const base = ((cx + 4) * py + cy + 2) * pz + cz;
      const t = qi * xM1 * yM3;
      grid[base + 0] += t * zM5;
      grid[base + 1] += t * zM4;
      grid[base + 2] += t * zM3;
      grid[base + 3] += t * zM2;
      grid[base + 4] += t * zM1;
      grid[base + 5] += t * zM0;
    }
    {
      const base = ((cx + 4) * py + cy + 3) * pz + cz;
      const t = qi * xM1 * yM2;
      grid[base + 0] += t * zM5;
      grid[base + 1] += t * zM4;
      grid[base + 2] += t * zM3;
      grid[base + 3] += t * zM2;
      grid[base + 4] += t * zM1;
      grid[base + 5] += t * zM0;
    }
    {
      const base = ((cx + 4) * py + cy + 4) * pz + cz;
      const t = qi * xM1 * yM1;
      grid[base + 0] += t * zM5;
      grid[base + 1] += t * zM4;
      grid[base + 2] += t * zM3;
      grid[base + 3] += t * zM2;
      grid[base + 4] += t * zM1;
      grid[base + 5] += t * zM0;
    }
    {
      const base = ((cx + 4) * py + cy + 5) * pz + cz;
      const t = qi * xM1 * yM0;
      grid[base + 0] += t * zM5;
      grid[base + 1] += t * zM4;
      grid[base + 2] += t * zM3;
      grid[base + 3] += t * zM2;
      grid[base + 4] += t * zM1;
      grid[base + 5] += t * zM0;
    }
    {
      const base = ((cx + 5) * py + cy + 0) * pz + cz;
      const t = qi * xM0 * yM5;
      grid[base + 0] += t * zM5;
      grid[base + 1] += t * zM4;
      grid[base + 2] += t * zM3;
      grid[base + 3] += t * zM2;
      grid[base + 4] += t * zM1;
      grid[base + 5] += t * zM0;
    }
    {
      const base = ((cx + 5) * py + cy + 1) * pz + cz;
      const t = qi * xM0 * yM4;
      grid[base + 0] += t * zM5;
      grid[base + 1] += t * zM4;
      grid[base + 2] += t * zM3;
      grid[base + 3] += t * zM2;
      grid[base + 4] += t * zM1;
      grid[base + 5] += t * zM0;
    }
    {
      const base = ((cx + 5) * py + cy + 2) * pz + cz;
      const t = qi * xM0 * yM3;
      grid[base + 0] += t * zM5;
      grid[base + 1] += t * zM4;
      grid[base + 2] += t * zM3;
      grid[base + 3] += t * zM2;
      grid[base + 4] += t * zM1;
      grid[base + 5] += t * zM0;
    }
    {
      const base = ((cx + 5) * py + cy + 3) * pz + cz;
      const t = qi * xM0 * yM2;
      grid[base + 0] += t * zM5;
      grid[base + 1] += t * zM4;
      grid[base + 2] += t * zM3;
      grid[base + 3] += t * zM2;
      grid[base + 4] += t * zM1;
      grid[base + 5] += t * zM0;
    }
    {
      const base = ((cx + 5) * py + cy + 4) * pz + cz;
      const t = qi * xM0 * yM1;
      grid[base + 0] += t * zM5;
      grid[base + 1] += t * zM4;
      grid[base + 2] += t * zM3;
      grid[base + 3] += t * zM2;
      grid[base + 4] += t * zM1;
      grid[base + 5] += t * zM0;
    }
    {
      const base = ((cx + 5) * py + cy + 5) * pz + cz;
      const t = qi * xM0 * yM0;
      grid[base + 0] += t * zM5;
      grid[base + 1] += t * zM4;
      grid[base + 2] += t * zM3;
      grid[base + 3] += t * zM2;
      grid[base + 4] += t * zM1;
      grid[base + 5] += t * zM0;
    }
  }
}
function gather12(a) {
  const phi = a.grid;
  const frac = a.frac;
  const q = a.q;
  const cell = a.cell;
  const ord = a.order;
  const f = a.f;
  const py = a.dims[1];
  const pz = a.dims[2];
  const [sx, sy, sz] = a.scale;
  for (let ii = 0; ii < a.n; ii++) {
    const i = ord === null ? ii : ord[ii];
    const qi = q[i];
    if (qi === 0) continue;
    const wx = frac[3 * i];
    const wy = frac[3 * i + 1];
    const wz = frac[3 * i + 2];
    const x2_0 = wx;
    const x2_1 = 1 - wx;
    const x3_0 = 0.5 * (wx * x2_0);
    const x3_1 = 0.5 * ((wx + 1) * x2_1 + (2 - wx) * x2_0);
    const x3_2 = 0.5 * ((1 - wx) * x2_1);
    const x4_0 = 0.3333333333333333 * (wx * x3_0);
    const x4_1 = 0.3333333333333333 * ((wx + 1) * x3_1 + (3 - wx) * x3_0);
    const x4_2 = 0.3333333333333333 * ((wx + 2) * x3_2 + (2 - wx) * x3_1);
    const x4_3 = 0.3333333333333333 * ((1 - wx) * x3_2);
    const x5_0 = 0.25 * (wx * x4_0);
    const x5_1 = 0.25 * ((wx + 1) * x4_1 + (4 - wx) * x4_0);
    const x5_2 = 0.25 * ((wx + 2) * x4_2 + (3 - wx) * x4_1);
    const x5_3 = 0.25 * ((wx + 3) * x4_3 + (2 - wx) * x4_2);
    const x5_4 = 0.25 * ((1 - wx) * x4_3);
    const x6_0 = 0.2 * (wx * x5_0);
    const x6_1 = 0.2 * ((wx + 1) * x5_1 + (5 - wx) * x5_0);
    const x6_2 = 0.2 * ((wx + 2) * x5_2 + (4 - wx) * x5_1);
    const x6_3 = 0.2 * ((wx + 3) * x5_3 + (3 - wx) * x5_2);
    const x6_4 = 0.2 * ((wx + 4) * x5_4 + (2 - wx) * x5_3);
    const x6_5 = 0.2 * ((1 - wx) * x5_4);
    const xM0 = x6_0;
    const xM1 = x6_1;
    const xM2 = x6_2;
    const xM3 = x6_3;
    const xM4 = x6_4;
    const xM5 = x6_5;
    const xD0 = x5_0;
    const xD1 = x5_1 - x5_0;
    const xD2 = x5_2 - x5_1;
    const xD3 = x5_3 - x5_2;
    const xD4 = x5_4 - x5_3;
    const xD5 = -x5_4;
    const y2_0 = wy;
    const y2_1 = 1 - wy;
    const y3_0 = 0.5 * (wy * y2_0);
    const y3_1 = 0.5 * ((wy + 1) * y2_1 + (2 - wy) * y2_0);
    const y3_2 = 0.5 * ((1 - wy) * y2_1);
    const y4_0 = 0.3333333333333333 * (wy * y3_0);
    const y4_1 = 0.3333333333333333 * ((wy + 1) * y3_1 + (3 - wy) * y3_0);
    const y4_2 = 0.3333333333333333 * ((wy + 2) * y3_2 + (2 - wy) * y3_1);
    const y4_3 = 0.3333333333333333 * ((1 - wy) * y3_2);
    const y5_0 = 0.25 * (wy * y4_0);
    const y5_1 = 0.25 * ((wy + 1) * y4_1 + (4 - wy) * y4_0);
    const y5_2 = 0.25 * ((wy + 2) * y4_2 + (3 - wy) * y4_1);
    const y5_3 = 0.25 * ((wy + 3) * y4_3 + (2 - wy) * y4_2);
    const y5_4 = 0.25 * ((1 - wy) * y4_3);
    const y6_0 = 0.2 * (wy * y5_0);
    const y6_1 = 0.2 * ((wy + 1) * y5_1 + (5 - wy) * y5_0);
    const y6_2 = 0.2 * ((wy + 2) * y5_2 + (4 - wy) * y5_1);
    const y6_3 = 0.2 * ((wy + 3) * y5_3 + (3 - wy) * y5_2);
    const y6_4 = 0.2 * ((wy + 4) * y5_4 + (2 - wy) * y5_3);
    const y6_5 = 0.2 * ((1 - wy) * y5_4);
    const yM0 = y6_0;
    const yM1 = y6_1;
    const yM2 = y6_2;
    const yM3 = y6_3;
    const yM4 = y6_4;
    const yM5 = y6_5;
    const yD0 = y5_0;
    const yD1 = y5_1 - y5_0;
    const yD2 = y5_2 - y5_1;
    const yD3 = y5_3 - y5_2;
    const yD4 = y5_4 - y5_3;
    const yD5 = -y5_4;
    const z2_0 = wz;
    const z2_1 = 1 - wz;
    const z3_0 = 0.5 * (wz * z2_0);
    const z3_1 = 0.5 * ((wz + 1) * z2_1 + (2 - wz) * z2_0);
    const z3_2 = 0.5 * ((1 - wz) * z2_1);
    const z4_0 = 0.3333333333333333 * (wz * z3_0);
    const z4_1 = 0.3333333333333333 * ((wz + 1) * z3_1 + (3 - wz) * z3_0);
    const z4_2 = 0.3333333333333333 * ((wz + 2) * z3_2 + (2 - wz) * z3_1);
    const z4_3 = 0.3333333333333333 * ((1 - wz) * z3_2);
    const z5_0 = 0.25 * (wz * z4_0);
    const z5_1 = 0.25 * ((wz + 1) * z4_1 + (4 - wz) * z4_0);
    const z5_2 = 0.25 * ((wz + 2) * z4_2 + (3 - wz) * z4_1);
    const z5_3 = 0.25 * ((wz + 3) * z4_3 + (2 - wz) * z4_2);
    const z5_4 = 0.25 * ((1 - wz) * z4_3);
    const z6_0 = 0.2 * (wz * z5_0);
    const z6_1 = 0.2 * ((wz + 1) * z5_1 + (5 - wz) * z5_0);
    const z6_2 = 0.2 * ((wz + 2) * z5_2 + (4 - wz) * z5_1);
    const z6_3 = 0.2 * ((wz + 3) * z5_3 + (3 - wz) * z5_2);
    const z6_4 = 0.2 * ((wz + 4) * z5_4 + (2 - wz) * z5_3);
    const z6_5 = 0.2 * ((1 - wz) * z5_4);
    const zM0 = z6_0;
    const zM1 = z6_1;
    const zM2 = z6_2;
    const zM3 = z6_3;
    const zM4 = z6_4;
    const zM5 = z6_5;
    const zD0 = z5_0;
    const zD1 = z5_1 - z5_0;
    const zD2 = z5_2 - z5_1;
    const zD3 = z5_3 - z5_2;
    const zD4 = z5_4 - z5_3;
    const zD5 = -z5_4;
    const cx = cell[3 * i];
    const cy = cell[3 * i + 1];
    const cz = cell[3 * i + 2];
    let fx = 0;
    let fy = 0;
    let fz = 0;
    {
      const base = ((cx + 0) * py + cy + 0) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const p5 = phi[base + 5];
      const s = p0 * zM5 + p1 * zM4 + p2 * zM3 + p3 * zM2 + p4 * zM1 + p5 * zM0;
      const ds = p0 * zD5 + p1 * zD4 + p2 * zD3 + p3 * zD2 + p4 * zD1 + p5 * zD0;
      fx += xD5 * yM5 * s;
      fy += xM5 * yD5 * s;
      fz += xM5 * yM5 * ds;
    }
    {
      const base = ((cx + 0) * py + cy + 1) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const p5 = phi[base + 5];
      const s = p0 * zM5 + p1 * zM4 + p2 * zM3 + p3 * zM2 + p4 * zM1 + p5 * zM0;
      const ds = p0 * zD5 + p1 * zD4 + p2 * zD3 + p3 * zD2 + p4 * zD1 + p5 * zD0;
      fx += xD5 * yM4 * s;
      fy += xM5 * yD4 * s;
      fz += xM5 * yM4 * ds;
    }
    {
      const base = ((cx + 0) * py + cy + 2) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const p5 = phi[base + 5];
      const s = p0 * zM5 + p1 * zM4 + p2 * zM3 + p3 * zM2 + p4 * zM1 + p5 * zM0;
      const ds = p0 * zD5 + p1 * zD4 + p2 * zD3 + p3 * zD2 + p4 * zD1 + p5 * zD0;
      fx += xD5 * yM3 * s;
      fy += xM5 * yD3 * s;
      fz += xM5 * yM3 * ds;
    }
    {
      const base = ((cx + 0) * py + cy + 3) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const p5 = phi[base + 5];
      const s = p0 * zM5 + p1 * zM4 + p2 * zM3 + p3 * zM2 + p4 * zM1 + p5 * zM0;
      const ds = p0 * zD5 + p1 * zD4 + p2 * zD3 + p3 * zD2 + p4 * zD1 + p5 * zD0;
      fx += xD5 * yM2 * s;
      fy += xM5 * yD2 * s;
      fz += xM5 * yM2 * ds;
    }
    {
      const base = ((cx + 0) * py + cy + 4) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const p5 = phi[base + 5];
      const s = p0 * zM5 + p1 * zM4 + p2 * zM3 + p3 * zM2 + p4 * zM1 + p5 * zM0;
      const ds = p0 * zD5 + p1 * zD4 + p2 * zD3 + p3 * zD2 + p4 * zD1 + p5 * zD0;
      fx += xD5 * yM1 * s;
      fy += xM5 * yD1 * s;
      fz += xM5 * yM1 * ds;
    }
    {
      const base = ((cx + 0) * py + cy + 5) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const p5 = phi[base + 5];
      const s = p0 * zM5 + p1 * zM4 + p2 * zM3 + p3 * zM2 + p4 * zM1 + p5 * zM0;
      const ds = p0 * zD5 + p1 * zD4 + p2 * zD3 + p3 * zD2 + p4 * zD1 + p5 * zD0;
      fx += xD5 * yM0 * s;
      fy += xM5 * yD0 * s;
      fz += xM5 * yM0 * ds;
    }
    {
      const base = ((cx + 1) * py + cy + 0) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const p5 = phi[base + 5];
      const s = p0 * zM5 + p1 * zM4 + p2 * zM3 + p3 * zM2 + p4 * zM1 + p5 * zM0;
      const ds = p0 * zD5 + p1 * zD4 + p2 * zD3 + p3 * zD2 + p4 * zD1 + p5 * zD0;
      fx += xD4 * yM5 * s;
      fy += xM4 * yD5 * s;
      fz += xM4 * yM5 * ds;
    }
    {
      const base = ((cx + 1) * py + cy + 1) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const p5 = phi[base + 5];
      const s = p0 * zM5 + p1 * zM4 + p2 * zM3 + p3 * zM2 + p4 * zM1 + p5 * zM0;
      const ds = p0 * zD5 + p1 * zD4 + p2 * zD3 + p3 * zD2 + p4 * zD1 + p5 * zD0;
      fx += xD4 * yM4 * s;
      fy += xM4 * yD4 * s;
      fz += xM4 * yM4 * ds;
    }
    {
      const base = ((cx + 1) * py + cy + 2) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const p5 = phi[base + 5];
      const s = p0 * zM5 + p1 * zM4 + p2 * zM3 + p3 * zM2 + p4 * zM1 + p5 * zM0;
      const ds = p0 * zD5 + p1 * zD4 + p2 * zD3 + p3 * zD2 + p4 * zD1 + p5 * zD0;
      fx += xD4 * yM3 * s;
      fy += xM4 * yD3 * s;
      fz += xM4 * yM3 * ds;
    }
    {
      const base = ((cx + 1) * py + cy + 3) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const p5 = phi[base + 5];
      const s = p0 * zM5 + p1 * zM4 + p2 * zM3 + p3 * zM2 + p4 * zM1 + p5 * zM0;
      const ds = p0 * zD5 + p1 * zD4 + p2 * zD3 + p3 * zD2 + p4 * zD1 + p5 * zD0;
      fx += xD4 * yM2 * s;
      fy += xM4 * yD2 * s;
      fz += xM4 * yM2 * ds;
    }
    {
      const base = ((cx + 1) * py + cy + 4) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const p5 = phi[base + 5];
      const s = p0 * zM5 + p1 * zM4 + p2 * zM3 + p3 * zM2 + p4 * zM1 + p5 * zM0;
      const ds = p0 * zD5 + p1 * zD4 + p2 * zD3 + p3 * zD2 + p4 * zD1 + p5 * zD0;
      fx += xD4 * yM1 * s;
      fy += xM4 * yD1 * s;
      fz += xM4 * yM1 * ds;
    }
    {
      const base = ((cx + 1) * py + cy + 5) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const p5 = phi[base + 5];
      const s = p0 * zM5 + p1 * zM4 + p2 * zM3 + p3 * zM2 + p4 * zM1 + p5 * zM0;
      const ds = p0 * zD5 + p1 * zD4 + p2 * zD3 + p3 * zD2 + p4 * zD1 + p5 * zD0;
      fx += xD4 * yM0 * s;
      fy += xM4 * yD0 * s;
      fz += xM4 * yM0 * ds;
    }
    {
      const base = ((cx + 2) * py + cy + 0) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const p5 = phi[base + 5];
      const s = p0 * zM5 + p1 * zM4 + p2 * zM3 + p3 * zM2 + p4 * zM1 + p5 * zM0;
      const ds = p0 * zD5 + p1 * zD4 + p2 * zD3 + p3 * zD2 + p4 * zD1 + p5 * zD0;
      fx += xD3 * yM5 * s;
      fy += xM3 * yD5 * s;
      fz += xM3 * yM5 * ds;
    }
    {
      const base = ((cx + 2) * py + cy + 1) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const p5 = phi[base + 5];
      const s = p0 * zM5 + p1 * zM4 + p2 * zM3 + p3 * zM2 + p4 * zM1 + p5 * zM0;
      const ds = p0 * zD5 + p1 * zD4 + p2 * zD3 + p3 * zD2 + p4 * zD1 + p5 * zD0;
      fx += xD3 * yM4 * s;
      fy += xM3 * yD4 * s;
      fz += xM3 * yM4 * ds;
    }
    {
      const base = ((cx + 2) * py + cy + 2) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const p5 = phi[base + 5];
      const s = p0 * zM5 + p1 * zM4 + p2 * zM3 + p3 * zM2 + p4 * zM1 + p5 * zM0;
      const ds = p0 * zD5 + p1 * zD4 + p2 * zD3 + p3 * zD2 + p4 * zD1 + p5 * zD0;
      fx += xD3 * yM3 * s;
      fy += xM3 * yD3 * s;
      fz += xM3 * yM3 * ds;
    }
    {
      const base = ((cx + 2) * py + cy + 3) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const p5 = phi[base + 5];
      const s = p0 * zM5 + p1 * zM4 + p2 * zM3 + p3 * zM2 + p4 * zM1 + p5 * zM0;
      const ds = p0 * zD5 + p1 * zD4 + p2 * zD3 + p3 * zD2 + p4 * zD1 + p5 * zD0;
      fx += xD3 * yM2 * s;
      fy += xM3 * yD2 * s;
      fz += xM3 * yM2 * ds;
    }
    {
      const base = ((cx + 2) * py + cy + 4) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const p5 = phi[base + 5];
      const s = p0 * zM5 + p1 * zM4 + p2 * zM3 + p3 * zM2 + p4 * zM1 + p5 * zM0;
      const ds = p0 * zD5 + p1 * zD4 + p2 * zD3 + p3 * zD2 + p4 * zD1 + p5 * zD0;
      fx += xD3 * yM1 * s;
      fy += xM3 * yD1 * s;
      fz += xM3 * yM1 * ds;
    }
    {
      const base = ((cx + 2) * py + cy + 5) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const p5 = phi[base + 5];
      const s = p0 * zM5 + p1 * zM4 + p2 * zM3 + p3 * zM2 + p4 * zM1 + p5 * zM0;
      const ds = p0 * zD5 + p1 * zD4 + p2 * zD3 + p3 * zD2 + p4 * zD1 + p5 * zD0;
      fx += xD3 * yM0 * s;
      fy += xM3 * yD0 * s;
      fz += xM3 * yM0 * ds;
    }
    {
      const base = ((cx + 3) * py + cy + 0) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const p5 = phi[base + 5];
      const s = p0 * zM5 + p1 * zM4 + p2 * zM3 + p3 * zM2 + p4 * zM1 + p5 * zM0;
      const ds = p0 * zD5 + p1 * zD4 + p2 * zD3 + p3 * zD2 + p4 * zD1 + p5 * zD0;
      fx += xD2 * yM5 * s;
      fy += xM2 * yD5 * s;
      fz += xM2 * yM5 * ds;
    }
    {
      const base = ((cx + 3) * py + cy + 1) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const p5 = phi[base + 5];
      const s = p0 * zM5 + p1 * zM4 + p2 * zM3 + p3 * zM2 + p4 * zM1 + p5 * zM0;
      const ds = p0 * zD5 + p1 * zD4 + p2 * zD3 + p3 * zD2 + p4 * zD1 + p5 * zD0;
      fx += xD2 * yM4 * s;
      fy += xM2 * yD4 * s;
      fz += xM2 * yM4 * ds;
    }
    {
      const base = ((cx + 3) * py + cy + 2) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const p5 = phi[base + 5];
      const s = p0 * zM5 + p1 * zM4 + p2 * zM3 + p3 * zM2 + p4 * zM1 + p5 * zM0;
      const ds = p0 * zD5 + p1 * zD4 + p2 * zD3 + p3 * zD2 + p4 * zD1 + p5 * zD0;
      fx += xD2 * yM3 * s;
      fy += xM2 * yD3 * s;
      fz += xM2 * yM3 * ds;
    }
    {
      const base = ((cx + 3) * py + cy + 3) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const p5 = phi[base + 5];
      const s = p0 * zM5 + p1 * zM4 + p2 * zM3 + p3 * zM2 + p4 * zM1 + p5 * zM0;
      const ds = p0 * zD5 + p1 * zD4 + p2 * zD3 + p3 * zD2 + p4 * zD1 + p5 * zD0;
      fx += xD2 * yM2 * s;
      fy += xM2 * yD2 * s;
      fz += xM2 * yM2 * ds;
    }
    {
      const base = ((cx + 3) * py + cy + 4) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const p5 = phi[base + 5];
      const s = p0 * zM5 + p1 * zM4 + p2 * zM3 + p3 * zM2 + p4 * zM1 + p5 * zM0;
      const ds = p0 * zD5 + p1 * zD4 + p2 * zD3 + p3 * zD2 + p4 * zD1 + p5 * zD0;
      fx += xD2 * yM1 * s;
      fy += xM2 * yD1 * s;
      fz += xM2 * yM1 * ds;
    }
    {
      const base = ((cx + 3) * py + cy + 5) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const p5 = phi[base + 5];
      const s = p0 * zM5 + p1 * zM4 + p2 * zM3 + p3 * zM2 + p4 * zM1 + p5 * zM0;
      const ds = p0 * zD5 + p1 * zD4 + p2 * zD3 + p3 * zD2 + p4 * zD1 + p5 * zD0;
      fx += xD2 * yM0 * s;
      fy += xM2 * yD0 * s;
      fz += xM2 * yM0 * ds;
    }
    {
      const base = ((cx + 4) * py + cy + 0) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const p5 = phi[base + 5];
      const s = p0 * zM5 + p1 * zM4 + p2 * zM3 + p3 * zM2 + p4 * zM1 + p5 * zM0;
      const ds = p0 * zD5 + p1 * zD4 + p2 * zD3 + p3 * zD2 + p4 * zD1 + p5 * zD0;
      fx += xD1 * yM5 * s;
      fy += xM1 * yD5 * s;
      fz += xM1 * yM5 * ds;
    }
    {
      const base = ((cx + 4) * py + cy + 1) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const p5 = phi[base + 5];
      const s = p0 * zM5 + p1 * zM4 + p2 * zM3 + p3 * zM2 + p4 * zM1 + p5 * zM0;
      const ds = p0 * zD5 + p1 * zD4 + p2 * zD3 + p3 * zD2 + p4 * zD1 + p5 * zD0;
      fx += xD1 * yM4 * s;
      fy += xM1 * yD4 * s;
      fz += xM1 * yM4 * ds;
    }
    {
      const base = ((cx + 4) * py + cy + 2) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const p5 = phi[base + 5];
      const s = p0 * zM5 + p1 * zM4 + p2 * zM3 + p3 * zM2 + p4 * zM1 + p5 * zM0;
      const ds = p0 * zD5 + p1 * zD4 + p2 * zD3 + p3 * zD2 + p4 * zD1 + p5 * zD0;
      fx += xD1 * yM3 * s;
      fy += xM1 * yD3 * s;
      fz += xM1 * yM3 * ds;
    }
    {
      const base = ((cx + 4) * py + cy + 3) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const p5 = phi[base + 5];
      const s = p0 * zM5 + p1 * zM4 + p2 * zM3 + p3 * zM2 + p4 * zM1 + p5 * zM0;
      const ds = p0 * zD5 + p1 * zD4 + p2 * zD3 + p3 * zD2 + p4 * zD1 + p5 * zD0;
      fx += xD1 * yM2 * s;
      fy += xM1 * yD2 * s;
      fz += xM1 * yM2 * ds;
    }
    {
      const base = ((cx + 4) * py + cy + 4) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const p5 = phi[base + 5];
      const s = p0 * zM5 + p1 * zM4 + p2 * zM3 + p3 * zM2 + p4 * zM1 + p5 * zM0;
      const ds = p0 * zD5 + p1 * zD4 + p2 * zD3 + p3 * zD2 + p4 * zD1 + p5 * zD0;
      fx += xD1 * yM1 * s;
      fy += xM1 * yD1 * s;
      fz += xM1 * yM1 * ds;
    }
    {
      const base = ((cx + 4) * py + cy + 5) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const p5 = phi[base + 5];
      const s = p0 * zM5 + p1 * zM4 + p2 * zM3 + p3 * zM2 + p4 * zM1 + p5 * zM0;
      const ds = p0 * zD5 + p1 * zD4 + p2 * zD3 + p3 * zD2 + p4 * zD1 + p5 * zD0;
      fx += xD1 * yM0 * s;
      fy += xM1 * yD0 * s;
      fz += xM1 * yM0 * ds;
    }
    {
      const base = ((cx + 5) * py + cy + 0) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const p5 = phi[base + 5];
      const s = p0 * zM5 + p1 * zM4 + p2 * zM3 + p3 * zM2 + p4 * zM1 + p5 * zM0;
      const ds = p0 * zD5 + p1 * zD4 + p2 * zD3 + p3 * zD2 + p4 * zD1 + p5 * zD0;
      fx += xD0 * yM5 * s;
      fy += xM0 * yD5 * s;
      fz += xM0 * yM5 * ds;
    }
    {
      const base = ((cx + 5) * py + cy + 1) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const p5 = phi[base + 5];
      const s = p0 * zM5 + p1 * zM4 + p2 * zM3 + p3 * zM2 + p4 * zM1 + p5 * zM0;
      const ds = p0 * zD5 + p1 * zD4 + p2 * zD3 + p3 * zD2 + p4 * zD1 + p5 * zD0;
      fx += xD0 * yM4 * s;
      fy += xM0 * yD4 * s;
      fz += xM0 * yM4 * ds;
    }
    {
      const base = ((cx + 5) * py + cy + 2) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const p5 = phi[base + 5];
      const s = p0 * zM5 + p1 * zM4 + p2 * zM3 + p3 * zM2 + p4 * zM1 + p5 * zM0;
      const ds = p0 * zD5 + p1 * zD4 + p2 * zD3 + p3 * zD2 + p4 * zD1 + p5 * zD0;
      fx += xD0 * yM3 * s;
      fy += xM0 * yD3 * s;
      fz += xM0 * yM3 * ds;
    }
    {
      const base = ((cx + 5) * py + cy + 3) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const p5 = phi[base + 5];
      const s = p0 * zM5 + p1 * zM4 + p2 * zM3 + p3 * zM2 + p4 * zM1 + p5 * zM0;
      const ds = p0 * zD5 + p1 * zD4 + p2 * zD3 + p3 * zD2 + p4 * zD1 + p5 * zD0;
      fx += xD0 * yM2 * s;
      fy += xM0 * yD2 * s;
      fz += xM0 * yM2 * ds;
    }
    {
      const base = ((cx + 5) * py + cy + 4) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const p5 = phi[base + 5];
      const s = p0 * zM5 + p1 * zM4 + p2 * zM3 + p3 * zM2 + p4 * zM1 + p5 * zM0;
      const ds = p0 * zD5 + p1 * zD4 + p2 * zD3 + p3 * zD2 + p4 * zD1 + p5 * zD0;
      fx += xD0 * yM1 * s;
      fy += xM0 * yD1 * s;
      fz += xM0 * yM1 * ds;
    }
    {
      const base = ((cx + 5) * py + cy + 5) * pz + cz;
      const p0 = phi[base + 0];
      const p1 = phi[base + 1];
      const p2 = phi[base + 2];
      const p3 = phi[base + 3];
      const p4 = phi[base + 4];
      const p5 = phi[base + 5];
      const s = p0 * zM5 + p1 * zM4 + p2 * zM3 + p3 * zM2 + p4 * zM1 + p5 * zM0;
      const ds = p0 * zD5 + p1 * zD4 + p2 * zD3 + p3 * zD2 + p4 * zD1 + p5 * zD0;
      fx += xD0 * yM0 * s;
      fy += xM0 * yD0 * s;
      fz += xM0 * yM0 * ds;
    }
    f[3 * i] -= qi * fx * sx;
    f[3 * i + 1] -= qi * fy * sy;
    f[3 * i + 2] -= qi * fz * sz;
  }
}

// pme-mesh/ts/order6.f64.loop.tile0.ts
var order6_f64_loop_tile0_exports = {};
__export(order6_f64_loop_tile0_exports, {
  ORDER: () => ORDER13,
  TILE: () => TILE13,
  gather: () => gather13,
  key: () => key13,
  spread: () => spread13
});
var key13 = "pme-mesh.ts.order6.f64.loop.tile0";
var ORDER13 = 6;
var TILE13 = 0;
function spread13(a) {
  const grid = a.grid;
  const frac = a.frac;
  const q = a.q;
  const cell = a.cell;
  const ord = a.order;
  const py = a.dims[1];
  const pz = a.dims[2];
  grid.fill(0);
  const Wx = new Float64Array(6);
  const Wy = new Float64Array(6);
  const Wz = new Float64Array(6);
  for (let ii = 0; ii < a.n; ii++) {
    const i = ord === null ? ii : ord[ii];
    const qi = q[i];
    if (qi === 0) continue;
    const wx = frac[3 * i];
    const wy = frac[3 * i + 1];
    const wz = frac[3 * i + 2];
    const x2_0 = wx;
    const x2_1 = 1 - wx;
    const x3_0 = 0.5 * (wx * x2_0);
    const x3_1 = 0.5 * ((wx + 1) * x2_1 + (2 - wx) * x2_0);
    const x3_2 = 0.5 * ((1 - wx) * x2_1);
    const x4_0 = 0.3333333333333333 * (wx * x3_0);
    const x4_1 = 0.3333333333333333 * ((wx + 1) * x3_1 + (3 - wx) * x3_0);
    const x4_2 = 0.3333333333333333 * ((wx + 2) * x3_2 + (2 - wx) * x3_1);
    const x4_3 = 0.3333333333333333 * ((1 - wx) * x3_2);
    const x5_0 = 0.25 * (wx * x4_0);
    const x5_1 = 0.25 * ((wx + 1) * x4_1 + (4 - wx) * x4_0);
    const x5_2 = 0.25 * ((wx + 2) * x4_2 + (3 - wx) * x4_1);
    const x5_3 = 0.25 * ((wx + 3) * x4_3 + (2 - wx) * x4_2);
    const x5_4 = 0.25 * ((1 - wx) * x4_3);
    const x6_0 = 0.2 * (wx * x5_0);
    const x6_1 = 0.2 * ((wx + 1) * x5_1 + (5 - wx) * x5_0);
    const x6_2 = 0.2 * ((wx + 2) * x5_2 + (4 - wx) * x5_1);
    const x6_3 = 0.2 * ((wx + 3) * x5_3 + (3 - wx) * x5_2);
    const x6_4 = 0.2 * ((wx + 4) * x5_4 + (2 - wx) * x5_3);
    const x6_5 = 0.2 * ((1 - wx) * x5_4);
    const xM0 = x6_0;
    const xM1 = x6_1;
    const xM2 = x6_2;
    const xM3 = x6_3;
    const xM4 = x6_4;
    const xM5 = x6_5;
    const y2_0 = wy;
    const y2_1 = 1 - wy;
    const y3_0 = 0.5 * (wy * y2_0);
    const y3_1 = 0.5 * ((wy + 1) * y2_1 + (2 - wy) * y2_0);
    const y3_2 = 0.5 * ((1 - wy) * y2_1);
    const y4_0 = 0.3333333333333333 * (wy * y3_0);
    const y4_1 = 0.3333333333333333 * ((wy + 1) * y3_1 + (3 - wy) * y3_0);
    const y4_2 = 0.3333333333333333 * ((wy + 2) * y3_2 + (2 - wy) * y3_1);
    const y4_3 = 0.3333333333333333 * ((1 - wy) * y3_2);
    const y5_0 = 0.25 * (wy * y4_0);
    const y5_1 = 0.25 * ((wy + 1) * y4_1 + (4 - wy) * y4_0);
    const y5_2 = 0.25 * ((wy + 2) * y4_2 + (3 - wy) * y4_1);
    const y5_3 = 0.25 * ((wy + 3) * y4_3 + (2 - wy) * y4_2);
    const y5_4 = 0.25 * ((1 - wy) * y4_3);
    const y6_0 = 0.2 * (wy * y5_0);
    const y6_1 = 0.2 * ((wy + 1) * y5_1 + (5 - wy) * y5_0);
    const y6_2 = 0.2 * ((wy + 2) * y5_2 + (4 - wy) * y5_1);
    const y6_3 = 0.2 * ((wy + 3) * y5_3 + (3 - wy) * y5_2);
    const y6_4 = 0.2 * ((wy + 4) * y5_4 + (2 - wy) * y5_3);
    const y6_5 = 0.2 * ((1 - wy) * y5_4);
    const yM0 = y6_0;
    const yM1 = y6_1;
    const yM2 = y6_2;
    const yM3 = y6_3;
    const yM4 = y6_4;
    const yM5 = y6_5;
    const z2_0 = wz;
    const z2_1 = 1 - wz;
    const z3_0 = 0.5 * (wz * z2_0);
    const z3_1 = 0.5 * ((wz + 1) * z2_1 + (2 - wz) * z2_0);
    const z3_2 = 0.5 * ((1 - wz) * z2_1);
    const z4_0 = 0.3333333333333333 * (wz * z3_0);
    const z4_1 = 0.3333333333333333 * ((wz + 1) * z3_1 + (3 - wz) * z3_0);
    const z4_2 = 0.3333333333333333 * ((wz + 2) * z3_2 + (2 - wz) * z3_1);
    const z4_3 = 0.3333333333333333 * ((1 - wz) * z3_2);
    const z5_0 = 0.25 * (wz * z4_0);
    const z5_1 = 0.25 * ((wz + 1) * z4_1 + (4 - wz) * z4_0);
    const z5_2 = 0.25 * ((wz + 2) * z4_2 + (3 - wz) * z4_1);
    const z5_3 = 0.25 * ((wz + 3) * z4_3 + (2 - wz) * z4_2);
    const z5_4 = 0.25 * ((1 - wz) * z4_3);
    const z6_0 = 0.2 * (wz * z5_0);
    const z6_1 = 0.2 * ((wz + 1) * z5_1 + (5 - wz) * z5_0);
    const z6_2 = 0.2 * ((wz + 2) * z5_2 + (4 - wz) * z5_1);
    const z6_3 = 0.2 * ((wz + 3) * z5_3 + (3 - wz) * z5_2);
    const z6_4 = 0.2 * ((wz + 4) * z5_4 + (2 - wz) * z5_3);
    const z6_5 = 0.2 * ((1 - wz) * z5_4);
    const zM0 = z6_0;
    const zM1 = z6_1;
    const zM2 = z6_2;
    const zM3 = z6_3;
    const zM4 = z6_4;
    const zM5 = z6_5;
    const cx = cell[3 * i];
    const cy = cell[3 * i + 1];
    const cz = cell[3 * i + 2];
    Wx[0] = xM5;
    Wy[0] = yM5;
    Wz[0] = zM5;
    Wx[1] = xM4;
    Wy[1] = yM4;
    Wz[1] = zM4;
    Wx[2] = xM3;
    Wy[2] = yM3;
    Wz[2] = zM3;
    Wx[3] = xM2;
    Wy[3] = yM2;
    Wz[3] = zM2;
    Wx[4] = xM1;
    Wy[4] = yM1;
    Wz[4] = zM1;
    Wx[5] = xM0;
    Wy[5] = yM0;
    Wz[5] = zM0;
    for (let ax = 0; ax < 6; ax++) {
      const tx = qi * Wx[ax];
      for (let by = 0; by < 6; by++) {
        const t = tx * Wy[by];
        const base = ((cx + ax) * py + cy + by) * pz + cz;
        for (let c = 0; c < 6; c++) grid[base + c] += t * Wz[c];
      }
    }
  }
}
function gather13(a) {
  const phi = a.grid;
  const frac = a.frac;
  const q = a.q;
  const cell = a.cell;
  const ord = a.order;
  const f = a.f;
  const py = a.dims[1];
  const pz = a.dims[2];
  const [sx, sy, sz] = a.scale;
  const Wx = new Float64Array(6);
  const Wy = new Float64Array(6);
  const Wz = new Float64Array(6);
  const Dx = new Float64Array(6);
  const Dy = new Float64Array(6);
  const Dz = new Float64Array(6);
  for (let ii = 0; ii < a.n; ii++) {
    const i = ord === null ? ii : ord[ii];
    const qi = q[i];
    if (qi === 0) continue;
    const wx = frac[3 * i];
    const wy = frac[3 * i + 1];
    const wz = frac[3 * i + 2];
    const x2_0 = wx;
    const x2_1 = 1 - wx;
    const x3_0 = 0.5 * (wx * x2_0);
    const x3_1 = 0.5 * ((wx + 1) * x2_1 + (2 - wx) * x2_0);
    const x3_2 = 0.5 * ((1 - wx) * x2_1);
    const x4_0 = 0.3333333333333333 * (wx * x3_0);
    const x4_1 = 0.3333333333333333 * ((wx + 1) * x3_1 + (3 - wx) * x3_0);
    const x4_2 = 0.3333333333333333 * ((wx + 2) * x3_2 + (2 - wx) * x3_1);
    const x4_3 = 0.3333333333333333 * ((1 - wx) * x3_2);
    const x5_0 = 0.25 * (wx * x4_0);
    const x5_1 = 0.25 * ((wx + 1) * x4_1 + (4 - wx) * x4_0);
    const x5_2 = 0.25 * ((wx + 2) * x4_2 + (3 - wx) * x4_1);
    const x5_3 = 0.25 * ((wx + 3) * x4_3 + (2 - wx) * x4_2);
    const x5_4 = 0.25 * ((1 - wx) * x4_3);
    const x6_0 = 0.2 * (wx * x5_0);
    const x6_1 = 0.2 * ((wx + 1) * x5_1 + (5 - wx) * x5_0);
    const x6_2 = 0.2 * ((wx + 2) * x5_2 + (4 - wx) * x5_1);
    const x6_3 = 0.2 * ((wx + 3) * x5_3 + (3 - wx) * x5_2);
    const x6_4 = 0.2 * ((wx + 4) * x5_4 + (2 - wx) * x5_3);
    const x6_5 = 0.2 * ((1 - wx) * x5_4);
    const xM0 = x6_0;
    const xM1 = x6_1;
    const xM2 = x6_2;
    const xM3 = x6_3;
    const xM4 = x6_4;
    const xM5 = x6_5;
    const xD0 = x5_0;
    const xD1 = x5_1 - x5_0;
    const xD2 = x5_2 - x5_1;
    const xD3 = x5_3 - x5_2;
    const xD4 = x5_4 - x5_3;
    const xD5 = -x5_4;
    const y2_0 = wy;
    const y2_1 = 1 - wy;
    const y3_0 = 0.5 * (wy * y2_0);
    const y3_1 = 0.5 * ((wy + 1) * y2_1 + (2 - wy) * y2_0);
    const y3_2 = 0.5 * ((1 - wy) * y2_1);
    const y4_0 = 0.3333333333333333 * (wy * y3_0);
    const y4_1 = 0.3333333333333333 * ((wy + 1) * y3_1 + (3 - wy) * y3_0);
    const y4_2 = 0.3333333333333333 * ((wy + 2) * y3_2 + (2 - wy) * y3_1);
    const y4_3 = 0.3333333333333333 * ((1 - wy) * y3_2);
    const y5_0 = 0.25 * (wy * y4_0);
    const y5_1 = 0.25 * ((wy + 1) * y4_1 + (4 - wy) * y4_0);
    const y5_2 = 0.25 * ((wy + 2) * y4_2 + (3 - wy) * y4_1);
    const y5_3 = 0.25 * ((wy + 3) * y4_3 + (2 - wy) * y4_2);
    const y5_4 = 0.25 * ((1 - wy) * y4_3);
    const y6_0 = 0.2 * (wy * y5_0);
    const y6_1 = 0.2 * ((wy + 1) * y5_1 + (5 - wy) * y5_0);
    const y6_2 = 0.2 * ((wy + 2) * y5_2 + (4 - wy) * y5_1);
    const y6_3 = 0.2 * ((wy + 3) * y5_3 + (3 - wy) * y5_2);
    const y6_4 = 0.2 * ((wy + 4) * y5_4 + (2 - wy) * y5_3);
    const y6_5 = 0.2 * ((1 - wy) * y5_4);
    const yM0 = y6_0;
    const yM1 = y6_1;
    const yM2 = y6_2;
    const yM3 = y6_3;
    const yM4 = y6_4;
    const yM5 = y6_5;
    const yD0 = y5_0;
    const yD1 = y5_1 - y5_0;
    const yD2 = y5_2 - y5_1;
    const yD3 = y5_3 - y5_2;
    const yD4 = y5_4 - y5_3;
    const yD5 = -y5_4;
    const z2_0 = wz;
    const z2_1 = 1 - wz;
    const z3_0 = 0.5 * (wz * z2_0);
    const z3_1 = 0.5 * ((wz + 1) * z2_1 + (2 - wz) * z2_0);
    const z3_2 = 0.5 * ((1 - wz) * z2_1);
    const z4_0 = 0.3333333333333333 * (wz * z3_0);
    const z4_1 = 0.3333333333333333 * ((wz + 1) * z3_1 + (3 - wz) * z3_0);
    const z4_2 = 0.3333333333333333 * ((wz + 2) * z3_2 + (2 - wz) * z3_1);
    const z4_3 = 0.3333333333333333 * ((1 - wz) * z3_2);
    const z5_0 = 0.25 * (wz * z4_0);
    const z5_1 = 0.25 * ((wz + 1) * z4_1 + (4 - wz) * z4_0);
    const z5_2 = 0.25 * ((wz + 2) * z4_2 + (3 - wz) * z4_1);
    const z5_3 = 0.25 * ((wz + 3) * z4_3 + (2 - wz) * z4_2);
    const z5_4 = 0.25 * ((1 - wz) * z4_3);
    const z6_0 = 0.2 * (wz * z5_0);
    const z6_1 = 0.2 * ((wz + 1) * z5_1 + (5 - wz) * z5_0);
    const z6_2 = 0.2 * ((wz + 2) * z5_2 + (4 - wz) * z5_1);
    const z6_3 = 0.2 * ((wz + 3) * z5_3 + (3 - wz) * z5_2);
    const z6_4 = 0.2 * ((wz + 4) * z5_4 + (2 - wz) * z5_3);
    const z6_5 = 0.2 * ((1 - wz) * z5_4);
    const zM0 = z6_0;
    const zM1 = z6_1;
    const zM2 = z6_2;
    const zM3 = z6_3;
    const zM4 = z6_4;
    const zM5 = z6_5;
    const zD0 = z5_0;
    const zD1 = z5_1 - z5_0;
    const zD2 = z5_2 - z5_1;
    const zD3 = z5_3 - z5_2;
    const zD4 = z5_4 - z5_3;
    const zD5 = -z5_4;
    const cx = cell[3 * i];
    const cy = cell[3 * i + 1];
    const cz = cell[3 * i + 2];
    let fx = 0;
    let fy = 0;
    let fz = 0;
    Wx[0] = xM5;
    Wy[0] = yM5;
    Wz[0] = zM5;
    Dx[0] = xD5;
    Dy[0] = yD5;
    Dz[0] = zD5;
    Wx[1] = xM4;
    Wy[1] = yM4;
    Wz[1] = zM4;
    Dx[1] = xD4;
    Dy[1] = yD4;
    Dz[1] = zD4;
    Wx[2] = xM3;
    Wy[2] = yM3;
    Wz[2] = zM3;
    Dx[2] = xD3;
    Dy[2] = yD3;
    Dz[2] = zD3;
    Wx[3] = xM2;
    Wy[3] = yM2;
    Wz[3] = zM2;
    Dx[3] = xD2;
    Dy[3] = yD2;
    Dz[3] = zD2;
    Wx[4] = xM1;
    Wy[4] = yM1;
    Wz[4] = zM1;
    Dx[4] = xD1;
    Dy[4] = yD1;
    Dz[4] = zD1;
    Wx[5] = xM0;
    Wy[5] = yM0;
    Wz[5] = zM0;
    Dx[5] = xD0;
    Dy[5] = yD0;
    Dz[5] = zD0;
    for (let ax = 0; ax < 6; ax++) {
      for (let by = 0; by < 6; by++) {
        const base = ((cx + ax) * py + cy + by) * pz + cz;
        let s = 0;
        let ds = 0;
        for (let c = 0; c < 6; c++) {
          const p = phi[base + c];
          s += p * Wz[c];
          ds += p * Dz[c];
        }
        fx += Dx[ax] * Wy[by] * s;
        fy += Wx[ax] * Dy[by] * s;
        fz += Wx[ax] * Wy[by] * ds;
      }
    }
    f[3 * i] -= qi * fx * sx;
    f[3 * i + 1] -= qi * fy * sy;
    f[3 * i + 2] -= qi * fz * sz;
  }
}

// pme-mesh/ts/index.ts
var variants = {
  "pme-mesh.ts.order4.f32.full.tile0": order4_f32_full_tile0_exports,
  "pme-mesh.ts.order4.f64.full.tile0": order4_f64_full_tile0_exports,
  "pme-mesh.ts.order4.f64.full.tile4": order4_f64_full_tile4_exports,
  "pme-mesh.ts.order4.f64.full.tile8": order4_f64_full_tile8_exports,
  "pme-mesh.ts.order4.f64.loop.tile0": order4_f64_loop_tile0_exports,
  "pme-mesh.ts.order4.f64.loop.tile4": order4_f64_loop_tile4_exports,
  "pme-mesh.ts.order4.f64.loop.tile8": order4_f64_loop_tile8_exports,
  "pme-mesh.ts.order5.f32.full.tile0": order5_f32_full_tile0_exports,
  "pme-mesh.ts.order5.f64.full.tile0": order5_f64_full_tile0_exports,
  "pme-mesh.ts.order5.f64.loop.tile0": order5_f64_loop_tile0_exports,
  "pme-mesh.ts.order6.f32.full.tile0": order6_f32_full_tile0_exports,
  "pme-mesh.ts.order6.f64.full.tile0": order6_f64_full_tile0_exports,
  "pme-mesh.ts.order6.f64.loop.tile0": order6_f64_loop_tile0_exports
};
export {
  variants
};
