import { mkdir, stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { routes } from '../../shared/http/declarations';
import { ERROR_CODES, type ErrorCode } from '../../shared/platform/errors';
import { docUrlOf } from '../../shared/platform/contract/reference';
import { call } from '../support/api';
import { launchChromium } from '../support/browser';

/**
 * The reference page in headless Chromium, on the local runtime: it renders the live document,
 * its search finds operations, error answers' `docUrl` lead to their section, it runs under its
 * own Content-Security-Policy and asks no host but the platform for anything.
 */

const OUTPUT = fileURLToPath(new URL('../output/', import.meta.url));
const base = inject('baseUrl');
const summaryOf = (operationId: string) => routes.find((r) => r.operationId === operationId)!.summary;

let browser: Awaited<ReturnType<typeof launchChromium>>;
let page: Page;
const requested: string[] = [];
const cspViolations: string[] = [];

/** A new tab on a page of the platform (a fresh load: a hash change alone would not reload the page). */
async function open(path: string): Promise<Page> {
  const tab = await browser.context.newPage();
  tab.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
  });
  await tab.goto(`${base}${path}`, { waitUntil: 'load', timeout: 120_000 });
  return tab;
}

beforeAll(async () => {
  browser = await launchChromium();
  browser.context.on('request', (request) => requested.push(request.url()));
  page = await open('/docs');
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

/** The heading of a code's section is visible in the viewport once the page has settled. */
async function expectSectionInView(tab: Page, code: string): Promise<void> {
  const heading = tab.getByRole('heading', { name: code, exact: true });
  // A fresh load renders the whole document first: slow on a busy machine.
  await heading.waitFor({ state: 'visible', timeout: 120_000 });
  await expect
    .poll(
      async () => {
        const box = await heading.boundingBox();
        return box !== null && box.y >= 0 && box.y < (tab.viewportSize()?.height ?? 720);
      },
      { timeout: 15_000, message: code },
    )
    .toBe(true);
}

/**
 * The address bar's hash once the page has settled after a jump (the renderer names the address
 * after what it scrolled to a moment later): what a reader copies to share the section. Settled
 * means unchanged for `quietMs`; a rename after that would come from no scrolling of ours.
 */
async function settledHash(tab: Page, quietMs: number): Promise<string> {
  const deadline = Date.now() + 15_000;
  let hash = await tab.evaluate<string>('window.location.hash');
  let since = Date.now();
  while (Date.now() - since < quietMs && Date.now() < deadline) {
    await tab.waitForTimeout(100);
    const now = await tab.evaluate<string>('window.location.hash');
    if (now !== hash) [hash, since] = [now, Date.now()];
  }
  return hash;
}

describe('API reference page (headless Chromium)', () => {
  it('renders the operations of the live document, and a screenshot is kept', async () => {
    await page.getByRole('heading', { name: 'Loyalty platform API', level: 1 }).waitFor({ state: 'visible', timeout: 30_000 });
    // The first tag opens by itself: its operations show their summaries.
    for (const operationId of ['getOpenApi', 'getReference', 'getApiIndex']) {
      await page.getByText(summaryOf(operationId), { exact: true }).first().waitFor({ state: 'visible', timeout: 30_000 });
    }
    // Every tag of the document is in the sidebar.
    for (const area of ['orders', 'members', 'webhooks']) {
      await expect(page.getByRole('button', { name: new RegExp(`Group - ${area}$`) }).count()).resolves.toBe(1);
    }
    await mkdir(OUTPUT, { recursive: true });
    const file = `${OUTPUT}reference-page.png`;
    await page.screenshot({ path: file });
    expect((await stat(file)).size).toBeGreaterThan(10_000);
  });

  it('finds createOrder with its search box', async () => {
    await page.getByRole('button', { name: /Open Search/ }).click();
    await page.keyboard.type('createOrder');
    const results = page.getByRole('dialog');
    await results.getByText(summaryOf('createOrder')).first().waitFor({ state: 'visible', timeout: 15_000 });
    const first = (await results.innerText()).split(/Operation:/)[1] ?? '';
    expect(first).toContain(summaryOf('createOrder'));
    expect(first).toContain('/api/v2/orders');
    await page.screenshot({ path: `${OUTPUT}reference-search.png` });
    await page.keyboard.press('Escape');
  });

  it('marks required body fields as required', async () => {
    // A fresh load: a hash change on the rendered page does not open an operation. Closed after, so
    // its rendering does not slow the pages of the tests after it.
    const tab = await open('/docs#api/tag/orders/POST/api/v2/orders');
    try {
      const operation = tab.locator('[id="api/tag/orders/POST/api/v2/orders"]');
      await operation.getByText('externalOrderId', { exact: true }).first().waitFor({ state: 'visible', timeout: 30_000 });
      // Each required property carries the renderer's "required" badge.
      const text = await operation.innerText();
      expect(text).toMatch(/externalOrderId\s+Type:\s+string\s+required/);
    } finally {
      await tab.close();
    }
  });

  it("follows an error answer's docUrl to the section on its code, and the address keeps naming it", async () => {
    const res = await call('GET', '/api/v2/nothing-here');
    expect(res.body.error.docUrl).toBe(`${base}/docs#api/description/not-found`);
    // A browser of its own, as a reader arriving from an error answer has: the other tests' tabs,
    // still rendering, would slow this page's start and move the moment the renderer renames the
    // address into the time it ignores its own scrolling.
    const own = await launchChromium();
    try {
      const tab = await own.context.newPage();
      await tab.goto(res.body.error.docUrl, { waitUntil: 'load', timeout: 120_000 });
      await expectSectionInView(tab, 'NOT_FOUND');
      // Copying the address shares the section, not the introduction.
      expect(await settledHash(tab, 2_000)).toBe('#api/description/not-found');
      await expectSectionInView(tab, 'NOT_FOUND');
    } finally {
      await own.close();
    }
  }, 180_000);

  // Every code of the error table, so codes added later are covered: following its docUrl on the
  // open page shows its heading (the code as written, not read as Markdown emphasis). The page the
  // first tests rendered, still at the top of the document: a fresh load per code measured the
  // renderer's start-up 25 times, a fresh load for the walk rendered the whole document once more,
  // and the fresh load itself is what the NOT_FOUND test above follows. Once the page has settled,
  // the address still names the code's section (the first jump from the top of the page is the one
  // the renderer used to rename after the introduction).
  it('the docUrl of every error code lands on its section', async () => {
    // The renderer follows address changes once it has rendered the document.
    await page.getByRole('heading', { name: 'Loyalty platform API', level: 1 }).waitFor({ state: 'visible', timeout: 120_000 });
    for (const code of Object.keys(ERROR_CODES) as ErrorCode[]) {
      const url = new URL(docUrlOf(code, base));
      await page.goto(`${base}${url.pathname}${url.hash}`);
      await expectSectionInView(page, code);
      expect(await settledHash(page, 500), code).toBe(url.hash);
    }
  }, 180_000);

  it('asked no host but the platform for anything, and broke no rule of its Content-Security-Policy', () => {
    expect(requested.length).toBeGreaterThan(3);
    const own = new URL(base).host;
    expect([...new Set(requested.map((url) => new URL(url).host))]).toEqual([own]);
    expect(requested).toContain(`${base}/api/v2/openapi.json`);
    expect(cspViolations).toEqual([]);
  });
});
