// The PME mesh kernels (pme-mesh family) on the tuning family's water-mesh problem: 12,288
// water-like charges (4,096 SPC/E molecules) in a 4.97 nm cube, grid 42^3 (spacing 0.12 nm),
// rc 1.0 nm / ewald-rtol 1e-5. For every library CPU variant of the order (TypeScript, and
// WebAssembly SIMD where it validates) and the f64 reference spread and gather (the baseline,
// timed in the same run): spread (layout, kernel, fold) and gather (unfold, kernel), plus the
// solve (FFT and influence function) they share. Every variant passes the family's gate first.
// The candidates are timed round-robin (one call of each per round), and the minimum over the
// rounds is reported beside the median: on a shared machine the minimum is the least disturbed.
//
// Run: npx tsx bench/pme-mesh.ts [--order 4] [--rounds 15]   (or kernforge bench pme-mesh)
import { libraryKeys } from '../runtime/variants.ts';
import { backend } from '../runtime/backends/registry.ts';
import { createPmeMesh, ewaldCoeff, pmeGrid, verifyPmeKey, REFERENCE_MESH, type PmeMesh } from '../runtime/pme/index.ts';
import { waterCharges } from '../runtime/pme/family.ts';

/** One row: a variant's spread, gather and solve times (min and median over the rounds, ms) and its speed-up over the reference. */
export interface PmeMeshRow {
  key: string;
  spread: number;
  gather: number;
  solve: number;
  spreadMedian: number;
  gatherMedian: number;
  /** (reference spread + gather) / (this spread + gather), minima. */
  speedup: number;
}

const median = (a: number[]): number => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)]!;

/** Times the mesh variants of one order; prints a table; returns the rows. */
export async function benchPmeMesh(o: { order?: number; rounds?: number; log?: (s: string) => void } = {}): Promise<PmeMeshRow[]> {
  const log = o.log ?? console.log;
  const order = o.order ?? 4;
  const rounds = o.rounds ?? 15;
  const { x, q, box } = waterCharges(4096, 4.972);
  const params = { beta: ewaldCoeff(1.0, 1e-5), grid: pmeGrid(box, 0.12), order };
  const simd = (await backend('wasm').available()).ok;
  const keys = [...libraryKeys('pme-mesh', 'ts'), ...(simd ? libraryKeys('pme-mesh', 'wasm') : [])].filter((k) => k.includes(`.order${order}.`));
  log(`PME mesh: ${q.length} charges, box ${box[0]} nm, grid ${params.grid.join('x')}, order ${order}; ${rounds} rounds, round-robin${simd ? '' : ' (no WebAssembly SIMD here: TypeScript only)'}`);
  for (const k of keys) {
    const v = await verifyPmeKey(k);
    if (!v.ok) throw new Error(`${k} fails the gate: ${v.detail}`);
  }
  const meshes: PmeMesh[] = [];
  for (const k of [REFERENCE_MESH, ...keys]) meshes.push(await createPmeMesh(box, params, q.length, { variant: k, unverified: true }));
  const f = new Float64Array(x.length);
  const samples = meshes.map(() => ({ spread: [] as number[], gather: [] as number[], solve: [] as number[] }));
  for (let r = 0; r < rounds + 3; r++) {
    meshes.forEach((m, i) => {
      const t = { ...m.timers };
      m.compute(x, q, f);
      if (r < 3) return; // warm-up rounds (the JIT)
      samples[i]!.spread.push(m.timers.spread - t.spread);
      samples[i]!.gather.push(m.timers.gather - t.gather);
      samples[i]!.solve.push(m.timers.solve - t.solve);
    });
  }
  const rows: PmeMeshRow[] = meshes.map((m, i) => {
    const s = samples[i]!;
    return { key: m.key, spread: Math.min(...s.spread), gather: Math.min(...s.gather), solve: Math.min(...s.solve), spreadMedian: median(s.spread), gatherMedian: median(s.gather), speedup: 0 };
  });
  const base = rows[0]!.spread + rows[0]!.gather;
  for (const r of rows) r.speedup = base / (r.spread + r.gather);
  log('variant                                    spread ms (min/median)   gather ms (min/median)   spread+gather  x reference   solve ms (min)');
  for (const r of rows) {
    log(`${r.key.padEnd(42)} ${`${r.spread.toFixed(2)} / ${r.spreadMedian.toFixed(2)}`.padStart(22)}   ${`${r.gather.toFixed(2)} / ${r.gatherMedian.toFixed(2)}`.padStart(22)}   ${(r.spread + r.gather).toFixed(2).padStart(13)}  ${r.speedup.toFixed(2).padStart(11)}   ${r.solve.toFixed(2).padStart(14)}`);
  }
  meshes.forEach((m) => m.dispose());
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const arg = (name: string): number | undefined => {
    const i = process.argv.indexOf(name);
    return i > 0 ? Number(process.argv[i + 1]) : undefined;
  };
  await benchPmeMesh({ order: arg('--order'), rounds: arg('--rounds') });
}
