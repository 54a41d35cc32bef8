import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Account, call, createKey, registerAccount, uniqueEmail } from '../support/api';
import { type ConsoleBrowser, expectAccessible, openConsoleBrowser, shot } from '../support/console';

/**
 * The Program screen in Chromium: the whole program (earning, how points age, the tier window and
 * retention) with each refusal next to its field, and its campaigns: created with the keyboard,
 * listed with what they granted, tried on a simulated order, paused, edited under a stale version
 * (409), deleted after confirming. axe-core checks every view.
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
const campaigns = async () => (await call('GET', '/api/flash/campaigns', { token: owner.token })).body.data as { id: string; name: string; status: string }[];

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

  it('creates a campaign with the keyboard, lists it, simulates an order with its grant, pauses it and deletes it after confirming', async () => {
    const page = await openProgram();
    await page.getByText('No campaigns yet').waitFor();
    await expectAccessible(page, 'program (no campaigns)');
    // Keyboard only: open the editor, type the name, Tab to the status and choose "active" with the arrows.
    await page.getByRole('link', { name: 'New campaign' }).focus();
    await page.keyboard.press('Enter');
    const editor = page.getByRole('form', { name: 'New campaign' });
    await editor.getByLabel('Name', { exact: true }).focus();
    await page.keyboard.type('Big basket bonus');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => (globalThis as any).document.activeElement.name)).toBe('status');
    await page.keyboard.press('ArrowDown');
    expect(await editor.getByLabel('Status').inputValue()).toBe('active');
    await editor.getByRole('button', { name: 'Add a condition' }).focus();
    await page.keyboard.press('Enter');
    expect(await editor.getByLabel('Field of condition 1').inputValue()).toBe('order.total');
    expect(await editor.getByLabel('Operator of condition 1').inputValue()).toBe('gte');
    await editor.getByLabel('Value of condition 1').focus();
    await page.keyboard.type('50');
    await editor.getByRole('spinbutton', { name: 'Bonus points' }).focus();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('25');
    await expectAccessible(page, 'program (new campaign)');
    await page.keyboard.press('Enter');
    // The list says what it does in a sentence.
    const row = page.getByRole('row', { name: /Big basket bonus active 25 bonus points on orders with a total of at least 50 0 0/ });
    await row.waitFor();
    expect(await editor.count()).toBe(0);
    const [made] = await campaigns();
    expect(made).toMatchObject({ name: 'Big basket bonus', status: 'active', conditions: [{ field: 'order.total', op: 'gte', value: 50 }] });

    // Simulated: base points of the earn rule, the campaign's grant, the total; nothing recorded.
    await page.getByLabel('Order total').fill('120');
    await page.getByRole('button', { name: 'Simulate' }).click();
    const simulation = page.getByTestId('simulation');
    await simulation.getByText('Total: 145 points').waitFor();
    expect(await simulation.textContent()).toContain('Base points: 120');
    expect(await simulation.textContent()).toContain('Big basket bonus: +25 points');
    const why = simulation.getByRole('table', { name: 'Why each campaign grants or not' });
    await why.getByRole('row', { name: /Big basket bonus Granted Big basket bonus: 25 bonus points/ }).waitFor();
    await expectAccessible(page, 'program (simulated)');
    await shot(page, 'campaigns');
    expect((await call('GET', `/api/flash/campaigns/${made!.id}`, { token: owner.token })).body.data).toMatchObject({ grants: 0, pointsGranted: 0 });
    // Below the condition: base points only.
    await page.getByLabel('Order total').fill('40');
    await page.getByRole('button', { name: 'Simulate' }).click();
    await simulation.getByText('No campaign grants anything for this order.').waitFor();
    await why.getByRole('row', { name: /Big basket bonus A condition fails .*order\.total gte 50 does not hold \(order\.total: 40\)/ }).waitFor();

    // Duplicated: a draft copy with the same conditions and effect, saved as a new campaign.
    await page.getByRole('link', { name: 'Duplicate Big basket bonus' }).click();
    const copy = page.getByRole('form', { name: 'New campaign from Big basket bonus' });
    expect(await copy.getByLabel('Name', { exact: true }).inputValue()).toBe('Copy of Big basket bonus');
    expect(await copy.getByLabel('Status').inputValue()).toBe('draft');
    await copy.getByRole('button', { name: 'Create campaign' }).click();
    await page.getByRole('row', { name: /Copy of Big basket bonus draft 25 bonus points on orders with a total of at least 50 0 0/ }).waitFor();
    const copied = (await campaigns()).find((c) => c.name === 'Copy of Big basket bonus');
    expect(copied).toMatchObject({
      status: 'draft',
      conditions: [{ field: 'order.total', op: 'gte', value: 50 }],
      effect: { type: 'bonus_points', points: 25 },
    });
    expect((await call('DELETE', `/api/flash/campaigns/${copied!.id}`, { token: owner.token })).status).toBe(204);

    // Paused: it grants nothing.
    await page.getByRole('button', { name: 'Pause Big basket bonus' }).click();
    await page.getByRole('row', { name: /Big basket bonus paused/ }).waitFor();
    expect((await campaigns())[0]).toMatchObject({ status: 'paused' });
    await page.getByLabel('Order total').fill('120');
    await page.getByRole('button', { name: 'Simulate' }).click();
    await simulation.getByText('Total: 120 points').waitFor();

    // Deleting asks first; Cancel keeps it.
    await page.getByRole('button', { name: 'Delete Big basket bonus' }).click();
    const confirm = page.getByRole('group', { name: 'Confirm deleting Big basket bonus' });
    await expectAccessible(page, 'program (deleting a campaign)');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    expect(await campaigns()).toHaveLength(1);
    await page.getByRole('button', { name: 'Delete Big basket bonus' }).click();
    await confirm.getByRole('button', { name: 'Delete campaign' }).click();
    await page.getByText('No campaigns yet').waitFor();
    expect(await campaigns()).toEqual([]);
    await page.close();
  });

  it('edits a campaign with the version it read: a change made meanwhile is refused (409) in the API words, a bad field next to the field', async () => {
    const made = await call('POST', '/api/flash/campaigns', {
      token: owner.token,
      body: { name: 'Win-back', trigger: { type: 'order' }, effect: { type: 'multiplier', factor: 2 } },
    });
    expect(made.status).toBe(201);
    const page = await openProgram();
    await page.getByRole('link', { name: 'Edit Win-back' }).click();
    const editor = page.getByRole('form', { name: 'Edit Win-back' });
    expect(await editor.getByLabel('Factor').inputValue()).toBe('2');
    // A refused field: an inactivity trigger needs 1-3650 days.
    await editor.getByLabel('Trigger').selectOption('inactivity');
    await editor.getByLabel('Days without an earn or spend').fill('0');
    await editor.getByRole('button', { name: 'Save campaign' }).click();
    await page.locator('#err-triggerDays').waitFor();
    expect(await editor.getByRole('alert').textContent()).toMatch(/VALIDATION_FAILED.*trigger\.days: must be at least 1.*Request id: req_/s);
    await expectAccessible(page, 'program (refused campaign)');
    // Someone else changes it meanwhile: the version this editor read is stale.
    const changed = await call('PATCH', `/api/flash/campaigns/${made.body.data.id}`, { token: owner.token, body: { priority: 5 } });
    expect(changed.body.data.version).toBe(2);
    await editor.getByLabel('Days without an earn or spend').fill('90');
    await editor.getByRole('button', { name: 'Save campaign' }).click();
    await expect.poll(() => editor.getByRole('alert').textContent()).toMatch(/version 2, not 1.*CONFLICT.*Request id: req_/s);
    expect((await campaigns())[0]).toMatchObject({ trigger: { type: 'order' } });
    // Read again (Cancel, then Edit), the change applies.
    await editor.getByRole('button', { name: 'Cancel' }).click();
    await editor.waitFor({ state: 'detached' });
    expect(new URL(page.url()).pathname).toBe('/console/program');
    // Reloaded and settled (the rules, the list and its tier names read) before the click, so the link clicked stays where it was.
    await page.reload({ waitUntil: 'networkidle' });
    await page.getByRole('link', { name: 'Edit Win-back' }).click();
    await page.waitForURL(/\/console\/program\/campaigns\/cmp_/);
    expect(await page.getByRole('form', { name: 'Edit Win-back' }).getByLabel('Priority (higher goes first)').inputValue()).toBe('5');
    await page.getByRole('form', { name: 'Edit Win-back' }).getByLabel('Trigger').selectOption('inactivity');
    await page.getByRole('form', { name: 'Edit Win-back' }).getByLabel('Days without an earn or spend').fill('90');
    await page.getByRole('form', { name: 'Edit Win-back' }).getByRole('button', { name: 'Save campaign' }).click();
    await page.getByRole('row', { name: /Win-back draft 2× points after 90 days without activity/ }).waitFor();
    expect((await campaigns())[0]).toMatchObject({ trigger: { type: 'inactivity', days: 90 }, priority: 5 });
    await page.close();
  });

  it('simulates for a member picked by e-mail at a date: the list says why each campaign grants or not', async () => {
    const key = await createKey(owner.token, { name: 'simulate', preset: 'write' });
    const member = (await call('POST', '/api/v2/members', { token: key.key, body: { email: uniqueEmail('simulated') } })).body.data;
    const made = await call('POST', '/api/flash/campaigns', {
      token: owner.token,
      body: { name: 'Weekday treat', status: 'active', trigger: { type: 'order' }, effect: { type: 'bonus_points', points: 5 } },
    });
    expect(made.status).toBe(201);
    const page = await openProgram();
    const simulation = page.getByTestId('simulation');
    const why = simulation.getByRole('table', { name: 'Why each campaign grants or not' });
    await page.getByLabel('Order total').fill('120');
    await page.getByLabel('Member e-mail or id (optional: a new member otherwise)').fill(member.email);
    await page.getByRole('button', { name: 'Simulate' }).click();
    await simulation.getByText(`by member ${member.id}`).waitFor();
    await why.getByRole('row', { name: /Weekday treat Granted Weekday treat: 5 bonus points/ }).waitFor();
    // Placed a month ago: too old for campaigns (the 7-day backdating limit).
    const monthAgo = new Date(Date.now() - 30 * 86_400_000);
    const local = new Date(monthAgo.getTime() - monthAgo.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
    await page.getByLabel('Placed at (your time; empty: now)').fill(local);
    await page.getByRole('button', { name: 'Simulate' }).click();
    await why.getByRole('row', { name: /Weekday treat Order too old/ }).waitFor();
    await simulation.getByText('No campaign grants anything for this order.').waitFor();
    await expectAccessible(page, 'program (simulated, why not)');
    await call('DELETE', `/api/flash/campaigns/${made.body.data.id}`, { token: owner.token });
    await page.close();
  });

  it('explains a refused condition next to its row and an end before the start next to the end, offers the operators its field takes, and shows a failed simulation in the API words', async () => {
    const page = await openProgram();
    await page.getByRole('link', { name: 'New campaign' }).click();
    const editor = page.getByRole('form', { name: 'New campaign' });
    await editor.getByLabel('Name', { exact: true }).fill('First order bonus');
    await editor.getByRole('button', { name: 'Add a condition' }).click();
    // A list field takes contains and in only: the operator follows the field.
    await editor.getByLabel('Field of condition 1').selectOption('member.tags');
    expect(await editor.getByLabel('Operator of condition 1').inputValue()).toBe('contains');
    expect(await editor.getByLabel('Operator of condition 1').locator('option').allTextContents()).toEqual(['contains', 'in']);
    await editor.getByLabel('Field of condition 1').selectOption('order.isFirst');
    expect(await editor.getByLabel('Operator of condition 1').inputValue()).toBe('eq');
    await editor.getByLabel('Value of condition 1').fill('yes');
    await editor.getByRole('button', { name: 'Create campaign' }).click();
    await page.locator('#err-condition-0').waitFor();
    expect(await page.locator('#err-condition-0').textContent()).toBe('order.isFirst compares with a boolean');
    expect(await editor.getByLabel('Value of condition 1').getAttribute('aria-describedby')).toBe('err-condition-0');
    expect((await campaigns()).filter((c) => c.name === 'First order bonus')).toEqual([]);
    await editor.getByLabel('Value of condition 1').fill('true');
    // Dates in the reader's time zone: an end before the start is refused next to the end.
    await editor.getByLabel('Starts at (optional)').fill('2027-03-01T10:00');
    await editor.getByLabel('Ends at (optional)').fill('2027-02-01T10:00');
    await editor.getByRole('button', { name: 'Create campaign' }).click();
    await expect.poll(() => page.locator('#err-endsAt').textContent()).toBe('must be after startsAt');
    expect(await page.locator('#err-condition-0').count()).toBe(0);
    await editor.getByLabel('Ends at (optional)').fill('2027-04-01T10:00');
    await editor.getByRole('button', { name: 'Create campaign' }).click();
    await page.getByRole('row', { name: /First order bonus draft 50 bonus points on orders on a first order/ }).waitFor();
    const window = await page.evaluate(() => [new Date('2027-03-01T10:00').toISOString(), new Date('2027-04-01T10:00').toISOString()]);
    expect((await campaigns()).find((c) => c.name === 'First order bonus')).toMatchObject({
      conditions: [{ field: 'order.isFirst', op: 'eq', value: true }],
      startsAt: window[0],
      endsAt: window[1],
    });
    // A simulation for a member the workspace does not have: refused, in the API's words, nothing shown as a result.
    await page.getByLabel('Member e-mail or id (optional: a new member otherwise)').fill('mbr_01nosuchmember0000000000000');
    await page.getByRole('button', { name: 'Simulate' }).click();
    const refusal = page.getByRole('form', { name: 'Simulate an order' }).getByRole('alert');
    await expect.poll(() => refusal.textContent()).toMatch(/NOT_FOUND.*Request id: req_/s);
    expect(await page.getByTestId('simulation').count()).toBe(0);
    await expectAccessible(page, 'program (refused simulation)');
    await page.close();
  });

  it("offers the weekdays and the program's tiers by name to pick, with the keyboard, instead of typing them", async () => {
    const page = await openProgram();
    const levels = (await program()).tiers.levels as { key: string; name: string }[];
    const top = levels.at(-1)!;
    await page.getByRole('link', { name: 'New campaign' }).click();
    const editor = page.getByRole('form', { name: 'New campaign' });
    await editor.getByLabel('Name', { exact: true }).fill('Weekend for the top tier');
    await editor.getByRole('button', { name: 'Add a condition' }).click();
    await editor.getByLabel('Field of condition 1').selectOption('date.weekday');
    await editor.getByLabel('Operator of condition 1').selectOption('in');
    const days = editor.getByRole('group', { name: 'Values of condition 1' });
    expect(await days.getByRole('checkbox').count()).toBe(7);
    // Keyboard only: Tab to a day, Space ticks it.
    await days.getByRole('checkbox', { name: 'Saturday' }).focus();
    await page.keyboard.press('Space');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => (globalThis as any).document.activeElement.parentElement.textContent.trim())).toBe('Sunday');
    await page.keyboard.press('Space');
    await editor.getByRole('button', { name: 'Add a condition' }).click();
    await editor.getByLabel('Field of condition 2').selectOption('member.tier');
    const tier = editor.getByLabel('Value of condition 2');
    // The tiers by name, in the program's order (a blank choice first until one is picked).
    expect(await tier.locator('option').allTextContents()).toEqual(['Choose…', ...levels.map((l) => l.name)]);
    await tier.selectOption({ label: top.name });
    await expectAccessible(page, 'program (conditions picked)');
    await editor.getByRole('button', { name: 'Create campaign' }).click();
    await page.getByRole('row', { name: /Weekend for the top tier draft/ }).waitFor();
    expect((await campaigns()).find((c) => c.name === 'Weekend for the top tier')).toMatchObject({
      conditions: [
        { field: 'date.weekday', op: 'in', value: ['saturday', 'sunday'] },
        { field: 'member.tier', op: 'eq', value: top.key },
      ],
    });
    await page.close();
  });

  it('asked for nothing from another host and broke no rule of its Content-Security-Policy', () => {
    expect(browser.requested.filter((u) => !u.startsWith(browser.base))).toEqual([]);
    expect(browser.cspViolations).toEqual([]);
  });
});
