import { randomBytes } from 'node:crypto';

const CROCKFORD = '0123456789abcdefghjkmnpqrstvwxyz';

function base32(bytes: Uint8Array, length: number): string {
  let out = '';
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5 && out.length < length) {
      out += CROCKFORD[(buffer >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return out;
}

/**
 * `<prefix>_<10 chars of ms time><16 random chars>`: ULID layout, lower case. Ids sort by creation
 * time, which lets lists read a key range in order instead of sorting.
 */
export function newId(prefix: string, now = Date.now()): string {
  return `${idTimePrefix(prefix, now)}${base32(randomBytes(10), 16)}`;
}

/**
 * `<prefix>_<10 chars of ms time>`: every id made at `ms` starts with it and sorts after it, and
 * every id made before `ms` sorts before it. So `[idTimePrefix(from), idTimePrefix(to))` is a key
 * range of the ids made in `[from, to)`. Times before 1970 count as 1970.
 */
export function idTimePrefix(prefix: string, ms: number): string {
  let time = '';
  let t = Math.max(0, Math.floor(ms));
  for (let i = 0; i < 10; i++) {
    time = CROCKFORD[t % 32] + time;
    t = Math.floor(t / 32);
  }
  return `${prefix}_${time}`;
}

export const ID_PATTERN = (prefix: string): RegExp => new RegExp(`^${prefix}_[0-9a-hjkmnp-tv-z]{26}$`);
