import { describe, expect, it } from 'vitest';
import { SCOPES } from '../../shared/platform/contract/scopes';
import { call, createKey } from '../support/api';
import { newMember, tenant } from '../support/fixtures';

const DAY = 24 * 3600 * 1000;
const today = () => new Date().toISOString().slice(0, 10);
const daysAgo = (n: number, hour = 12) => {
  const d = new Date(Date.now() - n * DAY);
  d.setUTCHours(hour, 0, 0, 0);
  return d.toISOString();
};
let seq = 0;
const eventId = (label = 'e') => `${label}-${Date.now().toString(36)}-${++seq}`;

const track = (key: string, events: unknown[]) => call('POST', '/api/v2/tracking/events', { token: key, body: { events } });
const stats = (key: string, qs = '') => call('GET', `/api/v2/tracking/stats${qs}`, { token: key });

describe('tracking', () => {
  it('accepts a batch, deduplicates by eventId across batches, and counts per type and day', async () => {
    const t = await tenant('trk');
    const m = await newMember(t.key);
    const events = [
      { eventId: eventId(), memberId: m.id, type: 'page.viewed', occurredAt: daysAgo(1), properties: { path: '/shoes', logged_in: true } },
      { eventId: eventId(), memberId: m.id, type: 'page.viewed', occurredAt: daysAgo(1, 18) },
      { eventId: eventId(), memberId: m.id, type: 'review.written', occurredAt: daysAgo(0, 0).replace('Z', '+00:00') },
      { eventId: eventId(), memberId: m.id, type: 'page.viewed', occurredAt: `${new Date(Date.now() - 2 * DAY).toISOString().slice(0, 10)}T23:30:00-02:00` },
    ];
    const res = await track(t.key, events);
    expect(res.status).toBe(200);
    expect(res.body.data.results.map((r: { outcome: string }) => r.outcome)).toEqual(['accepted', 'accepted', 'accepted', 'accepted']);
    expect(res.body.data.results[0]).toEqual({ index: 0, eventId: events[0]!.eventId, outcome: 'accepted', error: null });
    expect(res.body.data.summary).toEqual({ accepted: 4, duplicate: 0, failed: 0 });

    // The same batch again changes nothing, whatever the payload says now.
    const replay = await track(
      t.key,
      events.map((e) => ({ ...e, type: 'other.type' })),
    );
    expect(replay.body.data.summary).toEqual({ accepted: 0, duplicate: 4, failed: 0 });

    const s = await stats(t.key, `?from=${daysAgo(3).slice(0, 10)}&to=${today()}`);
    expect(s.status).toBe(200);
    expect(s.body.data.total).toBe(4);
    expect(s.body.data.totals).toEqual([
      { type: 'page.viewed', count: 3 },
      { type: 'review.written', count: 1 },
    ]);
    expect(s.body.data.days.map((d: { date: string; total: number }) => [d.date, d.total])).toEqual([
      [daysAgo(3).slice(0, 10), 0],
      [daysAgo(2).slice(0, 10), 0],
      // 23:30 at -02:00 two days ago is 01:30 UTC the day after: days are UTC.
      [daysAgo(1).slice(0, 10), 3],
      [today(), 1],
    ]);
    expect(s.body.data.days[2].types).toEqual([{ type: 'page.viewed', count: 3 }]);
    const onlyReviews = await stats(t.key, `?from=${daysAgo(3).slice(0, 10)}&to=${today()}&type=review.written`);
    expect(onlyReviews.body.data.total).toBe(1);
    // Default range: the last 30 days up to today.
    const def = await stats(t.key);
    expect(def.body.data).toMatchObject({ to: today(), from: daysAgo(29).slice(0, 10), total: 4 });
    expect(def.body.data.days).toHaveLength(30);
  });

  it('treats repeats inside one batch as duplicates and reports each failed item on its own', async () => {
    const [t, other] = await Promise.all([tenant('trk-items'), tenant('trk-other')]);
    const m = await newMember(t.key);
    const foreign = await newMember(other.key);
    const dup = eventId('dup');
    const res = await track(t.key, [
      { eventId: dup, memberId: m.id, type: 'app.opened', occurredAt: daysAgo(0, 1) },
      { eventId: dup, memberId: m.id, type: 'app.opened', occurredAt: daysAgo(0, 1) },
      { eventId: eventId(), memberId: m.id, type: 'Bad Type', occurredAt: daysAgo(0, 1) },
      { eventId: eventId(), memberId: foreign.id, type: 'app.opened', occurredAt: daysAgo(0, 1) },
      { eventId: eventId(), memberId: 'mbr_0123456789abcdefghjkmnpqrs', type: 'app.opened', occurredAt: daysAgo(0, 1) },
      { eventId: eventId(), memberId: 'not-a-member', type: 'app.opened', occurredAt: daysAgo(0, 1) },
      { eventId: eventId(), memberId: m.id, type: 'app.opened', occurredAt: new Date(Date.now() + 3 * DAY).toISOString() },
      { eventId: 'has space', memberId: m.id, type: 'app.opened', occurredAt: daysAgo(0, 1) },
      { memberId: m.id, type: 'app.opened', occurredAt: daysAgo(0, 1), extra: 1 },
      {
        eventId: eventId(),
        memberId: m.id,
        type: 'app.opened',
        occurredAt: daysAgo(0, 1),
        properties: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`p${i}`, i])),
      },
    ]);
    expect(res.status).toBe(200);
    const outcome = res.body.data.results.map((r: { outcome: string; error: { code: string } | null }) =>
      r.error ? `${r.outcome}:${r.error.code}` : r.outcome,
    );
    expect(outcome).toEqual([
      'accepted',
      'duplicate',
      'failed:VALIDATION_FAILED',
      'failed:NOT_FOUND',
      'failed:NOT_FOUND',
      'failed:NOT_FOUND',
      'failed:VALIDATION_FAILED',
      'failed:VALIDATION_FAILED',
      'failed:VALIDATION_FAILED',
      'failed:VALIDATION_FAILED',
    ]);
    expect(res.body.data.results[2].error.details).toEqual([expect.objectContaining({ in: 'body', field: 'type' })]);
    expect(res.body.data.results[7].eventId).toBeNull();
    expect(res.body.data.summary).toEqual({ accepted: 1, duplicate: 1, failed: 8 });
    // An item that is not even an object makes the batch itself malformed.
    expect((await track(t.key, [{ eventId: eventId(), memberId: m.id, type: 'x', occurredAt: daysAgo(0, 1) }, 'not an object'])).status).toBe(422);
    expect((await stats(t.key)).body.data.totals).toEqual([{ type: 'app.opened', count: 1 }]);
    // The other workspace's member got nothing.
    expect((await stats(other.key)).body.data.total).toBe(0);
  });

  it('concurrent batches with the same events store and count each event once', async () => {
    const t = await tenant('trk-race');
    const m = await newMember(t.key);
    const events = Array.from({ length: 120 }, (_, i) => ({ eventId: eventId('race'), memberId: m.id, type: i % 2 ? 'a.b' : 'c', occurredAt: daysAgo(i % 3) }));
    const answers = await Promise.all([track(t.key, events), track(t.key, events), track(t.key, [...events].reverse())]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    const accepted = answers.reduce((n, a) => n + a.body.data.summary.accepted, 0);
    const duplicate = answers.reduce((n, a) => n + a.body.data.summary.duplicate, 0);
    expect(accepted).toBe(120);
    expect(duplicate).toBe(240);
    const s = await stats(t.key);
    expect(s.body.data.totals).toEqual([
      { type: 'a.b', count: 60 },
      { type: 'c', count: 60 },
    ]);
  });

  it('accepts up to 500 events and refuses a malformed batch or stats range with 422', async () => {
    const t = await tenant('trk-val');
    const m = await newMember(t.key);
    const big = Array.from({ length: 500 }, () => ({ eventId: eventId('big'), memberId: m.id, type: 'bulk', occurredAt: daysAgo(0, 0) }));
    expect((await track(t.key, [...big, big[0]])).status).toBe(422);
    expect((await track(t.key, [])).status).toBe(422);
    expect((await call('POST', '/api/v2/tracking/events', { token: t.key, body: { events: big.slice(0, 1), extra: 1 } })).status).toBe(422);
    expect((await call('POST', '/api/v2/tracking/events', { token: t.key, body: {} })).status).toBe(422);
    expect((await stats(t.key)).body.data.total).toBe(0);
    const ok = await track(t.key, big);
    expect(ok.body.data.summary).toEqual({ accepted: 500, duplicate: 0, failed: 0 });
    expect((await stats(t.key)).body.data.totals).toEqual([{ type: 'bulk', count: 500 }]);

    for (const qs of ['?from=2026-02-30', '?from=2026-03-10&to=2026-03-01', '?from=2026-01-01&to=2026-04-03', '?type=Bad', '?to=yesterday', '?unknown=1']) {
      const res = await stats(t.key, qs);
      expect(res.status, qs).toBe(422);
      expect(res.body.error.details[0].in).toBe('query');
    }
    // 92 days, both ends included, is the longest range.
    expect((await stats(t.key, '?from=2026-01-01&to=2026-04-02')).status).toBe(200);
  });

  it('keeps stats per workspace', async () => {
    const [a, b] = await Promise.all([tenant('trk-a'), tenant('trk-b')]);
    const m = await newMember(a.key);
    await track(a.key, [{ eventId: eventId(), memberId: m.id, type: 'secret.thing', occurredAt: daysAgo(0, 0) }]);
    // The same client event id in another workspace is another event.
    expect((await stats(a.key)).body.data.total).toBe(1);
    expect((await stats(b.key)).body.data).toMatchObject({ total: 0, totals: [] });
    const foreign = await track(b.key, [{ eventId: eventId(), memberId: m.id, type: 'x', occurredAt: daysAgo(0, 0) }]);
    expect(foreign.body.data.results[0].error.code).toBe('NOT_FOUND');
  });

  it('needs tracking:write to ingest and tracking:read for stats', async () => {
    const t = await tenant('trk-scope');
    const m = await newMember(t.key);
    const noWrite = await createKey(t.token, { name: 'no write', scopes: SCOPES.filter((s) => s !== 'tracking:write') });
    const noRead = await createKey(t.token, { name: 'no read', scopes: SCOPES.filter((s) => s !== 'tracking:read') });
    const post = await track(noWrite.key, [{ eventId: eventId(), memberId: m.id, type: 'x', occurredAt: daysAgo(0, 0) }]);
    expect(post.status).toBe(403);
    expect(post.body.error.message).toContain('tracking:write');
    const get = await stats(noRead.key);
    expect(get.status).toBe(403);
    expect(get.body.error.message).toContain('tracking:read');
    expect((await stats(t.key)).body.data.total).toBe(0);
  });
});
