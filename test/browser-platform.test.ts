// The browser platform's own logic under Node (runtime/platform/browser.ts), with `fetch` answered
// from the repository and no IndexedDB: which assets it fetches up front, how the core's paths of
// generated/, data/ and specs/ map to the assets URL, the errors for an asset not fetched or not
// served, wasm compiled from the network, the in-memory file system the runtime writes to, and
// SHA-256. The page itself (IndexedDB, workers, WebGPU) is test/browser-bundle.test.ts's.
import { describe, it, expect, beforeAll, afterAll, vi } from 'vitest';
import { readFileSync, existsSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { createBrowserPlatform, sha256Hex, type BrowserPlatform } from '../runtime/platform/browser.ts';
import { GENERATED_ROOT, SPECS_ROOT } from '../runtime/variants.ts';
import { bundledMolecule } from '../runtime/data.ts';
import { platform, setPlatform } from '../runtime/platform.ts';

const root = new URL('..', import.meta.url).pathname;
const ASSETS = 'http://127.0.0.1:9/pkg/';
const fetched: string[] = [];

beforeAll(() => {
  vi.stubGlobal('fetch', async (input: string | URL) => {
    const url = String(input);
    fetched.push(url);
    const file = url.startsWith(ASSETS) ? `${root}${decodeURIComponent(url.slice(ASSETS.length))}` : '';
    if (!file || !existsSync(file)) return new Response('not found', { status: 404, statusText: 'Not Found' });
    return new Response(readFileSync(file), { status: 200, headers: { 'content-type': file.endsWith('.wasm') ? 'application/wasm' : 'text/plain' } });
  });
});
afterAll(() => vi.unstubAllGlobals());

const manifest = JSON.parse(readFileSync(`${root}generated/manifest.json`, 'utf8')) as { specs: { file: string }[]; variants: { key: string; family: string; target: string; file: string }[] };

describe('the browser platform', () => {
  let p: BrowserPlatform;
  beforeAll(async () => {
    fetched.length = 0;
    p = await createBrowserPlatform({ assets: ASSETS, storage: false, stderr: () => undefined, preload: { families: ['gem-potential'], data: ['data/gem/mb_hhelix.pqr'] } });
  });

  it('fetches the manifest, the specs, the WGSL and gpu.js sources of the families asked for and the data, nothing else', () => {
    const want = [
      'generated/manifest.json',
      ...manifest.specs.map((s) => `specs/${s.file}`),
      ...manifest.variants.filter((v) => v.family === 'gem-potential' && (v.target === 'wgsl' || v.target === 'gpujs')).map((v) => `generated/${v.file}`),
      'data/gem/mb_hhelix.pqr',
    ];
    expect(fetched.map((u) => u.slice(ASSETS.length)).sort()).toEqual(want.sort());
  });

  it("maps the core's paths (URLs and file paths of generated/, data/, specs/) to the assets, byte for byte", () => {
    const wgsl = manifest.variants.find((v) => v.family === 'gem-potential' && v.target === 'wgsl')!;
    expect(p.readText(`${GENERATED_ROOT}${wgsl.file}`)).toBe(readFileSync(`${root}generated/${wgsl.file}`, 'utf8'));
    expect(p.readText(bundledMolecule('mb_hhelix').pqr)).toBe(readFileSync(`${root}data/gem/mb_hhelix.pqr`, 'utf8'));
    expect(p.readText(`${SPECS_ROOT}gem-potential.yaml`)).toBe(readFileSync(`${root}specs/gem-potential.yaml`, 'utf8'));
    expect(p.readText(`${ASSETS}generated/manifest.json`)).toBe(readFileSync(`${root}generated/manifest.json`, 'utf8'));
    expect(p.exists(bundledMolecule('mb_hhelix').pqr)).toBe(true);
    expect(p.stat(bundledMolecule('mb_hhelix').pqr)).toEqual({ kind: 'file', size: readFileSync(`${root}data/gem/mb_hhelix.pqr`).length });
  });

  it('an asset not fetched is an error saying how to preload it; preload() fetches it; one not served names the URL and status', async () => {
    const vert = bundledMolecule('mb_hhelix').vert!;
    expect(p.exists(vert)).toBe(false);
    expect(() => p.readText(vert)).toThrow("kernforge: data/gem/mb_hhelix.vert was not fetched before use: preload it (installBrowserPlatform({ preload: { files: ['data/gem/mb_hhelix.vert'] } }) or platform().preload(['data/gem/mb_hhelix.vert']))");
    await p.preload(['data/gem/mb_hhelix.vert']);
    expect(p.readText(vert).length).toBe(readFileSync(`${root}data/gem/mb_hhelix.vert`).length);
    await expect(p.preload(['data/gem/nope.pqr'])).rejects.toThrow(`kernforge: ${ASSETS}data/gem/nope.pqr: HTTP 404 Not Found (serve the package's generated/ and data/ under the platform's assets URL; docs/browser.md)`);
  });

  it('compiles a library wasm binary from the network', async () => {
    const w = manifest.variants.find((v) => v.family === 'gem-potential' && v.target === 'wasm')!;
    const before = fetched.length;
    const m = await p.compileWasm!(`${GENERATED_ROOT}${w.file}`);
    expect(m).toBeInstanceOf(WebAssembly.Module);
    expect(WebAssembly.Module.exports(m).length).toBeGreaterThan(0);
    expect(fetched.slice(before)).toEqual([`${ASSETS}generated/${w.file}`]);
  });

  it('keeps what the runtime writes in a file system rooted at /', () => {
    expect(p.resolve('.kernforge/tune')).toBe('/.kernforge/tune');
    expect(p.resolve('/a/b', '../c', './d.json')).toBe('/a/c/d.json');
    p.writeFileAtomic('.kernforge/tune/abc.json', '{"x":1}');
    p.writeFileAtomic('/out/bytes.bin', new Uint8Array([1, 2, 3]));
    expect(p.files()).toEqual(['/.kernforge/tune/abc.json', '/out/bytes.bin']);
    expect(p.readText('/.kernforge/tune/abc.json')).toBe('{"x":1}');
    expect([...p.readBytes('out/bytes.bin')]).toEqual([1, 2, 3]);
    expect(p.stat('/.kernforge')).toEqual({ kind: 'folder', size: 0 });
    expect(p.stat('.kernforge/tune/abc.json')).toEqual({ kind: 'file', size: 7 });
    expect(p.list('/.kernforge')).toEqual(['tune']);
    expect(p.list('/')).toEqual(['.kernforge', 'out']);
    p.rename('/.kernforge/tune/abc.json', '/.kernforge/tune/abc.json.corrupt');
    expect(p.exists('/.kernforge/tune/abc.json')).toBe(false);
    expect(p.readText('/.kernforge/tune/abc.json.corrupt')).toBe('{"x":1}');
    const w = p.createWriter('/traj.gro');
    w.write('a\n');
    w.write('b\n');
    expect(p.exists('/traj.gro')).toBe(false); // in place only at close()
    w.close();
    expect(p.readText('/traj.gro')).toBe('a\nb\n');
    const aborted = p.createWriter('/gone.gro');
    aborted.write('x');
    aborted.abort();
    expect(p.exists('/gone.gro')).toBe(false);
    expect(() => p.readText('/nope.json')).toThrow('ENOENT: no such file: /nope.json');
    expect(() => p.list('/nope')).toThrow('ENOENT');
    p.remove('/out/bytes.bin');
    expect(p.files()).toEqual(['/.kernforge/tune/abc.json.corrupt', '/traj.gro']);
  });

  it('hashes as Node does, and gives the CPU device a fingerprint', async () => {
    for (const t of ['', 'kernforge', '{"device":"cpu","cores":2}', 'Ångström λ']) expect(sha256Hex(t)).toBe(createHash('sha256').update(t).digest('hex'));
    expect(p.sha256('x')).toBe(sha256Hex('x'));
    const before = setPlatform(p);
    try {
      const { cpuDevice } = await import('../runtime/tune/devices.ts');
      const d = cpuDevice({ wasmSimd: { ok: true } });
      expect(d.fingerprint).toMatch(/^[0-9a-f]{16}$/);
      expect(d.name).toMatch(/^unknown CPU x \d+, /);
      expect(platform().name).toBe('browser');
    } finally {
      setPlatform(before!);
    }
  });

  it('says why a capability is absent, and the tuner then offers one thread only', async () => {
    expect(p.worker).toBeUndefined(); // no workerUrl given
    expect(p.channel).toBeUndefined();
    const before = setPlatform(p);
    try {
      const { need } = await import('../runtime/platform.ts');
      expect(() => need('worker', 'worker threads')).toThrow('worker threads are not available on the browser platform (no workerUrl was given to installBrowserPlatform: serve dist/runtime/platform/browser-worker.js and pass its URL)');
      expect(() => need('channel', 'polled message channels')).toThrow(/^polled message channels are not available on the browser platform \(the threaded MD engine waits for its workers with Atomics\.wait, which a page's main thread may not: run MD in a dedicated Web Worker .*here it runs on one thread\)$/);
      const { cpuThreadCounts } = await import('../runtime/tune/threads.ts');
      const cpu = { id: 'cpu', details: { cores: 4 } };
      expect(cpuThreadCounts('gem-potential.wasm.region1.f32.zero.unroll8.div.block0.vertices.simd128', cpu)).toEqual([1]);
      setPlatform(before!);
      expect(cpuThreadCounts('gem-potential.wasm.region1.f32.zero.unroll8.div.block0.vertices.simd128', cpu)).toEqual([1, 2, 4]);
    } finally {
      setPlatform(before!);
    }
  });

  it("WebGPU is navigator.gpu, unless the page said it has none (webgpu: false): then the adapter is never asked for", async () => {
    let asked = 0;
    const gpu = { requestAdapter: async () => (asked++, null) };
    const nav = Object.getOwnPropertyDescriptor(globalThis, 'navigator');
    Object.defineProperty(globalThis, 'navigator', { value: { gpu }, configurable: true, writable: true });
    try {
      expect(await p.webgpu!([])).toBe(gpu);
      const off = await createBrowserPlatform({ assets: ASSETS, storage: false, stderr: () => undefined, preload: false, webgpu: false });
      await expect(off.webgpu!([])).rejects.toThrow('WebGPU is off here (installBrowserPlatform webgpu: false: the page found none, or it was turned off)');
      const before = setPlatform(off);
      try {
        const { detectDevices } = await import('../runtime/tune/devices.ts');
        const [d] = await detectDevices(['webgpu']);
        expect(d!.available).toBe(false);
        expect(d!.why).toMatch(/WebGPU is off here/);
      } finally {
        setPlatform(before!);
      }
      expect(asked).toBe(0);
    } finally {
      if (nav) Object.defineProperty(globalThis, 'navigator', nav);
    }
  });

  it('refuses an assets folder it cannot fetch from', async () => {
    await expect(createBrowserPlatform({ assets: 'file:///tmp/pkg/', storage: false })).rejects.toThrow("kernforge: the assets folder file:///tmp/pkg/ cannot be fetched: give installBrowserPlatform({ assets }) the URL where the package's generated/ and data/ are served");
  });
});
