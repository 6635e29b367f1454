// What the GEM and BigDFT benchmarks share: the gpu.js modes they try, the C compiler's vector
// instructions (asmFacts), and the parsing of the `kernforge bench` options they have in common
// (--threads, --targets). Bad options are UserErrors (runtime/errors.ts).
import { spawnSync } from 'node:child_process';
import { parseThreadList, ThreadCountError } from '../runtime/parallel/pool.ts';
import { GPUJS_MODES, type GpujsMode } from '../runtime/backends/gpujs.ts';
import { UserError } from '../runtime/errors.ts';

/** The gpu.js modes the benchmarks try, in their rows' order: headlessgl last (it cannot share a process with Dawn, so it runs after WebGPU). */
export const BENCH_GPUJS_MODES: readonly GpujsMode[] = [...GPUJS_MODES.filter((m) => m !== 'headlessgl'), 'headlessgl'];

/** The floating-point vector instructions in the assembly a C compiler makes of a file. */
export interface AsmFacts {
  /** Widest register of packed (ps/pd) arithmetic: 512 (zmm), 256 (ymm), 128 (xmm), 0 (scalar only). */
  packedBits: number;
  fma: boolean;
  /** An inverse square root estimate (rsqrtss/ps, rsqrt14ps). */
  rsqrt: boolean;
  /** sqrt or div instructions (or calls to sqrt/sqrtf). */
  sqrt: boolean;
  div: boolean;
}

/** Compile `source` to assembly (`cc -S` with `flags`) and read its floating-point instructions; undefined when that fails. */
export function asmFacts(source: string, flags: string[], cc = 'gcc'): AsmFacts | undefined {
  const r = spawnSync(cc, [...flags, '-S', '-o', '-', source], { encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.status !== 0 || !r.stdout) return undefined;
  const f: AsmFacts = { packedBits: 0, fma: false, rsqrt: false, sqrt: false, div: false };
  for (const line of r.stdout.split('\n')) {
    const m = /^\s+(v?)(fn?m(?:add|sub)\d*|mul|add|sub|div|sqrt|rsqrt\d*|max|min)(p|s)([sd])\b/.exec(line);
    if (/call\s+sqrtf?@/.test(line)) f.sqrt = true;
    if (!m) continue;
    const op = m[2]!;
    if (op.startsWith('fm') || op.startsWith('fnm')) f.fma = true;
    if (op.startsWith('rsqrt')) f.rsqrt = true;
    if (op === 'sqrt') f.sqrt = true;
    if (op === 'div') f.div = true;
    if (m[3] === 'p') f.packedBits = Math.max(f.packedBits, /%zmm/.test(line) ? 512 : /%ymm/.test(line) ? 256 : 128);
  }
  return f;
}

/** "512-bit packed, FMA, rsqrt estimate" and the like. */
export function formatAsmFacts(f: AsmFacts): string {
  const parts = [f.packedBits > 0 ? `${f.packedBits}-bit packed arithmetic` : 'scalar arithmetic only'];
  if (f.fma) parts.push('FMA');
  if (f.rsqrt) parts.push('rsqrt estimate');
  if (f.sqrt || f.div) parts.push([f.sqrt ? 'sqrt' : '', f.div ? 'div' : ''].filter(Boolean).join(' + '));
  return parts.join(', ');
}

/** parseThreadList for an optional option value (undefined or '' gives undefined), as a user error. */
export function parseThreadCounts(v: string | number | undefined, option = '--threads'): number[] | undefined {
  if (v === undefined || String(v).trim() === '') return undefined;
  try {
    return parseThreadList(v, option);
  } catch (e) {
    if (e instanceof ThreadCountError) throw new UserError(e.message);
    throw e;
  }
}

/** The targets the bench commands accept: ts, wasm, wgsl, gpujs (every gpu.js mode), gpujs:<mode>. */
export function parseTargets(v: string | undefined, option = '--targets'): Set<string> | undefined {
  if (v === undefined || v.trim() === '') return undefined;
  const allowed = ['ts', 'wasm', 'wgsl', 'gpujs', ...BENCH_GPUJS_MODES.map((m) => `gpujs:${m}`)];
  const list = v.split(',').map((s) => s.trim()).filter(Boolean);
  const bad = list.filter((t) => !allowed.includes(t));
  if (bad.length || list.length === 0) throw new UserError(`${option} ${v}: unknown target${bad.length > 1 ? 's' : ''} ${bad.join(', ') || '(empty list)'}; allowed: ${allowed.join(', ')}`);
  return new Set(list);
}

/** Whether a key of target `target` (gpu.js: of mode `mode`) is among `targets`. */
export function targetWanted(targets: Set<string> | undefined, target: string, mode?: string): boolean {
  if (!targets) return true;
  if (target === 'gpujs') return targets.has('gpujs') || targets.has(`gpujs:${mode}`);
  return targets.has(target);
}
