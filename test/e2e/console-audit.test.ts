import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createKey } from '../support/api';
import { type ConsoleBrowser, expectAccessible, openConsoleBrowser, shot } from '../support/console';
import { newMember, tenant, type Tenant } from '../support/fixtures';

/**
 * The Audit log screen in Chromium against the running platform: actors by name, targets linked to
 * their page, a configuration change shown field by field, the filters kept in the address (a
 * reload and a click on a name keep them) and the CSV file of what the screen shows. axe-core on it.
 */

let browser: ConsoleBrowser;
let owner: Tenant;
let campaignId: string;
let memberId: string;

beforeAll(async () => {
  owner = await tenant('console-audit', { name: 'Ada Owner' });
  const key = await createKey(owner.token, { name: 'Checkout', preset: 'write' });
  memberId = (await newMember(key.key)).id;
  expect((await call('POST', `/api/v2/members/${memberId}/points`, { token: key.key, body: { type: 'earn', amount: 5, reason: 'Goodwill' } })).status).toBe(
    201,
  );
  const made = await call('POST', '/api/flash/campaigns', {
    token: owner.token,
    body: { name: 'Double points', status: 'draft', trigger: { type: 'order' }, effect: { type: 'multiplier', factor: 2 } },
  });
  campaignId = made.body.data.id;
  expect((await call('PATCH', `/api/flash/campaigns/${campaignId}`, { token: owner.token, body: { effect: { type: 'multiplier', factor: 3 } } })).status).toBe(
    200,
  );
  browser = await openConsoleBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

describe('the Audit log screen (headless Chromium)', () => {
  it('names who acted, links what they changed, shows the change, and keeps its filters in the address', async () => {
    const page = await browser.newTab();
    await browser.signIn(page, owner.email, owner.password);
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Audit log' }).click();
    await page.getByRole('heading', { name: 'Audit log', level: 1 }).waitFor();

    // Names, not ids: the owner by name and e-mail, the key by name and prefix.
    const updated = page.getByRole('row').filter({ hasText: 'campaign.updated' });
    await updated.getByRole('link', { name: 'Ada Owner' }).waitFor();
    expect(await updated.getByRole('cell').nth(2).textContent()).toBe(`Ada Owner ${owner.email}`);
    expect(await updated.getByRole('cell').nth(4).textContent()).toBe('effect.factor: 2 → 3');
    const points = page.getByRole('row').filter({ hasText: 'member.points_adjusted' });
    expect(await points.getByRole('link', { name: 'API key “Checkout”' }).count()).toBe(1);
    // The id alone is shown only for what has no name (here: the user a sign-in acted on, as a target).
    expect(await page.getByRole('cell', { name: owner.userId, exact: true }).count()).toBe(0);
    await expectAccessible(page, 'audit-log (names)');
    await shot(page, 'audit-log-names');

    // The target links to its page.
    await points.getByRole('link', { name: memberId }).click();
    await page.waitForURL(`**/console/members/${memberId}`);
    await page.goBack();
    await page.getByRole('heading', { name: 'Audit log', level: 1 }).waitFor();

    // Filters go into the address, and the list follows it.
    await page.getByLabel('Target type').selectOption('campaign');
    await page.getByLabel('Target id').fill(campaignId);
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.waitForURL(`**/console/audit?targetType=campaign&targetId=${campaignId}`);
    await expect.poll(async () => page.getByRole('cell', { name: 'member.points_adjusted' }).count()).toBe(0);
    await page.getByRole('cell', { name: 'campaign.created' }).waitFor();
    expect(await page.getByRole('cell', { name: 'campaign.updated' }).count()).toBe(1);

    // A reload keeps them, in the list and in the form.
    await page.reload();
    await page.getByRole('cell', { name: 'campaign.created' }).waitFor();
    expect(await page.getByLabel('Target id').inputValue()).toBe(campaignId);
    expect(await page.getByLabel('Target type').inputValue()).toBe('campaign');
    expect(await page.getByRole('cell', { name: 'member.points_adjusted' }).count()).toBe(0);

    // The CSV link carries the same filters; the file it answers names the owner.
    const csvHref = await page.getByRole('link', { name: 'Download these entries as CSV' }).getAttribute('href');
    expect(csvHref).toBe(`/api/flash/audit/export?targetType=campaign&targetId=${campaignId}`);
    const csv = await page.evaluate(async (href) => (await fetch(href!)).text(), csvHref);
    expect(csv.split('\r\n').filter(Boolean)).toHaveLength(3);
    expect(csv).toContain(`user,${owner.userId},Ada Owner,${owner.email}`);

    // A click on a name narrows to that person, keeping the other filters.
    await page.getByRole('row').filter({ hasText: 'campaign.updated' }).getByRole('link', { name: 'Ada Owner' }).click();
    await page.waitForURL(`**/console/audit?actor=${owner.userId}&targetType=campaign&targetId=${campaignId}`);
    expect(await page.getByLabel('Who (user or key id)').inputValue()).toBe(owner.userId);
    await page.getByRole('cell', { name: 'campaign.updated' }).waitFor();
    await expectAccessible(page, 'audit-log (filtered)');
    await page.close();
  });
});
