/** A mistake in how the command was called: printed without a stack trace, exit code 2. */
export class UsageError extends Error {}

/** The command was called correctly but cannot do its job (port taken, organization exists): exit code 1. */
export class CommandError extends Error {}
