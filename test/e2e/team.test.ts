import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, inject, it } from 'vitest';
import { config } from '../../shared/platform/config';
import { keyOf } from '../../shared/platform/data/keys';
import { type Account, browserSignIn, call, mailsTo, PASSWORD, registerAccount, uniqueEmail } from '../support/api';
import { sha256Hex } from '../../shared/platform/tokens';
import { ROLE_SUMMARIES } from '../../shared/platform/contract/roles';
import { platformTable } from '../support/table';

/**
 * The team over HTTP: invitations mailed as a link that works once and expires, accepted with a
 * password; roles (only an owner grants or removes `owner`), the last owner kept even against two
 * parallel demotions, removal ending sessions, workspaces kept apart, every change audited, and the
 * console's cookie needing its CSRF token.
 */

const STRONG = 'a new strong password';

/** The token of the newest invitation mailed to `email`, read from the link's fragment. */
async function invitationToken(email: string): Promise<string> {
  const mails = (await mailsTo(email)).filter((m) => m.template === 'team_invitation');
  const link = mails.at(-1)?.text.match(/(https?:\/\/\S+\/console\/accept#token=(\S+))/);
  if (!link) throw new Error(`no invitation mailed to ${email}`);
  return decodeURIComponent(link[2]!);
}

async function invite(token: string, role: string, email = uniqueEmail(role)) {
  const res = await call('POST', '/api/flash/team/invitations', { token, body: { email, role } });
  return { res, email };
}

/** Invites, accepts and signs in: a second user of the workspace with `role`. */
async function joined(owner: Account, role: string): Promise<Account> {
  const { res, email } = await invite(owner.token, role);
  expect(res.status).toBe(201);
  const accepted = await call('POST', '/api/flash/team/invitations/accept', { body: { token: await invitationToken(email), password: STRONG } });
  expect(accepted.status).toBe(201);
  const login = await call('POST', '/api/v2/auth/login', { body: { email, password: STRONG } });
  expect(login.status).toBe(200);
  return { email, password: STRONG, token: login.body.data.session.token, workspaceId: owner.workspaceId, userId: accepted.body.data.user.id };
}

const auditOf = async (token: string, action: string) => (await call('GET', `/api/flash/audit?action=${action}`, { token })).body.data as any[];
const membersOf = async (token: string) => (await call('GET', '/api/flash/team/members', { token })).body.data as any[];
const accept = (token: string, password = STRONG) => call('POST', '/api/flash/team/invitations/accept', { body: { token, password } });

describe('team: invitations', () => {
  it('mails a link with the token in the fragment; accepting creates the user with the role, once; both are audited', async () => {
    const owner = await registerAccount('team-flow');
    const { res, email } = await invite(owner.token, 'admin');
    expect(res.body.data).toMatchObject({ email, role: 'admin', status: 'pending', invitedBy: owner.userId, acceptedAt: null, userId: null });
    expect(Date.parse(res.body.data.expiresAt) - Date.parse(res.body.data.createdAt)).toBe(config.team.invitationTtlSeconds * 1000);
    const [mail] = (await mailsTo(email)).filter((m) => m.template === 'team_invitation');
    expect(mail!.text).toContain(`${inject('baseUrl')}/console/accept#token=fl_inv_`);
    const token = await invitationToken(email);
    // Only its hash is stored.
    const stored = JSON.stringify((await call('GET', '/api/flash/team/invitations', { token: owner.token })).body);
    expect(stored).not.toContain(token);

    const accepted = await call('POST', '/api/flash/team/invitations/accept', { body: { token, password: STRONG, name: 'Alan' } });
    expect(accepted.status).toBe(201);
    expect(accepted.body.data.user).toMatchObject({ email, name: 'Alan', role: 'admin', workspaceId: owner.workspaceId });
    expect(accepted.body.data.workspace.id).toBe(owner.workspaceId);
    // Single use.
    expect((await accept(token)).status).toBe(410);
    const login = await call('POST', '/api/v2/auth/login', { body: { email, password: STRONG } });
    expect(login.status).toBe(200);
    expect((await membersOf(login.body.data.session.token)).map((u) => u.email).sort()).toEqual([email, owner.email].sort());
    const [inv] = (await call('GET', '/api/flash/team/invitations', { token: owner.token })).body.data;
    expect(inv).toMatchObject({ status: 'accepted', userId: accepted.body.data.user.id });
    expect(inv.acceptedAt).not.toBeNull();

    const [invited] = await auditOf(owner.token, 'team.invited');
    expect(invited).toMatchObject({ actor: { type: 'user', id: owner.userId }, target: { type: 'invitation', id: inv.id } });
    const [acceptedEntry] = await auditOf(owner.token, 'team.invitation_accepted');
    expect(acceptedEntry).toMatchObject({ actor: { type: 'user', id: accepted.body.data.user.id }, target: { type: 'invitation', id: inv.id } });
  });

  it('the link names whom it joins: the mail and the preview say the workspace, the inviter and the role; the preview changes nothing', async () => {
    const owner = await registerAccount('team-preview', { name: 'Ada Lovelace' });
    const { email } = await invite(owner.token, 'support');
    const [mail] = (await mailsTo(email)).filter((m) => m.template === 'team_invitation');
    expect(mail!.subject).toBe(`Ada Lovelace (${owner.email}) invited you to team-preview workspace on the loyalty platform`);
    expect(mail!.text).toContain(`Ada Lovelace (${owner.email}) invited you to join team-preview workspace as support: ${ROLE_SUMMARIES.support}.`);
    const token = await invitationToken(email);
    const preview = (token_: string) => call('POST', '/api/flash/team/invitations/preview', { body: { token: token_ } });
    const seen = await preview(token);
    expect(seen.status, JSON.stringify(seen.body)).toBe(200);
    expect(seen.body.data).toEqual({
      workspace: { name: 'team-preview workspace' },
      email,
      role: 'support',
      roleSummary: ROLE_SUMMARIES.support,
      invitedBy: { name: 'Ada Lovelace', email: owner.email },
      expiresAt: expect.any(String),
    });
    // Looking changes nothing: the invitation is still pending and can be accepted.
    expect((await accept(token)).status).toBe(201);
    // Once used, the preview answers as acceptance does; an unknown token is 400.
    expect((await preview(token)).status).toBe(410);
    expect((await preview('fl_inv_unknown')).status).toBe(400);
  });

  it('parallel acceptances of one link create one user', async () => {
    const owner = await registerAccount('team-race');
    const { email } = await invite(owner.token, 'member');
    const token = await invitationToken(email);
    const statuses = (await Promise.all(Array.from({ length: 5 }, () => accept(token)))).map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s !== 201).every((s) => s === 410 || s === 409)).toBe(true);
    expect((await membersOf(owner.token)).filter((u) => u.email === email)).toHaveLength(1);
  });

  it('a revoked invitation is refused (410), cannot be revoked again (409), and the revocation is audited', async () => {
    const owner = await registerAccount('team-revoke');
    const { res, email } = await invite(owner.token, 'admin');
    const id = res.body.data.id;
    expect((await call('DELETE', `/api/flash/team/invitations/${id}`, { token: owner.token })).status).toBe(204);
    expect((await accept(await invitationToken(email))).status).toBe(410);
    expect((await call('DELETE', `/api/flash/team/invitations/${id}`, { token: owner.token })).status).toBe(409);
    const [inv] = (await call('GET', '/api/flash/team/invitations', { token: owner.token })).body.data;
    expect(inv).toMatchObject({ id, status: 'revoked' });
    expect((await auditOf(owner.token, 'team.invitation_revoked')).map((e) => e.target.id)).toEqual([id]);
    expect((await call('POST', '/api/v2/auth/login', { body: { email, password: STRONG } })).status).toBe(401);
  });

  it('an invitation past its expiry reads as expired and is refused (410); an unknown token is a 400', async () => {
    const owner = await registerAccount('team-expiry');
    const { res, email } = await invite(owner.token, 'member');
    const { doc, tableName } = await platformTable();
    await doc.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keyOf('invitation', { workspaceId: owner.workspaceId, invitationId: res.body.data.id }),
        UpdateExpression: 'SET expiresAt = :past',
        ExpressionAttributeValues: { ':past': new Date(Date.now() - 1000).toISOString() },
      }),
    );
    const [inv] = (await call('GET', '/api/flash/team/invitations', { token: owner.token })).body.data;
    expect(inv.status).toBe('expired');
    const refused = await accept(await invitationToken(email));
    expect(refused.status).toBe(410);
    expect(refused.body.error.code).toBe('GONE');
    expect((await accept(`fl_inv_${'x'.repeat(43)}`)).status).toBe(400);
    expect((await accept('not-a-token')).status).toBe(400);
  });

  it('refuses an e-mail already in the team (409), an e-mail with an account elsewhere at acceptance (409), and bad fields one detail each (422)', async () => {
    const owner = await registerAccount('team-dupes');
    expect((await invite(owner.token, 'admin', owner.email)).res.status).toBe(409);
    const elsewhere = await registerAccount('team-elsewhere');
    const { res } = await invite(owner.token, 'admin', elsewhere.email);
    expect(res.status).toBe(201);
    expect((await accept(await invitationToken(elsewhere.email))).status).toBe(409);
    const bad = await call('POST', '/api/flash/team/invitations', { token: owner.token, body: { email: 'nope', role: 'boss' } });
    expect(bad.status).toBe(422);
    expect(bad.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual(['email', 'role']);
    const { email } = await invite(owner.token, 'member');
    const weak = await accept(await invitationToken(email), 'short');
    expect(weak.status).toBe(422);
    expect(weak.body.error.details.map((d: { field: string }) => d.field)).toEqual(['password']);
    expect((await accept(await invitationToken(email))).status).toBe(201);
  });

  it('an Idempotency-Key replays the invitation: one invitation, one mail', async () => {
    const owner = await registerAccount('team-idem');
    const email = uniqueEmail('idem');
    const send = () =>
      call('POST', '/api/flash/team/invitations', { token: owner.token, headers: { 'idempotency-key': `inv-${email}` }, body: { email, role: 'member' } });
    const [first, second] = [await send(), await send()];
    expect(second.body.data.id).toBe(first.body.data.id);
    expect((await call('GET', '/api/flash/team/invitations', { token: owner.token })).body.data).toHaveLength(1);
    expect((await mailsTo(email)).filter((m) => m.template === 'team_invitation')).toHaveLength(1);
  });
});

