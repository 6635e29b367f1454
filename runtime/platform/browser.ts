// Usage (a web app that bundles `kernforge` with esbuild, Vite or webpack; docs/browser.md):
//
//   import { open, installBrowserPlatform, bundledMolecule, parsePqr, parseVert, platform } from 'kernforge';
//   const bp = await installBrowserPlatform();          // fetches the assets, opens the IndexedDB store
//   const kf = await open({ tuned: false, targets: ['wasm'] });
//   const m = bundledMolecule('1uwo_A');
//   const r = await kf.gem.potential(parsePqr(platform().readText(m.pqr)), parseVert(platform().readText(m.vert!)));
//
// What must be served (over http://localhost or https, the page cross-origin isolated with
// `Cross-Origin-Opener-Policy: same-origin` and `Cross-Origin-Embedder-Policy: require-corp`,
// e.g. by `kernforge serve`): the installed package's dist/ (its generated/, data/ and specs/) at
// the URL `assets` (default: `new URL('../', <bundle URL>)`, where the core looks), and for worker
// threads its dist/runtime/platform/browser-worker.js, whose URL is `workerUrl`. Bundling: esbuild
// `--platform=browser --format=esm --target=es2022`, or Vite 8 as it is (the core has one
// top-level await); both are tested by test/browser-bundle.test.ts.
//
// The browser platform (runtime/platform.ts's adapter for a page or a dedicated worker): the core
// reads its assets (the manifest, WGSL and gpu.js sources, the bundled molecules and water box)
// synchronously, so they are fetched before use (preload) into memory; wasm variants compile
// straight from the network (WebAssembly.compileStreaming). What the runtime writes (the tuning
// cache under .kernforge/tune, the tuned artefact, outputs) goes to an in-memory file system
// rooted at "/" that is written through to IndexedDB and read back when the platform is
// installed: a reload in the middle of a tune finds its cache and goes on from it; tabs tuning at
// once merge the cache under a Web Lock (withLockFile below). WebGPU is
// navigator.gpu (the adapter info gives the device's fingerprint fields); worker threads are Web
// Workers running browser-worker.js over SharedArrayBuffer (the page must be cross-origin
// isolated); SHA-256 is @noble/hashes (synchronous; Web Crypto's digest is async and is used to
// check it once); CPU facts come from navigator (hardwareConcurrency, deviceMemory, the user
// agent's client hints).
import { sha256 as nobleSha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { isSharedChannelPort, sharedChannel } from './shared-channel.ts';
import { PACKAGE_ROOT, setPlatform, type CpuFacts, type FileWriter, type HeldLock, type PathInfo, type Platform, type TaskWorker, type WorkerHandlers } from '../platform.ts';

/** What to fetch before use (paths relative to the assets folder, e.g. "generated/manifest.json"). */
export interface PreloadOptions {
  /** Targets whose library sources to fetch (default: wgsl and gpujs; wasm compiles from the network, ts bundles are imported). */
  targets?: readonly ('wgsl' | 'gpujs' | 'wasm')[];
  /** Families whose sources to fetch (default: all in the manifest). */
  families?: readonly string[];
  /** Data files to fetch (default: the GEM molecules mb_hhelix and 1uwo_A with their surfaces, and the SPC/E water box). */
  data?: readonly string[];
  /** More files to fetch. */
  files?: readonly string[];
}

/** Options of createBrowserPlatform / installBrowserPlatform. */
export interface BrowserPlatformOptions {
  /**
   * The URL of the folder holding the package's generated/ and data/ (default: where the core
   * expects them: `new URL('../', import.meta.url)` of the module that evaluated it).
   */
  assets?: string | URL;
  /** What to fetch up front (default: see PreloadOptions); false: only the manifest. */
  preload?: PreloadOptions | false;
  /**
   * URL of the worker entry, the package's dist/runtime/platform/browser-worker.js (a
   * self-contained module) served by the app. Absent: no worker threads (threads: 1 only).
   */
  workerUrl?: string | URL;
  /** IndexedDB database holding the written files (default "kernforge"); false: memory only. */
  storage?: string | false;
  /** Where diagnostic lines go (default console.info). */
  stderr?: (line: string) => void;
  /** Environment variables the runtime reads (KERNFORGE_TUNED, KERNFORGE_WASM_SIMD, ...). */
  env?: Record<string, string>;
  /** Called as assets arrive: files fetched, files to fetch, bytes so far. */
  onProgress?: (done: number, total: number, bytes: number) => void;
  /**
   * false: no WebGPU here even where `navigator.gpu` exists (a page that found no usable adapter,
   * or whose user turned WebGPU off, tells its workers so: they then never ask the GPU for an
   * adapter). Default: WebGPU where the browser has it.
   */
  webgpu?: false;
}

/** The browser platform, with what a page needs beyond the Platform interface. */
export interface BrowserPlatform extends Platform {
  /** The assets folder (absolute URL, with a trailing slash). */
  readonly assets: string;
  /** Fetch more assets (paths relative to the assets folder) before use. */
  preload(files: readonly string[]): Promise<void>;
  /** Paths of the written files (the in-memory file system), sorted. */
  files(): string[];
  /** Remove a written file (and its stored copy). */
  remove(path: string): void;
  /** Resolves once every write so far has reached IndexedDB. */
  flush(): Promise<void>;
  /** Remove every written file, here and in IndexedDB. */
  clear(): Promise<void>;
}

const DEFAULT_DATA = ['data/gem/mb_hhelix.pqr', 'data/gem/mb_hhelix.vert', 'data/gem/1uwo_A.pqr', 'data/gem/1uwo_A.vert', 'data/md/spce-884.gro'];
const STORE = 'files';

// ------------------------------------------------------------------------------------------
// Paths: "/..." is the in-memory file system (cwd "/"); the package's assets are asked for by
// the URL or path the core computed from its import.meta.url (runtime/platform.ts PACKAGE_ROOT),
// mapped here to the assets folder.

/** Normalise a POSIX path ("/a/./b/../c" -> "/a/c"). */
function normalise(p: string): string {
  const out: string[] = [];
  for (const s of p.split('/')) {
    if (s === '' || s === '.') continue;
    if (s === '..') out.pop();
    else out.push(s);
  }
  return `/${out.join('/')}`;
}

function resolvePaths(...paths: string[]): string {
  let r = '/';
  for (const p of paths) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(p)) r = p;
    else r = p.startsWith('/') ? p : `${r.replace(/\/$/, '')}/${p}`;
  }
  return /^[a-z][a-z0-9+.-]*:/i.test(r) ? r : normalise(r);
}

