import { describe, expect, it } from 'vitest';
import { config, webhookSettings } from '../../../../../shared/platform/config';
import { queueDeclarations } from '../../../../../shared/platform/consumers/queues';
import { consumer } from '../../../../../shared/platform/consumers/table';
import { QUEUES } from '../../../../../shared/platform/ports/queue';
import { localQueueSpecs } from '../../../../../infra/local/queue-driver';

describe('queue declarations (one home for CDK and the local queue driver)', () => {
  it('the delivery queue: visibility and attempts from config, redrive to its dead-letter queue', () => {
    expect(queueDeclarations({ ...config.webhooks }).webhookDeliveries).toEqual({
      visibilitySeconds: config.webhooks.visibilitySeconds,
      redrive: { maxReceiveCount: config.webhooks.maxAttempts, deadLetter: QUEUES.webhookDeliveries.deadLetter },
    });
  });

  it("the dead-letter queue: 6x its consumer's timeout, no redrive", () => {
    expect(queueDeclarations().webhookDeadLetters).toEqual({ visibilitySeconds: 6 * consumer('webhook-dlq').timeoutSeconds });
  });

  it('the wallet push queue: visibility and receives from config (a visibility that outlasts a worker), redrive to its dead-letter queue', () => {
    const { walletPushes } = queueDeclarations();
    expect(walletPushes).toEqual({
      visibilitySeconds: config.wallet.push.visibilitySeconds,
      redrive: { maxReceiveCount: config.wallet.push.maxReceiveCount, deadLetter: 'walletPushDeadLetters' },
    });
    expect(walletPushes.visibilitySeconds).toBeGreaterThan(config.wallet.push.workerTimeoutSeconds);
  });

  it('the wallet dead-letter queue: no consumer, no redrive, the push visibility', () => {
    expect(queueDeclarations().walletPushDeadLetters).toEqual({ visibilitySeconds: config.wallet.push.visibilitySeconds });
  });

  it('declares every queue exactly once', () => {
    expect(Object.keys(queueDeclarations()).sort()).toEqual(Object.keys(QUEUES).sort());
  });

  it('the local driver reads the same declarations, with the environment overrides', () => {
    const env = { WEBHOOK_MAX_ATTEMPTS: '4', WEBHOOK_VISIBILITY_SECONDS: '2' };
    expect(localQueueSpecs(webhookSettings(env))).toEqual(queueDeclarations(webhookSettings(env)));
    expect(localQueueSpecs(webhookSettings(env)).webhookDeliveries.redrive?.maxReceiveCount).toBe(4);
  });
});
