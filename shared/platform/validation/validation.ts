import type * as z from 'zod';
import { type ErrorDetail, validationFailed } from '../errors';
import { installValidationMessages } from './validation-messages';

// Every process that reports validation failures speaks with the same words.
installValidationMessages();

/**
 * Zod issues -> one detail per field path (the first message for that path wins). An issue of the
 * whole (a body that is not an object, "give at least one field") names the whole: `root`, by
 * default the location itself (`body`, `query`), so every detail names a field.
 */
export function toDetails(where: ErrorDetail['in'], error: z.ZodError, root: string = where): ErrorDetail[] {
  const byPath = new Map<string, ErrorDetail>();
  for (const issue of error.issues) {
    // Unknown keys are reported per key, so each offending field gets its own detail.
    const paths = issue.code === 'unrecognized_keys' ? issue.keys.map((k) => [...issue.path, k]) : [issue.path];
    for (const path of paths) {
      const field = path.length === 0 ? root : path.map(String).join('.');
      if (!byPath.has(field)) {
        byPath.set(field, {
          in: where,
          field,
          message:
            issue.code === 'unrecognized_keys' ? 'unknown field' : issue.code === 'invalid_key' ? (issue.issues[0]?.message ?? issue.message) : issue.message,
        });
      }
    }
  }
  return [...byPath.values()];
}

export function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown, where: ErrorDetail['in']): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw validationFailed(toDetails(where, result.error));
  return result.data;
}

/** A zod failure as one line per issue, for logs and dead-letter notes (`path: message`). */
export const describeIssues = (error: z.ZodError): string[] => error.issues.map((i) => `${i.path.length ? i.path.join('.') : '(root)'}: ${i.message}`);