describe('team: roles and members', () => {
  it('only an owner grants, changes or removes owner; admins manage admins and members; members manage nothing', async () => {
    const owner = await registerAccount('team-roles');
    const admin = await joined(owner, 'admin');
    const member = await joined(owner, 'member');
    expect((await invite(admin.token, 'owner')).res.status).toBe(403);
    expect((await call('PATCH', `/api/flash/team/members/${owner.userId}`, { token: admin.token, body: { role: 'admin' } })).status).toBe(403);
    expect((await call('DELETE', `/api/flash/team/members/${owner.userId}`, { token: admin.token })).status).toBe(403);
    expect((await call('PATCH', `/api/flash/team/members/${member.userId}`, { token: admin.token, body: { role: 'owner' } })).status).toBe(403);
    for (const [method, path] of [
      ['GET', '/api/flash/team/members'],
      ['GET', '/api/flash/team/invitations'],
      ['DELETE', `/api/flash/team/members/${admin.userId}`],
    ] as const) {
      expect((await call(method, path, { token: member.token })).status, `${method} ${path}`).toBe(403);
    }
    // An admin makes the member an admin: it applies from the next request.
    const promoted = await call('PATCH', `/api/flash/team/members/${member.userId}`, { token: admin.token, body: { role: 'admin' } });
    expect(promoted.body.data).toMatchObject({ id: member.userId, role: 'admin' });
    expect((await call('GET', '/api/flash/team/members', { token: member.token })).status).toBe(200);
    // The owner makes the admin an owner.
    expect((await call('PATCH', `/api/flash/team/members/${admin.userId}`, { token: owner.token, body: { role: 'owner' } })).body.data.role).toBe('owner');
    const changes = await auditOf(owner.token, 'team.role_changed');
    expect(changes.map((e) => e.target.id).sort()).toEqual([admin.userId, member.userId].sort());
    expect(changes.find((e) => e.target.id === member.userId).actor).toMatchObject({ type: 'user', id: admin.userId });
  });

  it('the last owner can be neither demoted nor removed', async () => {
    const owner = await registerAccount('team-last');
    const demote = await call('PATCH', `/api/flash/team/members/${owner.userId}`, { token: owner.token, body: { role: 'admin' } });
    expect(demote.status).toBe(409);
    expect(demote.body.error.message).toMatch(/must keep an owner/);
    expect((await call('DELETE', `/api/flash/team/members/${owner.userId}`, { token: owner.token })).status).toBe(409);
    expect((await membersOf(owner.token))[0]).toMatchObject({ id: owner.userId, role: 'owner' });
  });

  it('two owners demoting each other at once: one succeeds, one is refused, one owner stays', async () => {
    for (let round = 0; round < 3; round++) {
      const a = await registerAccount('team-twin');
      const b = await joined(a, 'owner');
      const [ab, ba] = await Promise.all([
        call('PATCH', `/api/flash/team/members/${b.userId}`, { token: a.token, body: { role: 'admin' } }),
        call('PATCH', `/api/flash/team/members/${a.userId}`, { token: b.token, body: { role: 'admin' } }),
      ]);
      // The refused one is 409 when it was checked before the other's demotion committed, or 403 when
      // its sender was already an admin by the time it was read (an admin may not change an owner).
      const refused = [ab.status, ba.status].sort()[1];
      expect([ab.status, ba.status].sort()[0], `round ${round}`).toBe(200);
      expect([403, 409], `round ${round}`).toContain(refused);
      const roles = (await membersOf(ab.status === 200 ? a.token : b.token)).map((u) => u.role).sort();
      expect(roles).toEqual(['admin', 'owner']);
    }
  });

  it('two owners removing each other at once leave one owner', async () => {
    const a = await registerAccount('team-twin-rm');
    const b = await joined(a, 'owner');
    const [ab, ba] = await Promise.all([
      call('DELETE', `/api/flash/team/members/${b.userId}`, { token: a.token }),
      call('DELETE', `/api/flash/team/members/${a.userId}`, { token: b.token }),
    ]);
    const statuses = [ab.status, ba.status].sort();
    // The second one is refused, either as the last owner (409) or because its caller is gone (401).
    expect(statuses[0]).toBe(204);
    expect([401, 409]).toContain(statuses[1]);
    const survivor = ab.status === 204 ? a : b;
    expect((await membersOf(survivor.token)).map((u) => u.role)).toEqual(['owner']);
  });

  it('removing a member ends their sessions and login, and is audited', async () => {
    const owner = await registerAccount('team-remove');
    const admin = await joined(owner, 'admin');
    expect((await call('GET', '/api/flash/team/members', { token: admin.token })).status).toBe(200);
    expect((await call('DELETE', `/api/flash/team/members/${admin.userId}`, { token: owner.token })).status).toBe(204);
    expect((await call('GET', '/api/flash/team/members', { token: admin.token })).status).toBe(401);
    expect((await call('POST', '/api/v2/auth/login', { body: { email: admin.email, password: STRONG } })).status).toBe(401);
    expect((await membersOf(owner.token)).map((u) => u.id)).toEqual([owner.userId]);
    expect((await call('DELETE', `/api/flash/team/members/${admin.userId}`, { token: owner.token })).status).toBe(404);
    const [entry] = await auditOf(owner.token, 'team.member_removed');
    expect(entry).toMatchObject({ actor: { type: 'user', id: owner.userId }, target: { type: 'user', id: admin.userId } });
    // The e-mail is free again: it can be invited back.
    expect((await invite(owner.token, 'member', admin.email)).res.status).toBe(201);
  });

  it('lists page by page with a cursor', async () => {
    const owner = await registerAccount('team-pages');
    await joined(owner, 'member');
    await joined(owner, 'admin');
    const first = await call('GET', '/api/flash/team/members?limit=2', { token: owner.token });
    expect(first.body.data).toHaveLength(2);
    const second = await call('GET', `/api/flash/team/members?limit=2&cursor=${encodeURIComponent(first.body.nextCursor)}`, { token: owner.token });
    expect(second.body.data).toHaveLength(1);
    expect(second.body.nextCursor).toBeNull();
    const ids = [...first.body.data, ...second.body.data].map((u: { id: string }) => u.id);
    expect(new Set(ids).size).toBe(3);
  });
});

