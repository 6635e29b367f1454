// The kernforge command line. User mistakes (bad specs, unknown variants, no GPU adapter)
// end with one clear message and a non-zero exit status, never a stack trace.
import { keyFamily, shortKey } from '../runtime/keys.ts';
import { Command, CommanderError } from 'commander';
import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { UserError, isUserError } from '../runtime/errors.ts';
export { UserError };

async function cmdGenerate(specs: string[], o: { out?: string; check?: boolean; quiet?: boolean; force?: boolean }): Promise<number> {
  const gen = await import('../generator/index.ts');
  const files = specs.length > 0 ? specs.map((s) => resolve(s)) : gen.projectSpecs();
  for (const f of files) if (!existsSync(f)) throw new UserError(`spec file not found: ${f}`);
  // Without --out, only the repository's own specs regenerate the repository's own library
  // (running from the sources); user specs, or an installed package, need a folder of their own.
  const fromSources = import.meta.url.endsWith('.ts');
  if (o.out === undefined && (specs.length > 0 || !fromSources) && !o.check) {
    throw new UserError(`generate: give --out <folder> for the generated kernels${specs.length > 0 ? ' of your specs' : ''}; without it kernforge would replace its own committed library`);
  }
  const out = resolve(o.out ?? fileURLToPath(new URL('../generated/', import.meta.url)));
  // the output policy (runtime/output.ts): checked before any work, and again by generate()
  if (!o.check) (await import('../runtime/output.ts')).checkOutputFolder(o.out ?? out, { force: o.force });
  const log = o.quiet ? () => {} : (m: string) => console.log(`  ${m}`);
  const r = await gen.generate({ specs: files, out, check: o.check, log, force: o.force });
  if (o.check) {
    if (r.diffs.length > 0) {
      console.error(`kernforge: generated files are stale (${r.diffs.length} differ from what the specs and templates produce):`);
      for (const d of r.diffs.slice(0, 20)) console.error(`  ${d}`);
      console.error('run `kernforge generate` and commit the result');
      return 1;
    }
    console.log(`generated/ is up to date (${r.files} files, ${r.manifest.variants.length} variants)`);
    return 0;
  }
  console.log(`wrote ${r.files} files (${r.manifest.variants.length} variants) to ${out}`);
  return 0;
}

async function cmdList(family: string | undefined, o: { target?: string }): Promise<number> {
  const { manifest } = await import('../runtime/variants.ts');
  const rows = [...manifest().values()].filter((v) => (!family || v.family === family) && (!o.target || v.target === o.target));
  for (const v of rows) console.log(v.key);
  console.error(`${rows.length} variants`);
  return 0;
}

async function cmdRender(key: string, o: { output?: string }): Promise<number> {
  const { checkOutputFile, writeOutput } = await import('../runtime/output.ts');
  if (o.output) checkOutputFile(o.output, '-o');
  const { variantParams, wgslSource } = await import('../runtime/variants.ts');
  const p = await variantParams(key);
  const gen = await import('../generator/index.ts');
  const family = keyFamily(key);
  const spec = gen.loadAndValidate(gen.projectSpecs().find((s: string) => s.endsWith(`/${family}.yaml`))!);
  const text = p.target === 'wgsl' ? await wgslSource(key) : gen.renderVariant(spec, p).text;
  if (o.output) {
    writeOutput(o.output, text, '-o');
    console.error(`wrote ${o.output}`);
  } else process.stdout.write(text);
  return 0;
}

async function cmdDevices(): Promise<number> {
  const { detectDevices } = await import('../runtime/tune/devices.ts');
  const names: Record<string, string> = { ts: 'TypeScript', wasm: 'WebAssembly SIMD', wgsl: 'WGSL', gpujs: 'gpu.js' };
  for (const d of await detectDevices()) {
    if (!d.available) {
      console.log(`${d.id.padEnd(7)}: unavailable: ${d.why}`);
      continue;
    }
    const what = d.targets.map((t) => (t === 'gpujs' ? `gpu.js (${d.gpujsModes!.join(', ')})` : names[t] ?? t)).join(', ');
    console.log(`${d.id.padEnd(7)}: ${d.name}: ${what}; fingerprint ${d.fingerprint}`);
    for (const [t, why] of Object.entries(d.unavailableTargets ?? {})) console.log(`         not here: ${t}: ${why}`);
  }
  return 0;
}

