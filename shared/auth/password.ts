import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { config, passwordSettings } from '../platform/config';

const { r, p, keyLength, saltLength } = config.scrypt;
/** Read at the first hash: the local runtime sets its environment before any request. */
let cost: number | undefined;

function derive(password: string, salt: Buffer, opts: ScryptOptions, length: number): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, length, { ...opts, maxmem: 256 * 1024 * 1024 }, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

/** `scrypt$N$r$p$salt$hash`: parameters travel with the hash, so they can be raised later. */
export async function hashPassword(password: string): Promise<string> {
  const N = (cost ??= passwordSettings().N);
  const salt = randomBytes(saltLength);
  const key = await derive(password, salt, { N, r, p }, keyLength);
  return ['scrypt', N, r, p, salt.toString('base64'), key.toString('base64')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, rr, pp, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const key = await derive(password, Buffer.from(salt, 'base64'), { N: Number(n), r: Number(rr), p: Number(pp) }, expected.length);
  return timingSafeEqual(key, expected);
}

/** A real hash of nothing: unknown e-mails still pay one scrypt, so timing does not reveal accounts. */
let dummy: Promise<string> | undefined;
export const dummyPasswordHash = (): Promise<string> => (dummy ??= hashPassword(randomBytes(16).toString('hex')));
