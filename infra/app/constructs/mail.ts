import { Aws } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';

export interface MailProps {
  /** Plain e-mail address the platform sends from (`MAIL_FROM`), e.g. `no-reply@example.com`. */
  readonly fromAddress: string;
}

/** cdk-nag finding raised by `grantSend` (identity wildcard); acknowledged on the grantee's role. */
export const SES_IDENTITY_WILDCARD_FINDING = 'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:ses:<AWS::Region>:<AWS::AccountId>:identity/*]';

export const SES_IDENTITY_WILDCARD_REASON =
  'ses:SendEmail is authorised against the sender identity and, while the account is in the SES sandbox, ' +
  'against each recipient identity, so the resource must cover the identities of this account and region. ' +
  'The statement is narrowed by the condition ses:FromAddress = MAIL_FROM, and only the auth function gets it.';

const PLAIN_ADDRESS = /^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+$/;

/**
 * Outgoing e-mail through Amazon SES (v2 `SendEmail`). The sending identity (the domain or the
 * address of `fromAddress`) is verified in SES outside this stack: verification needs DNS records
 * or a click in a mailbox, and an identity can exist only once per account and region.
 */
export class Mail extends Construct {
  readonly fromAddress: string;
  /** ARN pattern of the account's SES identities in this region. */
  readonly identitiesArn: string;

  constructor(scope: Construct, id: string, props: MailProps) {
    super(scope, id);
    if (!PLAIN_ADDRESS.test(props.fromAddress)) {
      throw new Error(`mailFrom must be a plain e-mail address (no display name), got "${props.fromAddress}"`);
    }
    this.fromAddress = props.fromAddress;
    // Pseudo parameters even when the stack has a concrete env: keeps the cdk-nag finding id stable.
    this.identitiesArn = `arn:${Aws.PARTITION}:ses:${Aws.REGION}:${Aws.ACCOUNT_ID}:identity/*`;
  }

  /**
   * Allow `grantee` to send e-mail, only with `fromAddress` as sender. The resource has to be the
   * identity wildcard: SES authorises `SendEmail` against the sender identity and, while the account
   * is in the SES sandbox, against every recipient identity too, which are not known in advance.
   */
  grantSend(grantee: iam.IGrantable): iam.Grant {
    return iam.Grant.addToPrincipal({
      grantee,
      actions: ['ses:SendEmail'],
      resourceArns: [this.identitiesArn],
      conditions: { StringEquals: { 'ses:FromAddress': this.fromAddress } },
    });
  }
}