async function cmdVerify(keys: string[], o: { target?: string; family?: string }): Promise<number> {
  // every family's own gate (TuningFamily.verifyKey), on its verification input
  const { libraryKeys } = await import('../runtime/variants.ts');
  const { tuningFamilies } = await import('../runtime/tune/families/index.ts');
  const families = await tuningFamilies();
  const names = families.map((f) => f.family);
  if (o.family !== undefined && !names.includes(o.family)) throw new UserError(`--family ${o.family}: allowed ${names.join(', ')}`);
  const targets = ['ts', 'wasm', 'wgsl', 'gpujs'];
  const target = o.target ?? 'ts';
  if (target !== 'all' && !targets.includes(target)) throw new UserError(`--target ${target}: allowed ${targets.join(', ')} or all`);
  const list = keys.length > 0 ? keys : families.filter((f) => !o.family || f.family === o.family).flatMap((f) => libraryKeys(f.family, target === 'all' ? undefined : target));
  const { GpujsModeError } = await import('../runtime/backends/gpujs.ts');
  const { NoAdapterError } = await import('../runtime/backends/webgpu.ts');
  let failed = 0;
  let skipped = 0;
  for (const [i, key] of list.entries()) {
    const f = families.find((x) => x.family === keyFamily(key));
    if (!f?.verifyKey) throw new UserError(`${key}: not a variant of a family with a verification gate (${names.join(', ')})`);
    await (await import('../runtime/variants.ts')).variantParams(key); // an invalid key is a user error (exit 2), not a failed check
    let r: Awaited<ReturnType<NonNullable<typeof f.verifyKey>>>;
    try {
      r = await f.verifyKey(key);
    } catch (e) {
      // a backend missing here (a gpu.js mode, a WebGPU adapter) is a skip, not a failure
      if (e instanceof GpujsModeError || e instanceof NoAdapterError) {
        skipped++;
        console.log(`[${i + 1}/${list.length}] skip ${key}: ${(e as Error).message}`);
        continue;
      }
      r = { ok: false, error: Infinity, detail: (e as Error).message };
    }
    if (!r.ok) failed++;
    const worst = r.error === undefined ? '' : `  worst ${Number.isFinite(r.error) ? r.error.toFixed(3) : r.error} of tolerance`;
    console.log(`[${i + 1}/${list.length}] ${r.ok ? 'ok  ' : 'FAIL'} ${key}${worst}${r.ok ? '' : `: ${r.detail ?? 'does not match the f64 reference'}`}`);
  }
  console.log(`${list.length - failed - skipped} passed, ${failed} failed${skipped ? `, ${skipped} skipped (backend not available here)` : ''}`);
  return failed > 0 ? 1 : 0;
}

