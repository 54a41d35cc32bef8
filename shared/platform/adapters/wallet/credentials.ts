import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import * as z from 'zod';
import { runtimeConfig } from '../../config';
import type { WalletCredentials, WalletCredentialSource } from '../../ports/wallet';
import { traceClient } from '../../observability/tracing';

/**
 * The wallet secret: one JSON document with a section per platform (either may be missing, which
 * leaves that platform unconfigured). Shape documented in docs/infra.md.
 */
const secretSchema = z.object({
  apple: z
    .object({
      passTypeIdentifier: z.string().min(1),
      teamIdentifier: z.string().min(1),
      wwdrPem: z.string().min(1),
      signerCertPem: z.string().min(1),
      signerKeyPem: z.string().min(1),
      signerKeyPassphrase: z.string().optional(),
      apns: z.discriminatedUnion('mode', [
        z.object({ mode: z.literal('token'), keyId: z.string().min(1), teamId: z.string().min(1), keyPem: z.string().min(1) }),
        z.object({ mode: z.literal('certificate') }),
      ]),
    })
    .optional(),
  google: z
    .object({
      issuerId: z.string().regex(/^\d+$/),
      serviceAccount: z.object({
        client_email: z.string().min(1),
        private_key: z.string().min(1),
        private_key_id: z.string().optional(),
        token_uri: z.url().optional(),
      }),
    })
    .optional(),
});

export const parseWalletSecret = (text: string): WalletCredentials => secretSchema.parse(JSON.parse(text));

/** Reads the secret once per container (a failed read is tried again on the next call). */
export class SecretsManagerWalletCredentials implements WalletCredentialSource {
  #loaded: Promise<WalletCredentials> | undefined;

  constructor(
    private readonly secretId: string,
    private readonly client = traceClient(new SecretsManagerClient({ region: runtimeConfig().AWS_REGION })),
  ) {}

  load(): Promise<WalletCredentials> {
    this.#loaded ??= this.client.send(new GetSecretValueCommand({ SecretId: this.secretId })).then(
      (out) => (out.SecretString ? parseWalletSecret(out.SecretString) : {}),
      (err: unknown) => {
        this.#loaded = undefined;
        throw err;
      },
    );
    return this.#loaded;
  }
}
