import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { provideLocalAdapters } from '../../../../infra/local/adapters';
import { config } from '../../../../shared/platform/config';
import { registerAccount } from '../../../support/api';
import { inProcess } from '../../../support/in-process';
import { platformTable } from '../../../support/table';

/**
 * The session cookie and the Origin check as they run in AWS, behind CloudFront over https: the
 * local server always says plain http, so the requests run in this process (`inProcess`, the whole
 * middy chain) with the headers API Gateway hands on there.
 */

const SECRET = 'edge-secret-'.padEnd(48, 'x');
const VIEWER = 'd111.cloudfront.net';
const EDGE = { host: 'abc.execute-api.eu-west-1.amazonaws.com', 'x-forwarded-host': VIEWER, 'x-forwarded-proto': 'https' };
const before = process.env.ORIGIN_VERIFY_SECRET;

beforeAll(async () => {
  const { runtime } = await platformTable();
  Object.assign(process.env, {
    STAGE: 'local',
    TABLE_NAME: runtime.tableName,
    DYNAMODB_ENDPOINT: runtime.dynamodbEndpoint,
    LOCAL_QUEUE_DB: runtime.queueDatabase,
    AWS_REGION: 'eu-west-1',
    ORIGIN_VERIFY_SECRET: SECRET,
  });
  provideLocalAdapters(tmpdir());
});
afterAll(() => {
  if (before === undefined) delete process.env.ORIGIN_VERIFY_SECRET;
  else process.env.ORIGIN_VERIFY_SECRET = before;
});

const signIn = async (email: string, password: string, headers: Record<string, string>) =>
  inProcess('POST', '/api/flash/session', { body: { email, password }, headers });

describe('the session cookie over https', () => {
  it('is __Host-, Secure, HttpOnly, SameSite=Strict, on Path=/ and names no Domain', async () => {
    const owner = await registerAccount('https-cookie');
    const res = await signIn(owner.email, owner.password, { ...EDGE, 'x-origin-verify': SECRET, origin: `https://${VIEWER}` });
    expect(res.status).toBe(200);
    expect(res.cookies).toHaveLength(1);
    const [cookie] = res.cookies;
    expect(cookie).toMatch(new RegExp(`^__Host-${config.browserSession.cookie}=fl_sess_[^;]+; Path=/; HttpOnly; SameSite=Strict; Max-Age=\\d+; Secure$`));
    expect(cookie).not.toMatch(/domain=/i);

    // The cookie stands in for the session under its __Host- name only; a bare one (which another host could plant) is no session.
    const token = cookie!.match(/^[^=]+=([^;]+)/)![1]!;
    const https = { 'x-forwarded-proto': 'https' };
    expect((await inProcess('GET', '/api/flash/session', { headers: https, cookies: [`__Host-${config.browserSession.cookie}=${token}`] })).status).toBe(200);
    expect((await inProcess('GET', '/api/flash/session', { headers: https, cookies: [`${config.browserSession.cookie}=${token}`] })).status).toBe(401);
  });
});

describe('the Origin check behind CloudFront', () => {
  it('takes the viewer host from X-Forwarded-Host only with the secret header of our distribution', async () => {
    const owner = await registerAccount('https-origin');
    // Through our distribution: the viewer's origin is ours.
    const ours = await signIn(owner.email, owner.password, { ...EDGE, 'x-origin-verify': SECRET, origin: `https://${VIEWER}` });
    expect(ours.status).toBe(200);
    // Without the secret (straight to API Gateway) X-Forwarded-Host is anyone's to name: a page of
    // evil.example that names its own host there is still another origin, and gets no cookie.
    for (const secret of [undefined, 'wrong', `${SECRET}x`]) {
      const forged = await signIn(owner.email, owner.password, {
        ...EDGE,
        'x-forwarded-host': 'evil.example',
        origin: 'https://evil.example',
        ...(secret === undefined ? {} : { 'x-origin-verify': secret }),
      });
      expect(forged.status, String(secret)).toBe(403);
      expect(forged.cookies).toEqual([]);
    }
  });
});
