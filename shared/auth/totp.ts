/**
 * Time-based one-time codes (RFC 6238, the authenticator apps' 6 digits every 30 seconds) and the
 * recovery codes that stand in for them: what is accepted, at which step, with no store and no clock
 * of its own (the caller passes `now` and the last step it accepted).
 */
import { randomBytes } from 'node:crypto';
import { generateSecret, generateURI, verify } from 'otplib';
import { sha256Hex } from '../platform/tokens';

export const TOTP_PERIOD_SECONDS = 30;
/** Codes of the step before and after now are accepted too: a phone's clock and a slow typist. */
export const TOTP_WINDOW_STEPS = 1;

/** The step a moment falls in (RFC 6238's counter T). */
export const stepAt = (now: Date): number => Math.floor(now.getTime() / 1000 / TOTP_PERIOD_SECONDS);

export const newTotpSecret = (): string => generateSecret();

/** What an authenticator app scans (or is told) to add the account. */
export const otpauthUri = (issuer: string, account: string, secret: string): string => generateURI({ issuer, label: account, secret });

/** A code as people type it: spaces and dashes left out. */
export const normaliseTotp = (code: string): string => code.replace(/[\s-]/g, '');

/**
 * The step a code was made for, when it is the secret's code for a step within the window around
 * `now` and after `lastStep` (a code is accepted once: neither it nor an older one is taken again).
 */
export async function acceptedStep(secret: string, code: string, now: Date, lastStep: number): Promise<number | undefined> {
  const token = normaliseTotp(code);
  if (!/^\d{6}$/.test(token)) return undefined;
  const current = stepAt(now);
  const result = await verify({
    secret,
    token,
    // At the start of the current step, so the window is whole steps whatever second of it `now` is.
    epoch: current * TOTP_PERIOD_SECONDS,
    epochTolerance: TOTP_WINDOW_STEPS * TOTP_PERIOD_SECONDS,
  });
  if (!result.valid) return undefined;
  const step = current + result.delta;
  return step > lastStep ? step : undefined;
}

/** No 0/O, 1/I/L or U: read off a sheet of paper without ambiguity. */
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstvwxyz23456789';
const RECOVERY_LENGTH = 10;

/** One recovery code, `xxxxx-xxxxx`: 10 characters of a 30-letter alphabet, about 49 random bits. */
export function newRecoveryCode(random: (n: number) => Buffer = randomBytes): string {
  const bytes = random(RECOVERY_LENGTH);
  let code = '';
  for (let i = 0; i < RECOVERY_LENGTH; i++) code += RECOVERY_ALPHABET[bytes[i]! % RECOVERY_ALPHABET.length];
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

/** A recovery code as typed (any case, with or without its dash and spaces), in the form it was issued. */
export function normaliseRecoveryCode(typed: string): string | undefined {
  const bare = typed.toLowerCase().replace(/[\s-]/g, '');
  if (bare.length !== RECOVERY_LENGTH || [...bare].some((c) => !RECOVERY_ALPHABET.includes(c))) return undefined;
  return `${bare.slice(0, 5)}-${bare.slice(5)}`;
}

/** How a recovery code is stored: its SHA-256 (a code is random and used once, so a fast hash is enough). */
export const recoveryCodeHash = (code: string): string => sha256Hex(`recovery:${code}`);
