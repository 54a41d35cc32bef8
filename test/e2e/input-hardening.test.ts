import { describe, expect, it } from 'vitest';
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
      expect(patch.body.error.details).toEqual([expect.objectContaining({ in: 'body', field: `customAttributes.${key}`, message: expect.stringContaining('reserved') })]);
      const post = await call('POST', '/api/v2/members', { token: t.key, rawBody: rawJson({ email: uniqueEmail('ffm'), customAttributes: { __KEY__: 'c' } }, key) });
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

      const event = { eventId: `e-${key}-${Date.now()}`, memberId: m.id, type: 'page.viewed', occurredAt: new Date().toISOString(), properties: { __KEY__: 'c' } };
      const track = await call('POST', '/api/v2/tracking/events', { token: t.key, rawBody: rawJson({ events: [event] }, key) });
      expect(track.status, key).toBeLessThan(500);
      expect(JSON.stringify(track.body), key).toContain('reserved name');

      const imp = await call('POST', '/api/v2/catalog/import', { token: t.key, rawBody: rawJson({ products: [{ sku: `S-${key}`, name: 'A', attributes: { __KEY__: 'c' } }] }, key) });
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
