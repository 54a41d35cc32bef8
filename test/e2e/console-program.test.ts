import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Account, call, registerAccount } from '../support/api';
import { type ConsoleBrowser, expectAccessible, openConsoleBrowser, shot } from '../support/console';

/**
 * The Program screen in Chromium: the whole program (earning, how points age, the tier window and
 * retention) with each refusal next to its field. axe-core checks every view.
 */

let browser: ConsoleBrowser;
let owner: Account;

beforeAll(async () => {
  owner = await registerAccount('console-program');
  browser = await openConsoleBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

async function openProgram(): Promise<Page> {
  const page = await browser.newTab();
  await browser.signIn(page, owner.email, owner.password);
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Program' }).click();
  await page.getByRole('heading', { name: 'Program', level: 1 }).waitFor();
  return page;
}

const program = async () => (await call('GET', '/api/flash/program', { token: owner.token })).body.data;

describe('the Program screen (headless Chromium)', () => {
  it('edits how points age and the tier window: each refused value is explained next to its field, nothing is saved until all are valid', async () => {
    const page = await openProgram();
    await page.getByText('The defaults apply: nothing saved yet.').waitFor();
    await page.getByRole('combobox', { name: /^Expiry/ }).selectOption('fixed_days');
    // The days field appears with the policy, 365 to start with.
    expect(await page.getByLabel('Expiry days').inputValue()).toBe('365');
    await page.getByLabel('Expiry days').fill('0');
    await page.getByLabel('Warn this many days before an expiry (up to 5, e.g. 30, 7)').fill('30, soon');
    await page.getByLabel('Time zone of program dates').fill('Mars/Olympus');
    await page.getByRole('button', { name: 'Save the program' }).click();
    // Each message next to its field (and named by it), and all of them in the summary with the request id.
    await page.locator('#err-expiryDays').waitFor();
    expect(await page.getByLabel('Expiry days').getAttribute('aria-describedby')).toBe('err-expiryDays');
    expect(await page.locator('#err-expiryDays').textContent()).toBe('must be at least 1');
    expect(await page.locator('#err-warnDays').textContent()).toMatch(/number/i);
    expect(await page.locator('#err-timeZone').textContent()).toBe('must be an IANA time zone, e.g. Europe/Berlin');
    const alert = await page.getByRole('alert').textContent();
    expect(alert).toContain('points.expiry.days: ');
    expect(alert).toMatch(/VALIDATION_FAILED.*Request id: req_/s);
    expect((await program()).version).toBe(0);
    await expectAccessible(page, 'program (refused rules)');
    // Valid values: saved with version 1, as the API now answers them.
    await page.getByRole('combobox', { name: /^Expiry/ }).selectOption('end_of_month');
    await page.getByLabel('Expiry days').fill('365');
    await page.getByLabel('Warn this many days before an expiry (up to 5, e.g. 30, 7)').fill('30, 7');
    await page.getByLabel("Pending days before an order's points can be spent").fill('14');
    await page.getByLabel('Time zone of program dates').fill('Europe/Berlin');
    await page.getByLabel('Counted over').selectOption('rolling_365_days');
    await page.getByLabel('Keep a reached tier at least this many days').fill('30');
    await page.getByLabel('After the retention, below the threshold').selectOption('one_level');
    await page.getByRole('button', { name: 'Save the program' }).click();
    await page.getByText(/^Saved .*, version 1$/).waitFor();
    expect(await page.locator('#err-expiryDays').count()).toBe(0);
    expect(await program()).toMatchObject({
      version: 1,
      points: { expiry: { policy: 'end_of_month', days: 365 }, warnDays: [30, 7], pendingDays: 14 },
      timeZone: 'Europe/Berlin',
      tiers: { window: 'rolling_365_days', retainDays: 30, downgrade: 'one_level' },
      earn: { pointsPerUnit: 1 },
    });
    // A reload reads the saved rules back into the form.
    await page.reload();
    expect(await page.getByLabel('Warn this many days before an expiry (up to 5, e.g. 30, 7)').inputValue()).toBe('30, 7');
    expect(await page.getByRole('combobox', { name: /^Expiry/ }).inputValue()).toBe('end_of_month');
    await page.close();
  });

  it('asked for nothing from another host and broke no rule of its Content-Security-Policy', () => {
    expect(browser.requested.filter((u) => !u.startsWith(browser.base))).toEqual([]);
    expect(browser.cspViolations).toEqual([]);
  });
});
