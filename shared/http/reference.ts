import type { ErrorCode } from '../domain/errors';

/**
 * Where the API reference page lives and how its sections are addressed. The page renders the
 * OpenAPI document, whose `info.description` has one heading per error code; a heading's anchor is
 * its GitHub-style slug, which the page is configured to use as is (see `reference-page.ts`).
 */

export const REFERENCE_PATH = '/docs';
export const OPENAPI_PATH = '/api/v2/openapi.json';

/** GitHub's heading anchors: lower case, punctuation other than `-` and `_` dropped, spaces as `-`. */
export const headingSlug = (text: string): string =>
  text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

/** The heading of an error code's section (its anchor is `headingSlug` of it). */
export const errorHeading = (code: ErrorCode): string => code;

export const errorAnchor = (code: ErrorCode): string => headingSlug(errorHeading(code));

/** The reference page's section on an error code: absolute when the platform's origin is known, else relative. */
export const docUrlOf = (code: ErrorCode, origin?: string): string => `${origin ?? ''}${REFERENCE_PATH}#${errorAnchor(code)}`;
