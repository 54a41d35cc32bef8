import { describe, expect, it } from 'vitest';
import { call } from '../support/api';
import { balanceOf, newMember, orderId, tenant } from '../support/fixtures';

describe('Idempotency-Key', () => {
  it('same key and body replays the first answer (same ids, marked); nothing is applied twice', async () => {
    const t = await tenant('idem');
    const m = await newMember(t.key);
    const body = { type: 'earn', amount: 25, reason: 'bonus' };
    const headers = { 'idempotency-key': 'bonus-2026-11-20' };
    const first = await call('POST', `/api/v2/members/${m.id}/points`, { token: t.key, body, headers });
    const again = await call('POST', `/api/v2/members/${m.id}/points`, { token: t.key, body: { reason: 'bonus', amount: 25, type: 'earn' }, headers });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    // The replay is a request of its own: its own id, not the first answer's.
    expect(again.headers.get('x-request-id')).toMatch(/^req_[0-9a-z]{26}$/);
    expect(again.headers.get('x-request-id')).not.toBe(first.headers.get('x-request-id'));
    expect(again.body.data.entry.id).toBe(first.body.data.entry.id);
    expect(await balanceOf(t.key, m.id)).toMatchObject({ balance: 25 });
  });

  it('same key with another body is 422 and changes nothing', async () => {
    const t = await tenant('idem-reuse');
    const headers = { 'idempotency-key': 'member-create-1' };
    const first = await call('POST', '/api/v2/members', { token: t.key, body: { externalId: 'IDEM-1' }, headers });
    expect(first.status).toBe(201);
    const other = await call('POST', '/api/v2/members', { token: t.key, body: { externalId: 'IDEM-2' }, headers });
    expect(other.status).toBe(422);
    expect(other.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    const list = await call('GET', '/api/v2/members?externalId=IDEM-2', { token: t.key });
    expect(list.body.data).toHaveLength(0);
  });

  it('concurrent requests with one key apply once: the others replay the winner’s answer', async () => {
    const t = await tenant('idem-race');
    const m = await newMember(t.key);
    const headers = { 'idempotency-key': 'race-1' };
    const body = { type: 'earn', amount: 7, reason: 'race' };
    const results = await Promise.all(Array.from({ length: 10 }, () => call('POST', `/api/v2/members/${m.id}/points`, { token: t.key, body, headers })));
    for (const r of results) expect(r.status).toBe(201);
    expect(new Set(results.map((r) => r.body.data.entry.id)).size).toBe(1);
    expect(results.filter((r) => r.headers.get('idempotent-replayed') === 'true')).toHaveLength(9);
    expect(await balanceOf(t.key, m.id)).toMatchObject({ balance: 7 });
  });

  it('concurrent requests with one key and different bodies: one applies, the others are 422', async () => {
    const t = await tenant('idem-race-bodies');
    const m = await newMember(t.key);
    const headers = { 'idempotency-key': 'race-2' };
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        call('POST', `/api/v2/members/${m.id}/points`, { token: t.key, body: { type: 'earn', amount: i + 1, reason: 'race' }, headers }),
      ),
    );
    expect(results.filter((r) => r.status === 201 && r.headers.get('idempotent-replayed') === null)).toHaveLength(1);
    for (const r of results.filter((x) => x.status !== 201)) expect(r.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    const winner = results.find((r) => r.status === 201)!;
    expect(await balanceOf(t.key, m.id)).toMatchObject({ balance: winner.body.data.entry.amount });
  });

  it('a failed attempt frees the key: a corrected retry with the same key goes through', async () => {
    const t = await tenant('idem-fail');
    const m = await newMember(t.key);
    const headers = { 'idempotency-key': 'deduct-1' };
    const body = { type: 'deduct', amount: 10, reason: 'reward' };
    expect((await call('POST', `/api/v2/members/${m.id}/points`, { token: t.key, body, headers })).status).toBe(409);
    await call('POST', `/api/v2/members/${m.id}/points`, { token: t.key, body: { type: 'earn', amount: 10, reason: 'top up' } });
    const retry = await call('POST', `/api/v2/members/${m.id}/points`, { token: t.key, body, headers });
    expect(retry.status).toBe(201);
    expect(await balanceOf(t.key, m.id)).toMatchObject({ balance: 0 });
  });

  it('keys are per workspace, and the order duplicate answer is replayed too', async () => {
    const [a, b] = [await tenant('idem-a'), await tenant('idem-b')];
    const [ma, mb] = [await newMember(a.key), await newMember(b.key)];
    const headers = { 'idempotency-key': 'shared-key' };
    const ext = orderId();
    const base = { externalOrderId: ext, currency: 'EUR', total: 10, occurredAt: '2026-11-01T00:00:00Z' };
    expect((await call('POST', '/api/v2/orders', { token: a.key, body: { ...base, memberId: ma.id }, headers })).status).toBe(201);
    expect((await call('POST', '/api/v2/orders', { token: b.key, body: { ...base, memberId: mb.id }, headers })).status).toBe(201);
    const replay = await call('POST', '/api/v2/orders', { token: a.key, body: { ...base, memberId: ma.id }, headers });
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect((await call('POST', '/api/v2/stores', { token: a.key, body: { name: 'S' }, headers: { 'idempotency-key': ' bad key ' } })).status).toBe(400);
  });
});
