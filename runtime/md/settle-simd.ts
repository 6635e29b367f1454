// SETTLE in WebAssembly SIMD (issue 16): the module generator/md-settle-wat.ts builds (two
// molecules per f64x2 vector, the operations of runtime/md/settle.ts settleRange in the same
// order, so the same numbers bit for bit), compiled once per thread from the committed bytes
// (runtime/md/settle-simd-bytes.ts: no file to fetch, in Node and in the browser alike). Where
// WebAssembly SIMD is missing, `settleSimd` gives undefined and SETTLE stays in TypeScript.
import { SETTLE_SIMD_WASM } from './settle-simd-bytes.ts';

/** The constants and arrays of one SETTLE call (settle.ts SettleJob's fields that this reads). */
export interface SimdSettleCall {
  mO: number;
  mH: number;
  ra: number;
  rb: number;
  rc: number;
  xOld: Float64Array;
  xNew: Float64Array;
  v: Float64Array | undefined;
  invdt: number;
  doV: boolean;
  virial: boolean;
}

type SettleExport = (
  mols: number, xo: number, xn: number, v: number, acc: number, m0: number, m1: number,
  wO: number, wH: number, mH: number, ra: number, rb: number, rc: number, rc2: number, iv: number, doV: number, virial: number,
) => void;

let compiled: WebAssembly.Module | null | undefined;

/** The compiled module, or null where this engine has no WebAssembly SIMD. */
function settleModule(): WebAssembly.Module | null {
  if (compiled === undefined) {
    try {
      const bytes = Uint8Array.from(atob(SETTLE_SIMD_WASM), (c) => c.charCodeAt(0));
      compiled = typeof WebAssembly === 'object' && WebAssembly.validate(bytes) ? new WebAssembly.Module(bytes) : null;
    } catch {
      compiled = null;
    }
  }
  return compiled;
}

/** SETTLE for one set of molecules and a system of nAtoms atoms in a module instance of its own. */
export class SimdSettle {
  private readonly f64: Float64Array;
  private readonly fn: SettleExport;
  private readonly xo: number;
  private readonly xn: number;
  private readonly vo: number;
  private readonly acc: number;

  private constructor(
    inst: WebAssembly.Instance,
    readonly nMols: number,
    readonly nAtoms: number,
    mols: Int32Array,
  ) {
    const mem = inst.exports.memory as WebAssembly.Memory;
    const molBytes = 8 * Math.ceil((12 * nMols) / 8);
    const xBytes = 24 * nAtoms;
    this.xo = molBytes;
    this.xn = this.xo + xBytes;
    this.vo = this.xn + xBytes;
    this.acc = this.vo + xBytes;
    const need = this.acc + 80;
    const have = mem.buffer.byteLength;
    if (need > have) mem.grow(Math.ceil((need - have) / 65536));
    new Int32Array(mem.buffer, 0, 3 * nMols).set(mols);
    this.f64 = new Float64Array(mem.buffer);
    this.fn = inst.exports.settle as SettleExport;
  }

  /** An instance for these molecules in a system of nAtoms atoms, or undefined without WebAssembly SIMD. */
  static create(mols: Int32Array, nAtoms: number): SimdSettle | undefined {
    const m = settleModule();
    if (!m) return undefined;
    return new SimdSettle(new WebAssembly.Instance(m, {}), mols.length / 3, nAtoms, mols);
  }

  /**
   * SETTLE on molecules [0, 4 floor(nMols / 4)) (a multiple of 4: two vectors of two molecules at
   * a time), xNew and v in place; acc (10 numbers) set to their virial sums and clamp count, as
   * settleRange sets them. Returns how many molecules it took.
   */
  pairs(c: SimdSettleCall, acc: Float64Array): number {
    const n3 = 3 * this.nAtoms;
    const f = this.f64;
    const even = this.nMols & ~3;
    f.set(c.xOld.subarray(0, n3), this.xo / 8);
    f.set(c.xNew.subarray(0, n3), this.xn / 8);
    const doV = c.doV && c.v !== undefined;
    if (doV) f.set(c.v!.subarray(0, n3), this.vo / 8);
    const M = c.mO + 2 * c.mH;
    this.fn(0, this.xo, this.xn, this.vo, this.acc, 0, even, c.mO / M, c.mH / M, c.mH, c.ra, c.rb, c.rc, 2 * c.rc, c.invdt, doV ? 1 : 0, c.virial ? 1 : 0);
    c.xNew.set(f.subarray(this.xn / 8, this.xn / 8 + n3));
    if (doV) c.v!.set(f.subarray(this.vo / 8, this.vo / 8 + n3));
    for (let k = 0; k < 10; k++) acc[k] = f[this.acc / 8 + k]!;
    return even;
  }
}
