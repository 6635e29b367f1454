// Errors of the MD workload that are the user's to fix (bad input, impossible settings, a run that
// blew up): the CLI prints their message as it stands, without a stack trace.
import { KernforgeError } from '../errors.ts';

export class MdInputError extends KernforgeError {}

/** The run stopped because forces or positions stopped being finite or became absurdly large. */
export class MdBlowUpError extends KernforgeError {}
