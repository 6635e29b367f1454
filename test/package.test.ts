// The published package, as a new user gets it: `npm pack`, installed into an empty folder with
// nothing beside it (no repository, no ../shared), then used there with plain Node (no loader, no
// flags): the API (open() and the GEM potential of the bundled 1uwo_A against the f64 reference),
// the command (`kernforge run gem`, `kernforge run bigdft`), and a strict TypeScript consumer of
// the shipped .d.ts. Also: what the tarball holds, and that `import 'kernforge'` loads no
// build-time dependency (its static import graph).
import { describe, it, expect, beforeAll } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, readFileSync, existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import * as esbuild from 'esbuild';

const root = new URL('..', import.meta.url).pathname;
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
let dir: string; // the consumer project
let tarball: string;
let files: string[];

beforeAll(() => {
  const out = mkdtempSync(join(tmpdir(), 'kf-pack-'));
  // prepack builds dist/ (npm run build) first
  const packed = JSON.parse(execFileSync(npm, ['pack', '--json', '--pack-destination', out], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })) as { filename: string; size: number; files: { path: string }[] }[];
  tarball = join(out, packed[0]!.filename);
  files = packed[0]!.files.map((f) => f.path);
  dir = mkdtempSync(join(tmpdir(), 'kf-consumer-'));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  // --ignore-scripts: no dependency of kernforge needs an install script on Linux; it keeps npm from
  // compiling gpu.js's optional headless-gl addon from source (minutes on 2 cores) where build tools exist
  execFileSync(npm, ['install', '--prefer-offline', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error', tarball], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], timeout: 300_000 });
}, 400_000);

const node = (args: string[], env: Record<string, string> = {}) =>
  spawnSync(process.execPath, args, { cwd: dir, encoding: 'utf8', env: { PATH: process.env.PATH!, HOME: process.env.HOME ?? dir, KERNFORGE_TUNED: 'none', ...env }, timeout: 300_000 });

describe('the npm package', () => {
  it('ships the compiled product and its data, not the repository', () => {
    expect(files).toContain('dist/runtime/index.js');
    expect(files).toContain('dist/runtime/index.d.ts');
    expect(files).toContain('dist/cli/bin.js');
    expect(files).toContain('dist/data/gem/1uwo_A.pqr');
    expect(files).toContain('dist/data/bigdft/filters.json');
    expect(files).toContain('dist/generated/manifest.json');
    for (const f of files) expect(f).not.toMatch(/^(test|bench|\.ci|cli|runtime|generator)\/|\.c$|\.test\.|^dist\/bench\/|\.wat$|\/ts\/(?!abi)[^/]+\.ts$/);
    expect(statSync(tarball).size).toBeLessThan(5 * 2 ** 20);
  });

  it('plain node imports kernforge and computes the GEM potential of 1uwo_A through open(), within the f32 bar of the f64 reference', () => {
    writeFileSync(join(dir, 'gem.mjs'), `
      import { open, readPqr, readVert, bundledMolecule, gemReference } from 'kernforge';
      const kf = await open();
      const m = bundledMolecule('1uwo_A');
      const atoms = readPqr(m.pqr), vertices = readVert(m.vert);
      const r = await kf.gem.potential(atoms, vertices);
      const ref = gemReference(atoms, vertices, r.params);
      let worst = 0, scale = 0;
      for (let i = 0; i < ref.length; i++) { worst = Math.max(worst, Math.abs(r.phi[i] - ref[i])); scale = Math.max(scale, Math.abs(ref[i])); }
      await kf.close();
      console.log(JSON.stringify({ key: r.key, source: r.source, n: r.phi.length, worst, scale, phi0: r.phi[0], ref0: ref[0] }));
    `);
    const r = node(['gem.mjs']);
    expect(r.stderr).not.toMatch(/Error|at .*\(/);
    expect(r.status).toBe(0);
    const o = JSON.parse(r.stdout.trim().split('\n').pop()!) as { key: string; source: string; n: number; worst: number; scale: number; phi0: number; ref0: number };
    expect(o.n).toBe(16529);
    expect(o.key).toBe('gem-potential.ts.region1.f32.zero.unroll4.div.block0');
    expect(o.source).toBe('default');
    // f32 accumulation over 1441 atoms: the gate's bar is 5e-6 of the sum of |terms|; absolute within 1e-4 of a potential of order 10
    expect(o.worst).toBeLessThan(1e-4);
    expect(o.scale).toBeGreaterThan(1);
    expect(Math.abs(o.phi0 - o.ref0)).toBeLessThan(1e-4);
  });

  it('bad input to the API is a typed error naming the argument, not a crash in a kernel', () => {
    writeFileSync(join(dir, 'bad.mjs'), `
      import { open, ApiInputError, KernforgeError, readPqr, bundledMolecule } from 'kernforge';
      const out = [];
      const t = async (f) => { try { await f(); out.push('no error'); } catch (e) { out.push((e instanceof ApiInputError ? 'ApiInputError' : e instanceof KernforgeError ? e.name : 'OTHER ' + e.name) + ': ' + e.message); } };
      const kf = await open({ tuned: false });
      const atoms = readPqr(bundledMolecule('mb_hhelix').pqr);
      const v = { n: 2, x: new Float64Array(2), y: new Float64Array(2), z: new Float64Array(2), nx: new Float64Array(2), ny: new Float64Array(2), nz: Float64Array.of(1, NaN) };
      await t(() => kf.gem.potential(atoms, v));
      await t(() => kf.gem.potential(atoms, { ...v, x: new Float64Array(3) }));
      await t(() => kf.bigdft.apply('magic', new Float64Array(10), [20, 20, 20]));
      await t(() => kf.bigdft.apply('laplace', new Float64Array(8000), [20, 20, 20]));
      await t(() => kf.gem.potential(atoms, { ...v, nz: new Float64Array(2) }, { variant: 'gem-potential.cuda.region1' }));
      await t(() => open({ targets: ['ts', 'cuda'] }));
      await t(() => open({ tuned: 42 }));
      console.log(JSON.stringify(out));
    `);
    const r = node(['bad.mjs']);
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout.trim().split('\n').pop()!) as string[];
    expect(out[0]).toBe('ApiInputError: gem.potential: vertices.nz[1] = NaN: every value must be a finite number');
    expect(out[1]).toBe('ApiInputError: gem.potential: vertices.x: has 3 values; allowed: exactly 2');
    expect(out[2]).toBe('ApiInputError: bigdft.apply: field: has 10 values; allowed: exactly 8000');
    expect(out[3]).toBe('ApiInputError: bigdft.apply: filter: got "laplace"; allowed: magic, magic-t, kinetic');
    expect(out[4]).toMatch(/^UnknownVariantError: .*cuda/);
    expect(out[5]).toBe('ApiInputError: open: targets[1]: got "cuda"; allowed: ts, wasm, wgsl, gpujs');
    expect(out[6]).toBe('ApiInputError: open: tuned: got 42; allowed: a path to a kernforge-tuned.json, or false');
  });

  it('the kernforge command runs gem on a bundled molecule and bigdft on 32x32x32, compiled, with no loader', () => {
    const bin = join(dir, 'node_modules', '.bin', 'kernforge');
    expect(existsSync(bin)).toBe(true);
    const g = node([bin, 'run', 'gem', '1uwo_A', '-o', 'phi.out']);
    expect(g.stderr).not.toMatch(/at .*\(|ERR_/);
    expect(g.status).toBe(0);
    const lines = readFileSync(join(dir, 'phi.out'), 'utf8').trimEnd().split('\n');
    expect(lines.length - 1).toBe(16529);
    const b = node([bin, 'run', 'bigdft', '--grid', '32x32x32']);
    expect(b.status).toBe(0);
    expect(b.stdout).toMatch(/<psi\|H psi> = \d\.\d+/);
    const bad = node([bin, 'run', 'bigdft', '--grid', '32x32']);
    expect(bad.status).toBe(2);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
    const bench = node([bin, 'bench', 'gem-potential']);
    expect(bench.status).toBe(2);
    expect(bench.stderr).toContain('clone of the kernforge repository');
  });

  it("generates a library from a user's spec with the package's generator (kernforge generate --out)", () => {
    const spec = readFileSync(join(dir, 'node_modules/kernforge/dist/specs/md-nonbonded.yaml'), 'utf8').replace(/\nlibrary:[\s\S]*$/, `
library:
  - { target: [ts], interaction: [lj-rf], ljComb: [geom], ljShift: [shift], precision: [f64], output: [fe], cluster: [4x4], excl: [mask], cutoff: [branch] }
  - { target: [wasm], interaction: [lj-rf], ljComb: [geom], ljShift: [shift], precision: [f32], output: [f], cluster: [4x4], excl: [mask], cutoff: [mask], simd: [simd128] }
`);
    writeFileSync(join(dir, 'my.yaml'), spec);
    const bin = join(dir, 'node_modules', '.bin', 'kernforge');
    const r = node([bin, 'generate', 'my.yaml', '--out', 'kernels']);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const m = JSON.parse(readFileSync(join(dir, 'kernels/manifest.json'), 'utf8')) as { variants: { key: string; file: string }[] };
    expect(m.variants.map((v) => v.key)).toEqual(['md-nonbonded.ts.lj-rf.geom.shift.f64.fe.4x4.mask.branch', 'md-nonbonded.wasm.lj-rf.geom.shift.f32.f.4x4.mask.mask.simd128']);
    expect(existsSync(join(dir, 'kernels/md-nonbonded/ts.bundle.js'))).toBe(true);
    expect(readFileSync(join(dir, 'kernels', m.variants[1]!.file)).subarray(0, 4)).toEqual(Buffer.from([0, 0x61, 0x73, 0x6d])); // \0asm
    // without --out it refuses to touch the package's own library
    const bad = node([bin, 'generate']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('give --out');
  });

  it('a strict TypeScript consumer type-checks against the shipped .d.ts', () => {
    writeFileSync(join(dir, 'consumer.ts'), `
      import { open, readPqr, readVert, bundledMolecule, ApiInputError, type GemPotential, type Kernforge, type BigdftResult } from 'kernforge';
      const kf: Kernforge = await open({ tuned: false, targets: ['ts', 'wasm'], threads: 1 });
      const m = bundledMolecule('1uwo_A');
      const r: GemPotential = await kf.gem.potential(readPqr(m.pqr), readVert(m.vert!), { epsOut: 80, salt: 0 });
      const phi0: number = r.phi[0]!;
      const b: BigdftResult = await kf.bigdft.apply('kinetic', new Float64Array(32 ** 3), [32, 32, 32], { h: 0.4 });
      const err: boolean = new ApiInputError('x') instanceof Error;
      console.log(phi0, b.y.length, err);
      await kf.close();
    `);
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, noEmit: true, target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', skipLibCheck: false, noUncheckedIndexedAccess: true, exactOptionalPropertyTypes: true }, files: ['consumer.ts'] }));
    const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
    const ok = spawnSync(process.execPath, [tsc, '-p', dir], { encoding: 'utf8' });
    expect(ok.stdout + ok.stderr).toBe('');
    expect(ok.status).toBe(0);
    // and it would catch a misuse
    writeFileSync(join(dir, 'consumer.ts'), `import { open } from 'kernforge';\nconst kf = await open();\nconst s: string = (await kf.gem.potential(0 as never, 0 as never)).phi;\nconsole.log(s);\n`);
    const bad = spawnSync(process.execPath, [tsc, '-p', dir], { encoding: 'utf8' });
    expect(bad.status).not.toBe(0);
    expect(bad.stdout).toContain("Type 'Float64Array");
  });
});

describe("import 'kernforge'", () => {
  it('statically loads no build-time dependency (generator, report, bundler, loader) and no gpu.js', async () => {
    const r = await esbuild.build({ entryPoints: [join(root, 'runtime/index.ts')], bundle: true, platform: 'node', format: 'esm', write: false, metafile: true, outfile: 'x.js', logLevel: 'silent', external: ['webgpu', 'gl'] });
    const ins = r.metafile.inputs;
    const seen = new Set<string>();
    const stack = ['runtime/index.ts'];
    while (stack.length > 0) {
      const f = stack.pop()!;
      if (seen.has(f)) continue;
      seen.add(f);
      for (const i of ins[f]?.imports ?? []) if (i.kind === 'import-statement' && !i.external) stack.push(i.path);
    }
    expect(seen.size).toBeGreaterThan(30);
    const packages = new Set([...seen].map((f) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(f)?.[1]).filter(Boolean));
    for (const p of ['ts-morph', 'handlebars', 'esbuild', 'wabt', 'chart.js', 'tsx', 'gpu.js', 'ajv', 'yaml']) expect(packages).not.toContain(p);
    expect([...seen].filter((f) => f.startsWith('generator/') || f.startsWith('cli/') || f.startsWith('bench/'))).toEqual([]);
  });
});

describe('self-contained', () => {
  it('no file of the project reads ../shared', () => {
    const hits: string[] = [];
    const walk = (d: string) => {
      for (const e of readdirSync(join(root, d), { withFileTypes: true })) {
        const p = join(d, e.name);
        if (e.isDirectory()) walk(p);
        else if (/\.(ts|mjs|js|sh|yaml|json)$/.test(e.name) && !p.startsWith('test/fixtures') && /(\.\.\/)+shared\/|shared\/data\//.test(readFileSync(join(root, p), 'utf8'))) hits.push(p);
      }
    };
    for (const d of ['runtime', 'generator', 'cli', 'bench', 'test', 'specs', 'scripts', '.ci']) if (existsSync(join(root, d))) walk(d);
    expect(hits.filter((h) => h !== 'test/package.test.ts')).toEqual([]);
  });
});
