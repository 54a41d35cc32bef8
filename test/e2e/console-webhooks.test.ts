import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Account, call, registerAccount } from '../support/api';
import { type ConsoleBrowser, expectAccessible, openConsoleBrowser, shot } from '../support/console';
import { startReceiver } from '../support/receiver';

/**
 * The Webhooks screen in Chromium against the running platform: an endpoint created with its secret
 * shown once, a refused URL in the API's words, test events to a receiver on 127.0.0.1 that fails
 * until told to succeed (the runtime kills a delivery after 4 attempts, 1-2 s apart), the log
 * filtered to dead deliveries, one delivery's attempts, one replayed, the rest replayed in bulk,
 * then rotate, disable and delete. axe-core on every state of the screen.
 */

let browser: ConsoleBrowser;
let owner: Account;
let healthy = false;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  owner = await registerAccount('console-webhooks');
  receiver = await startReceiver(() => (healthy ? { status: 200, body: 'received' } : { status: 503, body: 'receiver down' }));
  browser = await openConsoleBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await receiver?.close();
});

const webhookIds = () => receiver.received.map((r) => String(r.headers['webhook-id']));

describe('the Webhooks screen (headless Chromium)', () => {
  it('creates an endpoint, shows dead deliveries with their attempts, replays one and then every dead one, and manages the endpoint', async () => {
    const page = await browser.newTab();
    await browser.signIn(page, owner.email, owner.password);
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor();
    await page.getByText('No webhook endpoints yet').waitFor();
    await page.getByLabel('member.created').waitFor();
    await expectAccessible(page, 'webhooks (empty)');
    // A refused address: the API's own words and the request id, nothing created.
    await page.getByLabel('URL').fill('https://10.0.0.1/hook');
    await page.getByLabel('member.created').check();
    await page.getByRole('button', { name: 'Create endpoint' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/VALIDATION_FAILED.*url: .*Request id: /s);
    // With the keyboard: the receiver's address, then Enter submits the form once.
    await page.getByLabel('URL').fill(receiver.url);
    await page.getByLabel('Description').fill('Order system');
    await page.getByLabel('Description').press('Enter');
    const secret = await page.getByTestId('new-secret').textContent();
    expect(secret).toMatch(/^whsec_/);
    await expectAccessible(page, 'webhooks (secret shown once)');
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: browser.base });
    await page.getByRole('button', { name: 'Copy secret' }).click();
    await page.getByRole('button', { name: 'Copied' }).waitFor();
    expect(await page.evaluate(() => (globalThis as any).navigator.clipboard.readText() as Promise<string>)).toBe(secret);
    await page.getByRole('button', { name: 'Done' }).click();
    const endpoints = (await call('GET', '/api/flash/webhooks', { token: owner.token })).body.data;
    expect(endpoints).toHaveLength(1);
    expect(endpoints[0]).toMatchObject({ url: receiver.url, eventTypes: ['member.created'], description: 'Order system' });

    // Two test events to a receiver that fails: both die after 4 attempts.
    const sendTest = page.getByRole('button', { name: `Send test event to ${receiver.url}` });
    await sendTest.click();
    await page.getByText(/^Test event evt_\w+ queued$/).waitFor();
    await sendTest.click();
    await expect.poll(() => new Set(webhookIds()).size, { timeout: 20_000 }).toBe(2);
    await expect.poll(() => receiver.received.length, { timeout: 30_000 }).toBe(8);
    await page.getByRole('link', { name: `Delivery log of ${receiver.url}` }).click();
    await page.getByLabel('Status').selectOption('dead');
    const dead = page.getByRole('cell', { name: 'dead', exact: true });
    await expect
      .poll(
        async () => {
          await page.getByRole('button', { name: 'Show deliveries' }).click();
          await page.getByRole('button', { name: 'Refresh' }).click();
          return dead.count();
        },
        { timeout: 30_000, interval: 1000 },
      )
      .toBe(2);
    await expectAccessible(page, 'webhooks (dead deliveries)');

    // One delivery's attempts: each with its answer, duration and the start of the response.
    const attemptsButtons = page.getByRole('button', { name: /^Attempts of dlv_/ });
    const firstDelivery = (await attemptsButtons.first().getAttribute('aria-label'))!.replace('Attempts of ', '');
    await attemptsButtons.first().click();
    await page.getByText(`Attempts of ${firstDelivery}`).waitFor();
    await expect.poll(() => page.getByRole('cell', { name: 'receiver down' }).count()).toBe(4);
    expect(await page.getByRole('cell', { name: '503', exact: true }).count()).toBe(4);
    expect(await page.getByRole('cell', { name: /^\d+ ms$/ }).count()).toBe(5);

    // Replay is offered once per delivery, on its newest row, and only as its chain has ended.
    await page.getByRole('button', { name: 'Show every delivery' }).click();
    await expect.poll(() => page.getByRole('cell', { name: 'retrying', exact: true }).count()).toBe(6);
    expect(await page.getByRole('button', { name: /^Replay dlv_/ }).count()).toBe(2);
    await page
      .getByRole('button', { name: `Attempts of ${firstDelivery}` })
      .first()
      .click();
    await page.getByText(`Attempts of ${firstDelivery}`).waitFor();

    // The receiver is fixed: this delivery is replayed alone, then the other dead one in bulk.
    healthy = true;
    await page.getByRole('button', { name: `Replay ${firstDelivery}` }).click();
    await expect.poll(() => receiver.received.length, { timeout: 20_000 }).toBe(9);
    await page.getByRole('button', { name: 'Show every delivery' }).click();
    await page.getByRole('button', { name: 'Replay every dead delivery' }).click();
    await page.getByText('Queued 1 dead delivery again').waitFor();
    await expect.poll(() => receiver.received.length, { timeout: 20_000 }).toBe(10);
    const ids = webhookIds();
    expect(ids.filter((id) => id === ids[0])).toHaveLength(5);
    expect(ids.filter((id) => id !== ids[0])).toHaveLength(5);
    await page.getByLabel('Status').selectOption('delivered');
    await page.getByRole('button', { name: 'Show deliveries' }).click();
    await expect
      .poll(
        async () => {
          await page.getByRole('button', { name: 'Refresh' }).click();
          return page.getByRole('cell', { name: 'delivered', exact: true }).count();
        },
        // The worker marks a delivery delivered after the receiver answered; under a whole run's load
        // that write once came later than 20 s after the receipt.
        { timeout: 45_000, interval: 500 },
      )
      .toBe(2);
    await expectAccessible(page, 'webhooks (delivery log)');
    await shot(page, 'webhooks');

    // Rotate (a new secret, once), disable, then delete: each after confirming.
    await page.getByRole('button', { name: `Rotate secret of ${receiver.url}` }).click();
    await expectAccessible(page, 'webhooks (confirm rotating)');
    await page
      .getByRole('group', { name: `Confirm rotating the secret of ${receiver.url}` })
      .getByRole('button', { name: 'Rotate secret' })
      .click();
    expect(await page.getByTestId('new-secret').textContent()).toMatch(/^whsec_/);
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('button', { name: `Disable ${receiver.url}` }).click();
    expect((await call('GET', '/api/flash/webhooks', { token: owner.token })).body.data[0].status).toBe('active');
    await page
      .getByRole('group', { name: `Confirm disabling ${receiver.url}` })
      .getByRole('button', { name: 'Disable endpoint' })
      .click();
    await page.getByRole('button', { name: `Enable ${receiver.url}` }).waitFor();
    expect((await call('GET', '/api/flash/webhooks', { token: owner.token })).body.data[0].status).toBe('disabled');
    await page.getByRole('button', { name: `Delete ${receiver.url}` }).click();
    await page
      .getByRole('group', { name: `Confirm deleting ${receiver.url}` })
      .getByRole('button', { name: 'Delete endpoint' })
      .click();
    await page.getByText('No webhook endpoints yet').waitFor();
    expect((await call('GET', '/api/flash/webhooks', { token: owner.token })).body.data).toEqual([]);
    const audit = await call('GET', '/api/flash/audit?action=webhook_endpoint.dead_deliveries_replayed', { token: owner.token });
    expect(audit.body.data).toHaveLength(1);
    await page.close();
  }, 120_000);

  it('asked for nothing from another host and broke no rule of its Content-Security-Policy', () => {
    expect(browser.requested.length).toBeGreaterThan(0);
    expect(browser.requested.filter((u) => !u.startsWith(browser.base))).toEqual([]);
    expect(browser.cspViolations).toEqual([]);
  });
});
