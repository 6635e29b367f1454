// A WebAssembly module the MD engine carries as committed base64 bytes (the search and SETTLE
// modules: no file to fetch, in Node and in the browser alike), compiled once per thread on first
// use, or null where this engine has no WebAssembly SIMD; `enabled` switches it off (the TypeScript
// code then runs, for comparisons and tests).
export class EmbeddedWasm {
  enabled = true;
  private compiled: WebAssembly.Module | null | undefined;

  constructor(private readonly base64: string) {}

  /** The compiled module, or null where it does not compile here or is switched off. */
  module(): WebAssembly.Module | null {
    if (!this.enabled) return null;
    if (this.compiled === undefined) {
      try {
        const bytes = Uint8Array.from(atob(this.base64), (c) => c.charCodeAt(0));
        this.compiled = typeof WebAssembly === 'object' && WebAssembly.validate(bytes) ? new WebAssembly.Module(bytes) : null;
      } catch {
        this.compiled = null;
      }
    }
    return this.compiled;
  }
}
