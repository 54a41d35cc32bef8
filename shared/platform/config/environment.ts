import * as z from 'zod';
import { config } from './static';

/**
 * Runtime configuration of every function, from environment variables, parsed once.
 * CDK sets these on each Lambda; the local runtime sets them on its own process.
 */
const schema = z.object({
  STAGE: z.enum(['local', 'aws']).default('aws'),
  TABLE_NAME: z.string().min(1),
  /** Only the local runtime points the SDK at DynamoDB Local / s3rver. */
  DYNAMODB_ENDPOINT: z.url().optional(),
  S3_ENDPOINT: z.url().optional(),
  AWS_REGION: z.string().default('eu-west-1'),
  MAIL_FROM: z.string().default(config.mail.defaultFrom),
  /** Lets webhooks target http://127.0.0.1 (the local runtime turns it on; never set in AWS). */
  WEBHOOK_ALLOW_LOOPBACK: z.enum(['true', 'false']).default('false'),
  /**
   * ARNs of the Secrets Manager secrets a function reads (`shared/platform/ports/secrets.ts`: the page cursor
   * key, the origin header's value), set by CDK on the functions that declare them. Never a value.
   */
  CURSOR_SECRET_ARN: z.string().min(1).optional(),
  ORIGIN_VERIFY_SECRET_ARN: z.string().min(1).optional(),
  // --- Data exports ---
  /** The bucket of export archives and files (CDK sets it on the functions that declare it). */
  EXPORTS_BUCKET: z.string().min(1).optional(),
  /** ARN of the export workflow's state machine (AWS only; locally the workflow runs in process). */
  WORKFLOW_ARN_EXPORT: z.string().min(1).optional(),
  /** Public base address, used in links sent by e-mail. */
  PUBLIC_BASE_URL: z.string().default('http://127.0.0.1:3000'),

  // --- Wallet cards ---
  /** APNs base URL; an `http://` one means cleartext HTTP/2 (a local fake, local runtime only). */
  APNS_URL: z.url().default('https://api.push.apple.com'),
  /** Google Wallet REST API base (loyalty classes and objects). */
  GOOGLE_WALLET_API_URL: z.url().default('https://walletobjects.googleapis.com/walletobjects/v1'),
  /** Platforms with credentials, comma-separated; a platform left out answers WALLET_NOT_CONFIGURED. */
  WALLET_PLATFORMS: z
    .string()
    .default('apple,google')
    .transform((s) =>
      s
        .split(',')
        .map((p) => p.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.enum(['apple', 'google']))),
  /** The Secrets Manager secret with the wallet credentials (AWS). */
  WALLET_SECRET_ARN: z.string().min(1).optional(),
  /** The KMS key that seals webhook and export signing secrets (AWS; set on the functions that declare `signingSecrets`). */
  SIGNING_SECRETS_KEY_ARN: z.string().min(1).optional(),
});

export type RuntimeConfig = z.infer<typeof schema>;

let cached: RuntimeConfig | undefined;

export function runtimeConfig(): RuntimeConfig {
  cached ??= schema.parse(process.env);
  return cached;
}

/**
 * Parses the environment again on next use. Only the local runtime calls it: it learns its own
 * address (`PUBLIC_BASE_URL` with `PORT=0`) after the handlers may have read the configuration.
 */
export function reloadRuntimeConfig(): void {
  cached = undefined;
}

/** Names CDK must set on every function (the rest have defaults or are local-only). */
export const REQUIRED_FUNCTION_ENV = ['STAGE', 'TABLE_NAME', 'MAIL_FROM'] as const;
