import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from 'otplib';
import { call, registerAccount } from '../support/api';
import { type ConsoleBrowser, expectAccessible, openConsoleBrowser, shot } from '../support/console';

/**
 * Two-factor sign-in in Chromium: set up on the account page (the key read off the page, the code
 * computed here from it with the same library), the recovery codes shown once, the sign-in form's
 * second step; the Team screen's switch, and the page a workspace that requires it opens on. Codes
 * are made for "now" and "now + 1 step": the server accepts the step either side of its own, and
 * each accepted code must be of a later step than the last.
 */
const codeAt = (secret: string, stepsAhead = 0) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + stepsAhead * 30 });

let browser: ConsoleBrowser;

beforeAll(async () => {
  browser = await openConsoleBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

describe('two-factor sign-in in the console (headless Chromium)', () => {
  it('set up on the account page with the keyboard, recovery codes shown once; the next sign-in asks for the code', async () => {
    const owner = await registerAccount('console-mfa');
    const page = await browser.newTab();
    await browser.signIn(page, owner.email, owner.password);
    await page.getByRole('navigation', { name: 'Console' }).waitFor();
    await page.goto(`${browser.base}/console/account`, { waitUntil: 'load' });
    await page.getByRole('heading', { name: 'Two-factor sign-in' }).waitFor();
    await page.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
    const secret = (await page.getByTestId('mfa-secret').textContent())!;
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    expect(await page.getByTestId('mfa-uri').textContent()).toContain(`secret=${secret}`);
    const code = page.getByLabel('Code from the app');
    expect(await code.getAttribute('autocomplete')).toBe('one-time-code');
    expect(await code.getAttribute('inputmode')).toBe('numeric');
    await expectAccessible(page, 'two-factor set-up');
    await code.fill(await codeAt(secret));
    await code.press('Enter');
    const codes = page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
    await codes.first().waitFor();
    expect(await codes.count()).toBe(10);
    await page.getByRole('link', { name: 'Download the codes' }).waitFor();
    await expectAccessible(page, 'recovery codes');
    await shot(page, 'account-two-factor-codes');
    await page.getByRole('button', { name: 'I have kept them' }).click();
    await page.getByText(/On since .*; 10 recovery codes left/).waitFor();

    // Signing in again: the password, then the code.
    await browser.signIn(page, owner.email, owner.password);
    await page.getByRole('heading', { name: 'Two-factor sign-in' }).waitFor();
    const second = page.getByLabel('Code', { exact: true });
    expect(await second.getAttribute('autocomplete')).toBe('one-time-code');
    expect(await second.getAttribute('inputmode')).toBe('numeric');
    await page.getByRole('button', { name: 'Use a recovery code' }).waitFor();
    await expectAccessible(page, 'sign-in second step');
    await second.fill('000000');
    await second.press('Enter');
    await page.getByText('Invalid code').waitFor();
    await second.fill(await codeAt(secret, 1));
    await second.press('Enter');
    await page.getByRole('navigation', { name: 'Console' }).waitFor();
    await page.close();
  });

  it("the Team screen's switch requires it; the next sign-in without it opens on setting it up, then the console", async () => {
    const owner = await registerAccount('console-mfa-required');
    const page = await browser.newTab();
    await browser.signIn(page, owner.email, owner.password);
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Team' }).click();
    const toggle = page.getByRole('switch', { name: 'Require two-factor sign-in' });
    // Enabled once the setting is read (pressed before, the key would do nothing).
    await expect.poll(() => toggle.isEnabled(), { timeout: 30_000 }).toBe(true);
    await toggle.focus();
    await page.keyboard.press('Space');
    await expect.poll(() => toggle.isChecked(), { timeout: 30_000 }).toBe(true);
    await expectAccessible(page, 'team security');
    expect((await call('GET', '/api/flash/team/security', { token: owner.token })).body.data.mfaRequired).toBe(true);

    await browser.signIn(page, owner.email, owner.password);
    await page.getByRole('heading', { name: 'Set up two-factor sign-in', level: 1 }).waitFor();
    await expectAccessible(page, 'enrolment required');
    await page.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
    const secret = (await page.getByTestId('mfa-secret').textContent())!;
    await page.getByLabel('Code from the app').fill(await codeAt(secret));
    await page.getByRole('button', { name: 'Turn on' }).click();
    await page.getByRole('button', { name: 'I have kept them' }).click();
    await page.getByRole('navigation', { name: 'Console' }).waitFor();
    await page.close();
  });
});
