// A plain local static server for kernforge in the browser (`kernforge serve`, docs/browser.md):
// serves one folder over HTTP with the headers a cross-origin isolated page needs
// (Cross-Origin-Opener-Policy: same-origin, Cross-Origin-Embedder-Policy: require-corp: without
// them there is no SharedArrayBuffer, hence no worker threads), the MIME types the browser
// insists on (application/wasm for streaming compilation, text/javascript for modules), and no
// caching (a rebuilt page is what the next reload gets). It listens on 127.0.0.1 unless told
// otherwise, answers GET and HEAD only, and never serves a file outside its folder (no `..`, no
// link leading out of it). Node only: exported from the Node entry, not from the portable core.
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import { createReadStream, realpathSync, statSync } from 'node:fs';
import { extname, join, resolve, sep } from 'node:path';
import { KernforgeError } from './errors.ts';

/** Bad options or a port that cannot be had (the CLI: one line, exit 2). */
export class ServeError extends KernforgeError {}

/** Options of serve(). */
export interface ServeOptions {
  /** The folder to serve (must exist). */
  dir: string;
  /** The port (default 8080; 0: any free port). */
  port?: number;
  /** The address to listen on (default 127.0.0.1: this machine only). */
  host?: string;
  /** Told one line per request answered with an error status (default: nothing). */
  log?: (line: string) => void;
}

/** A running server. */
export interface StaticServer {
  /** Its base URL, e.g. http://127.0.0.1:8080/ (a loopback address: browsers treat it as a secure context, so navigator.gpu is there). */
  readonly url: string;
  /** The port it listens on. */
  readonly port: number;
  /** The folder it serves (absolute, links resolved). */
  readonly dir: string;
  /** Stop listening and end open connections. */
  close(): Promise<void>;
}

/** MIME types by extension (what kernforge's page and package hold). */
export const MIME_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.wgsl': 'text/plain; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.pqr': 'text/plain; charset=utf-8',
  '.vert': 'text/plain; charset=utf-8',
  '.gro': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};

/** The headers of every response: cross-origin isolation, and no caching. */
export const ISOLATION_HEADERS: Readonly<Record<string, string>> = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Cache-Control': 'no-cache',
  'X-Content-Type-Options': 'nosniff',
};

/**
 * The folder of the built page: the package's dist/ (web/build.mjs --package puts index.html and
 * js/ there during the build, beside the generated/, data/ and specs/ the page shares with Node);
 * dist/ of a clone when run from the sources.
 */
export function webDir(): string {
  return decodeURIComponent(new URL(import.meta.url.endsWith('.ts') ? '../dist/' : '../', import.meta.url).pathname);
}

/** Start serving `o.dir`; resolves once it listens. A busy or forbidden port is a ServeError naming it. */
export async function serve(o: ServeOptions): Promise<StaticServer> {
  const port = o.port ?? 8080;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ServeError(`--port ${String(o.port)}: allowed: an integer from 0 to 65535 (0: any free port)`);
  const host = o.host ?? '127.0.0.1';
  let dir: string;
  try {
    dir = realpathSync(resolve(o.dir));
  } catch {
    throw new ServeError(`--dir ${o.dir}: no such folder (build the page first, or give the folder to serve)`);
  }
  if (!statSync(dir).isDirectory()) throw new ServeError(`--dir ${o.dir}: not a folder`);
  const log = o.log ?? (() => undefined);

  const answer = (req: IncomingMessage, res: ServerResponse, status: number, text: string): void => {
    log(`${status} ${req.method} ${req.url}`);
    res.writeHead(status, { ...ISOLATION_HEADERS, 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': Buffer.byteLength(text) });
    res.end(req.method === 'HEAD' ? undefined : text);
  };

  const server: HttpServer = createServer((req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('Allow', 'GET, HEAD');
      answer(req, res, 405, 'only GET and HEAD\n');
      return;
    }
    let path: string;
    try {
      path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    } catch {
      answer(req, res, 400, 'bad URL\n');
      return;
    }
    if (path.includes('\0')) {
      answer(req, res, 400, 'bad URL\n');
      return;
    }
    let file = join(dir, path);
    let real: string;
    try {
      real = realpathSync(file);
      if (statSync(real).isDirectory()) {
        file = join(real, 'index.html');
        real = realpathSync(file);
      }
    } catch {
      answer(req, res, 404, `not found: ${path}\n`);
      return;
    }
    if (real !== dir && !real.startsWith(dir + sep)) {
      answer(req, res, 403, 'outside the served folder\n');
      return;
    }
    const st = statSync(real);
    if (!st.isFile()) {
      answer(req, res, 404, `not found: ${path}\n`);
      return;
    }
    res.writeHead(200, { ...ISOLATION_HEADERS, 'Content-Type': MIME_TYPES[extname(real).toLowerCase()] ?? 'application/octet-stream', 'Content-Length': st.size });
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    const s = createReadStream(real);
    s.on('error', () => res.destroy());
    s.pipe(res);
  });

  await new Promise<void>((ok, fail) => {
    server.once('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'EADDRINUSE') fail(new ServeError(`port ${port} on ${host} is already in use: choose another with --port (or --port 0 for any free one)`));
      else if (e.code === 'EACCES') fail(new ServeError(`port ${port} on ${host}: permission denied (ports below 1024 need privileges): choose another with --port`));
      else if (e.code === 'EADDRNOTAVAIL' || e.code === 'ENOTFOUND') fail(new ServeError(`--host ${host}: not an address of this machine`));
      else fail(e);
    });
    server.listen(port, host, () => ok());
  });
  const actual = (server.address() as { port: number }).port;
  const shown = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shown}:${actual}/`,
    port: actual,
    dir,
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}
