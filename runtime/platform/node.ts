// The Node platform (runtime/platform.ts): files through node:fs, worker_threads, CPU facts from
// node:os, hashing through node:crypto, WebGPU through Dawn (the `webgpu` package), a
// cli-progress bar on a terminal, and variants outside the library through the generator and
// esbuild. The `webgpu` package, esbuild and the generator are loaded on first use only.
//
// This module must not import (other than types) any runtime module: runtime/platform.ts loads it
// while it is itself being evaluated, so a runtime import from here would wait for it forever.
import { closeSync, existsSync, fstatSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { availableParallelism, cpus, platform as osPlatform, totalmem } from 'node:os';
import { createHash, randomBytes } from 'node:crypto';
import { MessageChannel, receiveMessageOnPort, Worker } from 'node:worker_threads';
import { setFlagsFromString } from 'node:v8';
import cliProgress from 'cli-progress';
import { withLockFile } from './lock.ts';
import type { CpuFacts, FileWriter, OnDemand, PathInfo, Platform, PolledChannel, ProgressBar, TaskWorker, WorkerHandlers } from '../platform.ts';

// WebAssembly relaxed SIMD (the md-nonbonded `simd: relaxed` variants): V8 ships it from 11.4
// (Node 22); Node 20's V8 11.3 has it behind a flag, which must be set before the first compile.
// V8 flags are per process, so worker threads compile the same modules. runtime/backends/wasm.ts
// probes whether it took (probeWasmRelaxedSimd); a runtime without it keeps the SIMD128 variants.
{
  const [major, minor] = process.versions.v8.split('.').map(Number) as [number, number];
  if (major < 11 || (major === 11 && minor < 4)) setFlagsFromString('--experimental-wasm-relaxed-simd');
}

// Writing files (the output policy, runtime/output.ts, is built on these): the data go to a
// temporary file beside the target, named `.<name>.<pid>.<random>.tmp` and created exclusively
// (so no file of the user's is ever taken for it, and two writers never share one); every byte is
// written (writeSync may write less than asked: it is called again for the rest; a file-size
// limit then fails with EFBIG, as Node ignores SIGXFSZ, and a full disk with ENOSPC); the file is
// flushed and its size checked against the bytes written, then renamed over the target, and the
// folder flushed. On any failure the temporary file is removed and the error thrown as it is:
// the target keeps what it held.

/** A unique temporary name beside `path` (created exclusively by the callers). */
function tempBeside(path: string): string {
  return join(dirname(resolve(path)), `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
}

/** Write all of `bytes` at the end of `fd` (writeSync again for what a short write left). */
function writeAll(fd: number, bytes: Uint8Array): void {
  for (let done = 0; done < bytes.length; ) {
    const n = writeSync(fd, bytes, done, bytes.length - done);
    if (n <= 0) throw Object.assign(new Error(`the write stopped after ${done} of ${bytes.length} bytes`), { code: 'ESHORT' });
    done += n;
  }
}

/** Flush `fd` to disk and check that it holds `expected` bytes. */
function flushAndCheck(fd: number, expected: number): void {
  fsyncSync(fd);
  const size = fstatSync(fd).size;
  if (size !== expected) throw Object.assign(new Error(`only ${size} of ${expected} bytes reached the file`), { code: 'ESHORT' });
}

/** Close `fd` (if open) and remove `tmp`, ignoring errors: the cleanup after a failure. */
function discard(fd: number, tmp: string): void {
  try {
    if (fd >= 0) closeSync(fd);
  } catch {
    // closing a broken file can fail too
  }
  try {
    unlinkSync(tmp);
  } catch {
    // already gone
  }
}

/** Flush the folder `dir` (the rename in it), where the file system allows. */
function syncFolder(dir: string): void {
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

/** Write `data` to `path` atomically (see above); its folder is created if missing. */
function writeFileAtomic(path: string, data: string | Uint8Array): void {
  const dir = dirname(resolve(path));
  mkdirSync(dir, { recursive: true });
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  const tmp = tempBeside(path);
  let fd = -1;
  try {
    fd = openSync(tmp, 'wx');
    writeAll(fd, bytes);
    flushAndCheck(fd, bytes.length);
    closeSync(fd);
    fd = -1;
    renameSync(tmp, path);
  } catch (e) {
    discard(fd, tmp);
    throw e;
  }
  syncFolder(dir);
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
      writeFileAtomic(file, js);
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

/** A file written piece by piece to a temporary file (see above), renamed into place at close(). */
function createWriter(path: string): FileWriter {
  const dir = dirname(resolve(path));
  mkdirSync(dir, { recursive: true });
  const tmp = tempBeside(path);
  let fd = openSync(tmp, 'wx');
  let written = 0;
  const fail = (e: unknown): never => {
    discard(fd, tmp);
    fd = -1;
    throw e;
  };
  return {
    write(text) {
      if (fd < 0) throw new Error(`${path}: written after close`);
      const bytes = Buffer.from(text, 'utf8');
      try {
        writeAll(fd, bytes);
      } catch (e) {
        fail(e);
      }
      written += bytes.length;
    },
    close() {
      if (fd < 0) return;
      try {
        flushAndCheck(fd, written);
        closeSync(fd);
        fd = -1;
        renameSync(tmp, path);
      } catch (e) {
        fail(e);
      }
      syncFolder(dir);
    },
    abort() {
      if (fd < 0) return;
      discard(fd, tmp);
      fd = -1;
    },
  };
}

/** What is at `path` (links followed), or undefined when nothing is. */
function stat(path: string): PathInfo | undefined {
  try {
    const s = statSync(path, { throwIfNoEntry: false });
    if (!s) return undefined;
    return { kind: s.isFile() ? 'file' : s.isDirectory() ? 'folder' : 'other', size: s.size };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOTDIR') return undefined;
    throw e;
  }
}

/** The Node implementation of the platform (runtime/index.ts installs it). */
export const nodePlatform: Platform = {
  name: 'node',
  readText: (path) => readFileSync(path, 'utf8'),
  readBytes: (path) => new Uint8Array(readFileSync(path)),
  exists: (path) => existsSync(path),
  stat,
  list: (dir) => readdirSync(dir),
  rename: (from, to) => renameSync(from, to),
  writeFileAtomic,
  createWriter,
  withLockFile,
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
