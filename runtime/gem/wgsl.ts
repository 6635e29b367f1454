// gem-potential WGSL variants: vertices, normals and atoms as vec4 storage buffers, the
// atom-independent terms folded on the host in f64 into the uniform block, one invocation per
// `unroll` vertices, phi read back as f32. Tiled variants (block > 0: atoms staged through
// workgroup memory) get the atoms padded to a multiple of the tile with zero charges far away.
import { gpu, storage, readBack, mapReadBuffer, uniform, bindBuffers, grid2d, runPass } from '../backends/webgpu.ts';
import { backend } from '../backends/registry.ts';
import { variantParams } from '../variants.ts';
import type { GemAtoms, GemVertices } from './io.ts';
import { gemParams, regionOneH, type GemParams } from './model.ts';
import { checkVariant, gemVariantInfo, type GemRunOptions, type GemRunResult } from './run.ts';

/** The uniform block's float fields, folded as the TypeScript kernels fold them. */
export function gemWgslConstants(atoms: GemAtoms, P: GemParams, region: 1 | 2 | 3, salt: boolean): {
  /** Region 1: (1 - beta) / (1 + alpha beta) with beta = epsIn / epsOut; 0 elsewhere. */
  g: number;
  /** Region 1: (A^2 - r0^2)(A^2 - r^2) / A^2 (Angstrom^2), r0 = A/2, r = A + p; 0 elsewhere. Exactly 0 at p = 0, where region 1's kernels take one root per pair. */
  h: number;
  /** Region 1 with salt: the kappa term's factor relative to scale; 0 elsewhere. */
  kc: number;
  /** Factor of the sum over atoms (phi = phi0 + scale * sum); region 1 at h = 0: times 1 - g. */
  scale: number;
  /** The atom-independent part of phi (kcal/mol/e), from the total charge. */
  phi0: number;
} {
  const kappa = salt ? P.kappa : 0;
  const beta = P.epsIn / P.epsOut;
  const ab1 = 1 + P.alpha * beta;
  const K0 = P.qScale / (ab1 * P.epsOut);
  const r = P.A + P.p;
  const rp = P.A + P.ionRadius;
  let qTot = 0;
  for (let j = 0; j < atoms.n; j++) qTot += atoms.q[j]!;
  if (region === 1) {
    const g = (1 - beta) / ab1;
    const h = regionOneH(P);
    // h = 0 (p = 0: the points on the sphere r = A): the kernels take their one-root loop, whose
    // pair term leaves out the factor 1 - g; it goes into the scale (kc is relative to the scale).
    const scale = (P.qScale / P.epsIn) * (h === 0 ? 1 - g : 1);
    return {
      scale,
      g,
      // a nonzero h below f32's range (A under about 1e-14 Angstrom) stays nonzero in the f32
      // kernels, so they take the two-root loop this unfolded scale is for
      h: h !== 0 && Math.abs(h) < 2 ** -126 ? Math.sign(h) * 2 ** -126 : h,
      kc: (K0 * (1 + P.alpha) * kappa) / scale,
      phi0: ((qTot * K0 * P.alpha * (1 - beta)) / rp) * (1 - 1 / (1 + kappa * rp)),
    };
  }
  const scale = K0 * (1 + P.alpha);
  const phi0 = region === 2
    ? qTot * K0 * P.alpha * (1 - beta) * ((1 / rp) * (1 - 1 / (1 + kappa * rp)) - 1 / r)
    : -(qTot * K0 * P.alpha * (1 - beta) * Math.exp(-kappa * (r - rp))) / (r * (1 + kappa * rp));
  return { scale, g: 0, h: 0, kc: 0, phi0 };
}

/** The WebGPU adapter, named with what its info tells (Dawn's GL backend names the renderer only in `device`), and whether it is a CPU rasterizer. */
export async function gemAdapter(): Promise<{ name: string; cpu: boolean }> {
  const ctx = await gpu();
  const info = (ctx.device as GPUDevice & { adapterInfo?: GPUAdapterInfo }).adapterInfo;
  const extra = [info?.vendor, info?.architecture, info?.device].filter((x) => x && !ctx.adapterName.includes(x)).join(' ');
  const name = extra ? `${ctx.adapterName} [${extra}]` : ctx.adapterName;
  return { name, cpu: /llvmpipe|swiftshader|softpipe|lavapipe/i.test(name) };
}

/** Where padding atoms sit (Angstrom): far from any molecule, near enough that 1/d stays a normal f32. */
const PAD_AT = 1e4;

