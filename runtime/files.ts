// Writing output files so that a reader never sees a partial one: the data go to a temporary file
// in the same folder (created if missing), are flushed to disk, then renamed over the target; the
// folder is flushed too where the file system allows. On any error the temporary file is removed.
import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

/** Write `data` to `path` atomically (see above); errors are rethrown as they are. */
export function writeFileAtomic(path: string, data: string | Uint8Array): void {
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
