import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { call, uniqueEmail } from '../support/api';
import { type ConsoleBrowser, expectAccessible, openConsoleBrowser } from '../support/console';
import { newMember, tenant, type Tenant } from '../support/fixtures';
import { startReceiver } from '../support/receiver';

/**
 * The console's addresses in Chromium against the running platform: it opens on Overview, a detail
 * (a member, a campaign, an object type's records, an endpoint's deliveries) has an address that a
 * link, a reload or a fresh tab opens, Back closes it, an unknown address says so, and a screen
 * whose chunk does not arrive shows the error boundary's reload.
 */

const base = inject('baseUrl');
let browser: ConsoleBrowser;
let owner: Tenant;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  owner = await tenant('console-routes');
  receiver = await startReceiver();
  browser = await openConsoleBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await receiver?.close();
});

const nav = (page: Page) => page.getByRole('navigation', { name: 'Console' });
const path = (page: Page) => new URL(page.url()).pathname + new URL(page.url()).search;

async function signedIn(): Promise<Page> {
  const page = await browser.newTab();
  await browser.signIn(page, owner.email, owner.password);
  await nav(page).waitFor();
  return page;
}

describe('the console’s addresses (headless Chromium)', () => {
  it('answers every console address that is not an asset with the page, and an unknown asset with 404', async () => {
    for (const p of [
      '/console/members/mbr_01deeplink',
      '/console/webhooks/whe_01deeplink/deliveries',
      '/console/program/campaigns/new',
      '/console/no/such/page',
    ]) {
      const answer = await fetch(`${base}${p}`);
      expect(answer.status, p).toBe(200);
      expect(answer.headers.get('content-type'), p).toBe('text/html; charset=utf-8');
      expect(answer.headers.get('content-security-policy'), p).toContain("script-src 'self'");
      expect(await answer.text(), p).toMatch(/<script type="module" src="\/console\/assets\/app-[A-Z0-9]+\.js"><\/script>/);
    }
    expect((await fetch(`${base}/console/assets/members-NOPE.js`)).status).toBe(404);
  });

  it('lands on Overview after signing in, and says so for an address it has no page for', async () => {
    const page = await signedIn();
    await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
    expect(path(page)).toBe('/console');
    expect(await nav(page).getByRole('link', { name: 'Overview' }).getAttribute('aria-current')).toBe('page');
    await expect.poll(() => page.title()).toMatch(/^Overview · /);
    await page.goto(`${base}/console/no/such/page`, { waitUntil: 'load' });
    await page.getByRole('heading', { name: 'Nothing at this address', level: 1 }).waitFor();
    await expectAccessible(page, 'not found');
    await page.getByRole('link', { name: 'Go to the overview' }).click();
    await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
    await page.close();
  });

  it('on a phone (390 px wide) every screen fits the width and every navigation link is on the screen', async () => {
    await newMember(owner.key, {
      email: uniqueEmail('a-rather-long-address-for-a-narrow-screen'),
      firstName: 'Maximiliane',
      lastName: 'Oberholzer-Wittgenstein',
    });
    const page = await signedIn();
    await page.setViewportSize({ width: 390, height: 844 });
    const names = await nav(page).getByRole('link').allTextContents();
    expect(names.length).toBeGreaterThan(5);
    for (const name of names) {
      await nav(page).getByRole('link', { name, exact: true }).click();
      await page.getByRole('heading', { name, level: 1 }).waitFor();
      await page.waitForLoadState('networkidle');
      const sideways = await page.evaluate(() => {
        const root = (globalThis as any).document.documentElement;
        return root.scrollWidth - root.clientWidth;
      });
      expect(sideways, `${name} scrolls sideways by ${sideways} px`).toBeLessThanOrEqual(0);
      await expectAccessible(page, `${name} at 390 px`);
      for (const link of await nav(page).getByRole('link').all()) {
        const box = await link.boundingBox();
        expect(box && box.x >= 0 && box.x + box.width <= 390, `${await link.textContent()} on ${name}`).toBe(true);
      }
    }
    await page.close();
  });

  it('opens a member from a deep link, before signing in and after, and keeps it through a reload', async () => {
    const ada = await newMember(owner.key, { email: uniqueEmail('deep-ada'), firstName: 'Ada', lastName: 'Deeplink' });
    const page = await browser.newTab();
    await browser.context.clearCookies();
    await page.goto(`${base}/console/members/${ada.id}`, { waitUntil: 'load' });
    await page.getByLabel('Email').fill(owner.email);
    await page.getByLabel('Password').fill(owner.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Ada Deeplink', level: 1 }).waitFor();
    expect(path(page)).toBe(`/console/members/${ada.id}`);
    expect(await nav(page).getByRole('link', { name: 'Members' }).getAttribute('aria-current')).toBe('page');
    // Signed in (the cookie), a fresh tab on the address opens the member at once.
    const tab = await browser.newTab();
    await tab.goto(`${base}/console/members/${ada.id}`, { waitUntil: 'load' });
    await tab.getByRole('heading', { name: 'Ada Deeplink', level: 1 }).waitFor();
    await tab.reload();
    await tab.getByRole('heading', { name: 'Ada Deeplink', level: 1 }).waitFor();
    expect(await tab.getByTestId('balance').textContent()).toBe('0');
    await expectAccessible(tab, 'member (deep link)');
    await Promise.all([page.close(), tab.close()]);
  });

  it('pushes a member onto the history: Back closes it and returns to the list with its search', async () => {
    const email = uniqueEmail('back-grace');
    const grace = await newMember(owner.key, { email, firstName: 'Grace', lastName: 'Back' });
    const page = await signedIn();
    await nav(page).getByRole('link', { name: 'Members' }).click();
    await page.getByRole('heading', { name: 'Members', level: 1 }).waitFor();
    await page.getByLabel('Name, e-mail, phone or externalId').fill(email);
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('link', { name: 'Grace Back' }).click();
    await page.getByRole('heading', { name: 'Grace Back', level: 1 }).waitFor();
    expect(path(page)).toBe(`/console/members/${grace.id}`);
    await page.goBack();
    await page.getByRole('heading', { name: 'Members', level: 1 }).waitFor();
    expect(path(page)).toBe(`/console/members?${new URLSearchParams({ search: email })}`);
    expect(await page.getByLabel('Name, e-mail, phone or externalId').inputValue()).toBe(email);
    await page.getByRole('link', { name: 'Grace Back' }).waitFor();
    // Forward opens her again.
    await page.goForward();
    await page.getByRole('heading', { name: 'Grace Back', level: 1 }).waitFor();
    await page.close();
  });

  it('gives a campaign, an object type and an endpoint’s deliveries their addresses: each opens from a reload, Back closes it', async () => {
    const campaign = await call('POST', '/api/flash/campaigns', {
      token: owner.token,
      body: { name: 'Address test', trigger: { type: 'order' }, effect: { type: 'bonus_points', points: 10 } },
    });
    const type = { label: 'Warranty', status: 'published', apiVisible: false, fields: [{ key: 'serial', type: 'text', required: true }] };
    expect((await call('PUT', '/api/flash/objects/types/warranty', { token: owner.token, body: type })).status).toBe(200);
    const endpoint = await call('POST', '/api/flash/webhooks', { token: owner.token, body: { url: receiver.url, eventTypes: ['member.created'] } });
    expect([campaign.status, endpoint.status]).toEqual([201, 201]);
    const page = await signedIn();
    const details = [
      {
        screen: 'Program',
        list: '/console/program',
        link: 'Edit Address test',
        at: `/console/program/campaigns/${campaign.body.data.id}`,
        shown: page.getByRole('form', { name: 'Edit Address test' }),
      },
      {
        screen: 'Object types',
        list: '/console/object-types',
        link: 'Browse the records of Warranty',
        at: '/console/object-types/warranty',
        shown: page.getByRole('region', { name: 'Records of Warranty' }),
      },
      {
        screen: 'Webhooks',
        list: '/console/webhooks',
        link: `Delivery log of ${receiver.url}`,
        at: `/console/webhooks/${endpoint.body.data.id}/deliveries`,
        shown: page.getByRole('region', { name: `Delivery log of ${receiver.url}` }),
      },
    ];
    for (const d of details) {
      await nav(page).getByRole('link', { name: d.screen }).click();
      await page.getByRole('heading', { name: d.screen, level: 1 }).waitFor();
      await page.getByRole('link', { name: d.link }).click();
      await d.shown.waitFor();
      expect(path(page), d.screen).toBe(d.at);
      await page.reload();
      await d.shown.waitFor();
      await page.goBack();
      await page.getByRole('heading', { name: d.screen, level: 1 }).waitFor();
      await d.shown.waitFor({ state: 'detached' });
      expect(path(page), d.screen).toBe(d.list);
    }
    await page.close();
  });

  it('shows the error boundary with a reload when a screen’s chunk does not arrive, and the screen after reloading', async () => {
    const page = await signedIn();
    await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
    // A network failure while a screen's chunk loads (or a deployment that removed it): the browser's
    // request is aborted at its boundary, as no local peer can drop one connection on demand.
    const teamChunk = /\/console\/assets\/team-[A-Z0-9]+\.js$/;
    await page.route(teamChunk, (route) => route.abort('connectionfailed'));
    await nav(page).getByRole('link', { name: 'Team' }).click();
    const broken = page.getByRole('alert').filter({ has: page.getByRole('heading', { name: 'This screen could not be loaded' }) });
    await broken.waitFor();
    await expectAccessible(page, 'chunk failed');
    // Another screen still opens; the failed one fails again until the page is reloaded.
    await nav(page).getByRole('link', { name: 'Overview' }).click();
    await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
    expect(await broken.count()).toBe(0);
    await nav(page).getByRole('link', { name: 'Team' }).click();
    await broken.waitFor();
    await page.unroute(teamChunk);
    await page.getByRole('button', { name: 'Reload the console' }).click();
    await page.getByRole('heading', { name: 'Team', level: 1 }).waitFor();
    expect(path(page)).toBe('/console/team');
    await page.close();
  });

  it('asked for nothing from another host and broke no rule of its Content-Security-Policy', () => {
    expect(browser.requested.length).toBeGreaterThan(0);
    expect(browser.requested.filter((u) => !u.startsWith(base))).toEqual([]);
    expect(browser.cspViolations).toEqual([]);
  });
});
