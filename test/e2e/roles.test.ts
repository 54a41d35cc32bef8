import { describe, expect, it } from 'vitest';
import { call, registerAccount } from '../support/api';
import { addUser } from '../support/table';

const loginAs = async (email: string, password: string) => {
  const res = await call('POST', '/api/v2/auth/login', { body: { email, password } });
  expect(res.status).toBe(200);
  return res.body.data as { session: { token: string }; user: { role: string } };
};

describe('roles on adminSession routes', () => {
  it('a member session is refused with 403; admin and owner sessions pass', async () => {
    const owner = await registerAccount('roles');
    const member = await loginAs(...(Object.values(await addUser(owner.workspaceId, 'member')) as [string, string]));
    const admin = await loginAs(...(Object.values(await addUser(owner.workspaceId, 'admin')) as [string, string]));
    expect(member.user.role).toBe('member');

    // Members are real users of the workspace: their own profile works.
    expect((await call('GET', '/api/v2/auth/profile', { token: member.session.token })).status).toBe(200);

    for (const [method, body] of [
      ['GET', undefined],
      ['POST', { name: 'm', preset: 'read-only' }],
    ] as const) {
      const refused = await call(method, '/api/v2/api-keys', { token: member.session.token, body });
      expect(refused.status).toBe(403);
      expect(refused.body.error.code).toBe('FORBIDDEN');
    }
    expect((await call('DELETE', '/api/v2/api-keys/key_01m7xhg19ss6d8332hgcph7bx7', { token: member.session.token })).status).toBe(403);

    expect((await call('GET', '/api/v2/api-keys', { token: admin.session.token })).status).toBe(200);
    expect((await call('POST', '/api/v2/api-keys', { token: admin.session.token, body: { name: 'a', preset: 'write' } })).status).toBe(201);
    expect((await call('GET', '/api/v2/api-keys', { token: owner.token })).status).toBe(200);
  });
});