/** The package root as the core sees it: its URL and, for http(s) URLs, the path part (data.ts gives paths). */
function rootForms(): string[] {
  const forms = [PACKAGE_ROOT.href];
  const path = decodeURIComponent(PACKAGE_ROOT.pathname);
  forms.push(path);
  return forms;
}

/** Fetch `url`, failing with the URL and status when it is not there. */
async function get(url: string): Promise<Response> {
  let r: Response;
  try {
    r = await fetch(url);
  } catch (e) {
    throw new Error(`kernforge: could not fetch ${url} (${(e as Error).message})`);
  }
  if (!r.ok) throw new Error(`kernforge: ${url}: HTTP ${r.status} ${r.statusText} (serve the package's generated/ and data/ under the platform's assets URL; docs/browser.md)`);
  return r;
}

// ------------------------------------------------------------------------------------------
// IndexedDB: one object store of path -> string | Uint8Array.

function request<T>(r: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error ?? new Error('IndexedDB request failed'));
  });
}

async function openDb(name: string): Promise<IDBDatabase | undefined> {
  const idb = (globalThis as { indexedDB?: IDBFactory }).indexedDB;
  if (!idb) return undefined;
  const r = idb.open(name, 1);
  r.onupgradeneeded = () => {
    if (!r.result.objectStoreNames.contains(STORE)) r.result.createObjectStore(STORE);
  };
  return request(r);
}

async function loadAll(db: IDBDatabase): Promise<Map<string, string | Uint8Array>> {
  const tx = db.transaction(STORE, 'readonly');
  const store = tx.objectStore(STORE);
  const [keys, values] = await Promise.all([request(store.getAllKeys()), request(store.getAll())]);
  return new Map(keys.map((k, i) => [String(k), values[i] as string | Uint8Array]));
}

