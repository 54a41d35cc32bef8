import type { WebhookSettings } from '../platform/config';
import * as repo from './repository';
import { correlated } from '../platform/observability/correlation';
import { logger } from '../platform/observability/logger';
import { emitMetric } from '../platform/observability/metrics';
import { newId } from '../platform/ids';
import type { Egress, EgressResult } from '../platform/ports/egress';
import type { SecretSealer } from '../platform/ports/secret-sealer';
import { parseRetryAfter, retryDelaySeconds } from './backoff';
import { singleAttemptStore, type AttemptStore } from './delivery-batch';
import type { Attempt } from './schemas';
import type { DeliveryState } from './entities';
import { openSigningSecrets, webhookSecretOwner } from './secret-storage';
import { signatureHeader } from './signing';
import { forgetSubscriptions } from './subscriptions';
import type { DeliveryMessage } from './types';

export type AttemptVerdict =
  | { kind: 'delivered' }
  | { kind: 'retry'; retryAfterSeconds?: number; error: string | null }
  | { kind: 'failed'; error: string | null };

/**
 * Spec 3.3: any 2xx is delivered; 429, 5xx, time-out and connection errors are retried; 3xx and
 * every other 4xx fail for good, as does a target the SSRF guard refuses.
 */
export function classify(result: EgressResult, now = Date.now()): AttemptVerdict {
  if (result.kind === 'refused') return { kind: 'failed', error: `refused: ${result.reason}` };
  if (result.kind === 'error') return { kind: 'retry', error: result.timedOut ? `timed out: ${result.reason}` : result.reason };
  const { status } = result;
  if (status >= 200 && status < 300) return { kind: 'delivered' };
  if (status === 429 || status >= 500) {
    const honour = status === 429 || status === 503;
    return { kind: 'retry', error: null, ...(honour ? { retryAfterSeconds: parseRetryAfter(result.headers['retry-after'], now) } : {}) };
  }
  return { kind: 'failed', error: status >= 300 && status < 400 ? 'redirects are not followed' : null };
}

export interface DeliveryDeps {
  egress: Egress;
  settings: WebhookSettings;
  /** Opens the endpoint's sealed signing secrets. */
  sealer: SecretSealer;
  now?: () => Date;
  /** Default: the attempt reads and writes on its own; a queue batch shares its reads and writes. */
  store?: AttemptStore;
}

/** What the queue consumer must do with the message after this attempt. */
export type NextStep = { ack: true } | { ack: false; visibilitySeconds: number };

/**
 * One attempt of one delivery: sign, send through the SSRF-safe egress, classify, log the attempt,
 * keep the endpoint's health, and say when (if ever) to try again. The attempt number is the
 * queue's receive count, so the queue's maxReceiveCount bounds the attempts.
 */
export async function attemptDelivery(message: DeliveryMessage, attempt: number, deps: DeliveryDeps): Promise<NextStep> {
  const now = deps.now ?? (() => new Date());
  const started = now();
  const store = deps.store ?? singleAttemptStore;
  const endpoint = await store.endpoint(message.workspaceId, message.endpointId);
  if (!endpoint) return { ack: true }; // deleted: no further deliveries
  const base = {
    id: newId('att'),
    deliveryId: message.deliveryId,
    eventId: message.eventId,
    eventType: message.eventType,
    attempt,
    trigger: message.trigger,
    ...(message.requestId ? { requestId: message.requestId } : {}),
  };
  if (endpoint.status !== 'active') {
    await store.record({
      workspaceId: message.workspaceId,
      endpointId: message.endpointId,
      payload: message.payload,
      entry: {
        ...base,
        statusCode: null,
        error: 'endpoint disabled; not sent',
        durationMs: 0,
        responseExcerpt: null,
        nextRetryAt: null,
        state: 'cancelled',
        at: started.toISOString(),
      },
    });
    return { ack: true };
  }

  const timestamp = Math.floor(started.getTime() / 1000);
  const secrets = await openSigningSecrets(deps.sealer, webhookSecretOwner(endpoint.workspaceId, endpoint.id), endpoint.secrets, timestamp);
  const result = await deps.egress.post({
    url: endpoint.url,
    headers: {
      'content-type': 'application/json',
      'user-agent': 'LoyaltyPlatform-Webhooks/1',
      'webhook-id': message.eventId,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signatureHeader(secrets, message.eventId, timestamp, message.payload),
    },
    body: message.payload,
    timeoutMs: deps.settings.deliveryTimeoutSeconds * 1000,
    readCapBytes: deps.settings.responseReadCapBytes,
    excerptBytes: deps.settings.responseExcerptBytes,
  });
  const verdict = classify(result, started.getTime());
  const last = attempt >= deps.settings.maxAttempts;
  const delay = verdict.kind === 'retry' && !last ? retryDelaySeconds(attempt, deps.settings, verdict.retryAfterSeconds) : undefined;
  const state: DeliveryState = verdict.kind === 'delivered' ? 'delivered' : delay !== undefined ? 'retrying' : 'failed';
  const entry: Attempt = {
    ...base,
    statusCode: result.kind === 'response' ? result.status : null,
    error:
      verdict.kind === 'delivered'
        ? null
        : verdict.kind === 'retry' && last
          ? `${verdict.error ?? `HTTP ${result.kind === 'response' ? result.status : ''}`}; attempts exhausted, moving to the dead-letter queue`
          : verdict.error,
    durationMs: Math.round(result.durationMs),
    responseExcerpt: result.kind === 'response' ? result.bodyExcerpt : null,
    nextRetryAt: delay !== undefined ? new Date(started.getTime() + delay * 1000).toISOString() : null,
    state,
    at: started.toISOString(),
  };
  await store.record({ workspaceId: message.workspaceId, endpointId: message.endpointId, payload: message.payload, entry });
  reportAttempt(message, entry, verdict.kind === 'failed', now());
  await keepHealth(message.workspaceId, message.endpointId, verdict.kind === 'delivered', endpoint.failingSince, deps.settings, now());

  if (verdict.kind !== 'retry') return { ack: true };
  // The last attempt goes back at once, so the redrive moves it to the dead-letter queue now.
  return { ack: false, visibilitySeconds: delay ?? 0 };
}

