import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { call, uniqueEmail } from '../support/api';
import { newMember, tenant, type Tenant } from '../support/fixtures';

/**
 * Numbers no field may hold (beyond 2^53 - 1, written plainly or in exponent form) are a 422
 * naming the field on every free-form field, never a 500, and change nothing.
 */

const MESSAGE = 'must be 0 or between 1e-130 and 9007199254740991 in magnitude';
/** Written as the client writes them: JSON.stringify would print 9007199254740993 as ...992. */
const LITERALS = ['9007199254740993', '1e20', '1.23e29', '-9007199254740992', '1E+300'];

const raw = (t: Tenant, method: string, path: string, text: string, token = t.key) =>
  call(method, path, { token, rawBody: text, headers: { 'content-type': 'application/json' } });

function expectRefused(res: { status: number; body: any }, field: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(422);
  expect(res.body.error.code).toBe('VALIDATION_FAILED');
  expect(res.body.error.details).toEqual([{ in: 'body', field, message: MESSAGE }]);
}

describe('numbers beyond 2^53 are a 422 naming the field, on every free-form field', () => {
  it('member customAttributes (create, update), capture attributes, tracking properties, catalog attributes', async () => {
    const t = await tenant('numbers');
    const m = await newMember(t.key);
    for (const n of LITERALS) {
      expectRefused(await raw(t, 'POST', '/api/v2/members', `{"email":"${uniqueEmail('n')}","customAttributes":{"big":${n}}}`), 'customAttributes.big');
      expectRefused(await raw(t, 'PATCH', `/api/v2/members/${m.id}`, `{"customAttributes":{"big":${n}}}`), 'customAttributes.big');
      expectRefused(
        await raw(t, 'POST', '/api/v2/captures', `{"email":"${uniqueEmail('c')}","source":"footer_form","consents":{},"attributes":{"n":${n}}}`),
        'attributes.n',
      );
      expectRefused(
        await raw(
          t,
          'POST',
          '/api/v2/tracking/events',
          `{"events":[{"eventId":"e-${randomUUID()}","memberId":"${m.id}","type":"page.viewed","occurredAt":"2026-11-01T00:00:00Z","properties":{"n":${n}}}]}`,
        ),
        'events.0.properties.n',
      );
      expectRefused(
        await raw(t, 'POST', '/api/v2/catalog/import', `{"products":[{"sku":"S-1","name":"S","attributes":{"weight":${n}}}]}`),
        'products.0.attributes.weight',
      );
    }
    // Nothing was written: the only member is the one made above, with no attributes.
    const members = (await call('GET', '/api/v2/members?limit=50', { token: t.key })).body.data;
    expect(members.map((x: { id: string }) => x.id)).toEqual([m.id]);
    expect((await call('GET', `/api/v2/members/${m.id}`, { token: t.key })).body.data.customAttributes).toEqual({});
    expect((await call('GET', '/api/v2/products', { token: t.key })).body.data).toEqual([]);
    // The largest safe integer, long fractions and exponent forms within range are stored as given.
    const ok = await raw(
      t,
      'PATCH',
      `/api/v2/members/${m.id}`,
      '{"customAttributes":{"max":9007199254740991,"min":-9007199254740991,"frac":0.12345678901234567890123,"exp":1.5e-7,"tiny":1e-130}}',
    );
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.data.customAttributes).toEqual({ max: 9007199254740991, min: -9007199254740991, frac: 0.12345678901234568, exp: 1.5e-7, tiny: 1e-130 });
  });

  it('custom-object number fields', async () => {
    const t = await tenant('numbers-objects');
    const type = await call('PUT', '/api/flash/objects/types/gauge', {
      token: t.token,
      body: { label: 'Gauge', status: 'published', apiVisible: true, fields: [{ key: 'reading', type: 'number' }] },
    });
    expect(type.status, JSON.stringify(type.body)).toBe(200);
    for (const n of LITERALS) expectRefused(await raw(t, 'POST', '/api/v2/objects/gauge/records', `{"data":{"reading":${n}}}`), 'data.reading');
    expect((await call('GET', '/api/v2/objects/gauge/records', { token: t.key })).body.data).toEqual([]);
  });

  it('a batch with one bad number anywhere is refused whole before any item is applied', async () => {
    const t = await tenant('numbers-batch');
    const first = uniqueEmail('first');
    const res = await raw(
      t,
      'POST',
      '/api/v2/members/batch',
      `{"members":[{"email":"${first}"},{"email":"${uniqueEmail('second')}","customAttributes":{"n":9007199254740993}}]}`,
    );
    expectRefused(res, 'members.1.customAttributes.n');
    expect((await call('GET', `/api/v2/members?email=${encodeURIComponent(first)}`, { token: t.key })).body.data).toEqual([]);
  });
});
