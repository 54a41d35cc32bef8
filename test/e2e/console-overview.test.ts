import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { call } from '../support/api';
import { type ConsoleBrowser, expectAccessible, openConsoleBrowser, shot } from '../support/console';
import { newMember, newOrder, tenant } from '../support/fixtures';
import { addUser } from '../support/table';

/**
 * The console's overview: totals kept on write (members, points issued and redeemed, orders), webhook
 * health from the delivery log, for the owners and admins of the workspace only; and the Overview
 * screen in Chromium, whose figures change after a member is enrolled.
 */

const base = inject('baseUrl');
let browser: ConsoleBrowser;

beforeAll(async () => {
  browser = await openConsoleBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

const overviewOf = async (token: string) => {
  const res = await call('GET', '/api/flash/overview', { token });
  expect(res.status).toBe(200);
  return res.body.data;
};

/** What the ledgers of these members say was credited and taken off. */
async function ledgerTotals(key: string, ids: string[]) {
  let issued = 0;
  let redeemed = 0;
  let orders = 0;
  for (const id of ids) {
    const { entries } = (await call('GET', `/api/v2/members/${id}/points?limit=100`, { token: key })).body.data;
    for (const e of entries as { amount: number }[]) {
      if (e.amount > 0) issued += e.amount;
      else redeemed -= e.amount;
    }
    orders += (await call('GET', `/api/v2/members/${id}`, { token: key })).body.data.orderCount;
  }
  return { issued, redeemed, orders };
}

describe('GET /api/flash/overview', () => {
  it('moves its totals with each change, counts failed webhook deliveries, and is only for the workspace’s owners and admins', async () => {
    const [a, b] = await Promise.all([tenant('overview-a'), tenant('overview-b')]);
    expect(await overviewOf(a.token)).toMatchObject({ members: 0, pointsIssued: 0, pointsRedeemed: 0, orders: 0, exportsRunning: 0 });
    // An endpoint nothing listens on: every delivery attempt fails.
    const hook = await call('POST', '/api/v2/webhooks', { token: a.key, body: { url: 'http://127.0.0.1:9/hooks', eventTypes: ['member.created'] } });
    expect(hook.status).toBe(201);

    const ada = await newMember(a.key);
    const alan = await newMember(a.key);
    await call('POST', `/api/v2/members/${ada.id}/points`, { token: a.key, body: { type: 'earn', amount: 100, reason: 'welcome' } });
    await newOrder(a.key, alan.id, { total: 40 });
    await call('POST', `/api/flash/members/${ada.id}/points`, { token: a.token, body: { type: 'deduct', amount: 30, reason: 'correction' } });

    const totals = await ledgerTotals(a.key, [ada.id, alan.id]);
    expect(totals.issued).toBeGreaterThan(100);
    expect(totals.orders).toBe(1);
    const figures = await overviewOf(a.token);
    // Points redeemed are redemptions (coupons bought with points) only: the support deduction of 30 is not one.
    expect(figures).toMatchObject({ members: 2, pointsIssued: totals.issued, pointsRedeemed: 0, orders: 1 });
    expect(totals.redeemed).toBe(30);
    await expect.poll(async () => (await overviewOf(a.token)).webhooks.failed, { timeout: 60_000, interval: 1000 }).toBeGreaterThanOrEqual(1);
    expect((await overviewOf(a.token)).webhooks).toMatchObject({ delivered: 0, partial: false });

    // Another workspace sees only its own.
    expect(await overviewOf(b.token)).toMatchObject({ members: 0, pointsIssued: 0, orders: 0, webhooks: { delivered: 0, failed: 0, dead: 0 } });
    expect((await call('GET', '/api/flash/overview', { token: a.key })).status).toBe(403);
    const member = await addUser(a.workspaceId, 'member');
    const memberToken = (await call('POST', '/api/v2/auth/login', { body: { email: member.email, password: member.password } })).body.data.session.token;
    expect((await call('GET', '/api/flash/overview', { token: memberToken })).status).toBe(403);
  });
});

describe('the Overview screen (headless Chromium)', () => {
  it('shows the figures and, after a refresh, the member just enrolled', async () => {
    const owner = await tenant('overview-walk');
    const page = await browser.newTab();
    await browser.signIn(page, owner.email, owner.password);
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Overview' }).click();
    await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
    await page.getByText('Nothing has happened in this workspace yet').waitFor();
    expect(await page.getByTestId('members').textContent()).toBe('0');
    await expectAccessible(page, 'overview (empty)');
    const m = await newMember(owner.key);
    await call('POST', `/api/v2/members/${m.id}/points`, { token: owner.key, body: { type: 'earn', amount: 250, reason: 'welcome' } });
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect.poll(() => page.getByTestId('members').textContent()).toBe('1');
    expect(await page.getByTestId('points-issued').textContent()).toBe('250');
    await expectAccessible(page, 'overview');
    await shot(page, 'overview');
    await page.close();
  });

  it('shows the points report of a period picked by the person: the figures, the rates, the liability and a chart of issued, redeemed and expired', async () => {
    const owner = await tenant('overview-report');
    const current = (await call('GET', '/api/flash/program', { token: owner.token })).body.data;
    const put = await call('PUT', '/api/flash/program', {
      token: owner.token,
      body: { earn: current.earn, tiers: current.tiers, points: current.points, timeZone: 'UTC', pointValue: { EUR: 0.01 } },
    });
    expect(put.status).toBe(200);
    const pool = await call('POST', '/api/v2/coupons/pools', {
      token: owner.key,
      body: { name: 'Ten off', discount: { type: 'percent', value: 10 }, codeConfig: { mode: 'generated' }, stock: 5, pointsCost: 40 },
    });
    expect(pool.status).toBe(201);
    const m = await newMember(owner.key);
    await call('POST', `/api/v2/members/${m.id}/points`, { token: owner.key, body: { type: 'earn', amount: 250, reason: 'welcome' } });
    expect((await call('POST', '/api/v2/coupons/issue', { token: owner.key, body: { poolId: pool.body.data.id, memberId: m.id } })).status).toBe(201);
    await call('POST', `/api/v2/members/${m.id}/points`, { token: owner.key, body: { type: 'deduct', amount: 10, reason: 'support' } });

    const page = await browser.newTab();
    await browser.signIn(page, owner.email, owner.password);
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Overview' }).click();
    await page.getByRole('heading', { name: 'Points', level: 2 }).waitFor();
    await expect.poll(() => page.getByTestId('report-outstanding').textContent()).toBe('200');
    expect(await page.getByTestId('points-redeemed').textContent()).toBe('40');
    expect(await page.getByTestId('report-redeemed').textContent()).toBe('40');
    expect(await page.getByTestId('report-deducted').textContent()).toBe('10');
    expect(await page.getByTestId('report-redemption-rate').textContent()).toBe('16.0 %');
    expect(await page.getByTestId('report-value-EUR').textContent()).toContain('2.00');
    expect(await page.locator('[data-testid="points-chart"] polyline').count()).toBe(3);
    // The members of the same period: one active, one in the first tier (by its name).
    await expect.poll(() => page.getByTestId('members-active').textContent()).toBe('1');
    expect(await page.getByTestId('tier-bronze').textContent()).toBe('1');
    expect(await page.getByRole('table', { name: 'Members by tier' }).getByRole('rowheader').allTextContents()).toEqual([
      'Bronze',
      'Silver',
      'Gold',
      'Platinum',
    ]);
    await expectAccessible(page, 'overview with the points report');
    // What is shown, as a CSV file: a row per day, then the period (redeemed, deducted, outstanding).
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download CSV' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^points-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}-by-day\.csv$/);
    const csv = readFileSync(await download.path(), 'utf8')
      .trimEnd()
      .split('\r\n');
    expect(csv[0]).toBe('start,end,issued_base,issued_campaign,issued_manual,issued_total,redeemed,reversed,expired,deducted,outstanding,pending');
    expect(csv.at(-1)!.split(',').slice(5)).toEqual(['250', '40', '0', '0', '10', '200', '0']);
    // Before it, the period of equal length before this one: nothing happened then.
    expect(csv.at(-2)!.split(',').slice(5)).toEqual(['0', '0', '0', '0', '0', '0', '0']);

    // A period before anything happened: nothing moved, nothing outstanding.
    const period = page.getByRole('form', { name: 'Period' });
    await period.getByLabel('From').fill('2025-01-01');
    await period.getByLabel('To').fill('2025-12-31');
    await period.getByLabel('By').selectOption('month');
    await period.getByRole('button', { name: 'Show' }).click();
    // The points report names its period (the members section beside it names the same period too).
    await expect.poll(() => page.getByText(/2025-01-01 to 2025-12-31, .+, compared with/).count()).toBe(1);
    expect(await page.getByTestId('report-outstanding').textContent()).toBe('0');
    expect(await page.getByTestId('report-redemption-rate').textContent()).toBe('–');
    await shot(page, 'overview-points-report');
    await page.close();
  });

  it('explains each figure on hover and on keyboard focus, compares it with the period before, and downloads the members as CSV, at 1280 and 390 px', async () => {
    const owner = await tenant('overview-explained');
    const m = await newMember(owner.key);
    await call('POST', `/api/v2/members/${m.id}/points`, { token: owner.key, body: { type: 'earn', amount: 600, reason: 'welcome' } });
    await newMember(owner.key);
    const page = await browser.newTab();
    await page.setViewportSize({ width: 1280, height: 900 });
    await browser.signIn(page, owner.email, owner.password);
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Overview' }).click();
    await expect.poll(() => page.getByTestId('report-outstanding').textContent()).toBe('600');
    await expect.poll(() => page.getByTestId('members-active').textContent()).toBe('1');
    // Against the period before, when nothing had happened: the change in points, and none for what stayed at zero.
    expect(await page.getByTestId('change-outstanding').textContent()).toMatch(/^\+600 vs previous (day|\d+ days) \(none before\)$/);
    expect(await page.getByTestId('change-expired').textContent()).toMatch(/^no change vs previous/);
    expect(await page.getByTestId('change-active').textContent()).toMatch(/^\+1 vs previous/);
    expect(await page.getByTestId('tier-bronze').textContent()).toBe('1');
    expect(await page.getByTestId('tier-silver').textContent()).toBe('1');

    // Keyboard focus shows a figure's definition, which describes it; Escape hides it; hover shows another.
    const tip = page.getByTestId('tip-outstanding');
    expect(await tip.isVisible()).toBe(false);
    const term = page.getByRole('button', { name: /^Outstanding \(the liability\)/ });
    await term.focus();
    await expect.poll(() => tip.isVisible()).toBe(true);
    expect(await tip.textContent()).toContain('neither been redeemed nor expired');
    expect(await term.getAttribute('aria-describedby')).toBe('tip-outstanding');
    await expectAccessible(page, 'overview with a figure explained');
    await page.keyboard.press('Escape');
    await expect.poll(() => tip.isVisible()).toBe(false);
    await page.getByRole('button', { name: 'active members' }).hover();
    await expect.poll(() => page.getByTestId('tip-active').isVisible()).toBe(true);
    expect(await page.getByTestId('tip-active').textContent()).toContain('Distinct members');
    await expectAccessible(page, 'overview at 1280 px');

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download members CSV' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^members-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.csv$/);
    const rows = readFileSync(await download.path(), 'utf8')
      .trimEnd()
      .split('\r\n');
    expect(rows[0]).toBe('figure,value,previous');
    expect(rows[1]).toBe('members,2,');
    expect(rows[2]).toMatch(/^active \d{4}-\d{2}-\d{2} to \d{4}-\d{2}-\d{2},1,0$/);
    expect(rows.slice(3)).toEqual(['tier Bronze,1,', 'tier Silver,1,', 'tier Gold,0,', 'tier Platinum,0,']);

    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('button', { name: /^Outstanding \(the liability\)/ }).focus();
    await expect.poll(() => tip.isVisible()).toBe(true);
    const box = await tip.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 390).toBe(true);
    await expectAccessible(page, 'overview at 390 px');
    await shot(page, 'overview-explained-phone');
    await page.close();
  });

  it('asked for nothing from another host and broke no rule of its Content-Security-Policy', () => {
    expect(browser.requested.length).toBeGreaterThan(0);
    expect(browser.requested.filter((u) => !u.startsWith(base))).toEqual([]);
    expect(browser.cspViolations).toEqual([]);
  });
});
