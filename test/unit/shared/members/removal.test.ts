import { describe, expect, it } from 'vitest';
import { untouchedSince } from '../../../../shared/members/removal';

const as = { version: 3, rev: 0 };
const fresh = { version: 3, rev: 0, orderCount: 0, balance: 0, pending: 0, lifetime: 0, erasedAt: undefined as string | undefined };

describe('untouchedSince', () => {
  it('the member as the import left it', () => {
    expect(untouchedSince(fresh, as)).toBe(true);
    expect(untouchedSince({ ...fresh, rev: 2 }, { version: 3, rev: 2 })).toBe(true);
  });
  it('touched: a profile or tag change, a ledger entry, an order, any points, an erasure', () => {
    for (const touched of [
      { version: 4 },
      { version: 2 },
      { rev: 1 },
      { orderCount: 1 },
      { balance: -1 },
      { pending: 5 },
      { lifetime: 1 },
      { erasedAt: '2026-12-07T00:00:00.000Z' },
    ])
      expect(untouchedSince({ ...fresh, ...touched }, as), JSON.stringify(touched)).toBe(false);
  });
});