describe('team: sessions', () => {
  it('a person sees their own live sessions and ends one: that token is refused, the others keep working; audited; no one else reaches them', async () => {
    const owner = await registerAccount('sessions-own');
    const second = (await call('POST', '/api/v2/auth/login', { body: { email: owner.email, password: owner.password } })).body.data.session.token as string;
    const browser = await browserSignIn(owner.email, owner.password);
    const listed = await call('GET', '/api/flash/sessions', { token: owner.token });
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    const sessions = listed.body.data as { id: string; kind: string; current: boolean; lastSeenAt: string | null }[];
    expect(sessions.map((x) => x.kind).sort()).toEqual(['api', 'api', 'console']);
    expect(sessions.filter((x) => x.current)).toHaveLength(1);
    expect(sessions.find((x) => x.kind === 'console')!.lastSeenAt).not.toBeNull();
    // No answer holds a token or its hash.
    const text = JSON.stringify(listed.body);
    for (const token of [owner.token, second, browser.token!]) {
      expect(text).not.toContain(token);
      expect(text).not.toContain(sha256Hex(token));
    }
    // Which one is `second`: the one its own list marks as current.
    const secondId = ((await call('GET', '/api/flash/sessions', { token: second })).body.data as { id: string; current: boolean }[]).find((x) => x.current)!.id;
    const admin = await joined(owner, 'admin');
    // Another person, even an admin of the same workspace, cannot end it.
    expect((await call('DELETE', `/api/flash/sessions/${secondId}`, { token: admin.token })).status).toBe(404);
    expect((await call('DELETE', `/api/flash/sessions/${secondId}`, { token: owner.token })).status).toBe(204);
    expect((await call('GET', '/api/flash/sessions', { token: second })).status).toBe(401);
    expect((await call('GET', '/api/flash/sessions', { token: owner.token })).body.data.map((x: { id: string }) => x.id)).not.toContain(secondId);
    expect((await call('GET', '/api/flash/session', { headers: { cookie: browser.cookie } })).status).toBe(200);
    expect((await call('DELETE', `/api/flash/sessions/${secondId}`, { token: owner.token })).status).toBe(404);
    const [entry] = await auditOf(owner.token, 'auth.session_ended');
    expect(entry).toMatchObject({ actor: { type: 'user', id: owner.userId }, target: { type: 'user', id: owner.userId } });
  });

  it('an owner ends every session of a team member (an admin may not); the login stays', async () => {
    const owner = await registerAccount('sessions-owner');
    const admin = await joined(owner, 'admin');
    const again = (await call('POST', '/api/v2/auth/login', { body: { email: admin.email, password: STRONG } })).body.data.session.token as string;
    const refused = await call('DELETE', `/api/flash/team/members/${owner.userId}/sessions`, { token: admin.token });
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toBe("Only an owner ends another person's sessions");
    expect((await call('GET', '/api/flash/sessions', { token: owner.token })).status).toBe(200);
    expect((await call('DELETE', `/api/flash/team/members/${admin.userId}/sessions`, { token: owner.token })).status).toBe(204);
    for (const token of [admin.token, again]) expect((await call('GET', '/api/flash/sessions', { token })).status).toBe(401);
    expect((await call('POST', '/api/v2/auth/login', { body: { email: admin.email, password: STRONG } })).status).toBe(200);
    expect((await call('DELETE', '/api/flash/team/members/usr_01jzzzzzzzzzzzzzzzzzzzzzzz/sessions', { token: owner.token })).status).toBe(404);
    const [entry] = await auditOf(owner.token, 'team.sessions_ended');
    expect(entry).toMatchObject({ actor: { type: 'user', id: owner.userId }, target: { type: 'user', id: admin.userId } });
  });
});

