// Writing output files so that a reader never sees a partial one and a failed write loses
// nothing: the output policy of runtime/output.ts (writeOutput): the path is checked (not a
// folder, not under a file), the data go to a temporary file with a unique name beside it, are
// checked to be all there and flushed to disk, then renamed over the target. On any error the
// temporary file is removed, the previous file is unchanged, and an OutputError names the path.
import { writeOutput } from './output.ts';

/** Write `data` to `path` atomically (see above); a failure is an OutputError (one line, the previous file unchanged). */
export function writeFileAtomic(path: string, data: string | Uint8Array): void {
  writeOutput(path, data);
}
