import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { config } from '../../shared/platform/config';
import { keyOf } from '../../shared/platform/data/keys';
import { sha256Hex } from '../../shared/platform/tokens';
import { type Account, call, registerAccount } from '../support/api';
import { type ConsoleBrowser, expectAccessible, openConsoleBrowser, shot } from '../support/console';
import { addUser, platformTable } from '../support/table';

/**
 * The console in a real browser (Debian's Chromium through playwright-core), against the running
 * platform: sign in, the API keys and audit log flows, sign out, a member who is not an admin, a
 * session that ends mid-edit. axe-core checks every screen; the page must need nothing from another
 * host and break no rule of its Content-Security-Policy. Screenshots go to test/output/console/.
 */

const base = inject('baseUrl');

let browser: ConsoleBrowser;
let owner: Account;

beforeAll(async () => {
  owner = await registerAccount('console-owner');
  browser = await openConsoleBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

const newTab = () => browser.newTab();
const signIn = (page: Parameters<ConsoleBrowser['signIn']>[0], email: string, password: string) => browser.signIn(page, email, password);

describe('the console (headless Chromium)', () => {
  it('is served at /console with a strict CSP, hashed cacheable gzip assets, and nothing from another host', async () => {
    const page = await fetch(`${base}/console/api-keys`, { headers: { 'accept-encoding': 'gzip' } });
    expect(page.status).toBe(200);
    // One other address it may call: the local bucket (s3rver), where an import file is PUT to its link.
    expect(page.headers.get('content-security-policy')).toMatch(
      /^default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self' http:\/\/127\.0\.0\.1:\d+; base-uri 'none'; form-action 'self'; frame-ancestors 'none'$/,
    );
    expect(page.headers.get('cache-control')).toBe('no-cache');
    const html = await page.text();
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)/);
    const script = html.match(/src="(\/console\/assets\/app-[A-Z0-9]+\.js)"/)?.[1];
    expect(script).toBeDefined();
    const asset = await fetch(`${base}${script}`, { headers: { 'accept-encoding': 'gzip' } });
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(asset.headers.get('content-encoding')).toBe('gzip');
    expect((await fetch(`${base}/console/assets/app-NOPE.js`)).status).toBe(404);
  });

  it('is named by the start banner of the runtime', () => {
    expect(inject('startOutput')).toContain(`Console: ${base}/console`);
  });

  it('signs in with the labelled form, shows the navigation, and is accessible', async () => {
    const page = await newTab();
    await browser.context.clearCookies();
    await page.goto(`${base}/console`, { waitUntil: 'load' });
    await page.getByRole('heading', { name: 'Sign in to the console' }).waitFor();
    await expectAccessible(page, 'sign-in');
    await shot(page, 'sign-in');
    // A wrong password: the API's own words and the request id, no navigation.
    await page.getByLabel('Email').fill(owner.email);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/Invalid e-mail or password.*UNAUTHORIZED|UNAUTHENTICATED.*Request id: /s);
    await page.getByLabel('Password').fill(owner.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const nav = page.getByRole('navigation', { name: 'Console' });
    await nav.waitFor();
    for (const name of ['Program', 'Exports', 'API keys', 'Wallet', 'Audit log']) expect(await nav.getByRole('link', { name }).count(), name).toBe(1);
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    await page.close();
  });

  it('creates a key shown once with a copy button, revokes one after confirmation, and the audit log shows both', async () => {
    const page = await newTab();
    await signIn(page, owner.email, owner.password);
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('heading', { name: 'API keys', level: 1 }).waitFor();
    await page.getByText('No API keys yet').waitFor();
    await expectAccessible(page, 'api-keys (empty)');
    await page.getByLabel('Name').fill('Checkout service');
    await page.getByLabel('Access').selectOption('write');
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = await page.getByTestId('new-key').textContent();
    expect(key).toMatch(/^fl_live_/);
    await page.getByRole('button', { name: 'Copy key' }).waitFor();
    await expectAccessible(page, 'api-keys (shown once)');
    await shot(page, 'api-keys');
    // The key works, and the list shows it without the secret.
    expect((await call('GET', '/api/v2/members', { token: key! })).status).toBe(200);
    await page.getByRole('button', { name: 'Done' }).click();
    expect(await page.getByTestId('new-key').count()).toBe(0);
    await page.getByRole('cell', { name: 'Checkout service', exact: true }).waitFor();
    // Revoking asks first; Cancel keeps the key.
    await page.getByRole('button', { name: 'Revoke Checkout service' }).click();
    await page.getByRole('button', { name: 'Cancel' }).click();
    expect((await call('GET', '/api/v2/members', { token: key! })).status).toBe(200);
    await page.getByRole('button', { name: 'Revoke Checkout service' }).click();
    await page.getByRole('group', { name: 'Confirm revoking Checkout service' }).getByRole('button', { name: 'Revoke key' }).click();
    await page.getByText('No API keys yet').waitFor();
    expect((await call('GET', '/api/v2/members', { token: key! })).status).toBe(401);
    // The audit log, filtered by action.
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Audit log' }).click();
    await page.getByRole('heading', { name: 'Audit log', level: 1 }).waitFor();
    await page.getByRole('cell', { name: 'api_key.revoked' }).waitFor();
    await page.getByLabel('Action').selectOption('api_key.created');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    // Before: both actions; while loading: none; filtered: the one created entry only.
    const cells = (name: string) => page.getByRole('cell', { name }).count();
    // The actor's cell is counted in the same poll: counted after it, a re-render between the two
    // counts (a reload of the page of rows) once read 0 under load.
    await expect.poll(async () => [await cells('api_key.created'), await cells('api_key.revoked'), await cells(owner.email)]).toEqual([1, 0, 1]);
    await expectAccessible(page, 'audit-log');
    await shot(page, 'audit-log');
    await page.close();
  });

  it('starts an archive and an operational export, follows them to a download link, and manages a schedule', async () => {
    const page = await newTab();
    await signIn(page, owner.email, owner.password);
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Exports' }).click();
    await page.getByRole('heading', { name: 'Exports', level: 1 }).waitFor();
    await page.getByText('No archive made yet.').waitFor();
    await expectAccessible(page, 'exports (empty)');
    // The workspace archive: started, then (Refresh) completed, with a link that downloads it.
    await page.getByRole('button', { name: 'Start an archive' }).click();
    const archiveLink = page.getByRole('button', { name: /^Get a download link for archive exp_/ });
    await expect
      .poll(
        async () => {
          await page.getByRole('button', { name: 'Refresh' }).click();
          return archiveLink.count();
        },
        { timeout: 60_000, interval: 1000 },
      )
      .toBe(1);
    await archiveLink.click();
    const archiveUrl = await page.getByRole('link', { name: /^Download archive exp_/ }).getAttribute('href');
    const archive = await fetch(archiveUrl!);
    expect(archive.status).toBe(200);
    expect(((await archive.json()) as { manifest: unknown }).manifest).toBeDefined();
    // Members as CSV: the job is followed until it completes.
    await page.getByLabel('What').selectOption('members');
    await page.getByLabel('Format').selectOption('csv');
    await page.getByRole('button', { name: 'Start the export' }).click();
    await page.getByRole('button', { name: 'Get a download link for members.csv' }).click({ timeout: 60_000 });
    const csvUrl = await page.getByRole('link', { name: 'Download members.csv' }).getAttribute('href');
    const csv = await (await fetch(csvUrl!)).text();
    expect(csv.split('\n')[0]).toMatch(/^id,/);
    // The finished file is listed with its expiry (written + 7 days) and a link minted anew on request.
    const [file] = (await call('GET', '/api/flash/exports', { token: owner.token })).body.data;
    expect(file).toMatchObject({ entity: 'members', format: 'csv', status: 'completed', scheduleId: null });
    expect(Date.parse(file.fileExpiresAt) - Date.parse(file.completedAt)).toBe(7 * 86_400_000);
    const files = page.getByRole('table', { name: 'Operational exports and scheduled runs, newest first' });
    await files.getByRole('cell', { name: new Date(file.fileExpiresAt).toLocaleString(), exact: true }).waitFor();
    // A presigned link is signed to the second: one asked for a second later must be another signature.
    await new Promise((r) => setTimeout(r, 1_100));
    await files.getByRole('button', { name: `Get a fresh link for members.csv ${file.id}` }).click();
    const fresh = await files.getByRole('link', { name: `Download members.csv ${file.id}` }).getAttribute('href');
    expect(fresh).not.toBe(csvUrl);
    expect((await (await fetch(fresh!)).text()).split('\n')[0]).toMatch(/^id,/);
    // A schedule: added, listed, deleted.
    await page.getByLabel('How often').selectOption('weekly');
    await page.getByLabel('Hour').fill('7');
    await page.getByLabel('Time zone').fill('Europe/Berlin');
    await page.getByRole('button', { name: 'Add the schedule' }).click();
    const schedule = 'orders as CSV, every monday at 07:00 Europe/Berlin';
    await page.getByText(schedule).waitFor();
    await expectAccessible(page, 'exports');
    await shot(page, 'exports');
    // Deleting asks first: Cancel keeps it, the confirmation deletes it.
    await page.getByRole('button', { name: `Delete the schedule: ${schedule}` }).click();
    const confirm = page.getByRole('group', { name: `Confirm deleting the schedule: ${schedule}` });
    await expectAccessible(page, 'exports (confirm deleting a schedule)');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    expect((await call('GET', '/api/flash/exports/schedules', { token: owner.token })).body.data).toHaveLength(1);
    await page.getByRole('button', { name: `Delete the schedule: ${schedule}` }).click();
    await confirm.getByRole('button', { name: 'Delete schedule' }).click();
    await page.getByText('No export runs on a schedule.').waitFor();
    const schedules = await call('GET', '/api/flash/exports/schedules', { token: owner.token });
    expect(schedules.body.data).toEqual([]);
    await page.close();
  });

  it('edits the program: a refused threshold is explained next to its field, a valid change is saved with its version', async () => {
    const page = await newTab();
    await signIn(page, owner.email, owner.password);
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Program' }).click();
    await page.getByRole('heading', { name: 'Program', level: 1 }).waitFor();
    await page.getByText('The defaults apply: nothing saved yet.').waitFor();
    // Thresholds must increase: the API's words appear next to the second tier's threshold.
    await page.getByLabel('Threshold of tier 2').fill('0');
    await page.getByRole('button', { name: 'Save the program' }).click();
    // Next to the field, and in the summary of the refusal (with the request id).
    await page.locator('#err-threshold-1').waitFor();
    expect(await page.getByRole('alert').textContent()).toContain('tiers.levels.1.threshold: thresholds must increase');
    expect(await page.getByLabel('Threshold of tier 2').getAttribute('aria-describedby')).toBe('err-threshold-1');
    expect(await page.locator('#err-threshold-1').textContent()).toBe('thresholds must increase');
    expect((await call('GET', '/api/flash/program', { token: owner.token })).body.data.version).toBe(0);
    await expectAccessible(page, 'program (refused)');
    await page.getByLabel('Threshold of tier 2').fill('750');
    await page.getByLabel('Points per 1.00 spent').fill('2');
    await page.getByRole('button', { name: 'Save the program' }).click();
    await page.getByText(/^Saved .*, version 1$/).waitFor();
    await shot(page, 'program');
    const program = (await call('GET', '/api/flash/program', { token: owner.token })).body.data;
    expect(program).toMatchObject({ version: 1, earn: { pointsPerUnit: 2 } });
    expect(program.tiers.levels[1].threshold).toBe(750);
    await page.close();
  });

  it('changes the wallet branding with a live preview of the card, saved and audited', async () => {
    const page = await newTab();
    await signIn(page, owner.email, owner.password);
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Wallet' }).click();
    await page.getByRole('heading', { name: 'Wallet', level: 1 }).waitFor();
    await page.getByText('The defaults apply: nothing saved yet.').waitFor();
    const front = page.getByTestId('pass-front');
    await page.getByLabel('Background colour').fill('#123456');
    await expect.poll(() => front.evaluate((el) => (el as unknown as { style: { backgroundColor: string } }).style.backgroundColor)).toBe('rgb(18, 52, 86)');
    await page.getByLabel('Text colour').fill('#ffffff');
    await page.getByLabel('Label colour').fill('#f5d76e');
    await expectAccessible(page, 'wallet');
    await shot(page, 'wallet');
    await page.getByRole('button', { name: 'Save branding' }).click();
    await page.getByText(/^Saved /).waitFor();
    const branding = await call('GET', '/api/flash/wallet/branding', { token: owner.token });
    expect(branding.body.data).toMatchObject({ backgroundColor: '#123456', foregroundColor: '#ffffff', labelColor: '#f5d76e' });
    const audit = await call('GET', '/api/flash/audit?action=wallet_branding.updated', { token: owner.token });
    expect(audit.body.data).toHaveLength(1);
    await page.close();
  });

  it('keeps what was typed when the session ends mid-edit, asks to sign in again, then submits once', async () => {
    const page = await newTab();
    await signIn(page, owner.email, owner.password);
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'API keys' }).click();
    await page.getByLabel('Name').waitFor();
    await page.getByLabel('Name').fill('Typed before the session ended');
    // The session ends server-side (as after the idle limit): the cookie's session is gone.
    const cookie = (await browser.context.cookies(base)).find((c) => c.name === config.browserSession.cookie)!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });
    const { doc, tableName } = await platformTable();
    await doc.send(new DeleteCommand({ TableName: tableName, Key: keyOf('session', { tokenHash: sha256Hex(cookie.value) }) }));
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByRole('heading', { name: 'Your session ended: sign in again' }).waitFor();
    await page.getByLabel('Email').fill(owner.email);
    await page.getByLabel('Password').fill(owner.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    expect(await page.getByLabel('Name').inputValue()).toBe('Typed before the session ended');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByTestId('new-key').waitFor();
    const keys = await call('GET', '/api/v2/api-keys', { token: owner.token });
    // Sent once: the click before signing in again was refused, the one after made one key.
    expect(keys.body.data.filter((k: { name: string }) => k.name === 'Typed before the session ended')).toHaveLength(1);
    await page.close();
  });

  it('signs out: the session is revoked server-side and the sign-in form is back', async () => {
    const page = await newTab();
    await signIn(page, owner.email, owner.password);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to the console' }).waitFor();
    expect((await browser.context.cookies(base)).find((c) => c.name === config.browserSession.cookie)).toBeUndefined();
    await page.reload();
    await page.getByRole('heading', { name: 'Sign in to the console' }).waitFor();
    await page.close();
  });

  it('a member (not an admin) sees a plain page saying an admin is needed', async () => {
    const member = await addUser(owner.workspaceId, 'member');
    const page = await newTab();
    await signIn(page, member.email, member.password);
    await page.getByRole('heading', { name: 'An admin is needed' }).waitFor();
    expect(await page.getByRole('navigation', { name: 'Console' }).count()).toBe(0);
    await expectAccessible(page, 'needs-admin');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to the console' }).waitFor();
    await page.close();
  });

  it('asked for nothing from another host and broke no rule of its Content-Security-Policy', () => {
    expect(browser.requested.length).toBeGreaterThan(0);
    expect(browser.requested.filter((u) => !u.startsWith(base))).toEqual([]);
    expect(browser.cspViolations).toEqual([]);
  });
});
