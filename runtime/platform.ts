// The platform adapter: what the runtime needs from its host that JavaScript itself does not
// give. The portable core (runtime/core.ts and every module it reaches: families, backends,
// tuner, strategies, cache, variants, verification) imports no `node:` module and no Node-only
// package; it asks platform() for file access, environment variables, stderr, CPU facts,
// hashing, worker threads, the WebGPU `GPU` object and on-demand generation. One implementation
// exists for Node (runtime/platform/node.ts) and one for browsers (runtime/platform/browser.ts:
// installBrowserPlatform(), docs/browser.md).
//
// Installing: runtime/index.ts (the Node entry, `import 'kernforge'` under Node) installs the Node
// platform explicitly. Under Node, importing any runtime module directly installs it too: when
// this module is first evaluated in a Node process it loads runtime/platform/node.ts (through a
// URL computed at run time, which bundlers leave alone), so tests, workers and scripts that import
// deep modules need nothing more. Elsewhere nothing is installed until setPlatform() is called,
// and platform() throws a NoPlatformError saying so.
//
// Paths: a `path` is what the platform reads and writes. Under Node it is a file-system path; the
// runtime's own assets (generated/, data/) are found with assetPath(new URL(..., import.meta.url)),
// which gives a file-system path for file: URLs and the URL itself otherwise (a browser platform
// fetches those: runtime/platform/browser.ts maps what starts with PACKAGE_ROOT to its assets URL).
/** Facts about the CPU and the JavaScript runtime (the CPU device's name, fingerprint and details). */
export interface CpuFacts {
  /** CPU model, e.g. "AMD EPYC 7B13" ("unknown CPU" when the host does not say). */
  model: string;
  /** Logical CPUs of the machine (Node: os.cpus().length). */
  cores: number;
  /** Threads this process can run at once (Node: os.availableParallelism()). */
  parallelism: number;
  /** Clock of the first CPU in MHz, when known. */
  speedMHz?: number;
  /** Memory of the machine in bytes, when known. */
  memoryBytes?: number;
  /** Operating system, e.g. "linux" (Node: os.platform()). */
  os: string;
  /** Instruction set, e.g. "x64", "arm64" (Node: process.arch). */
  arch: string;
  /** The JavaScript runtime, e.g. "node". */
  runtime: string;
  /** Its version, e.g. "v20.20.2" (Node: process.version). */
  version: string;
  /** The V8 version, when the runtime is V8. */
  v8?: string;
}

/** What a task worker reports to its pool (runtime/parallel/pool.ts). */
export interface WorkerHandlers {
  /** A message the worker posted. */
  message(m: unknown): void;
  /** The worker threw outside a task. */
  error(e: Error): void;
  /** The worker ended (Node: with this exit code). */
  exit(code: number): void;
}

/** A worker running the pool's task loop (runtime/parallel/worker.ts). */
export interface TaskWorker {
  /** Post a message; `transfer`: objects moved, not copied. */
  postMessage(message: unknown, transfer?: readonly Transferable[]): void;
  /** Keep the process alive while the worker has work (Node); nothing elsewhere. */
  ref(): void;
  /** Let the process end while the worker idles (Node); nothing elsewhere. */
  unref(): void;
  /** End the worker. */
  terminate(): Promise<unknown>;
}

/** A message channel whose receiving end this thread polls without waiting (Node: receiveMessageOnPort). */
export interface PolledChannel {
  /** The sending end, to transfer to a worker. */
  readonly port: Transferable;
  /** The next message that has arrived, or undefined when none has (never waits). */
  poll(): {
    /** The message as the worker posted it. */
    message: unknown;
  } | undefined;
  /** Close both ends. */
  close(): void;
}

/** A lock file this process holds (Platform.withLockFile). */
export interface HeldLock {
  /**
   * Whether the lock is still this process's: false once another process took it over as stale
   * (see Platform.withLockFile). Check it right before writing what the lock protects.
   */
  held(): boolean;
}

/** How Platform.withLockFile waits for a lock and when it takes one over. */
export interface LockOptions {
  /** A lock older than this many milliseconds is stale whoever holds it (Node default 10,000). */
  staleMs?: number;
  /**
   * Give up (an Error) after waiting this many milliseconds for locks that other, live processes
   * keep taking (Node default 60,000); a single stale lock never makes it wait that long.
   */
  maxWaitMs?: number;
  /** Told, in one line, when a stale lock was taken over (whose it was and why it was stale). */
  onTakeover?(line: string): void;
}

