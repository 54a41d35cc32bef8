import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { buildOpenApiDocument } from '../../shared/http/openapi';
import { matchRoute } from '../../shared/http/route-match';
import { API_BASE_WITH_SLASH } from '../../shared/platform/contract/reference';

/**
 * Checks HTTP answers against the published OpenAPI document (built in-process from the same route
 * table and contracts the server uses; `test/e2e/openapi.test.ts` proves the server serves exactly
 * this document). `test/support/api.ts` runs every e2e response through `assertDocumentedResponse`.
 */

type Json = Record<string, any>;

/** The key under which the whole document is known to Ajv, so every `#/components/...` resolves. */
const DOC_ID = 'urn:loyalty:openapi';

export const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** An Ajv 2020-12 instance holding the whole document. `strict: false` lets OpenAPI keywords through. */
export function ajvFor(doc: Json, opts: { strict?: boolean } = {}): Ajv2020 {
  const ajv = new Ajv2020({ strict: opts.strict ?? false, allErrors: true, allowUnionTypes: true });
  addFormats(ajv);
  // The document's own fields are not JSON Schema keywords; declared, so strict mode accepts the root.
  ajv.addVocabulary(['openapi', 'info', 'jsonSchemaDialect', 'servers', 'paths', 'webhooks', 'components', 'security', 'tags', 'externalDocs']);
  ajv.addSchema(doc, DOC_ID, undefined, false);
  return ajv;
}

/** JSON pointer (RFC 6901) of a location in the document, for `$ref`s and error messages. */
export const pointer = (...parts: (string | number)[]): string => `#${parts.map((p) => `/${String(p).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('')}`;

/** The value a local `$ref` (`#/...`) points to, or undefined. */
export function resolvePointer(doc: unknown, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined;
  if (ref === '#') return doc;
  if (!ref.startsWith('#/')) return undefined;
  let node: any = doc;
  for (const raw of ref.slice(2).split('/')) {
    const part = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object' || !(part in node)) return undefined;
    node = node[part];
  }
  return node;
}

/** Compiles the schema at a pointer of the document (so its `$ref`s resolve against the document). */
export const compileAt = (ajv: Ajv2020, at: string): ValidateFunction => ajv.compile({ $ref: DOC_ID + at });

export interface ObservedResponse {
  method: string;
  /** The request path as sent, query string allowed (`/api/v2/members/mbr_1/points?limit=2`). */
  path: string;
  status: number;
  /** Parsed JSON body; undefined when the response had no body. A string means it was not JSON. */
  body: unknown;
  contentType?: string | null;
}

export class OpenApiMismatch extends Error {
  override name = 'OpenApiMismatch';
}

const show = (body: unknown): string => {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return text === undefined ? '(none)' : text.length > 1500 ? `${text.slice(0, 1500)}...` : text;
};

const describeErrors = (errors: ErrorObject[] | null | undefined): string =>
  (errors ?? [])
    .slice(0, 12)
    .map((e) => `  ${e.instancePath || '(root)'} ${e.message}${e.params && Object.keys(e.params).length ? ` ${JSON.stringify(e.params)}` : ''}`)
    .join('\n');

export class ResponseValidator {
  readonly doc: Json;
  private readonly ajv: Ajv2020;
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(doc: Json = buildOpenApiDocument() as Json) {
    this.doc = doc;
    this.ajv = ajvFor(doc);
  }

  /** Follows `$ref`s of response objects (`#/components/responses/...`); returns the object and its pointer. */
  private deref(obj: Json, at: string): { obj: Json; at: string } {
    let cur = obj;
    let where = at;
    for (let i = 0; i < 10 && typeof cur?.$ref === 'string'; i++) {
      where = cur.$ref;
      cur = resolvePointer(this.doc, cur.$ref) as Json;
      if (!cur) throw new OpenApiMismatch(`OpenAPI: unresolved $ref ${where}`);
    }
    return { obj: cur, at: where };
  }

