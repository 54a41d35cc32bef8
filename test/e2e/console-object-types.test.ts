import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { call } from '../support/api';
import { type ConsoleBrowser, expectAccessible, openConsoleBrowser, shot } from '../support/console';
import { tenant, type Tenant } from '../support/fixtures';
import { addUser } from '../support/table';

/**
 * Object types in the console: the records browse route (any type, drafts too, by cursor; owners
 * and admins of the workspace only) over HTTP, and the Object types screen in Chromium: a type
 * created with its fields, refused input in the API's words, published and made visible, and its
 * records (created through the API) browsed.
 */

const base = inject('baseUrl');
let browser: ConsoleBrowser;
let owner: Tenant;

beforeAll(async () => {
  owner = await tenant('console-types-walk');
  browser = await openConsoleBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

const vehicle = (status: 'draft' | 'published') => ({
  label: 'Vehicle',
  status,
  apiVisible: true,
  fields: [{ key: 'plate', type: 'text', required: true }],
});

describe('GET /api/flash/objects/types/{type}/records', () => {
  it('pages through the live records of a type by cursor, a draft type too; owners and admins of the workspace only', async () => {
    const [a, b] = await Promise.all([tenant('browse-a'), tenant('browse-b')]);
    expect((await call('PUT', '/api/flash/objects/types/vehicle', { token: a.token, body: vehicle('published') })).status).toBe(200);
    const ids: string[] = [];
    for (const plate of ['B-1', 'B-2', 'B-3']) {
      const made = await call('POST', '/api/v2/objects/vehicle/records', { token: a.key, body: { data: { plate } } });
      ids.push(made.body.data.id);
    }
    expect((await call('DELETE', `/api/v2/objects/vehicle/records/${ids[0]}`, { token: a.key })).status).toBe(204);
    // Back to draft: gone from the API, still browsed in the console.
    expect((await call('PUT', '/api/flash/objects/types/vehicle', { token: a.token, body: vehicle('draft') })).status).toBe(200);
    expect((await call('GET', '/api/v2/objects/vehicle/records', { token: a.key })).status).toBe(404);

    const first = await call('GET', '/api/flash/objects/types/vehicle/records?limit=1', { token: a.token });
    expect(first.status).toBe(200);
    expect(first.body.data).toEqual([expect.objectContaining({ id: ids[2], data: { plate: 'B-3' } })]);
    const second = await call('GET', `/api/flash/objects/types/vehicle/records?limit=1&cursor=${encodeURIComponent(first.body.nextCursor)}`, {
      token: a.token,
    });
    expect(second.body.data.map((r: { id: string }) => r.id)).toEqual([ids[1]]);
    const rest = await call('GET', `/api/flash/objects/types/vehicle/records?limit=1&cursor=${encodeURIComponent(second.body.nextCursor)}`, { token: a.token });
    expect(rest.body).toEqual({ data: [], nextCursor: null });

    expect((await call('GET', '/api/flash/objects/types/nothing_here/records', { token: a.token })).status).toBe(404);
    expect((await call('GET', '/api/flash/objects/types/vehicle/records', { token: b.token })).status).toBe(404);
    expect((await call('GET', '/api/flash/objects/types/vehicle/records', { token: a.key })).status).toBe(403);
    const member = await addUser(a.workspaceId, 'member');
    const memberToken = (await call('POST', '/api/v2/auth/login', { body: { email: member.email, password: member.password } })).body.data.session.token;
    expect((await call('GET', '/api/flash/objects/types/vehicle/records', { token: memberToken })).status).toBe(403);
    expect((await call('GET', '/api/flash/objects/types/vehicle/records?limit=0', { token: a.token })).status).toBe(422);
  });
});

async function openTypes(page: Page): Promise<void> {
  await browser.signIn(page, owner.email, owner.password);
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Object types' }).click();
  await page.getByRole('heading', { name: 'Object types', level: 1 }).waitFor();
}

describe('the Object types screen (headless Chromium)', () => {
  it('creates a type with its fields, shows a refusal in the API’s words, publishes it and browses its records', async () => {
    const page = await browser.newTab();
    await openTypes(page);
    await page.getByText('No object types yet').waitFor();
    await expectAccessible(page, 'object-types (empty)');

    await page.getByRole('button', { name: 'New object type' }).click();
    await page.getByLabel('Key', { exact: true }).fill('repair_job');
    await page.getByLabel('Label').fill('Repair job');
    await page.getByLabel('Key of field 1').fill('title');
    await page.getByRole('button', { name: 'Add a field' }).click();
    await page.getByLabel('Key of field 2').fill('state');
    await page.getByLabel('Type of field 2').selectOption('enum');
    await page.getByRole('button', { name: 'Save object type' }).click();
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toMatch(/fields\.1\.options: .*VALIDATION_FAILED|VALIDATION_FAILED.*fields\.1\.options: .*Request id: /s);
    expect((await call('GET', '/api/flash/objects/types', { token: owner.token })).body.data).toEqual([]);
    await expectAccessible(page, 'object-types (refused)');
    await page.getByLabel('Options of field 2 (comma-separated)').fill('open, done');
    await page.getByRole('button', { name: 'Save object type' }).click();
    await page.getByRole('cell', { name: 'repair_job' }).waitFor();
    expect(await page.getByRole('cell', { name: 'draft' }).count()).toBe(1);

    await page.getByRole('button', { name: 'Edit Repair job' }).click();
    expect(await page.getByLabel('Options of field 2 (comma-separated)').inputValue()).toBe('open, done');
    await page.getByLabel('Status').selectOption('published');
    await page.getByLabel('Visible to API keys (once published)').check();
    await page.getByRole('button', { name: 'Save object type' }).click();
    await page.getByRole('cell', { name: 'published' }).waitFor();
    const [saved] = (await call('GET', '/api/flash/objects/types', { token: owner.token })).body.data;
    expect(saved).toMatchObject({ type: 'repair_job', status: 'published', apiVisible: true, version: 2 });
    expect(saved.fields).toEqual([
      { key: 'title', type: 'text', required: true },
      { key: 'state', type: 'enum', required: false, options: ['open', 'done'] },
    ]);

    await page.getByRole('link', { name: 'Browse the records of Repair job' }).click();
    await page.getByText('No records of Repair job yet').waitFor();
    for (const [title, state] of [
      ['Broken hinge', 'open'],
      ['Loose strap', 'done'],
    ]) {
      expect((await call('POST', '/api/v2/objects/repair_job/records', { token: owner.key, body: { data: { title, state } } })).status).toBe(201);
    }
    await page.getByRole('link', { name: 'Browse the records of Repair job' }).click();
    await page.getByRole('region', { name: 'Records of Repair job' }).waitFor();
    await openTypes(page);
    await page.getByRole('link', { name: 'Browse the records of Repair job' }).click();
    await page.getByRole('cell', { name: 'Loose strap', exact: true }).waitFor();
    expect(await page.getByRole('cell', { name: 'Broken hinge', exact: true }).count()).toBe(1);
    await expectAccessible(page, 'object-types (records)');
    await shot(page, 'object-types');
    await page.close();
  });

  it('asked for nothing from another host and broke no rule of its Content-Security-Policy', () => {
    expect(browser.requested.length).toBeGreaterThan(0);
    expect(browser.requested.filter((u) => !u.startsWith(base))).toEqual([]);
    expect(browser.cspViolations).toEqual([]);
  });
});
