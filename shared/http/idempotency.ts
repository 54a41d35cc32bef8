import type { MiddlewareObj } from '@middy/core';
import { setTimeout as sleep } from 'node:timers/promises';
import { config } from '../platform/config';
import * as store from '../platform/data/idempotency-records';
import { sha256Hex } from '../platform/tokens';
import { AppError, badRequest } from '../platform/errors';
import { logger } from '../platform/observability/logger';
import type { WriteOptions } from '../platform/data/write-options';
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

const inUse = () =>
  new AppError(
    'IDEMPOTENCY_KEY_IN_USE',
    'A request with this Idempotency-Key is still in progress; retry after it answers',
    [{ in: 'header', field: 'idempotency-key', message: 'a request with this key is in progress' }],
    { 'retry-after': '1' },
  );

/**
 * The record of a key once no request holds it (undefined: the key is free). While the first
 * request with the key runs, a duplicate waits for its answer, up to `inProgressWaitMs`.
 */
async function settledRecord(workspaceId: string, key: string, requestHash: string): Promise<store.IdempotencyRecord | undefined> {
  const giveUpAt = Date.now() + config.idempotency.inProgressWaitMs;
  for (;;) {
    const rec = await store.getRecord(workspaceId, key, epoch());
    if (rec && rec.requestHash !== requestHash) throw reused();
    if (!rec || rec.claim === undefined) return rec;
    if (Date.now() >= giveUpAt) throw inUse();
    await sleep(config.idempotency.pollMs);
  }
}

/**
 * Claims the key for this request, or answers with the recorded answer of the request that had it.
 * A claim is held at most the Lambda timeout, so a holder that died is taken over then.
 */
async function claimOrReplay(
  context: AppContext,
  routeKey: string,
  { workspaceId, key }: KeyOwner,
  requestHash: string,
  replyOf: ReplyOf,
): Promise<HttpResult | undefined> {
  for (let attempt = 1; ; attempt++) {
    const outcome = await store.claim(workspaceId, key, requestHash, context.requestId, epoch(), config.lambda.timeoutSeconds);
    if (outcome.claimed) {
      context.idempotency = { key, workspaceId, requestHash, recorded: false, claim: context.requestId };
      return undefined;
    }
    const { current } = outcome;
    if (current && current.requestHash !== requestHash) throw reused();
    if (current && current.claim === undefined) return replay(context, routeKey, current, replyOf);
    // Another request holds the key: wait for its answer; should it give the key up, claim again.
    const settled = await settledRecord(workspaceId, key, requestHash);
    if (settled) return replay(context, routeKey, settled, replyOf);
    if (attempt >= 3) throw inUse();
  }
}

type KeyOwner = { workspaceId: string; key: string };

/**
 * Where a request's key is kept: among its workspace's keys, and for a member portal session among
 * its member's own (prefixed by the member id and a space, which no key sent has), so two members
 * of a workspace using the same key never see each other's answers.
 */
function ownedKey(context: AppContext, key: string): KeyOwner | undefined {
  if (context.principal) return { workspaceId: context.principal.workspaceId, key };
  if (context.consumer) return { workspaceId: context.consumer.workspaceId, key: `${context.consumer.memberId} ${key}` };
  return undefined;
}

/** Gives the key up after a failed attempt; should the store not answer, the claim lapses by itself. */
async function releaseClaim(context: AppContext): Promise<void> {
  const idem = context.idempotency;
  if (!idem?.claim || idem.recorded) return;
  await store.release(idem.workspaceId, idem.key, idem.claim).catch((error: unknown) => {
    logger.warn('idempotency claim could not be released; it lapses by itself', { requestId: context.requestId, error: error as Error });
  });
}

/**
 * `Idempotency-Key` with Stripe semantics on routes the route table marks `idempotent`: the same key
 * and request replay the first successful answer for 24 hours; the same key with another request
 * is 422. The first request claims the key before it runs (an in-progress record), so of
 * concurrent duplicates exactly one runs: the others wait for its answer and replay it, or are 409
 * IDEMPOTENCY_KEY_IN_USE if it takes longer. Its answer is recorded in its domain transaction (see
 * `sealFor`), or after it for the routes answered outside one (batches); a failed attempt releases
 * the claim and leaves the key free.
 */
export function idempotency(replyOf: ReplyOf): MiddlewareObj<HttpEvent, HttpResult, Error, AppContext> {
  return {
    before: async ({ event, context }) => {
      const key = event.headers?.['idempotency-key'];
      const owned = key === undefined || !context.route?.idempotent ? undefined : ownedKey(context, key);
      if (key === undefined || !owned) return;
      if (!IDEMPOTENCY_KEY_PATTERN.test(key)) throw badRequest('Idempotency-Key must be 1-255 visible ASCII characters');
      const requestHash = sha256Hex(`${event.routeKey}\n${event.rawPath}\n${canonical(context.body ?? null)}`);
      return claimOrReplay(context, event.routeKey, owned, requestHash, replyOf);
    },
    after: async ({ context, response }) => {
      const idem = context.idempotency;
      if (!idem || idem.recorded || !response) return;
      const status = response.statusCode ?? 200;
      if (status < 200 || status >= 300) return releaseClaim(context);
      // Answers that were not part of a transaction (naturally idempotent batches, duplicates).
      await store.record(
        idem.workspaceId,
        idem.key,
        { requestHash: idem.requestHash, response: { statusCode: status, body: response.body ?? '' }, expiresAt: epoch() + KEEP_SECONDS },
        epoch(),
        idem.claim,
      );
      idem.recorded = true;
    },
    onError: async (request) => {
      const { context, event } = request;
      const idem = context.idempotency;
      if (!idem) return;
      await releaseClaim(context);
      // This very request may have committed although it could not confirm so (OUTCOME_UNKNOWN):
      // then its recorded answer is the answer.
      let winner: store.IdempotencyRecord | undefined;
      try {
        winner = await store.getRecord(idem.workspaceId, idem.key, epoch());
      } catch (lookupError) {
        // The store is unreachable or the deadline passed: the original error stands.
        logger.warn('idempotency lookup after a failure did not answer', { requestId: context.requestId, error: lookupError as Error });
        return;
      }
      if (!winner || winner.claim !== undefined) return;
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
      return store.recordStep(
        idem.workspaceId,
        idem.key,
        { requestHash: idem.requestHash, result: JSON.stringify(result), expiresAt: now + KEEP_SECONDS },
        now,
        () => {
          idem.recorded = true;
        },
        idem.claim,
      );
    },
  };
}

/** The recorded domain result of a key, or 422 if the key was used for another request. */
function recordedResult(rec: store.IdempotencyRecord): unknown {
  if (rec.result === undefined) throw reused();
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
  const existing = await settledRecord(workspaceId, key, requestHash);
  if (existing) return { result: recordedResult(existing) as R, replayed: true };
  const idem = { key, workspaceId, requestHash, recorded: false };
  try {
    return { result: await run(sealWith<R>(idem)), replayed: false };
  } catch (error) {
    // A concurrent attempt with this key (a tool call, or a REST request holding its claim) may have
    // committed first: its answer is the answer.
    const winner = await settledRecord(workspaceId, key, requestHash).catch((lookup: unknown) => {
      if (lookup instanceof AppError) throw lookup;
      return undefined;
    });
    if (!winner) throw error;
    return { result: recordedResult(winner) as R, replayed: true };
  }
}
