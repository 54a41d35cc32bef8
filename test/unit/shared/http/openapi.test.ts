import { STATUS_CODES } from 'node:http';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import type { RouteContract } from '../../../../shared/platform/contract/endpoint';
import { routeKey, routes, type RouteDef } from '../../../../shared/http/declarations';
import { errorBody } from '../../../../shared/platform/contract/contract';
import { ERROR_CODES } from '../../../../shared/platform/errors';
import { SCOPES } from '../../../../shared/platform/contract/scopes';
import { rolesWith } from '../../../../shared/platform/contract/permissions';
import { buildOpenApiDocument, generateOpenApiDocument } from '../../../../shared/http/openapi';
import { routesOfDocument, serveDocumentFromSources } from '../../../../shared/http/openapi-file';
import type { HttpEvent, HttpResult } from '../../../../shared/http/types';
import { ajvFor, compileAt, METHODS, OpenApiMismatch, pointer, resolvePointer, ResponseValidator } from '../../../support/openapi';

type Json = Record<string, any>;

const doc = buildOpenApiDocument() as Json;
const opOf = (r: RouteDef): Json => doc.paths[r.path]?.[r.method.toLowerCase()];
const deref = <T = Json>(obj: Json): T => (typeof obj?.$ref === 'string' ? (resolvePointer(doc, obj.$ref) as T) : (obj as T));

/** Every operation of the document with its pointer. */
function operations(): { path: string; method: string; op: Json; at: string }[] {
  return Object.entries(doc.paths as Json).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m]).map((method) => ({ path, method, op: item[method], at: pointer('paths', path, method) })),
  );
}

/** Every place the document holds a JSON Schema, as a pointer. */
function schemaLocations(): string[] {
  const at: string[] = Object.keys(doc.components.schemas).map((name) => pointer('components', 'schemas', name));
  const fromResponse = (base: string, response: Json) => {
    for (const [media, content] of Object.entries((response.content ?? {}) as Json))
      if (content.schema) at.push(`${base}${pointer('content', media, 'schema').slice(1)}`);
    for (const [name, header] of Object.entries((response.headers ?? {}) as Json))
      if (header.schema) at.push(`${base}${pointer('headers', name, 'schema').slice(1)}`);
  };
  for (const [name, response] of Object.entries(doc.components.responses as Json)) fromResponse(pointer('components', 'responses', name), response);
  for (const [name, p] of Object.entries(doc.components.parameters as Json)) if (p.schema) at.push(pointer('components', 'parameters', name, 'schema'));
  for (const [name, h] of Object.entries(doc.components.headers as Json)) if (h.schema) at.push(pointer('components', 'headers', name, 'schema'));
  for (const { op, at: opAt } of operations()) {
    for (const [i, p] of ((op.parameters ?? []) as Json[]).entries()) if (p.schema) at.push(`${opAt}${pointer('parameters', i, 'schema').slice(1)}`);
    for (const [media, content] of Object.entries((op.requestBody?.content ?? {}) as Json)) {
      if (content.schema) at.push(`${opAt}${pointer('requestBody', 'content', media, 'schema').slice(1)}`);
    }
    for (const [status, response] of Object.entries(op.responses as Json))
      if (!response.$ref) fromResponse(`${opAt}${pointer('responses', status).slice(1)}`, response);
  }
  return at;
}

/**
 * The OpenAPI 3.1 rules that matter to tools, checked by hand (no OpenAPI validator is installed):
 * required fields, parameter shapes, unique operation ids, security requirements naming schemes.
 */