describe('team: isolation and the console cookie', () => {
  it("another workspace's admin sees nothing of this team and changes nothing (404)", async () => {
    const mine = await registerAccount('team-iso-a');
    const theirs = await registerAccount('team-iso-b');
    const member = await joined(mine, 'member');
    const { res } = await invite(mine.token, 'admin');
    expect((await membersOf(theirs.token)).map((u) => u.id)).toEqual([theirs.userId]);
    expect((await call('GET', '/api/flash/team/invitations', { token: theirs.token })).body.data).toEqual([]);
    expect((await call('PATCH', `/api/flash/team/members/${member.userId}`, { token: theirs.token, body: { role: 'admin' } })).status).toBe(404);
    expect((await call('DELETE', `/api/flash/team/members/${member.userId}`, { token: theirs.token })).status).toBe(404);
    expect((await call('DELETE', `/api/flash/team/invitations/${res.body.data.id}`, { token: theirs.token })).status).toBe(404);
    expect((await membersOf(mine.token)).find((u) => u.id === member.userId).role).toBe('member');
    expect((await call('GET', '/api/flash/team/invitations', { token: mine.token })).body.data[0].status).toBe('pending');
  });

  it('a write with the console cookie needs our Origin and the CSRF token; a refused one invites nobody', async () => {
    const owner = await registerAccount('team-cookie');
    const session = await call('POST', '/api/flash/session', { body: { email: owner.email, password: PASSWORD } });
    const cookie = (session.headers.get('set-cookie') ?? '').split(';')[0]!;
    const csrf = session.body.data.session.csrfToken as string;
    const body = { email: uniqueEmail('cookie'), role: 'member' };
    const origin = inject('baseUrl');
    const refused: Record<string, string>[] = [
      { cookie },
      { cookie, origin },
      { cookie, origin: 'https://evil.example', [config.browserSession.csrfHeader]: csrf },
    ];
    for (const headers of refused) {
      expect((await call('POST', '/api/flash/team/invitations', { headers, body })).status).toBe(403);
    }
    expect((await call('GET', '/api/flash/team/invitations', { headers: { cookie } })).body.data).toEqual([]);
    expect(await mailsTo(body.email)).toEqual([]);
    const made = await call('POST', '/api/flash/team/invitations', { headers: { cookie, origin, [config.browserSession.csrfHeader]: csrf }, body });
    expect(made.status).toBe(201);
  });
});

