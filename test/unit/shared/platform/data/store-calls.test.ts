import { describe, expect, it } from 'vitest';
import { capacityOf, itemsOf, totalsOf, type StoreCall } from '../../../../../shared/platform/data/store-calls';

describe('benchmark mode: items per DynamoDB request', () => {
  it('single-item calls read or write one item', () => {
    expect(itemsOf('GetItem', {}, { Item: { pk: 'x' } })).toEqual({ itemsRead: 1, itemsWritten: 0 });
    expect(itemsOf('GetItem', {}, undefined)).toEqual({ itemsRead: 1, itemsWritten: 0 });
    for (const op of ['PutItem', 'UpdateItem', 'DeleteItem']) expect(itemsOf(op, {}, {})).toEqual({ itemsRead: 0, itemsWritten: 1 });
  });

  it('a query or scan reads what it scanned (the bill), not what its filter kept', () => {
    expect(itemsOf('Query', {}, { Count: 2, ScannedCount: 20 })).toEqual({ itemsRead: 20, itemsWritten: 0 });
    expect(itemsOf('Scan', {}, { ScannedCount: 7 })).toEqual({ itemsRead: 7, itemsWritten: 0 });
    expect(itemsOf('Query', {}, undefined)).toEqual({ itemsRead: 0, itemsWritten: 0 });
  });

  it('batches count their keys and their put and delete requests', () => {
    expect(itemsOf('BatchGetItem', { RequestItems: { t1: { Keys: [{}, {}, {}] }, t2: { Keys: [{}] } } }, {})).toEqual({ itemsRead: 4, itemsWritten: 0 });
    expect(itemsOf('BatchGetItem', {}, {})).toEqual({ itemsRead: 0, itemsWritten: 0 });
    expect(
      itemsOf('BatchWriteItem', { RequestItems: { t1: [{ PutRequest: {} }, { DeleteRequest: {} }, { PutRequest: {} }], t2: [{ DeleteRequest: {} }] } }, {}),
    ).toEqual({ itemsRead: 0, itemsWritten: 4 });
    expect(itemsOf('BatchGetItem', { RequestItems: { t1: {} } }, {})).toEqual({ itemsRead: 0, itemsWritten: 0 });
    expect(itemsOf('BatchWriteItem', {}, {})).toEqual({ itemsRead: 0, itemsWritten: 0 });
  });

  it('transactions: condition checks are reads, every other item a write', () => {
    const items = [{ Put: {} }, { Update: {} }, { ConditionCheck: {} }, { Delete: {} }, { ConditionCheck: {} }];
    expect(itemsOf('TransactWriteItems', { TransactItems: items }, {})).toEqual({ itemsRead: 2, itemsWritten: 3 });
    expect(itemsOf('TransactWriteItems', {}, {})).toEqual({ itemsRead: 0, itemsWritten: 0 });
    expect(itemsOf('TransactGetItems', { TransactItems: [{ Get: {} }, { Get: {} }] }, {})).toEqual({ itemsRead: 2, itemsWritten: 0 });
    expect(itemsOf('TransactGetItems', {}, {})).toEqual({ itemsRead: 0, itemsWritten: 0 });
  });

  it('anything else (table administration, streams) reads and writes no item', () => {
    expect(itemsOf('DescribeTable', { TransactItems: [{ Put: {} }] }, { ScannedCount: 3 })).toEqual({ itemsRead: 0, itemsWritten: 0 });
  });
});

describe('benchmark mode: consumed capacity', () => {
  it('adds up one entry or a list of them; none is zero', () => {
    expect(capacityOf({ ConsumedCapacity: { TableName: 't', CapacityUnits: 1.5 } })).toBe(1.5);
    expect(capacityOf({ ConsumedCapacity: [{ CapacityUnits: 8 }, { CapacityUnits: 2 }, {}] })).toBe(10);
    expect(capacityOf({})).toBe(0);
    expect(capacityOf(undefined)).toBe(0);
  });
});

describe('benchmark mode: totals of an operation', () => {
  const call = (operation: string, itemsRead: number, itemsWritten: number, capacityUnits: number): StoreCall => ({
    operation,
    itemsRead,
    itemsWritten,
    capacityUnits,
    failed: false,
  });

  it('sums requests, items and capacity, and counts requests per operation', () => {
    expect(totalsOf([call('GetItem', 1, 0, 1), call('GetItem', 1, 0, 0.5), call('TransactWriteItems', 1, 4, 8.333)])).toEqual({
      calls: 3,
      itemsRead: 3,
      itemsWritten: 4,
      capacityUnits: 9.83,
      operations: { GetItem: 2, TransactWriteItems: 1 },
    });
    expect(totalsOf([])).toEqual({ calls: 0, itemsRead: 0, itemsWritten: 0, capacityUnits: 0, operations: {} });
  });
});
