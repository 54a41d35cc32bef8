import { connect } from 'node:net';
import { describe, expect, inject, it } from 'vitest';
import { call, uniqueEmail } from '../support/api';
import { newMember, tenant } from '../support/fixtures';

/** Inputs crafted to break the service must be refused as client errors, never answered with a 500. */

const RESERVED = ['constructor', '__proto__', 'prototype'];
/** A JSON body whose map holds `key` as an own property (JSON.stringify would drop `__proto__`). */
const mapWith = (key: string) => JSON.parse(`{${JSON.stringify(key)}:"c"}`) as Record<string, unknown>;
const rawJson = (value: unknown, key: string) => JSON.stringify(value).replace('"__KEY__"', JSON.stringify(key));

describe('free-form maps refuse reserved names', () => {
  it('members: PATCH, POST and one item of a batch', async () => {
    const t = await tenant('ffm-members');
    const m = await newMember(t.key);
    for (const key of RESERVED) {
      const patch = await call('PATCH', `/api/v2/members/${m.id}`, { token: t.key, rawBody: rawJson({ customAttributes: { __KEY__: 'c' } }, key) });
      expect(patch.status, key).toBe(422);
      expect(patch.body.error.details).toEqual([
        expect.objectContaining({ in: 'body', field: `customAttributes.${key}`, message: expect.stringContaining('reserved') }),
      ]);
      const post = await call('POST', '/api/v2/members', {
        token: t.key,
        rawBody: rawJson({ email: uniqueEmail('ffm'), customAttributes: { __KEY__: 'c' } }, key),
      });
      expect(post.status, key).toBe(422);
      expect(post.body.error.details[0].field).toBe(`customAttributes.${key}`);
      const batch = await call('POST', '/api/v2/members/batch', {
        token: t.key,
        rawBody: rawJson({ members: [{ email: uniqueEmail('ok') }, { email: uniqueEmail('bad'), customAttributes: { __KEY__: 'c' } }] }, key),
      });
      expect(batch.status, key).toBe(200);
      expect(batch.body.data.results.map((r: { outcome: string }) => r.outcome)).toEqual(['created', 'failed']);
      expect(batch.body.data.results[1].error.code).toBe('VALIDATION_FAILED');
    }
    expect((await call('GET', `/api/v2/members/${m.id}`, { token: t.key })).body.data.customAttributes).toEqual({});
    expect(mapWith('__proto__')).toHaveProperty('__proto__');
  });

  it('captures (attributes), tracking events (properties), catalog import (attributes)', async () => {
    const t = await tenant('ffm-other');
    const m = await newMember(t.key);
    for (const key of RESERVED) {
      const capture = await call('POST', '/api/v2/captures', {
        token: t.key,
        rawBody: rawJson({ source: 'footer_form', email: uniqueEmail('cap'), consents: { marketingEmail: true }, attributes: { __KEY__: 'c' } }, key),
      });
      expect(capture.status, key).toBe(422);
      expect(capture.body.error.details[0].field).toBe(`attributes.${key}`);

      const event = {
        eventId: `e-${key}-${Date.now()}`,
        memberId: m.id,
        type: 'page.viewed',
        occurredAt: new Date().toISOString(),
        properties: { __KEY__: 'c' },
      };
      const track = await call('POST', '/api/v2/tracking/events', { token: t.key, rawBody: rawJson({ events: [event] }, key) });
      expect(track.status, key).toBeLessThan(500);
      expect(JSON.stringify(track.body), key).toContain('reserved name');

      const imp = await call('POST', '/api/v2/catalog/import', {
        token: t.key,
        rawBody: rawJson({ products: [{ sku: `S-${key}`, name: 'A', attributes: { __KEY__: 'c' } }] }, key),
      });
      expect(imp.status, key).toBeLessThan(500);
      expect(JSON.stringify(imp.body), key).toContain('reserved name');
    }
  });
});

