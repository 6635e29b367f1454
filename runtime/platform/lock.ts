// Lock files under Node (runtime/platform.ts: Platform.withLockFile), for files that several
// processes read, merge and rewrite: the tuning cache and the tuned artefact (issue 13, class 3).
//
// Taking the lock: create the lock file exclusively (open with 'wx': exactly one process
// succeeds) and write into it who holds it: { pid, host, token }. While another process holds
// it, wait a few milliseconds (a synchronous sleep: Atomics.wait) and try again. A lock is stale,
// and taken over at once, when
//   - its holder is a process of this host that no longer runs (killed: kill -9 during a write);
//   - it is older than `staleMs` (default 10 s; a write under the lock takes milliseconds), whoever
//     holds it: a stopped or hung process, a process of another host (a shared folder), or a pid
//     that was reused by an unrelated process;
//   - it is empty or unreadable and older than a second (a holder killed between creating it and
//     writing into it).
// Taking over renames the stale lock aside (one process wins the rename), checks that the file
// it moved is the one it judged stale (same inode; otherwise it puts the fresh lock back), and
// removes it; then it tries again to create the lock. So a stale lock never blocks: a dead
// holder's is taken at once, any other after `staleMs`. Waiting ends with an Error after
// `maxWaitMs` (default 60 s) only when other processes keep taking the lock first all that time.
//
// This module imports only Node built-ins (runtime/platform/node.ts loads it while
// runtime/platform.ts is being evaluated).
import { closeSync, fstatSync, linkSync, mkdirSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { HeldLock, LockOptions } from '../platform.ts';

/** Default age (ms) after which a lock is stale whoever holds it. */
export const LOCK_STALE_MS = 10_000;
/** Default longest wait (ms) for a lock that other processes keep taking. */
export const LOCK_MAX_WAIT_MS = 60_000;
/** An empty or unreadable lock older than this (ms) was left by a holder killed before it wrote into it. */
const EMPTY_STALE_MS = 1_000;

/** Who holds a lock, as written into the lock file. */
interface Holder {
  pid: number;
  host: string;
  token: string;
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));
/** Sleep `ms` milliseconds, synchronously. */
const sleep = (ms: number): void => void Atomics.wait(sleeper, 0, 0, ms);

/** Whether process `pid` of this host runs (EPERM: it runs, as another user). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The lock file as seen now: its inode, age and holder; undefined when it is gone. */
function inspect(path: string): { ino: number; ageMs: number; holder?: Holder } | undefined {
  try {
    const st = statSync(path);
    if (!st.isFile()) throw new Error(`${path} is not a lock file but a ${st.isDirectory() ? 'folder' : 'special file'}: move it away (the lock is taken by creating a file there)`);
    let holder: Holder | undefined;
    try {
      const h = JSON.parse(readFileSync(path, 'utf8')) as Holder;
      if (Number.isInteger(h?.pid) && typeof h.host === 'string') holder = h;
    } catch {
      // empty (its holder is between creating and writing it, or was killed there) or garbled
    }
    return { ino: st.ino, ageMs: Date.now() - st.mtimeMs, holder };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
}

/** Why a lock is stale, or undefined while it is not. */
function staleness(seen: { ageMs: number; holder?: Holder }, staleMs: number): string | undefined {
  const h = seen.holder;
  const age = `${(Math.max(0, seen.ageMs) / 1000).toFixed(1)} s`;
  if (!h) return seen.ageMs > EMPTY_STALE_MS ? `it is empty or unreadable and ${age} old (its holder was killed while taking it)` : undefined;
  if (h.host === hostname() && h.pid !== process.pid && !running(h.pid)) return `its process ${h.pid} is no longer running`;
  if (seen.ageMs > staleMs) return `process ${h.pid} on ${h.host} has held it for ${age}, longer than the ${staleMs / 1000} s a write takes at most`;
  return undefined;
}

/** Remove the stale lock of inode `ino`; false when the lock changed hands meanwhile (nothing removed). */
function takeOver(path: string, ino: number): boolean {
  const aside = `${path}.stale-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    renameSync(path, aside);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return false; // released or taken over by another process
    throw e;
  }
  let same = false;
  try {
    same = statSync(aside).ino === ino;
    // a fresh lock taken between our look and the rename: put it back unless there is a newer one
    if (!same) linkSync(aside, path);
  } catch {
    // a newer lock is there: the one moved aside has lost anyway (its holder sees held() false)
  }
  unlinkSync(aside);
  return same;
}

/** Create the lock file exclusively with `text`; false when it exists. Its folder is created if missing. */
function create(path: string, text: string): boolean {
  try {
    return tryCreate(path, text);
  } catch (e) {
    throw new Error(`cannot create the lock file ${path}: ${(e as Error).message}`, { cause: e });
  }
}

function tryCreate(path: string, text: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'wx');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code !== 'ENOENT') throw e;
    mkdirSync(dirname(path), { recursive: true });
    try {
      fd = openSync(path, 'wx');
    } catch (e2) {
      if ((e2 as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw e2;
    }
  }
  try {
    writeSync(fd, text);
    if (fstatSync(fd).size !== Buffer.byteLength(text)) throw new Error('short write (is the disk full?)');
  } catch (e) {
    closeSync(fd);
    try {
      unlinkSync(path);
    } catch {
      // already gone
    }
    throw e;
  }
  closeSync(fd);
  return true;
}

/**
 * Run `fn` holding the lock file `path` (see the top of this file), then remove the lock; returns
 * what `fn` returns. `fn` gets `held()`, which turns false if another process took the lock over
 * as stale meanwhile (check it right before writing what the lock protects).
 */
export function withLockFile<T>(path: string, fn: (lock: HeldLock) => T, o: LockOptions = {}): T {
  const staleMs = o.staleMs ?? LOCK_STALE_MS;
  const maxWaitMs = o.maxWaitMs ?? LOCK_MAX_WAIT_MS;
  const me: Holder = { pid: process.pid, host: hostname(), token: randomBytes(8).toString('hex') };
  const text = `${JSON.stringify(me)}\n`;
  const t0 = Date.now();
  let last: Holder | undefined;
  for (let attempt = 0; !create(path, text); attempt++) {
    const seen = inspect(path);
    if (!seen) continue; // released between our try and our look
    last = seen.holder ?? last;
    const why = staleness(seen, staleMs);
    if (why) {
      if (takeOver(path, seen.ino)) o.onTakeover?.(`took over the stale lock ${path}: ${why}`);
      continue;
    }
    if (Date.now() - t0 > maxWaitMs) {
      throw new Error(`could not take the lock ${path} in ${maxWaitMs / 1000} s: other processes kept it${last ? ` (last process ${last.pid} on ${last.host})` : ''}; if none is running, remove the file`);
    }
    sleep(1 + Math.random() * Math.min(25, 2 + 2 * attempt));
  }
  const lock: HeldLock = {
    held() {
      try {
        return readFileSync(path, 'utf8') === text;
      } catch {
        return false;
      }
    },
  };
  try {
    return fn(lock);
  } finally {
    if (lock.held()) {
      try {
        unlinkSync(path);
      } catch {
        // taken over meanwhile
      }
    }
  }
}
