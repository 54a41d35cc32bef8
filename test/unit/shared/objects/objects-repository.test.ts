import { describe, expect, it } from 'vitest';
import {
  deleteValueEntryStep,
  putValueEntryStep,
  recordFilter,
  softDeleteRecordStep,
  updateRecordStep,
  valueEntryItem,
} from '../../../../shared/objects/repository';
import { StaleRead } from '../../../../shared/platform/data/concurrency';

const KEY = { pk: 'WS#ws_1#OBJREC#order_note#rec_1', sk: 'RECORD' };
const AT = '2026-01-02T03:04:05.000Z';
const LIVE = 'attribute_exists(pk) AND attribute_not_exists(deletedAt)';

describe('objects repository: record updates', () => {
  it('merges field by field: set, remove, search copies, counted-value guards', () => {
    const step = updateRecordStep('ws_1', 'order_note', 'rec_1', {
      updatedAt: AT,
      change: {
        kind: 'merge',
        fields: [
          { key: 'title', value: 'Hello', search: 'hello' },
          { key: 'size', value: 3 },
          { key: 'email', value: null, search: null },
          { key: 'due', value: null },
        ],
      },
      titleKey: '1#hello\u0001',
      expected: [
        { field: 'status', value: 'open' },
        { field: 'owner', value: undefined },
      ],
    });
    expect(step.op).toEqual({
      Update: {
        Key: KEY,
        UpdateExpression:
          'SET updatedAt = :now, gsi2sk = :u, #data.#f0 = :f0, #search.#f0 = :s0, #data.#f1 = :f1, gsi3sk = :t REMOVE #data.#f2, #search.#f2, #data.#f3',
        ConditionExpression: `${LIVE} AND #data.#c0 = :c0 AND attribute_not_exists(#data.#c1)`,
        ExpressionAttributeNames: {
          '#data': 'data',
          '#search': 'search',
          '#f0': 'title',
          '#f1': 'size',
          '#f2': 'email',
          '#f3': 'due',
          '#c0': 'status',
          '#c1': 'owner',
        },
        ExpressionAttributeValues: {
          ':now': AT,
          ':u': `U#${AT}#rec_1`,
          ':f0': 'Hello',
          ':s0': 'hello',
          ':f1': 3,
          ':t': 'T#1#hello\u0001#rec_1',
          ':c0': 'open',
        },
      },
    });
    expect(step.onConditionFailed?.()).toBeInstanceOf(StaleRead);
  });

  it('an empty merge only touches the timestamps, with no attribute names', () => {
    const step = updateRecordStep('ws_1', 'order_note', 'rec_1', { updatedAt: AT, change: { kind: 'merge', fields: [] }, expected: [] });
    expect(step.op).toEqual({
      Update: {
        Key: KEY,
        UpdateExpression: 'SET updatedAt = :now, gsi2sk = :u',
        ConditionExpression: LIVE,
        ExpressionAttributeValues: { ':now': AT, ':u': `U#${AT}#rec_1` },
      },
    });
  });

  it('replaces the whole data and search copy', () => {
    const data = { title: 'Hello', status: 'open' };
    const search = { title: 'hello', status: 'open' };
    const step = updateRecordStep('ws_1', 'order_note', 'rec_1', {
      updatedAt: AT,
      change: { kind: 'replace', data, search },
      titleKey: '2#',
      expected: [{ field: 'status', value: 'closed' }],
    });
    expect(step.op).toEqual({
      Update: {
        Key: KEY,
        UpdateExpression: 'SET updatedAt = :now, gsi2sk = :u, #data = :data, #search = :search, gsi3sk = :t',
        ConditionExpression: `${LIVE} AND #data.#c0 = :c0`,
        ExpressionAttributeNames: { '#data': 'data', '#search': 'search', '#c0': 'status' },
        ExpressionAttributeValues: { ':now': AT, ':u': `U#${AT}#rec_1`, ':data': data, ':search': search, ':t': 'T#2##rec_1', ':c0': 'closed' },
      },
    });
  });

  it('a soft delete stamps deletedAt and drops every index key', () => {
    const step = softDeleteRecordStep('ws_1', 'order_note', 'rec_1', AT, [{ field: 'status', value: 'open' }]);
    expect(step.op).toEqual({
      Update: {
        Key: KEY,
        UpdateExpression: 'SET deletedAt = :now REMOVE gsi1pk, gsi1sk, gsi2pk, gsi2sk, gsi3pk, gsi3sk',
        ConditionExpression: `${LIVE} AND #data.#c0 = :c0`,
        ExpressionAttributeNames: { '#data': 'data', '#c0': 'status' },
        ExpressionAttributeValues: { ':now': AT, ':c0': 'open' },
      },
    });
    expect(step.onConditionFailed?.()).toBeInstanceOf(StaleRead);
    expect(softDeleteRecordStep('ws_1', 'order_note', 'rec_1', AT, []).op.Update).not.toHaveProperty('ExpressionAttributeNames');
  });
});

