// The one user-error type of kernforge. Every mistake in what a user gave (a spec, a key, a file,
// an option, an argument of the API, a device that is not there) is a KernforgeError or a
// subclass of it: its message is for the user as it stands (what, where, what is allowed), so
// the CLI prints it as one line and exits with status 2, and API callers can catch the class.
// Anything else that escapes is a bug in kernforge and keeps its stack trace.

/** A mistake in the user's input; the message says what, where and what is allowed. */
export class KernforgeError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** The name the CLI and older code use for the same type. */
export { KernforgeError as UserError };

/**
 * Whether `e` is a user error: an instance of KernforgeError, or an error that crossed a worker
 * boundary (structured clone keeps only the name) and was one there.
 */
export function isUserError(e: unknown): e is Error {
  if (e instanceof KernforgeError) return true;
  return e instanceof Error && USER_ERROR_NAMES.has(e.name);
}

/** Names of the user-error classes, for errors that arrive from a worker thread as plain Errors. */
const USER_ERROR_NAMES = new Set([
  'KernforgeError', 'UserError', 'SpecError', 'ExprError', 'UnknownVariantError', 'NoAdapterError', 'GpujsModeError', 'ThreadCountError', 'UnknownTargetError', 'MissingRunnerError',
  'GemInputError', 'ConvInputError', 'MdInputError', 'MdBlowUpError', 'MdBlowUp', 'GroError', 'TuneOptionsError', 'ReportInputError', 'TunedFileError', 'ApiInputError',
]);
