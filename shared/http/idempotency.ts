import type { MiddlewareObj } from '@middy/core';
import * as store from '../data/repositories/idempotency';
import { sha256Hex } from '../domain/auth/secrets';
import { AppError, badRequest } from '../errors';
import { logger } from '../observability/logger';
import type { WriteOptions } from '../domain/write-options';
import { toHttpResult, type Reply } from './responses';
import type { AppContext, HttpEvent, HttpResult } from './types';


/** Answers are kept 24 hours (Stripe's number). */
const KEEP_SECONDS = 24 * 3600;
/** 1-255 visible ASCII characters (also published in the OpenAPI document). */
export const IDEMPOTENCY_KEY_PATTERN = /^[!-~]{1,255}$/;


/** JSON with sorted keys: the same body in another key order or spacing is the same request. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

const epoch = () => Math.floor(Date.now() / 1000);

/** Shapes a recorded domain result into the operation's answer (the operation's own `reply`). */
export type ReplyOf = (operationId: string) => ((result: unknown) => Reply) | undefined;

function replay(context: AppContext, routeKey: string, rec: store.IdempotencyRecord, replyOf: ReplyOf): HttpResult {
  const shape = rec.result !== undefined ? replyOf(context.route?.operationId ?? '') : undefined;
  let result: HttpResult;
  if (rec.result !== undefined && shape) {
    result = toHttpResult(shape(JSON.parse(rec.result)), context.requestId);
  } else if (rec.response) {
    result = { statusCode: rec.response.statusCode, headers: toHttpResult({ status: 200, body: null }, context.requestId).headers, body: rec.response.body };
  } else {
    throw new Error(`idempotency record of ${routeKey} has neither a result nor a response`);
  }
  result.headers = { ...result.headers, 'idempotent-replayed': 'true' };
  // An early answer skips the rest of the chain (middy), so it carries its own request id and log line.
  logger.info('request', { requestId: context.requestId, routeKey, status: result.statusCode, idempotentReplay: true });
  return result;
}

const reused = () =>
  new AppError('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was used with a different request', [
    { in: 'header', field: 'idempotency-key', message: 'already used with another method, path or body' },
  ]);

/**
 * `Idempotency-Key` with Stripe semantics on routes the route table marks `idempotent`: the same key
 * and request replay the first successful answer for 24 hours; the same key with another request
 * is 422. Exactly-once comes from the domain transaction itself, which records the result as one of
 * its items (see `sealFor`), so there is no lock to leak: of concurrent attempts one commits and
 * the others replay its answer. Failed attempts record nothing and leave the key free.
 */
export function idempotency(replyOf: ReplyOf): MiddlewareObj<HttpEvent, HttpResult, Error, AppContext> {
  return {
    before: async ({ event, context }) => {
      const key = event.headers?.['idempotency-key'];
      if (key === undefined || !context.route?.idempotent || !context.principal) return;
      if (!IDEMPOTENCY_KEY_PATTERN.test(key)) throw badRequest('Idempotency-Key must be 1-255 visible ASCII characters');
      const workspaceId = context.principal.workspaceId;
      const requestHash = sha256Hex(`${event.routeKey}\n${event.rawPath}\n${canonical(context.body ?? null)}`);
      const existing = await store.getRecord(workspaceId, key, epoch());
      if (existing) {
        if (existing.requestHash !== requestHash) throw reused();
        return replay(context, event.routeKey, existing, replyOf);
      }
      context.idempotency = { key, workspaceId, requestHash, recorded: false };
    },
    after: async ({ context, response }) => {
      const idem = context.idempotency;
      if (!idem || idem.recorded || !response) return;
      const status = response.statusCode ?? 200;
      if (status < 200 || status >= 300) return;
      // Answers that were not part of a transaction (naturally idempotent batches, duplicates).
      await store.record(idem.workspaceId, idem.key, { requestHash: idem.requestHash, response: { statusCode: status, body: response.body ?? '' }, expiresAt: epoch() + KEEP_SECONDS }, epoch());
    },
    onError: async (request) => {
      const { context, event } = request;
      const idem = context.idempotency;
      if (!idem) return;
      // A concurrent attempt with this key may have committed first: its answer is the answer.
      // (So may this very request, when its commit could not be confirmed: OUTCOME_UNKNOWN.)
      let winner: store.IdempotencyRecord | undefined;
      try {
        winner = await store.getRecord(idem.workspaceId, idem.key, epoch());
      } catch (lookupError) {
        // The store is unreachable or the deadline passed: the original error stands.
        logger.warn('idempotency lookup after a failure did not answer', { requestId: context.requestId, error: lookupError as Error });
        return;
      }
      if (!winner) return;
      if (winner.requestHash !== idem.requestHash) {
        request.error = reused();
        return;
      }
      return replay(context, event.routeKey, winner, replyOf);
    },
  };
}

/**
 * What a sealed operation passes to its domain service: a step that records the result in the
 * service's own transaction. Empty when the request carries no Idempotency-Key (or the route is
 * not declared idempotent), so the service writes exactly what it would write anyway.
 */
export function sealFor<R>(context: AppContext): WriteOptions<R> {
  const idem = context.idempotency;
  if (!idem) return {};
  return sealWith(idem);
}

function sealWith<R>(idem: NonNullable<AppContext['idempotency']>): WriteOptions<R> {
  return {
    seal: (result) => {
      const now = epoch();
      return store.recordStep(idem.workspaceId, idem.key, { requestHash: idem.requestHash, result: JSON.stringify(result), expiresAt: now + KEEP_SECONDS }, now, () => {
        idem.recorded = true;
      });
    },
  };
}

/** The recorded domain result of a key, or 422 if the key was used for another request. */
function recordedResult(rec: store.IdempotencyRecord, requestHash: string): unknown {
  if (rec.requestHash !== requestHash || rec.result === undefined) throw reused();
  return JSON.parse(rec.result);
}

/**
 * The same semantics outside the HTTP chain (an MCP tool call): `request` is the canonical form of
 * what is asked (the tool and its arguments), the result is recorded in the domain transaction
 * through `write`, and a key seen before replays its recorded result (or is 422 when it was used
 * for another request). Keys share the workspace's records with the REST API.
 */
export async function runIdempotent<R>(
  workspaceId: string,
  key: string,
  request: unknown,
  run: (write: WriteOptions<R>) => Promise<R>,
): Promise<{ result: R; replayed: boolean }> {
  if (!IDEMPOTENCY_KEY_PATTERN.test(key)) throw badRequest('The idempotency key must be 1-255 visible ASCII characters');
  const requestHash = sha256Hex(canonical(request));
  const existing = await store.getRecord(workspaceId, key, epoch());
  if (existing) return { result: recordedResult(existing, requestHash) as R, replayed: true };
  const idem = { key, workspaceId, requestHash, recorded: false };
  try {
    return { result: await run(sealWith<R>(idem)), replayed: false };
  } catch (error) {
    // As in the middleware: a concurrent attempt with this key may have committed first.
    const winner = await store.getRecord(workspaceId, key, epoch()).catch(() => undefined);
    if (!winner) throw error;
    return { result: recordedResult(winner, requestHash) as R, replayed: true };
  }
}
