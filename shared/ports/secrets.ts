/**
 * Secrets the functions read at run time, by name: the key page cursors are signed with and the
 * value our CloudFront distribution proves itself with (`config.http.originVerifyHeader`). AWS: one
 * Secrets Manager secret each, its ARN in `SECRET_ARN_ENV[name]` on exactly the functions that
 * declare it (`Access.secrets`); locally the runtime's own values (infra/local/local-secrets.ts).
 */
export const SECRET_ARN_ENV = {
  pageCursors: 'CURSOR_SECRET_ARN',
  originVerify: 'ORIGIN_VERIFY_SECRET_ARN',
} as const;

export type SecretName = keyof typeof SECRET_ARN_ENV;

/** A secret's value now and, for a while after a rotation, the one before it (still accepted, never issued). */
export interface SecretVersions {
  current: string;
  previous?: string;
}

export interface SecretStore {
  /** The secret's values, cached by the adapter; undefined where the deployment has none (the origin secret locally). */
  versions(name: SecretName): Promise<SecretVersions | undefined>;
}
