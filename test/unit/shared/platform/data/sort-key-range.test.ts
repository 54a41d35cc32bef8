import { describe, expect, it } from 'vitest';
import { sortKeyRange } from '../../../../../shared/platform/data/queries';

describe('sortKeyRange: a partition narrowed to [from, to) of its sort key', () => {
  it('no bound: the partition alone', () => {
    expect(sortKeyRange('gsi1', 'P', {})).toEqual({ KeyConditionExpression: 'gsi1pk = :pk', values: { ':pk': 'P' } });
  });

  it('both bounds: BETWEEN; one bound: >= from or < to', () => {
    expect(sortKeyRange('gsi2', 'P', { from: 'a', to: 'b' })).toEqual({
      KeyConditionExpression: 'gsi2pk = :pk AND gsi2sk BETWEEN :from AND :to',
      values: { ':pk': 'P', ':from': 'a', ':to': 'b' },
    });
    expect(sortKeyRange('gsi1', 'P', { from: 'a' })).toEqual({
      KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk >= :from',
      values: { ':pk': 'P', ':from': 'a' },
    });
    expect(sortKeyRange('gsi1', 'P', { to: 'b' })).toEqual({ KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk < :to', values: { ':pk': 'P', ':to': 'b' } });
  });

  it('an empty range is no query (from at or after to)', () => {
    expect(sortKeyRange('gsi1', 'P', { from: 'b', to: 'b' })).toBeUndefined();
    expect(sortKeyRange('gsi1', 'P', { from: 'c', to: 'b' })).toBeUndefined();
  });
});