/** When the event happened (its envelope's `created_at`), for the delivery latency. */
function eventTimeOf(payload: string): number | undefined {
  try {
    const at = Date.parse((JSON.parse(payload) as { created_at?: unknown }).created_at as string);
    return Number.isFinite(at) ? at : undefined;
  } catch {
    return undefined;
  }
}

/** What every log line about a delivery names (never its payload). */
const deliveryLogFields = (message: DeliveryMessage) => ({
  ...correlated(message.requestId),
  workspaceId: message.workspaceId,
  endpointId: message.endpointId,
  deliveryId: message.deliveryId,
  eventType: message.eventType,
  trigger: message.trigger,
});

/**
 * The metric and the log line of a recorded attempt (called once its entry is committed). A last
 * attempt that ran out of retries is logged `webhook.failed` but counted by the dead-letter consumer
 * as dead, so `WebhookDeliveriesFailed` holds only the permanent refusals. The latency is measured
 * for sends of events only: a replay or a test call is not the event's first journey.
 */
function reportAttempt(message: DeliveryMessage, entry: Attempt, permanent: boolean, now: Date): void {
  const line = {
    ...deliveryLogFields(message),
    attempt: entry.attempt,
    status: entry.statusCode,
    durationMs: entry.durationMs,
  };
  if (entry.state === 'delivered') {
    emitMetric('webhookDeliveriesOk', 1);
    const eventAt = message.trigger === 'event' ? eventTimeOf(message.payload) : undefined;
    const latencyMs = eventAt === undefined ? undefined : Math.max(0, now.getTime() - eventAt);
    if (latencyMs !== undefined) emitMetric('webhookDeliveryLatency', latencyMs);
    logger.info('webhook.delivered', { event: 'webhook.delivered', ...line, ...(latencyMs !== undefined ? { latencyMs } : {}) });
  } else if (entry.state === 'retrying') {
    emitMetric('webhookDeliveriesRetried', 1);
    logger.info('webhook.retry_scheduled', { event: 'webhook.retry_scheduled', ...line, error: entry.error, nextRetryAt: entry.nextRetryAt });
  } else if (entry.state === 'failed') {
    if (permanent) emitMetric('webhookDeliveriesFailed', 1);
    logger.info('webhook.failed', { event: 'webhook.failed', ...line, error: entry.error, final: permanent ? 'permanent' : 'attempts_exhausted' });
  }
}

/** Svix's rule: an endpoint that has failed every attempt for a long span is disabled. */
async function keepHealth(
  workspaceId: string,
  endpointId: string,
  ok: boolean,
  failingSince: number | undefined,
  settings: WebhookSettings,
  now: Date,
): Promise<void> {
  if (ok) {
    // A healthy endpoint costs no write; only the first success after failures clears the span.
    if (failingSince !== undefined) await repo.markHealthy(workspaceId, endpointId);
    return;
  }
  const nowEpoch = Math.floor(now.getTime() / 1000);
  const since = await repo.markFailing(workspaceId, endpointId, nowEpoch);
  if (since === undefined || nowEpoch - since < settings.disableAfterFailingSeconds) return;
  const reason = `Every attempt failed since ${new Date(since * 1000).toISOString()}`;
  if (await repo.disableFailingEndpoint(workspaceId, endpointId, reason, now.toISOString())) {
    forgetSubscriptions(workspaceId);
    logger.warn('webhook.endpoint_disabled', { event: 'webhook.endpoint_disabled', ...correlated(), workspaceId, endpointId, failingSince: since, reason });
  }
}

/** The DLQ consumer's part: the delivery is dead; it stays replayable. */
export async function markDead(message: DeliveryMessage, now = new Date()): Promise<void> {
  const delivery = await repo.getDelivery(message.workspaceId, message.endpointId, message.deliveryId);
  const attempts = delivery?.attempts ?? 0;
  await repo.recordAttempt(message.workspaceId, message.endpointId, message.payload, {
    id: newId('att'),
    deliveryId: message.deliveryId,
    eventId: message.eventId,
    eventType: message.eventType,
    attempt: attempts,
    trigger: message.trigger,
    ...(message.requestId ? { requestId: message.requestId } : {}),
    statusCode: null,
    error: `all ${attempts} attempts failed; dead (replay it once the receiver is fixed)`,
    durationMs: 0,
    responseExcerpt: null,
    nextRetryAt: null,
    state: 'dead',
    at: now.toISOString(),
  });
  emitMetric('webhookDeliveriesDead', 1);
  logger.info('webhook.dead', {
    event: 'webhook.dead',
    ...deliveryLogFields(message),
    attempt: attempts,
  });
}
