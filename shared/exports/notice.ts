import { exportSettings, webhookSettings } from '../platform/config';
import type { Egress } from '../platform/ports/egress';
import type { ObjectStore } from '../platform/ports/object-store';
import type { SecretSealer } from '../platform/ports/secret-sealer';
import { classify, signatureHeader } from '../webhooks';
import { activeSigningSecrets } from './signing-secrets';
import { downloadFilename } from './types';
import type { ExportJobRecord } from './entities';
import { loadJob, notifyInput } from './workflow';

/**
 * The completion notice of an operational export with a `webhookUrl`: one signed POST per job
 * (completed or failed), the Standard Webhooks way with the workspace's export-signing secret, sent
 * through the SSRF-safe egress. Its `webhook-id` is derived from the job, so every retry carries the
 * same one. Retries are the workflow's (the Notify state's Retry: exponential backoff with full
 * jitter, like webhook deliveries); this step only says whether to retry.
 */

export const NOTICE_TYPES = { completed: 'export.completed', failed: 'export.failed' } as const;

/** `evt_` + the job id's time and random part: unique per job, stable across retries. */
export const noticeIdOf = (jobId: string) => `evt_${jobId.slice('exp_'.length)}`;

export function noticeBody(job: ExportJobRecord, now: Date, link?: { url: string; expiresAt: string }): string {
  return JSON.stringify({
    id: noticeIdOf(job.id),
    type: job.status === 'completed' ? NOTICE_TYPES.completed : NOTICE_TYPES.failed,
    created_at: now.toISOString(),
    data: {
      jobId: job.id,
      entity: job.dataset,
      format: job.format,
      status: job.status,
      rowCount: job.rowCount,
      capped: job.capped,
      error: job.error,
      ...(link ? { url: link.url, expiresAt: link.expiresAt } : {}),
    },
  });
}

const named = (name: string, message: string) => Object.assign(new Error(message), { name });

export async function notify(
  input: unknown,
  ports: { egress: Egress; objectStore: Pick<ObjectStore, 'signedGetUrl'>; sealer: SecretSealer },
  now = new Date(),
) {
  const ref = notifyInput.parse(input);
  const job = await loadJob(ref);
  if (!job.webhookUrl || (job.status !== 'completed' && job.status !== 'failed')) return { ...ref, notice: 'none' as const };
  const ttl = exportSettings().linkTtlSeconds;
  const link =
    job.status === 'completed' && job.objectKey
      ? {
          url: await ports.objectStore.signedGetUrl(job.objectKey, { expiresInSeconds: ttl, filename: downloadFilename(job) }),
          expiresAt: new Date(now.getTime() + ttl * 1000).toISOString(),
        }
      : undefined;
  const body = noticeBody(job, now, link);
  const timestamp = Math.floor(now.getTime() / 1000);
  const secrets = await activeSigningSecrets(job.workspaceId, ports.sealer, timestamp);
  if (secrets.length === 0) throw named('ExportNoticeRefused', 'the workspace has no export-signing secret');
  const id = noticeIdOf(job.id);
  const result = await ports.egress.post({
    url: job.webhookUrl,
    headers: {
      'content-type': 'application/json',
      'user-agent': 'LoyaltyPlatform-Exports/1',
      'webhook-id': id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signatureHeader(secrets, id, timestamp, body),
    },
    body,
    timeoutMs: exportSettings().noticeTimeoutSeconds * 1000,
    readCapBytes: webhookSettings().responseReadCapBytes,
    excerptBytes: webhookSettings().responseExcerptBytes,
  });
  const verdict = classify(result, now.getTime());
  if (verdict.kind === 'retry')
    throw named('ExportNoticeRetryable', `notice not delivered: ${verdict.error ?? (result.kind === 'response' ? `HTTP ${result.status}` : 'no answer')}`);
  if (verdict.kind === 'failed')
    throw named('ExportNoticeRefused', `notice refused: ${verdict.error ?? (result.kind === 'response' ? `HTTP ${result.status}` : '')}`);
  return { ...ref, notice: 'delivered' as const };
}
