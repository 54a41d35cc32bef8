import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { newId } from '../../shared/platform/ids';
import { say } from './log-output';
import type { MailMessage, Mailer } from '../../shared/platform/ports/mailer';

/** Development mailer: each message becomes a JSON file, and one log line says where. */
export class FileMailer implements Mailer {
  constructor(private readonly dir: string) {}

  async send(message: MailMessage): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    const file = join(this.dir, `${newId('mail')}.json`);
    await writeFile(file, JSON.stringify({ ...message, sentAt: new Date().toISOString() }, null, 2));
    say.info('mail written', { template: message.template, to: message.to, file, text: message.text });
  }
}
