// `kernforge run bigdft`: the local part of BigDFT's Hamiltonian on a periodic grid. Parses the
// command line and prints the workload's report; the workload (variant choice, verification,
// the applications of H, the energies and timings) is runtime/bigdft/hamiltonian.ts
// runBigdftWorkload.
import type { Command } from 'commander';
import { runBigdftWorkload, DEFAULT_GRID } from '../../runtime/bigdft/hamiltonian.ts';

/** Add `bigdft` to the `run` command. */
export function registerBigdft(run: Command): void {
  run
    .command('bigdft')
    .description('apply the local part of the BigDFT Hamiltonian (magic filter, potential, kinetic) on a periodic grid; energies and GFlop/s')
    .option('--grid <n1xn2xn3>', 'periodic grid', DEFAULT_GRID)
    .option('--h <h>', 'grid spacing (bohr)', '0.4')
    .option('--iterations <K>', 'applications of H (one steepest-descent step between them)', '3')
    .option('--precision <p>', 'f64 or f32 (default: f64; f32 with --target wgsl)')
    .option('--variant-mf <key>', 'magic filter variant (default: bigdft-conv.ts.magic.periodic.<precision>.separable-t.8x1.inline.table; any periodic TypeScript, wasm or WGSL variant)')
    .option('--variant-mft <key>', 'transposed magic filter variant (default: bigdft-conv.ts.magic-t.periodic.<precision>.separable-t.8x1.inline.table; any periodic TypeScript, wasm or WGSL variant)')
    .option('--variant-kin <key>', 'kinetic variant (default: bigdft-conv.ts.kinetic.periodic.<precision>.separable-t.8x1.inline.table; any periodic TypeScript, wasm or WGSL variant)')
    .option('--threads <n>', 'threads for the TypeScript and wasm variants, each pass split between them (default: the tuned count, else 1)')
    .option('--target <t>', 'target of the default variants: ts (tuned or library defaults), wasm (WebAssembly SIMD f64x2 lines) or wgsl (the WebGPU adapter\'s tuned variants, else its 16x16 defaults; f32; the application stays on the device)', 'ts')
    .option('--max-memory <size>', "refuse a grid whose memory estimate is above this size, e.g. 4G or 512M (default: half of this machine's memory)")
    .action(async (o: { grid: string; h: string; iterations: string; precision?: string; variantMf?: string; variantMft?: string; variantKin?: string; threads?: string; target: string; maxMemory?: string }) => {
      await runBigdftWorkload({
        grid: o.grid,
        h: o.h,
        iterations: o.iterations,
        precision: o.precision,
        variantMf: o.variantMf,
        variantMft: o.variantMft,
        variantKin: o.variantKin,
        threads: o.threads,
        target: o.target,
        maxMemory: o.maxMemory,
        log: (l: string) => console.log(l),
      });
    });
}

