// Post-steps per template extension: a target whose template output is text that is turned
// into bytes at generate time (WebAssembly text -> binary with wabt). The text stays next to
// the bytes for reading; the bytes are what the manifest names and the runtime loads.
import wabtInit from 'wabt';

export interface PostStep {
  /** Extension of the produced file (e.g. wasm for wat). */
  ext: string;
  /** Text to bytes; deterministic (same text, same bytes). */
  run(name: string, text: string): Promise<Uint8Array>;
}

let wabt: ReturnType<typeof wabtInit> | undefined;

/** Assemble WebAssembly text (SIMD, relaxed SIMD and shared memories enabled) into a binary module, without debug names. */
export async function assembleWat(name: string, text: string): Promise<Uint8Array> {
  wabt ??= wabtInit();
  const w = await wabt;
  // threads: modules may import a shared memory (worker threads running passes on one memory);
  // relaxed_simd: the md-nonbonded `simd: relaxed` variants (relaxed_madd)
  const features = { simd: true, threads: true, relaxed_simd: true };
  const mod = w.parseWat(name, text, features);
  try {
    // wabt's typings omit validate's feature argument; without it validation rejects shared memories
    (mod as unknown as { validate(f: typeof features): void }).validate(features);
    return Uint8Array.from(mod.toBinary({ log: false, write_debug_names: false, canonicalize_lebs: true }).buffer);
  } finally {
    mod.destroy();
  }
}

const POST_STEPS: Record<string, PostStep> = {
  wat: { ext: 'wasm', run: assembleWat },
};

/** The post-step of a template extension, if it has one. */
export function postStep(kernelExt: string): PostStep | undefined {
  return POST_STEPS[kernelExt];
}
