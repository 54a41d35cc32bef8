import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { call } from '../support/api';
import { tenant } from '../support/fixtures';
import { addUser } from '../support/table';

/**
 * The console's import jobs over HTTP (/api/flash/imports, the same handlers as /api/v2/imports):
 * an owner's session creates, uploads, previews, applies, follows, lists and undoes a job; a
 * support agent's session is refused with 403 naming `imports:run`; another workspace's owner
 * neither sees nor touches the job.
 */

const FILE = 'externalId,email,firstName\nCON-1,con-1@example.test,Ada\nCON-2,not-an-email,Bob\nCON-3,con-3@example.test,Cy\n';

const signIn = async (email: string, password: string) => {
  const res = await call('POST', '/api/v2/auth/login', { body: { email, password } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.session.token as string;
};

describe('import jobs in the console (/api/flash/imports)', () => {
  it('an owner runs a job end to end; a support agent is refused; another workspace sees nothing', { timeout: 120_000 }, async () => {
    const owner = await tenant('console-imports');
    const token = owner.token;

    const created = await call('POST', '/api/flash/imports', { token, body: { kind: 'members', format: 'csv' } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.data.id as string;
    const put = await fetch(created.body.data.upload.url, { method: 'PUT', body: FILE });
    expect(put.status).toBe(200);

    const previewed = await call('POST', `/api/flash/imports/${id}/preview`, { token });
    expect(previewed.status).toBe(200);
    expect(previewed.body.data.preview).toMatchObject({ rows: 3, valid: 2, invalid: 1, errors: [{ line: 3, field: 'email' }] });

    const applying = await call('POST', `/api/flash/imports/${id}/apply`, { token });
    expect(applying.status).toBe(202);
    let job = applying.body.data;
    for (let i = 0; i < 300 && job.status === 'applying'; i++) {
      await sleep(200);
      job = (await call('GET', `/api/flash/imports/${id}`, { token })).body.data;
    }
    expect(job).toMatchObject({ status: 'completed', progress: { rows: 3, done: 2, failed: 1 } });

    // Listed newest first: a second job comes before the first.
    const second = await call('POST', '/api/flash/imports', { token, body: { kind: 'balances', format: 'csv' } });
    expect(second.status).toBe(201);
    const listed = await call('GET', '/api/flash/imports?limit=1', { token });
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((j: { id: string }) => j.id)).toEqual([second.body.data.id]);
    const next = await call('GET', `/api/flash/imports?limit=1&cursor=${encodeURIComponent(listed.body.nextCursor)}`, { token });
    expect(next.body.data.map((j: { id: string }) => j.id)).toEqual([id]);
    // The API key's list is the same handler.
    expect((await call('GET', '/api/v2/imports', { token: owner.key })).body.data.map((j: { id: string }) => j.id)).toEqual([second.body.data.id, id]);

    // A support agent's session: every import route refused, naming the permission.
    const support = await addUser(owner.workspaceId, 'support');
    const supportToken = await signIn(support.email, support.password);
    for (const [method, path] of [
      ['GET', '/api/flash/imports'],
      ['POST', '/api/flash/imports'],
      ['GET', `/api/flash/imports/${id}`],
      ['POST', `/api/flash/imports/${id}/preview`],
      ['POST', `/api/flash/imports/${id}/apply`],
      ['POST', `/api/flash/imports/${id}/undo`],
    ] as const) {
      const res = await call(method, path, {
        token: supportToken,
        body: method === 'POST' && !path.includes('/imp_') ? { kind: 'members', format: 'csv' } : undefined,
      });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(JSON.stringify(res.body), `${method} ${path}`).toContain('imports:run');
    }

    // Another workspace's owner: the job is not found, and its list does not hold it.
    const other = await tenant('console-imports-other');
    expect((await call('GET', `/api/flash/imports/${id}`, { token: other.token })).status).toBe(404);
    expect((await call('POST', `/api/flash/imports/${id}/undo`, { token: other.token })).status).toBe(404);
    expect((await call('GET', '/api/flash/imports', { token: other.token })).body.data).toEqual([]);
    // A cursor of the first workspace's list is no use to another.
    expect((await call('GET', `/api/flash/imports?cursor=${encodeURIComponent(listed.body.nextCursor)}`, { token: other.token })).status).toBe(400);

    const undone = await call('POST', `/api/flash/imports/${id}/undo`, { token });
    expect(undone.status, JSON.stringify(undone.body)).toBe(200);
    expect(undone.body.data).toMatchObject({ status: 'undone', undo: { undone: 2 } });
  });
});