async function cmdBench(family: string, o: Record<string, string>): Promise<number> {
  // The benches build C peers and read the repository's fixtures: they ship with the repository, not the package.
  if (!existsSync(new URL('../bench/', import.meta.url))) throw new UserError('kernforge bench runs from a clone of the kernforge repository (the benchmarks build C peers and read its fixtures); the npm package does not carry them');
  if (family === 'gem-potential') {
    const { benchGemCommand } = await import('../bench/gem-command.ts');
    return (await benchGemCommand({ reps: o.reps, molecules: o.molecules === '3000' ? undefined : o.molecules, density: o.density, largeReps: o.largeReps, targets: o.targets, threads: o.threads })).status;
  }
  if (family === 'bigdft-conv') {
    const { benchBigdftCommand } = await import('../bench/bigdft-command.ts');
    return benchBigdftCommand({ grid: o.grid, reps: o.reps, keys: o.keys, targets: o.targets, threads: o.threads });
  }
  if (family === 'tuner') return (await import('../bench/tuner.ts')).benchTunerCommand(o);
  if (family === 'pme-mesh') {
    // the PME mesh kernels against the f64 reference spread and gather (bench/pme-mesh.ts)
    const { benchPmeMesh } = await import('../bench/pme-mesh.ts');
    await benchPmeMesh({ order: o.order ? Number(o.order) : 4, rounds: o.reps && o.reps !== '5' ? Number(o.reps) : 15 });
    return 0;
  }
  if (family === 'pme-fft') {
    // the PME mesh's FFT against the registry's candidates installed under KERNFORGE_FFT_CANDIDATES (bench/pme-fft.ts)
    const { benchPmeFft } = await import('../bench/pme-fft.ts');
    await benchPmeFft({ reps: o.reps ? Number(o.reps) : 9, dir: process.env.KERNFORGE_FFT_CANDIDATES });
    return 0;
  }
  if (family === 'browser') {
    // the wasm GEM kernel in a page (headless Chromium) against Node (bench/browser.ts)
    await (await import('../bench/browser.ts')).benchBrowser({ reps: Number(o.reps ?? 5) });
    return 0;
  }
  if (family === 'package') {
    await (await import('../bench/package.ts')).benchPackage({ reps: o.reps === undefined ? undefined : Number(o.reps) });
    return 0;
  }
  if (family === 'md') {
    const { benchMdWorkload } = await import('../bench/md-workload.ts');
    await benchMdWorkload({
      workDir: resolve(o.workDir ?? '.kernforge/bench-md'),
      ljSteps: Number(o.ljSteps ?? 1000),
      waterSteps: Number(o.waterSteps ?? 200),
      skipLj: (o.skip ?? '').split(',').includes('lj'),
      skipWater: (o.skip ?? '').split(',').includes('water'),
      skipPme: (o.skip ?? '').split(',').includes('pme'),
      ...(o.threads ? { threads: (await import('../runtime/parallel/pool.ts')).parseThreadList(o.threads) } : {}),
      ...(o.rounds !== undefined ? { rounds: /^[1-9]\d*$/.test(String(o.rounds)) ? Number(o.rounds) : (() => { throw new UserError(`--rounds ${o.rounds}: a whole number of rounds, 1 or more, is allowed`); })() } : {}),
    });
    return 0;
  }
  if (family !== 'md-nonbonded') throw new UserError(`no benchmark for "${family}"; available: md (the MD workload against LAMMPS and GROMACS), md-nonbonded, gem-potential, bigdft-conv, pme-mesh (the PME spread and gather kernels), pme-fft (the PME mesh's FFT against registry libraries), tuner, package (the npm package: size, import time, open() to a first GEM result), browser (the wasm GEM kernel in headless Chromium against Node)`);
  const { benchMdNonbonded } = await import('../bench/md-nonbonded.ts');
  await benchMdNonbonded({
    molecules: Number(o.molecules ?? 3000),
    reps: Number(o.reps ?? 5),
    targets: String(o.targets ?? 'ts,wgsl').split(','),
    precisions: String(o.precisions ?? 'f32,f64').split(','),
    full: o.full !== 'no',
  });
  return 0;
}

