import { connect } from 'node:net';
import { describe, expect, inject, it } from 'vitest';
import { call } from '../support/api';
import { newMember, orderId, tenant } from '../support/fixtures';

/** Request contract edges: each a clear 4xx naming its field, never a silent acceptance. */

const fieldsOf = (res: { body: any }) => (res.body.error?.details ?? []).map((d: { field: string }) => d.field);

/** A raw HTTP/1.1 request, for what fetch cannot send (a header twice). */
function rawRequest(lines: string[], body = ''): Promise<{ status: number; body: any }> {
  const url = new URL(inject('baseUrl'));
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname, () =>
      socket.end([...lines, 'Connection: close', `Content-Length: ${Buffer.byteLength(body)}`, '', body].join('\r\n')),
    );
    let text = '';
    socket.on('data', (d) => (text += d.toString()));
    socket.on('error', reject);
    // The status and the error code are enough here (the body may come chunked).
    socket.on('end', () => resolve({ status: Number(text.split(' ')[1]), body: { error: { code: /"code":"([A-Z_]+)"/.exec(text)?.[1] } } }));
  });
}

describe('request contract edges', () => {
  it('webhook endpoints and export notices over http to a host not loopback by name are refused when saved', async () => {
    const t = await tenant('gaps-urls');
    for (const url of ['http://hooks.example.com/in', 'http://example.com:8080/']) {
      const endpoint = await call('POST', '/api/v2/webhooks', { token: t.key, body: { url, eventTypes: ['member.created'] } });
      expect(endpoint.status, url).toBe(422);
      expect(endpoint.body.error.details).toEqual([
        { in: 'body', field: 'url', message: 'scheme http: is only allowed for loopback targets (127.0.0.1, [::1], localhost); use https:' },
      ]);
      const exported = await call('POST', '/api/flash/exports', { token: t.token, body: { entity: 'members', format: 'csv', webhookUrl: url } });
      expect(exported.status, url).toBe(422);
      expect(fieldsOf(exported)).toEqual(['webhookUrl']);
    }
    expect((await call('GET', '/api/v2/webhooks', { token: t.key })).body.data).toEqual([]);
  });

  it('the audit actor filter takes a user or key id only', async () => {
    const t = await tenant('gaps-audit');
    for (const actor of ['not-an-id', 'mbr_01j0000000000000000000000a', 'usr_short', `usr_${'0'.repeat(27)}`]) {
      const res = await call('GET', `/api/flash/audit?actor=${actor}`, { token: t.token });
      expect(res.status, actor).toBe(422);
      expect(fieldsOf(res)).toEqual(['actor']);
    }
    expect((await call('GET', `/api/flash/audit?actor=${t.userId}`, { token: t.token })).status).toBe(200);
  });

  it('numeric query parameters are plain decimal integers', async () => {
    const t = await tenant('gaps-limit');
    for (const path of ['/api/v2/members', '/api/v2/orders', '/api/v2/products', '/api/v2/ambassador/candidates']) {
      for (const limit of ['0x10', '1e1', '%2016', '016', '']) {
        const res = await call('GET', `${path}?limit=${limit}`, { token: t.key });
        expect(res.status, `${path}?limit=${limit}`).toBe(422);
        expect(fieldsOf(res)).toEqual(['limit']);
      }
      expect((await call('GET', `${path}?limit=16`, { token: t.key })).status, path).toBe(200);
    }
    const audit = await call('GET', '/api/flash/audit?limit=0x10', { token: t.token });
    expect(audit.status).toBe(422);
  });

  it('query names that are object internals are unknown parameters, never inherited values', async () => {
    const t = await tenant('gaps-proto');
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
      const res = await call('GET', `/api/v2/members?${name}=x`, { token: t.key });
      expect(res.status, name).toBe(422);
      expect(fieldsOf(res)).toEqual([name]);
    }
  });

  it('memberId on an object type without a member field is a 422', async () => {
    const t = await tenant('gaps-objects');
    const m = await newMember(t.key);
    expect(
      (
        await call('PUT', '/api/flash/objects/types/note', {
          token: t.token,
          body: { label: 'Note', status: 'published', apiVisible: true, fields: [{ key: 'text', type: 'text' }] },
        })
      ).status,
    ).toBe(200);
    const res = await call('GET', `/api/v2/objects/note/records?memberId=${m.id}`, { token: t.key });
    expect(res.status).toBe(422);
    expect(res.body.error.details).toEqual([{ in: 'query', field: 'memberId', message: 'this object type has no member field (member_ref)' }]);
  });

  it('a date-time fraction has at most 9 digits', async () => {
    const t = await tenant('gaps-datetime');
    const m = await newMember(t.key);
    const order = (occurredAt: string) =>
      call('POST', '/api/v2/orders', { token: t.key, body: { externalOrderId: orderId('DT'), memberId: m.id, currency: 'EUR', total: 10, occurredAt } });
    for (const digits of [10, 20_000]) {
      const res = await order(`2026-11-01T10:00:00.${'1'.repeat(digits)}Z`);
      expect(res.status, String(digits)).toBe(422);
      expect(fieldsOf(res)).toEqual(['occurredAt']);
    }
    expect((await order('2026-11-01T10:00:00.123456789Z')).status).toBe(201);
  });

  it('the OpenAPI document publishes the customAttributes cap, the number bounds and the fraction bound', async () => {
    const doc = (await call('GET', '/api/v2/openapi.json')).body;
    const text = JSON.stringify(doc);
    const member = doc.components.schemas.CreateMember ?? doc.components.schemas.CreateMemberInput;
    expect(member.properties.customAttributes.maxProperties).toBe(50);
    expect(JSON.stringify(member.properties.customAttributes.additionalProperties)).toContain('"maximum":9007199254740991');
    expect(text).toContain('(?:\\\\.\\\\d{1,9})?');
    expect(text).not.toContain('(?:\\\\.\\\\d+)?');
  });

  it('every 422 detail names its field, the whole included', async () => {
    const t = await tenant('gaps-fields');
    const m = await newMember(t.key);
    const empty = await call('PATCH', `/api/v2/members/${m.id}`, { token: t.key, body: {} });
    expect(empty.status).toBe(422);
    expect(fieldsOf(empty)).toEqual(['body']);
    const notObject = await call('POST', '/api/v2/members', { token: t.key, body: [1] });
    expect(notObject.status).toBe(422);
    expect(fieldsOf(notObject)).toEqual(['body']);
  });

  it('two Authorization headers are a 400, whether joined or sent twice', async () => {
    const t = await tenant('gaps-auth');
    const joined = await call('GET', '/api/v2/members', { headers: { authorization: `Bearer ${t.key}, Bearer ${t.key}` } });
    expect(joined.status).toBe(400);
    expect(fieldsOf(joined)).toEqual(['authorization']);
    const twice = await rawRequest([
      'GET /api/v2/members HTTP/1.1',
      'Host: 127.0.0.1',
      `Authorization: Bearer ${t.key}`,
      'Authorization: Bearer fl_live_other',
    ]);
    expect(twice.status).toBe(400);
    expect(twice.body.error.code).toBe('BAD_REQUEST');
    const mcp = await rawRequest(
      ['POST /api/mcp HTTP/1.1', 'Host: 127.0.0.1', `Authorization: Bearer ${t.key}`, `Authorization: Bearer ${t.key}`, 'Content-Type: application/json'],
      '{"jsonrpc":"2.0","id":1,"method":"ping"}',
    );
    expect(mcp.status).toBe(400);
  });

  it('a malformed bearer credential is a 401, a comma inside it included (only a second credential makes a 400)', async () => {
    const t = await tenant('gaps-bearer');
    const malformed = [
      `Bearer ${t.key},x`,
      `Bearer ${t.key},`,
      'Bearer a,b',
      'Bearer ,',
      'Bearer',
      `Bearer ${t.key} extra`,
      `Basic ${t.key}`,
      `Bearer ${t.key}, x`,
    ];
    for (const authorization of malformed) {
      for (const [method, path] of [
        ['GET', '/api/v2/members'],
        ['GET', '/api/flash/campaigns'],
      ] as const) {
        const res = await call(method, path, { headers: { authorization } });
        expect(res.status, `${authorization} ${path}`).toBe(401);
        expect(res.body.error.code).toBe('UNAUTHENTICATED');
      }
    }
    const mcp = await rawRequest(
      ['POST /api/mcp HTTP/1.1', 'Host: 127.0.0.1', `Authorization: Bearer ${t.key},x`, 'Content-Type: application/json'],
      '{"jsonrpc":"2.0","id":1,"method":"ping"}',
    );
    expect(mcp.status).toBe(401);
    // Two credentials, joined as API Gateway joins the headers, stay a 400.
    expect((await call('GET', '/api/v2/members', { headers: { authorization: `Bearer ${t.key},Bearer ${t.key}` } })).status).toBe(400);
    expect((await call('GET', '/api/v2/members', { headers: { authorization: `Bearer ${t.key}` } })).status).toBe(200);
  });

  it('lists that short-cut still refuse a cursor they never issued', async () => {
    const t = await tenant('gaps-cursor');
    const m = await newMember(t.key);
    for (const path of [
      `/api/v2/members?email=${encodeURIComponent(m.email)}`,
      '/api/v2/members?externalId=nobody',
      '/api/v2/products?category=no-such-category',
      '/api/v2/products?brand=no-such-brand',
      '/api/v2/coupons?poolId=not-a-pool',
      '/api/v2/orders?memberId=not-a-member',
    ]) {
      const res = await call('GET', `${path}&cursor=garbage`, { token: t.key });
      expect(res.status, path).toBe(400);
      expect(res.body.error.message).toBe('Invalid cursor');
    }
  });
});
