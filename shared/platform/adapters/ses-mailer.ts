import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import type { MailMessage, Mailer } from '../ports/mailer';
import { traceClient } from '../observability/tracing';

export class SesMailer implements Mailer {
  private readonly client: SESv2Client;

  constructor(
    private readonly from: string,
    region: string,
  ) {
    this.client = traceClient(new SESv2Client({ region }));
  }

  async send(message: MailMessage): Promise<void> {
    await this.client.send(
      new SendEmailCommand({
        FromEmailAddress: this.from,
        Destination: { ToAddresses: [message.to] },
        Content: { Simple: { Subject: { Data: message.subject }, Body: { Text: { Data: message.text } } } },
      }),
    );
  }
}
