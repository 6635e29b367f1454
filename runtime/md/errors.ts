// Errors of the MD workload that are the user's to fix (bad input, impossible settings, a run that
// blew up): the CLI prints their message as it stands, without a stack trace.

export class MdInputError extends Error {}

/** The run stopped because forces or positions stopped being finite or became absurdly large. */
export class MdBlowUpError extends Error {}
