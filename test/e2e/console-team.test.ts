import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Account, call, mailsTo, registerAccount, uniqueEmail } from '../support/api';
import { launchChromium } from '../support/browser';
import { ROLE_SUMMARIES } from '../../shared/platform/contract/roles';

/**
 * The Team screen in Chromium, the main flow "invite and accept": an owner invites from the Team
 * screen (with the keyboard only), the link is read from the mail the local mailer wrote under
 * DATA_DIR/mail/, the invitee opens it, sets a password and signs in; the audit log shows what this
 * made. Then a role change and a removal from the screen. axe-core checks every screen.
 */

const base = inject('baseUrl');
const SHOTS = new URL('../output/console/', import.meta.url).pathname;
const AXE = readFileSync(new URL('../../node_modules/axe-core/axe.min.js', import.meta.url), 'utf8');
const NEW_PASSWORD = 'invited and trusted';

let browser: Awaited<ReturnType<typeof launchChromium>>;
let owner: Account;

beforeAll(async () => {
  owner = await registerAccount('console-team');
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

async function signIn(page: Page, email: string, password: string): Promise<void> {
  await browser.context.clearCookies();
  await page.goto(`${base}/console`, { waitUntil: 'load', timeout: 60_000 });
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('navigation', { name: 'Console' }).waitFor();
}

async function expectAccessible(page: Page, screen: string): Promise<void> {
  await page.evaluate(AXE);
  const violations = await page.evaluate(async () => {
    const g = globalThis as any;
    const result = await g.axe.run(g.document, { resultTypes: ['violations'] });
    return result.violations
      .filter((v: { impact: string }) => v.impact === 'serious' || v.impact === 'critical')
      .map((v: { id: string; nodes: { target: string[] }[] }) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
  expect(violations, screen).toEqual([]);
}

const shot = async (page: Page, name: string) => {
  await mkdir(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}${name}.png`, fullPage: true });
};

async function openTeam(page: Page): Promise<void> {
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Team' }).click();
  await page.getByRole('heading', { name: 'Team', level: 1 }).waitFor();
  await page.getByRole('cell', { name: owner.email, exact: true }).waitFor();
}

/** The accept link of the newest invitation mailed to `email` (a file of the local mailer). */
async function acceptLink(email: string): Promise<string> {
  const mail = (await mailsTo(email)).filter((m) => m.template === 'team_invitation').at(-1);
  const link = mail?.text.match(/https?:\/\/\S+\/console\/accept#token=\S+/)?.[0];
  expect(link, `the invitation mail to ${email}`).toBeDefined();
  return link!;
}

describe('the Team screen (headless Chromium)', () => {
  const invitee = uniqueEmail('invitee');

  it('invite and accept: invited from the Team screen with the keyboard, the mailed link sets a password, the new user signs in', async () => {
    const page = await browser.context.newPage();
    await signIn(page, owner.email, owner.password);
    await openTeam(page);
    await page.getByText('No invitations yet.').waitFor();
    await expectAccessible(page, 'team (no invitations)');
    // Keyboard only: type the e-mail, Tab to the role, choose it with the arrows, Tab to the button, Enter.
    await page.getByLabel('Email').focus();
    await page.keyboard.type(invitee);
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => (globalThis as any).document.activeElement.name)).toBe('role');
    // The form offers the roles in their order (owner, admin, marketer, support, ...) and starts on support.
    expect(await page.locator('select[name="role"]').inputValue()).toBe('support');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    expect(await page.locator('select[name="role"]').inputValue()).toBe('admin');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page
      .getByRole('status')
      .filter({ hasText: `Invitation sent to ${invitee}` })
      .waitFor();
    await page.getByRole('row', { name: new RegExp(`${invitee} admin pending`) }).waitFor();

    // The invitee opens the mailed link in a signed-out browser.
    const link = await acceptLink(invitee);
    await browser.context.clearCookies();
    await page.goto(link, { waitUntil: 'load' });
    await page.getByRole('heading', { name: 'Accept your invitation' }).waitFor();
    // The token left the address bar at once.
    expect(page.url()).toBe(`${base}/console/accept`);
    // Before any password: whom they join, at whose invitation, with which job, under which login.
    await expect
      .poll(() => page.getByTestId('invitation').textContent())
      .toBe(`${owner.email} invited you to join console-team workspace as admin: ${ROLE_SUMMARIES.admin}. You will sign in as ${invitee}.`);
    await expectAccessible(page, 'accept');
    await page.getByLabel('Your name (optional)').fill('Ada Invited');
    await page.getByLabel('Choose a password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Join the team' }).click();
    await page.getByRole('heading', { name: `You joined ${'console-team workspace'}` }).waitFor();
    await expectAccessible(page, 'accepted');
    await page.getByRole('link', { name: 'sign in to the console' }).click();
    await page.getByLabel('Email').fill(invitee);
    await page.getByLabel('Password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Console' }).waitFor();
    expect(await page.getByText(invitee).count()).toBeGreaterThan(0);

    // The audit log (read by the new admin) shows the invitation and its acceptance.
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Audit log' }).click();
    await page.getByRole('heading', { name: 'Audit log', level: 1 }).waitFor();
    await page.getByRole('cell', { name: 'team.invitation_accepted' }).waitFor();
    await page.getByRole('cell', { name: 'team.invited' }).waitFor();
    const entries = (await call('GET', '/api/flash/audit', { token: owner.token })).body.data as { action: string; actor: { id: string } }[];
    const invited = entries.find((e) => e.action === 'team.invited');
    const accepted = entries.find((e) => e.action === 'team.invitation_accepted');
    expect(invited?.actor.id).toBe(owner.userId);
    const members = (await call('GET', '/api/flash/team/members', { token: owner.token })).body.data as { id: string; email: string; role: string }[];
    const joined = members.find((m) => m.email === invitee);
    expect(joined).toMatchObject({ role: 'admin' });
    expect(accepted?.actor.id).toBe(joined!.id);
    await page.close();
  });

  it('forgot password: asked from the sign-in form, the mailed link sets a new one, the old one no longer signs in', async () => {
    const forgetful = await registerAccount('console-reset');
    const page = await browser.context.newPage();
    await browser.context.clearCookies();
    await page.goto(`${base}/console`, { waitUntil: 'load', timeout: 60_000 });
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.getByRole('heading', { name: 'Forgot your password?' }).waitFor();
    await expectAccessible(page, 'forgot password');
    await page.getByLabel('Email').fill(forgetful.email);
    await page.getByRole('button', { name: 'Send the link' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `If ${forgetful.email} has an account` })
      .waitFor();

    const mail = (await mailsTo(forgetful.email)).filter((m) => m.template === 'password_reset').at(-1);
    const link = mail?.text.match(/https?:\/\/\S+\/console\/reset-password#token=\S+/)?.[0];
    expect(link, 'the reset mail links to the console').toBeDefined();
    // Opened from the mail: a tab of its own.
    await page.close();
    const page2 = await browser.context.newPage();
    await page2.goto(link!, { waitUntil: 'load' });
    await page2.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    // The token left the address bar at once; the rule is said before the first try.
    expect(page2.url()).toBe(`${base}/console/reset-password`);
    await page2.getByText(/At least \d+ characters/).waitFor();
    await expectAccessible(page2, 'reset password');
    await page2.getByLabel('New password', { exact: true }).fill('short');
    await page2.getByRole('button', { name: 'Set the password' }).click();
    await page2.getByRole('alert').waitFor();
    await page2.getByLabel('New password', { exact: true }).fill('a fresh start again');
    await page2.getByRole('button', { name: 'Set the password' }).click();
    await page2.getByRole('heading', { name: 'Your password is set' }).waitFor();
    await page2.getByRole('link', { name: 'Sign in with the new password' }).click();
    expect((await call('POST', '/api/v2/auth/login', { body: { email: forgetful.email, password: forgetful.password } })).status).toBe(401);
    await page2.getByLabel('Email').fill(forgetful.email);
    await page2.getByLabel('Password').fill('a fresh start again');
    await page2.getByRole('button', { name: 'Sign in' }).click();
    await page2.getByRole('navigation', { name: 'Console' }).waitFor();
    await page2.close();
  });

  it('changes a role and removes a member from the screen, asking before the removal', async () => {
    const page = await browser.context.newPage();
    await signIn(page, owner.email, owner.password);
    await openTeam(page);
    await page.getByRole('row', { name: new RegExp(`${invitee} admin accepted`) }).waitFor();
    await expectAccessible(page, 'team');
    await shot(page, 'team');
    await page.getByLabel(`Role of ${invitee}`, { exact: true }).selectOption('member');
    await page.getByRole('button', { name: `Save role of ${invitee}` }).click();
    await expect
      .poll(
        async () => (await call('GET', '/api/flash/team/members', { token: owner.token })).body.data.find((m: { email: string }) => m.email === invitee)?.role,
      )
      .toBe('member');
    // The list reloads after a save, and a reload puts every row's picker back to its stored role: a
    // fresh page, so the owner's pick below is not undone by the reload still on its way.
    await page.reload();
    await page.getByRole('heading', { name: 'Team', level: 1 }).waitFor();
    await page.getByRole('cell', { name: owner.email, exact: true }).waitFor();
    expect(await page.getByLabel(`Role of ${invitee}`, { exact: true }).inputValue()).toBe('member');
    // The last owner stays: the API's refusal is shown in its words.
    await page.getByLabel(`Role of ${owner.email}`, { exact: true }).selectOption('admin');
    await page.getByRole('button', { name: `Save role of ${owner.email}` }).click();
    await page.getByRole('alert').filter({ hasText: 'must keep an owner' }).waitFor();
    await page.getByRole('button', { name: `Remove ${invitee}` }).click();
    await page
      .getByRole('group', { name: `Confirm removing ${invitee}` })
      .getByRole('button', { name: 'Remove member' })
      .click();
    const memberRows = page.getByRole('table', { name: 'Members' });
    await expect.poll(() => memberRows.getByRole('cell', { name: invitee, exact: true }).count()).toBe(0);
    const members = (await call('GET', '/api/flash/team/members', { token: owner.token })).body.data as { email: string }[];
    expect(members.map((m) => m.email)).toEqual([owner.email]);
    expect((await call('POST', '/api/flash/session', { body: { email: invitee, password: NEW_PASSWORD } })).status).toBe(401);
    await page.close();
  });

  it('revokes a pending invitation only after confirming: Cancel keeps it, the confirmed revocation ends its link', async () => {
    const late = uniqueEmail('late-invitee');
    const invited = await call('POST', '/api/flash/team/invitations', { token: owner.token, body: { email: late, role: 'member' } });
    expect(invited.status).toBe(201);
    const statusOf = async () =>
      ((await call('GET', '/api/flash/team/invitations', { token: owner.token })).body.data as { email: string; status: string }[]).find(
        (i) => i.email === late,
      )?.status;
    const page = await browser.context.newPage();
    await signIn(page, owner.email, owner.password);
    await openTeam(page);
    await page.getByRole('row', { name: new RegExp(`${late} member pending`) }).waitFor();
    await page.getByRole('button', { name: `Revoke the invitation of ${late}` }).click();
    const confirm = page.getByRole('group', { name: `Confirm revoking the invitation of ${late}` });
    await expectAccessible(page, 'team (revoking an invitation)');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    expect(await confirm.count()).toBe(0);
    expect(await statusOf()).toBe('pending');
    await page.getByRole('button', { name: `Revoke the invitation of ${late}` }).click();
    await confirm.getByRole('button', { name: 'Revoke invitation' }).click();
    await page.getByRole('row', { name: new RegExp(`${late} member revoked`) }).waitFor();
    expect(await statusOf()).toBe('revoked');
    const token = (await acceptLink(late)).split('#token=')[1];
    const accepted = await call('POST', '/api/flash/team/invitations/accept', { body: { token, password: NEW_PASSWORD } });
    expect(accepted.status).toBe(410);
    await page.close();
  });
  it('sessions: the e-mail in the header opens your own, another one ends with a click; an owner ends a teammate’s from the Team screen', async () => {
    const person = await registerAccount('console-sessions');
    const script = (await call('POST', '/api/v2/auth/login', { body: { email: person.email, password: person.password } })).body.data.session.token as string;
    const mate = uniqueEmail('mate');
    expect((await call('POST', '/api/flash/team/invitations', { token: person.token, body: { email: mate, role: 'support' } })).status).toBe(201);
    const token = (await acceptLink(mate)).split('#token=')[1]!;
    expect((await call('POST', '/api/flash/team/invitations/accept', { body: { token: decodeURIComponent(token), password: NEW_PASSWORD } })).status).toBe(201);
    const mateToken = (await call('POST', '/api/v2/auth/login', { body: { email: mate, password: NEW_PASSWORD } })).body.data.session.token as string;

    const page = await browser.context.newPage();
    await signIn(page, person.email, person.password);
    await page.getByRole('link', { name: person.email }).click();
    await page.getByRole('heading', { name: 'Your sessions', level: 1 }).waitFor();
    await page.getByText('This session').waitFor();
    // The sign-up's token and the script's: both endable; this console session is not offered.
    const ends = page.getByRole('button', { name: /^End the session signed in/ });
    expect(await ends.count()).toBe(2);
    await expectAccessible(page, 'your sessions');
    await ends.first().click();
    await page
      .getByRole('status')
      .filter({ hasText: /^Ended the session signed in/ })
      .waitFor();
    await expect.poll(() => ends.count()).toBe(1);
    await ends.first().click();
    await expect.poll(() => ends.count()).toBe(0);
    for (const t of [person.token, script]) expect((await call('GET', '/api/flash/sessions', { token: t })).status).toBe(401);

    // As the owner, from the Team screen: the teammate is signed out everywhere, after confirming.
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Team' }).click();
    await page.getByRole('button', { name: `End sessions of ${mate}` }).click();
    await page.getByRole('button', { name: 'End every session', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'Signed out everywhere.' }).waitFor();
    expect((await call('GET', '/api/flash/sessions', { token: mateToken })).status).toBe(401);
    await page.close();
  });
});
