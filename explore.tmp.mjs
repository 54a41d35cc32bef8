import { chromium } from 'playwright-core';
import { mkdtempSync } from 'node:fs';
const B = process.argv[2];
const ctx = await chromium.launchPersistentContext(mkdtempSync('/tmp/wt-docs-ud-'), { executablePath: '/usr/bin/chromium', headless: true,
  args: ['--headless','--no-sandbox','--disable-gpu','--disable-quic','--no-first-run','--disable-background-networking','--disable-component-update','--disable-sync'] });
const page = ctx.pages()[0] ?? await ctx.newPage();
page.on('response', r => { if (r.status() >= 400) console.log('resp', r.status(), r.url()); });
page.on('console', m => { if (m.type() !== 'info') console.log('console', m.type(), m.text().slice(0,300)); });
await page.goto(B + '/docs#api/description/not-found', { waitUntil: 'load' });
await page.waitForTimeout(4000);
const h = page.getByRole('heading', { name: 'NOT_FOUND', exact: true });
console.log('heading outer', (await h.evaluate(e => e.outerHTML)).slice(0, 300));
console.log('in viewport', await h.evaluate(e => { const r = e.getBoundingClientRect(); return [r.top, innerHeight]; }));
console.log('ids', await page.evaluate(() => [...document.querySelectorAll('[id]')].map(e => e.id).filter(i => /not_found|errors|createOrder|order/i.test(i)).slice(0, 20)));
console.log('url', page.url());
await page.screenshot({ path: '/tmp/wt-docs-shot.png' });
await ctx.close();
