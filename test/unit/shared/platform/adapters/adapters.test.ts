import { afterEach, describe, expect, it } from 'vitest';
import { mailerFromConfig } from '../../../../../shared/platform/adapters/mailer';
import { provided, provideAdapters } from '../../../../../shared/platform/adapters/provided';
import { queueFromConfig } from '../../../../../shared/platform/adapters/queue';
import { SesMailer } from '../../../../../shared/platform/adapters/ses-mailer';
import { SqsQueue } from '../../../../../shared/platform/adapters/sqs-queue';
import type { Mailer } from '../../../../../shared/platform/ports/mailer';
import type { Queue } from '../../../../../shared/platform/ports/queue';

process.env.TABLE_NAME ??= 'unit-test';

describe('adapter composition', () => {
  afterEach(() => {
    delete provided.queue;
    delete provided.mailer;
  });

  it('a Lambda process (nothing provided) gets SQS and SES', () => {
    expect(queueFromConfig()).toBeInstanceOf(SqsQueue);
    expect(mailerFromConfig()).toBeInstanceOf(SesMailer);
    expect(queueFromConfig()).toBe(queueFromConfig());
  });

  it('what the local runtime provides replaces them', () => {
    const queue: Queue = { send: async () => undefined, changeVisibility: async () => undefined };
    const mailer: Mailer = { send: async () => undefined };
    provideAdapters({ queue, mailer });
    expect(queueFromConfig()).toBe(queue);
    expect(mailerFromConfig()).toBe(mailer);
  });
});
