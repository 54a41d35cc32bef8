import { execFile } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, inject, it } from 'vitest';
import { call } from '../support/api';
import { cli } from '../support/cli';
import { tenant } from '../support/fixtures';

/**
 * `loyalty import`: a file uploaded to its job's link, previewed (errors by line and field), applied
 * after a yes with its progress followed, its status, and undone; scripts without a terminal must say
 * --yes; a progress line on a terminal.
 */

const json = (r: { stdout: string }) => JSON.parse(r.stdout);

async function membersFile(rows: number, broken: number[] = []): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'cli-import-'));
  const lines = ['externalId,email,firstName'];
  for (let i = 1; i <= rows; i++) lines.push(`CLI-${i},${broken.includes(i) ? 'not-an-email' : `cli-import-${i}-${dir.slice(-6)}@example.test`},Ada ${i}`);
  const file = join(dir, 'members.csv');
  await writeFile(file, `${lines.join('\n')}\n`);
  return file;
}

describe('loyalty import', { timeout: 180_000 }, () => {
  it('previews a file with its errors, applies it after --yes, reports its status and undoes it', async () => {
    const t = await tenant('cli-import');
    const run = (args: string[]) => cli(['import', ...args], { env: { LOYALTY_API_KEY: t.key } });
    const file = await membersFile(40, [7, 31]);

    // Without a terminal and without --yes nothing is applied: the preview is shown, then exit 2.
    const asked = await run(['start', file, '--kind', 'members']);
    expect(asked.code).toBe(2);
    expect(asked.stdout).toMatch(/^Created import (imp_\S+) \(members, csv\) and uploaded .*members\.csv \([\d,]+ bytes\)$/m);
    expect(asked.stdout).toContain('Previewed 40 rows: 38 valid, 2 invalid');
    expect(asked.stdout).toMatch(/^ {2}would: (created 38, invalid 2|invalid 2, created 38)$/m);
    expect(asked.stdout).toContain('  totals: 38 members created');
    expect(asked.stdout).toMatch(/^ {2}line 8 email: /m);
    expect(asked.stdout).toMatch(/^ {2}line 32 email: /m);
    expect(asked.stderr).toContain('Not applied: confirm with --yes');
    const notApplied = /^Created import (imp_\S+)/m.exec(asked.stdout)![1]!;
    expect((await call('GET', `/api/v2/imports/${notApplied}`, { token: t.key })).body.data.status).toBe('previewed');
    expect((await call('GET', '/api/v2/members?externalId=CLI-1', { token: t.key })).body.data).toEqual([]);

    // The same job applied by id: the progress ends completed, the rows are in.
    const applied = await run(['apply', notApplied]);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout.trim()).toBe(`Import ${notApplied}: completed, 40 of 40 rows (100 %), 2 failed`);
    expect((await call('GET', '/api/v2/members?externalId=CLI-1', { token: t.key })).body.data).toHaveLength(1);

    // --yes applies in one go; --json answers the job as the API does.
    const other = await membersFile(5);
    const started = await run(['start', other, '--kind', 'members', '--yes', '--json']);
    expect(started.code, started.stderr).toBe(0);
    const job = json(started);
    expect(job).toMatchObject({ kind: 'members', status: 'completed', progress: { rows: 5, done: 5, failed: 0, estimatedCompletionAt: null } });

    const status = await run(['status', job.id]);
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toContain(`Import ${job.id}: completed, 5 of 5 rows (100 %)`);
    expect(status.stdout).toContain('Previewed 5 rows: 5 valid, 0 invalid');

    const refused = await run(['undo', job.id]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('Not undone: confirm with --yes');
    const undone = await run(['undo', job.id, '--yes']);
    expect(undone.code, undone.stderr).toBe(0);
    expect(undone.stdout.trim()).toBe(`Import ${job.id}: undone, 5 rows taken back, 0 members kept`);
    expect((await call('GET', `/api/v2/members?externalId=CLI-1`, { token: t.key })).body.data).toHaveLength(1);

    // Usage errors: a file whose format cannot be told, a missing file, a missing kind.
    const unknown = await run(['start', join(tmpdir(), 'members.txt'), '--kind', 'members']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('pass --format csv or --format jsonl');
    const missing = await run(['start', join(tmpdir(), 'no-such-file.csv'), '--kind', 'members', '--yes']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('No file');
    expect((await run(['start', other])).code).toBe(2);
    const notFound = await run(['status', 'imp_missing']);
    expect(notFound.code).toBe(1);
    expect(notFound.stderr).toMatch(/^Error: NOT_FOUND: /m);
  });

  it('shows the rows done on a terminal while it applies', async () => {
    const t = await tenant('cli-import-tty');
    const file = await membersFile(300);
    const entry = resolve(import.meta.dirname, '../../bin/loyalty.mjs');
    // `script` (util-linux) gives the command a pseudo-terminal; the spinner stays off wherever `CI` is set.
    const command = `stty cols 100 rows 24; '${process.execPath}' '${entry}' import start '${file}' --kind members --yes`;
    const { CI: _ci, ...inherited } = process.env;
    const { stdout } = await promisify(execFile)('script', ['-qec', command, '/dev/null'], {
      env: { ...inherited, LOYALTY_BASE_URL: inject('baseUrl'), LOYALTY_API_KEY: t.key, LOYALTY_SESSION_TOKEN: '' },
    });
    expect(stdout).toContain('\u001b[?25l'); // the spinner hides the cursor while it spins
    expect(stdout).toMatch(/Import imp_\S+: (applying|completed), \d+ of 300 rows/);
    expect(stdout).toMatch(/Import imp_\S+: completed, 300 of 300 rows \(100 %\)/);
  });
});
