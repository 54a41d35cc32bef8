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

let installed: (() => SecretStore) | undefined;

/**
 * Hands the process's secret store to the layers that may reach no adapter (the data layer signs
 * page cursors with it): each function's entry calls it with `secretStoreFromConfig`, the local
 * runtime with its own.
 */
export function useSecretStore(source: () => SecretStore): void {
  installed = source;
}

/** The store `useSecretStore` handed over. */
export function secretStore(): SecretStore {
  if (!installed) throw new Error('No secret store: the function entry must call useSecretStore');
  return installed();
}