describe('team: the invitations of a removed or demoted inviter', () => {
  const invitationsOf = async (token: string) => (await call('GET', '/api/flash/team/invitations', { token })).body.data as any[];
  const statusOf = async (token: string, id: string) => (await invitationsOf(token)).find((i) => i.id === id)?.status;

  it("a removed admin's pending invitations are revoked with them (links 410, audited); the others' stay", async () => {
    const owner = await registerAccount('team-inviter-removed');
    const admin = await joined(owner, 'admin');
    const byAdmin = [await invite(admin.token, 'member'), await invite(admin.token, 'admin')];
    const byOwner = await invite(owner.token, 'member');
    expect((await call('DELETE', `/api/flash/team/members/${admin.userId}`, { token: owner.token })).status).toBe(204);
    for (const { res, email } of byAdmin) {
      expect(await statusOf(owner.token, res.body.data.id)).toBe('revoked');
      expect((await accept(await invitationToken(email))).status).toBe(410);
    }
    expect(await statusOf(owner.token, byOwner.res.body.data.id)).toBe('pending');
    const revoked = await auditOf(owner.token, 'team.invitation_revoked');
    expect(revoked.map((e) => e.target.id).sort()).toEqual(byAdmin.map((i) => i.res.body.data.id).sort());
    expect(revoked.every((e) => e.actor.id === owner.userId)).toBe(true);
    expect((await accept(await invitationToken(byOwner.email))).status).toBe(201);
  });

  it("demoted to member: all of the inviter's pending invitations are revoked; an owner made admin loses only the owner invitations", async () => {
    const owner = await registerAccount('team-inviter-demoted');
    const admin = await joined(owner, 'admin');
    const adminSent = await invite(admin.token, 'member');
    const coOwner = await joined(owner, 'owner');
    const ownerSent = { owner: await invite(coOwner.token, 'owner'), admin: await invite(coOwner.token, 'admin') };
    expect((await call('PATCH', `/api/flash/team/members/${admin.userId}`, { token: owner.token, body: { role: 'member' } })).status).toBe(200);
    expect(await statusOf(owner.token, adminSent.res.body.data.id)).toBe('revoked');
    expect((await call('PATCH', `/api/flash/team/members/${coOwner.userId}`, { token: owner.token, body: { role: 'admin' } })).status).toBe(200);
    expect(await statusOf(owner.token, ownerSent.owner.res.body.data.id)).toBe('revoked');
    expect(await statusOf(owner.token, ownerSent.admin.res.body.data.id)).toBe('pending');
    expect((await accept(await invitationToken(ownerSent.owner.email))).status).toBe(410);
    expect((await accept(await invitationToken(ownerSent.admin.email))).status).toBe(201);
  });

  it('an invitation the revocation missed (sent while its inviter was removed) cannot be accepted either', async () => {
    const owner = await registerAccount('team-inviter-race');
    const admin = await joined(owner, 'admin');
    const { res, email } = await invite(admin.token, 'member');
    expect((await call('DELETE', `/api/flash/team/members/${admin.userId}`, { token: owner.token })).status).toBe(204);
    // As if it had been written just after the removal read the invitations: pending again.
    const { doc, tableName } = await platformTable();
    await doc.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keyOf('invitation', { workspaceId: owner.workspaceId, invitationId: res.body.data.id }),
        UpdateExpression: 'SET #status = :pending REMOVE revokedAt',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':pending': 'pending' },
      }),
    );
    const refused = await accept(await invitationToken(email));
    expect(refused.status).toBe(410);
    expect(refused.body.error.code).toBe('GONE');
    expect((await membersOf(owner.token)).map((u) => u.id)).toEqual([owner.userId]);
  });
});
