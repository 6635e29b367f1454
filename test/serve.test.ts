// `kernforge serve` and its server (runtime/serve.ts): the isolation headers and MIME types on
// every file, index.html for a folder, 404/405/403 (nothing outside the folder, links included),
// and the command's one-line errors with exit status 2 (a busy port, a bad port, a missing folder).
import { describe, it, expect, beforeAll, afterAll, vi } from 'vitest';
import { mkdtempSync, mkdirSync, writeFileSync, symlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, ServeError, type StaticServer } from '../runtime/serve.ts';
import { main } from '../cli/main.ts';
import { serveCommand } from '../cli/commands/serve.ts';

let dir = '';
let outside = '';
let s: StaticServer;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'kf-serve-'));
  outside = mkdtempSync(join(tmpdir(), 'kf-serve-out-'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><p>hi</p>\n');
  mkdirSync(join(dir, 'js'));
  writeFileSync(join(dir, 'js', 'app.js'), 'export const x = 1;\n');
  writeFileSync(join(dir, 'k.wasm'), new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]));
  writeFileSync(join(outside, 'secret.txt'), 'secret\n');
  symlinkSync(join(outside, 'secret.txt'), join(dir, 'leak.txt'));
  s = await serve({ dir, port: 0 });
});

afterAll(async () => {
  await s?.close();
  rmSync(dir, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

describe('the static server', () => {
  it('listens on 127.0.0.1 and sends every file cross-origin isolated, uncached, with its MIME type', async () => {
    expect(s.url).toBe(`http://127.0.0.1:${s.port}/`);
    const cases: [string, string, string][] = [
      ['', 'text/html; charset=utf-8', '<!doctype html><p>hi</p>\n'],
      ['js/app.js', 'text/javascript; charset=utf-8', 'export const x = 1;\n'],
    ];
    for (const [path, type, body] of cases) {
      const r = await fetch(`${s.url}${path}`);
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toBe(type);
      expect(r.headers.get('cross-origin-opener-policy')).toBe('same-origin');
      expect(r.headers.get('cross-origin-embedder-policy')).toBe('require-corp');
      expect(r.headers.get('cache-control')).toBe('no-cache');
      expect(await r.text()).toBe(body);
    }
    const w = await fetch(`${s.url}k.wasm`);
    expect(w.headers.get('content-type')).toBe('application/wasm');
    expect(WebAssembly.validate(new Uint8Array(await w.arrayBuffer()))).toBe(true);
  });

  it('answers 404 for what is not there, 405 for other methods, 403 for a link leading out of the folder', async () => {
    const missing = await fetch(`${s.url}nope.js`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('cross-origin-embedder-policy')).toBe('require-corp');
    expect((await fetch(`${s.url}js/app.js`, { method: 'POST', body: 'x' })).status).toBe(405);
    expect((await fetch(`${s.url}leak.txt`)).status).toBe(403);
    // `..` never leaves the folder (the URL is normalised first)
    expect((await fetch(`${s.url}js/../../${outside.split('/').pop()}/secret.txt`)).status).toBe(404);
    const head = await fetch(`${s.url}js/app.js`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe('20');
  });

  it('a busy port, a bad port or a missing folder is a ServeError naming it', async () => {
    await expect(serve({ dir, port: s.port })).rejects.toThrow(new ServeError(`port ${s.port} on 127.0.0.1 is already in use: choose another with --port (or --port 0 for any free one)`));
    await expect(serve({ dir, port: 70000 })).rejects.toThrow(/--port 70000: allowed: an integer from 0 to 65535/);
    await expect(serve({ dir: join(dir, 'nope') })).rejects.toThrow(/--dir .*nope: no such folder/);
    await expect(serve({ dir: join(dir, 'index.html'), port: 0 })).rejects.toThrow(/not a folder/);
  });
});

describe('kernforge serve', () => {
  it('prints where it serves and stops when told', async () => {
    const lines: string[] = [];
    let stop!: () => void;
    const until = new Promise<void>((r) => (stop = r));
    const done = serveCommand({ dir, port: '0', log: (l) => lines.push(l), until });
    await vi.waitFor(() => expect(lines).toHaveLength(1));
    const url = /at (http:\/\/\S+\/) /.exec(lines[0]!)![1]!;
    expect(lines[0]).toMatch(/^kernforge: serving .* at http:\/\/127\.0\.0\.1:\d+\/ \(cross-origin isolated: COOP same-origin, COEP require-corp\); Ctrl-C stops$/);
    expect((await fetch(url)).status).toBe(200);
    stop();
    expect(await done).toBe(0);
    await expect(fetch(url)).rejects.toThrow();
  });

  it('exits 2 with one line for a busy port, a bad port, a missing folder', async () => {
    const err = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      expect(await main(['serve', '--port', String(s.port), '--dir', dir])).toBe(2);
      expect(await main(['serve', '--port', 'x', '--dir', dir])).toBe(2);
      expect(await main(['serve', '--port', '0', '--dir', join(dir, 'nope')])).toBe(2);
      expect(err.mock.calls.map((c) => String(c[0]))).toEqual([
        `kernforge: error: port ${s.port} on 127.0.0.1 is already in use: choose another with --port (or --port 0 for any free one)`,
        'kernforge: error: --port x: allowed: an integer from 0 to 65535 (0: any free port)',
        `kernforge: error: --dir ${join(dir, 'nope')}: no such folder (build the page first, or give the folder to serve)`,
      ]);
    } finally {
      err.mockRestore();
    }
  });
});