  private validatorAt(at: string): ValidateFunction {
    let v = this.compiled.get(at);
    if (!v) {
      v = compileAt(this.ajv, at);
      this.compiled.set(at, v);
    }
    return v;
  }

  /** Throws an `OpenApiMismatch` unless the document lists this status for the request with this body. */
  check(res: ObservedResponse): void {
    const method = res.method.toUpperCase();
    // The path as the URL parser sends it (dot segments, `%2e%2e` among them, are resolved), and the
    // base path with a trailing slash as the `$default` route answers it.
    const sent = new URL(res.path, 'http://document.invalid').pathname;
    const pathname = sent === API_BASE_WITH_SLASH ? API_BASE_WITH_SLASH.slice(0, -1) : sent;
    const match = matchRoute(method, pathname);
    const what = `${method} ${res.path}`;

    let responses: Json;
    let responsesAt: string;
    let label: string;
    if (match.kind === 'route') {
      const op = this.doc.paths?.[match.route.path]?.[method.toLowerCase()];
      if (!op) throw new OpenApiMismatch(`OpenAPI: ${what} matches the route ${match.route.method} ${match.route.path}, which the document lacks`);
      responses = op.responses;
      responsesAt = pointer('paths', match.route.path, method.toLowerCase(), 'responses');
      label = `${what} (${op.operationId})`;
    } else {
      // Unknown paths and other methods are answered by the system function in the error format;
      // a URL over the transport's limit is refused before any routing (431), whatever its path.
      const [status, name] = match.kind === 'not_found' ? [404, 'NotFound'] : [405, 'MethodNotAllowed'];
      responses = { [status]: { $ref: `#/components/responses/${name}` }, 431: { $ref: '#/components/responses/RequestHeaderFieldsTooLarge' } };
      responsesAt = '#';
      label = `${what} (${match.kind === 'not_found' ? 'no such path' : 'method not allowed'})`;
    }

    const entry = responses[String(res.status)];
    if (!entry) {
      throw new OpenApiMismatch(
        `OpenAPI: ${label} answered ${res.status}, which the document does not list (documented: ${Object.keys(responses).join(', ')}).\nbody: ${show(res.body)}`,
      );
    }
    const { obj: response, at } = this.deref(entry, responsesAt === '#' ? '#' : `${responsesAt}${pointer(String(res.status)).slice(1)}`);
    // A documented non-JSON body (e.g. a signed pass file) is accepted by its media type alone.
    const mediaType = res.contentType?.split(';')[0]?.trim().toLowerCase();
    if (res.body !== undefined && mediaType && mediaType !== 'application/json' && response.content?.[mediaType]) return;
    const media = response.content?.['application/json'];
    if (res.body === undefined) {
      if (media) throw new OpenApiMismatch(`OpenAPI: ${label} answered ${res.status} without a body, but the document describes a JSON body`);
      return;
    }
    if (!media) throw new OpenApiMismatch(`OpenAPI: ${label} answered ${res.status} with a body, but the document says it has none.\nbody: ${show(res.body)}`);
    if (typeof res.body === 'string')
      throw new OpenApiMismatch(`OpenAPI: ${label} answered ${res.status} with a body that is not JSON.\nbody: ${show(res.body)}`);
    if (res.contentType !== undefined && !/^application\/json\b/i.test(res.contentType ?? '')) {
      throw new OpenApiMismatch(`OpenAPI: ${label} answered ${res.status} with content-type ${res.contentType}, documented application/json`);
    }
    const schemaAt = `${at}${pointer('content', 'application/json', 'schema').slice(1)}`;
    const validate = this.validatorAt(schemaAt);
    if (!validate(res.body)) {
      throw new OpenApiMismatch(
        `OpenAPI: ${label} answered ${res.status} with a body that does not match ${schemaAt}:\n${describeErrors(validate.errors)}\nbody: ${show(res.body)}`,
      );
    }
  }
}

let shared: ResponseValidator | undefined;

/** Validates one response against the document built in-process (one validator per test worker). */
export function assertDocumentedResponse(res: ObservedResponse): void {
  shared ??= new ResponseValidator();
  shared.check(res);
}