/** A GEM problem uploaded to the GPU for one WGSL variant: dispatch it repeatedly (timing), read phi, then destroy it. */
export interface PreparedGemWgsl {
  /** Dispatch once and wait for completion. */
  dispatch(): Promise<void>;
  /** phi of the last dispatch. */
  result(): Promise<Float64Array>;
  /** Free the GPU buffers; the WebGPU device itself stays for the process. */
  destroy(): void;
  /** The kernel constants used. */
  params: GemParams;
  /** The region the variant computes. */
  region: 1 | 2 | 3;
  /** The WebGPU adapter's name and backend. */
  adapterName: string;
}

/** Upload one problem for a WGSL variant. */
export async function prepareGemWgsl(key: string, atoms: GemAtoms, v: GemVertices, opts: GemRunOptions = {}): Promise<PreparedGemWgsl> {
  const info = await gemVariantInfo(key);
  const p = await variantParams(key);
  if (p.target !== 'wgsl') throw new Error(`variant ${key} is a ${p.target} variant, not WGSL (use runGem)`);
  const params = opts.params ?? gemParams(atoms, opts);
  checkVariant(key, info, params);
  const K = Number(p.unroll);
  const wg = Number(p.workgroup);
  const tile = Number(p.block);
  const { ctx, pipeline: pl } = await backend('wgsl').pipeline(key, ['read-only-storage', 'read-only-storage', 'read-only-storage', 'storage', 'uniform']);
  const { device } = ctx;

  const nv = v.n;
  const na = tile > 0 ? Math.ceil(atoms.n / tile) * tile : atoms.n;
  const verts = new Float32Array(4 * Math.max(nv, 1));
  const normals = new Float32Array(4 * Math.max(nv, 1));
  for (let i = 0; i < nv; i++) {
    verts.set([v.x[i]!, v.y[i]!, v.z[i]!, 0], 4 * i);
    normals.set([v.nx[i]!, v.ny[i]!, v.nz[i]!, 0], 4 * i);
  }
  const at = new Float32Array(4 * Math.max(na, 1));
  for (let j = 0; j < atoms.n; j++) at.set([atoms.x[j]!, atoms.y[j]!, atoms.z[j]!, atoms.q[j]!], 4 * j);
  // Padding atoms: charge 0 (their terms are exactly 0), far from every vertex (finite terms).
  for (let j = atoms.n; j < na; j++) at.set([PAD_AT, PAD_AT, PAD_AT, 0], 4 * j);

  const groups = Math.max(1, Math.ceil(Math.ceil(nv / K) / wg));
  const g = grid2d(ctx, groups);
  const { gx } = g;
  const c = gemWgslConstants(atoms, params, info.region, info.salt === 'nonzero');
  const uni = new ArrayBuffer(48);
  new Float32Array(uni).set([params.p, params.ionRadius, info.salt === 'nonzero' ? params.kappa : 0, c.g, c.h, c.kc, c.scale, c.phi0]);
  new Uint32Array(uni).set([nv, na, gx * wg, 0], 8);

  const bufs = {
    verts: storage(device, verts),
    normals: storage(device, normals),
    atoms: storage(device, at),
    phi: storage(device, new Float32Array(Math.max(nv, 1)), true),
    uniform: uniform(device, uni),
    // kept for every result() of this preparation (the tuner's repeated reads)
    staging: mapReadBuffer(device, Math.max(nv, 1) * 4),
  };
  const bind = await bindBuffers(device, pl, [bufs.verts, bufs.normals, bufs.atoms, bufs.phi, bufs.uniform], key);
  return {
    params,
    region: info.region,
    adapterName: ctx.adapterName,
    async dispatch() {
      if (nv === 0) return;
      await runPass(device, pl, bind, g);
    },
    async result() {
      if (nv === 0) return new Float64Array(0);
      return Float64Array.from(new Float32Array(await readBack(device, bufs.phi, nv * 4, bufs.staging)));
    },
    destroy() {
      Object.values(bufs).forEach((b) => b.destroy());
    },
  };
}

/** Run one WGSL variant over all vertices and atoms (the WebGPU counterpart of runGem). */
export async function runGemWgsl(key: string, atoms: GemAtoms, vertices: GemVertices, opts: GemRunOptions = {}): Promise<GemRunResult> {
  const prep = await prepareGemWgsl(key, atoms, vertices, opts);
  try {
    await prep.dispatch();
    return { phi: await prep.result(), params: prep.params, region: prep.region };
  } finally {
    prep.destroy();
  }
}
