// `kernforge serve [--port N] [--dir D] [--host H]`: serve the built page (or any folder) on this
// machine with the headers kernforge's browser platform needs (runtime/serve.ts: cross-origin
// isolation, application/wasm, no caching). Prints the URL and serves until Ctrl-C (SIGINT) or
// SIGTERM. A busy port, a bad port or a missing folder: one line, exit 2.
import type { Command } from 'commander';

export interface ServeCommandOptions {
  port?: string;
  dir?: string;
  host?: string;
  /** Where the lines go (default console.log). */
  log?: (line: string) => void;
  /** Resolves when the server should stop (default: SIGINT or SIGTERM). */
  until?: Promise<unknown>;
}

/** Start the server, print where, wait for `until`, stop; returns the exit status. */
export async function serveCommand(o: ServeCommandOptions): Promise<number> {
  const { serve, webDir, ServeError } = await import('../../runtime/serve.ts');
  const log = o.log ?? ((l: string) => console.log(l));
  const port = o.port === undefined ? 8080 : /^\d+$/.test(o.port.trim()) ? Number(o.port) : NaN;
  if (Number.isNaN(port)) throw new ServeError(`--port ${o.port}: allowed: an integer from 0 to 65535 (0: any free port)`);
  const dir = o.dir ?? webDir();
  if (o.dir === undefined) {
    const { existsSync } = await import('node:fs');
    if (!existsSync(`${dir}/index.html`)) throw new ServeError(`no built page at ${dir}: build it (npm run build), or give the folder to serve with --dir`);
  }
  const s = await serve({ dir, port, ...(o.host ? { host: o.host } : {}) });
  log(`kernforge: serving ${s.dir} at ${s.url} (cross-origin isolated: COOP same-origin, COEP require-corp); Ctrl-C stops`);
  await (o.until ?? new Promise<void>((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  }));
  await s.close();
  return 0;
}

export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('serve the built page (or --dir) on this machine with the cross-origin isolation headers the browser platform needs')
    .option('-p, --port <n>', 'port (0: any free port)', '8080')
    .option('-d, --dir <folder>', 'folder to serve (default: the built page, the package\'s dist/)')
    .option('--host <address>', 'address to listen on (default 127.0.0.1: this machine only)')
    .action(async (o: ServeCommandOptions) => {
      await serveCommand(o);
    });
}
