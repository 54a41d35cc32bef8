import * as z from 'zod';
import { config } from '../platform/config';
import { errorBody } from '../platform/contract/contract';
import type { AuthKind, RouteContract, RouteDef } from '../platform/contract/endpoint';
import { DECLARATIONS, routes } from './declarations';
import { PRESETS } from '../api-keys';
import { SCOPES } from '../platform/contract/scopes';
import { PERMISSIONS, rolesWith } from '../platform/contract/permissions';
import { ERROR_ADVICE, ERROR_CODES, RETRY_AFTER_SECONDS, type ErrorCode } from '../platform/errors';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../platform/validation/pagination';
import { IDEMPOTENCY_KEY_PATTERN } from './idempotency';
import { addExamples } from './openapi-examples';
import { servedFrom } from './openapi-file';
import { docUrlOf, errorAnchor, errorHeading } from '../platform/contract/reference';

/**
 * The OpenAPI 3.1 document of the API, generated from the endpoint declarations (`shared/<area>/contract.ts`:
 * paths, methods, auth, scopes, idempotency, and the zod schemas of parameters, bodies and responses
 * the handlers validate with). Nothing here is written by hand that the code already says.
 */

// JSON Schema / OpenAPI objects are free-form JSON.
type Json = Record<string, any>;
type Io = 'input' | 'output';

const SCHEMAS = '#/components/schemas/';

/** Error statuses an operation may answer beyond its contract's success statuses (see `errorStatuses`). */
/** Every operation may answer these (431: the URL plus headers over the transport's limit). */
const COMMON_ERRORS = [400, 404, 409, 422, 429, 431, 500, 503];

/**
 * Errors specific to one route that its contract does not declare yet. A contract may itself declare
 * an error status (`responses: { 410: errorBody }`); these entries are the stop-gap until it does.
 */
/** What a 429 of a workspace's request budget carries besides `Retry-After` (docs/security.md). */
const RATE_LIMIT_HEADERS: Json = {
  'RateLimit-Limit': { $ref: '#/components/headers/RateLimitLimit' },
  'RateLimit-Remaining': { $ref: '#/components/headers/RateLimitRemaining' },
  'RateLimit-Reset': { $ref: '#/components/headers/RateLimitReset' },
};

/** The shared error responses (`components/responses`), one per status, named after their main code. */
const ERROR_RESPONSE_NAMES: Record<number, string> = {
  400: 'BadRequest',
  401: 'Unauthenticated',
  403: 'Forbidden',
  404: 'NotFound',
  405: 'MethodNotAllowed',
  409: 'Conflict',
  410: 'Gone',
  413: 'PayloadTooLarge',
  415: 'UnsupportedMediaType',
  422: 'ValidationFailed',
  429: 'RateLimited',
  431: 'RequestHeaderFieldsTooLarge',
  500: 'Internal',
  501: 'NotConfigured',
  503: 'ServiceUnavailable',
};

const codesOfStatus = (status: number): ErrorCode[] => (Object.keys(ERROR_CODES) as ErrorCode[]).filter((code) => ERROR_CODES[code].status === status);

// ---------------------------------------------------------------------------------------------
// zod -> JSON Schema. Every schema with a `.meta({ id })` becomes a `components/schemas` entry.
// Conversions run per contract schema; their `$defs` are pooled per io mode (a request body is the
// zod *input*, a response the *output*) and named at the end: an id whose input and output forms
// differ keeps its name for the output and gets an `Input` suffix for the input.
// ---------------------------------------------------------------------------------------------

class SchemaPool {
  private readonly defs: Record<Io, Map<string, Json>> = { input: new Map(), output: new Map() };
  private readonly serialized: Record<Io, Map<string, string>> = { input: new Map(), output: new Map() };

