import { describe, expect, it } from 'vitest';
import { generate } from 'otplib';
import { browserSignIn, call, PASSWORD, registerAccount, type Account } from '../support/api';
import { scanItems } from '../support/table';

/**
 * Two-factor sign-in over HTTP. Codes are computed here from the secret with the same library; the
 * server accepts the step before and after its own, so a code made for "now + k steps" (k in 0..1)
 * is current for the server whatever second the request lands in. Each accepted code must be of a
 * later step than the one before (no replay), hence the offsets.
 */
const codeAt = (secret: string, stepsAhead = 0) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + stepsAhead * 30 });

async function enrol(acc: Pick<Account, 'token'>) {
  const started = await call('POST', '/api/flash/mfa/enrolment', { token: acc.token });
  expect(started.status).toBe(201);
  const { secret, otpauthUri } = started.body.data;
  const confirmed = await call('POST', '/api/flash/mfa/confirm', { token: acc.token, body: { code: await codeAt(secret, -1) } });
  expect(confirmed.status).toBe(200);
  return { secret, otpauthUri, recoveryCodes: confirmed.body.data.recoveryCodes as string[] };
}

const passwordStep = (email: string, password = PASSWORD) => call('POST', '/api/v2/auth/login', { body: { email, password } });

async function auditActions(acc: Account, action: string) {
  const res = await call('GET', `/api/flash/audit?action=${action}`, { token: acc.token });
  return res.body.data as { action: string; outcome: string; reason: string | null }[];
}

describe('two-factor sign-in: enrolment', () => {
  it('hands out a secret and URI, is on only once a code confirms it, answers 10 recovery codes once and never the secret again', async () => {
    const acc = await registerAccount('mfa-enrol');
    const started = await call('POST', '/api/flash/mfa/enrolment', { token: acc.token });
    expect(started.status).toBe(201);
    const { secret, otpauthUri } = started.body.data;
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    expect(otpauthUri).toMatch(new RegExp(`^otpauth://totp/.+\\?secret=${secret}&issuer=`));
    expect(otpauthUri).toContain(encodeURIComponent(acc.email));

    // Not on before the confirmation: signing in still gives a session.
    expect((await call('GET', '/api/flash/mfa', { token: acc.token })).body.data).toMatchObject({ enabled: false, recoveryCodesLeft: 0 });
    expect((await passwordStep(acc.email)).body.data.session.token).toMatch(/^fl_sess_/);

    const wrong = await call('POST', '/api/flash/mfa/confirm', { token: acc.token, body: { code: '000000' } });
    expect(wrong.status).toBe(422);
    expect(wrong.body.error.details).toEqual([expect.objectContaining({ field: 'code' })]);

    const confirmed = await call('POST', '/api/flash/mfa/confirm', { token: acc.token, body: { code: await codeAt(secret) } });
    expect(confirmed.status).toBe(200);
    const codes = confirmed.body.data.recoveryCodes as string[];
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const c of codes) expect(c).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);

    const status = await call('GET', '/api/flash/mfa', { token: acc.token });
    expect(status.body.data).toMatchObject({ enabled: true, recoveryCodesLeft: 10, required: false });
    expect(JSON.stringify(status.body)).not.toContain(secret);
    // A second enrolment is refused while it is on (no way to read the secret again).
    expect((await call('POST', '/api/flash/mfa/enrolment', { token: acc.token })).status).toBe(409);
    // Stored: the recovery codes only as hashes.
    const [stored] = await scanItems('entity = :e AND id = :id', { ':e': 'user', ':id': acc.userId });
    expect(JSON.stringify(stored)).not.toContain(codes[0]);
    expect(Object.keys(stored!.mfa.recovery)).toHaveLength(10);
    expect((await auditActions(acc, 'auth.mfa_enabled')).map((e) => e.outcome)).toEqual(['success']);
  });

  it('turns off with a current code or the password, never with a wrong one; audited', async () => {
    const acc = await registerAccount('mfa-off');
    const { secret } = await enrol(acc);
    const bad = await call('POST', '/api/flash/mfa/disable', { token: acc.token, body: { password: 'not the password at all' } });
    expect(bad.status).toBe(422);
    expect((await call('POST', '/api/flash/mfa/disable', { token: acc.token, body: { code: '000000' } })).status).toBe(422);
    expect((await call('POST', '/api/flash/mfa/disable', { token: acc.token, body: { code: await codeAt(secret) } })).status).toBe(204);
    expect((await call('GET', '/api/flash/mfa', { token: acc.token })).body.data.enabled).toBe(false);
    expect((await passwordStep(acc.email)).body.data.session.token).toMatch(/^fl_sess_/);
    // Again, with the password this time.
    await enrol(acc);
    expect((await call('POST', '/api/flash/mfa/disable', { token: acc.token, body: { password: PASSWORD } })).status).toBe(204);
    expect((await call('POST', '/api/flash/mfa/disable', { token: acc.token, body: { password: PASSWORD } })).status).toBe(409);
    expect(await auditActions(acc, 'auth.mfa_disabled')).toHaveLength(2);
  });
});