describe('list filters: an empty value is a 422 naming the parameter', () => {
  it('every text filter of every list', async () => {
    const t = await tenant('empty-filters');
    const m = await newMember(t.key);
    const cases: [string, string][] = [
      ['/api/v2/members', 'email'],
      ['/api/v2/members', 'externalId'],
      ['/api/v2/members', 'tier'],
      ['/api/v2/members', 'tag'],
      ['/api/v2/members', 'q'],
      ['/api/v2/orders', 'memberId'],
      ['/api/v2/orders', 'storeId'],
      ['/api/v2/coupons', 'poolId'],
      ['/api/v2/coupons', 'memberId'],
      [`/api/v2/members/${m.id}/coupons`, 'poolId'],
      ['/api/v2/products', 'category'],
      ['/api/v2/products', 'brand'],
      ['/api/v2/products', 'q'],
      ['/api/v2/categories', 'parentKey'],
      ['/api/v2/tags', 'prefix'],
      ['/api/v2/stores', 'cursor'],
    ];
    for (const [path, param] of cases) {
      const res = await call('GET', `${path}?${param}=`, { token: t.key });
      expect(res.status, `${path}?${param}=`).toBe(422);
      expect(res.body.error.details, `${path}?${param}=`).toEqual([expect.objectContaining({ in: 'query', field: param })]);
    }
  });
});

