import { describe, expect, it } from 'vitest';
import {
  isStorableNumber,
  MAX_NUMBER_MAGNITUDE,
  STORABLE_NUMBER_MESSAGE,
  storableNumber,
  unstorableNumberPaths,
} from '../../shared/platform/validation/common';
import { refuseUnstorableNumbers } from '../../shared/http/json-body';
import { AppError } from '../../shared/platform/errors';

describe('the numbers a request may carry', () => {
  it('are 0 or 1e-130 to 2^53 - 1 in magnitude, both bounds included', () => {
    expect(MAX_NUMBER_MAGNITUDE).toBe(9007199254740991);
    for (const ok of [0, -0, 1, -1, 0.5, 1e-130, -1e-130, 9007199254740991, -9007199254740991, 1.5e-7, 0.1234567890123456789, 123456.789e3]) {
      expect(isStorableNumber(ok), String(ok)).toBe(true);
      expect(storableNumber.safeParse(ok).success, String(ok)).toBe(true);
    }
    // 9007199254740993 parses as 2^53: no longer the number that was written.
    for (const bad of [
      2 ** 53,
      -(2 ** 53),
      9007199254740993,
      1e20,
      1.23e29,
      -1e20,
      1e125,
      1e300,
      Number.MAX_VALUE,
      1e-131,
      -1e-131,
      Number.MIN_VALUE,
      Number.NaN,
      Infinity,
      -Infinity,
    ]) {
      expect(isStorableNumber(bad), String(bad)).toBe(false);
      expect(storableNumber.safeParse(bad).success, String(bad)).toBe(false);
    }
    expect(STORABLE_NUMBER_MESSAGE).toBe('must be 0 or between 1e-130 and 9007199254740991 in magnitude');
  });

  it('the storable-number schema publishes its bounds (the OpenAPI document shows them)', () => {
    const bounds = storableNumber.toJSONSchema() as { minimum?: number; maximum?: number };
    expect(bounds).toMatchObject({ minimum: -9007199254740991, maximum: 9007199254740991 });
  });

  it('a free-form JSON value names the path of every number no field may hold', () => {
    expect(unstorableNumberPaths({ a: 1, b: 'x', c: null, d: true, e: [1, 2.5] })).toEqual([]);
    expect(unstorableNumberPaths(1e20)).toEqual([[]]);
    expect(unstorableNumberPaths({ members: [{ email: 'a@b.c' }, { customAttributes: { big: 9007199254740993, ok: 3 } }], x: { y: [0, 1e-300] } })).toEqual([
      ['members', 1, 'customAttributes', 'big'],
      ['x', 'y', 1],
    ]);
  });

  it('reports at most ten paths', () => {
    const many = Array.from({ length: 25 }, () => 1e20);
    const paths = unstorableNumberPaths(many);
    expect(paths).toHaveLength(10);
    expect(paths[9]).toEqual([9]);
    expect(unstorableNumberPaths(many, 3)).toEqual([[0], [1], [2]]);
  });

  it('the body check is a 422 with one detail per offending field', () => {
    expect(() => refuseUnstorableNumbers({ a: 1, b: [1, 2] })).not.toThrow();
    let error: unknown;
    try {
      refuseUnstorableNumbers({ items: [{ properties: { n: 1.23e29 } }], total: -1e20 });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('VALIDATION_FAILED');
    expect((error as AppError).status).toBe(422);
    expect((error as AppError).details).toEqual([
      { in: 'body', field: 'items.0.properties.n', message: STORABLE_NUMBER_MESSAGE },
      { in: 'body', field: 'total', message: STORABLE_NUMBER_MESSAGE },
    ]);
  });
});