describe('two-factor sign-in: the second step', () => {
  it('the password gives a challenge, not a session; a current code gives the session; the same code again is refused', async () => {
    const acc = await registerAccount('mfa-signin');
    const { secret } = await enrol(acc);
    const first = await passwordStep(acc.email);
    expect(first.status).toBe(200);
    expect(first.body.data).not.toHaveProperty('session');
    const { challenge, methods } = first.body.data.mfa;
    expect(challenge).toMatch(/^fl_mfa_/);
    expect(methods).toEqual(['totp', 'recovery_code']);
    // The challenge is no session.
    expect((await call('GET', '/api/v2/auth/profile', { token: challenge })).status).toBe(401);

    const code = await codeAt(secret, 1);
    const done = await call('POST', '/api/v2/auth/login/mfa', { body: { challenge, code } });
    expect(done.status).toBe(200);
    expect(done.body.data.user.id).toBe(acc.userId);
    expect((await call('GET', '/api/v2/auth/profile', { token: done.body.data.session.token })).status).toBe(200);
    // The challenge ended with it.
    expect((await call('POST', '/api/v2/auth/login/mfa', { body: { challenge, code } })).status).toBe(401);
    // The same code on a new challenge: a replay within its step, refused.
    const again = await passwordStep(acc.email);
    const replay = await call('POST', '/api/v2/auth/login/mfa', { body: { challenge: again.body.data.mfa.challenge, code } });
    expect(replay.status).toBe(401);
    expect(replay.body.error.message).toBe('Invalid code');
  });

  it('a wrong code is refused, audited, and counts toward the sign-in throttle with the wrong passwords', async () => {
    const acc = await registerAccount('mfa-throttle');
    const { secret } = await enrol(acc);
    const { challenge } = (await passwordStep(acc.email)).body.data.mfa;
    const wrong = await call('POST', '/api/v2/auth/login/mfa', { body: { challenge, code: '000000' } });
    expect(wrong.status).toBe(401);
    // The allowance is 5 per window (config.auth.loginFailureLimit): the right password stays counted
    // until the code is right too, then two wrong codes and two wrong passwords fill it.
    expect((await passwordStep(acc.email, 'wrong password one')).status).toBe(401);
    expect((await call('POST', '/api/v2/auth/login/mfa', { body: { challenge, code: '111111' } })).status).toBe(401);
    expect((await passwordStep(acc.email, 'wrong password two')).status).toBe(401);
    const limited = await call('POST', '/api/v2/auth/login/mfa', { body: { challenge, code: await codeAt(secret, 1) } });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    const refusals = await auditActions(acc, 'auth.login_failed');
    expect(refusals.map((e) => e.reason).sort()).toEqual(['wrong_code', 'wrong_code', 'wrong_password', 'wrong_password']);
  });

  it('a recovery code works once, also when sent twice at the same moment', async () => {
    const acc = await registerAccount('mfa-recovery');
    const { recoveryCodes } = await enrol(acc);
    const challenges = await Promise.all([passwordStep(acc.email), passwordStep(acc.email), passwordStep(acc.email)]);
    const [a, b, c] = challenges.map((r) => r.body.data.mfa.challenge as string);
    // Typed in capitals without its dash: still that code.
    const typed = recoveryCodes[3]!.toUpperCase().replace('-', '');
    const results = await Promise.all([a, b].map((challenge) => call('POST', '/api/v2/auth/login/mfa', { body: { challenge, recoveryCode: typed } })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 401]);
    expect((await call('POST', '/api/v2/auth/login/mfa', { body: { challenge: c, recoveryCode: recoveryCodes[3] } })).status).toBe(401);
    expect((await call('GET', '/api/flash/mfa', { token: acc.token })).body.data.recoveryCodesLeft).toBe(9);
  });

  it('the console signs in in two steps: no cookie after the password, the cookie after the code', async () => {
    const acc = await registerAccount('mfa-console');
    const { secret } = await enrol(acc);
    const first = await browserSignIn(acc.email);
    expect(first.res.status).toBe(200);
    expect(first.setCookie).toBe('');
    const { challenge } = first.res.body.data.mfa;
    // A bearer challenge is not a console one, nor the other way round.
    expect((await call('POST', '/api/v2/auth/login/mfa', { body: { challenge, code: await codeAt(secret, 1) } })).status).toBe(401);
    const done = await call('POST', '/api/flash/session/mfa', { body: { challenge, code: await codeAt(secret, 1) } });
    expect(done.status).toBe(200);
    expect(done.headers.get('set-cookie')).toMatch(/HttpOnly/);
    expect(done.body.data.session).toMatchObject({ csrfToken: expect.any(String), mfaEnrolmentRequired: false });
  });
});

