import { describe, expect, it } from 'vitest';
import { EVENTS } from '../../../../../shared/platform/events/registry';
import { call } from '../../../../support/api';
import { newMember, newOrder, tenant } from '../../../../support/fixtures';
import { outboxEvents, workspaceItems } from '../../../../support/table';

const outboxOf = (workspaceId: string) => outboxEvents(workspaceId);
const outboxItemsOf = (workspaceId: string) => workspaceItems(workspaceId, 'outbox');

describe('outbox events', () => {
  it('writes thin events with the changes that cause them, and only those', async () => {
    const t = await tenant('events');
    const m = await newMember(t.key, { firstName: 'Privacy', lastName: 'Matters', phone: '+49 30 1234567' });
    const o = await newOrder(t.key, m.id, { total: 650 });
    await call('POST', `/api/v2/orders/${o.externalOrderId}/refund`, { token: t.key, body: { amount: 10 } });
    // A refused change writes no event.
    await call('POST', `/api/v2/members/${m.id}/points`, { token: t.key, body: { type: 'deduct', amount: 100000, reason: 'no' } });

    const events = await outboxOf(t.workspaceId);
    // One outbox item per transaction: enrolment, the order (3 events), the refund.
    expect((await outboxItemsOf(t.workspaceId)).map((i) => i.events.length).sort()).toEqual([1, 1, 3]);
    const types = events.map((e) => e.type).sort();
    expect(types).toEqual(['loyalty.points_earned', 'loyalty.tier_upgraded', 'member.created', 'order.created', 'order.refunded']);
    const byType = Object.fromEntries(events.map((e) => [e.type, e]));
    expect(byType['member.created']!.data).toEqual({ resource_id: m.id, member_ref: m.id, tier: 'bronze' });
    expect(byType['loyalty.tier_upgraded']!.data).toEqual({ resource_id: m.id, member_ref: m.id, tier: 'silver' });
    expect(byType['order.created']!.data).toEqual({ resource_id: o.id, member_ref: m.id, amount_band: '500-1000 EUR' });
    // The refund says how many of the order's own and campaign points it took back (counts, no personal data).
    expect(byType['order.refunded']!.data).toEqual({
      resource_id: o.id,
      member_ref: m.id,
      amount_band: '10-25 EUR',
      base_points_reversed: 10,
      bonus_points_reversed: 0,
    });
    expect(byType['loyalty.points_earned']!.data).toMatchObject({ member_ref: m.id, tier: 'silver' });
    for (const e of events) {
      expect(e.id).toMatch(/^evt_/);
      expect(e.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(Object.keys(EVENTS)).toContain(e.type);
      // Ids are random (a ULID may hold "650" by chance): the personal data is looked for in the other values.
      const text = JSON.stringify(Object.values(e.data).filter((v) => !/^[a-z]+_[0-9a-z]{26}$/.test(String(v))));
      for (const secret of [m.email, 'Privacy', 'Matters', '1234567', '650']) expect(text).not.toContain(secret);
      expect(Object.values(e.data)).not.toContain(650);
    }
  });
});
