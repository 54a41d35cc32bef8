import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../support/api';
import { type ConsoleBrowser, expectAccessible, openConsoleBrowser } from '../support/console';
import { tenant, type Tenant } from '../support/fixtures';

/**
 * The Imports screen in Chromium against the running platform: a CSV with one bad row chosen in a
 * file input and uploaded by the browser straight to its presigned link (a cross-origin PUT to
 * s3rver, allowed by the bucket's CORS rule), the preview's error line, an apply confirmed and
 * followed on its progress bar to completed, and an undo confirmed. axe-core and a 390 px width on
 * the job's view.
 */

let browser: ConsoleBrowser;
let owner: Tenant;

beforeAll(async () => {
  owner = await tenant('console-imports-walk');
  browser = await openConsoleBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

const CSV = 'externalId,email,firstName\nWEB-1,web-1@example.test,Ada\nWEB-2,not-an-email,Bob\nWEB-3,web-3@example.test,Cy\n';

const sideways = (page: Page) =>
  page.evaluate(() => {
    const root = (globalThis as any).document.documentElement;
    return root.scrollWidth - root.clientWidth;
  });

describe('the Imports screen (headless Chromium)', () => {
  it('uploads a CSV, shows its bad line, applies it to completed on a progress bar, and undoes it', { timeout: 180_000 }, async () => {
    const page = await browser.newTab();
    await browser.signIn(page, owner.email, owner.password);
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Imports' }).click();
    await page.getByRole('heading', { name: 'Imports', level: 1 }).waitFor();
    await page.getByText('No import yet.').waitFor();
    await expectAccessible(page, 'imports (empty)');

    await page.getByLabel('What').selectOption('members');
    await page.getByLabel('Format').selectOption('csv');
    await page.getByLabel('File', { exact: true }).setInputFiles({ name: 'members.csv', mimeType: 'text/csv', buffer: Buffer.from(CSV) });
    await page.getByRole('button', { name: 'Upload the file' }).click();
    await page.getByRole('heading', { name: /^Import imp_/, level: 1 }).waitFor();
    await page.getByText('awaiting_upload').waitFor();

    await page.getByRole('button', { name: 'Preview the file' }).click();
    const errors = page.getByRole('table', { name: 'The first errors, by line of the file' });
    await errors.waitFor();
    expect(await errors.getByRole('row').nth(1).getByRole('cell').allTextContents()).toEqual(['3', 'email', expect.any(String)]);
    await page.getByText('3 rows: 2 valid, 1 invalid').waitFor();
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await sideways(page), 'the preview scrolls sideways').toBeLessThanOrEqual(0);
    await expectAccessible(page, 'import previewed');

    // Apply asks first; Cancel leaves the job as it was.
    await page.getByRole('button', { name: /^Apply import imp_/ }).click();
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('button', { name: /^Apply import imp_/ }).click();
    await page.getByRole('button', { name: 'Apply the import' }).click();
    const bar = page.getByRole('progressbar', { name: 'Rows applied' });
    await bar.waitFor();
    await page.getByText('completed', { exact: true }).waitFor({ timeout: 60_000 });
    expect(await bar.getAttribute('aria-valuetext')).toBe('3 of 3 rows');
    expect(await bar.evaluate((b: any) => [b.value, b.max])).toEqual([3, 3]);
    expect(await sideways(page), 'the finished job scrolls sideways').toBeLessThanOrEqual(0);
    await expectAccessible(page, 'import completed');
    expect((await call('GET', '/api/v2/members?externalId=WEB-1', { token: owner.key })).body.data).toHaveLength(1);

    await page.getByRole('button', { name: /^Undo import imp_/ }).click();
    await page.getByRole('button', { name: 'Undo the import' }).click();
    await page.getByText('undone', { exact: true }).waitFor();
    await page.getByText('Undone: 2 rows taken back, 0 members kept').waitFor();
    expect((await call('GET', '/api/v2/members?externalId=WEB-1', { token: owner.key })).body.data).toEqual([]);

    // The list holds the job, newest first, with a link to it.
    await page.getByRole('link', { name: 'Back to the imports' }).click();
    await page.getByRole('link', { name: /^Open imp_/ }).waitFor();
    await page.close();
  });
});
