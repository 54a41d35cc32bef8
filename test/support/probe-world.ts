import { inject } from 'vitest';
import { routeKey, routes, type AuthKind, type RouteDef } from '../../shared/http/declarations';
import { SCOPES } from '../../shared/platform/contract/scopes';
import { browserSignIn, call, createKey, registerAccount, type Account } from './api';
import { newMember, newOrder } from './fixtures';
import { requestVocabulary, SchemaFuzzer } from './fuzz';
import { METHODS } from './openapi';
import { addUser } from './table';
import { config } from '../../shared/platform/config';
import { unpackPass } from './wallet';

/**
 * What the adversarial tests (`test/e2e/fuzz.test.ts`, `test/e2e/race.test.ts`) probe: every route of
 * the route table, joined with its operation in the OpenAPI document (its schemas), and a world of two
 * workspaces with one of everything and a credential of every kind, so a request can get past
 * authentication and its path's 404 to the body on every route. A route is covered the moment it is
 * declared; a route the probes cannot reach (no operation in the document, an auth kind without a
 * credential here) fails the tests that check coverage rather than going unprobed.
 */

type Json = Record<string, any>;

export interface Operation {
  /** The route table's own key (`POST /api/v2/orders`). */
  key: string;
  route: RouteDef;
  id: string;
  method: string;
  path: string;
  params: Json[];
  body?: Json;
  /** Security schemes the operation takes, in the document's order; empty: public. */
  schemes: string[];
  idempotent: boolean;
}

/** The route table's routes as operations of the document, and the routes the document lacks. */
export function operationsOf(doc: Json): { operations: Operation[]; undocumented: string[] } {
  const operations: Operation[] = [];
  const undocumented: string[] = [];
  for (const route of routes) {
    const method = route.method.toLowerCase();
    const op = METHODS.includes(method as (typeof METHODS)[number]) ? (doc.paths?.[route.path]?.[method] as Json | undefined) : undefined;
    if (!op) {
      undocumented.push(routeKey(route));
      continue;
    }
    const params = (op.parameters ?? []) as Json[];
    operations.push({
      key: routeKey(route),
      route,
      id: op.operationId as string,
      method: route.method,
      path: route.path,
      params: params.filter((p) => !p.$ref),
      body: op.requestBody?.content?.['application/json']?.schema,
      schemes: ((op.security ?? []) as Json[]).flatMap((s) => Object.keys(s)),
      idempotent: params.some((p) => p.$ref === '#/components/parameters/IdempotencyKey'),
    });
  }
  return { operations, undocumented };
}

export interface Workspace extends Account {
  key: string;
  keyId: string;
  /** A member portal (consumer) session of the workspace's first member. */
  consumerSession: string;
  /** The `authenticationToken` of an Apple pass issued to that member. */
  applePass: string;
}

export interface World {
  a: Workspace & {
    lackingKey: string;
    memberSession: string;
    /** The owner's console session: its cookie, and the Origin and CSRF token a write with it sends. */
    browser: Record<string, string>;
  };
  b: Workspace;
  /** Real values per name (own workspace first, then the other one's). */
  values: Map<string, string[]>;
  foreign: Map<string, string[]>;
}

export const add = (map: Map<string, string[]>, name: string, ...values: (string | undefined | null)[]) => {
  const list = map.get(name) ?? [];
  for (const v of values) if (typeof v === 'string' && v && !list.includes(v)) list.push(v);
  map.set(name, list);
};

export async function ok(method: string, path: string, token: string, body?: unknown): Promise<any> {
  const res = await call(method, path, { token, ...(body !== undefined ? { body } : {}) });
  if (res.status >= 300) throw new Error(`probe world: ${method} ${path} answered ${res.status} ${JSON.stringify(res.body)}`);
  return res.body?.data;
}

/** A portal session and an Apple pass for a member, with the pass's path values recorded. */
async function walletOf(key: string, memberId: string, values: Map<string, string[]>): Promise<{ consumerSession: string; applePass: string }> {
  const consumerSession = (await ok('POST', `/api/v2/members/${memberId}/portal-sessions`, key)).token as string;
  // The pass is a zip (not JSON), so it is fetched directly rather than through `call`.
  const res = await fetch(`${inject('baseUrl')}/api/consumer/wallet/issue`, {
    method: 'POST',
    headers: { authorization: `Bearer ${consumerSession}`, 'content-type': 'application/json' },
    body: JSON.stringify({ platform: 'apple' }),
  });
  if (res.status !== 200) throw new Error(`probe world: the Apple pass answered ${res.status} ${await res.text()}`);
  const pass = JSON.parse(unpackPass(Buffer.from(await res.arrayBuffer())).files['pass.json']!.toString());
  add(values, 'passTypeId', pass.passTypeIdentifier);
  add(values, 'serial', pass.serialNumber);
  return { consumerSession, applePass: pass.authenticationToken as string };
}

