import { describe, expect, it } from 'vitest';
import type * as z from 'zod';
import { routes, type RouteDef } from '../../../../shared/http/declarations';
import { EXAMPLES, examplesOf } from '../../../../shared/http/examples/index';
import type { OperationExamples } from '../../../../shared/http/examples/types';
import type { ordersArea } from '../../../../shared/orders/contract';
import { importProductSchema } from '../../../../shared/catalog/schemas';
import { createMemberBody } from '../../../../shared/members/schemas';
import { reconcileOrderSchema } from '../../../../shared/orders/schemas';
import { buildOpenApiDocument } from '../../../../shared/http/openapi';
import { ajvFor, compileAt, pointer, resolvePointer } from '../../../support/openapi';

type Json = Record<string, any>;

const doc = buildOpenApiDocument() as Json;
const ajv = ajvFor(doc);
const opAt = (r: RouteDef) => pointer('paths', r.path, r.method.toLowerCase());
const opOf = (r: RouteDef): Json => resolvePointer(doc, opAt(r)) as Json;

/** The value of an example object (`examples.<name>.value`) or of `example`. */
const valuesOf = (holder: Json): unknown[] => [
  ...(holder.example !== undefined ? [holder.example] : []),
  ...Object.values((holder.examples ?? {}) as Json).map((e: Json) => e.value),
];

/** Every JSON request body and JSON success response of the document: where it is and its examples. */
function documentedBodies(): { what: string; schemaAt: string; values: unknown[]; zod: z.ZodType; route: RouteDef }[] {
  const out: ReturnType<typeof documentedBodies> = [];
  for (const r of routes) {
    const op = opOf(r);
    const body = op.requestBody?.content?.['application/json'];
    if (body) {
      out.push({
        what: `${r.operationId} request`,
        schemaAt: `${opAt(r)}${pointer('requestBody', 'content', 'application/json', 'schema').slice(1)}`,
        values: valuesOf(body),
        zod: r.body!,
        route: r,
      });
    }
    for (const [status, response] of Object.entries(op.responses as Json)) {
      const media = response.content?.['application/json'];
      if (!status.startsWith('2') || !media) continue;
      out.push({
        what: `${r.operationId} ${status}`,
        schemaAt: `${opAt(r)}${pointer('responses', status, 'content', 'application/json', 'schema').slice(1)}`,
        values: valuesOf(media),
        zod: r.responses[Number(status)]!,
        route: r,
      });
    }
  }
  return out;
}

describe('OpenAPI examples', () => {
  const bodies = documentedBodies();

  it('has an example for every request body and every JSON success response of every operation', () => {
    expect(bodies.length).toBeGreaterThan(100);
    const missing = bodies.filter((b) => b.values.length === 0).map((b) => b.what);
    expect(missing).toEqual([]);
  });

  it("validates every example against its schema in the document (the document's own JSON Schema)", () => {
    const failures: string[] = [];
    let checked = 0;
    for (const b of bodies) {
      const validate = compileAt(ajv, b.schemaAt);
      for (const value of b.values) {
        checked++;
        if (!validate(value)) failures.push(`${b.what}: ${ajv.errorsText(validate.errors)}`);
      }
    }
    expect(checked).toBeGreaterThanOrEqual(bodies.length);
    expect(failures).toEqual([]);
    // Compiling a validator per documented body grows with the document: a budget of its own.
  }, 30_000);

  it('parses every example with the zod schema the handler validates with (refinements included)', () => {
    const failures: string[] = [];
    let checked = 0;
    for (const b of bodies) {
      for (const value of b.values) {
        checked++;
        const parsed = b.zod.safeParse(value);
        if (!parsed.success) failures.push(`${b.what}: ${parsed.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}`);
      }
    }
    expect(checked).toBeGreaterThanOrEqual(bodies.length);
    expect(failures).toEqual([]);
  });

  it('validates every path and query parameter example against its parameter schema', () => {
    const failures: string[] = [];
    let seen = 0;
    for (const r of routes) {
      (opOf(r).parameters ?? []).forEach((p: Json, i: number) => {
        const [value] = valuesOf(p);
        if (value === undefined) return;
        seen++;
        const validate = compileAt(ajv, `${opAt(r)}${pointer('parameters', i, 'schema').slice(1)}`);
        if (!validate(value)) failures.push(`${r.operationId} ${p.in} ${p.name}: ${ajv.errorsText(validate.errors)}`);
      });
      const ex = examplesOf(r.operationId);
      if (ex?.query && r.query) {
        const parsed = r.query.safeParse(Object.fromEntries(Object.entries(ex.query).map(([k, v]) => [k, String(v)])));
        if (!parsed.success) failures.push(`${r.operationId} query: ${parsed.error.message}`);
      }
    }
    expect(seen).toBeGreaterThan(20);
    expect(failures).toEqual([]);
  });

  // The reference console pre-selects a parameter whose example is not marked `x-disabled`: an
  // optional filter ticked by default turns the first Send of a list into an empty page.
  it('shows the example of every optional query parameter without pre-selecting it', () => {
    const ticked: string[] = [];
    let optional = 0;
    for (const r of routes) {
      for (const p of (opOf(r).parameters ?? []) as Json[]) {
        if (p.in !== 'query' || p.required) continue;
        if (p.example !== undefined) ticked.push(`${r.operationId} ${p.name}`);
        for (const e of Object.values((p.examples ?? {}) as Json)) {
          optional++;
          if (e['x-disabled'] !== true) ticked.push(`${r.operationId} ${p.name}`);
        }
      }
    }
    expect(optional).toBeGreaterThan(10);
    expect(ticked).toEqual([]);
    const tier = (opOf(routes.find((r) => r.operationId === 'listMembers')!).parameters as Json[]).find((p) => p.name === 'tier')!;
    expect(Object.values(tier.examples as Json)[0]).toMatchObject({ value: 'bronze', 'x-disabled': true });
  });

  it('has an example for every path parameter, so a documented request can be sent as shown', () => {
    const missing = routes.flatMap((r) =>
      ((opOf(r).parameters ?? []) as Json[]).filter((p) => p.in === 'path' && p.example === undefined).map((p) => `${r.operationId} ${p.name}`),
    );
    expect(missing).toEqual([]);
  });

  it('documents batch items that their own item schema accepts (the body schema takes any object per item)', () => {
    const batches: [string, readonly unknown[], z.ZodType][] = [
      ['upsertMembers', EXAMPLES.members.upsertMembers.request.members, createMemberBody],
      ['reconcileOrders', EXAMPLES.orders.reconcileOrders.request.orders, reconcileOrderSchema],
      ['importCatalog', EXAMPLES.catalog.importCatalog.request.products, importProductSchema],
    ];
    const failures = batches.flatMap(([op, items, schema]) =>
      items.flatMap((item, i) => {
        const parsed = schema.safeParse(item);
        return parsed.success ? [] : [`${op} item ${i}: ${parsed.error.message}`];
      }),
    );
    expect(failures).toEqual([]);
  });

  it('declares examples for exactly the operations of the route table', () => {
    const declared = Object.values(EXAMPLES).flatMap((area) => Object.keys(area));
    expect(declared.sort()).toEqual(routes.map((r) => r.operationId).sort());
  });

  it('refuses, at compile time, an operation whose request body or success response has no example', () => {
    type CreateOrder = OperationExamples<(typeof ordersArea)['endpoints']['createOrder']>;
    const order = EXAMPLES.orders.createOrder.responses[201];
    // @ts-expect-error the request example of a body is required
    const noRequest: CreateOrder = { responses: { 201: order, 200: { ...order, duplicate: true } } };
    // @ts-expect-error so is every JSON success response (here 200)
    const noReplay: CreateOrder = { request: EXAMPLES.orders.createOrder.request, responses: { 201: order } };
    const unknownField: CreateOrder = {
      // @ts-expect-error and a field the schema does not have
      request: { ...EXAMPLES.orders.createOrder.request, placedAt: '2026-03-14T09:30:00Z' },
      responses: EXAMPLES.orders.createOrder.responses,
    };
    expect([noRequest, noReplay, unknownField]).toHaveLength(3);
  });
});

