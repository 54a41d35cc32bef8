import { afterEach, describe, expect, it } from 'vitest';
import { chromiumPath, launchChromium } from '../support/browser';

describe('the browser of the reference page test', () => {
  const saved = process.env.CHROMIUM_PATH;
  afterEach(() => {
    if (saved === undefined) delete process.env.CHROMIUM_PATH;
    else process.env.CHROMIUM_PATH = saved;
  });

  it("is Debian's chromium unless CHROMIUM_PATH says otherwise", () => {
    delete process.env.CHROMIUM_PATH;
    expect(chromiumPath()).toBe('/usr/bin/chromium');
    process.env.CHROMIUM_PATH = '/opt/chrome/chrome';
    expect(chromiumPath()).toBe('/opt/chrome/chrome');
  });

  it('when missing, fails (never skips) saying how to install it', async () => {
    process.env.CHROMIUM_PATH = '/nonexistent/chromium';
    await expect(launchChromium()).rejects.toThrow(/Chromium is missing at \/nonexistent\/chromium.*apt-get install -y chromium/);
  });
});