  /** Converts one contract schema; `$ref`s in the result are placeholders until `finish()`. */
  convert(schema: z.ZodType, io: Io, owner: string): Json {
    let json: Json;
    try {
      json = z.toJSONSchema(schema, { target: 'draft-2020-12', io }) as Json;
    } catch (err) {
      throw new Error(`OpenAPI: the ${io} schema of ${owner} does not convert to JSON Schema: ${(err as Error).message}`);
    }
    const { $schema: _dialect, $defs = {}, ...root } = json;
    // Schemas without an id that zod still had to extract (recursion) get a name local to the owner.
    const rename = (name: string) => (name.startsWith('__') ? `${owner.replace(/\W+/g, '_')}_${name.replace(/^_+/, '')}` : name);
    const rewrite = (node: unknown): unknown => {
      if (Array.isArray(node)) return node.map(rewrite);
      if (!node || typeof node !== 'object') return node;
      const out: Json = {};
      for (const [k, v] of Object.entries(node)) {
        if (k === '$ref' && typeof v === 'string') {
          const m = v.match(/^#\/\$defs\/(.+)$/);
          if (!m) throw new Error(`OpenAPI: unexpected $ref ${v} in the ${io} schema of ${owner}`);
          out.$ref = `${SCHEMAS}${io}:${rename(decodeURIComponent(m[1]!.replace(/~1/g, '/').replace(/~0/g, '~')))}`;
        } else out[k] = rewrite(v);
      }
      return out;
    };
    for (const [name, def] of Object.entries($defs as Json)) this.add(io, rename(name), rewrite(def) as Json, owner);
    return rewrite(root) as Json;
  }

  private add(io: Io, name: string, def: Json, owner: string) {
    const text = JSON.stringify(def);
    const existing = this.serialized[io].get(name);
    if (existing !== undefined && existing !== text) {
      throw new Error(`OpenAPI: two different ${io} schemas carry the id "${name}" (seen again in ${owner})`);
    }
    this.serialized[io].set(name, text);
    this.defs[io].set(name, def);
  }

  /** The definition a placeholder `$ref` points to (to read the properties of a query object). */
  resolve(json: Json): Json {
    const m = typeof json.$ref === 'string' ? json.$ref.match(/^#\/components\/schemas\/(input|output):(.+)$/) : null;
    if (!m) return json;
    const def = this.defs[m[1] as Io].get(m[2]!);
    if (!def) throw new Error(`OpenAPI: unresolved ${json.$ref}`);
    return this.resolve(def);
  }

  /** Final component names, and the function that rewrites placeholders to them. */
  finish(): { schemas: Json; rename: (ref: string) => string } {
    const final: Record<Io, Map<string, string>> = { input: new Map(), output: new Map() };
    const schemas: Json = {};
    const place = (name: string, def: Json) => {
      if (schemas[name]) throw new Error(`OpenAPI: component schema name ${name} is taken twice`);
      schemas[name] = def;
    };
    for (const [name, def] of this.defs.output) {
      final.output.set(name, name);
      place(name, def);
    }
    for (const [name, def] of this.defs.input) {
      const same = this.serialized.output.get(name) === this.serialized.input.get(name);
      const target = !this.defs.output.has(name) ? name : same ? name : `${name}Input`;
      final.input.set(name, target);
      if (!same || !this.defs.output.has(name)) place(target, def);
    }
    const rename = (ref: string) => {
      const m = ref.match(/^#\/components\/schemas\/(input|output):(.+)$/);
      if (!m) return ref;
      const name = final[m[1] as Io].get(m[2]!);
      if (!name) throw new Error(`OpenAPI: unresolved ${ref}`);
      return SCHEMAS + name;
    };
    const sorted: Json = {};
    for (const name of Object.keys(schemas).sort()) sorted[name] = schemas[name];
    return { schemas: sorted, rename };
  }
}

function rewriteRefs(node: unknown, rename: (ref: string) => string): void {
  if (Array.isArray(node)) {
    for (const n of node) rewriteRefs(n, rename);
    return;
  }
  if (!node || typeof node !== 'object') return;
  for (const [k, v] of Object.entries(node)) {
    if (k === '$ref' && typeof v === 'string') (node as Json).$ref = rename(v);
    else rewriteRefs(v, rename);
  }
}

// ---------------------------------------------------------------------------------------------
// Operations
// ---------------------------------------------------------------------------------------------

const pathParamsOf = (path: string): string[] => [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);

/** A JSON Schema property as an OpenAPI parameter (its description moves up to the parameter). */
function parameter(name: string, where: 'path' | 'query', schema: Json, required: boolean): Json {
  const { description, ...rest } = schema;
  return { name, in: where, required, ...(description ? { description } : {}), schema: rest };
}

function objectProperties(pool: SchemaPool, schema: z.ZodType, owner: string): { properties: Json; required: string[] } {
  const json = pool.resolve(pool.convert(schema, 'input', owner));
  if (json.type !== 'object' || typeof json.properties !== 'object') {
    throw new Error(`OpenAPI: ${owner} must be an object schema to become parameters`);
  }
  return { properties: json.properties, required: Array.isArray(json.required) ? json.required : [] };
}

function parametersOf(pool: SchemaPool, route: RouteDef, c: RouteContract, opId: string): Json[] {
  const params: Json[] = [];
  const declared = c.params ? objectProperties(pool, c.params, `${opId} path parameters`) : { properties: {}, required: [] };
  for (const name of pathParamsOf(route.path)) {
    params.push(parameter(name, 'path', declared.properties[name] ?? { type: 'string' }, true));
  }
  if (c.query) {
    const { properties, required } = objectProperties(pool, c.query, `${opId} query`);
    for (const [name, schema] of Object.entries(properties)) params.push(parameter(name, 'query', schema as Json, required.includes(name)));
  }
  if (route.idempotent) params.push({ $ref: '#/components/parameters/IdempotencyKey' });
  return params;
}

const CREDENTIALS: Record<AuthKind, string> = {
  apiKey: 'an API key',
  apiKeyPerTool: 'an API key (its scopes decide which tools it may list and call)',
  session: 'a user session',
  adminSession: 'a user session',
  consumer: 'a consumer (member) session',
  applePass: 'the pass authentication token',
  public: 'nothing',
};

/** Security scheme name per auth kind (an admin session is a session checked for its role). */
const SCHEME_OF: Record<Exclude<AuthKind, 'public'>, string> = {
  apiKey: 'apiKey',
  apiKeyPerTool: 'apiKey',
  session: 'session',
  adminSession: 'session',
  consumer: 'consumerSession',
  applePass: 'applePass',
};

function securityOf(route: RouteDef): Json[] {
  if (route.auth.includes('public')) return [];
  const out: Json[] = [];
  const seen = new Set<string>();
  for (const kind of route.auth) {
    if (kind === 'public') continue;
    const scheme = SCHEME_OF[kind];
    if (seen.has(scheme)) continue;
    seen.add(scheme);
    out.push({ [scheme]: kind === 'apiKey' && route.scope ? [route.scope] : [] });
  }
  return out;
}

/** A console route's session: the permission it needs, what it covers and the built-in roles that hold it. */
function sessionWith(route: RouteDef): string {
  if (!route.permission) return CREDENTIALS.adminSession;
  const roles = rolesWith(route.permission).map((r) => `\`${r}\``);
  return `a user session whose role holds the permission \`${route.permission}\` (${PERMISSIONS[route.permission].toLowerCase()}; built-in roles ${roles.join(', ')})`;
}

function authSentence(route: RouteDef): string {
  if (route.auth.includes('public')) return 'Public: no credential.';
  const kinds = route.auth.map((k) =>
    k === 'apiKey' && route.scope ? `an API key with the scope \`${route.scope}\`` : k === 'adminSession' ? sessionWith(route) : CREDENTIALS[k],
  );
  return `Credential: ${kinds.join(', or ')}.`;
}

/** Which error statuses an operation documents. */
function errorStatuses(route: RouteDef, c: RouteContract): number[] {
  const statuses = new Set(COMMON_ERRORS);
  if (!route.auth.includes('public')) {
    statuses.add(401);
    statuses.add(403);
  }
  // A route that sets the session cookie refuses a page of another origin (login CSRF).
  if (route.setsCookie) statuses.add(403);
  // A member portal session dies with its member's erasure: 410 MEMBER_ERASED.
  if (route.auth.includes('consumer')) statuses.add(410);
  // Any body is measured before it is parsed, so a POST/PUT/PATCH without a declared body can be
  // 413 too; a body that is not JSON is a 415 on any method that may carry one.
  if (c.body || ['POST', 'PUT', 'PATCH'].includes(route.method)) statuses.add(413);
  if (route.method !== 'GET') statuses.add(415);
  for (const s of Object.keys(c.responses).map(Number)) if (s >= 400) statuses.add(s);
  return [...statuses].sort((a, b) => a - b);
}

/** Reason phrases of the statuses the API answers (a table, not node:http, which costs ~20 ms at load). */
const REASONS: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  204: 'No Content',
  302: 'Found',
  304: 'Not Modified',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  410: 'Gone',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  503: 'Service Unavailable',
};
const reason = (status: number) => REASONS[status] ?? `Status ${status}`;

function responsesOf(pool: SchemaPool, route: RouteDef, c: RouteContract, opId: string): Json {
  const out: Json = {};
  const successHeaders: Json = { 'X-Request-Id': { $ref: '#/components/headers/RequestId' } };
  if (route.idempotent) successHeaders['Idempotent-Replayed'] = { $ref: '#/components/headers/IdempotentReplayed' };
  const statuses = Object.keys(c.responses).map(Number);
  for (const status of statuses.filter((s) => s < 400).sort((a, b) => a - b)) {
    const schema = c.responses[status];
    const binary = c.binaryResponses?.[status];
    const content: Json = {
      ...(schema ? { 'application/json': { schema: pool.convert(schema, 'output', `${opId} ${status} response`) } } : {}),
      ...(binary ? { [binary]: { schema: { type: 'string', format: 'binary' } } } : {}),
    };
    out[String(status)] = {
      description: schema?.description || reason(status),
      headers: successHeaders,
      ...(Object.keys(content).length ? { content } : {}),
    };
  }
  for (const status of errorStatuses(route, c)) {
    const schema = c.responses[status];
    if (schema && schema !== errorBody) {
      // An error status with its own body shape: documented as declared.
      out[String(status)] = {
        description: schema.description || reason(status),
        content: { 'application/json': { schema: pool.convert(schema, 'output', `${opId} ${status} response`) } },
      };
    } else {
      const name = ERROR_RESPONSE_NAMES[status];
      if (!name) throw new Error(`OpenAPI: no shared error response for status ${status} (${opId})`);
      out[String(status)] = { $ref: `#/components/responses/${name}` };
    }
  }
  return out;
}

function operationOf(pool: SchemaPool, route: RouteDef, c: RouteContract): Json {
  const opId = route.operationId;
  const description = [c.description, authSentence(route), route.idempotent ? 'Honors `Idempotency-Key`.' : undefined].filter(Boolean).join('\n\n');
  const op: Json = {
    operationId: opId,
    summary: route.summary,
    description,
    tags: [route.area],
  };
  const parameters = parametersOf(pool, route, c, opId);
  if (parameters.length) op.parameters = parameters;
  if (c.body) {
    op.requestBody = { required: true, content: { 'application/json': { schema: pool.convert(c.body, 'input', `${opId} body`) } } };
  }
  op.responses = responsesOf(pool, route, c, opId);
  op.security = securityOf(route);
  if (route.auth.includes('apiKey') && route.scope) op['x-required-scope'] = route.scope;
  if (route.auth.includes('adminSession') && route.permission) {
    op['x-permission'] = route.permission;
    op['x-required-role'] = rolesWith(route.permission);
  }
  return op;
}

// ---------------------------------------------------------------------------------------------
// Shared components and the document's prose
// ---------------------------------------------------------------------------------------------

/** A code as a link to its section of the reference page (a fragment: the page renders this document). */
const codeLink = (code: ErrorCode) => `[\`${code}\`](#${errorAnchor(code)})`;

/** One section per error code; its heading's anchor is what `docUrl` points to. */
function errorSections(): string {
  return (Object.keys(ERROR_CODES) as ErrorCode[])
    .map((code) => {
      const { status, meaning } = ERROR_CODES[code];
      const retry = status === 429 || status === 503 ? ` The answer carries \`Retry-After\` (seconds; ${RETRY_AFTER_SECONDS} for a 503).` : '';
      return `### ${errorHeading(code)}\n\n**HTTP ${status} ${reason(status)}.** ${meaning}.${retry}\n\n${ERROR_ADVICE[code]}`;
    })
    .join('\n\n');
}

function errorResponses(pool: SchemaPool): Json {
  const errorRef = pool.convert(errorBody, 'output', 'the error body');
  const out: Json = {};
  for (const [statusText, name] of Object.entries(ERROR_RESPONSE_NAMES)) {
    const status = Number(statusText);
    const codes = codesOfStatus(status);
    const headers: Json = { 'X-Request-Id': { $ref: '#/components/headers/RequestId' } };
    if (status === 429 || status === 503) headers['Retry-After'] = { $ref: '#/components/headers/RetryAfter' };
    if (status === 429) Object.assign(headers, RATE_LIMIT_HEADERS);
    if (status === 405) headers.Allow = { $ref: '#/components/headers/Allow' };
    out[name] = {
      description: `${reason(status)}: ${codes.map((c) => `${codeLink(c)} (${ERROR_CODES[c].meaning})`).join('; ')}`,
      headers,
      content: {
        'application/json': {
          schema: codes.length
            ? { allOf: [errorRef, { type: 'object', properties: { error: { type: 'object', properties: { code: { enum: codes } } } } }] }
            : errorRef,
        },
      },
    };
  }
  return out;
}

function securitySchemes(used: Set<string>): Json {
  const presets = Object.entries(PRESETS)
    .map(([name, scopes]) => `\`${name}\` (${scopes.length === SCOPES.length ? 'every scope' : scopes.map((s) => `\`${s}\``).join(', ')})`)
    .join('; ');
  const all: Json = {
    apiKey: {
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'fl_live_...',
      description:
        `A workspace API key: \`Authorization: Bearer fl_live_...\`, shown once by \`POST /api/v2/api-keys\`. ` +
        `Each key holds scopes; an operation's security requirement and its \`x-required-scope\` name the scope it needs ` +
        `(a key without it gets 403). Scopes: ${SCOPES.map((s) => `\`${s}\``).join(', ')}. Presets: ${presets}. ` +
        'Unknown, malformed and revoked keys get the same 401.',
    },
    session: {
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'fl_sess_...',
      description:
        `A workspace user session: \`Authorization: Bearer fl_sess_...\` from \`POST /api/v2/auth/register\` or \`/login\`, ` +
        `valid ${config.auth.sessionTtlSeconds / 86400} days. Operations with \`x-required-role\` refuse other roles with 403.`,
    },
    consumerSession: { type: 'http', scheme: 'bearer', description: 'A signed member (consumer) session of the member portal.' },
    applePass: {
      type: 'apiKey',
      in: 'header',
      name: 'Authorization',
      description:
        `\`ApplePass <authenticationToken>\` of the pass (Apple's protocol): one of its newest ${config.wallet.maxTokensPerPass} tokens, ` +
        `or one issued within the last ${config.wallet.tokenGraceSeconds / 60} minutes. A wrong, expired or malformed token is 401.`,
    },
  };
  return Object.fromEntries(Object.entries(all).filter(([name]) => used.has(name)));
}

