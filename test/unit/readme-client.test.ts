import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');

/** The TypeScript block of a page's section (from its heading to the next one of the same level). */
async function snippetOf(page: string, heading: string): Promise<string> {
  const text = await readFile(join(ROOT, page), 'utf8');
  const start = text.indexOf(`\n${heading}\n`);
  expect(start, `${page} has "${heading}"`).toBeGreaterThan(-1);
  const level = heading.split(' ')[0]!;
  const end = text.indexOf(`\n${level} `, start + heading.length + 2);
  const block = /```ts\n([\s\S]*?)```/.exec(text.slice(start, end < 0 ? undefined : end));
  expect(block, `${page} "${heading}" has a ts block`).not.toBeNull();
  return block![1]!;
}

/** Type-checks `code` with the project's compiler, `./shared/client` being this repository's. */
async function typeErrorsOf(code: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'loyalty-readme-client-'));
  try {
    await writeFile(join(dir, 'first-call.ts'), code.replaceAll("'./shared/client'", `'${join(ROOT, 'shared/client')}'`));
    const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
    const args = ['--ignoreConfig', '--noEmit', '--strict', '--target', 'ES2023', '--lib', 'ES2023', '--module', 'preserve'];
    args.push('--moduleResolution', 'bundler', '--skipLibCheck', '--types', 'node', '--typeRoots', join(ROOT, 'node_modules/@types'));
    return await promisify(execFile)(process.execPath, [tsc, ...args, join(dir, 'first-call.ts')]).then(
      () => '',
      (e: { stdout?: string; message: string }) => e.stdout || e.message,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('the first call with shared/client, as the pages show it', () => {
  it.each([
    ['README.md', '## Typed client'],
    ['docs/typed-client.md', '## In this project'],
  ])('%s "%s": about five lines that compile against the typed client', async (page, heading) => {
    const code = await snippetOf(page, heading);
    expect(code).toContain("from './shared/client'");
    expect(code.trim().split('\n').length).toBeLessThanOrEqual(6);
    expect(await typeErrorsOf(code)).toBe('');
  });

  it('a call the document does not allow is refused by the same check', async () => {
    const code = await snippetOf('README.md', '## Typed client');
    expect(await typeErrorsOf(code.replace("firstName: 'Ada'", 'firstName: 42'))).toMatch(/error TS\d+/);
  });
});