async function workspace(label: string, values: Map<string, string[]>): Promise<Workspace> {
  const account = await registerAccount(label);
  const key = await createKey(account.token, { name: 'all', scopes: [...SCOPES] });
  const t = { ...account, key: key.key, keyId: key.id };
  add(values, 'email', account.email);
  const members = [await newMember(t.key, { externalId: `ext-${label}-1`, firstName: 'Ada' }), await newMember(t.key, { externalId: `ext-${label}-2` })];
  for (const m of members) {
    add(values, 'memberId', m.id);
    add(values, 'email', m.email);
    add(values, 'externalId', m.externalId);
  }
  const store = await ok('POST', '/api/v2/stores', t.key, { name: `${label} store`, code: `S-${label}` });
  add(values, 'storeId', store.id);
  const order = await newOrder(t.key, members[0].id, { storeId: store.id, items: [{ sku: `${label}-1`, quantity: 1, unitPrice: 100 }] });
  add(values, 'externalOrderId', order.externalOrderId);
  await ok('POST', `/api/v2/members/${members[0].id}/points`, t.key, { type: 'earn', amount: 50, reason: 'fuzz' });
  await ok('POST', `/api/v2/members/${members[0].id}/tags`, t.key, { tags: ['vip', 'newsletter'] });
  add(values, 'tag', 'vip', 'newsletter');
  add(values, 'tagKey', 'vip', 'newsletter');
  add(values, 'prefix', 'v', 'news');
  const type = {
    label: 'Fuzz thing',
    status: 'published',
    apiVisible: true,
    fields: [
      { key: 'title', type: 'text', required: true },
      { key: 'count', type: 'number' },
      { key: 'kind', type: 'enum', options: ['a', 'b'] },
      { key: 'owner', type: 'member_ref' },
      { key: 'when', type: 'datetime' },
    ],
  };
  await ok('PUT', '/api/flash/objects/types/fuzz_thing', t.token, type);
  add(values, 'type', 'fuzz_thing');
  for (const title of ['first', 'second']) {
    const record = await ok('POST', '/api/v2/objects/fuzz_thing/records', t.key, { data: { title, count: 1, kind: 'a', owner: members[0].id } });
    add(values, 'recordId', record.id);
  }
  const imported = await ok('POST', '/api/v2/catalog/import', t.key, {
    products: [
      {
        sku: `${label}-1`,
        name: 'Fuzz product',
        category: { key: 'shoes', name: 'Shoes' },
        brand: { key: 'acme', name: 'Acme' },
        price: { amount: 10, currency: 'EUR' },
      },
    ],
  });
  add(values, 'productId', ...imported.results.map((r: { productId?: string }) => r.productId));
  add(values, 'sku', `${label}-1`);
  add(values, 'category', 'shoes');
  add(values, 'parentKey', 'shoes');
  add(values, 'brand', 'acme');
  const pool = await ok('POST', '/api/v2/coupons/pools', t.key, {
    name: 'Fuzz pool',
    discount: { type: 'percent', value: 10 },
    codeConfig: { mode: 'generated' },
    stock: 1000,
  });
  add(values, 'poolId', pool.id);
  const coupon = await ok('POST', '/api/v2/coupons/issue', t.key, { poolId: pool.id, memberId: members[0].id });
  add(values, 'couponId', coupon.id);
  add(values, 'code', coupon.code);
  const referral = await ok('POST', `/api/v2/ambassador/members/${members[0].id}/issue-code`, t.key);
  add(values, 'referralCode', referral?.code);
  await ok('POST', '/api/v2/tracking/events', t.key, {
    events: [{ eventId: `ev-${label}`, memberId: members[0].id, type: 'page.viewed', occurredAt: new Date().toISOString() }],
  });
  add(values, 'eventId', `ev-${label}`);
  const campaign = await ok('POST', '/api/flash/campaigns', t.token, {
    name: `${label} campaign`,
    trigger: { type: 'order' },
    conditions: [{ field: 'order.total', op: 'gte', value: 1 }],
    effect: { type: 'bonus_points', points: 5 },
  });
  add(values, 'campaignId', campaign.id);
  const reward = await ok('POST', '/api/v2/rewards', t.key, {
    name: `${label} reward`,
    pointsCost: 10,
    benefit: { type: 'percent_discount', percent: 10, maxDiscount: null },
    stock: 100,
    couponPoolId: pool.id,
    status: 'active',
  });
  add(values, 'rewardId', reward.id);
  await ok('POST', `/api/v2/members/${members[0].id}/points`, t.key, { type: 'earn', amount: 100, reason: 'probe world' });
  const redemption = await ok('POST', `/api/v2/rewards/${reward.id}/redemptions`, t.key, { memberId: members[0].id });
  add(values, 'redemptionId', redemption.id);
  return { ...t, ...(await walletOf(t.key, members[0].id, values)) };
}

/**
 * Two workspaces (`a` is probed, `b` is the neighbour whose data must never change), real ids of
 * each, webhook endpoints at `receiverUrl`, and credentials of every kind for `a`: an all-scopes key,
 * a key without the scopes, the owner's session, a plain member's session, a portal session and an
 * Apple pass.
 */