/**
 * A file written piece by piece (the MD trajectory): the pieces go to a temporary file beside it
 * (a unique name), which close() puts in place; until then the name holds what it held before.
 */
export interface FileWriter {
  /** Append text, all of it (throws as the host does when it cannot: a full disk, a size limit). */
  write(text: string): void;
  /** Flush, check that every byte reached the file, and rename it into place; throws (and removes the temporary file) when that fails. */
  close(): void;
  /** Close and remove the temporary file; the file under the name is left as it was. */
  abort(): void;
}

/** What is at a path (Platform.stat). */
export interface PathInfo {
  /** A regular file, a folder, or something else (a device, pipe or socket). */
  kind: 'file' | 'folder' | 'other';
  /** Size in bytes. */
  size: number;
}

/** A progress bar on a terminal. */
export interface ProgressBar {
  /** Show the bar at 0 of `total`. */
  start(total: number): void;
  /** Move to `done`; `label` says what is being done. */
  update(done: number, label: string): void;
  /** Change the total. */
  setTotal(total: number): void;
  /** Print a line above the bar without garbling it. */
  log(line: string): void;
  /** Remove the bar. */
  stop(): void;
}

/** The generator's public module (kernforge/generator), as loaded on demand. */
export type GeneratorModule = typeof import('../generator/index.ts');

/** Variants outside the committed library, made on demand (Node: through the generator). */
export interface OnDemand {
  /** The generator, loaded on first use: specs, variant keys, rendering, WAT assembly, user potentials. */
  generator(): Promise<GeneratorModule>;
  /**
   * The module of a TypeScript variant outside the library: `source` gives its TypeScript the
   * first time; compiled once and cached (Node: .kernforge/variants/<key>.mjs of the working folder).
   */
  tsModule(key: string, source: () => Promise<string>): Promise<unknown>;
}

/**
 * The host services of the runtime. Required members every platform has; optional ones are
 * capabilities a host may lack (the runtime then says what is missing where it needs it).
 */
export interface Platform {
  /** The platform's name, for messages ("node"). */
  readonly name: string;
  /** The text of a file (UTF-8); throws as the host does when it cannot be read. */
  readText(path: string): string;
  /** The bytes of a file. */
  readBytes(path: string): Uint8Array;
  /** Whether a file or folder exists. */
  exists(path: string): boolean;
  /** What is at `path` (links followed), or undefined when nothing is (or a part of the path is a file). */
  stat(path: string): PathInfo | undefined;
  /** The names in a folder. */
  list(dir: string): string[];
  /** Rename (move) a file, replacing the target. */
  rename(from: string, to: string): void;
  /**
   * Write a file so that a reader never sees a partial one (its folder is created if missing):
   * Node writes a temporary file with a unique name beside it, checks that it holds every byte
   * (a short write or a size limit is an error), flushes it to disk and renames it over the
   * target. On failure the temporary file is removed and the target is left as it was. The
   * output policy (runtime/output.ts) is built on it.
   */
  writeFileAtomic(path: string, data: string | Uint8Array): void;
  /** Open a file for writing piece by piece, in place only at close() (see FileWriter; its folder is created if missing). */
  createWriter(path: string): FileWriter;
  /**
   * Run `fn` while holding the lock file `path`, then remove it; returns what `fn` returns. For
   * files that several processes read, merge and rewrite (the tuning cache, the tuned artefact).
   * Node (runtime/platform/lock.ts): the lock file is created exclusively (open 'wx') with the
   * holder's pid, host and a token; while a live process holds it, the caller waits. A stale lock
   * is taken over (`o.onTakeover` is told): at once when its holder was a process of this host
   * that no longer runs (e.g. killed with SIGKILL), or an empty lock older than a second; after
   * `o.staleMs` (10 s) whoever holds it. A browser (runtime/platform/browser.ts): `fn` runs at
   * once on this tab's copy, and again under a Web Lock on the copy stored in IndexedDB (another
   * tab may have written it), so `fn` must be a read-merge-write that may run twice. Absent: no
   * other process shares the files (the caller runs `fn` without a lock).
   */
  withLockFile?<T>(path: string, fn: (lock: HeldLock) => T, o?: LockOptions): T;
  /** An absolute path from `paths`, relative ones against the current folder (Node: path.resolve). */
  resolve(...paths: string[]): string;
  /** Import the JavaScript module at `path` (a file path or URL). */
  importModule(path: string): Promise<unknown>;
  /**
   * Compile the WebAssembly binary at `path` (a browser: streaming compilation from the network).
   * Absent: the runtime compiles readBytes(path).
   */
  compileWasm?(path: string): Promise<WebAssembly.Module>;
  /** An environment variable (undefined when unset). */
  env(name: string): string | undefined;
  /** This process's id (for names of temporary files and runs). */
  readonly pid: number;
  /** Write one line (a newline is added) to the diagnostic stream (Node: stderr). */
  stderr(line: string): void;
  /** Facts about the CPU and the runtime. */
  cpu(): CpuFacts;
  /** SHA-256 of a UTF-8 string, lowercase hex. */
  sha256(text: string): string;
  /** Start a task worker (absent: no worker threads here). */
  worker?(handlers: WorkerHandlers): TaskWorker;
  /** A polled message channel (absent: no synchronous receive here). */
  channel?(): PolledChannel;
  /**
   * A WebGPU entry point (a `GPU`): Node a Dawn instance (the `webgpu` package, loaded on first
   * use) created with Dawn's `flags` (e.g. "backend=opengles"); a browser navigator.gpu. Resolves
   * undefined when this platform cannot honour `flags`; throws when WebGPU cannot be loaded at all.
   */
  webgpu?(flags: readonly string[]): Promise<GPU | undefined>;
  /** A progress bar `format` on stderr when it is a terminal, else undefined. */
  progressBar?(format: string): ProgressBar | undefined;
  /** Variants outside the library made on demand (absent: library variants only). */
  readonly onDemand?: OnDemand;
  /** Why an optional capability is absent here and what would give it (need() appends it to its error). */
  whyAbsent?(capability: 'worker' | 'channel' | 'webgpu' | 'onDemand'): string | undefined;
}