/** The stored copies of `paths` (undefined: not stored). */
async function readStored(db: IDBDatabase, paths: readonly string[]): Promise<Map<string, string | Uint8Array | undefined>> {
  const store = db.transaction(STORE, 'readonly').objectStore(STORE);
  const values = await Promise.all(paths.map((k) => request(store.get(k))));
  return new Map(paths.map((k, i) => [k, values[i] as string | Uint8Array | undefined]));
}

/** Store `paths` as `files` holds them (a path it lacks is deleted); resolves once committed. */
function storeFiles(db: IDBDatabase, paths: ReadonlySet<string>, files: ReadonlyMap<string, string | Uint8Array>): Promise<void> {
  const tx = db.transaction(STORE, 'readwrite');
  const store = tx.objectStore(STORE);
  for (const k of paths) {
    const v = files.get(k);
    if (v === undefined) store.delete(k);
    else store.put(v, k);
  }
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onabort = () => reject(tx.error ?? new Error('IndexedDB transaction aborted'));
  });
}

// ------------------------------------------------------------------------------------------

/** What this CPU and browser are (navigator; the client hints where the browser gives them). */
async function cpuFacts(): Promise<CpuFacts> {
  const nav = (globalThis as { navigator?: Navigator & { deviceMemory?: number; userAgentData?: { brands?: { brand: string; version: string }[]; platform?: string; getHighEntropyValues?(h: string[]): Promise<Record<string, unknown>> } } }).navigator;
  const ua = nav?.userAgentData;
  let hints: Record<string, unknown> = {};
  try {
    hints = (await ua?.getHighEntropyValues?.(['architecture', 'bitness', 'platformVersion', 'fullVersionList'])) ?? {};
  } catch {
    // client hints refused: the user agent string says enough
  }
  const brands = (hints.fullVersionList as { brand: string; version: string }[] | undefined) ?? ua?.brands ?? [];
  const brand = brands.find((b) => /chrom|edge|opera|firefox|safari/i.test(b.brand) && !/not.?a.?brand/i.test(b.brand)) ?? brands.find((b) => !/not.?a.?brand/i.test(b.brand));
  const agent = nav?.userAgent ?? '';
  const m = /(Firefox|Chrome|Chromium|Version)\/([\d.]+)/.exec(agent);
  const cores = nav?.hardwareConcurrency ?? 1;
  const bits = hints.bitness === '64' ? '64' : '';
  const arch = typeof hints.architecture === 'string' && hints.architecture ? `${hints.architecture === 'x86' && bits ? 'x64' : hints.architecture === 'arm' && bits ? 'arm64' : hints.architecture}` : /aarch64|arm64/i.test(agent) ? 'arm64' : /x86_64|x64|win64|amd64/i.test(agent) ? 'x64' : 'unknown';
  return {
    model: 'unknown CPU', // browsers do not tell
    cores,
    parallelism: cores,
    ...(nav?.deviceMemory ? { memoryBytes: nav.deviceMemory * 2 ** 30 } : {}),
    os: (ua?.platform || (/Linux/.test(agent) ? 'Linux' : /Mac/.test(agent) ? 'macOS' : /Windows/.test(agent) ? 'Windows' : 'unknown')).toLowerCase(),
    arch,
    runtime: brand ? brand.brand.toLowerCase().replace(/^google /, '') : m ? m[1]!.toLowerCase() : 'browser',
    version: brand ? brand.version : m ? m[2]! : 'unknown',
  };
}

/** SHA-256 of a UTF-8 string, lowercase hex (synchronous). */
export function sha256Hex(text: string): string {
  return bytesToHex(nobleSha256(utf8ToBytes(text)));
}

/** Check the synchronous SHA-256 against Web Crypto once (where crypto.subtle exists). */
async function checkSha(): Promise<void> {
  const subtle = (globalThis as { crypto?: Crypto }).crypto?.subtle;
  if (!subtle) return;
  const probe = 'kernforge';
  const hex = [...new Uint8Array(await subtle.digest('SHA-256', new TextEncoder().encode(probe)))].map((b) => b.toString(16).padStart(2, '0')).join('');
  if (hex !== sha256Hex(probe)) throw new Error(`kernforge: the SHA-256 of this build disagrees with Web Crypto (${sha256Hex(probe)} vs ${hex})`);
}

