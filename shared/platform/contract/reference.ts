import type { ErrorCode } from '../errors';

/**
 * Where the API reference page lives and how its sections are addressed. The page renders the
 * OpenAPI document, whose `info.description` has one heading per error code; the renderer gives a
 * heading of the description the anchor `<document slug>/description/<heading slug>`.
 */

export const REFERENCE_PATH = '/docs';
export const OPENAPI_PATH = '/api/v2/openapi.json';

/**
 * The base path with a trailing slash: answered like the base path (`getApiIndex`) by the `$default`
 * route, since no route can be declared with a trailing slash.
 */
export const API_BASE_WITH_SLASH = '/api/v2/';

/** The document's slug on the page (the renderer's `slug` setting), the first part of every anchor. */
export const REFERENCE_DOCUMENT_SLUG = 'api';

/**
 * The renderer's heading slugs: lower case, anything but letters, marks, digits, spaces, `_` and
 * `-` dropped, runs of spaces, `_` and `-` as one `-` (`NOT_FOUND` -> `not-found`).
 */
export const headingSlug = (text: string): string =>
  text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\s_-]/gu, '')
    .replace(/[\s_-]+/g, '-')
    .replace(/^-+|-+$/g, '');

/**
 * The heading of an error code's section in the document's description, as Markdown: the code in
 * emphasis (not inline code: the page reads a heading's text nodes only). The renderer's sidebar reads a heading by stripping Markdown pairs,
 * `_..._` among them, so a bare `METHOD_NOT_ALLOWED` became `METHODNOTALLOWED` there (and its anchor
 * `methodnotallowed`); an enclosing `*...*` pair is consumed first and leaves the underscores alone.
 */
export const errorHeading = (code: ErrorCode): string => `*${code}*`;

/** The fragment of an error code's section on the reference page (the heading's text is the code). */
export const errorAnchor = (code: ErrorCode): string => `${REFERENCE_DOCUMENT_SLUG}/description/${headingSlug(code)}`;

/** The reference page's section on an error code: absolute when the platform's origin is known, else relative. */
export const docUrlOf = (code: ErrorCode, origin?: string): string => `${origin ?? ''}${REFERENCE_PATH}#${errorAnchor(code)}`;
