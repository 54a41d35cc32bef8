import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { runtimeOf } from '../../../support/platform';

/**
 * The per-container caches as their configured lifetimes drive them (`config.caches`): a change
 * written by another container (here: straight through the repository, past this process's cache)
 * is not seen before the lifetime is over, and is seen from then on. The services run in this
 * process against the platform's DynamoDB Local; only the clock they read is moved.
 */

let program: typeof import('../../../../shared/program/service');
let programRepo: typeof import('../../../../shared/program/repository');
let subscriptions: typeof import('../../../../shared/webhooks/subscriptions');
let webhookRepo: typeof import('../../../../shared/webhooks/repository');

beforeAll(async () => {
  const runtime = await runtimeOf(inject('dataDir'));
  Object.assign(process.env, { STAGE: 'local', TABLE_NAME: runtime.tableName, DYNAMODB_ENDPOINT: runtime.dynamodbEndpoint, AWS_REGION: 'eu-west-1' });
  // The caches read Date.now when they are built: the fake clock is in place before the modules load.
  vi.useFakeTimers({ toFake: ['Date'] });
  [program, programRepo, subscriptions, webhookRepo] = await Promise.all([
    import('../../../../shared/program/service'),
    import('../../../../shared/program/repository'),
    import('../../../../shared/webhooks/subscriptions'),
    import('../../../../shared/webhooks/repository'),
  ]);
});

afterAll(() => {
  vi.useRealTimers();
});

const workspace = () => `ws_${randomUUID().replace(/-/g, '').slice(0, 26)}`;
const later = (ms: number) => vi.setSystemTime(Date.now() + ms);

describe('per-container caches', () => {
  it('earn rules and tiers changed elsewhere apply here after 5 s, not before', async () => {
    const ws = workspace();
    const before = await program.getProgram(ws);
    expect(before.version).toBe(0);
    await programRepo.putProgram(
      ws,
      {
        earn: before.earn,
        tiers: before.tiers,
        points: before.points,
        orders: before.orders,
        timeZone: before.timeZone,
        pointValue: before.pointValue,
        version: 1,
        updatedAt: new Date().toISOString(),
      },
      0,
      [],
    );
    later(4_999);
    expect((await program.getProgram(ws)).version).toBe(0);
    later(1);
    expect((await program.getProgram(ws)).version).toBe(1);
  });

  it('a webhook endpoint added elsewhere reaches the fan-out after 5 s, not before', async () => {
    const ws = workspace();
    expect(await subscriptions.subscriptions(ws)).toEqual([]);
    const at = new Date().toISOString();
    await webhookRepo.putEndpoint(
      {
        id: `whe_${randomUUID().replace(/-/g, '').slice(0, 26)}`,
        workspaceId: ws,
        url: 'https://hooks.example.com/in',
        description: '',
        eventTypes: ['member.created'],
        status: 'active',
        disabledReason: null,
        secrets: [],
        createdAt: at,
        updatedAt: at,
        version: 1,
      },
      [],
    );
    later(4_999);
    expect(await subscriptions.subscriptions(ws)).toEqual([]);
    later(1);
    expect(await subscriptions.subscriptions(ws)).toEqual([expect.objectContaining({ eventTypes: ['member.created'], status: 'active' })]);
  });
});