describe('two-factor sign-in: required by the workspace', () => {
  it('an owner or admin requires it (audited); a member without it who signs in may only enrol, then everything', async () => {
    const owner = await registerAccount('mfa-required');
    expect((await call('GET', '/api/flash/team/security', { token: owner.token })).body.data).toEqual({ mfaRequired: false });
    const set = await call('PUT', '/api/flash/team/security', { token: owner.token, body: { mfaRequired: true } });
    expect(set.status).toBe(200);
    expect(set.body.data).toEqual({ mfaRequired: true });
    expect((await call('PUT', '/api/flash/team/security', { token: owner.token, body: { mfaRequired: true } })).status).toBe(200);
    expect((await auditActions(owner, 'workspace.mfa_required')).length).toBe(1);

    // The owner's session from before the change is not affected; a new sign-in is.
    expect((await call('GET', '/api/v2/api-keys', { token: owner.token })).status).toBe(200);
    const token = (await passwordStep(owner.email)).body.data.session.token as string;
    const blocked = await call('GET', '/api/v2/api-keys', { token });
    expect(blocked.status).toBe(403);
    expect(blocked.body.error.code).toBe('MFA_ENROLMENT_REQUIRED');
    expect((await call('GET', '/api/flash/team/members', { token })).body.error.code).toBe('MFA_ENROLMENT_REQUIRED');
    expect((await call('GET', '/api/flash/sessions', { token })).status).toBe(403);
    // What stays open: the profile, the two-factor routes, signing out.
    expect((await call('GET', '/api/v2/auth/profile', { token })).status).toBe(200);
    expect((await call('GET', '/api/flash/mfa', { token })).body.data).toMatchObject({ enabled: false, required: true });

    await enrol({ token });
    expect((await call('GET', '/api/v2/api-keys', { token })).status).toBe(200);
    expect((await call('GET', '/api/flash/team/members', { token })).status).toBe(200);
  });

  it('the console session says it must enrol', async () => {
    const owner = await registerAccount('mfa-required-console');
    await call('PUT', '/api/flash/team/security', { token: owner.token, body: { mfaRequired: true } });
    const signedIn = await browserSignIn(owner.email);
    expect(signedIn.res.body.data.session.mfaEnrolmentRequired).toBe(true);
    const again = await call('GET', '/api/flash/session', { headers: { cookie: signedIn.cookie } });
    expect(again.body.data.session.mfaEnrolmentRequired).toBe(true);
    const refused = await call('GET', '/api/flash/program', { headers: { cookie: signedIn.cookie } });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('MFA_ENROLMENT_REQUIRED');
  });
});