describe('OpenAPI request bodies: what to send', () => {
  const requestSchemas = routes
    .filter((r) => r.body)
    .map((r) => {
      const ref = opOf(r).requestBody.content['application/json'].schema;
      return { r, schema: (ref.$ref ? resolvePointer(doc, ref.$ref) : ref) as Json };
    });

  it('describes every required field of every request body, nested ones included (a constant discriminator says itself)', () => {
    const deref = (s: Json | undefined): Json | undefined => (s?.$ref ? deref(resolvePointer(doc, s.$ref) as Json) : s);
    const undocumented: string[] = [];
    const walk = (node: Json | undefined, where: string, depth: number): void => {
      const s = deref(node);
      if (!s || depth > 8) return;
      for (const key of ['anyOf', 'oneOf', 'allOf']) for (const branch of (s[key] ?? []) as Json[]) walk(branch, where, depth + 1);
      if (s.items) walk(s.items, `${where}[]`, depth + 1);
      for (const name of (s.required ?? []) as string[]) {
        const prop = s.properties?.[name];
        if (!(prop?.description || deref(prop)?.description || deref(prop)?.const !== undefined)) undocumented.push(`${where}.${name}`);
      }
      for (const [name, prop] of Object.entries((s.properties ?? {}) as Json)) walk(prop, `${where}.${name}`, depth + 1);
    };
    for (const { r } of requestSchemas) walk(opOf(r).requestBody.content['application/json'].schema, r.operationId, 0);
    expect(undocumented).toEqual([]);
  });

  it('never lists a field with a default as required, and documents the default', () => {
    const wrong = requestSchemas.flatMap(({ r, schema }) =>
      Object.entries((schema.properties ?? {}) as Json)
        .filter(([name, prop]) => prop.default !== undefined && (schema.required ?? []).includes(name))
        .map(([name]) => `${r.operationId}.${name}`),
    );
    expect(wrong).toEqual([]);
    const createOrder = requestSchemas.find(({ r }) => r.operationId === 'createOrder')!.schema;
    expect(createOrder.properties.status.default).toBe('completed');
    expect(createOrder.required).not.toContain('status');
  });

  it("says what to send as an order's occurredAt: required, with its format and an example", () => {
    const createOrder = requestSchemas.find(({ r }) => r.operationId === 'createOrder')!.schema;
    expect(createOrder.required).toEqual(expect.arrayContaining(['externalOrderId', 'currency', 'total', 'occurredAt']));
    expect(createOrder.properties.occurredAt.description).toMatch(/ISO 8601.*e\.g\. \d{4}-\d\d-\d\dT/);
  });
});
