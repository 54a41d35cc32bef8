import { describe, expect, it } from 'vitest';
import { call, mailsTo, registerAccount, uniqueEmail } from '../support/api';
import { cli } from '../support/cli';

/** `loyalty team`: invite, list, revoke, change a role, remove, with an owner session. */

const json = (r: { stdout: string }) => JSON.parse(r.stdout);

describe('loyalty team', { timeout: 180_000 }, () => {
  it('invites, lists and revokes an invitation; lists members, changes a role and removes a member', async () => {
    const owner = await registerAccount('cli-team');
    const run = (args: string[]) => cli(['team', ...args], { env: { LOYALTY_SESSION_TOKEN: owner.token } });
    const email = uniqueEmail('cli-invitee');
    const invited = await run(['invite', email, '--role', 'admin', '--json']);
    expect(invited.code, invited.stderr).toBe(0);
    expect(json(invited)).toMatchObject({ email, role: 'admin', status: 'pending' });
    expect((await mailsTo(email)).filter((m) => m.template === 'team_invitation')).toHaveLength(1);
    const listed = await run(['invitations']);
    expect(listed.stdout).toContain(email);
    expect((await run(['revoke', json(invited).id])).stdout).toContain(`Revoked ${json(invited).id}`);
    expect(json(await run(['invitations', '--json']))[0].status).toBe('revoked');

    // A second user (invited and accepted over HTTP), then a role change and a removal from the CLI.
    // Without --role the invitation offers what the console's form does first: support.
    const plain = uniqueEmail('cli-plain');
    expect(json(await run(['invite', plain, '--json']))).toMatchObject({ email: plain, role: 'support' });
    const other = uniqueEmail('cli-member');
    await run(['invite', other, '--role', 'member']);
    const token = decodeURIComponent((await mailsTo(other)).at(-1)!.text.match(/#token=(\S+)/)![1]!);
    const accepted = await call('POST', '/api/flash/team/invitations/accept', { body: { token, password: 'a long enough password' } });
    const userId = accepted.body.data.user.id as string;
    const members = await run(['members']);
    expect(members.stdout).toContain(other);
    expect((await run(['role', userId, 'admin'])).stdout).toContain(`${other} is now admin`);
    const wrong = await run(['role', userId, 'boss']);
    expect(wrong.code).toBe(2);
    const lastOwner = await run(['role', owner.userId, 'member']);
    expect(lastOwner.code).toBe(1);
    expect(lastOwner.stderr).toContain('CONFLICT');
    expect((await run(['remove', userId, '--yes'])).stdout).toContain(`Removed ${userId}`);
    expect(json(await run(['members', '--json'])).map((u: { id: string }) => u.id)).toEqual([owner.userId]);
  });

  it('needs an admin session: an API key alone is refused with how to sign in (exit 2)', async () => {
    const r = await cli(['team', 'members'], { env: { LOYALTY_API_KEY: 'fl_live_x' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('needs an owner or admin session');
  });
});
