// The browser platform's polled channel over shared memory (runtime/platform/shared-channel.ts),
// exercised under Node: messages sent from a worker thread are polled here in order, their typed
// arrays equal to what was sent; the buffer grows past its first megabyte; poll() answers
// undefined at once when nothing waits; what cannot be carried is refused naming the field.
import { describe, it, expect } from 'vitest';
import { Worker } from 'node:worker_threads';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';
import { sharedChannel, sharedChannelSender, isSharedChannelPort, type SharedChannelPort } from '../../runtime/platform/shared-channel.ts';

describe('shared channel', () => {
  it('carries plain objects of numbers and typed arrays, in order, growing as needed', () => {
    const c = sharedChannel();
    expect(isSharedChannelPort(c.port)).toBe(true);
    expect(c.poll()).toBeUndefined();
    const s = sharedChannelSender(c.port as unknown as SharedChannelPort);
    const big = Int32Array.from({ length: 700_000 }, (_, i) => i * 7 - 3); // 2.8 MB: past the first 1 MiB
    s.postMessage({ ci: big, cj: new Int32Array([5, -6]), excl: new Uint32Array([0xffffffff]), computedPairs: 12, bbChecks: 3.5, tag: 'a', ok: true, none: null });
    s.postMessage({ f: new Float64Array([Math.PI, -0]) });
    const m1 = c.poll()!.message as Record<string, unknown>;
    expect(m1.ci).toBeInstanceOf(Int32Array);
    expect((m1.ci as Int32Array).length).toBe(big.length);
    expect((m1.ci as Int32Array).every((v, i) => v === big[i])).toBe(true);
    expect(m1.cj).toEqual(new Int32Array([5, -6]));
    expect(m1.excl).toEqual(new Uint32Array([0xffffffff]));
    expect([m1.computedPairs, m1.bbChecks, m1.tag, m1.ok, m1.none]).toEqual([12, 3.5, 'a', true, null]);
    expect((m1.ci as Int32Array).buffer).toBeInstanceOf(ArrayBuffer); // a copy, not the shared memory
    const m2 = c.poll()!.message as { f: Float64Array };
    expect(Array.from(m2.f)).toEqual([Math.PI, -0]);
    expect(c.poll()).toBeUndefined();
    // all read: the next message starts at the front again
    s.postMessage({ n: 1 });
    expect(c.poll()!.message).toEqual({ n: 1 });
    expect(() => s.postMessage({ when: new Date() })).toThrow(/when: a object cannot be carried/);
  });

  it('from another thread: every message arrives, in order', async () => {
    const c = sharedChannel();
    // the module as JavaScript for the worker (Node 20 runs no TypeScript in a worker)
    const dir = mkdtempSync(join(tmpdir(), 'kf-chan-'));
    const out = join(dir, 'shared-channel.mjs');
    await esbuild.build({ entryPoints: [new URL('../../runtime/platform/shared-channel.ts', import.meta.url).pathname], bundle: true, format: 'esm', platform: 'neutral', outfile: out, logLevel: 'silent' });
    const src = pathToFileURL(out).href;
    const code = `
      const { workerData } = require('node:worker_threads');
      import(${JSON.stringify(src)}).then(({ sharedChannelSender }) => {
        const s = sharedChannelSender(workerData);
        for (let i = 0; i < 200; i++) s.postMessage({ i, a: Float64Array.from({ length: 1000 + i }, (_, k) => i + k / 8) });
      });`;
    const w = new Worker(code, { eval: true, workerData: c.port });
    const got: { i: number; a: Float64Array }[] = [];
    const exited = new Promise((resolve, reject) => {
      w.once('exit', resolve);
      w.once('error', reject);
    });
    const deadline = Date.now() + 20_000;
    while (got.length < 200 && Date.now() < deadline) {
      const m = c.poll();
      if (m) got.push(m.message as { i: number; a: Float64Array });
      else await new Promise((r) => setTimeout(r, 1));
    }
    await exited;
    rmSync(dir, { recursive: true, force: true });
    expect(got.map((m) => m.i)).toEqual(Array.from({ length: 200 }, (_, i) => i));
    for (const m of got) {
      expect(m.a.length).toBe(1000 + m.i);
      expect(m.a[m.a.length - 1]).toBe(m.i + (m.a.length - 1) / 8);
    }
  });
});
