// `kernforge run gem <molecule.pqr>`: GEM's electrostatic surface potential of one molecule.
// Parses the command line and prints the summary; the workload (reading or generating the
// surface, the variant choice, the verification gate, the run, the output file and pictures) is
// runtime/gem/workload.ts runGemWorkload.
import { existsSync } from 'node:fs';
import { BUNDLED_MOLECULES, bundledMolecule, type BundledMolecule } from '../../runtime/data.ts';
import { Command, InvalidArgumentError } from 'commander';
import type { SurfaceKind } from '../../runtime/gem/surface.ts';
import { UserError } from '../../runtime/errors.ts';
import { runGemWorkload, formatGemSummary } from '../../runtime/gem/workload.ts';

const num = (name: string) => (v: string): number => {
  const x = Number(v);
  if (v.trim() === '' || !Number.isFinite(x)) throw new InvalidArgumentError(`${name} needs a number, got "${v}"`);
  return x;
};

/** The command line as the user gave it (commander's rawArgs of the program), for a shard's manifest. */
export function rootArgs(cmd: Command): string[] {
  let c = cmd;
  while (c.parent) c = c.parent;
  return [...((c as unknown as { rawArgs?: string[] }).rawArgs ?? [])];
}

/** Add `gem <molecule.pqr>` to the `run` command. */
export function registerGem(run: Command): void {
  run
    .command('gem')
    .description("GEM electrostatic surface potential of a molecule: verify the chosen variant, run it on every vertex, write GEM's format")
    .argument('[molecule.pqr]', `atoms with charges and radii (PQR), or a bundled molecule: ${BUNDLED_MOLECULES.join(', ')} (or --batch list.txt)`)
    .option('--vert <file>', 'MSMS .vert surface (default: <molecule>.vert beside the .pqr if it exists, else a generated SES)')
    .option('--surface <kind>', 'generate the surface: ses (solvent excluded) or sas (solvent accessible), even when a .vert lies beside the .pqr')
    .option('--probe <r>', 'probe radius of the generated surface (Angstrom)', num('--probe'))
    .option('--density <d>', 'vertices per A^2 of the generated surface (default 3, as MSMS -density 3)', num('--density'))
    .option('--write-vert <file>', 'also write the generated surface as an MSMS .vert file')
    .option('--picture <file>', 'also draw the potential on the surface: .png (rendered here) or .html (interactive viewer); repeatable', (v: string, prev: string[] = []) => [...prev, v])
    .option('--eps-out <n>', 'exterior dielectric constant', num('--eps-out'), 80)
    .option('--eps-in <n>', 'interior dielectric constant', num('--eps-in'), 1)
    .option('--salt <n>', 'salt concentration (mol/L)', num('--salt'), 0)
    .option('--proj-len <L>', 'projection length p along the normals (Angstrom)', num('--proj-len'), 0)
    .option('--fix-a <A>', 'electrostatic radius (Angstrom); estimated from the atoms when absent', num('--fix-a'))
    .option('-o, --output <file>', 'output file', 'phi.out')
    .option('--variant <key>', 'gem-potential variant, TS, wasm, WGSL or gpu.js (default: TS f32 unroll 4 for the region and salt, or the tuned one); a wasm key runs in WebAssembly SIMD, a WGSL key on the WebGPU adapter, a gpu.js key in its gpu.js mode')
    .option('--threads <n>', 'worker threads for a TypeScript or wasm variant, the vertices split between them (default 1: this thread)')
    .option('--target <t>', 'target of the default variant: ts (TypeScript f32 unroll 4), wasm (WebAssembly SIMD f32x4, 8 vertices per iteration) or wgsl (the WebGPU adapter\'s tuned variant, else WGSL unroll 4, 64 vertices per workgroup)')
    .option('--max-memory <size>', "refuse a generated surface whose memory estimate is above this size, e.g. 4G or 512M (default: half of this machine's memory)")
    .option('--batch <list.txt>', "a batch of molecules, one a line (bundled names or .pqr paths, relative to the list's folder): each one's <name>.phi goes to --out-dir; with --shard only the shard's molecules")
    .option('--shard <K/N>', 'compute shard K (0-based) of N: the molecules of --batch, or the vertex range of the molecule; files go to <out-dir>/shards/K-of-N/, `kernforge gather <out-dir>` merges them (docs/batch.md)')
    .option('--out-dir <folder>', 'the folder of --batch and --shard', 'kernforge-batch')
    .action(async (molecule: string | undefined, o: { vert?: string; surface?: SurfaceKind; probe?: number; density?: number; writeVert?: string; picture?: string[]; epsOut: number; epsIn: number; salt: number; projLen: number; fixA?: number; output: string; variant?: string; threads?: string; target?: string; maxMemory?: string; batch?: string; shard?: string; outDir: string }, cmd: Command) => {
      if (o.batch !== undefined || o.shard !== undefined) {
        // a shard of a batch (runtime/batch/gem.ts); without --shard, the whole batch as shard 0/1
        const { parseShard } = await import('../../runtime/batch/shard.ts');
        const { runGemShard } = await import('../../runtime/batch/gem.ts');
        const { BatchInputError } = await import('../../runtime/batch/shard.ts');
        const shard = o.shard === undefined ? { k: 0, n: 1 } : parseShard(o.shard);
        if (o.batch !== undefined && molecule !== undefined) throw new BatchInputError(`give a molecule (${molecule}) or --batch ${o.batch}, not both`);
        for (const [opt, name] of [['output', '-o'], ['picture', '--picture'], ['writeVert', '--write-vert']] as const) {
          if (cmd.getOptionValueSource(opt) === 'cli') throw new BatchInputError(`${name} names one file, but a batch or shard writes its files under --out-dir (${o.outDir})`);
        }
        const { batch, shard: _s, outDir, output: _o, picture: _p, writeVert: _w, ...settings } = o;
        void _s, _o, _p, _w;
        const r = await runGemShard({ ...settings, molecule, list: batch, shard, outDir, command: rootArgs(cmd), log: (l) => console.log(l) });
        if (o.shard === undefined) {
          const { gatherBatch } = await import('../../runtime/batch/gather.ts');
          for (const l of gatherBatch(outDir).lines) console.log(l);
        } else console.log(`${r.status === 'done' ? 'wrote' : 'kept'} shard ${r.dir}`);
        return;
      }
      if (molecule === undefined) throw new UserError(`give a molecule: a .pqr file or a bundled molecule (${BUNDLED_MOLECULES.join(', ')}), or --batch list.txt`);
      // a bundled molecule by name (its .vert lies beside it), unless a file of that name exists
      const bundled = !existsSync(molecule) && (BUNDLED_MOLECULES as readonly string[]).includes(molecule) ? bundledMolecule(molecule as BundledMolecule).pqr : undefined;
      const s = await runGemWorkload({ molecule: bundled ?? molecule, ...o });
      console.log(formatGemSummary(s));
    });
}
