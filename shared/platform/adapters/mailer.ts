import { runtimeConfig } from '../config';
import type { Mailer } from '../ports/mailer';
import { provided } from './provided';
import { SesMailer } from './ses-mailer';

let ses: Mailer | undefined;

/** The process's mailer: the one the local runtime provides, else Amazon SES. */
export function mailerFromConfig(): Mailer {
  if (provided.mailer) return provided.mailer;
  const cfg = runtimeConfig();
  ses ??= new SesMailer(cfg.MAIL_FROM, cfg.AWS_REGION);
  return ses;
}
