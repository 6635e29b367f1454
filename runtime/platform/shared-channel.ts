// A polled message channel over shared memory (Platform.channel for the browser platform, which
// has no receiveMessageOnPort): the receiving thread reads what a worker sent without returning to
// its event loop. One SharedArrayBuffer (growable where the engine allows, up to MAX_BYTES) holds
// a header (a lock word, the write and read offsets) and the queued messages; the sender appends
// under the lock (waiting for it with Atomics.wait: senders are workers), poll() takes the next
// message under the lock (spinning the few microseconds a copy holds it) and never waits for one.
// Carried: plain objects whose values are numbers, strings, booleans, null or typed arrays (the
// pair-search parts of runtime/parallel/md.ts); the arrays arrive as copies in unshared memory.
import type { PolledChannel } from '../platform.ts';

const HEADER = 64;
const LOCK = 0, WRITE = 1, READ = 2;
/** The most one channel holds at once (bytes). */
export const MAX_BYTES = 512 * 2 ** 20;
const INITIAL = 1 << 20;

type Typed = Int8Array | Uint8Array | Int16Array | Uint16Array | Int32Array | Uint32Array | Float32Array | Float64Array;
const CTORS = { Int8Array, Uint8Array, Int16Array, Uint16Array, Int32Array, Uint32Array, Float32Array, Float64Array } as const;
type CtorName = keyof typeof CTORS;

/** What travels to the worker in place of a MessagePort (structured-cloned; the buffer is shared). */
export interface SharedChannelPort {
  kernforgeSharedChannel: SharedArrayBuffer;
}

/** Whether `x` is a shared channel's port. */
export function isSharedChannelPort(x: unknown): x is SharedChannelPort {
  return typeof x === 'object' && x !== null && (x as SharedChannelPort).kernforgeSharedChannel instanceof SharedArrayBuffer;
}

function newBuffer(): SharedArrayBuffer {
  const growable = typeof (SharedArrayBuffer.prototype as { grow?: unknown }).grow === 'function';
  const Ctor = SharedArrayBuffer as unknown as new (n: number, o?: { maxByteLength: number }) => SharedArrayBuffer;
  return growable ? new Ctor(HEADER + INITIAL, { maxByteLength: HEADER + MAX_BYTES }) : new Ctor(HEADER + 64 * 2 ** 20);
}

function lock(h: Int32Array, mayWait: boolean): void {
  while (Atomics.compareExchange(h, LOCK, 0, 1) !== 0) {
    if (mayWait) Atomics.wait(h, LOCK, 1, 1);
  }
}
function unlock(h: Int32Array): void {
  Atomics.store(h, LOCK, 0);
  Atomics.notify(h, LOCK);
}
const pad8 = (n: number): number => (n + 7) & ~7;

/** A polled channel: `port` goes to a worker (sharedChannelSender there), poll() reads here. */
export function sharedChannel(): PolledChannel {
  const sab = newBuffer();
  const h = new Int32Array(sab, 0, HEADER / 4);
  const decoder = new TextDecoder();
  return {
    port: { kernforgeSharedChannel: sab } as unknown as Transferable,
    poll() {
      lock(h, false);
      try {
        const r = h[READ]!, w = h[WRITE]!;
        if (r === w) return undefined;
        const at = HEADER + r;
        const head = new Uint32Array(sab, at, 2);
        const [size, jsonLen] = [head[0]!, head[1]!];
        const meta = JSON.parse(decoder.decode(new Uint8Array(sab, at + 8, jsonLen).slice())) as { v: Record<string, unknown>; a: [string, CtorName, number][] };
        const message: Record<string, unknown> = { ...meta.v };
        let off = at + pad8(8 + jsonLen);
        for (const [name, ctor, bytes] of meta.a) {
          const C = CTORS[ctor];
          const copy = new Uint8Array(bytes);
          copy.set(new Uint8Array(sab, off, bytes));
          message[name] = new C(copy.buffer, 0, bytes / C.BYTES_PER_ELEMENT);
          off += pad8(bytes);
        }
        Atomics.store(h, READ, r + size);
        return { message };
      } finally {
        unlock(h);
      }
    },
    close() {
      // nothing to release: the buffer goes with the last reference to it
    },
  };
}

/** The sending end of a shared channel, for the worker (`postMessage(message)`; a transfer list is ignored: the message is copied). */
export function sharedChannelSender(port: SharedChannelPort): { postMessage(message: unknown, transfer?: unknown): void } {
  const sab = port.kernforgeSharedChannel;
  const h = new Int32Array(sab, 0, HEADER / 4);
  const encoder = new TextEncoder();
  return {
    postMessage(message) {
      if (typeof message !== 'object' || message === null) throw new Error('shared channel: a message is a plain object');
      const v: Record<string, unknown> = {};
      const arrays: [string, Typed][] = [];
      for (const [k, x] of Object.entries(message)) {
        if (ArrayBuffer.isView(x)) {
          const name = x.constructor.name as CtorName;
          if (!(name in CTORS)) throw new Error(`shared channel: ${k}: a ${name} cannot be carried`);
          arrays.push([k, x as Typed]);
        } else if (x === null || ['number', 'string', 'boolean'].includes(typeof x)) v[k] = x;
        else throw new Error(`shared channel: ${k}: a ${typeof x} cannot be carried (numbers, strings, booleans, null and typed arrays can)`);
      }
      const json = encoder.encode(JSON.stringify({ v, a: arrays.map(([k, x]) => [k, x.constructor.name, x.byteLength]) }));
      const size = pad8(8 + json.length) + arrays.reduce((s, [, x]) => s + pad8(x.byteLength), 0);
      lock(h, true);
      try {
        if (h[READ] === h[WRITE]) {
          // all read: start again at the front
          h[READ] = 0;
          h[WRITE] = 0;
        }
        const w = h[WRITE]!;
        const need = HEADER + w + size;
        if (need > sab.byteLength) {
          const g = sab as unknown as { grow?(n: number): void; maxByteLength?: number };
          const max = g.grow ? g.maxByteLength! : sab.byteLength;
          if (need > max) throw new Error(`shared channel: ${need - HEADER} bytes queued would exceed its ${max - HEADER} bytes`);
          g.grow!(Math.min(max, Math.max(need, 2 * sab.byteLength)));
        }
        const at = HEADER + w;
        new Uint32Array(sab, at, 2).set([size, json.length]);
        new Uint8Array(sab, at + 8, json.length).set(json);
        let off = at + pad8(8 + json.length);
        for (const [, x] of arrays) {
          new Uint8Array(sab, off, x.byteLength).set(new Uint8Array(x.buffer, x.byteOffset, x.byteLength));
          off += pad8(x.byteLength);
        }
        Atomics.store(h, WRITE, w + size);
      } finally {
        unlock(h);
      }
    },
  };
}
