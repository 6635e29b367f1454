// The Node platform (runtime/platform.ts): files through node:fs, worker_threads, CPU facts from
// node:os, hashing through node:crypto, WebGPU through Dawn (the `webgpu` package), a
// cli-progress bar on a terminal, and variants outside the library through the generator and
// esbuild. The `webgpu` package, esbuild and the generator are loaded on first use only.
//
// This module must not import (other than types) any runtime module: runtime/platform.ts loads it
// while it is itself being evaluated, so a runtime import from here would wait for it forever.
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, unlinkSync, writeFileSync, writeSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { availableParallelism, cpus, platform as osPlatform, totalmem } from 'node:os';
import { createHash } from 'node:crypto';
import { MessageChannel, receiveMessageOnPort, Worker } from 'node:worker_threads';
import cliProgress from 'cli-progress';
import type { CpuFacts, FileWriter, OnDemand, Platform, PolledChannel, ProgressBar, TaskWorker, WorkerHandlers } from '../platform.ts';

/** Write `data` to `path` atomically: a temporary file in the same folder (created if missing), fsync, rename, folder fsync. */
function writeFileAtomic(path: string, data: string | Uint8Array): void {
  const dir = dirname(resolve(path));
  mkdirSync(dir, { recursive: true });
  const tmp = join(dir, `.${basename(path)}.${process.pid}.${Date.now().toString(36)}.tmp`);
  let fd = -1;
  try {
    fd = openSync(tmp, 'w');
    if (typeof data === 'string') writeSync(fd, data);
    else writeSync(fd, data, 0, data.length);
    fsyncSync(fd);
    closeSync(fd);
    fd = -1;
    renameSync(tmp, path);
  } catch (e) {
    if (fd >= 0) closeSync(fd);
    try {
      unlinkSync(tmp);
    } catch {
      // already gone
    }
    throw e;
  }
  try {
    const d = openSync(dir, 'r');
    try {
      fsyncSync(d);
    } finally {
      closeSync(d);
    }
  } catch {
    // some file systems refuse to fsync a folder; the rename is still atomic
  }
}

// From the sources (under tsx or vitest) the worker entry registers the TypeScript loader first;
// compiled (dist/), the worker is plain JavaScript.
const WORKER_URL = import.meta.url.endsWith('.ts') ? new URL('../parallel/worker.mjs', import.meta.url) : new URL('../parallel/worker.js', import.meta.url);

function worker(h: WorkerHandlers): TaskWorker {
  const w = new Worker(WORKER_URL);
  w.on('message', (m: unknown) => h.message(m));
  w.on('error', (e: Error) => h.error(e));
  w.on('exit', (code: number) => h.exit(code));
  return {
    postMessage: (m, transfer = []) => w.postMessage(m, transfer as never),
    ref: () => w.ref(),
    unref: () => w.unref(),
    terminate: () => w.terminate(),
  };
}

function channel(): PolledChannel {
  const { port1, port2 } = new MessageChannel();
  return { port: port2 as unknown as Transferable, poll: () => receiveMessageOnPort(port1), close: () => port1.close() };
}

let dawn: Promise<typeof import('webgpu')> | undefined;
/** A Dawn instance; the package is loaded (and its globals installed) on first use. */
async function webgpu(flags: readonly string[]): Promise<GPU> {
  dawn ??= (async () => {
    // Dawn's OpenGL ES backend on Mesa without a display
    process.env.EGL_PLATFORM ??= 'surfaceless';
    try {
      const mod = await import('webgpu');
      Object.assign(globalThis, mod.globals);
      return mod;
    } catch (e) {
      throw new Error(`the 'webgpu' package failed to load (${(e as Error).message})`);
    }
  })();
  dawn.catch(() => {
    dawn = undefined;
  });
  return (await dawn).create([...flags]);
}

function progressBar(format: string): ProgressBar | undefined {
  if (!process.stderr.isTTY) return undefined;
  const bar = new cliProgress.SingleBar({ format, stream: process.stderr, hideCursor: true, etaBuffer: 20, clearOnComplete: true, fps: 5 }, cliProgress.Presets.shades_classic);
  let started = false;
  return {
    start(total) {
      bar.start(total, 0, { label: '' });
      started = true;
    },
    update: (done, label) => bar.update(done, { label }),
    setTotal: (total) => bar.setTotal(total),
    log(line) {
      if (started) {
        process.stderr.write('\r\x1b[K');
        process.stderr.write(`${line}\n`);
        bar.render();
      } else process.stderr.write(`${line}\n`);
    },
    stop() {
      if (started) bar.stop();
      started = false;
    },
  };
}

/** Variants rendered on demand are compiled once into .kernforge/variants/ of the working folder. */
const VARIANT_CACHE = join(process.cwd(), '.kernforge', 'variants');

const onDemand: OnDemand = {
  generator: () => import('../../generator/index.ts'),
  async tsModule(key, source) {
    const file = join(VARIANT_CACHE, `${key}.mjs`);
    if (!existsSync(file)) {
      const text = await source();
      const { transform } = await import('esbuild');
      const js = (await transform(text, { loader: 'ts', format: 'esm', target: 'es2022' })).code;
      mkdirSync(VARIANT_CACHE, { recursive: true });
      writeFileSync(`${file}.tmp`, js);
      renameSync(`${file}.tmp`, file);
    }
    return import(pathToFileURL(file).href);
  },
};

function cpu(): CpuFacts {
  const list = cpus();
  return {
    model: (list[0]?.model ?? 'unknown CPU').trim(),
    cores: list.length,
    parallelism: availableParallelism(),
    speedMHz: list[0]?.speed,
    memoryBytes: totalmem(),
    os: osPlatform(),
    arch: process.arch,
    runtime: 'node',
    version: process.version,
    v8: process.versions.v8,
  };
}

function createWriter(path: string): FileWriter {
  let fd = openSync(path, 'w');
  return {
    write: (text) => void writeSync(fd, text),
    close() {
      if (fd >= 0) closeSync(fd);
      fd = -1;
    },
  };
}

/** The Node implementation of the platform (runtime/index.ts installs it). */
export const nodePlatform: Platform = {
  name: 'node',
  readText: (path) => readFileSync(path, 'utf8'),
  readBytes: (path) => new Uint8Array(readFileSync(path)),
  exists: (path) => existsSync(path),
  list: (dir) => readdirSync(dir),
  rename: (from, to) => renameSync(from, to),
  writeFileAtomic,
  createWriter,
  resolve: (...paths) => resolve(...paths),
  importModule: (path) => import(/^(file|data|https?):/.test(path) ? path : pathToFileURL(resolve(path)).href),
  env: (name) => process.env[name],
  pid: process.pid,
  stderr: (line) => void process.stderr.write(`${line}\n`),
  cpu,
  sha256: (text) => createHash('sha256').update(text).digest('hex'),
  worker,
  channel,
  webgpu,
  progressBar,
  onDemand,
};