function structuralProblems(d: Json): string[] {
  const problems: string[] = [];
  const need = (ok: unknown, what: string) => {
    if (!ok) problems.push(what);
  };
  need(/^3\.1\.\d+$/.test(d.openapi), 'openapi must be 3.1.x');
  need(typeof d.info?.title === 'string' && d.info.title, 'info.title is required');
  need(typeof d.info?.version === 'string' && d.info.version, 'info.version is required');
  need(d.paths && typeof d.paths === 'object', 'paths is required');
  const allowedTop = new Set(['openapi', 'info', 'jsonSchemaDialect', 'servers', 'paths', 'webhooks', 'components', 'security', 'tags', 'externalDocs']);
  for (const k of Object.keys(d)) need(allowedTop.has(k) || k.startsWith('x-'), `unknown top-level field ${k}`);
  for (const s of d.servers ?? []) need(typeof s.url === 'string', 'server.url is required');
  const schemes = d.components?.securitySchemes ?? {};
  for (const [name, s] of Object.entries(schemes as Json)) {
    need(['apiKey', 'http', 'mutualTLS', 'oauth2', 'openIdConnect'].includes(s.type), `securityScheme ${name}: bad type`);
    if (s.type === 'http') need(typeof s.scheme === 'string', `securityScheme ${name}: http needs scheme`);
    if (s.type === 'apiKey') need(s.name && ['query', 'header', 'cookie'].includes(s.in), `securityScheme ${name}: apiKey needs name and in`);
  }
  const checkResponse = (r: Json, where: string) => {
    const res = deref(r);
    need(res, `${where}: unresolved response`);
    if (!res) return;
    need(typeof res.description === 'string', `${where}: response description is required`);
    for (const [h, header] of Object.entries((res.headers ?? {}) as Json)) {
      const hd = deref(header);
      need(hd && (hd.schema || hd.content), `${where}: header ${h} needs schema or content`);
    }
  };
  for (const [name, r] of Object.entries((d.components?.responses ?? {}) as Json)) checkResponse(r, `components.responses.${name}`);
  const opIds = new Set<string>();
  for (const [path, item] of Object.entries(d.paths as Json)) {
    need(path.startsWith('/'), `path ${path} must start with /`);
    const templated = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
    for (const k of Object.keys(item))
      need(
        (METHODS as readonly string[]).includes(k) || ['summary', 'description', 'servers', 'parameters', '$ref'].includes(k) || k.startsWith('x-'),
        `${path}: unknown field ${k}`,
      );
    for (const method of METHODS.filter((m) => item[m])) {
      const op = item[method];
      const where = `${method.toUpperCase()} ${path}`;
      need(typeof op.operationId === 'string', `${where}: operationId`);
      need(!opIds.has(op.operationId), `${where}: duplicate operationId ${op.operationId}`);
      opIds.add(op.operationId);
      need(op.responses && Object.keys(op.responses).length > 0, `${where}: responses are required`);
      for (const [status, r] of Object.entries((op.responses ?? {}) as Json)) {
        need(/^([1-5]\d\d|[1-5]XX|default)$/.test(status), `${where}: bad response key ${status}`);
        checkResponse(r, `${where} ${status}`);
      }
      const seen = new Set<string>();
      for (const raw of op.parameters ?? []) {
        const p = deref(raw);
        need(p && typeof p.name === 'string' && ['query', 'header', 'path', 'cookie'].includes(p.in), `${where}: parameter needs name and in`);
        if (!p) continue;
        need(!seen.has(`${p.in}:${p.name}`), `${where}: duplicate parameter ${p.name}`);
        seen.add(`${p.in}:${p.name}`);
        need(Boolean(p.schema) !== Boolean(p.content), `${where}: parameter ${p.name} needs exactly one of schema, content`);
        if (p.in === 'path') need(p.required === true && templated.includes(p.name), `${where}: path parameter ${p.name} must be required and in the template`);
      }
      for (const name of templated) need(seen.has(`path:${name}`), `${where}: path parameter ${name} is not declared`);
      if (op.requestBody) need(deref(op.requestBody)?.content, `${where}: requestBody needs content`);
      for (const req of op.security ?? []) {
        for (const [scheme, scopes] of Object.entries(req as Json)) {
          need(schemes[scheme], `${where}: security names unknown scheme ${scheme}`);
          need(Array.isArray(scopes), `${where}: security scopes must be an array`);
        }
      }
      need(Array.isArray(op.tags) && op.tags.every((t: unknown) => typeof t === 'string'), `${where}: tags must be strings`);
    }
  }
  return problems;
}

