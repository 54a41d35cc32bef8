import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../support/api';
import { type ConsoleBrowser, expectAccessible, openConsoleBrowser } from '../support/console';
import { balanceOf, tenant } from '../support/fixtures';
import { memberWith, newReward, redeemed } from '../support/rewards';
import { addUser } from '../support/table';

/**
 * A member's redemptions in the console: the console's twins of `GET /api/v2/members/{id}/redemptions`
 * and `POST /api/v2/redemptions/{id}/void` (same handlers: same answers, same transaction), for the
 * roles that hold the permissions, within the workspace; and the member screen that lists them and
 * voids one.
 */

let browser: ConsoleBrowser;

beforeAll(async () => {
  browser = await openConsoleBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

const login = async (workspaceId: string, role: 'analyst' | 'support') => {
  const user = await addUser(workspaceId, role);
  return (await call('POST', '/api/v2/auth/login', { body: { email: user.email, password: user.password } })).body.data.session.token as string;
};

describe('the console twins of a member’s redemptions and their void', () => {
  it('lists what the API key lists, voids once for a role that may redeem, refuses one that may only read, and stays in its workspace', async () => {
    const [t, other] = await Promise.all([tenant('rewards-console'), tenant('rewards-console-other')]);
    const reward = await newReward(t);
    const m = await memberWith(t, 300);
    const first = await redeemed(t, reward.id, m.id);
    const second = await redeemed(t, reward.id, m.id);

    const viaKey = (await call('GET', `/api/v2/members/${m.id}/redemptions`, { token: t.key })).body;
    const listed = await call('GET', `/api/flash/members/${m.id}/redemptions`, { token: t.token });
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    expect(listed.body).toEqual(viaKey);
    expect(listed.body.data.map((r: any) => r.id)).toEqual([second.id, first.id]);

    // An analyst reads them but may not void; support may.
    const analyst = await login(t.workspaceId, 'analyst');
    expect((await call('GET', `/api/flash/members/${m.id}/redemptions`, { token: analyst })).status).toBe(200);
    expect((await call('POST', `/api/flash/redemptions/${first.id}/void`, { token: analyst })).status).toBe(403);
    const support = await login(t.workspaceId, 'support');
    const voided = await call('POST', `/api/flash/redemptions/${first.id}/void`, { token: support });
    expect(voided.status, JSON.stringify(voided.body)).toBe(200);
    expect(voided.body.data).toMatchObject({ id: first.id, status: 'voided' });
    expect(await balanceOf(t.key, m.id)).toMatchObject({ balance: 200 });
    // Again: answered as it is, the points given back once.
    expect((await call('POST', `/api/flash/redemptions/${first.id}/void`, { token: support })).body.data).toMatchObject({ status: 'voided' });
    expect(await balanceOf(t.key, m.id)).toMatchObject({ balance: 200 });
    const entries = (await call('GET', `/api/v2/members/${m.id}/points?limit=100`, { token: t.key })).body.data.entries;
    expect(entries.filter((e: any) => e.type === 'redemption_void')).toHaveLength(1);

    // Another workspace's session finds neither, and changes nothing. An API key is not a session.
    expect((await call('GET', `/api/flash/members/${m.id}/redemptions`, { token: other.token })).status).toBe(404);
    expect((await call('POST', `/api/flash/redemptions/${second.id}/void`, { token: other.token })).status).toBe(404);
    expect((await call('POST', `/api/flash/redemptions/${second.id}/void`, { token: t.key })).status).toBe(403);
    expect((await call('GET', `/api/v2/members/${m.id}/redemptions?status=issued`, { token: t.key })).body.data.map((r: any) => r.id)).toEqual([second.id]);
  });
});

describe('the member screen’s redemptions (headless Chromium)', () => {
  it('lists the rewards redeemed and voids an unused one, giving its points back', async () => {
    const owner = await tenant('rewards-console-screen');
    const reward = await newReward(owner, { name: 'Free coffee' });
    const m = await memberWith(owner, 250, { firstName: 'Ada', lastName: 'Lovelace' });
    const r = await redeemed(owner, reward.id, m.id);
    const page = await browser.newTab();
    await browser.signIn(page, owner.email, owner.password);
    await page.getByRole('navigation', { name: 'Console' }).waitFor();
    await page.goto(`${browser.base}/console/members/${m.id}`);
    const section = page.getByRole('region', { name: 'Rewards redeemed' });
    await section.getByRole('cell', { name: 'Free coffee', exact: true }).waitFor();
    expect(await page.getByTestId(`redemption-status-${r.id}`).textContent()).toBe('issued');
    await expectAccessible(page, 'member with redemptions');
    await section.getByRole('button', { name: /^Void Free coffee/ }).click();
    await section.getByRole('button', { name: 'Void redemption' }).click();
    // Under a whole run's load the void and the reload behind it can take longer than the default 5 s.
    await expect.poll(() => page.getByTestId(`redemption-status-${r.id}`).textContent(), { timeout: 30_000 }).toBe('voided');
    await page.getByText('Voided Free coffee: 100 points given back.').waitFor();
    expect(await section.getByRole('button', { name: /^Void Free coffee/ }).count()).toBe(0);
    expect(await balanceOf(owner.key, m.id)).toMatchObject({ balance: 250 });
    await page.close();
  });
});
