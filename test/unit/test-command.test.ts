import { spawn } from 'node:child_process';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * `npm test` (bin/test.mjs): vitest with the type check and the linter beside it. The checks are
 * `npm run typecheck` and `npm run lint`; here an `npm` of the test's own comes first on PATH and
 * answers them (a stand-in: the real checks over the whole project take half a minute of CPU and
 * are what this command's own run does). Vitest itself runs for real, on one small file.
 */

const ROOT = resolve(import.meta.dirname, '../..');
let fakeBin: string;

beforeAll(async () => {
  fakeBin = await mkdtemp(join(tmpdir(), 'loyalty-fake-npm-'));
  // Fails the scripts named in FAIL_SCRIPTS (comma-separated), after printing what it was asked.
  await writeFile(
    join(fakeBin, 'npm'),
    '#!/bin/sh\necho "checked: $3"\ncase ",$FAIL_SCRIPTS," in *",$3,"*) echo "problem found by $3" >&2; exit 1;; esac\nexit 0\n',
  );
  await chmod(join(fakeBin, 'npm'), 0o755);
});

afterAll(async () => {
  await rm(fakeBin, { recursive: true, force: true });
});

function npmTest(failScripts: string): Promise<{ code: number | null; out: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, ['bin/test.mjs', '--project', 'unit', 'test/unit/shared/platform/data/sdk-log.test.ts'], {
      cwd: ROOT,
      env: {
        ...process.env,
        PATH: `${fakeBin}${delimiter}${process.env.PATH}`,
        FAIL_SCRIPTS: failScripts,
        VITEST: undefined,
        VITEST_WORKER_ID: undefined,
        VITEST_POOL_ID: undefined,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('close', (code) => done({ code, out }));
  });
}

describe('npm test (bin/test.mjs)', () => {
  it('passes when the tests and both checks pass, naming each check', async () => {
    const { code, out } = await npmTest('');
    expect(out).toMatch(/2 passed, 0 failed/);
    expect(out).toContain('✓ npm run typecheck');
    expect(out).toContain('✓ npm run lint');
    expect(code).toBe(0);
  }, 60_000);

  it('fails when a check fails although every test passed, and prints what the check said', async () => {
    const { code, out } = await npmTest('typecheck');
    expect(out).toMatch(/2 passed, 0 failed/);
    expect(out).toContain('✗ npm run typecheck failed:');
    expect(out).toContain('problem found by typecheck');
    expect(out).toContain('✓ npm run lint');
    expect(code).toBe(1);
    const lint = await npmTest('lint');
    expect(lint.out).toContain('problem found by lint');
    expect(lint.code).toBe(1);
  }, 90_000);
});
