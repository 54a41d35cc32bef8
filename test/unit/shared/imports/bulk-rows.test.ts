import { describe, expect, it } from 'vitest';
import { createMemberBody } from '../../../../shared/members';
import { tagMemberBody } from '../../../../shared/tags';
import { combined, errorsOf, fail, type BulkTotals } from '../../../../shared/imports/checks';
import { MAX_POINTS, pointsRows } from '../../../../shared/imports/points-rows';
import { checkRow, type RawRecord, type RowContext } from '../../../../shared/imports/rows';
import { tagsRows } from '../../../../shared/imports/tags-rows';

const ctx: RowContext = { now: 0, tierKeys: [], profileSchema: createMemberBody, tagsSchema: tagMemberBody };
const rec = (fields: Record<string, unknown>, line = 4): RawRecord => ({ line, fields });
const MBR = 'mbr_01jpz8a1b2c3d4e5f6g7h8j9k0';
const zero = (): BulkTotals => ({ points: 0, pointsRemoved: 0, tagged: 0, untagged: 0 });

describe('checks', () => {
  it('combined: every value when all pass, else every error in order', () => {
    expect(combined([{ value: 1 }, { value: 'a' }] as const, ([n, s]) => `${n}${s}`)).toEqual({ value: '1a' });
    expect(combined([fail('a', 'x'), { value: 2 }, fail('b', 'y')] as const, () => 0)).toEqual({
      errors: [
        { field: 'a', message: 'x' },
        { field: 'b', message: 'y' },
      ],
    });
    expect(errorsOf(9, [{ value: 1 }, fail('f', 'm')])).toEqual([{ line: 9, field: 'f', message: 'm' }]);
  });
});

describe('points rows', () => {
  const change = (f: Record<string, unknown>) => pointsRows.change(f, tagMemberBody);
  it('a signed whole number either way, from a CSV cell or a JSON number, and the reason trimmed', () => {
    expect(change({ points: '-25', reason: ' Duplicate order ' })).toEqual({ value: { points: -25, reason: 'Duplicate order' } });
    expect(change({ points: 40, reason: 'Gift' })).toEqual({ value: { points: 40, reason: 'Gift' } });
    expect(change({ points: MAX_POINTS, reason: 'r' })).toEqual({ value: { points: MAX_POINTS, reason: 'r' } });
    expect(change({ points: -MAX_POINTS, reason: 'r' })).toEqual({ value: { points: -MAX_POINTS, reason: 'r' } });
    expect(change({ points: 1, reason: 'x'.repeat(500) })).toMatchObject({ value: { points: 1 } });
  });
  it('refuses no points, 0, a fraction, beyond the bound, and a missing, blank or long reason', () => {
    const errors = (f: Record<string, unknown>) => (change(f) as { errors: unknown[] }).errors;
    expect(errors({})).toEqual([
      { field: 'points', message: 'is required' },
      { field: 'reason', message: 'is required' },
    ]);
    expect(errors({ points: null, reason: 'r' })).toEqual([{ field: 'points', message: 'is required' }]);
    expect(errors({ points: '0', reason: 'r' })).toEqual([{ field: 'points', message: 'must not be 0: give + to add, - to take away' }]);
    expect(errors({ points: '1.5', reason: 'r' })).toEqual([{ field: 'points', message: 'must be a whole number' }]);
    expect(errors({ points: MAX_POINTS + 1, reason: 'r' })).toEqual([{ field: 'points', message: `must be at most ${MAX_POINTS} either way` }]);
    expect(errors({ points: -MAX_POINTS - 1, reason: 'r' })).toEqual([{ field: 'points', message: `must be at most ${MAX_POINTS} either way` }]);
    expect(errors({ points: 1, reason: '   ' })).toEqual([{ field: 'reason', message: 'is required' }]);
    expect(errors({ points: 1, reason: 7 })).toEqual([{ field: 'reason', message: 'is required' }]);
    expect(errors({ points: 1, reason: 'x'.repeat(501) })).toEqual([{ field: 'reason', message: 'must be at most 500 characters' }]);
  });
  it('counts added and taken points apart, each as a positive number', () => {
    const t = zero();
    pointsRows.count({ points: 30, reason: 'r' }, t);
    pointsRows.count({ points: -12, reason: 'r' }, t);
    pointsRows.count({ points: 5, reason: 'r' }, t);
    expect(t).toEqual({ points: 35, pointsRemoved: 12, tagged: 0, untagged: 0 });
  });
});