/** No platform is installed (outside Node, before setPlatform()). */
export class NoPlatformError extends Error {}

let current: Platform | undefined;

/** The installed platform; throws a NoPlatformError when there is none. */
export function platform(): Platform {
  if (!current) throw new NoPlatformError("kernforge: no platform installed: under Node import 'kernforge' (it installs the Node platform); elsewhere call setPlatform() first");
  return current;
}

/** Install `p` as the platform of this thread (replacing any other); returns the previous one. */
export function setPlatform(p: Platform): Platform | undefined {
  const before = current;
  current = p;
  return before;
}

/**
 * The package root as this build of the core sees it (`new URL('../', import.meta.url)` of
 * runtime/: the repository, dist/, or a bundle's folder's parent), from which runtime/variants.ts
 * and runtime/data.ts find generated/ and data/. A browser platform maps paths under it to where
 * the assets are served.
 */
export const PACKAGE_ROOT = new URL(/* @vite-ignore */ '../', import.meta.url);

/**
 * Where an asset of the package is, as the platform's `path`: the file-system path of a file:
 * URL (decoded), else the URL itself.
 */
export function assetPath(url: URL): string {
  if (url.protocol !== 'file:') return url.href;
  const p = decodeURIComponent(url.pathname);
  return /^\/[A-Za-z]:\//.test(p) ? p.slice(1) : p;
}

/**
 * An optional capability of the platform, or an Error naming what needs it (e.g.
 * `need('worker', 'worker threads')`).
 */
export function need<K extends 'worker' | 'channel' | 'webgpu' | 'onDemand'>(k: K, what: string): NonNullable<Platform[K]> {
  const p = platform();
  const v = p[k];
  if (!v) {
    const why = p.whyAbsent?.(k);
    throw new Error(`${what} are not available on the ${p.name} platform${why ? ` (${why})` : ''}`);
  }
  return (typeof v === 'function' ? v.bind(p) : v) as NonNullable<Platform[K]>;
}

// Under Node, install the Node platform now (see the top of this file). The specifier is computed
// so that bundlers do not follow it: a browser bundle of the core never contains the Node code.
const proc = (globalThis as { process?: { versions?: { node?: string } } }).process;
if (!current && proc?.versions?.node) {
  const nodeImpl = new URL(`./platform/node.${import.meta.url.endsWith('.ts') ? 'ts' : 'js'}`, import.meta.url).href;
  try {
    current ??= ((await import(/* @vite-ignore */ /* webpackIgnore: true */ nodeImpl)) as { nodePlatform: Platform }).nodePlatform;
  } catch {
    // bundled for Node without runtime/platform/node: its entry calls setPlatform()
  }
}
