import { launchChromium } from '/work/wt-dx/test/support/browser';
const base = process.argv[2];
const b = await launchChromium();
for (const code of process.argv.slice(3)) {
  const tab = await b.context.newPage();
  const t0 = Date.now();
  const urls: string[] = [];
  await tab.goto(`${base}/docs#api/description/${code.toLowerCase().replace(/_/g, '-')}`, { waitUntil: 'load', timeout: 180000 });
  const h = tab.getByRole('heading', { name: code, exact: true });
  await h.waitFor({ state: 'visible', timeout: 180000 });
  const seen = Date.now() - t0;
  for (let i = 0; i < 6; i++) { urls.push(`${Date.now() - t0}:${tab.url().split('#')[1]} y=${(await h.boundingBox())?.y}`); await tab.waitForTimeout(2000); }
  console.log(code, 'visible after', seen, urls.join(' '));
  await tab.close();
}
await b.close();
