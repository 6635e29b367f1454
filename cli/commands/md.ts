// `kernforge run md`: molecular dynamics with the generated md-nonbonded kernels, the MiniMD LJ
// fluid or SPC/E water from a .gro file. Parses the command line and prints the workload's
// report; the workload (setup, the run, thermo, output files) is runtime/md/workload.ts
// runMdWorkload.
import type { Command } from 'commander';
import { runMdWorkload, type RunMdOptions } from '../../runtime/md/workload.ts';
import { MdInputError } from '../../runtime/md/errors.ts';
import { rerunEnergies, rerunReport } from '../../runtime/md/rerun.ts';

const int = (s: string) => (s === undefined ? undefined : Number(s));

/**
 * run md --replicas R [--shard K/N]: the options as parsed go to the replica shard
 * (runtime/batch/md.ts); without --shard, every replica as shard 0/1 and the table at once.
 */
function replicaRunner(o: Record<string, string | undefined>, cmd: Command) {
  return async (md: RunMdOptions): Promise<void> => {
    const { parseShard, BatchInputError } = await import('../../runtime/batch/shard.ts');
    const { runMdShard } = await import('../../runtime/batch/md.ts');
    if (o.replicas === undefined) throw new BatchInputError('--shard splits the replicas of a run: give --replicas R');
    for (const [opt, name] of [['traj', '--traj'], ['confout', '-c'], ['stateOut', '--state-out']] as const) {
      if (o[opt] !== undefined) throw new BatchInputError(`${name} names one file, but replicas write their summaries under --out-dir (${o.outDir})`);
    }
    const replicas = Number(o.replicas);
    const shard = o.shard === undefined ? { k: 0, n: 1 } : parseShard(o.shard);
    let root: Command = cmd;
    while (root.parent) root = root.parent;
    const command = [...((root as unknown as { rawArgs?: string[] }).rawArgs ?? [])];
    const { log: _l, traj: _t, confout: _c, stateOut: _s, ...rest } = md;
    void _l, _t, _c, _s;
    const r = await runMdShard({ ...rest, replicas, shard, outDir: o.outDir!, command, log: (l) => console.log(l) });
    if (o.shard !== undefined) return console.log(`${r.status === 'done' ? 'wrote' : 'kept'} shard ${r.dir}`);
    const { gatherBatch } = await import('../../runtime/batch/gather.ts');
    for (const l of gatherBatch(o.outDir!).lines) console.log(l);
  };
}

