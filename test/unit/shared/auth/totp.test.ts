import { describe, expect, it } from 'vitest';
import { generate } from 'otplib';
import {
  acceptedStep,
  newRecoveryCode,
  newTotpSecret,
  normaliseRecoveryCode,
  normaliseTotp,
  otpauthUri,
  recoveryCodeHash,
  stepAt,
  TOTP_PERIOD_SECONDS,
  TOTP_WINDOW_STEPS,
} from '../../../../shared/auth/totp';

// RFC 6238's own test secret ("12345678901234567890" in base32) and a fixed clock: no 30-second boundary to race.
const SECRET = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
const NOW = new Date('2026-03-20T08:00:10.000Z'); // 10 s into its step
const STEP = Math.floor(NOW.getTime() / 1000 / 30);
const codeOf = (step: number) => generate({ secret: SECRET, epoch: step * 30 });

describe('TOTP steps and the window', () => {
  it('a step is 30 seconds, counted from the epoch; the window is one step either side', () => {
    expect(TOTP_PERIOD_SECONDS).toBe(30);
    expect(TOTP_WINDOW_STEPS).toBe(1);
    expect(stepAt(new Date(0))).toBe(0);
    expect(stepAt(new Date(29_999))).toBe(0);
    expect(stepAt(new Date(30_000))).toBe(1);
    expect(stepAt(NOW)).toBe(STEP);
  });

  it("matches RFC 6238's SHA-1 test vector (59 s: 94287082, of which the app shows the last 6 digits)", async () => {
    expect(await acceptedStep(SECRET, '287082', new Date(59_000), 0)).toBe(1);
  });

  it('accepts the code of the step before, the current one and the one after, answering that step', async () => {
    expect(await acceptedStep(SECRET, await codeOf(STEP - 1), NOW, 0)).toBe(STEP - 1);
    expect(await acceptedStep(SECRET, await codeOf(STEP), NOW, 0)).toBe(STEP);
    expect(await acceptedStep(SECRET, await codeOf(STEP + 1), NOW, 0)).toBe(STEP + 1);
  });

  it('refuses codes two steps away, whatever second of the step now is', async () => {
    for (const now of [new Date(STEP * 30_000), NOW, new Date(STEP * 30_000 + 29_999)]) {
      expect(await acceptedStep(SECRET, await codeOf(STEP - 2), now, 0)).toBeUndefined();
      expect(await acceptedStep(SECRET, await codeOf(STEP + 2), now, 0)).toBeUndefined();
      expect(await acceptedStep(SECRET, await codeOf(STEP + 1), now, 0)).toBe(STEP + 1);
      expect(await acceptedStep(SECRET, await codeOf(STEP - 1), now, 0)).toBe(STEP - 1);
    }
  });

  it('refuses the step last accepted and older ones (no replay), accepts a later one', async () => {
    expect(await acceptedStep(SECRET, await codeOf(STEP), NOW, STEP)).toBeUndefined();
    expect(await acceptedStep(SECRET, await codeOf(STEP - 1), NOW, STEP)).toBeUndefined();
    expect(await acceptedStep(SECRET, await codeOf(STEP), NOW, STEP - 1)).toBe(STEP);
    expect(await acceptedStep(SECRET, await codeOf(STEP + 1), NOW, STEP)).toBe(STEP + 1);
  });

  it('takes a code typed with spaces or a dash; refuses anything but 6 digits, and another secret', async () => {
    const code = await codeOf(STEP);
    expect(await acceptedStep(SECRET, ` ${code.slice(0, 3)} ${code.slice(3)} `, NOW, 0)).toBe(STEP);
    expect(await acceptedStep(SECRET, `${code.slice(0, 3)}-${code.slice(3)}`, NOW, 0)).toBe(STEP);
    expect(await acceptedStep(SECRET, `${code}0`, NOW, 0)).toBeUndefined();
    expect(await acceptedStep(SECRET, code.slice(1), NOW, 0)).toBeUndefined();
    expect(await acceptedStep(SECRET, `x${code.slice(1)}`, NOW, 0)).toBeUndefined();
    expect(await acceptedStep(newTotpSecret(), code, NOW, 0)).toBeUndefined();
    expect(normaliseTotp(' 12 3-456 ')).toBe('123456');
  });
});

describe('secrets and the otpauth URI', () => {
  it('a new secret is base32 of at least 128 bits, a new one each time', () => {
    const a = newTotpSecret();
    expect(a).toMatch(/^[A-Z2-7]{26,}$/);
    expect(newTotpSecret()).not.toBe(a);
  });

  it('names the issuer and the account', () => {
    expect(otpauthUri('Loyalty platform', 'ada@example.com', SECRET)).toBe(
      `otpauth://totp/Loyalty%20platform:ada%40example.com?secret=${SECRET}&issuer=Loyalty%20platform`,
    );
  });
});

describe('recovery codes', () => {
  it('are xxxxx-xxxxx of an alphabet without look-alikes, drawn from the random bytes', () => {
    const bytes = Buffer.from([0, 1, 2, 29, 30, 31, 59, 60, 255, 100]);
    expect(newRecoveryCode(() => bytes)).toBe('abc9a-b9asm');
    for (let i = 0; i < 50; i++) expect(newRecoveryCode()).toMatch(/^[abcdefghjkmnpqrstvwxyz23456789]{5}-[abcdefghjkmnpqrstvwxyz23456789]{5}$/);
  });

  it('asks for exactly as many random bytes as characters', () => {
    const asked: number[] = [];
    newRecoveryCode((n) => {
      asked.push(n);
      return Buffer.alloc(n);
    });
    expect(asked).toEqual([10]);
  });

  it('are recognised however typed: any case, with or without the dash and spaces', () => {
    expect(normaliseRecoveryCode('abcde-fghjk')).toBe('abcde-fghjk');
    expect(normaliseRecoveryCode('ABCDEFGHJK')).toBe('abcde-fghjk');
    expect(normaliseRecoveryCode(' abcde fghjk ')).toBe('abcde-fghjk');
    expect(normaliseRecoveryCode('abcd-efghjk')).toBe('abcde-fghjk');
  });

  it('refuse the wrong length or letters outside the alphabet', () => {
    expect(normaliseRecoveryCode('abcde-fghj')).toBeUndefined();
    expect(normaliseRecoveryCode('abcde-fghjkm')).toBeUndefined();
    expect(normaliseRecoveryCode('abcde-fghj1')).toBeUndefined();
    expect(normaliseRecoveryCode('abcde-fghjo')).toBeUndefined();
    expect(normaliseRecoveryCode('')).toBeUndefined();
  });

  it('are stored as a SHA-256 that differs from the bare code hash', () => {
    expect(recoveryCodeHash('abcde-fghjk')).toMatch(/^[0-9a-f]{64}$/);
    expect(recoveryCodeHash('abcde-fghjk')).not.toBe(recoveryCodeHash('abcde-fghjm'));
  });
});
