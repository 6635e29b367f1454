// The output policy: one implementation for every file and folder kernforge writes (the CLI and
// the library alike), on the platform (runtime/platform.ts).
//   1. Nothing the user did not ask to replace is deleted or replaced. An output path that is a
//      folder (or a device, a pipe), or that lies under a file, is refused before any work starts
//      (checkOutputFile). A file that is not of the kind a command writes (an unrelated JSON given
//      as `tune --out`) is replaced only when asked (checkReplace, `--force`). A generated library
//      goes only into a new or empty folder, or over a previous kernforge output (a folder with a
//      kernforge manifest.json), unless asked (checkOutputFolder, `--force`); a file is never
//      replaced by a folder.
//   2. Temporary files have unique names beside their target (`.<name>.<pid>.<random>.tmp`), so
//      no file of the user's (`X.tmp`, `X.partial`) is ever taken for one.
//   3. A write is complete or it did not happen: the data go to the temporary file, which is
//      checked to hold exactly the bytes written (a short write, a file-size limit `ulimit -f`
//      (EFBIG: Node ignores SIGXFSZ), a full disk) and flushed to disk before it is renamed over
//      the target. On any failure the temporary file is removed, the previous file is unchanged,
//      and an OutputError (a KernforgeError: one line, exit status 2 in the CLI) names the path
//      and what went wrong. Never "wrote" for a file that is not there in full.
import { KernforgeError } from './errors.ts';
import { platform, type FileWriter } from './platform.ts';

/** A path kernforge may not write, or a write that failed; the message names the path and why. */
export class OutputError extends KernforgeError {}

/** Why a write failed, in words, from the error's code (ENOSPC, EFBIG, EACCES, ...). */
export function writeFailure(e: unknown): string {
  const err = e as { code?: string; message?: string };
  switch (err?.code) {
    case 'EFBIG':
      return 'the file would exceed the file-size limit (ulimit -f)';
    case 'ENOSPC':
      return 'no space left on the device';
    case 'EDQUOT':
      return 'the disk quota is exceeded';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EROFS':
      return 'the file system is read-only';
    case 'EISDIR':
      return 'it is a folder';
    case 'ENOTDIR':
      return 'a part of the path is a file, not a folder';
    case 'ENAMETOOLONG':
      return 'the name is too long';
    case 'EIO':
      return 'an input/output error on the device';
    default:
      return String(err?.message ?? e).split('\n')[0]!;
  }
}

/**
 * The OutputError for a write of `path` that failed with `e`; `existed`: whether something was
 * there before (it is then said to be unchanged), `thing` what it was ("file", "output").
 */
export function writeError(path: string, e: unknown, existed: boolean, thing = 'file'): OutputError {
  if (e instanceof OutputError) return e;
  return new OutputError(`cannot write ${path}: ${writeFailure(e)}; ${existed ? `the previous ${thing} is unchanged` : 'nothing was written'}`, { cause: e });
}

/** The nearest existing folder-or-file above `abs` (an absolute path), when it is not a folder. */
function fileAbove(abs: string): string | undefined {
  const p = platform();
  let d = abs;
  for (;;) {
    const up = p.resolve(d, '..');
    if (up === d) return undefined;
    d = up;
    const s = p.stat(d);
    if (s) return s.kind === 'folder' ? undefined : d;
  }
}

/**
 * Refuse, before any work, an output file path that cannot be written as a file: an existing
 * folder, a device, pipe or socket, or a path under a file. `what` names it in the message (e.g.
 * "-o", "--confout"). A missing folder on the way is fine (it is created).
 */
export function checkOutputFile(path: string, what = 'the output'): void {
  const p = platform();
  const abs = p.resolve(path);
  const s = p.stat(abs);
  if (s?.kind === 'folder') throw new OutputError(`cannot write ${path}: it is a folder; ${what} must name a file (a new one, or one to replace)`);
  if (s?.kind === 'other') throw new OutputError(`cannot write ${path}: it is not a regular file (a device, pipe or socket); ${what} must name a regular file`);
  if (!s) {
    const f = fileAbove(abs);
    if (f) throw new OutputError(`cannot write ${path}: ${f} is a file, not a folder`);
  }
}

/** What checkReplace needs to judge an existing file. */
export interface ReplaceRule {
  /** The kind of file the command writes, e.g. "kernforge-tuned file". */
  kind: string;
  /** Why the text of the existing file is not of that kind, or undefined when it is. */
  judge(text: string): string | undefined;
  /** Replace it anyway (the user asked, e.g. `--force`). */
  force?: boolean;
}

/**
 * Refuse to replace an existing file at `path` that is not of the kind a command writes, unless
 * `rule.force`: one line naming the file, why it is not, and how to replace it anyway. Also does
 * checkOutputFile.
 */
export function checkReplace(path: string, rule: ReplaceRule, what?: string): void {
  checkOutputFile(path, what);
  const p = platform();
  if (rule.force || !p.stat(p.resolve(path))) return;
  let why: string | undefined;
  try {
    why = rule.judge(p.readText(path));
  } catch (e) {
    why = `cannot be read: ${writeFailure(e)}`;
  }
  if (why !== undefined) throw new OutputError(`${path} exists and is not a ${rule.kind} (${why}); not replacing it: give another path, or --force to replace it`);
}

