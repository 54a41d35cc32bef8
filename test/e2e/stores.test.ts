import { describe, expect, it } from 'vitest';
import { call } from '../support/api';
import { tenant } from '../support/fixtures';

describe('stores', () => {
  it('create, get, patch, list with status filter and pagination', async () => {
    const t = await tenant('stores');
    const created = await call('POST', '/api/v2/stores', {
      token: t.key,
      body: {
        name: 'Flagship',
        code: 'BER-01',
        currency: 'EUR',
        timezone: 'Europe/Berlin',
        address: { line1: 'Unter den Linden 1', city: 'Berlin', country: 'DE' },
      },
    });
    expect(created.status).toBe(201);
    const store = created.body.data;
    expect(store).toMatchObject({
      name: 'Flagship',
      code: 'BER-01',
      status: 'active',
      address: { line1: 'Unter den Linden 1', line2: null, city: 'Berlin', country: 'DE' },
    });
    expect(store.id).toMatch(/^sto_/);
    expect((await call('GET', `/api/v2/stores/${store.id}`, { token: t.key })).body.data).toEqual(store);

    const patched = await call('PATCH', `/api/v2/stores/${store.id}`, { token: t.key, body: { status: 'closed', address: null } });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject({ name: 'Flagship', status: 'closed', address: null, code: 'BER-01' });
    expect(Date.parse(patched.body.data.updatedAt)).toBeGreaterThanOrEqual(Date.parse(store.updatedAt));

    await call('POST', '/api/v2/stores', { token: t.key, body: { name: 'Outlet' } });
    const open = await call('GET', '/api/v2/stores?status=active', { token: t.key });
    expect(open.body.data.map((s: { name: string }) => s.name)).toEqual(['Outlet']);
    const page = await call('GET', '/api/v2/stores?limit=1', { token: t.key });
    expect(page.body.data).toHaveLength(1);
    expect(page.body.nextCursor).toEqual(expect.any(String));
  });

  it('validates input and answers 404 for unknown ids', async () => {
    const t = await tenant('stores-val');
    const bad = await call('POST', '/api/v2/stores', { token: t.key, body: { name: '', timezone: 'Mars/Olympus', currency: 'euro', address: { city: 'X' } } });
    expect(bad.status).toBe(422);
    expect(bad.body.error.details.map((d: { field: string }) => d.field)).toEqual(
      expect.arrayContaining(['name', 'timezone', 'currency', 'address.line1', 'address.country']),
    );
    expect((await call('GET', '/api/v2/stores/sto_01m7xj3s3d3k3hjqhj5027fa7k', { token: t.key })).status).toBe(404);
    expect((await call('PATCH', '/api/v2/stores/nonsense', { token: t.key, body: { name: 'x' } })).status).toBe(404);
    expect((await call('PATCH', '/api/v2/stores/nonsense', { token: t.key, body: {} })).status).toBe(422);
  });
});
