import { RemovalPolicy } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import type { Access } from '../../../shared/platform/contract/endpoint';

/** Pinned: a replaced key would make every stored signing secret unreadable. */
export const SIGNING_SECRETS_KEY_LOGICAL_ID = 'SigningSecretsKey';

/** The KMS actions of each declared `signingSecrets` access: sealing only makes data keys, only signing unwraps them. */
export const SIGNING_SECRETS_KEY_ACTIONS: Readonly<Record<NonNullable<Access['signingSecrets']>, readonly string[]>> = {
  seal: ['kms:GenerateDataKey'],
  open: ['kms:Decrypt'],
};

/**
 * The KMS key that seals webhook and export signing secrets (envelope encryption, see
 * docs/security.md), with yearly automatic rotation. The key policy leaves access to IAM; the
 * functions get exactly the actions their declaration names, so a table backup, a restore or a
 * role that may read the table holds only ciphertext.
 */
export class SigningSecretsKey extends Construct {
  readonly key: kms.Key;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.key = new kms.Key(this, 'Key', {
      description: 'Loyalty platform: seals webhook and export signing secrets at rest',
      enableKeyRotation: true,
      alias: 'alias/loyalty-signing-secrets',
      removalPolicy: RemovalPolicy.RETAIN,
    });
    (this.key.node.defaultChild as kms.CfnKey).overrideLogicalId(SIGNING_SECRETS_KEY_LOGICAL_ID);
  }

  /** Grants a function what its declaration says of the key, and tells it the key's ARN. */
  grant(fn: lambda.Function, access: Access): void {
    if (!access.signingSecrets) return;
    fn.addToRolePolicy(new iam.PolicyStatement({ actions: [...SIGNING_SECRETS_KEY_ACTIONS[access.signingSecrets]], resources: [this.key.keyArn] }));
    fn.addEnvironment('SIGNING_SECRETS_KEY_ARN', this.key.keyArn);
  }
}
