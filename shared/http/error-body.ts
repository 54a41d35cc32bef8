import type { ErrorCode, ErrorDetail } from '../platform/errors';
import { docUrlOf } from '../platform/contract/reference';

export interface ErrorBodyInput {
  code: ErrorCode;
  message: string;
  requestId: string;
  details?: readonly ErrorDetail[];
  /** The platform's origin as the caller reached it (`originOf`); `docUrl` is relative without it. */
  origin?: string;
}

/** The one error body of the API (docs/api.md "Errors"), wherever an error is answered. */
export const errorBodyOf = ({ code, message, requestId, details, origin }: ErrorBodyInput) => ({
  error: { code, message, ...(details ? { details: [...details] } : {}), requestId, docUrl: docUrlOf(code, origin) },
});
