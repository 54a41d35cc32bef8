import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { config, runtimeConfig } from '../config';
import { logger } from '../observability/logger';
import { traceClient } from '../observability/tracing';
import { SECRET_ARN_ENV, type SecretName, type SecretStore, type SecretVersions } from '../ports/secrets';
import { provided } from './provided';

/** What one read of a secret gave: the previous value counts only until `previousUntil` (ms). */
interface Read {
  current: string;
  previous?: string;
  previousUntil: number;
}

interface Entry {
  readAt: number;
  value: Promise<Read>;
}

type Send = Pick<SecretsManagerClient, 'send'>;

/**
 * Secrets from AWS Secrets Manager, by the ARN CDK put in the function's environment (only on the
 * functions that declare the secret). Each is read on first use and kept for the instance's life;
 * once `config.secrets.refreshMs` has passed, the next use gets the kept value while one read runs
 * behind it (a failed one keeps the old value until the next period). So only an instance's first
 * use waits for Secrets Manager. Right after a rotation (the current version younger than
 * `previousAcceptedMs`) the previous version is read too, and offered until that time is up.
 */
export class SecretsManagerStore implements SecretStore {
  readonly #entries = new Map<SecretName, Entry>();

  constructor(
    private readonly arns: Readonly<Partial<Record<SecretName, string>>>,
    private readonly client: Send = traceClient(new SecretsManagerClient({ region: runtimeConfig().AWS_REGION })),
    private readonly now: () => number = Date.now,
  ) {}

  async versions(name: SecretName): Promise<SecretVersions> {
    const arn = this.arns[name];
    if (!arn) throw new Error(`${SECRET_ARN_ENV[name]} is not set: this function declares no access to the ${name} secret`);
    const now = this.now();
    const entry = this.#entries.get(name);
    if (!entry) {
      const first: Entry = { readAt: now, value: this.read(arn) };
      this.#entries.set(name, first);
      // A failed first read is not kept: the next use tries again.
      first.value.catch(() => this.#entries.get(name) === first && this.#entries.delete(name));
      return visible(await first.value, now);
    }
    if (now - entry.readAt >= config.secrets.refreshMs) this.refresh(name, arn, entry, now);
    return visible(await entry.value, now);
  }

  /** Reads again behind the kept value; one attempt per period, whatever its outcome. */
  private refresh(name: SecretName, arn: string, entry: Entry, now: number): void {
    entry.readAt = now;
    this.read(arn).then(
      (read) => {
        entry.value = Promise.resolve(read);
      },
      (error: unknown) => logger.warn('secret.refresh_failed', { event: 'secret.refresh_failed', secret: name, error: error as Error }),
    );
  }

  private async read(arn: string): Promise<Read> {
    const current = await this.client.send(new GetSecretValueCommand({ SecretId: arn }));
    if (!current.SecretString) throw new Error(`secret ${arn} holds no string`);
    const previousUntil = (current.CreatedDate?.getTime() ?? 0) + config.secrets.previousAcceptedMs;
    if (this.now() >= previousUntil) return { current: current.SecretString, previousUntil };
    const previous = await this.client.send(new GetSecretValueCommand({ SecretId: arn, VersionStage: 'AWSPREVIOUS' })).then(
      (out) => out.SecretString,
      // None before the first rotation (ResourceNotFoundException); any other failure only loses the overlap.
      () => undefined,
    );
    return { current: current.SecretString, ...(previous ? { previous } : {}), previousUntil };
  }
}

const visible = (read: Read, now: number): SecretVersions =>
  read.previous !== undefined && now < read.previousUntil ? { current: read.current, previous: read.previous } : { current: read.current };

let aws: SecretStore | undefined;

/** The process's secret store: the local runtime's, else Secrets Manager by the ARNs in the environment. */
export function secretStoreFromConfig(): SecretStore {
  if (provided.secrets) return provided.secrets;
  if (!aws) {
    const cfg = runtimeConfig();
    const arns = Object.fromEntries(Object.entries(SECRET_ARN_ENV).map(([name, env]) => [name, cfg[env]]));
    aws = new SecretsManagerStore(arns);
  }
  return aws;
}