describe('OpenAPI document', () => {
  it('names a console route permission, what it covers and the built-in roles holding it', () => {
    const op = doc.paths['/api/flash/members/{id}/points'].post;
    expect(op['x-permission']).toBe('members:adjust_points');
    expect(op['x-required-role']).toEqual(['owner', 'admin', 'support']);
    expect(op.description).toContain(
      "Credential: a user session whose role holds the permission `members:adjust_points` (adjust a member's points and reverse ledger entries, within the role's ceiling; built-in roles `owner`, `admin`, `support`).",
    );
  });

  it('is built once per process and is plain JSON', () => {
    expect(buildOpenApiDocument()).toBe(doc);
    expect(JSON.parse(JSON.stringify(doc))).toStrictEqual(doc);
  });

  it('passes the structural checks of OpenAPI 3.1', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('2.0.0');
    expect(doc.servers).toEqual([{ url: '/' }]);
    expect(structuralProblems(doc)).toEqual([]);
  });

  it('has every route-table entry with its operationId, summary, tag, security, scope and idempotency', () => {
    for (const r of routes) {
      const key = routeKey(r);
      const op = opOf(r);
      expect(op, key).toBeDefined();
      expect(op.operationId, key).toBe(r.operationId);
      expect(op.summary, key).toBe(r.summary);
      expect(op.tags, key).toEqual([r.area]);

      const expected: Json[] = [];
      if (!r.auth.includes('public')) {
        for (const kind of r.auth) {
          const req =
            kind === 'apiKey'
              ? { apiKey: r.scope ? [r.scope] : [] }
              : kind === 'apiKeyPerTool'
                ? { apiKey: [] }
                : kind === 'consumer'
                  ? { consumerSession: [] }
                  : kind === 'applePass'
                    ? { applePass: [] }
                    : { session: [] };
          if (!expected.some((e) => JSON.stringify(e) === JSON.stringify(req))) expected.push(req);
        }
      }
      expect(op.security, key).toEqual(expected);
      expect(op['x-required-scope'], key).toBe(r.auth.includes('apiKey') ? r.scope : undefined);
      expect(op['x-permission'], key).toBe(r.auth.includes('adminSession') ? r.permission : undefined);
      expect(op['x-required-role'], key).toEqual(r.auth.includes('adminSession') ? rolesWith(r.permission!) : undefined);

      const params = ((op.parameters ?? []) as Json[]).map((p) => deref(p));
      const idem = params.filter((p) => p.in === 'header' && p.name === 'Idempotency-Key');
      expect(idem.length, key).toBe(r.idempotent ? 1 : 0);
      if (r.idempotent) expect(idem[0]!.required, key).toBe(false);

      const templated = [...r.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      expect(
        params
          .filter((p) => p.in === 'path')
          .map((p) => p.name)
          .sort(),
        key,
      ).toEqual(templated.sort());
      for (const p of params.filter((p) => p.in === 'path')) expect(p.required, key).toBe(true);
    }
  });

  it('has no path or method that the route table lacks', () => {
    const table = new Set(routes.map(routeKey));
    for (const { path, method } of operations()) expect(table, `${method} ${path}`).toContain(`${method.toUpperCase()} ${path}`);
    expect(operations()).toHaveLength(routes.length);
  });

  it('documents the error responses each operation can give, as shared Error responses', () => {
    for (const r of routes) {
      const op = opOf(r);
      const statuses = Object.keys(op.responses).map(Number);
      for (const s of [400, 404, 409, 422, 429, 500, 503]) expect(statuses, `${routeKey(r)} ${s}`).toContain(s);
      const isPublic = r.auth.includes('public');
      if (!isPublic) expect(statuses, routeKey(r)).toEqual(expect.arrayContaining([401, 403]));
      // A public route that sets the session cookie refuses a page of another origin: 403.
      else if (r.setsCookie) expect(statuses, routeKey(r)).toContain(403);
      else expect(statuses, routeKey(r)).not.toContain(403);
      // A body is measured before it is parsed: every POST/PUT/PATCH can be 413, declared body or not.
      if (op.requestBody || ['POST', 'PUT', 'PATCH'].includes(r.method)) expect(statuses, routeKey(r)).toContain(413);
      else expect(statuses, routeKey(r)).not.toContain(413);
      // A body that is not JSON is a 415 on every method that may carry one.
      if (r.method === 'GET') expect(statuses, routeKey(r)).not.toContain(415);
      else expect(statuses, routeKey(r)).toContain(415);
      expect(statuses, routeKey(r)).toContain(431);
      for (const s of statuses.filter((x) => x >= 400)) {
        const ref = op.responses[s].$ref as string;
        expect(ref, `${routeKey(r)} ${s}`).toMatch(/^#\/components\/responses\//);
        const schema = deref(op.responses[s]).content['application/json'].schema;
        expect(JSON.stringify(schema)).toContain('"#/components/schemas/Error"');
      }
    }
    expect(opOf(routes.find((r) => r.operationId === 'login')!).responses).toHaveProperty('401');
    expect(opOf(routes.find((r) => r.operationId === 'resetPassword')!).responses).toHaveProperty('410');
  });

  it('documents 204 answers without content and others with a JSON schema', () => {
    for (const { op, method, path } of operations()) {
      const route = routes.find((r) => r.method === method.toUpperCase() && r.path === path)!;
      for (const [status, r] of Object.entries(op.responses as Json)) {
        const declared = route.responses[Number(status)];
        const binary = route.binaryResponses?.[Number(status)];
        // 204, and success answers a protocol defines without a body (Apple's pass web service: 200, 201, 304).
        if (status === '204' || (declared === null && !binary)) expect(deref(r).content, `${method} ${path} ${status}`).toBeUndefined();
        else if (binary) expect(deref(r).content?.[binary]?.schema, `${method} ${path} ${status}`).toEqual({ type: 'string', format: 'binary' });
        else expect(deref(r).content?.['application/json']?.schema, `${method} ${path} ${status}`).toBeDefined();
      }
    }
  });

  it('names every error response by its standard reason phrase', () => {
    let checked = 0;
    for (const { op, method, path } of operations()) {
      for (const [status, r] of Object.entries(op.responses as Json)) {
        if (Number(status) < 400) continue;
        expect(deref(r).description, `${method} ${path} ${status}`).toMatch(new RegExp(`^${STATUS_CODES[Number(status)]}: `));
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(routes.length);
  });

  it('every $ref resolves inside the document', () => {
    const refs: string[] = [];
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) {
        for (const n of node) walk(n);
        return;
      }
      if (!node || typeof node !== 'object') return;
      for (const [k, v] of Object.entries(node)) {
        if (k === '$ref' && typeof v === 'string') refs.push(v);
        else walk(v);
      }
    };
    walk(doc);
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of new Set(refs)) {
      expect(ref, ref).toMatch(/^#\//);
      expect(resolvePointer(doc, ref), ref).toBeDefined();
    }
  });

  it('every schema is valid JSON Schema 2020-12 and compiles with Ajv', () => {
    const ajv = ajvFor(doc);
    const locations = schemaLocations();
    expect(locations.length).toBeGreaterThan(50);
    for (const at of locations) {
      const schema = resolvePointer(doc, at) as Json;
      expect(ajv.validateSchema(schema), `${at}: ${ajv.errorsText()}`).toBe(true);
      expect(() => compileAt(ajv, at), at).not.toThrow();
    }
    // Compiling every schema location grows with the document: a budget of its own, not the 5 s default.
  }, 30_000);

  it('uses only formats Ajv knows (strict mode)', () => {
    const ajv = ajvFor(doc, { strict: true });
    for (const at of schemaLocations()) expect(() => compileAt(ajv, at), at).not.toThrow();
  }, 30_000);

  it('turns query strings that zod coerces into typed parameters', () => {
    const list = opOf(routes.find((r) => r.operationId === 'listMembers')!);
    const limit = list.parameters.find((p: Json) => p.name === 'limit');
    expect(limit).toMatchObject({ in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 200, default: 50 } });
    for (const { op, method, path } of operations()) {
      for (const p of (op.parameters ?? []).map(deref)) {
        expect(Object.keys(p.schema).length, `${method} ${path} ${p.name}`).toBeGreaterThan(0);
        if (p.in !== 'header') expect(['string', 'integer', 'number', 'boolean'], `${method} ${path} ${p.name}`).toContain(p.schema.type);
      }
    }
  });

  it('names the meta-id schemas as components, and request-side variants do not collide with responses', () => {
    for (const name of ['Error', 'Member', 'Store', 'Order', 'ApiKey', 'User', 'Workspace', 'Program']) expect(doc.components.schemas).toHaveProperty(name);
    expect(doc.components.schemas.Error.properties.error.required).toEqual(expect.arrayContaining(['code', 'message', 'requestId']));
    const member = opOf(routes.find((r) => r.operationId === 'getMember')!);
    expect(member.responses['200'].content['application/json'].schema.properties.data).toEqual({ $ref: '#/components/schemas/Member' });
  });

  it('describes authentication, scopes and every error code', () => {
    const { apiKey, session } = doc.components.securitySchemes;
    expect(apiKey).toMatchObject({ type: 'http', scheme: 'bearer', bearerFormat: 'fl_live_...' });
    expect(session).toMatchObject({ type: 'http', scheme: 'bearer', bearerFormat: 'fl_sess_...' });
    for (const scope of SCOPES) expect(apiKey.description).toContain(`\`${scope}\``);
    for (const [code, { status }] of Object.entries(ERROR_CODES)) {
      expect(doc.info.description).toContain(`| ${status} | [\`${code}\`](#api/description/${code.toLowerCase().replace(/_/g, '-')}) |`);
    }
  });
});

