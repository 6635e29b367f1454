// An engine without relaxed SIMD, for the tests of what the tuner offers there: while `f` runs,
// WebAssembly.validate refuses every module with a relaxed_madd (0xfd 0x85 0x02), as an engine
// without relaxed SIMD would, so probeWasmRelaxedSimd answers no (compiled code is not affected).
export async function withoutRelaxedSimd<T>(f: () => Promise<T> | T): Promise<T> {
  const validate = WebAssembly.validate;
  WebAssembly.validate = (b: BufferSource) => {
    const u = b instanceof Uint8Array ? b : new Uint8Array(b as ArrayBuffer);
    for (let i = 0; i + 2 < u.length; i++) if (u[i] === 0xfd && u[i + 1] === 0x85 && u[i + 2] === 0x02) return false;
    return validate(b);
  };
  try {
    return await f();
  } finally {
    WebAssembly.validate = validate;
  }
}
