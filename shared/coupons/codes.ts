import { randomInt } from 'node:crypto';
import { CODE_PATTERN } from './schemas';

/** Upper-case Crockford base32: no I, L, O or U, so codes read aloud and typed survive. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** `<prefix><length random characters>`, from a CSPRNG (codes must not be guessable). */
export function generateCode(prefix: string | null, length: number): string {
  let out = prefix ?? '';
  for (let i = 0; i < length; i++) out += ALPHABET[randomInt(ALPHABET.length)];
  return out;
}

/** The key of a code's lookup item: codes are unique per workspace regardless of case. */
export const codeKey = (code: string): string => code.toUpperCase();

/** Whether a presented code can exist at all (generated codes fit the upload pattern too). */
export const isCodeShaped = (code: string): boolean => CODE_PATTERN.test(code);
