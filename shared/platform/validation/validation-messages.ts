import * as z from 'zod';

/**
 * One voice for validation messages: what to send, not what the parser expected. A schema's own
 * message (`{ message: ... }`) still wins; this map answers every issue a schema leaves to the
 * library, so no library wording ("Invalid input: expected string, received undefined") reaches
 * an integrator. Installed once per process by `shared/platform/validation/validation.ts`.
 */
type Issue = z.core.$ZodRawIssue;

const article = (noun: string) => (/^[aeiou]/.test(noun) ? `an ${noun}` : `a ${noun}`);

const TYPE_NAMES: Record<string, string> = {
  int: 'whole number',
  boolean: 'boolean (true or false)',
  record: 'object',
  nan: 'number',
};

const FORMATS: Record<string, string> = {
  email: 'must be an e-mail address',
  datetime: 'must be an ISO 8601 date-time with its offset, e.g. 2026-01-31T12:00:00Z',
  'date-time': 'must be an ISO 8601 date-time with its offset, e.g. 2026-01-31T12:00:00Z',
  date: 'must be a date as YYYY-MM-DD',
  time: 'must be a time as HH:MM[:SS]',
  url: 'must be a URL',
  uuid: 'must be a UUID',
};

const list = (values: readonly unknown[]) => values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ');

const size = (origin: unknown, n: number | bigint) =>
  origin === 'string' ? `${n} character${n === 1 ? '' : 's'}` : origin === 'array' || origin === 'set' ? `${n} item${n === 1 ? '' : 's'}` : `${n}`;

export function validationMessage(issue: Issue): string {
  if (issue.input === undefined && ['invalid_type', 'invalid_value', 'invalid_union'].includes(issue.code ?? '')) return 'required';
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === null) return `must be ${article(TYPE_NAMES[issue.expected] ?? issue.expected)}, not null`;
      return `must be ${article(TYPE_NAMES[issue.expected] ?? issue.expected)}`;
    case 'too_big': {
      if (issue.origin === 'date') return `must be on or before ${new Date(Number(issue.maximum)).toISOString()}`;
      if (issue.origin === 'number' || issue.origin === 'bigint')
        return issue.inclusive === false ? `must be less than ${issue.maximum}` : `must be at most ${issue.maximum}`;
      return `must be at most ${size(issue.origin, issue.maximum)}`;
    }
    case 'too_small': {
      if (issue.origin === 'date') return `must be on or after ${new Date(Number(issue.minimum)).toISOString()}`;
      if (issue.origin === 'number' || issue.origin === 'bigint')
        return issue.inclusive === false ? `must be greater than ${issue.minimum}` : `must be at least ${issue.minimum}`;
      if (Number(issue.minimum) === 1) return issue.origin === 'string' ? 'must not be empty' : 'must have at least 1 item';
      return `must be at least ${size(issue.origin, issue.minimum)}`;
    }
    case 'invalid_value':
      return issue.values.length === 1 ? `must be ${list(issue.values)}` : `must be one of: ${list(issue.values)}`;
    case 'invalid_format':
      if (issue.format === 'regex') return `must match the pattern ${(issue as { pattern?: string }).pattern ?? ''}`.trim();
      if (issue.format === 'starts_with') return `must start with "${(issue as { prefix?: string }).prefix}"`;
      if (issue.format === 'ends_with') return `must end with "${(issue as { suffix?: string }).suffix}"`;
      if (issue.format === 'includes') return `must contain "${(issue as { includes?: string }).includes}"`;
      return FORMATS[issue.format] ?? `must be a valid ${issue.format}`;
    case 'not_multiple_of':
      return `must be a multiple of ${issue.divisor}`;
    case 'unrecognized_keys':
      return 'unknown field';
    case 'invalid_union':
      return 'does not match any of the accepted forms (see the API reference)';
    case 'invalid_key':
      return 'has a key that is not allowed';
    case 'invalid_element':
      return 'has an entry that is not allowed';
    default:
      return 'is not valid';
  }
}

let installed = false;

/** Installs the map for every schema of this process (idempotent). */
export function installValidationMessages(): void {
  if (installed) return;
  installed = true;
  z.config({ customError: validationMessage });
}
