import { beforeAll, describe, expect, inject, it } from 'vitest';
import * as accounts from '../../../../shared/auth/accounts-repository';
import { sha256Hex } from '../../../../shared/platform/tokens';
import type { SessionRecord } from '../../../../shared/auth/entities';
import { registerAccount } from '../../../support/api';
import { runtimeOf } from '../../../support/platform';

/**
 * The writes that make a second factor single-use, against the platform's table: the service checks
 * the stored user first, but two requests that read it at the same moment both pass that check, and
 * then only the write's condition stands between them. Here the repository is called the way those
 * two requests would call it, after the same read.
 */

beforeAll(async () => {
  const runtime = await runtimeOf(inject('dataDir'));
  Object.assign(process.env, { STAGE: 'local', TABLE_NAME: runtime.tableName, DYNAMODB_ENDPOINT: runtime.dynamodbEndpoint, AWS_REGION: 'eu-west-1' });
});

const SECRET = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';

async function userWithMfa() {
  const acc = await registerAccount('mfa-writes');
  const user = { workspaceId: acc.workspaceId, id: acc.userId };
  await accounts.putPendingMfa(user, { secret: SECRET, startedAt: new Date().toISOString() });
  await accounts.enableMfa(user, { secret: SECRET, enabledAt: new Date().toISOString(), lastStep: 100, recovery: { [sha256Hex('r1')]: true } }, []);
  return user;
}

async function challengeOf(user: { workspaceId: string; id: string }) {
  const challenge = {
    tokenHash: sha256Hex(`c-${Math.random()}`),
    workspaceId: user.workspaceId,
    userId: user.id,
    emailHash: 'e',
    browser: false,
    expiresAt: 9_999_999_999,
  };
  await accounts.putMfaChallenge(challenge);
  return challenge;
}

const sessionOf = (user: { workspaceId: string; id: string }): SessionRecord => ({
  tokenHash: sha256Hex(`s-${Math.random()}`),
  workspaceId: user.workspaceId,
  userId: user.id,
  generation: 1,
  createdAt: new Date().toISOString(),
  expiresAt: 9_999_999_999,
});

describe('a second factor is taken once', () => {
  it('a recovery code: the second sign-in that read it as unused is refused by the write', async () => {
    const user = await userWithMfa();
    const use = { recoveryHash: sha256Hex('r1') };
    await accounts.completeMfaSignIn(await challengeOf(user), user, SECRET, use, sessionOf(user), []);
    await expect(accounts.completeMfaSignIn(await challengeOf(user), user, SECRET, use, sessionOf(user), [])).rejects.toBeInstanceOf(accounts.MfaCodeTaken);
    expect((await accounts.getUser(user.workspaceId, user.id))?.mfa?.recovery).toEqual({});
  });

  it("a code's step: the same step, or an older one, is refused by the write; a later one is taken", async () => {
    const user = await userWithMfa();
    await accounts.completeMfaSignIn(await challengeOf(user), user, SECRET, { step: 101 }, sessionOf(user), []);
    await expect(accounts.completeMfaSignIn(await challengeOf(user), user, SECRET, { step: 101 }, sessionOf(user), [])).rejects.toBeInstanceOf(
      accounts.MfaCodeTaken,
    );
    await expect(accounts.completeMfaSignIn(await challengeOf(user), user, SECRET, { step: 100 }, sessionOf(user), [])).rejects.toBeInstanceOf(
      accounts.MfaCodeTaken,
    );
    await accounts.completeMfaSignIn(await challengeOf(user), user, SECRET, { step: 102 }, sessionOf(user), []);
    expect((await accounts.getUser(user.workspaceId, user.id))?.mfa?.lastStep).toBe(102);
  });

  it('a challenge opens one session', async () => {
    const user = await userWithMfa();
    const challenge = await challengeOf(user);
    await accounts.completeMfaSignIn(challenge, user, SECRET, { step: 101 }, sessionOf(user), []);
    await expect(accounts.completeMfaSignIn(challenge, user, SECRET, { step: 102 }, sessionOf(user), [])).rejects.toBeInstanceOf(accounts.MfaCodeTaken);
  });
});
