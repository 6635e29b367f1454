// The WebAssembly SIMD backend: variants are .wasm binaries (committed, or rendered and assembled
// on demand), compiled once per key and thread (runtime/variants.ts wasmModule; a compiled module
// can be posted to workers). Every wasm kernel uses SIMD128 (f32x4, f64x2), so the target runs
// where WebAssembly.validate accepts a SIMD module; variants with relaxed SIMD (md-nonbonded
// `simd: relaxed`) where it accepts a relaxed_madd module too (probeWasmRelaxedSimd).
import { platform } from '../platform.ts';
import { variantParams, wasmModule } from '../variants.ts';
import type { Backend } from './backend.ts';

/** Outcome of the WebAssembly SIMD probe. */
export interface WasmSimdProbe {
  /** WebAssembly SIMD runs here. */
  ok: boolean;
  /** Why not (the runtime, or KERNFORGE_WASM_SIMD). */
  why?: string;
}

/**
 * The smallest module using SIMD: (func (result v128) (v128.const i32x4 0 0 0 0)). The wasm
 * kernels need nothing beyond SIMD128 (no threads, no relaxed SIMD).
 */
const SIMD_PROBE = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // magic, version
  0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7b, // type section: () -> v128
  0x03, 0x02, 0x01, 0x00, // function section
  0x0a, 0x16, 0x01, 0x14, 0x00, 0xfd, 0x0c, ...new Array<number>(16).fill(0), 0x0b, // code: v128.const 0, end
]);

/**
 * Whether this runtime runs WebAssembly SIMD: WebAssembly.validate accepts a tiny SIMD module.
 * KERNFORGE_WASM_SIMD=off turns the wasm target off (as if the probe failed), to tune without it.
 */
export function probeWasmSimd(): WasmSimdProbe {
  const off = platform().env('KERNFORGE_WASM_SIMD');
  if (/^(off|0|no|false)$/i.test(off ?? '')) return { ok: false, why: `turned off by KERNFORGE_WASM_SIMD=${off}` };
  const wa = (globalThis as { WebAssembly?: typeof WebAssembly }).WebAssembly;
  if (!wa || typeof wa.validate !== 'function') return { ok: false, why: 'this runtime has no WebAssembly' };
  try {
    return wa.validate(SIMD_PROBE) ? { ok: true } : { ok: false, why: `WebAssembly.validate rejects a SIMD (v128) module in ${platform().cpu().runtime} ${platform().cpu().version}` };
  } catch (e) {
    return { ok: false, why: `WebAssembly.validate failed on a SIMD module (${(e as Error).message})` };
  }
}

/**
 * The smallest module using relaxed SIMD: (func (param v128) (result v128) (f32x4.relaxed_madd
 * (local.get 0) (local.get 0) (local.get 0))).
 */
const RELAXED_PROBE = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // magic, version
  0x01, 0x06, 0x01, 0x60, 0x01, 0x7b, 0x01, 0x7b, // type section: (v128) -> v128
  0x03, 0x02, 0x01, 0x00, // function section
  0x0a, 0x0d, 0x01, 0x0b, 0x00, 0x20, 0x00, 0x20, 0x00, 0x20, 0x00, 0xfd, 0x85, 0x02, 0x0b, // code: local.get 0 x3, f32x4.relaxed_madd, end
]);

/**
 * Whether this runtime compiles WebAssembly relaxed SIMD (the md-nonbonded `simd: relaxed`
 * variants): WebAssembly.validate accepts a tiny relaxed_madd module. Chromium 114+ and Node 22+
 * have it; Node 20 behind a V8 flag, which the Node platform sets (runtime/platform/node.ts).
 * Asked each time (a flag set later changes the answer); KERNFORGE_WASM_SIMD=off turns it off too.
 */
export function probeWasmRelaxedSimd(): WasmSimdProbe {
  const simd = probeWasmSimd();
  if (!simd.ok) return simd;
  try {
    return WebAssembly.validate(RELAXED_PROBE)
      ? { ok: true }
      : { ok: false, why: `WebAssembly.validate rejects a relaxed SIMD module in ${platform().cpu().runtime} ${platform().cpu().version} (Node 20: --experimental-wasm-relaxed-simd)` };
  } catch (e) {
    return { ok: false, why: `WebAssembly.validate failed on a relaxed SIMD module (${(e as Error).message})` };
  }
}

/**
 * The keys of `keys` this engine compiles: relaxed SIMD variants (axis `simd`, read through the
 * spec: it is not the last field of every key) only where probeWasmRelaxedSimd says yes.
 */
export async function compilableWasmKeys(keys: string[]): Promise<string[]> {
  if (probeWasmRelaxedSimd().ok) return keys;
  const simd = await Promise.all(keys.map(async (k) => (await variantParams(k)).simd));
  return keys.filter((_, i) => simd[i] !== 'relaxed');
}

/** The WebAssembly SIMD target: available where the SIMD probe passes; load() gives the compiled WebAssembly.Module. */
export const wasmBackend: Backend<WebAssembly.Module> = {
  target: 'wasm',
  description: 'WebAssembly SIMD on the CPU',
  threaded: true,
  async available() {
    const p = probeWasmSimd();
    return p.ok ? { ok: true, detail: 'WebAssembly SIMD128 on this thread and its worker threads' } : { ok: false, why: p.why ?? 'WebAssembly SIMD is not available' };
  },
  // a relaxed SIMD variant where the engine lacks relaxed SIMD: unavailable, said as such
  load: (key) => wasmModule(key).catch(async (e: unknown) => {
    const relaxed = probeWasmRelaxedSimd();
    // the simd axis read through the spec (it is not the last field of every key)
    const simd = relaxed.ok ? undefined : await variantParams(key).then((p) => p.simd, () => undefined);
    if (simd === 'relaxed') throw new Error(`${key} needs WebAssembly relaxed SIMD, which this runtime does not compile: ${relaxed.why}`);
    throw e;
  }),
};
