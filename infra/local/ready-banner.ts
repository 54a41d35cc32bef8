/**
 * What `npm start` prints once it serves: where the reference is and a line to paste into another
 * terminal, so the tutorial and the CLI reach this instance on whatever port it got. One name for
 * the key everywhere: `apiKey` here, in `demo.json`, and `LOYALTY_API_KEY` for the CLI.
 */

export interface ReadyBanner {
  /** `Name: address` lines. */
  addresses: string[];
  /** Ready to paste: `export LOYALTY_BASE_URL=… LOYALTY_API_KEY=…` (no key when there is no demo workspace). */
  exportLine: string;
}

export function readyBanner(baseUrl: string, apiKey: string | undefined, paths: { reference: string; console?: string }): ReadyBanner {
  const addresses = [`API reference: ${baseUrl}${paths.reference}`];
  // The console's address joins here once the platform serves one.
  if (paths.console) addresses.push(`Console: ${baseUrl}${paths.console}`);
  const exportLine = `export LOYALTY_BASE_URL=${baseUrl}${apiKey ? ` LOYALTY_API_KEY=${apiKey}` : ''}`;
  return { addresses, exportLine };
}

/** The export line as printed: bare in pretty mode (copied as is), a field of a JSON line otherwise. */
export function printBanner(banner: ReadyBanner, pretty: boolean, info: (message: string, fields?: Record<string, unknown>) => void): void {
  for (const address of banner.addresses) info(address);
  if (pretty) {
    info('For the loyalty CLI and curl, paste into another terminal:');
    process.stdout.write(`  ${banner.exportLine}\n`);
  } else info('For the loyalty CLI and curl, paste into another terminal', { shell: banner.exportLine });
}
