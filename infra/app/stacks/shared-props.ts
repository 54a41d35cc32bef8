import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import type { QueueName } from '../../../shared/platform/ports/queue';
import type { SecretName } from '../../../shared/platform/ports/secrets';
import type { ExportBucket } from '../constructs/exports';
import type { Mail } from '../constructs/mail';
import type { SigningSecretsKey } from '../constructs/signing-secrets-key';

/** What every nested stack with functions gets from the root stack (the stateful resources). */
export interface PlatformResources {
  readonly table: dynamodb.ITable;
  readonly mail: Mail;
  /** Every declared queue (`shared/platform/ports/queue.ts`) by name. */
  readonly queues: Readonly<Record<QueueName, sqs.IQueue>>;
  readonly walletSecret: secretsmanager.ISecret;
  /** The run-time secrets, read by the functions whose access names them (`Access.secrets`). */
  readonly secrets: Readonly<Record<SecretName, secretsmanager.ISecret>>;
  readonly exportBucket: ExportBucket;
  /** Seals and opens the signing secrets, for the functions whose access names `signingSecrets`. */
  readonly signingSecretsKey: SigningSecretsKey;
  /** `PUBLIC_BASE_URL` of every function: links sent by e-mail. */
  readonly publicBaseUrl: string;
}