export async function buildWorld(label: string, receiverUrl: string): Promise<World> {
  const values = new Map<string, string[]>();
  const foreign = new Map<string, string[]>();
  const [a, b] = await Promise.all([workspace(label, values), workspace(`${label}-other`, foreign)]);
  // Credentials the probes must not be able to revoke are kept out of the id pools: the victim key is.
  const victim = await createKey(a.token, { name: 'victim', preset: 'read-only' });
  const lacking = await createKey(a.token, { name: 'lacking', scopes: ['consent:read'] });
  add(values, 'apiKeyId', victim.id);
  for (const description of ['main', 'victim']) {
    const endpoint = await ok('POST', '/api/v2/webhooks', a.key, { url: receiverUrl, eventTypes: ['coupon.redeemed'], description });
    add(values, 'endpointId', endpoint.id);
  }
  const ping = await ok('POST', `/api/v2/webhooks/${values.get('endpointId')![0]}/test`, a.key);
  add(values, 'deliveryId', ping.deliveryId);
  // A device id of the right shape for the device routes (registering one is the probes' own work).
  const deviceId = `device${label.replace(/\W/g, '')}0001`;
  add(values, 'deviceId', deviceId);
  // Real cursors, to be continued (or misused on another list).
  for (const path of ['/api/v2/members', '/api/v2/stores', '/api/v2/api-keys', `/api/v2/members/${values.get('memberId')![0]}/tags`]) {
    const res = await call('GET', `${path}?limit=1`, { token: a.key });
    add(values, 'cursor', res.body?.nextCursor);
  }
  const member = await addUser(a.workspaceId, 'member');
  const memberLogin = await ok('POST', '/api/v2/auth/login', '', member);
  add(values, 'userId', memberLogin.user.id);
  const invitation = await ok('POST', '/api/flash/team/invitations', a.token, { email: `invited-${label}@example.test`, role: 'member' });
  add(values, 'invitationId', invitation.id ?? invitation.invitation?.id);
  const signedIn = await browserSignIn(a.email, a.password);
  if (!signedIn.token || !signedIn.csrf) throw new Error(`probe world: the console sign-in answered ${signedIn.res.status}`);
  const browser = { cookie: signedIn.cookie, origin: new URL(inject('baseUrl')).origin, [config.browserSession.csrfHeader]: signedIn.csrf };
  return { a: { ...a, lackingKey: lacking.key, memberSession: memberLogin.session.token, browser }, b, values, foreign };
}

/** Real values for a path parameter: by its name, or for `{id}` by the collection before it. */
export function knownPathValues(op: Pick<Operation, 'path'>, name: string, pool: Map<string, string[]>): string[] {
  if (name !== 'id') return pool.get(name) ?? [];
  const segments = op.path.split('/');
  const collection = segments[segments.indexOf('{id}') - 1];
  if (op.path.includes('/team/members/')) return pool.get('userId') ?? [];
  const byCollection: Record<string, string> = {
    invitations: 'invitationId',
    members: 'memberId',
    stores: 'storeId',
    'api-keys': 'apiKeyId',
    webhooks: 'endpointId',
    products: 'productId',
    coupons: 'couponId',
    records: 'recordId',
    campaigns: 'campaignId',
    rewards: 'rewardId',
    redemptions: 'redemptionId',
  };
  return pool.get(byCollection[collection ?? ''] ?? name) ?? [];
}

/** What a request carries to prove who it is: a bearer token, or headers (`Authorization`, a cookie). */
export interface Credential {
  token?: string;
  headers?: Record<string, string>;
}

/** The credential of a document's security scheme for a workspace; a scheme without one here is an error, never a silent skip. */
export function credentialOf(scheme: string, t: Workspace): Credential {
  switch (scheme) {
    case 'apiKey':
      return { token: t.key };
    case 'session':
      return { token: t.token };
    case 'consumerSession':
      return { token: t.consumerSession };
    case 'applePass':
      return { headers: { authorization: `ApplePass ${t.applePass}` } };
    default:
      throw new Error(`the probes have no credential for the security scheme ${scheme}: add one to test/support/probe-world.ts`);
  }
}

/** The auth kinds of the route table the probes hold a credential for (the document's schemes derive from them). */
export const PROBED_AUTH_KINDS: readonly AuthKind[] = ['apiKey', 'apiKeyPerTool', 'session', 'adminSession', 'consumer', 'applePass', 'public'];

/** Request values drawn from the document's schemas, with the world's real ids (and one of the neighbour's). */
export function schemaFuzzerOf(doc: Json, world: World): SchemaFuzzer {
  const vocabulary = requestVocabulary(doc);
  return new SchemaFuzzer({
    doc,
    known: (name) => [...(world.values.get(name) ?? []), ...(world.foreign.get(name) ?? []).slice(0, 1)],
    vocabulary: [...vocabulary.keys(), 'title', 'count', 'kind', 'owner', 'when'],
    schemaOf: (name) => vocabulary.get(name),
  });
}