describe('cursors are tamper-proof', () => {
  const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
  const withCursor = (path: string, cursor: string) => `${path}${path.includes('?') ? '&' : '?'}cursor=${encodeURIComponent(cursor)}`;

  it('a forged, truncated, modified or foreign cursor is a 400 on every cursor-paged list; a real one pages on', async () => {
    const t = await tenant('cursors');
    const ws = t.workspaceId;
    const m = await newMember(t.key);
    await newMember(t.key);
    await newMember(t.key);
    for (const name of ['A', 'B', 'C']) expect((await call('POST', '/api/v2/stores', { token: t.key, body: { name } })).status).toBe(201);
    for (let i = 0; i < 3; i++) {
      expect((await call('POST', `/api/v2/members/${m.id}/points`, { token: t.key, body: { type: 'earn', amount: 10, reason: 'x' } })).status).toBeLessThan(
        300,
      );
    }
    const lists: { path: string; token: string }[] = [
      { path: '/api/v2/stores', token: t.key },
      { path: '/api/v2/api-keys', token: t.key },
      { path: '/api/v2/webhooks', token: t.key },
      { path: '/api/v2/categories', token: t.key },
      { path: '/api/v2/brands', token: t.key },
      { path: '/api/v2/members', token: t.key },
      { path: '/api/v2/members?status=active', token: t.key },
      { path: '/api/v2/ambassador/candidates', token: t.key },
      { path: '/api/v2/orders', token: t.key },
      { path: '/api/v2/tags', token: t.key },
      { path: `/api/v2/members/${m.id}/points`, token: t.key },
      { path: `/api/v2/members/${m.id}/coupons`, token: t.key },
      { path: '/api/v2/products', token: t.key },
      { path: '/api/v2/coupons/pools', token: t.key },
      { path: '/api/v2/coupons', token: t.key },
    ];

    // Real cursors of three lists, to try on the others.
    const firstPage = async (path: string) => {
      const res = await call('GET', `${path}${path.includes('?') ? '&' : '?'}limit=1`, { token: t.key });
      expect(res.status, path).toBe(200);
      expect(res.body.nextCursor, path).toEqual(expect.any(String));
      return res.body as { data: { id?: string }[]; nextCursor: string };
    };
    const stores = await firstPage('/api/v2/stores');
    const members = await firstPage('/api/v2/members');
    const points = await firstPage(`/api/v2/members/${m.id}/points`);

    const [payload, sig] = members.nextCursor.split('.') as [string, string];
    const forged = [
      b64({ pk: `WS#${ws}` }),
      b64({ pk: `WS#${ws}`, sk: 'STORE#' }),
      b64({ pk: `WS#${ws}`, sk: 'x', gsi1pk: `WS#${ws}`, gsi1sk: 'x' }),
      `${b64({ pk: `WS#${ws}`, sk: 'MBR#zzz' })}.${sig}`,
      `${payload}.`,
      payload,
      members.nextCursor.slice(0, -3),
      `${payload}.${sig.slice(0, -2)}${sig.endsWith('AA') ? 'BB' : 'AA'}`,
      `${payload.slice(0, -2)}.${sig}`,
      `${members.nextCursor}.x`,
      'garbage',
    ];
    for (const { path, token } of lists) {
      for (const cursor of forged) {
        const res = await call('GET', withCursor(path, cursor), { token });
        expect(res.status, `${path} with ${cursor}`).toBe(400);
        expect(res.body.error).toMatchObject({ code: 'BAD_REQUEST', message: 'Invalid cursor' });
      }
      for (const [from, cursor] of [
        ['/api/v2/stores', stores.nextCursor],
        ['/api/v2/members', members.nextCursor],
        [`/api/v2/members/${m.id}/points`, points.nextCursor],
      ] as const) {
        if (from === path) continue;
        const res = await call('GET', withCursor(path, cursor), { token });
        expect(res.status, `${path} with a cursor of ${from}`).toBe(400);
        expect(res.body.error.code).toBe('BAD_REQUEST');
      }
    }

    // A cursor continues only the query it came from: not with another filter, nor in another workspace.
    expect((await call('GET', withCursor('/api/v2/members?status=active', members.nextCursor), { token: t.key })).status).toBe(400);
    const other = await tenant('cursors-other');
    expect((await call('GET', withCursor('/api/v2/members', members.nextCursor), { token: other.key })).status).toBe(400);

    // Real cursors page on, to the end, without repeats.
    for (const path of ['/api/v2/stores', '/api/v2/members', `/api/v2/members/${m.id}/points`]) {
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const res: any = await call('GET', `${path}?limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { token: t.key });
        expect(res.status, path).toBe(200);
        seen.push(...(Array.isArray(res.body.data) ? res.body.data : res.body.data.entries).map((d: any) => JSON.stringify(d)));
        cursor = res.body.nextCursor;
      } while (cursor);
      expect(seen.length, path).toBe(3);
      expect(new Set(seen).size, path).toBe(3);
    }
  });
});

describe('the HTTP transport answers every refusal in the one JSON error shape', () => {
  const target = () => new URL(inject('baseUrl'));

  /** Sends raw bytes and reads the whole answer (the server closes the connection). */
  const raw = (head: string, body?: { size: number; chunk?: number }) =>
    new Promise<{ status: number; headers: string; body: string; error?: string }>((resolve) => {
      const { hostname, port } = target();
      const socket = connect(Number(port), hostname);
      const received: Buffer[] = [];
      let error: string | undefined;
      socket.on('data', (d) => received.push(d));
      socket.on('error', (e) => (error = (e as NodeJS.ErrnoException).code ?? e.message));
      socket.on('close', () => {
        const text = Buffer.concat(received).toString('utf8');
        const [h = '', b = ''] = text.split('\r\n\r\n');
        resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(h)?.[1] ?? 0), headers: h, body: b, ...(error ? { error } : {}) });
      });
      socket.on('connect', async () => {
        socket.write(head);
        if (!body) return;
        const piece = Buffer.alloc(body.chunk ?? 64 * 1024, 'a');
        for (let sent = 0; sent < body.size && !socket.destroyed; sent += piece.length) {
          if (!socket.write(piece.subarray(0, Math.min(piece.length, body.size - sent)))) await new Promise((r) => socket.once('drain', r));
        }
      });
    });

  const expectJsonError = (res: { status: number; headers: string; body: string }, status: number, code: string) => {
    expect(res.status, res.headers).toBe(status);
    expect(res.headers.toLowerCase()).toContain('content-type: application/json');
    // Refused before any request exists: the link to the reference is built from the address the client connected to.
    const docUrl = `${inject('baseUrl')}/docs#api/description/${code.toLowerCase().replace(/_/g, '-')}`;
    expect(JSON.parse(res.body)).toEqual({ error: { code, message: expect.any(String), requestId: expect.any(String), docUrl } });
  };

  it('a URL or headers over the limit: 431 JSON with a code', async () => {
    const host = `host: ${target().host}\r\n`;
    const longUrl = await raw(`GET /api/v2/stores?q=${'a'.repeat(40_000)} HTTP/1.1\r\n${host}\r\n`);
    expectJsonError(longUrl, 431, 'REQUEST_HEADER_FIELDS_TOO_LARGE');
    const longHeader = await raw(`GET /api/v2/stores HTTP/1.1\r\n${host}x-big: ${'b'.repeat(40_000)}\r\n\r\n`);
    expectJsonError(longHeader, 431, 'REQUEST_HEADER_FIELDS_TOO_LARGE');
    const manyHeaders = await raw(
      `GET /api/v2/stores HTTP/1.1\r\n${host}${Array.from({ length: 2000 }, (_, i) => `x-h${i}: ${'c'.repeat(20)}\r\n`).join('')}\r\n`,
    );
    expectJsonError(manyHeaders, 431, 'REQUEST_HEADER_FIELDS_TOO_LARGE');
    // Through an ordinary client too.
    const viaFetch = await fetch(`${inject('baseUrl')}/api/v2/stores?q=${'a'.repeat(40_000)}`);
    expect(viaFetch.status).toBe(431);
    expect(((await viaFetch.json()) as any).error.code).toBe('REQUEST_HEADER_FIELDS_TOO_LARGE');
  });

  it('malformed HTTP: 400 JSON', async () => {
    expectJsonError(await raw('THIS IS NOT HTTP\r\n\r\n'), 400, 'BAD_REQUEST');
  });

  it('a 7 MiB body: 413 JSON, read to the end, no reset', async () => {
    const size = 7 * 1024 * 1024;
    const res = await raw(`POST /api/v2/stores HTTP/1.1\r\nhost: ${target().host}\r\ncontent-type: application/json\r\ncontent-length: ${size}\r\n\r\n`, {
      size,
    });
    expect(res.error).toBeUndefined();
    expectJsonError(res, 413, 'PAYLOAD_TOO_LARGE');
    const viaFetch = await fetch(`${inject('baseUrl')}/api/v2/stores`, {
      method: 'POST',
      body: 'x'.repeat(size),
      headers: { 'content-type': 'application/json' },
    });
    expect(viaFetch.status).toBe(413);
    expect(((await viaFetch.json()) as any).error.code).toBe('PAYLOAD_TOO_LARGE');
  });
});

describe('deeply nested bodies', () => {
  it('are a 400 before anything walks them, also with an Idempotency-Key (was a 500: the fingerprint overflowed the stack)', async () => {
    const t = await tenant('deep');
    const m = await newMember(t.key);
    const bodies = ['['.repeat(20_000) + ']'.repeat(20_000), `${'{"a":'.repeat(3000)}1${'}'.repeat(3000)}`];
    for (const [path, rawBody] of bodies.flatMap(
      (b) =>
        [
          ['/api/v2/members', b],
          ['/api/v2/tracking/events', b],
          [`/api/v2/members/${m.id}/points`, b],
        ] as const,
    )) {
      const res = await call('POST', path, {
        token: t.key,
        rawBody,
        headers: { 'content-type': 'application/json', 'idempotency-key': `deep-${Math.random()}` },
      });
      expect(res.status, path).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'BAD_REQUEST', message: 'JSON body nested deeper than 64 levels' });
    }
    // Nesting up to the limit is judged by the schema as usual.
    const shallow = await call('POST', '/api/v2/members', {
      token: t.key,
      rawBody: JSON.stringify({ customAttributes: { a: JSON.parse('['.repeat(62) + ']'.repeat(62)) } }),
      headers: { 'content-type': 'application/json' },
    });
    expect(shallow.status).toBe(422);
    expect((await call('GET', '/api/v2/members', { token: t.key })).body.data).toHaveLength(1);
  });
});

describe('numbers the store cannot hold', () => {
  it('are a 422 naming the field wherever a request number is stored as given (was a 500 from the store)', async () => {
    const t = await tenant('numbers');
    const m = await newMember(t.key);
    for (const n of [1e-300, -1e-200, 1e200]) {
      const body = (value: Record<string, unknown>) => ({ token: t.key, body: value });
      const cases: [string, string, { token: string; body: unknown }, string][] = [
        ['POST', '/api/v2/members', body({ email: uniqueEmail('n'), customAttributes: { x: n } }), 'customAttributes.x'],
        ['PATCH', `/api/v2/members/${m.id}`, body({ customAttributes: { x: n } }), 'customAttributes.x'],
        ['POST', '/api/v2/captures', body({ source: 'footer_form', email: uniqueEmail('n'), consents: {}, attributes: { x: n } }), 'attributes.x'],
      ];
      for (const [method, path, opts, field] of cases) {
        const res = await call(method, path, opts);
        expect(res.status, `${method} ${path} ${n}`).toBe(422);
        expect(res.body.error.details, `${method} ${path} ${n}`).toEqual([
          expect.objectContaining({ field, message: 'must be 0 or between 1e-130 and 9007199254740991 in magnitude' }),
        ]);
      }
      // A number no field may hold refuses a batch whole, before any item is applied.
      const batch = await call(
        'POST',
        '/api/v2/members/batch',
        body({ members: [{ email: uniqueEmail('n') }, { email: uniqueEmail('n'), customAttributes: { x: n } }] }),
      );
      expect(batch.status).toBe(422);
      expect(batch.body.error.details).toEqual([expect.objectContaining({ field: 'members.1.customAttributes.x' })]);
      const event = {
        eventId: `n-${Math.random()}`.replace('.', ''),
        memberId: m.id,
        type: 'page.viewed',
        occurredAt: new Date().toISOString(),
        properties: { x: n },
      };
      const track = await call('POST', '/api/v2/tracking/events', body({ events: [event] }));
      expect(track.status).toBeLessThan(500);
      expect(JSON.stringify(track.body)).toContain('1e-130');
      const imp = await call('POST', '/api/v2/catalog/import', body({ products: [{ sku: 'N-1', name: 'A', attributes: { x: n } }] }));
      expect(imp.status).toBe(422);
      expect(imp.body.error.details).toEqual([expect.objectContaining({ field: 'products.0.attributes.x' })]);
    }
    // Amounts and rates below the store's smallest magnitude (their upper bounds are lower anyway).
    const tiny = 1e-300;
    const order = await call('POST', '/api/v2/orders', {
      token: t.key,
      body: {
        externalOrderId: 'N-ORDER',
        memberId: m.id,
        currency: 'EUR',
        total: 1,
        occurredAt: '2026-11-01T10:00:00Z',
        items: [{ quantity: 1, unitPrice: tiny }],
      },
    });
    expect(order.status).toBe(422);
    expect(order.body.error.details[0].field).toBe('items.0.unitPrice');
    const pool = (discount: unknown) =>
      call('POST', '/api/v2/coupons/pools', { token: t.key, body: { name: 'P', discount, codeConfig: { mode: 'generated' }, stock: 5 } });
    expect((await pool({ type: 'percent', value: tiny })).body.error.details[0].field).toBe('discount.value');
    expect((await pool({ type: 'fixed', amount: tiny, currency: 'EUR' })).body.error.details[0].field).toBe('discount.amount');
    const program = await call('PUT', '/api/flash/program', {
      token: t.token,
      body: {
        earn: { pointsPerUnit: tiny, rounding: 'floor', currencyOverrides: { USD: tiny } },
        tiers: { metric: 'order_count', levels: [{ key: 'base', name: 'Base', threshold: 0 }] },
      },
    });
    expect(program.status).toBe(422);
    expect(program.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual(['earn.currencyOverrides.USD', 'earn.pointsPerUnit']);
    expect((await call('GET', `/api/v2/members/${m.id}`, { token: t.key })).body.data.customAttributes).toEqual({});
  });
});

describe('request strings are bounded', () => {
  it('an over-long id in the path or body, or e-mail, is a 422 naming it', async () => {
    const t = await tenant('bounds');
    const long = `mbr_${'x'.repeat(80)}`;
    const get = await call('GET', `/api/v2/members/${long}`, { token: t.key });
    expect(get.status).toBe(422);
    expect(get.body.error.details).toEqual([expect.objectContaining({ in: 'path', field: 'id' })]);
    const issue = await call('POST', '/api/v2/coupons/issue', { token: t.key, body: { poolId: long, memberId: long } });
    expect(issue.status).toBe(422);
    expect(issue.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual(['memberId', 'poolId']);
    const email = await call('POST', '/api/v2/members', { token: t.key, body: { email: `${'a'.repeat(300)}@example.test` } });
    expect(email.status).toBe(422);
    expect(email.body.error.details[0].field).toBe('email');
  });
});
