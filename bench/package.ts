// `kernforge bench package`: the package as users get it. Packs the tarball, installs it into an
// empty folder, and measures there, each in fresh plain-Node processes (no loader):
//   - the tarball, packed and unpacked, and what dominates it;
//   - `import('kernforge')` (median of --reps processes), against `import('node:fs')` in the same
//     processes as the floor a process pays anyway;
//   - open() to the first GEM result on the bundled 1uwo_A (1441 atoms x 16529 vertices), split
//     into import, open(), reading the molecule, the first potential (verification included)
//     and a second potential (the variant already verified), against the kernel alone.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';

const root = new URL('..', import.meta.url).pathname;
const median = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)]!;

export async function benchPackage(o: { reps?: number } = {}): Promise<void> {
  const reps = o.reps ?? 7;
  const out = mkdtempSync(join(tmpdir(), 'kf-bench-pack-'));
  const packed = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', out], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }))[0] as { filename: string; size: number; unpackedSize: number; files: { path: string; size: number }[] };
  const by = new Map<string, number>();
  for (const f of packed.files) {
    const top = f.path.split('/').slice(0, f.path.startsWith('dist/generated/') ? 3 : 2).join('/');
    by.set(top, (by.get(top) ?? 0) + f.size);
  }
  console.log(`tarball ${packed.filename}: ${(packed.size / 2 ** 20).toFixed(2)} MiB packed, ${(packed.unpackedSize / 2 ** 20).toFixed(2)} MiB unpacked, ${packed.files.length} files (goal: at most 5 MB packed)`);
  console.log('  unpacked by folder:');
  for (const [k, v] of [...by].sort((a, b) => b[1] - a[1]).slice(0, 10)) console.log(`    ${(v / 2 ** 20).toFixed(2).padStart(6)} MiB  ${k}`);

  const dir = mkdtempSync(join(tmpdir(), 'kf-bench-consumer-'));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  execFileSync('npm', ['install', '--prefer-offline', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error', join(out, packed.filename)], { cwd: dir, stdio: 'ignore' });
  const env = { PATH: process.env.PATH!, HOME: process.env.HOME ?? dir, KERNFORGE_TUNED: 'none' };
  const run = (file: string, text: string) => {
    writeFileSync(join(dir, file), text);
    const r = spawnSync(process.execPath, [file], { cwd: dir, encoding: 'utf8', env });
    if (r.status !== 0) throw new Error(`${file} failed: ${r.stderr}`);
    return JSON.parse(r.stdout.trim().split('\n').pop()!) as Record<string, number>;
  };
  const imports: number[] = [];
  const floor: number[] = [];
  for (let i = 0; i < reps; i++) {
    const r = run('import.mjs', "let t = performance.now(); await import('node:fs'); const f = performance.now() - t; t = performance.now(); await import('kernforge'); console.log(JSON.stringify({ f, k: performance.now() - t }));");
    imports.push(r.k!);
    floor.push(r.f!);
  }
  console.log(`\nimport('kernforge') in plain node: median ${median(imports).toFixed(0)} ms over ${reps} processes (min ${Math.min(...imports).toFixed(0)}, max ${Math.max(...imports).toFixed(0)}); import('node:fs') ${median(floor).toFixed(1)} ms (goal: at most 150 ms)`);

  const gem: Record<string, number>[] = [];
  for (let i = 0; i < Math.max(3, Math.floor(reps / 2)); i++) {
    gem.push(run('gem.mjs', `
      const t0 = performance.now();
      const k = await import('kernforge');
      const t1 = performance.now();
      const kf = await k.open();
      const t2 = performance.now();
      const m = k.bundledMolecule('1uwo_A');
      const atoms = k.readPqr(m.pqr), v = k.readVert(m.vert);
      const t3 = performance.now();
      await kf.gem.potential(atoms, v);
      const t4 = performance.now();
      const r = await kf.gem.potential(atoms, v);
      const t5 = performance.now();
      const mod = await k.loadTsModule(r.key);
      const args = k.gemArgs(atoms, v, r.params, 'f32');
      const t6 = performance.now(); mod.kernel(args); const t7 = performance.now();
      console.log(JSON.stringify({ imp: t1 - t0, open: t2 - t1, read: t3 - t2, first: t4 - t3, second: t5 - t4, kernel: t7 - t6, total: t4 - t0 }));
    `));
  }
  const col = (k: string) => median(gem.map((g) => g[k]!));
  console.log(`\nopen() to the first GEM result, 1uwo_A (1441 atoms x 16529 vertices), median of ${gem.length} processes:`);
  console.log(`  import ${col('imp').toFixed(0)} ms, open() ${col('open').toFixed(1)} ms, read .pqr/.vert ${col('read').toFixed(0)} ms, first potential ${col('first').toFixed(0)} ms (variant loaded and verified), second ${col('second').toFixed(0)} ms`);
  console.log(`  total to the first result: ${col('total').toFixed(0)} ms; the kernel alone ${col('kernel').toFixed(0)} ms: the first call costs ${(col('first') / col('kernel')).toFixed(2)}x the kernel, the second ${(col('second') / col('kernel')).toFixed(2)}x`);
}
