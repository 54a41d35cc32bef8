import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import type { BrowserContext, Page } from 'playwright-core';
import { expect, inject } from 'vitest';
import { launchChromium } from './browser';

/**
 * The console in a real browser, for the Chromium walks (test/e2e/console*.test.ts): one browser per
 * file, tabs that record every request and every Content-Security-Policy complaint, signing in
 * through the form, axe-core on a screen, screenshots into test/output/console/ (the copies in
 * docs/console/, shown in the README, are refreshed from there when a screen changes).
 */

const SHOTS = new URL('../output/console/', import.meta.url).pathname;
const AXE = readFileSync(new URL('../../node_modules/axe-core/axe.min.js', import.meta.url), 'utf8');

export interface ConsoleBrowser {
  context: BrowserContext;
  /** Every URL the pages asked for, and what the pages logged about their CSP. */
  requested: string[];
  cspViolations: string[];
  newTab(): Promise<Page>;
  /** A signed-out browser (the cookie of an earlier test gone) signing in through the form. */
  signIn(page: Page, email: string, password: string): Promise<void>;
  close(): Promise<void>;
}

export async function openConsoleBrowser(): Promise<ConsoleBrowser> {
  const browser = await launchChromium();
  const requested: string[] = [];
  const cspViolations: string[] = [];
  browser.context.on('request', (r) => requested.push(r.url()));
  return {
    context: browser.context,
    requested,
    cspViolations,
    close: browser.close,
    async newTab() {
      const page = await browser.context.newPage();
      page.on('console', (m) => {
        if (/Content Security Policy/i.test(m.text())) cspViolations.push(m.text());
      });
      return page;
    },
    async signIn(page, email, password) {
      await browser.context.clearCookies();
      await page.goto(`${inject('baseUrl')}/console`, { waitUntil: 'load', timeout: 60_000 });
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill(password);
      await page.getByRole('button', { name: 'Sign in' }).click();
    },
  };
}

/** axe-core inside the page (evaluated, so the page's CSP stays strict): no serious or critical violation. */
export async function expectAccessible(page: Page, screen: string): Promise<void> {
  await page.evaluate(AXE);
  const violations = await page.evaluate(async () => {
    const g = globalThis as any;
    const result = await g.axe.run(g.document, { resultTypes: ['violations'] });
    return result.violations
      .filter((v: { impact: string }) => v.impact === 'serious' || v.impact === 'critical')
      .map((v: { id: string; nodes: { target: string[] }[] }) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
  expect(violations, screen).toEqual([]);
}

export const shot = async (page: Page, name: string): Promise<void> => {
  await mkdir(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}${name}.png`, fullPage: true });
};
