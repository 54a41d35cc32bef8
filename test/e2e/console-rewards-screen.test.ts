import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { to } from '../../shared/console/paths';
import { call } from '../support/api';
import { type ConsoleBrowser, expectAccessible, openConsoleBrowser, shot } from '../support/console';
import { tenant, type Tenant } from '../support/fixtures';
import { addUser } from '../support/table';

/**
 * The Rewards screen in Chromium against the running platform: a reward created beside the card a
 * member sees, activated, found in the list by status, its stock edited; a change someone made
 * meanwhile refused and read again; a support user's list without the forms. axe-core on each view.
 */

let browser: ConsoleBrowser;
let owner: Tenant;

beforeAll(async () => {
  owner = await tenant('console-rewards-walk');
  browser = await openConsoleBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

async function openRewards(page: Page, email = owner.email, password = owner.password): Promise<void> {
  await browser.signIn(page, email, password);
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Rewards' }).click();
  await page.getByRole('heading', { name: 'Rewards', level: 1 }).waitFor();
}

const rewardsOf = async (t: Tenant): Promise<any[]> => (await call('GET', '/api/v2/rewards', { token: t.key })).body.data;

describe('the Rewards screen (headless Chromium)', () => {
  it('creates a reward beside its card, activates it, finds it by status and edits its stock', async () => {
    const page = await browser.newTab();
    await openRewards(page);
    await page.getByText('No rewards yet.').waitFor();
    await expectAccessible(page, 'rewards (empty)');

    await page.getByRole('link', { name: 'New reward' }).click();
    await page.getByRole('heading', { name: 'New reward', level: 2 }).waitFor();
    expect(new URL(page.url()).pathname).toBe(to.reward('new'));
    await page.getByLabel('Name', { exact: true }).fill('Coffee mug');
    await page.getByLabel('Description (optional)').fill('The shop’s own');
    await page.getByLabel('Price in points').fill('500');
    await page.getByLabel('Currency').fill('EUR');
    await page.getByLabel('Amount off', { exact: true }).fill('5');
    await page.getByLabel('Stock (blank: unlimited)').fill('10');
    const card = page.getByTestId('reward-card');
    await expect.poll(() => card.textContent()).toMatch(/Coffee mug.*The shop’s own.*5.00 off your order.*For 500 points/s);
    await expectAccessible(page, 'new reward');
    await page.getByRole('button', { name: 'Create reward' }).click();
    await page.getByRole('cell', { name: '10 of 10 left' }).waitFor();
    const [reward] = await rewardsOf(owner);
    expect(reward).toMatchObject({ name: 'Coffee mug', pointsCost: 500, benefit: { type: 'fixed_discount', amount: 500, currency: 'EUR' }, status: 'draft' });
    expect(await page.locator('tbody tr').textContent()).toMatch(/Coffee mug.*Amount off.*500 points.*10 of 10 left.*Draft/);

    await page.getByRole('link', { name: 'Coffee mug' }).click();
    expect(new URL(page.url()).pathname).toBe(to.reward(reward.id));
    await page.getByRole('button', { name: 'Activate Coffee mug' }).click();
    await page.getByRole('heading', { name: 'Coffee mug: Active', level: 2 }).waitFor();
    await page.getByRole('combobox', { name: 'Status' }).selectOption({ label: 'Active' });
    await page.getByRole('cell', { name: 'Active', exact: true }).waitFor();
    await page.getByRole('combobox', { name: 'Status' }).selectOption({ label: 'Draft' });
    await page.getByText('No draft rewards.').waitFor();
    await page.getByRole('combobox', { name: 'Status' }).selectOption({ label: 'Any status' });

    await page.goto(`${browser.base}${to.reward(reward.id)}`);
    await page.getByRole('heading', { name: 'Edit Coffee mug', level: 2 }).waitFor();
    await page.getByLabel('Stock (blank: unlimited)').fill('25');
    await page.getByRole('button', { name: 'Save reward' }).click();
    await page.getByRole('cell', { name: '25 of 25 left' }).waitFor();
    expect((await rewardsOf(owner))[0]).toMatchObject({ stock: 25, remaining: 25, status: 'active', version: 3 });
    await expectAccessible(page, 'rewards (listed)');
    await shot(page, 'rewards');
    await page.close();
  });

  it('refuses a change on a reward someone changed meanwhile and reads it again', async () => {
    const t = await tenant('console-rewards-stale');
    const made = await call('POST', '/api/v2/rewards', {
      token: t.key,
      body: { name: 'Tote bag', pointsCost: 300, benefit: { type: 'free_shipping' }, status: 'active' },
    });
    const page = await browser.newTab();
    await openRewards(page, t.email, t.password);
    await page.getByRole('link', { name: 'Tote bag' }).click();
    await page.getByRole('heading', { name: 'Tote bag: Active', level: 2 }).waitFor();
    expect((await call('PATCH', `/api/v2/rewards/${made.body.data.id}`, { token: t.key, body: { stock: 5 } })).status).toBe(200);
    await page.getByRole('button', { name: 'Pause Tote bag' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/The reward is at version 2, not 1.*CONFLICT/s);
    await expectAccessible(page, 'reward (changed meanwhile)');
    await page.getByRole('button', { name: 'Reload the reward' }).click();
    await page.getByText('5 of 5 left · version 2').waitFor();
    await page.getByRole('button', { name: 'Pause Tote bag' }).click();
    await page.getByRole('heading', { name: 'Tote bag: Paused', level: 2 }).waitFor();
    await page.close();
  });

  it('shows support the list without the forms', async () => {
    const t = await tenant('console-rewards-support');
    await call('POST', '/api/v2/rewards', { token: t.key, body: { name: 'Sticker', pointsCost: 50, benefit: { type: 'free_product', sku: 'STICKER' } } });
    const support = await addUser(t.workspaceId, 'support');
    const page = await browser.newTab();
    await openRewards(page, support.email, support.password);
    await page.getByRole('cell', { name: 'Sticker' }).waitFor();
    expect(await page.getByRole('link', { name: 'New reward' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Sticker' }).count()).toBe(0);
    await expectAccessible(page, 'rewards (support)');
    await page.close();
  });
});
