/** Exit codes of the command-line tool: 1 for an API (or network) error, 2 for a usage error. */
export const EXIT = { ok: 0, api: 1, usage: 2 } as const;

/** The caller asked for something the tool cannot do as asked (bad argument, missing credential). */
export class UsageError extends Error {}

/** The API answered with its error shape (docs/api.md "Errors"). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly requestId: string | undefined,
    readonly details: { in?: string; field?: string; message?: string }[] = [],
    /** The reference section on the code (the error body's `docUrl`). */
    readonly docUrl?: string,
  ) {
    super(message);
  }
}

/** Anything else that ends a command with exit 1: the API unreachable, a failed download, a failed job. */
export class CommandError extends Error {}
