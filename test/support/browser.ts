import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

/**
 * Headless Chromium for the tests that need a real browser (the reference page): Debian's
 * `chromium` package, driven through playwright-core, with a fresh profile per launch. The flags
 * keep Chromium from calling home (component updates, sync, background networking), which also
 * makes it work on a machine without outside network.
 */

/** Debian's `chromium` package, unless `CHROMIUM_PATH` names another binary. */
export const chromiumPath = (): string => process.env.CHROMIUM_PATH || '/usr/bin/chromium';

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** A browser with a fresh user-data directory; `close()` removes it. Fails with how to install Chromium when it is missing. */
export async function launchChromium(): Promise<{ context: BrowserContext; close: () => Promise<void> }> {
  const executablePath = chromiumPath();
  if (!existsSync(executablePath)) {
    throw new Error(
      `Chromium is missing at ${executablePath}; the reference page is tested in a real browser. ` +
        'Install it with `sudo apt-get install -y chromium` (Debian/Ubuntu; .ci/run does this), or set CHROMIUM_PATH to a Chromium binary.',
    );
  }
  const profile = await mkdtemp(join(tmpdir(), 'loyalty-chromium-'));
  const context = await chromium.launchPersistentContext(profile, { executablePath, headless: true, args: ARGS });
  return {
    context,
    close: async () => {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}
