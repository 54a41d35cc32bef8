import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../support/api';
import { type ConsoleBrowser, expectAccessible, openConsoleBrowser } from '../support/console';
import { newMember, tenant, type Tenant } from '../support/fixtures';
import { addUser } from '../support/table';

/**
 * The console by role in Chromium: a support agent and an analyst see only the screens and controls
 * their permissions open (so nothing they can click is refused), a screen's address outside them says
 * so instead of loading it, and the same session calling a route outside the role directly is refused
 * with 403 naming the permission.
 */

let browser: ConsoleBrowser;
let owner: Tenant;

beforeAll(async () => {
  owner = await tenant('console-roles');
  browser = await openConsoleBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

const nav = (page: Page) => page.getByRole('navigation', { name: 'Console' });
const navNames = async (page: Page) => (await nav(page).getByRole('link').allTextContents()).map((t) => t.trim());

/** The session cookie and CSRF token the page holds, for a direct call with the same session. */
async function sessionOf(page: Page): Promise<{ cookie: string; csrf: string }> {
  const cookies = await page.context().cookies();
  const cookie = cookies.map((c) => `${c.name}=${c.value}`).join('; ');
  const session = await call('GET', '/api/flash/session', { headers: { cookie } });
  return { cookie, csrf: session.body.data.session.csrfToken };
}

/** Every answer the page received from the console's API: none may be a refusal. */
function refusalsOf(page: Page): string[] {
  const refused: string[] = [];
  page.on('response', (r) => {
    if (r.status() === 403) refused.push(`${r.request().method()} ${r.url()}`);
  });
  return refused;
}

describe('the console by role (headless Chromium)', () => {
  it('a support agent sees members and adjusts points, not the program, exports, keys or the team; a direct call outside the role is refused', async () => {
    const member = await newMember(owner.key, { firstName: 'Ada' });
    const support = await addUser(owner.workspaceId, 'support');
    const page = await browser.newTab();
    const refused = refusalsOf(page);
    await browser.signIn(page, support.email, support.password);
    await nav(page).waitFor();
    // The rewards catalog read only (rewards:read): what members may redeem, to answer them.
    expect(await navNames(page)).toEqual(['Overview', 'Members', 'Program', 'Rewards']);
    // The Overview without the points report (reports:read is not support's).
    await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
    await page.getByTestId('members').waitFor();
    expect(await page.getByRole('heading', { name: 'Points', level: 2 }).count()).toBe(0);

    await page.goto(`${browser.base}/console/members/${member.id}`);
    await page.getByRole('heading', { name: 'Adjust points' }).waitFor();
    expect(await page.getByRole('button', { name: /Erase this member/ }).count()).toBe(0);
    await expectAccessible(page, 'member detail (support)');

    // The program reads, with nothing to save, no campaign to create and no simulator.
    await nav(page).getByRole('link', { name: 'Program' }).click();
    await page.getByRole('heading', { name: 'Campaigns' }).waitFor();
    await page.getByText('Your role reads the program').waitFor();
    expect(await page.getByRole('button', { name: 'Save the program' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'New campaign' }).count()).toBe(0);

    // A screen outside the role, by its address: said, not loaded.
    await page.goto(`${browser.base}/console/team`);
    await page.getByRole('heading', { name: 'Not for your role' }).waitFor();
    expect(refused).toEqual([]);

    const { cookie, csrf } = await sessionOf(page);
    const put = await call('PUT', '/api/flash/program', { headers: { cookie, 'x-csrf-token': csrf, origin: browser.base }, body: {} });
    expect(put.status).toBe(403);
    expect(put.body.error.message).toContain('Your role (support) lacks the permission program:manage');
    await page.close();
  });

  it('an analyst sees the reports, exports and the audit log, not members; the members export is not offered and is refused when asked for', async () => {
    const analyst = await addUser(owner.workspaceId, 'analyst');
    const page = await browser.newTab();
    const refused = refusalsOf(page);
    await browser.signIn(page, analyst.email, analyst.password);
    await nav(page).waitFor();
    // The rewards catalog read only (rewards:read): no member data in it.
    expect(await navNames(page)).toEqual(['Overview', 'Program', 'Rewards', 'Exports', 'Audit log']);
    await page.getByRole('heading', { name: 'Points', level: 2 }).waitFor();

    await nav(page).getByRole('link', { name: 'Exports' }).click();
    await page.getByRole('heading', { name: 'Export files' }).waitFor();
    expect(await page.getByRole('heading', { name: 'Workspace archive' }).count()).toBe(0);
    const entities = await page.locator('select[name="entity"] option').evaluateAll((options) => options.map((o) => (o as unknown as { value: string }).value));
    expect(entities).toEqual(['orders', 'ledger']);
    await expectAccessible(page, 'exports (analyst)');

    await nav(page).getByRole('link', { name: 'Audit log' }).click();
    await page.getByRole('heading', { name: 'Audit log', level: 1 }).waitFor();
    await page.goto(`${browser.base}/console/members`);
    await page.getByRole('heading', { name: 'Not for your role' }).waitFor();
    expect(refused).toEqual([]);

    const { cookie, csrf } = await sessionOf(page);
    const headers = { cookie, 'x-csrf-token': csrf, origin: browser.base };
    const members = await call('GET', '/api/flash/members', { headers });
    expect(members.status).toBe(403);
    expect(members.body.error.details).toEqual([{ in: 'header', field: 'authorization', message: 'missing permission members:read' }]);
    const exported = await call('POST', '/api/flash/exports', { headers, body: { entity: 'members', format: 'csv' } });
    expect(exported.status).toBe(403);
    await page.close();
  });

  it('a developer sees keys, webhooks and object types, and is offered no privacy scope for a key', async () => {
    const developer = await addUser(owner.workspaceId, 'developer');
    const page = await browser.newTab();
    const refused = refusalsOf(page);
    await browser.signIn(page, developer.email, developer.password);
    await nav(page).waitFor();
    expect(await navNames(page)).toEqual(['Overview', 'Program', 'Object types', 'Webhooks', 'API keys']);
    await nav(page).getByRole('link', { name: 'API keys' }).click();
    await page.locator('select[name="access"]').selectOption('custom');
    await page.getByRole('checkbox', { name: 'members:write' }).waitFor();
    expect(await page.getByRole('checkbox', { name: 'privacy:write' }).count()).toBe(0);
    expect(await page.getByRole('checkbox', { name: 'privacy:read' }).count()).toBe(0);
    expect(refused).toEqual([]);
    await page.close();
  });
});
