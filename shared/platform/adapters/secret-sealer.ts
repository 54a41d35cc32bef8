import { runtimeConfig } from '../config';
import type { KeyVault, SecretSealer } from '../ports/secret-sealer';
import { EnvelopeSealer } from './envelope-sealer';
import { KmsKeyVault } from './kms-key-vault';
import { provided } from './provided';

/** One sealer per vault, so its data-key cache lives as long as the container. */
const sealers = new WeakMap<KeyVault, SecretSealer>();
let kms: KeyVault | undefined;

/** The process's sealer of signing secrets: over the key vault the local runtime provides, else AWS KMS. */
export function secretSealerFromConfig(): SecretSealer {
  const vault = provided.keyVault ?? (kms ??= kmsVault());
  let sealer = sealers.get(vault);
  if (!sealer) sealers.set(vault, (sealer = new EnvelopeSealer(vault)));
  return sealer;
}

function kmsVault(): KeyVault {
  const cfg = runtimeConfig();
  if (!cfg.SIGNING_SECRETS_KEY_ARN) throw new Error('SIGNING_SECRETS_KEY_ARN is not set: this function declares no access to the signing-secrets key');
  return new KmsKeyVault(cfg.SIGNING_SECRETS_KEY_ARN, cfg.AWS_REGION);
}
