import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from '../../../../shared/auth/password';
import { digestsEqual, randomToken, sha256Hex, TOKEN_PREFIX } from '../../../../shared/platform/tokens';
import { ID_PATTERN, newId } from '../../../../shared/platform/ids';
import { PRESETS } from '../../../../shared/api-keys/scopes';
import { SCOPES } from '../../../../shared/platform/contract/scopes';

describe('secrets and ids', () => {
  it('API keys carry 256 random bits after fl_live_ and hash to 32 bytes', () => {
    const a = randomToken(TOKEN_PREFIX.apiKey);
    expect(a).toMatch(/^fl_live_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(a.slice(8), 'base64url')).toHaveLength(32);
    expect(new Set(Array.from({ length: 1000 }, () => randomToken('x'))).size).toBe(1000);
    expect(digestsEqual(sha256Hex(a), sha256Hex(a))).toBe(true);
    expect(digestsEqual(sha256Hex(a), sha256Hex(`${a}x`))).toBe(false);
    expect(digestsEqual(sha256Hex(a), 'abcd')).toBe(false);
  });

  it('ids have the prefix, the pattern, and sort by creation time', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 47 }), fc.integer({ min: 1, max: 2 ** 40 }), (t, dt) => {
        const a = newId('mbr', t);
        const b = newId('mbr', t + dt);
        expect(a).toMatch(ID_PATTERN('mbr'));
        expect(a < b).toBe(true);
      }),
    );
  });

  it('presets map onto the canonical scope list', () => {
    for (const scopes of Object.values(PRESETS)) for (const s of scopes) expect(SCOPES).toContain(s);
    expect(PRESETS['read-only'].every((s) => s.endsWith(':read'))).toBe(true);
    expect(PRESETS.write).not.toContain('api_keys:manage');
  });
});

describe('password hashing (scrypt)', () => {
  it('verifies the right password only, with a per-hash salt', async () => {
    const h1 = await hashPassword('correct horse battery');
    const h2 = await hashPassword('correct horse battery');
    expect(h1).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(h1).not.toBe(h2);
    expect(await verifyPassword('correct horse battery', h1)).toBe(true);
    expect(await verifyPassword('correct horse batterY', h1)).toBe(false);
    expect(await verifyPassword('x', 'plain')).toBe(false);
  });
});