async function cmdMain(): Promise<number> {
  const t0 = performance.now();
  const secs = () => `${((performance.now() - t0) / 1000).toFixed(0)} s`;
  console.log('kernforge main job: generate if needed, devices, a short autotuning, then the GEM, BigDFT and MD workloads with the tuned variants\n');
  console.log('1. generate');
  if ((await cmdGenerate([], { check: true, quiet: true })) !== 0) await cmdGenerate([], { quiet: true });
  console.log('\n2. devices');
  await cmdDevices();
  // BigDFT is tuned on the workload's own 128x126x130 grid: what wins on the small grid does not
  // carry over to one that no longer fits in cache (measured: 1.8x slower H).
  const problems = ['water-rf-small', 'lj-fluid-small', 'water-rf-f32-small', 'lj-fluid-f32-small', 'surface-small', 'magic', 'magic-t', 'kinetic'];
  console.log('\n3. autotune (short: the quick MD and GEM problem classes and the BigDFT workload grid, the additive-model strategy, at most 8 evaluations each, 3 timed runs; `kernforge tune` does the full search)');
  const { runTuneCommand } = await import('./commands/tune.ts');
  const tuned = await runTuneCommand([], { device: 'cpu', problem: problems, strategy: 'model', maxEvals: 8, reps: 3, seed: 1, timeLimit: 180 });
  if (tuned.status !== 0) return tuned.status;
  const summary: string[] = [];
  for (const r of tuned.outcome.rows) {
    if (!r.chosenKey) continue;
    const kept = r.chosenKey !== r.bestKey;
    summary.push(
      `tuned ${r.family} ${r.problem}: ${shortKey(r.chosenKey)}` +
        (kept ? ` (the default: the fastest, ${shortKey(r.bestKey!)}, was within the measured spread)` : ` ${r.bestMs!.toFixed(2)} ms${r.speedup ? `, ${r.speedup.toFixed(2)}x the default` : ''}`),
    );
  }
  const data = new URL('../data/', import.meta.url).pathname;
  const out = mkdtempSync(join(tmpdir(), 'kernforge-'));
  const { runGemWorkload, formatGemSummary } = await import('../runtime/gem/workload.ts');
  for (const mol of ['mb_hhelix', '1uwo_A']) {
    console.log(`\n4. GEM surface potential: ${mol} (eps 80/1, salt 0) -> ${join(out, `${mol}.phi`)}`);
    const s = await runGemWorkload({ molecule: join(data, `gem/${mol}.pqr`), vert: join(data, `gem/${mol}.vert`), output: join(out, `${mol}.phi`) });
    console.log(formatGemSummary(s));
    summary.push(`GEM ${mol}: ${s.atoms} atoms x ${s.vertices} vertices, ${shortKey(s.variant, 'target')} (${s.variantSource}), kernel ${(s.kernelSeconds * 1000).toFixed(1)} ms, ${(s.pairsPerSecond / 1e6).toFixed(0)} Mpairs/s${s.device ? ` (${s.device})` : ''}`);
  }
  console.log('\n5. BigDFT local Hamiltonian on 128x126x130 (f64, 3 applications)');
  const { runBigdftWorkload } = await import('../runtime/bigdft/hamiltonian.ts');
  const b = await runBigdftWorkload({ grid: '128x126x130', iterations: 3, log: (m: string) => console.log(m) });
  summary.push(`BigDFT 128x126x130: H ${b.medianMs.h.toFixed(1)} ms per application (${b.gflops.h.toFixed(2)} GFlop/s, ${b.threads} thread${b.threads > 1 ? 's' : ''}); MF ${shortKey(b.variants.mf, 'target')}, MF^T ${shortKey(b.variants.mft, 'target')}, T ${shortKey(b.variants.kin, 'target')}`);
  console.log('\n6. MD: MiniMD LJ fluid, 4,000 atoms, 100 steps of NVE (f64 kernels, 1x1 list as MiniMD, to compare the thermo digit for digit)');
  const { runMdWorkload } = await import('../runtime/md/workload.ts');
  const lj = await runMdWorkload({ system: 'lj', cells: 10, steps: 100, thermo: 50, cluster: '1x1', precision: 'f64', log: (m: string) => console.log(m) });
  const n = lj.prepared.run.mass.length;
  const last = lj.outcome.thermo.at(-1)!;
  const got = [last.T.toPrecision(7), (last.epot / n).toPrecision(7), last.P.toPrecision(7)].join(' ');
  const miniMd = '0.7208599 -5.701261 0.5236926';
  console.log(`step 100 (T, U/N, P): ${got}; MiniMD prints ${miniMd}: ${got === miniMd ? 'identical' : 'DIFFERENT'}`);
  summary.push(`MD LJ fluid (MiniMD): ${lj.stepsPerSecond.toFixed(1)} steps/s, thermo at step 100 ${got === miniMd ? 'identical to' : 'DIFFERENT from'} MiniMD's`);
  console.log('\n7. MD: SPC/E water (884 molecules, GROMACS-equilibrated), RF rc 1.0 nm, SETTLE, leap-frog, 200 steps, the tuned variant');
  const w = await runMdWorkload({ system: 'water', gro: (await import('../runtime/data.ts')).BUNDLED_WATER_GRO, steps: 200, thermo: 50, log: (m: string) => console.log(m) });
  summary.push(`MD SPC/E water: ${w.stepsPerSecond.toFixed(1)} steps/s with ${shortKey(w.prepared.run.keyF)} on ${w.prepared.run.threads ?? 1} thread(s), drift ${w.drift.toExponential(2)} kJ/mol/ps per atom`);
  console.log(`\nSummary (${secs()} in all):`);
  for (const l of summary) console.log(`  ${l}`);
  return 0;
}

