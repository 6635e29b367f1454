// Read-merge-write under a lock file, for the files that several `kernforge tune` processes
// rewrite: the tuning cache (runtime/tune/cache.ts) and the tuned artefact (runtime/tune/tuned.ts).
// The lock is `<file>.lock` beside the file, taken through the platform (Platform.withLockFile;
// Node: runtime/platform/lock.ts, with stale-lock detection; a browser: a Web Lock, under which
// the update runs again on the copy another tab stored, runtime/platform/browser.ts). A platform
// without locks runs the update without one.
import { platform, type HeldLock } from '../platform.ts';
import { KernforgeError } from '../errors.ts';

/**
 * The lock of a tuning file could not be taken: something else is in its place (a folder), the
 * folder cannot be written, or other processes kept the lock for a minute. One line, exit 2.
 */
export class TuneLockError extends KernforgeError {}

/** The lock file that guards `path`: `<path>.lock`. */
export function lockPathOf(path: string): string {
  return `${path}.lock`;
}

/**
 * Run `update` holding the lock of `path` and return what it returns; `note` is told, in one
 * line, when a stale lock (a killed tuner's) was taken over. `update` gets `held()`: false when
 * another process took the lock over meanwhile (then write nothing and try again). A lock that
 * cannot be taken is a TuneLockError; what `update` throws passes as it is.
 */
export function underLock<T>(path: string, update: (lock: HeldLock) => T, note?: (line: string) => void): T {
  const p = platform();
  if (!p.withLockFile) return update({ held: () => true });
  let entered = false;
  try {
    return p.withLockFile(
      lockPathOf(path),
      (lock) => {
        entered = true;
        return update(lock);
      },
      { onTakeover: (l) => (note ?? ((x: string) => p.stderr(`kernforge: ${x}`)))(l) },
    );
  } catch (e) {
    if (entered) throw e;
    throw new TuneLockError((e as Error).message, { cause: e }); // each names the lock file and what to do
  }
}