/**
 * A browser platform (not installed: installBrowserPlatform installs it). Fetches the manifest
 * and the preloaded assets, reads the files stored in IndexedDB back, and checks SHA-256.
 */
export async function createBrowserPlatform(o: BrowserPlatformOptions = {}): Promise<BrowserPlatform> {
  const here = (globalThis as { location?: Location }).location?.href;
  const assets = new URL(String(o.assets ?? PACKAGE_ROOT.href), here).href.replace(/\/?$/, '/');
  if (!/^(https?|blob|data):/.test(assets)) throw new Error(`kernforge: the assets folder ${assets} cannot be fetched: give installBrowserPlatform({ assets }) the URL where the package's generated/ and data/ are served`);
  const roots = rootForms();
  const assetStore = new Map<string, Uint8Array>();
  const texts = new Map<string, string>();
  const fsFiles = new Map<string, string | Uint8Array>();
  const stderr = o.stderr ?? ((l: string) => console.info(l));
  const env = { ...(o.env ?? {}) };
  const dbName = o.storage === undefined ? 'kernforge' : o.storage;
  const db = dbName === false ? undefined : await openDb(dbName).catch((e: Error) => {
    stderr(`kernforge: IndexedDB unavailable (${e.message}); written files last until the page is closed`);
    return undefined;
  });
  if (db) {
    try {
      for (const [k, v] of await loadAll(db)) fsFiles.set(k, v);
    } catch (e) {
      stderr(`kernforge: the files kept in IndexedDB could not be read (${(e as Error).message}); starting without them`);
    }
  }
  let pending: Promise<void> = Promise.resolve();
  // the paths written by the withLockFile callback running now (their IndexedDB write waits for
  // the cross-tab lock: see withLockFile below); undefined outside one
  let lockedWrites: Set<string> | undefined;
  const persist = (op: (s: IDBObjectStore) => void, path: string): void => {
    if (!db) return;
    if (lockedWrites) {
      lockedWrites.add(path);
      return;
    }
    const tx = db.transaction(STORE, 'readwrite');
    op(tx.objectStore(STORE));
    const done = new Promise<void>((resolve) => {
      tx.oncomplete = () => resolve();
      // a failed request fires error, then abort: said once
      tx.onabort = () => {
        stderr(`kernforge: IndexedDB write failed (${tx.error?.message ?? 'aborted'}); the file stays in memory only`);
        resolve();
      };
    });
    pending = pending.then(() => done);
  };
  const write = (path: string, data: string | Uint8Array): void => {
    const v = typeof data === 'string' ? data : data.slice();
    fsFiles.set(path, v);
    persist((s) => s.put(v, path), path);
  };
  const del = (path: string): void => {
    fsFiles.delete(path);
    persist((s) => s.delete(path), path);
  };

  // Between tabs (Platform.withLockFile, for the read-merge-writes of runtime/tune/locked.ts: the
  // tuning cache and the tuned artefact): a Web Lock (navigator.locks) named after the database
  // and the lock file. The callback must return at once and a Web Lock is granted later, so the
  // callback runs at once on this tab's copy of the files (what it returns is the caller's) with
  // its writes kept in memory only; once the lock is granted, the files it wrote are read again
  // from IndexedDB (another tab may have written them since this one read them), it runs again on
  // those (a read-merge-write merges this tab's results into them), and what it writes then is
  // stored before the lock is let go. Two tabs tuning the same device at once merge their results.
  const locks = (globalThis as { navigator?: { locks?: LockManager } }).navigator?.locks;
  let saidNoLocks = false;
  const withLockFile = <T>(path: string, fn: (lock: HeldLock) => T): T => {
    const held: HeldLock = { held: () => true };
    if (!db || lockedWrites) return fn(held); // memory only (nothing shared), or inside another lock's callback
    if (!locks) {
      if (!saidNoLocks) stderr("kernforge: this browser has no Web Locks (navigator.locks): tabs tuning at once may overwrite each other's tuning cache; tune in one tab at a time");
      saidNoLocks = true;
      return fn(held);
    }
    const first = new Set<string>();
    lockedWrites = first;
    let out: T;
    try {
      out = fn(held);
    } finally {
      lockedWrites = undefined;
    }
    if (first.size === 0) return out; // it only read
    const mine = new Map([...first].map((k) => [k, fsFiles.get(k)] as const));
    const name = `kernforge:${dbName}:${resolvePaths(path)}`;
    pending = pending.then(() =>
      locks
        .request(name, async () => {
          const stored = await readStored(db, [...first]);
          for (const [k, v] of stored) v === undefined ? fsFiles.delete(k) : fsFiles.set(k, v);
          const again = new Set<string>();
          lockedWrites = again;
          try {
            fn(held);
          } catch (e) {
            // keep this tab's first result rather than lose it
            stderr(`kernforge: ${path}: merging with what another tab stored failed (${(e as Error).message}); this tab's copy is stored`);
            for (const [k, v] of mine) v === undefined ? fsFiles.delete(k) : fsFiles.set(k, v);
            for (const k of first) again.add(k);
          } finally {
            lockedWrites = undefined;
          }
          await storeFiles(db, again, fsFiles);
        })
        .catch((e: Error) => stderr(`kernforge: ${path}: could not be stored under its lock (${e.message}); it stays in memory only`)),
    );
    return out;
  };

  /** The asset path ("generated/x") of a path the core gave, or undefined when it is not the package's. */
  const assetOf = (path: string): string | undefined => {
    const ours = (rel: string): string | undefined => (/^(generated|data|specs)\//.test(rel) ? rel : undefined);
    // the assets URL itself, or where the core looks (the two may nest either way: the task
    // worker served as dist/runtime/platform/browser-worker.js is one bundle, so its core's root
    // is dist/runtime/, inside the assets folder dist/; its ".../dist/runtime/generated/x" is
    // "runtime/generated/x" under the assets, not an asset, and "generated/x" under the root)
    for (const r of [assets, ...roots]) {
      const rel = path.startsWith(r) ? ours(path.slice(r.length)) : undefined;
      if (rel) return rel;
    }
    return undefined;
  };
  const fsPath = (path: string): string => resolvePaths(path);
  let done = 0, total = 0, bytes = 0;
  const preload = async (files: readonly string[]): Promise<void> => {
    const want = [...new Set(files)].filter((f) => !assetStore.has(f));
    total += want.length;
    // a few requests at a time
    const queue = [...want];
    const runOne = async (): Promise<void> => {
      for (let f = queue.shift(); f !== undefined; f = queue.shift()) {
        const b = new Uint8Array(await (await get(new URL(f, assets).href)).arrayBuffer());
        assetStore.set(f, b);
        done++;
        bytes += b.length;
        o.onProgress?.(done, total, bytes);
      }
    };
    await Promise.all(Array.from({ length: Math.min(8, want.length) }, runOne));
  };
  const assetBytes = (path: string): Uint8Array | undefined => {
    const a = assetOf(path);
    if (a === undefined) return undefined;
    const b = assetStore.get(a);
    if (!b) throw Object.assign(new Error(`kernforge: ${a} was not fetched before use: preload it (installBrowserPlatform({ preload: { files: ['${a}'] } }) or platform().preload(['${a}']))`), { code: 'ENOENT' });
    return b;
  };
  const notFound = (path: string): Error => Object.assign(new Error(`ENOENT: no such file: ${path}`), { code: 'ENOENT' });
  const decoder = new TextDecoder();

  const readText = (path: string): string => {
    const f = fsFiles.get(fsPath(path));
    if (f !== undefined) return typeof f === 'string' ? f : decoder.decode(f);
    const a = assetOf(path);
    if (a !== undefined && texts.has(a)) return texts.get(a)!;
    const b = assetBytes(path);
    if (!b) throw notFound(path);
    const t = decoder.decode(b);
    texts.set(a!, t);
    return t;
  };
  const readBytes = (path: string): Uint8Array => {
    const f = fsFiles.get(fsPath(path));
    if (f !== undefined) return typeof f === 'string' ? new TextEncoder().encode(f) : f.slice();
    const b = assetBytes(path);
    if (!b) throw notFound(path);
    return b.slice();
  };
  const isFolder = (p: string): boolean => {
    const prefix = p === '/' ? '/' : `${p}/`;
    for (const k of fsFiles.keys()) if (k.startsWith(prefix)) return true;
    return false;
  };
  const stat = (path: string): PathInfo | undefined => {
    const p = fsPath(path);
    const f = fsFiles.get(p);
    if (f !== undefined) return { kind: 'file', size: typeof f === 'string' ? new TextEncoder().encode(f).length : f.length };
    if (isFolder(p)) return { kind: 'folder', size: 0 };
    const a = assetOf(path);
    if (a !== undefined && assetStore.has(a)) return { kind: 'file', size: assetStore.get(a)!.length };
    return undefined;
  };

  const cpu = await cpuFacts();
  await checkSha();
  const workerUrl = o.workerUrl === undefined ? undefined : new URL(String(o.workerUrl), here).href;
  const ids = new Uint32Array(1);
  crypto.getRandomValues(ids);

  const p: BrowserPlatform = {
    name: 'browser',
    assets,
    readText,
    readBytes,
    exists: (path) => stat(path) !== undefined,
    stat,
    list(dir) {
      const d = fsPath(dir);
      const prefix = d === '/' ? '/' : `${d}/`;
      const names = new Set<string>();
      for (const k of fsFiles.keys()) if (k.startsWith(prefix)) names.add(k.slice(prefix.length).split('/')[0]!);
      if (names.size === 0 && !isFolder(d)) throw notFound(dir);
      return [...names].sort();
    },
    rename(from, to) {
      const f = fsFiles.get(fsPath(from));
      if (f === undefined) throw notFound(from);
      del(fsPath(from));
      write(fsPath(to), f);
    },
    writeFileAtomic: (path, data) => write(fsPath(path), data),
    withLockFile,
    createWriter(path): FileWriter {
      const parts: string[] = [];
      let open = true;
      return {
        write(text) {
          if (!open) throw new Error(`${path}: written after close`);
          parts.push(text);
        },
        close() {
          if (!open) return;
          open = false;
          write(fsPath(path), parts.join(''));
        },
        abort() {
          open = false;
        },
      };
    },
    resolve: resolvePaths,
    async importModule(path) {
      const a = assetOf(path);
      const url = a !== undefined ? new URL(a, assets).href : new URL(path, here).href;
      return import(/* @vite-ignore */ /* webpackIgnore: true */ url);
    },
    env: (name) => env[name],
    pid: ids[0]! % 1_000_000,
    stderr,
    cpu: () => cpu,
    sha256: sha256Hex,
    async compileWasm(path) {
      const a = assetOf(path);
      if (a !== undefined && assetStore.has(a)) return WebAssembly.compile(assetStore.get(a)! as Uint8Array<ArrayBuffer>);
      const url = a !== undefined ? new URL(a, assets).href : new URL(path, here).href;
      const r = get(url);
      // compileStreaming needs the application/wasm MIME type; other servers get the bytes compiled
      const res = await r;
      if (typeof WebAssembly.compileStreaming === 'function' && (res.headers.get('content-type') ?? '').startsWith('application/wasm')) return WebAssembly.compileStreaming(res);
      return WebAssembly.compile(await res.arrayBuffer());
    },
    async webgpu(flags) {
      if (flags.length > 0) return undefined; // Dawn's toggles (backend=opengles) are not the browser's
      if (o.webgpu === false) throw new Error('WebGPU is off here (installBrowserPlatform webgpu: false: the page found none, or it was turned off)');
      const g = (globalThis as { navigator?: { gpu?: GPU } }).navigator?.gpu;
      if (!g) throw new Error((globalThis as { isSecureContext?: boolean }).isSecureContext === false ? 'navigator.gpu is absent: WebGPU needs a secure context (https, or http://localhost)' : 'navigator.gpu is absent: this browser has no WebGPU (Chromium: --enable-unsafe-webgpu where it is not on by default)');
      return g;
    },
    preload,
    files: () => [...fsFiles.keys()].sort(),
    remove: (path) => del(fsPath(path)),
    flush: () => pending,
    async clear() {
      for (const k of [...fsFiles.keys()]) del(k);
      await pending;
    },
  };
  const inWorker = typeof (globalThis as { WorkerGlobalScope?: unknown }).WorkerGlobalScope === 'function';
  const isolated = typeof SharedArrayBuffer === 'function' && (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated !== false;
  p.whyAbsent = (c) =>
    c === 'worker'
      ? !workerUrl
        ? 'no workerUrl was given to installBrowserPlatform: serve dist/runtime/platform/browser-worker.js and pass its URL'
        : 'the page is not cross-origin isolated, so there is no SharedArrayBuffer: serve it with Cross-Origin-Opener-Policy: same-origin and Cross-Origin-Embedder-Policy: require-corp'
      : c === 'channel'
        ? !inWorker
          ? "the threaded MD engine waits for its workers with Atomics.wait, which a page's main thread may not: run MD in a dedicated Web Worker (installBrowserPlatform there with a workerUrl); here it runs on one thread"
          : 'it needs worker threads: a workerUrl and a cross-origin isolated page (SharedArrayBuffer)'
        : c === 'onDemand'
          ? 'the generator does not run in a browser: only the committed library variants'
          : undefined;
  if (workerUrl && isolated) {
    p.worker = (h: WorkerHandlers): TaskWorker => browserWorker(workerUrl, assets, env, h);
    // the threaded MD engine receives its workers' pair-search parts without returning to the
    // event loop (a polled channel over shared memory: shared-channel.ts) and waits for them with
    // Atomics.wait, which only a worker may: offered in a dedicated worker, not in a page
    if (inWorker) p.channel = sharedChannel;
  }

  // the manifest, then the sources and data asked for
  await preload(['generated/manifest.json']);
  const specs = (JSON.parse(readText(`${assets}generated/manifest.json`)) as { specs?: { file: string }[] }).specs ?? [];
  await preload(specs.map((x) => `specs/${x.file}`)); // the tuner reads their semantic axes
  if (o.preload !== false) {
    const pre = o.preload ?? {};
    const targets = pre.targets ?? ['wgsl', 'gpujs'];
    const m = JSON.parse(readText(`${assets}generated/manifest.json`)) as { variants: { family: string; target: string; file: string }[] };
    const files = m.variants.filter((v) => (targets as string[]).includes(v.target) && (!pre.families || pre.families.includes(v.family))).map((v) => `generated/${v.file}`);
    await preload([...files, ...(pre.data ?? DEFAULT_DATA), ...(pre.files ?? [])]);
  }
  return p;
}

/** Create the browser platform (createBrowserPlatform) and install it (setPlatform); returns it. */
export async function installBrowserPlatform(o: BrowserPlatformOptions = {}): Promise<BrowserPlatform> {
  const p = await createBrowserPlatform(o);
  setPlatform(p);
  return p;
}

// ------------------------------------------------------------------------------------------
// Worker threads: Web Workers running browser-worker.js (a module worker), told the assets
// folder and environment first.

function browserWorker(url: string, assets: string, env: Record<string, string>, h: WorkerHandlers): TaskWorker {
  const w = new Worker(url, { type: 'module', name: 'kernforge task worker' });
  w.onmessage = (e: MessageEvent) => h.message(e.data);
  w.onerror = (e: ErrorEvent) => {
    e.preventDefault();
    h.error(new Error(e.message || 'worker script failed to load'));
  };
  w.onmessageerror = () => h.error(new Error('a message from the worker could not be read'));
  w.postMessage({ kernforgeInit: { assets, env } });
  let ended = false;
  return {
    // a shared channel's port is cloned (its buffer shared), not transferred
    postMessage: (m, transfer = []) => w.postMessage(m, transfer.filter((t) => !isSharedChannelPort(t)) as Transferable[]),
    ref: () => undefined,
    unref: () => undefined,
    async terminate() {
      if (ended) return 0;
      ended = true;
      w.terminate();
      h.exit(0);
      return 0;
    },
  };
}
