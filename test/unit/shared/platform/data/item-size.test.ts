import middy from '@middy/core';
import { describe, expect, it } from 'vitest';
import { config } from '../../../../../shared/platform/config';
import { isItemTooLarge } from '../../../../../shared/platform/data/errors';
import { attributeSizes, itemSize, valueSize } from '../../../../../shared/platform/data/item-size';
import { refuseOversized } from '../../../../../shared/platform/data/stored-size';
import { AppError } from '../../../../../shared/platform/errors';
import { errorMapper } from '../../../../../shared/http/error-mapper';
import { requestContext } from '../../../../../shared/http/request-context';
import type { AppContext, HttpEvent, HttpResult } from '../../../../../shared/http/types';

/** The stored-size measure (DynamoDB's item size rules) and the refusal built on it. */

describe('valueSize counts as DynamoDB does', () => {
  it('strings by their UTF-8 bytes, not their characters', () => {
    expect(valueSize('')).toBe(0);
    expect(valueSize('abc')).toBe(3);
    expect(valueSize('é')).toBe(2);
    expect(valueSize('€')).toBe(3);
    expect(valueSize('😀')).toBe(4);
    expect(valueSize('\u0000\u001f')).toBe(2);
  });

  it('numbers by their significant digits: one byte per two, and one more; a negative one more again', () => {
    expect(valueSize(0)).toBe(2);
    expect(valueSize(7)).toBe(2);
    expect(valueSize(12)).toBe(2);
    expect(valueSize(123)).toBe(3);
    expect(valueSize(1200)).toBe(2);
    expect(valueSize(120.5)).toBe(3);
    expect(valueSize(0.001)).toBe(2);
    expect(valueSize(-12)).toBe(3);
    expect(valueSize(12345678901234)).toBe(8);
    expect(valueSize(10n)).toBe(2);
  });

  it('booleans and null one byte, binaries by their length', () => {
    expect(valueSize(true)).toBe(1);
    expect(valueSize(false)).toBe(1);
    expect(valueSize(null)).toBe(1);
    expect(valueSize(new Uint8Array(17))).toBe(17);
    expect(valueSize(Buffer.from('hello'))).toBe(5);
  });

  it('a list three bytes and one per element besides the elements; a set the same', () => {
    expect(valueSize([])).toBe(3);
    expect(valueSize(['ab', 'c'])).toBe(3 + 1 + 2 + 1 + 1);
    expect(valueSize([undefined, 'a'])).toBe(3 + 1 + 1);
    expect(valueSize(new Set(['ab']))).toBe(3 + 1 + 2);
  });

  it('a map three bytes and, per element, one byte, its name and its value; undefined values are left out', () => {
    expect(valueSize({})).toBe(3);
    expect(valueSize({ ab: 'xyz' })).toBe(3 + 1 + 2 + 3);
    expect(valueSize({ é: true, gone: undefined })).toBe(3 + 1 + 2 + 1);
    expect(valueSize({ a: { b: [1] } })).toBe(3 + 1 + 1 + (3 + 1 + 1 + (3 + 1 + 2)));
  });

  it('refuses what the store cannot hold', () => {
    expect(() => valueSize(() => 1)).toThrow(TypeError);
    expect(() => valueSize(Symbol('s'))).toThrow('a symbol is not stored');
  });
});

describe('itemSize and attributeSizes', () => {
  it('an item is its attribute names and values, without the map overhead', () => {
    expect(itemSize({})).toBe(0);
    expect(itemSize({ pk: 'WS#1', n: 5, gone: undefined })).toBe(2 + 4 + 1 + 2);
  });

  it('lists the top-level attributes by their share, the largest first (ties by name)', () => {
    expect(attributeSizes({ a: 'xx', big: 'x'.repeat(10), b: 'yy', gone: undefined })).toEqual([
      { name: 'big', bytes: 13 },
      { name: 'a', bytes: 3 },
      { name: 'b', bytes: 3 },
    ]);
    expect(attributeSizes(['aa', 'b'])).toEqual([
      { name: '0', bytes: 3 },
      { name: '1', bytes: 2 },
    ]);
  });
});

const refusal = (fn: () => void) => {
  try {
    fn();
  } catch (err) {
    return err as AppError;
  }
  throw new Error('not refused');
};

