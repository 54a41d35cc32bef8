import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { config } from '../../shared/platform/config';
import { keyOf } from '../../shared/platform/data/keys';
import { sha256Hex } from '../../shared/platform/tokens';
import { call, uniqueEmail } from '../support/api';
import { type ConsoleBrowser, expectAccessible, openConsoleBrowser, shot } from '../support/console';
import { balanceOf, newMember, newOrder, tenant, type Tenant } from '../support/fixtures';
import { to } from '../../shared/console/paths';
import { platformTable } from '../support/table';

/**
 * The Members screen in Chromium against the running platform: search by e-mail and externalId,
 * the profile with its ledger and coupons, points adjusted once per click, a refusal in the API's
 * words, a session that ends mid-edit, and erasure behind a typed confirmation. axe-core on each view.
 */

const base = inject('baseUrl');
let browser: ConsoleBrowser;
let owner: Tenant;

beforeAll(async () => {
  owner = await tenant('console-members-walk');
  browser = await openConsoleBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

async function openMembers(page: Page): Promise<void> {
  await browser.signIn(page, owner.email, owner.password);
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Members' }).click();
  await page.getByRole('heading', { name: 'Members', level: 1 }).waitFor();
}

async function search(page: Page, text: string): Promise<void> {
  await page.getByLabel('Name, e-mail, phone or externalId').fill(text);
  await page.getByRole('button', { name: 'Search' }).click();
}

const ledgerOf = async (id: string) => (await call('GET', `/api/v2/members/${id}/points`, { token: owner.key })).body.data;

describe('the Members screen (headless Chromium)', () => {
  it('shows the empty list, then finds a member by e-mail and by externalId', async () => {
    const page = await browser.newTab();
    await openMembers(page);
    await page.getByText('No members yet.').waitFor();
    await expectAccessible(page, 'members (empty)');
    const email = uniqueEmail('grace');
    await newMember(owner.key, { email, externalId: 'crm-grace', firstName: 'Grace', lastName: 'Hopper' });
    await newMember(owner.key, { firstName: 'Alan' });
    await search(page, '');
    await page.getByRole('link', { name: 'Alan' }).waitFor();
    // Each search starts from a list without Grace, so waiting for her row waits for that search's answer.
    const nobody = async () => {
      await search(page, 'nobody@example.test');
      await page.getByText('No member matches this search.').waitFor();
    };
    await nobody();
    await search(page, 'crm-grace');
    await page.getByRole('link', { name: 'Grace Hopper' }).waitFor();
    expect(await page.getByRole('link', { name: 'Alan' }).count()).toBe(0);
    await nobody();
    await search(page, email);
    await page.getByRole('link', { name: 'Grace Hopper' }).waitFor();
    expect(await page.getByRole('link', { name: 'Alan' }).count()).toBe(0);
    expect(await page.getByRole('cell', { name: email }).count()).toBe(1);
    await expectAccessible(page, 'members (found)');
    await page.close();
  });

  it('finds members the way people remember them: part of a name or e-mail, by tier (named), status and tag; the address keeps the filters', async () => {
    const t = await tenant('console-members-find');
    const first = (await call('GET', '/api/flash/program', { token: t.token })).body.data.tiers.levels[0] as { key: string; name: string };
    const marg = await newMember(t.key, { email: uniqueEmail('margaret.hamilton'), firstName: 'Margaret', lastName: 'Hamilton' });
    expect((await call('POST', `/api/v2/members/${marg.id}/tags`, { token: t.key, body: { tags: ['apollo'] } })).status).toBeLessThan(300);
    await newMember(t.key, { email: uniqueEmail('katherine'), firstName: 'Katherine', lastName: 'Johnson' });
    const up = await call('POST', `/api/v2/members/${marg.id}/points`, { token: t.key, body: { type: 'earn', amount: 100_000, reason: 'Lifts the tier' } });
    expect(up.body.data.tier).not.toBe('bronze');
    const page = await browser.newTab();
    await browser.signIn(page, t.email, t.password);
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Members' }).click();
    await page.getByRole('heading', { name: 'Members', level: 1 }).waitFor();
    const rows = () => page.locator('tbody tr');
    const find = async (text: string, filters: { tier?: string; status?: string; tag?: string } = {}) => {
      await page.getByLabel('Name, e-mail, phone or externalId').fill(text);
      await page.getByLabel('Tier').selectOption({ label: filters.tier ?? 'Any tier' });
      await page.getByLabel('Status').selectOption({ label: filters.status ?? 'Any status' });
      await page.getByLabel('Tag').fill(filters.tag ?? '');
      await page.getByRole('button', { name: 'Search' }).click();
    };
    // Part of a last name, in another case.
    await find('hamil');
    await page.getByRole('link', { name: 'Margaret Hamilton' }).waitFor();
    await expect.poll(() => rows().count()).toBe(1);
    // The tier column names the tier.
    const tierName = (await call('GET', `/api/v2/members/${marg.id}/tier`, { token: t.key })).body.data.current.name as string;
    await page.getByRole('cell', { name: tierName, exact: true }).waitFor();
    // Part of an e-mail.
    await find('katherine');
    await page.getByRole('link', { name: 'Katherine Johnson' }).waitFor();
    await expect.poll(() => rows().count()).toBe(1);
    // The tier filter offers tiers by name; the tag filter narrows.
    await find('', { tier: tierName });
    await page.getByRole('link', { name: 'Margaret Hamilton' }).waitFor();
    await expect.poll(() => rows().count()).toBe(1);
    // Katherine holds the first tier but not the tag; Margaret the tag but not the tier.
    await find('', { tier: first.name, tag: 'apollo' });
    await page.getByText('No member matches this search.').waitFor();
    await find('', { tag: 'apollo', status: 'Active' });
    await page.getByRole('link', { name: 'Margaret Hamilton' }).waitFor();
    await expect.poll(() => rows().count()).toBe(1);
    // The address holds the filters: a reload shows the same list and form.
    expect(new URL(page.url()).search).toBe(`?${new URLSearchParams({ status: 'active', tag: 'apollo' })}`);
    await page.reload({ waitUntil: 'load' });
    await page.getByRole('link', { name: 'Margaret Hamilton' }).waitFor();
    expect(await page.getByLabel('Tag').inputValue()).toBe('apollo');
    await expectAccessible(page, 'members (filtered)');
    await page.close();
  });

  it('adjusts points with a reason once per click, shows a refusal in the API’s words, keeps the form through a new sign-in', async () => {
    const email = uniqueEmail('ada');
    const ada = await newMember(owner.key, { email, externalId: 'crm-ada', firstName: 'Ada', lastName: 'Lovelace' });
    await call('POST', `/api/v2/members/${ada.id}/tags`, { token: owner.key, body: { tags: ['vip'] } });
    const page = await browser.newTab();
    await openMembers(page);
    await search(page, email);
    await page.getByRole('link', { name: 'Ada Lovelace' }).click();
    await page.getByRole('heading', { name: 'Ada Lovelace', level: 1 }).waitFor();
    await page.getByText('No points earned or spent yet.').waitFor();
    await page.getByText('No coupons issued to this member.').waitFor();
    await page.getByText('vip').waitFor();

    await page.getByLabel('Number of points').fill('150');
    await page.getByLabel('Reason').fill('Late delivery');
    await page.getByRole('button', { name: 'Adjust points' }).dblclick();
    await page.getByRole('cell', { name: 'Late delivery' }).waitFor();
    expect(await page.getByTestId('balance').textContent()).toBe('150');
    expect((await ledgerOf(ada.id)).entries).toHaveLength(1);

    await page.getByLabel('Direction').selectOption('deduct');
    await page.getByLabel('Number of points').fill('1000');
    await page.getByLabel('Reason').fill('Too much');
    await page.getByRole('button', { name: 'Adjust points' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/The balance is 150; cannot deduct 1000.*INSUFFICIENT_POINTS.*Request id: /s);
    await expectAccessible(page, 'member (refused)');
    await shot(page, 'members');

    // The session ends server-side mid-edit: signing in again keeps what was typed, then it applies once.
    await page.getByLabel('Number of points').fill('40');
    await page.getByLabel('Reason').fill('Typed before the session ended');
    const cookie = (await browser.context.cookies(base)).find((c) => c.name === config.browserSession.cookie)!;
    const { doc, tableName } = await platformTable();
    await doc.send(new DeleteCommand({ TableName: tableName, Key: keyOf('session', { tokenHash: sha256Hex(cookie.value) }) }));
    await page.getByRole('button', { name: 'Adjust points' }).click();
    await page.getByRole('heading', { name: 'Your session ended: sign in again' }).waitFor();
    await page.getByLabel('Email').fill(owner.email);
    await page.getByLabel('Password').fill(owner.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    expect(await page.getByLabel('Reason').inputValue()).toBe('Typed before the session ended');
    await page.getByRole('button', { name: 'Adjust points' }).click();
    await page.getByRole('cell', { name: 'Typed before the session ended' }).waitFor();
    const ledger = await ledgerOf(ada.id);
    expect(ledger).toMatchObject({ balance: 110 });
    expect(ledger.entries.map((e: { reason: string }) => e.reason)).toEqual(['Typed before the session ended', 'Late delivery']);
    const audit = await call('GET', '/api/flash/audit?action=member.points_adjusted', { token: owner.token });
    expect(audit.body.data.filter((e: { target: { id: string } }) => e.target.id === ada.id)).toHaveLength(2);
    await page.close();
  });

  it('serves a support call: orders with refunds, points expiring by date, tags edited, a goodwill gesture confirmed and kept out of the tier', async () => {
    const t = await tenant('console-members-support');
    const current = (await call('GET', '/api/flash/program', { token: t.token })).body.data;
    const points = { expiry: { policy: 'fixed_days', days: 30 }, warnDays: [], pendingDays: 0 };
    expect(
      (await call('PUT', '/api/flash/program', { token: t.token, body: { earn: current.earn, tiers: current.tiers, points, timeZone: 'UTC' } })).status,
    ).toBe(200);
    const grace = await newMember(t.key, { firstName: 'Grace', lastName: 'Hopper' });
    const order = await newOrder(t.key, grace.id, { total: 80 });
    expect((await call('POST', `/api/v2/orders/${order.externalOrderId}/refund`, { token: t.key, body: { amount: 20 } })).status).toBe(200);
    const { balance, lifetime } = await balanceOf(t.key, grace.id);
    const page = await browser.newTab();
    await browser.signIn(page, t.email, t.password);
    await page.getByRole('navigation', { name: 'Console' }).waitFor();
    await page.goto(`${base}${to.member(grace.id)}`);
    await page.getByRole('heading', { name: 'Grace Hopper', level: 1 }).waitFor();

    const orders = page.getByRole('region', { name: 'Orders' });
    const row = orders.getByRole('row').filter({ hasText: order.externalOrderId });
    await row.waitFor();
    expect(await row.textContent()).toMatch(/Partly refunded/);
    const expiring = page.getByRole('region', { name: 'Points expiring' });
    await expiring.getByRole('cell', { name: String(balance), exact: true }).waitFor();

    const tags = page.getByRole('region', { name: 'Tags' });
    await tags.getByLabel('New tag').fill('callback');
    await tags.getByRole('button', { name: 'Add tag' }).click();
    await page.getByRole('status').filter({ hasText: 'Tagged callback.' }).waitFor();
    expect((await call('GET', `/api/v2/members/${grace.id}/tags`, { token: t.key })).body.data.tags.map((x: { key: string }) => x.key)).toEqual(['callback']);
    await page.getByRole('button', { name: 'Remove the tag callback' }).click();
    await page.getByRole('status').filter({ hasText: 'Removed the tag callback.' }).waitFor();
    expect((await call('GET', `/api/v2/members/${grace.id}/tags`, { token: t.key })).body.data.tags).toEqual([]);

    await page.getByLabel('Number of points').fill('500');
    await page.getByLabel('Reason').fill('Parcel lost in transit');
    await page.getByLabel(/Count toward the tier/).uncheck();
    await page.getByRole('button', { name: 'Adjust points' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Added 500 points, kept out of the tier. The balance is now ${balance + 500}.` })
      .waitFor();
    await page.getByRole('cell', { name: 'earn (outside the tier)' }).waitFor();
    expect(await balanceOf(t.key, grace.id)).toMatchObject({ balance: balance + 500, lifetime });
    // The box is ticked again for the next adjustment.
    expect(await page.getByLabel(/Count toward the tier/).isChecked()).toBe(true);
    await expectAccessible(page, 'member (support call)');
    await page.close();
  });

  it('erases a member only after the e-mail is typed', async () => {
    const email = uniqueEmail('erin');
    const erin = await newMember(owner.key, { email, firstName: 'Erin' });
    const page = await browser.newTab();
    await openMembers(page);
    await search(page, email);
    await page.getByRole('link', { name: 'Erin' }).click();
    await page.getByRole('heading', { name: 'Erin', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Erase this member…' }).click();
    const erase = page.getByRole('button', { name: 'Erase member' });
    expect(await erase.isDisabled()).toBe(true);
    await page.getByLabel('Type the member’s e-mail to confirm').fill('someone@else.test');
    expect(await erase.isDisabled()).toBe(true);
    await expectAccessible(page, 'member (erase)');
    await shot(page, 'member-erase');
    await page.getByLabel('Type the member’s e-mail to confirm').fill(email);
    await erase.click();
    await page.getByText(/^Erased .*: the personal data is gone, the ledger stays\.$/).waitFor();
    expect(await page.getByRole('button', { name: 'Adjust points' }).count()).toBe(0);
    expect((await call('GET', `/api/v2/members/${erin.id}`, { token: owner.key })).body.data).toMatchObject({ email: null, firstName: null });
    const audit = await call('GET', '/api/flash/audit?action=member.erased', { token: owner.token });
    expect(audit.body.data.map((e: { target: { id: string } }) => e.target.id)).toEqual([erin.id]);
    await page.close();
  });

  it('explains the balance at a picked moment: what it was then, with its lots, and now by default', async () => {
    const email = uniqueEmail('xena');
    const xena = await newMember(owner.key, { email, firstName: 'Xena' });
    const earn = (type: 'earn' | 'deduct', amount: number) =>
      call('POST', `/api/v2/members/${xena.id}/points`, { token: owner.key, body: { type, amount, reason: `${type} ${amount}` } });
    expect((await earn('earn', 150)).status).toBe(201);
    // The picker takes whole seconds: the moment picked lies a second clear of both changes.
    await new Promise((r) => setTimeout(r, 1100));
    const between = new Date();
    await new Promise((r) => setTimeout(r, 1100));
    expect((await earn('deduct', 40)).status).toBe(201);
    const page = await browser.newTab();
    await openMembers(page);
    await search(page, email);
    await page.getByRole('link', { name: 'Xena' }).click();
    await page.getByRole('heading', { name: 'Xena', level: 1 }).waitFor();
    const panel = page.getByRole('region', { name: 'Explain the balance' });
    await panel.getByRole('button', { name: 'Explain' }).click();
    await expect.poll(() => panel.getByTestId('explained-balance').textContent()).toBe('110');
    await panel.getByRole('cell', { name: 'Never' }).waitFor();
    // The browser's time zone is this process's: the picked moment is the same instant.
    const pad = (n: number) => String(n).padStart(2, '0');
    const local = `${between.getFullYear()}-${pad(between.getMonth() + 1)}-${pad(between.getDate())}T${pad(between.getHours())}:${pad(between.getMinutes())}:${pad(between.getSeconds())}`;
    await panel.getByLabel('At (empty: now)').fill(local);
    await panel.getByRole('button', { name: 'Explain' }).click();
    await expect.poll(() => panel.getByTestId('explained-balance').textContent()).toBe('150');
    expect(await panel.getByTestId('explained-pending').textContent()).toBe('0');
    expect(await panel.getByTestId('explained-tier').textContent()).toMatch(/^bronze: 150 points over the member’s lifetime/);
    await panel.getByRole('cell', { name: '150', exact: true }).waitFor();
    await expectAccessible(page, 'member (explained)');
    await shot(page, 'member-explained');
    await page.close();
  });

  it('asked for nothing from another host and broke no rule of its Content-Security-Policy', () => {
    expect(browser.requested.length).toBeGreaterThan(0);
    expect(browser.requested.filter((u) => !u.startsWith(base))).toEqual([]);
    expect(browser.cspViolations).toEqual([]);
  });
});