/** Run the CLI; returns the exit status. */
export async function main(argv: string[]): Promise<number> {
  const program = new Command();
  let status = 0;
  const wrap =
    <A extends unknown[]>(f: (...a: A) => Promise<number>) =>
    async (...a: A) => {
      status = await f(...a);
    };
  program.name('kernforge').description('Generate, verify and benchmark specialized compute kernels').exitOverride();
  program
    .command('generate')
    .description('render the default library of every spec (or the given specs) into generated/ (or --out)')
    .argument('[specs...]', 'spec files (default: specs/*.yaml)')
    .option('-o, --out <dir>', 'output folder')
    .option('--check', 'compare with the output folder instead of writing; exit 1 if stale')
    .option('--force', 'replace an --out folder that is not empty and holds no previous kernforge output (everything in it is lost)')
    .action(wrap(cmdGenerate));
  program.command('list').description('list library variants').argument('[family]').option('-t, --target <target>').action(wrap(cmdList));
  program.command('render').description('render one variant (library or any valid point of the space)').argument('<key>').option('-o, --output <file>').action(wrap(cmdRender));
  program
    .command('verify')
    .description("check variants against the f64 reference with their family's gate (default: every library variant of the target)")
    .argument('[keys...]')
    .option('-t, --target <target>', 'ts, wasm, wgsl, gpujs or all', 'ts')
    .option('-f, --family <family>', 'md-nonbonded, gem-potential or bigdft-conv (default: all)')
    .action(wrap(cmdVerify));
  program
    .command('bench')
    .description('benchmark a family, or the MD workload (md) against LAMMPS and GROMACS')
    .argument('<family>')
    .option('--molecules <n>', 'md-nonbonded: SPC/E molecules in the water box; gem-potential: molecule names (mb_hhelix,1uwo_A)', '3000')
    .option('--grid <n1xn2xn3>', 'bigdft-conv: grid (default 128x126x130)')
    .option('--density <d>', 'gem-potential: vertices per A^2 of generated surfaces (default 3)')
    .option('--large-reps <n>', 'gem-potential: timed runs per variant on a generated surface (default 1)')
    .option('--reps <n>', 'timed repetitions per variant', '5')
    .option('--targets <list>', 'md-nonbonded: ts,wgsl (default both); gem-potential, bigdft-conv: any of ts,wasm,wgsl,gpujs or gpujs:<mode> (cpu, webasm, webgpu, headlessgl) (default all)')
    .option('--threads <list>', 'md, gem-potential, bigdft-conv: thread counts for the best rows on worker threads, e.g. 1,2 (default 1, 2, 4, ... up to the cores)')
    .option('--keys <list>', 'bigdft-conv: ladder variant keys to run (default all)')
    .option('--order <n>', 'pme-mesh: PME order, 4 to 6 (default 4)')
    .option('--precisions <list>', 'f32,f64', 'f32,f64')
    .option('--full <yes|no>', 'print every variant, not only the fastest per shape', 'yes')
    .option('--lj-steps <n>', 'md: LJ fluid steps (LAMMPS in.lj, 32,000 atoms)', '1000')
    .option('--water-steps <n>', 'md: water steps (GROMACS times twice as many and keeps the second half)', '200')
    .option('--skip <lj,water,pme>', 'md: leave out these systems (comma-separated: lj, water (reaction field), pme (PME water))')
    .option('--work-dir <dir>', 'md: folder for the LAMMPS and GROMACS runs', '.kernforge/bench-md')
    .option('--rounds <n>', 'md: rounds of full runs, the peers and each thread count in turn; the fastest round of each is compared (default 2)')
    .option('--cache <dir>', 'tuner: tune cache folder (default .kernforge/tune)')
    .option('--seeds <n>', 'tuner: seeds per strategy (default 25)')
    .action(wrap(cmdBench));
  program.command('devices').description('what this machine offers').action(wrap(cmdDevices));
  const run = program.command('run').description('run a workload with the generated kernels');
  const { registerGem } = await import('./commands/gem.ts');
  const { registerBigdft } = await import('./commands/bigdft.ts');
  registerGem(run);
  const { registerAnalyze } = await import('./commands/analyze.ts');
  registerAnalyze(program);
  const { registerReport } = await import('./commands/report.ts');
  registerReport(program);
  const { registerMergeTuned } = await import('./commands/merge-tuned.ts');
  registerMergeTuned(program);
  const { registerServe } = await import('./commands/serve.ts');
  registerServe(program);
  registerBigdft(run);
  const { registerMd } = await import('./commands/md.ts');
  registerMd(run);
  const { registerTune } = await import('./commands/tune.ts');
  registerTune(program, (st) => (status = st));
  const { registerBatch } = await import('./commands/batch.ts');
  registerBatch(program, (st) => (status = st));
  program.command('main').description('the main job (npm start)').action(wrap(cmdMain));
  try {
    await program.parseAsync(argv, { from: 'user' });
    return status;
  } catch (e) {
    if (e instanceof CommanderError) return e.exitCode;
    const err = e as Error;
    if (isUserError(err)) {
      console.error(`kernforge: error: ${err.message}`);
      return 2;
    }
    throw e;
  }
}