describe('objects repository: list filters', () => {
  it('no condition: no filter expression', () => {
    expect(recordFilter({ equals: [] })).toEqual({ expression: undefined, names: {}, values: {} });
  });

  it('ANDs the equalities, the member (any member field) and the text (any searchable field)', () => {
    expect(
      recordFilter({
        equals: [
          { field: 'status', value: 'open' },
          { field: 'size', value: 3 },
        ],
        member: { fields: ['owner', 'buyer'], memberId: 'mbr_1' },
        text: { fields: ['title', 'email'], contains: 'hello' },
      }),
    ).toEqual({
      expression:
        '#data.#k0 = :k0 AND #data.#k1 = :k1 AND (#data.#m0 = :member OR #data.#m1 = :member) AND (contains(#search.#s0, :q) OR contains(#search.#s1, :q))',
      names: { '#data': 'data', '#search': 'search', '#k0': 'status', '#k1': 'size', '#m0': 'owner', '#m1': 'buyer', '#s0': 'title', '#s1': 'email' },
      values: { ':k0': 'open', ':k1': 3, ':member': 'mbr_1', ':q': 'hello' },
    });
  });

  it('a member or text condition without any field to look in matches nothing', () => {
    expect(recordFilter({ equals: [], member: { fields: [], memberId: 'mbr_1' }, text: { fields: [], contains: 'x' } })).toEqual({
      expression: 'attribute_not_exists(pk) AND attribute_not_exists(pk)',
      names: {},
      values: {},
    });
  });
});

describe('objects repository: revisions and value entries', () => {
  it('a write that moves value entries applies only at the revision it read, and moves it on', () => {
    const step = updateRecordStep('ws_1', 'order_note', 'rec_1', { updatedAt: AT, change: { kind: 'merge', fields: [] }, expected: [], revision: { read: 4 } });
    expect(step.op.Update).toMatchObject({
      UpdateExpression: 'SET updatedAt = :now, gsi2sk = :u, rev = :nextRev',
      ConditionExpression: `${LIVE} AND rev = :rev`,
      ExpressionAttributeValues: { ':now': AT, ':u': `U#${AT}#rec_1`, ':rev': 4, ':nextRev': 5 },
    });
    // A record from before revisions has none: the write requires that, and starts them.
    const legacy = updateRecordStep('ws_1', 'order_note', 'rec_1', {
      updatedAt: AT,
      change: { kind: 'merge', fields: [] },
      expected: [],
      revision: { read: undefined },
    });
    expect(legacy.op.Update).toMatchObject({ ConditionExpression: `${LIVE} AND attribute_not_exists(rev)`, ExpressionAttributeValues: { ':nextRev': 1 } });
    expect(legacy.op.Update!.ExpressionAttributeValues).not.toHaveProperty(':rev');
  });

  it('a soft delete is guarded by the revision too', () => {
    const step = softDeleteRecordStep('ws_1', 'order_note', 'rec_1', AT, [], { read: 2 });
    expect(step.op.Update).toMatchObject({
      UpdateExpression: 'SET deletedAt = :now, rev = :nextRev REMOVE gsi1pk, gsi1sk, gsi2pk, gsi2sk, gsi3pk, gsi3sk',
      ConditionExpression: `${LIVE} AND rev = :rev`,
      ExpressionAttributeValues: { ':now': AT, ':rev': 2, ':nextRev': 3 },
    });
  });

  it("a value entry lives in the record's partition and lists it under (type, field, value) in the record's three orders", () => {
    const owner = {
      workspaceId: 'ws_1',
      type: 'order_note',
      id: 'rec_1',
      createdAt: AT,
      updatedAt: '2026-02-03T00:00:00.000Z',
      data: { title: 'Hi', status: 'open' },
    };
    const partition = 'WS#ws_1#OBJV#order_note#status#"open"';
    const item = {
      pk: KEY.pk,
      sk: 'VALUE#status',
      gsi1pk: partition,
      gsi1sk: `C#${AT}#rec_1`,
      gsi2pk: partition,
      gsi2sk: 'U#2026-02-03T00:00:00.000Z#rec_1',
      gsi3pk: partition,
      gsi3sk: 'T#1#hi\u0001#rec_1',
      entity: 'objectRecordValue',
      id: 'rec_1',
      data: { title: 'Hi', status: 'open' },
    };
    expect(valueEntryItem(owner, '1#hi\u0001', { field: 'status', value: 'open' })).toEqual(item);
    expect(putValueEntryStep(owner, '1#hi\u0001', { field: 'status', value: 'open' }).op).toEqual({ Put: { Item: item } });
    // Values are keyed as JSON: true and "true" are different values.
    expect(valueEntryItem(owner, '2#', { field: 'paid', value: true }).gsi1pk).toBe('WS#ws_1#OBJV#order_note#paid#true');
    expect(valueEntryItem(owner, '2#', { field: 'paid', value: 'true' }).gsi1pk).toBe('WS#ws_1#OBJV#order_note#paid#"true"');
    // A large record's entries hold no copy: the list fetches it by key.
    const { data: _data, ...keysOnly } = owner;
    expect(valueEntryItem(keysOnly, '2#', { field: 'status', value: 'open' })).not.toHaveProperty('data');
    expect(deleteValueEntryStep('ws_1', 'order_note', 'rec_1', 'status').op).toEqual({ Delete: { Key: { pk: KEY.pk, sk: 'VALUE#status' } } });
  });
});