describe('tags rows', () => {
  const change = (f: Record<string, unknown>) => tagsRows.change(f, tagMemberBody);
  it('a tag key and add or remove', () => {
    expect(change({ tag: 'vip', action: 'add' })).toEqual({ value: { tag: 'vip', action: 'add' } });
    expect(change({ tag: 'gold-2026', action: 'remove' })).toEqual({ value: { tag: 'gold-2026', action: 'remove' } });
  });
  it('refuses a missing or malformed tag and any other action', () => {
    const errors = (f: Record<string, unknown>) => (change(f) as { errors: unknown[] }).errors;
    expect(errors({})).toEqual([
      { field: 'tag', message: 'is required' },
      { field: 'action', message: 'must be add or remove' },
    ]);
    expect(errors({ tag: '', action: 'add' })).toEqual([{ field: 'tag', message: 'is required' }]);
    expect(errors({ tag: 5, action: 'add' })).toEqual([{ field: 'tag', message: 'is required' }]);
    expect(errors({ tag: 'Not A Key', action: 'remove' })).toEqual([
      { field: 'tag', message: 'must be a tag key: lower-case letters, digits, - and _, at most 64' },
    ]);
    expect(errors({ tag: 'vip', action: 'ADD' })).toEqual([{ field: 'action', message: 'must be add or remove' }]);
  });
  it('counts rows that add and rows that remove', () => {
    const t = zero();
    tagsRows.count({ tag: 'a', action: 'add' }, t);
    tagsRows.count({ tag: 'a', action: 'add' }, t);
    tagsRows.count({ tag: 'a', action: 'remove' }, t);
    expect(t).toEqual({ points: 0, pointsRemoved: 0, tagged: 2, untagged: 1 });
  });
});

describe('checkRow: bulk kinds', () => {
  it('the member by the platform id first, then externalId, then the e-mail lower-cased', () => {
    expect(checkRow('points', rec({ memberId: MBR, externalId: 'X', points: '5', reason: 'r' }), ctx)).toEqual({
      line: 4,
      row: { kind: 'points', member: { memberId: MBR }, change: { points: 5, reason: 'r' } },
    });
    expect(checkRow('tags', rec({ memberId: '', externalId: 'X', email: 'a@b.test', tag: 'vip', action: 'add' }), ctx)).toEqual({
      line: 4,
      row: { kind: 'tags', member: { externalId: 'X' }, change: { tag: 'vip', action: 'add' } },
    });
    expect(checkRow('tags', rec({ email: ' A@B.test', tag: 'vip', action: 'remove' }), ctx)).toMatchObject({ row: { member: { email: 'a@b.test' } } });
  });
  it('every wrong field with its line: the member, the change, a field the kind does not read', () => {
    expect(checkRow('points', rec({ memberId: 'mbr_nope', points: '0', reason: 'r', colour: 'red' }, 9), ctx)).toEqual({
      line: 9,
      errors: [
        { line: 9, field: 'memberId', message: 'is not a member id (mbr_...)' },
        { line: 9, field: 'points', message: 'must not be 0: give + to add, - to take away' },
        { line: 9, field: 'colour', message: 'is not a field of a points row' },
      ],
    });
    expect(checkRow('tags', rec({ memberId: 7, tag: 'vip', action: 'add' }), ctx)).toEqual({
      line: 4,
      errors: [{ line: 4, field: 'memberId', message: 'is not a member id (mbr_...)' }],
    });
    expect(checkRow('tags', rec({ tag: 'vip', action: 'add', points: 3 }), ctx)).toEqual({
      line: 4,
      errors: [
        { line: 4, field: 'memberId', message: 'give memberId, externalId or email of the member' },
        { line: 4, field: 'points', message: 'is not a field of a tags row' },
      ],
    });
  });
  it('a row refused as a whole stays as it was', () => {
    const whole: RawRecord = { line: 3, errors: [{ line: 3, field: '(line)', message: 'is not valid JSON' }] };
    expect(checkRow('points', whole, ctx)).toBe(whole);
  });
});