function infoDescription(): string {
  const errorRows = (Object.keys(ERROR_CODES) as ErrorCode[])
    .map((code) => `| ${ERROR_CODES[code].status} | ${codeLink(code)} | ${ERROR_CODES[code].meaning} |`)
    .join('\n');
  const presets = Object.entries(PRESETS)
    .map(([name, scopes]) => `\`${name}\`: ${scopes.map((s) => `\`${s}\``).join(', ')}`)
    .join('\n- ');
  return `A multi-tenant loyalty platform. Generated from the route table and the request/response schemas the
handlers validate with, so it is exactly what the API accepts and answers.

## Conventions

- Bodies are JSON, sent with \`Content-Type: application/json\` (or another \`application/*+json\` type; any other or
  none is 415), at most ${config.http.maxBodyBytes / (1024 * 1024)} MiB (413 beyond)
  and nested at most ${config.http.maxBodyDepth} levels deep (400 beyond).
  Successful responses are \`{ "data": ... }\`; 204 has no body.
- Lists are cursor-paginated: \`?limit=\` (1-${MAX_PAGE_SIZE}, default ${DEFAULT_PAGE_SIZE}) and \`?cursor=\` with the \`nextCursor\`
  of the previous page (\`null\` on the last page). Cursors are opaque and only continue the list they came from.
- Every response carries \`X-Request-Id\`: the caller's own if it matches \`[A-Za-z0-9._:-]{1,128}\`,
  otherwise a new \`req_...\`. Error bodies repeat it as \`error.requestId\`.
- Unknown paths answer 404 and known paths with another method 405 (with \`Allow\`), in the error format.

## Authentication

Credentials travel as \`Authorization: Bearer <token>\`; each operation's \`security\` says which it takes:

| Scheme | Credential |
|---|---|
| \`apiKey\` | \`fl_live_...\` workspace API key; the security requirement lists the scope the key needs (also in \`x-required-scope\`) |
| \`session\` | \`fl_sess_...\` user session; \`x-required-role\` lists the roles admin-only operations accept |

No credential, or a malformed or invalid one (a comma inside the token included), is 401; a valid credential without
the scope or role, or of the wrong kind, is 403. Two credentials (the header sent twice, or joined with a comma
before a second \`<scheme> <token>\`) are 400: which one to use would be a guess.
Scope presets for new keys:

- ${presets}

## Idempotency

Operations with an \`Idempotency-Key\` header parameter follow Stripe's semantics: the same key with the same
method, path and body replays the first successful answer for 24 hours (\`Idempotent-Replayed: true\`);
the same key with another request is 422 \`IDEMPOTENCY_KEY_REUSED\`. The first request with a key claims it before
it runs: of concurrent attempts exactly one runs, and the others wait for its answer and replay it, or are 409
\`IDEMPOTENCY_KEY_IN_USE\` (with \`Retry-After\`) when it takes longer than ${config.idempotency.inProgressWaitMs / 1000} s. Only the first
request's answer is ever recorded. Failed attempts change nothing and leave the key free.

## Request budgets

Each workspace may send ${config.workspaceRate.read} read requests (\`GET\`) and ${config.workspaceRate.write} write requests (every other method,
an MCP call included) per second, a sandbox ${config.workspaceRate.sandboxRead} and ${config.workspaceRate.sandboxWrite}, whatever credential sends them (API keys, user
sessions, member portal sessions). Over a budget the answer is 429 \`RATE_LIMITED\` with \`Retry-After\`. Every answer
counted against a budget carries \`RateLimit-Limit\`, \`RateLimit-Remaining\` and \`RateLimit-Reset\` (seconds).

## Errors

Every error is \`{ "error": { "code", "message", "details"?, "requestId", "docUrl" } }\` (schema \`Error\`);
\`details\` lists one entry per offending field (\`in\`: body, query, path or header), and \`docUrl\` links to the
code's section below (e.g. \`${docUrlOf('NOT_FOUND')}\`, absolute in answers). Decide on \`code\`, never on \`message\`, whose wording may change.

| Status | Code | Meaning |
|---|---|---|
${errorRows}

${errorSections()}
`;
}