describe('schema ids across request and response', () => {
  const route = (method: RouteDef['method'], path: RouteDef['path'], operationId: string, contract: RouteContract): RouteDef => ({
    method,
    path,
    area: 'stores',
    auth: ['apiKey'],
    scope: 'stores:write',
    operationId,
    summary: operationId,
    ...contract,
  });

  it('an id whose input and output forms differ gets an Input-suffixed request variant; all refs resolve', () => {
    const thing = z.object({ name: z.string(), size: z.coerce.number().int().default(1) }).meta({ id: 'OaThing' });
    const table = [route('POST', '/api/v2/things', 'createThing', { body: thing, responses: { 201: z.object({ data: thing }) } })];
    const d = generateOpenApiDocument(table) as Json;
    expect(d.components.schemas.OaThing.required).toEqual(['name', 'size']);
    expect(d.components.schemas.OaThingInput.required).toEqual(['name']);
    const op = d.paths['/api/v2/things'].post;
    expect(op.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/OaThingInput' });
    expect(op.responses['201'].content['application/json'].schema.properties.data).toEqual({ $ref: '#/components/schemas/OaThing' });
  });

  it('an id whose input and output forms agree is one component', () => {
    const same = z.strictObject({ name: z.string() }).meta({ id: 'OaSame' });
    const d = generateOpenApiDocument([route('POST', '/api/v2/same', 'same', { body: same, responses: { 200: same } })]) as Json;
    expect(Object.keys(d.components.schemas).filter((n) => n.startsWith('OaSame'))).toEqual(['OaSame']);
  });

  it('two different schemas with one id fail the build', () => {
    const a = z.object({ a: z.string() }).meta({ id: 'OaTwice' });
    const b = z.object({ b: z.string() }).meta({ id: 'OaTwice' });
    const table = [route('GET', '/api/v2/a', 'getA', { responses: { 200: a } }), route('GET', '/api/v2/b', 'getB', { responses: { 200: b } })];
    expect(() => generateOpenApiDocument(table)).toThrow(/OaTwice/);
  });

  it('a contract may declare an error status of its own route', () => {
    const d = generateOpenApiDocument([route('POST', '/api/v2/x', 'x', { responses: { 204: null, 410: errorBody } })]) as Json;
    expect(d.paths['/api/v2/x'].post.responses['410']).toEqual({ $ref: '#/components/responses/Gone' });
  });
});

describe('the system function serves the document', () => {
  it('names every route of the route table in it and no other (Lambda answers the 404 and 405 of its $default route from the shipped document)', () => {
    const named = routesOfDocument(doc).map((r) => `${r.method} ${r.path}`);
    expect(named.sort()).toEqual(routes.map((r) => `${r.method} ${r.path}`).sort());
    expect(new Set(named).size).toBe(named.length);
  });

  it('reads the routes of a document from its operations only', () => {
    const paths = { '/a': { get: {}, post: {}, parameters: [] }, '/a/{id}': { delete: {}, summary: 'x' } };
    expect(routesOfDocument({ paths })).toEqual([
      { method: 'GET', path: '/a' },
      { method: 'POST', path: '/a' },
      { method: 'DELETE', path: '/a/{id}' },
    ]);
    expect(routesOfDocument({ paths: { '/b': { put: {}, patch: {} } } })).toEqual([
      { method: 'PUT', path: '/b' },
      { method: 'PATCH', path: '/b' },
    ]);
  });

  it('GET /api/v2/openapi.json answers the document itself, as application/json', async () => {
    // Run from the sources, as the local runtime does (Lambda reads the file rendered at build time: test/infra/bundle-budget.test.ts).
    serveDocumentFromSources({ document: buildOpenApiDocument, routes });
    const { handler } = await import('../../../../functions/system/handler');
    const event = {
      version: '2.0',
      routeKey: 'GET /api/v2/openapi.json',
      rawPath: '/api/v2/openapi.json',
      rawQueryString: '',
      headers: {},
      requestContext: { http: { method: 'GET', path: '/api/v2/openapi.json' }, requestId: 'unit' },
      isBase64Encoded: false,
    } as unknown as HttpEvent;
    const res = (await handler(event, { awsRequestId: 'unit', functionName: 'system' } as never)) as HttpResult;
    expect(res.statusCode).toBe(200);
    expect(res.headers!['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(res.body!)).toEqual(doc);
  });
});

describe('response validator (test/support/openapi.ts)', () => {
  const v = new ResponseValidator(doc);
  const ts = '2026-01-02T03:04:05.000Z';
  const member = {
    id: 'mbr_1',
    email: 'a@b.test',
    externalId: null,
    firstName: null,
    lastName: null,
    phone: null,
    birthDate: null,
    status: 'active',
    tier: 'bronze',
    points: { balance: 0, pending: 0, lifetime: 0 },
    orderCount: 0,
    customAttributes: {},
    tags: [],
    createdAt: ts,
    updatedAt: ts,
  };
  const error = (code: string) => ({ error: { code, message: 'x', requestId: 'req_1', docUrl: `/docs#api/description/${code.toLowerCase()}` } });

  it('accepts documented answers, query strings included', () => {
    v.check({ method: 'GET', path: '/api/v2/members/mbr_1', status: 200, body: { data: member } });
    v.check({ method: 'GET', path: '/api/v2/members?limit=2&q=ann', status: 200, body: { data: [member], nextCursor: null } });
    v.check({ method: 'GET', path: '/api/v2/members/mbr_1', status: 404, body: error('NOT_FOUND') });
    v.check({ method: 'DELETE', path: '/api/v2/api-keys/key_1', status: 204, body: undefined });
    v.check({ method: 'POST', path: '/api/v2/auth/reset-password', status: 410, body: error('GONE') });
  });

  it('rejects a body that does not match, naming the field', () => {
    const { points: _p, ...noPoints } = member;
    expect(() => v.check({ method: 'GET', path: '/api/v2/members/mbr_1', status: 200, body: { data: noPoints } })).toThrow(/getMember.*\n.*points/);
    expect(() => v.check({ method: 'GET', path: '/api/v2/members/mbr_1', status: 200, body: { data: { ...member, secret: 1 } } })).toThrow(OpenApiMismatch);
    expect(() => v.check({ method: 'GET', path: '/api/v2/members/mbr_1', status: 404, body: error('CONFLICT') })).toThrow(/does not match/);
  });

  it('rejects an undocumented status, a missing or unexpected body, and non-JSON', () => {
    expect(() => v.check({ method: 'GET', path: '/api/v2/members/mbr_1', status: 201, body: { data: member } })).toThrow(/does not list/);
    expect(() => v.check({ method: 'GET', path: '/api/v2/auth/profile', status: 410, body: error('GONE') })).toThrow(/does not list/);
    expect(() => v.check({ method: 'DELETE', path: '/api/v2/api-keys/key_1', status: 204, body: { data: {} } })).toThrow(/says it has none/);
    expect(() => v.check({ method: 'GET', path: '/api/v2/members/mbr_1', status: 200, body: undefined })).toThrow(/without a body/);
    expect(() => v.check({ method: 'GET', path: '/api/v2/members/mbr_1', status: 200, body: '<html>' })).toThrow(/not JSON/);
  });

  it('checks unknown paths and other methods against the Error schema', () => {
    v.check({ method: 'GET', path: '/nowhere?x=1', status: 404, body: error('NOT_FOUND') });
    v.check({ method: 'PUT', path: '/api/v2/auth/login', status: 405, body: error('METHOD_NOT_ALLOWED') });
    expect(() => v.check({ method: 'GET', path: '/nowhere', status: 404, body: { message: 'Not Found' } })).toThrow(/does not match/);
    expect(() => v.check({ method: 'GET', path: '/nowhere', status: 200, body: {} })).toThrow(/does not list/);
  });
});
