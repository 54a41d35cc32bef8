import { beforeAll, describe, expect, it } from 'vitest';
import { call, createKey } from '../support/api';
import { cli } from '../support/cli';
import { balanceOf, tenant, type Tenant } from '../support/fixtures';
import { memberWith, newPool } from '../support/rewards';

/**
 * `loyalty rewards list|create|redeem` run as a child process against the test platform: human and
 * --json output, the benefit from its options, a code drawn on redeem, usage errors before any
 * request, and a key without the scope refused in the API's words. Its own workspace.
 */
let t: Tenant;
beforeAll(async () => {
  t = await tenant('cli-rewards');
});

const run = (args: string[], key = t.key) => cli(args, { env: { LOYALTY_API_KEY: key } });
const json = (r: { stdout: string }) => JSON.parse(r.stdout);

describe.concurrent('loyalty rewards', { timeout: 180_000 }, () => {
  it('creates a reward, lists it, and redeems it for a member, who gets a code', async () => {
    const pool = await newPool(t);
    const created = await run([
      'rewards',
      'create',
      '--name',
      'Five off',
      '--points',
      '200',
      '--amount',
      '5.00',
      '--currency',
      'eur',
      '--stock',
      '3',
      '--status',
      'active',
      '--json',
    ]);
    expect(created.code, created.stderr).toBe(0);
    const reward = json(created);
    expect(reward).toMatchObject({
      name: 'Five off',
      pointsCost: 200,
      benefit: { type: 'fixed_discount', amount: 500, currency: 'EUR' },
      stock: 3,
      status: 'active',
    });
    // A reward with a code: the pool is set over the API (the tool creates the common shapes).
    expect((await call('PATCH', `/api/v2/rewards/${reward.id}`, { token: t.key, body: { couponPoolId: pool.id } })).status).toBe(200);

    const listed = await run(['rewards', 'list', '--status', 'active']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(new RegExp(`${reward.id}\\s+Five off\\s+5\\.00 EUR off\\s+200\\s+3\\s+active`));

    const member = await memberWith(t, 300);
    const redeemed = await run(['rewards', 'redeem', reward.id, '--member', member.id]);
    expect(redeemed.code, redeemed.stderr).toBe(0);
    expect(redeemed.stdout).toMatch(new RegExp(`^Redeemed Five off for ${member.id}: redemption rdm_\\S+, 200 points spent$`, 'm'));
    expect(redeemed.stdout).toMatch(/^ {2}code +RW-\S+$/m);
    expect(redeemed.stdout).toMatch(/^Idempotency-Key: [0-9a-f-]{36}$/m);
    expect((await balanceOf(t.key, member.id)).balance).toBe(100);
  });

  it('takes the other benefits from their options and says what is missing before any request', async () => {
    const shipping = await run(['rewards', 'create', '--name', 'Ship free', '--points', '50', '--free-shipping']);
    expect(shipping.code, shipping.stderr).toBe(0);
    expect(shipping.stdout).toMatch(/^Created reward rwd_\S+ \(draft\): Ship free, free shipping for 50 points$/m);
    const percent = json(
      await run(['rewards', 'create', '--name', 'Tenth', '--points', '80', '--percent', '10', '--max', '20', '--currency', 'EUR', '--json']),
    );
    expect(percent.benefit).toEqual({ type: 'percent_discount', percent: 10, maxDiscount: { amount: 2000, currency: 'EUR' } });

    const two = await run(['rewards', 'create', '--name', 'Both', '--points', '10', '--free-shipping', '--free-product', 'MUG']);
    expect(two.code).not.toBe(0);
    expect(two.stderr).toContain('give exactly one of --amount, --percent, --free-shipping, --free-product');
    const noCurrency = await run(['rewards', 'create', '--name', 'X', '--points', '10', '--amount', '5']);
    expect(noCurrency.code).not.toBe(0);
    expect(noCurrency.stderr).toContain('--amount needs --currency');
    const help = await run(['rewards', 'create', '--help']);
    expect(help.stdout).toContain('Examples:\n  $ loyalty rewards create');
  });

  it('a key without rewards:manage is refused in the API’s words', async () => {
    const reader = await createKey(t.token, { name: 'reader', scopes: ['rewards:read'] });
    const refused = await run(['rewards', 'create', '--name', 'No', '--points', '10', '--free-shipping'], reader.key);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/rewards:manage/);
    expect((await run(['rewards', 'list', '--json'], reader.key)).code).toBe(0);
  });
});
