import { join } from 'node:path';
import { provideAdapters } from '../../shared/adapters/provided';
import { FileMailer } from './file-mailer';
import { LocalQueue } from './local-queue';

/** The local runtime's adapters in place of SQS and SES: the queue emulation and mail as files. */
export function provideLocalAdapters(dataDir: string): void {
  provideAdapters({ queue: new LocalQueue(), mailer: new FileMailer(join(dataDir, 'mail')) });
}
