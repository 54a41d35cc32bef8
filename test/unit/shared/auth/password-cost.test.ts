import { randomBytes, scryptSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { config, passwordSettings } from '../../../../shared/platform/config';
import { verifyPassword } from '../../../../shared/auth/password';

describe('the cost of new password hashes', () => {
  it('is the static cost in AWS whatever the environment says, and locally unless lowered', () => {
    expect(config.scrypt.N).toBe(2 ** 15);
    expect(passwordSettings({ PASSWORD_SCRYPT_N: '1024' })).toEqual({ N: 2 ** 15 });
    expect(passwordSettings({ STAGE: 'aws', PASSWORD_SCRYPT_N: '1024' })).toEqual({ N: 2 ** 15 });
    expect(passwordSettings({ STAGE: 'local' })).toEqual({ N: 2 ** 15 });
    expect(passwordSettings({ STAGE: 'local', PASSWORD_SCRYPT_N: '' })).toEqual({ N: 2 ** 15 });
  });

  it('may be lowered by a local runtime to a power of two from 1024 to 2^20, and nothing else', () => {
    expect(passwordSettings({ STAGE: 'local', PASSWORD_SCRYPT_N: '1024' })).toEqual({ N: 1024 });
    expect(passwordSettings({ STAGE: 'local', PASSWORD_SCRYPT_N: String(2 ** 20) })).toEqual({ N: 2 ** 20 });
    for (const bad of ['512', '1000', '1536', String(2 ** 21), 'fast', '-1024']) {
      expect(() => passwordSettings({ STAGE: 'local', PASSWORD_SCRYPT_N: bad }), bad).toThrow(
        `PASSWORD_SCRYPT_N must be a power of two from 1024 to 1048576, got ${bad}`,
      );
    }
  });

  it('travels with each hash: a hash made at another cost still verifies', async () => {
    const salt = randomBytes(16);
    const key = scryptSync('correct horse battery', salt, 32, { N: 1024, r: 8, p: 1 });
    const stored = ['scrypt', 1024, 8, 1, salt.toString('base64'), key.toString('base64')].join('$');
    expect(await verifyPassword('correct horse battery', stored)).toBe(true);
    expect(await verifyPassword('correct horse batterY', stored)).toBe(false);
  });
});
