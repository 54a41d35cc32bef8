export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** What kind of mail, for logs and tests (`password_reset`, ...). */
  template: string;
}

/** Outgoing e-mail. Local runtime: files under DATA_DIR/mail; AWS: SES. */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
}