describe('refuseOversized', () => {
  const budget = config.storage.documentBudgetBytes.campaign;
  /** A document of exactly `bytes` stored bytes: attribute `n` (1 byte) holding a string. */
  const docOf = (bytes: number, extra: Record<string, unknown> = {}) => ({ n: 'x'.repeat(bytes - 1 - itemSize(extra)), ...extra });

  it('passes a document of exactly its budget and refuses one byte more', () => {
    expect(itemSize(docOf(budget))).toBe(budget);
    expect(() => refuseOversized(docOf(budget), 'campaign')).not.toThrow();
    const err = refusal(() => refuseOversized(docOf(budget + 1), 'campaign'));
    expect(err).toBeInstanceOf(AppError);
    expect(err.status).toBe(422);
    expect(err.code).toBe('VALIDATION_FAILED');
    expect(err.details).toEqual([
      {
        in: 'body',
        field: 'n',
        message: `too large to store: the campaign would take ${budget + 1} bytes, over its limit of ${budget}; this is its largest part (${budget + 1} bytes)`,
      },
    ]);
  });

  it('names the largest field of what the request sent, under its prefix, and the kind in words', () => {
    const recordBudget = config.storage.documentBudgetBytes.objectRecord;
    const data = { small: 'a', notes: '€'.repeat(recordBudget / 3) };
    const err = refusal(() => refuseOversized({ id: 'rec_1', data }, 'objectRecord', { fields: data, at: 'data.' }));
    expect(err.details![0]!.field).toBe('data.notes');
    expect(err.details![0]!.message).toMatch(/^too large to store: the object record would take \d+ bytes, over its limit of 358400;/);
  });

  it('names the prefix itself, or the body, when the blamed fields are empty', () => {
    const big = docOf(budget + 10);
    expect(refusal(() => refuseOversized(big, 'campaign', { fields: {}, at: 'customAttributes.' })).details![0]!.field).toBe('customAttributes');
    expect(refusal(() => refuseOversized(big, 'campaign', { fields: {}, at: '' })).details![0]!.field).toBe('body');
  });
});

describe('isItemTooLarge', () => {
  const named = (name: string, message: string, extra: object = {}) => Object.assign(new Error(message), { name }, extra);

  it("recognises DynamoDB's size refusals of a put, an update and a transaction", () => {
    expect(isItemTooLarge(named('ValidationException', 'Item size has exceeded the maximum allowed size'))).toBe(true);
    expect(isItemTooLarge(named('ValidationException', 'Item size to update has exceeded the maximum allowed size'))).toBe(true);
    const cancelled = named('TransactionCanceledException', 'Transaction cancelled', {
      CancellationReasons: [{ Code: 'None' }, { Code: 'ValidationError', Message: 'Item size has exceeded the maximum allowed size' }],
    });
    expect(isItemTooLarge(cancelled)).toBe(true);
    expect(isItemTooLarge(new Error('wrapped', { cause: named('ValidationException', 'Item size has exceeded the maximum allowed size') }))).toBe(true);
  });

  it('leaves every other failure alone', () => {
    expect(isItemTooLarge(named('ValidationException', 'One or more parameter values were invalid'))).toBe(false);
    expect(isItemTooLarge(named('SomethingElse', 'Item size has exceeded the maximum allowed size'))).toBe(false);
    const conditions = named('TransactionCanceledException', 'Transaction cancelled', { CancellationReasons: [{ Code: 'ConditionalCheckFailed' }] });
    expect(isItemTooLarge(conditions)).toBe(false);
    const otherValidation = named('TransactionCanceledException', 'x', { CancellationReasons: [{ Code: 'ValidationError', Message: 'bad key' }] });
    expect(isItemTooLarge(otherValidation)).toBe(false);
    expect(isItemTooLarge(named('TransactionCanceledException', 'x'))).toBe(false);
    expect(isItemTooLarge('Item size has exceeded the maximum allowed size')).toBe(false);
  });
});

describe('a size refusal of the store reaching the HTTP chain', () => {
  it('is 422 VALIDATION_FAILED naming the body, never 500 INTERNAL', async () => {
    const refused = Object.assign(new Error('Item size has exceeded the maximum allowed size'), {
      name: 'ValidationException',
      $metadata: { httpStatusCode: 400 },
    });
    const served = middy<HttpEvent, HttpResult, Error, AppContext>()
      .use(requestContext('test'))
      .use(errorMapper())
      .handler(async () => {
        throw refused;
      });
    const res = (await served(
      { headers: {}, routeKey: '$default', requestContext: { http: { method: 'POST' } } } as unknown as HttpEvent,
      {} as AppContext,
    )) as HttpResult;
    expect(res.statusCode).toBe(422);
    expect(JSON.parse(res.body!).error).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: [{ in: 'body', field: 'body', message: 'too large to store: an item would exceed the store limit of 400 KB; send less' }],
    });
  });
});
