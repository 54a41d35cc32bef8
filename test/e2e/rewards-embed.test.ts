import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { call } from '../support/api';
import { launchChromium } from '../support/browser';
import { balanceOf, tenant } from '../support/fixtures';
import { memberWith, newPool, newReward } from '../support/rewards';

/**
 * The embed of docs/rewards.md, as written there, on a merchant's page of another origin than the
 * API, in a real browser: it lists and redeems from an allowed origin, and the browser withholds
 * every answer from an origin the workspace does not allow.
 */

const base = inject('baseUrl');
const DOC = readFileSync(new URL('../../docs/rewards.md', import.meta.url), 'utf8');
const EMBED = /```html\n([\s\S]*?)```/.exec(DOC.slice(DOC.indexOf('## For members')))?.[1] ?? '';

let browser: Awaited<ReturnType<typeof launchChromium>>;
let shop: Server;
let page = '';

beforeAll(async () => {
  // The merchant's site: serves the page with the session its server minted.
  shop = createServer((_, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page));
  await new Promise<void>((done) => shop.listen(0, '127.0.0.1', done));
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((done) => shop?.close(done));
});

describe('the rewards embed on a merchant’s site', () => {
  it('lists and redeems from an allowed origin; from another origin the browser gets nothing', async () => {
    expect(EMBED).toContain("const API = 'https://loyalty.example.com';");
    const port = (shop.address() as AddressInfo).port;
    // Two origins of one server: localhost is allowed, 127.0.0.1 (another host, so another origin) is not.
    const allowed = `http://localhost:${port}`;
    const refused = `http://127.0.0.1:${port}`;
    const t = await tenant('rewards-embed');
    expect((await call('PUT', '/api/flash/settings/cors', { token: t.token, body: { allowedOrigins: [allowed] } })).status).toBe(200);
    const pool = await newPool(t);
    await newReward(t, { name: 'Dear', pointsCost: 10_000 });
    const cheap = await newReward(t, { name: 'Cheap', pointsCost: 100, couponPoolId: pool.id });
    const m = await memberWith(t, 150);
    const session = (await call('POST', `/api/v2/members/${m.id}/portal-sessions`, { token: t.key })).body.data.token;
    page = `<!doctype html><meta name="loyalty-session" content="${session}">\n${EMBED.replace('https://loyalty.example.com', base)}`;

    const tab = await browser.context.newPage();
    try {
      await tab.goto(`${allowed}/`, { waitUntil: 'load', timeout: 60_000 });
      await tab.getByRole('button', { name: 'Cheap: 100 points' }).waitFor({ timeout: 30_000 });
      expect(await tab.getByRole('button', { name: 'Dear: 10000 points' }).isDisabled()).toBe(true);
      const dialog = tab.waitForEvent('dialog', { timeout: 30_000 });
      await tab.getByRole('button', { name: 'Cheap: 100 points' }).click();
      const alert = await dialog;
      const message = alert.message();
      await alert.accept();
      const mine = await call('GET', `/api/v2/members/${m.id}/redemptions`, { token: t.key });
      expect(mine.body.data).toEqual([expect.objectContaining({ rewardId: cheap.id })]);
      expect(message).toBe(`Your code: ${mine.body.data[0].couponCode}`);
      expect(await balanceOf(t.key, m.id)).toMatchObject({ balance: 50 });
      // The list is shown again: the balance no longer covers the cheap reward.
      await expect.poll(() => tab.getByRole('button', { name: 'Cheap: 100 points' }).isDisabled(), { timeout: 30_000 }).toBe(true);

      const errors: string[] = [];
      tab.on('pageerror', (e) => errors.push(e.message));
      await tab.goto(`${refused}/`, { waitUntil: 'load', timeout: 60_000 });
      await expect.poll(() => errors, { timeout: 30_000 }).toEqual([expect.stringContaining('Failed to fetch')]);
      expect(await tab.getByRole('button').count()).toBe(0);
    } finally {
      await tab.close();
    }
  }, 180_000);
});