/** The document for a route table (exported for tests; the API serves `buildOpenApiDocument`). */
export function generateOpenApiDocument(
  table: readonly RouteDef[],
  areas: readonly { area: string; description: string }[] = DECLARATIONS,
): Record<string, unknown> {
  const pool = new SchemaPool();
  const paths: Json = {};
  const usedSchemes = new Set<string>();
  const tags: string[] = [];
  for (const route of table) {
    const op = operationOf(pool, route, route);
    for (const req of op.security as Json[]) for (const name of Object.keys(req)) usedSchemes.add(name);
    if (!tags.includes(route.area)) tags.push(route.area);
    paths[route.path] ??= {};
    paths[route.path][route.method.toLowerCase()] = op;
  }
  addExamples(paths);
  const responses = errorResponses(pool);
  const { schemas, rename } = pool.finish();
  const doc: Json = {
    openapi: '3.1.0',
    info: { title: 'Loyalty platform API', version: '2.0.0', description: infoDescription() },
    servers: [{ url: '/' }],
    tags: tags.map((name) => {
      const description = areas.find((a) => a.area === name)?.description;
      return { name, ...(description ? { description } : {}) };
    }),
    paths,
    components: {
      schemas,
      responses,
      parameters: {
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description:
            'Makes the request safe to retry: the same key with the same request replays the first successful answer for 24 hours; ' +
            'the same key with another request is 422 IDEMPOTENCY_KEY_REUSED; while the first request with the key is still running, a duplicate waits for its answer ' +
            'or is 409 IDEMPOTENCY_KEY_IN_USE. 1-255 visible ASCII characters.',
          schema: { type: 'string', minLength: 1, maxLength: 255, pattern: IDEMPOTENCY_KEY_PATTERN.source },
        },
      },
      headers: {
        RequestId: { description: 'The request id: the caller’s sane `X-Request-Id`, else a new `req_...`', schema: { type: 'string' } },
        RetryAfter: { description: 'Seconds to wait before retrying', schema: { type: 'integer', minimum: 1 } },
        RateLimitLimit: { description: "The workspace's budget of this kind (reads or writes) per second", schema: { type: 'integer', minimum: 1 } },
        RateLimitRemaining: {
          description: 'Requests of this kind the workspace may still send in the current second',
          schema: { type: 'integer', minimum: 0 },
        },
        RateLimitReset: { description: 'Seconds until the budget is whole again', schema: { type: 'integer', minimum: 1 } },
        Allow: { description: 'The methods the path accepts', schema: { type: 'string' } },
        IdempotentReplayed: {
          description: '`true` when this is the replayed answer of an earlier request with the same Idempotency-Key',
          schema: { type: 'string', enum: ['true'] },
        },
      },
      securitySchemes: securitySchemes(usedSchemes),
    },
  };
  rewriteRefs(doc, rename);
  return doc;
}

let cached: Record<string, unknown> | undefined;

/**
 * The OpenAPI 3.1 document, built once per process. `servers` names `origin` (`servedFrom`). Lambda
 * serves the same document rendered at build time (`openapi-file.ts`).
 */
export function buildOpenApiDocument(origin?: string): Record<string, unknown> {
  cached ??= generateOpenApiDocument(routes);
  return servedFrom(cached, origin);
}
