import { beforeAll, describe, expect, inject, it } from 'vitest';
import { configureFor, MINIMUM, OPERATIONS, measureStoreCalls, type Operation, type StoreCallRow } from '../bench/store-calls';
import { runtimeOf } from '../support/platform';

/**
 * Store requests per operation may not grow: one call of each main operation, made in this process
 * against the platform's DynamoDB Local with the benchmark-mode counter attached
 * (`test/bench/store-calls.ts`, also `npm run bench -- store-calls`). The bounds are the counts the
 * operations achieve today, each at the minimum of docs/performance.md; a change that adds a request
 * (or an item) fails here and has to say why in that document.
 */

/** Upper bounds: requests, items read, items written (a warm container, Idempotency-Key on writes). */
const BOUNDS: Record<Operation, [calls: number, itemsRead: number, itemsWritten: number]> = {
  'authenticated GET': [3, 2, 1],
  'create member': [4, 1, 7],
  'create order': [5, 3, 9],
  // The audit entry of a manual change made with a key is an item of its transaction (decision 0092).
  'points change': [6, 3, 9],
  refund: [7, 4, 10],
  'coupon issue': [5, 3, 7],
  'coupon redeem': [5, 3, 6],
  'object record create': [6, 2, 12],
  'object record list': [4, 22, 1],
  'object record list (filtered)': [5, 13, 1],
  'webhook fan-out': [0, 0, 0],
  'webhook delivery': [2, 1, 2],
  'points expiry': [6, 3, 5],
};

let rows: StoreCallRow[];

beforeAll(async () => {
  await configureFor({ runtime: () => runtimeOf(inject('dataDir')) });
  rows = await measureStoreCalls();
}, 180_000);

describe('DynamoDB requests per operation', () => {
  it('measures every main operation', () => {
    expect(rows.map((r) => r.operation)).toEqual([...OPERATIONS]);
  });

  it.each(OPERATIONS)('%s stays within its bounds', (operation) => {
    const { measured } = rows.find((r) => r.operation === operation)!;
    const [calls, itemsRead, itemsWritten] = BOUNDS[operation];
    const seen = `${JSON.stringify(measured)}`;
    expect(measured.calls, seen).toBeLessThanOrEqual(calls);
    expect(measured.itemsRead, seen).toBeLessThanOrEqual(itemsRead);
    expect(measured.itemsWritten, seen).toBeLessThanOrEqual(itemsWritten);
  });

  it('the bounds are the documented minimum: nothing above it is allowed to stay', () => {
    for (const operation of OPERATIONS) {
      const [calls, itemsRead, itemsWritten] = BOUNDS[operation];
      expect({ operation, calls, itemsRead, itemsWritten }).toEqual({ operation, ...MINIMUM[operation] });
    }
  });

  // The Idempotency-Key claim is the one write before the transaction: it holds the key, and the
  // transaction replaces it with the answer (it is not a piece of the change).
  it('every write is one transaction: no operation commits its change in pieces', () => {
    for (const operation of ['create member', 'create order', 'points change', 'refund', 'coupon issue', 'coupon redeem'] as const) {
      const { measured } = rows.find((r) => r.operation === operation)!;
      // Besides the reads, the claim and the transaction: the request budget's counter (an UpdateItem).
      // A read is a GetItem, or a TransactGetItems of items that must be read as of one moment (an order's member and tier record).
      const { GetItem = 0, TransactGetItems = 0, ...writes } = measured.operations;
      expect({ operation, reads: GetItem + TransactGetItems, ...writes }).toEqual({
        operation,
        reads: measured.calls - 3,
        PutItem: 1,
        UpdateItem: 1,
        TransactWriteItems: 1,
      });
    }
  });
});