export function registerMd(run: Command): void {
  run
    .command('md')
    .description('molecular dynamics with the generated kernels: the MiniMD LJ fluid (default) or SPC/E water from a .gro file')
    .option('--system <lj|water>', 'lj: fcc LJ fluid in LJ units (MiniMD/LAMMPS in.lj); water: SPC/E from --gro', 'lj')
    .option('--gro <file>', 'SPC/E water configuration (residues SOL/WAT/HOH: OW HW1 HW2), or salt-water (the bundled 0.15 M NaCl box with its topology); implies --system water')
    .option('--top <file.top>', 'GROMACS topology for --gro/--rerun (SETTLE water and monatomic ions; force fields from data/md/ff, e.g. oplsaa.ff)')
    .option('--coulomb <rf|pme>', 'electrostatics: rf (reaction field, eps_rf = inf) or pme (smooth particle-mesh Ewald)', 'rf')
    .option('--fourier-spacing <nm>', 'PME: largest grid spacing (grid rounded up to sizes with small prime factors)', '0.12')
    .option('--pme-order <p>', 'PME: B-spline order, 3 to 12', '4')
    .option('--ewald-rtol <r>', 'PME: erfc(beta rc) = r sets the Ewald splitting', '1e-5')
    .option('--pme-mesh <key>', 'PME: the pme-mesh spread/gather variant (a ts or wasm key, or reference; default the fastest CPU one here)')
    .option('--net-charge-correction', 'PME: run a charged system with the uniform-background correction (as GROMACS does) instead of refusing it')
    .option('--rerun <conf.gro>', 'print the energy terms of this configuration as gmx mdrun -rerun does (LJ (SR), Coulomb (SR), Coul. recip., Potential) and exit')
    .option('--continue <state.json>', 'continue from a state file written by --state-out')
    .option('--cells <n>', 'LJ: fcc unit cells per edge (4 atoms each; 10 -> 4,000 atoms, 20 -> 32,000)', '10')
    .option('--density <rho>', 'LJ: reduced density', '0.8442')
    .option('--t0 <T>', 'LJ: initial temperature', '1.44')
    .option('--steps <n>', 'MD steps', '100')
    .option('--dt <dt>', 'time step (LJ default 0.005 tau, at most 0.01; water 0.002 ps, at most 0.005)')
    .option('--force-dt', 'run a time step beyond the stable limit anyway (the run-time checks still stop a run that goes wrong)')
    .option('--nstlist <n>', 'steps between pair searches (LJ 20, water 10)')
    .option('--rc <r>', 'cut-off (LJ 2.5 sigma, water 1.0 nm)')
    .option('--rb <r>', 'Verlet buffer: rlist = rc + rb (LJ default: MiniMD skin 0.3)')
    .option('--verlet-tolerance <e>', 'estimate the buffer for this energy drift per atom per time unit (water default 0.005 kJ/mol/ps)')
    .option('--integrator <vv|leapfrog>', 'LJ default vv, water leapfrog')
    .option('--thermostat <none|v-rescale|berendsen>', 'temperature coupling', 'none')
    .option('--ref-t <T>', 'thermostat / initial-velocity temperature (water 300 K)')
    .option('--tau-t <tau>', 'thermostat time constant')
    .option('--seed <n>', 'random seed (velocities, v-rescale)', '1')
    .option('--variant <key>', 'force-only md-nonbonded TS variant (its fev sibling computes energy steps)')
    .option('--target <t>', 'ts (TypeScript) or wasm (WebAssembly SIMD: f32 4x4/8x4, f64 2x2/4x2/4x4/8x4) when no --variant')
    .option('--cluster <MxN>', 'cluster shape when no --variant: 1x1 2x2 4x2 4x4 4x8 8x4 8x8 (default: the tuned one, else 4x4; wasm f64: 2x2 for the LJ fluid, 4x2 with charges)')
    .option('--precision <p>', 'f64 or f32 when no --variant (default f64; wasm: f32)')
    .option('--list <half|full>', 'neighbour list type for --cluster 1x1 (default half)')
    .option('--ordering <name>', 'memory order of the grid columns: row-major, hilbert, morton, hilbert-rm, hilbert-cm, morton-rm, morton-cm', 'row-major')
    .option('--threads <n>', 'threads for the non-bonded kernels, 1 to twice the CPUs (default: the tuned count, else 1)')
    .option('--reproducible', 'with --threads: the same numbers run after run (a fixed split of the kernels\' work; default: the threads claim chunks of it, faster on a busy machine, equal to round-off)')
    .option('--thermo <n>', 'energies and a thermo line every n steps (default 100)')
    .option('--traj <file>', 'trajectory (.gro or .xyz)')
    .option('--traj-every <n>', 'steps between trajectory frames', '100')
    .option('-c, --confout <file.gro>', 'final configuration with velocities')
    .option('--state-out <file.json>', 'exact final state for --continue')
    .option('--max-memory <size>', "refuse a system whose memory estimate is above this size, e.g. 4G or 512M (default: half of this machine's memory)")
    .option('--replicas <R>', 'run R replicas (seeds derived from --seed and the replica index), each a summary in --out-dir; with --shard only the shard\'s replicas (docs/batch.md)')
    .option('--shard <K/N>', 'run shard K (0-based) of N of the --replicas; files go to <out-dir>/shards/K-of-N/, `kernforge gather <out-dir>` makes one table')
    .option('--out-dir <folder>', 'the folder of --replicas and --shard', 'kernforge-batch')
    .action(async (o: Record<string, string | undefined>, cmd: Command) => {
      const coulomb = { coulomb: o.coulomb as 'rf' | 'pme', fourierSpacing: int(o.fourierSpacing!), pmeOrder: int(o.pmeOrder!), ewaldRtol: int(o.ewaldRtol!), netChargeCorrection: Boolean(o.netChargeCorrection) };
      if (o.rerun) {
        const r = await rerunEnergies({ gro: o.rerun, top: o.top, rc: int(o.rc!), ...coulomb });
        for (const l of rerunReport(r)) console.log(l);
        return;
      }
      await (o.replicas !== undefined || o.shard !== undefined ? replicaRunner(o, cmd) : runMdWorkload)({
        ...coulomb,
        top: o.top,
        pmeMesh: o.pmeMesh,
        system: o.gro || o.system === 'water' ? 'water' : o.system === 'lj' ? 'lj' : (() => { throw new MdInputError(`--system ${o.system}: allowed lj, water`); })(),
        gro: o.gro,
        state: o.continue,
        cells: int(o.cells!),
        density: int(o.density!),
        t0: int(o.t0!),
        steps: int(o.steps!),
        dt: int(o.dt!),
        forceDt: Boolean(o.forceDt),
        nstlist: int(o.nstlist!),
        rc: int(o.rc!),
        rb: int(o.rb!),
        verletTolerance: int(o.verletTolerance!),
        integrator: o.integrator as 'vv' | 'leapfrog' | undefined,
        thermostat: o.thermostat as 'none',
        refT: int(o.refT!),
        tauT: int(o.tauT!),
        seed: int(o.seed!),
        variant: o.variant,
        target: o.target as 'ts' | 'wasm' | undefined,
        cluster: o.cluster,
        precision: o.precision as 'f64',
        list: o.list as 'half',
        ordering: o.ordering,
        threads: o.threads,
        reproducible: Boolean(o.reproducible),
        thermo: int(o.thermo!),
        traj: o.traj,
        trajEvery: int(o.trajEvery!),
        confout: o.confout,
        stateOut: o.stateOut,
        maxMemory: o.maxMemory,
        log: (l: string) => console.log(l),
      });
    });
}
