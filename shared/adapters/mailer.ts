import { join } from 'node:path';
import { runtimeConfig } from '../config';
import type { Mailer } from '../ports/mailer';
import { FileMailer } from './file-mailer';
import { SesMailer } from './ses-mailer';

let mailer: Mailer | undefined;

export function mailerFromConfig(): Mailer {
  if (!mailer) {
    const cfg = runtimeConfig();
    mailer = cfg.MAILER === 'file' ? new FileMailer(cfg.MAIL_DIR ?? join(process.cwd(), '.data', 'mail')) : new SesMailer(cfg.MAIL_FROM, cfg.AWS_REGION);
  }
  return mailer;
}
