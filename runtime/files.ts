// Writing output files so that a reader never sees a partial one: the data go to a temporary file
// in the same folder (created if missing), are flushed to disk, then renamed over the target; the
// folder is flushed too where the file system allows. On any error the temporary file is removed.
// The work is the platform's (runtime/platform.ts: writeFileAtomic).
import { platform } from './platform.ts';

/** Write `data` to `path` atomically (see above); errors are rethrown as they are. */
export function writeFileAtomic(path: string, data: string | Uint8Array): void {
  platform().writeFileAtomic(path, data);
}