/**
 * The rule for a kernforge JSON file (`"format": <format>, "version": <version>`, e.g. the tuned
 * artefact): an existing file is replaced only when it is one (or `force`).
 */
export function formatRule(format: string, version: number, force?: boolean): ReplaceRule {
  return {
    kind: `${format} file`,
    force,
    judge(text) {
      let j: unknown;
      try {
        j = JSON.parse(text);
      } catch {
        return 'not JSON';
      }
      const f = j !== null && typeof j === 'object' && !Array.isArray(j) ? (j as { format?: unknown; version?: unknown }) : undefined;
      if (f?.format === undefined) return 'no "format" field';
      if (f.format !== format) return `format ${JSON.stringify(f.format)}`;
      if (f.version !== version) return `version ${JSON.stringify(f.version ?? null)}; this kernforge writes version ${version}`;
      return undefined;
    },
  };
}

/**
 * Refuse a path that must be a folder (created if missing) but is a file, a device, pipe or
 * socket, or lies under a file; `what` names it (e.g. "--cache"), `allowed` says what may be given.
 */
export function checkFolderPath(dir: string, what: string, allowed: string): void {
  const p = platform();
  const abs = p.resolve(dir);
  const s = p.stat(abs);
  if (s && s.kind !== 'folder') throw new OutputError(`${what} ${dir} is ${s.kind === 'file' ? 'a file' : 'not a regular file or folder'}, not a folder; ${allowed}`);
  const f = s ? undefined : fileAbove(abs);
  if (f) throw new OutputError(`${what} ${dir}: ${f} is a file, not a folder`);
}

/** Whether `dir` holds a previous kernforge output: a manifest.json written by the generator. */
export function isKernforgeOutput(dir: string): boolean {
  const p = platform();
  const m = p.resolve(dir, 'manifest.json');
  if (p.stat(m)?.kind !== 'file') return false;
  try {
    const j = JSON.parse(p.readText(m)) as { generator?: unknown; specs?: unknown; variants?: unknown };
    return typeof j.generator === 'string' && Array.isArray(j.specs) && Array.isArray(j.variants);
  } catch {
    return false;
  }
}

/**
 * Refuse, before any work, an output folder for a generated library that would lose the user's
 * files: a file (never replaced by a folder, even with `force`), a path under a file, or a folder
 * that is neither empty nor a previous kernforge output (isKernforgeOutput), unless `force`.
 */
export function checkOutputFolder(dir: string, o: { force?: boolean } = {}): void {
  checkFolderPath(dir, '--out', 'give a folder (a new or empty one, or a previous kernforge output)');
  const p = platform();
  const abs = p.resolve(dir);
  if (!p.stat(abs) || o.force || isKernforgeOutput(abs)) return;
  const entries = p.list(abs);
  if (entries.length === 0) return;
  const here = abs === p.resolve('.') ? ' (the current folder)' : '';
  const shown = entries.slice(0, 3).join(', ') + (entries.length > 3 ? ', ...' : '');
  throw new OutputError(
    `--out ${dir}${here} is not empty (${entries.length} entr${entries.length === 1 ? 'y' : 'ies'}: ${shown}) and holds no previous kernforge output (no kernforge manifest.json); ` +
      'not replacing it: give a new or empty folder, or --force to replace everything in it',
  );
}

/** Write `data` to `path` by the policy (checkOutputFile, then Platform.writeFileAtomic); failures are OutputErrors. */
export function writeOutput(path: string, data: string | Uint8Array, what?: string): void {
  checkOutputFile(path, what);
  const p = platform();
  const existed = p.stat(p.resolve(path)) !== undefined;
  try {
    p.writeFileAtomic(path, data);
  } catch (e) {
    throw writeError(path, e, existed);
  }
}

/** A file written piece by piece (openOutput): in place only after commit(). */
export interface OutputWriter {
  /** Append text; a failed write removes the temporary file and throws an OutputError. */
  write(text: string): void;
  /** Flush, check and put the file in place under its name; throws an OutputError when that fails. */
  commit(): void;
  /** Remove the temporary file; the previous file (if any) stays. */
  abort(): void;
}

/**
 * Open `path` for writing piece by piece (the MD trajectory) by the policy: checkOutputFile, the
 * pieces go to a unique temporary file beside it, commit() renames it into place, abort() or a
 * failed write removes it. A file of that name never holds a partial file of this run.
 */
export function openOutput(path: string, what?: string): OutputWriter {
  checkOutputFile(path, what);
  const p = platform();
  const existed = p.stat(p.resolve(path)) !== undefined;
  let w: FileWriter;
  try {
    w = p.createWriter(path);
  } catch (e) {
    throw writeError(path, e, existed);
  }
  const guard = (f: () => void): void => {
    try {
      f();
    } catch (e) {
      w.abort();
      throw writeError(path, e, existed);
    }
  };
  return {
    write: (text) => guard(() => w.write(text)),
    commit: () => guard(() => w.close()),
    abort: () => w.abort(),
  };
}
