import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../../../shared/audit/entities';
import { actorIdsOf, consoleAddressOf, readable, type ActorNames } from '../../../../shared/audit/readable';
import { to } from '../../../../shared/console/paths';

const entry = (over: Partial<AuditEntry>): AuditEntry => ({
  id: 'aud_1',
  occurredAt: '2026-03-04T05:06:07.089Z',
  action: 'api_key.created',
  outcome: 'success',
  reason: null,
  actor: { type: 'user', id: 'usr_1' },
  target: { type: 'apiKey', id: 'key_9' },
  requestId: 'req_1',
  ...over,
});

const NAMES: ActorNames = {
  users: new Map([
    ['usr_1', { name: 'Ada Lovelace', email: 'ada@example.com' }],
    ['usr_2', { name: null, email: 'grace@example.com' }],
  ]),
  keys: new Map([['key_1', { name: 'Checkout', prefix: 'fl_live_3kq9' }]]),
};

describe('readable: the actor named as the workspace knows them now', () => {
  it('a team member by name and e-mail; without a name, the e-mail; gone, by id alone', () => {
    expect(readable(entry({}), NAMES).actor).toStrictEqual({ type: 'user', id: 'usr_1', name: 'Ada Lovelace', email: 'ada@example.com' });
    expect(readable(entry({ actor: { type: 'user', id: 'usr_2' } }), NAMES).actor).toStrictEqual({
      type: 'user',
      id: 'usr_2',
      name: null,
      email: 'grace@example.com',
    });
    expect(readable(entry({ actor: { type: 'user', id: 'usr_gone' } }), NAMES).actor).toStrictEqual({ type: 'user', id: 'usr_gone', name: null, email: null });
  });

  it('a key by name and prefix; an unknown key by id; anonymous as it is', () => {
    expect(readable(entry({ actor: { type: 'apiKey', id: 'key_1' } }), NAMES).actor).toStrictEqual({
      type: 'apiKey',
      id: 'key_1',
      name: 'Checkout',
      prefix: 'fl_live_3kq9',
    });
    expect(readable(entry({ actor: { type: 'apiKey', id: 'key_x' } }), NAMES).actor).toStrictEqual({ type: 'apiKey', id: 'key_x', name: null, prefix: null });
    expect(readable(entry({ actor: { type: 'anonymous' } }), NAMES).actor).toStrictEqual({ type: 'anonymous' });
    // A user id is never looked up among the keys, nor a key id among the users.
    expect(readable(entry({ actor: { type: 'apiKey', id: 'usr_1' } }), NAMES).actor).toMatchObject({ name: null });
  });

  it('keeps the rest of the entry and adds the target’s address', () => {
    const changes = [{ field: 'a', before: 1, after: 2 }];
    expect(readable(entry({ action: 'program.updated', target: { type: 'program', id: 'ws_1' }, changes }), NAMES)).toStrictEqual({
      id: 'aud_1',
      occurredAt: '2026-03-04T05:06:07.089Z',
      action: 'program.updated',
      outcome: 'success',
      reason: null,
      actor: { type: 'user', id: 'usr_1', name: 'Ada Lovelace', email: 'ada@example.com' },
      target: { type: 'program', id: 'ws_1', href: '/console/program' },
      requestId: 'req_1',
      changes,
    });
  });
});

describe('actorIdsOf', () => {
  it('the distinct user and key ids, anonymous left out', () => {
    const entries = [
      entry({}),
      entry({ actor: { type: 'apiKey', id: 'key_1' } }),
      entry({ actor: { type: 'anonymous' } }),
      entry({}),
      entry({ actor: { type: 'user', id: 'usr_2' } }),
      entry({ actor: { type: 'apiKey', id: 'key_1' } }),
    ];
    expect(actorIdsOf(entries)).toStrictEqual({ users: ['usr_1', 'usr_2'], keys: ['key_1'] });
    expect(actorIdsOf([])).toStrictEqual({ users: [], keys: [] });
  });
});

describe('consoleAddressOf: the console page of what an entry acted on', () => {
  it('is the console’s own address of each thing that has a page', () => {
    expect(consoleAddressOf('member.points_adjusted', { type: 'member', id: 'mbr_1' })).toBe(to.member('mbr_1'));
    expect(consoleAddressOf('campaign.updated', { type: 'campaign', id: 'cmp_1' })).toBe(to.campaign('cmp_1'));
    expect(consoleAddressOf('program.updated', { type: 'program', id: 'ws_1' })).toBe(to.program);
    expect(consoleAddressOf('object_type.updated', { type: 'objectType', id: 'repair_job' })).toBe(to.objectType('repair_job'));
    expect(consoleAddressOf('webhook_endpoint.updated', { type: 'webhookEndpoint', id: 'whe_1' })).toBe(to.deliveries('whe_1'));
    expect(consoleAddressOf('api_key.revoked', { type: 'apiKey', id: 'key_1' })).toBe('/console/api-keys');
    expect(consoleAddressOf('team.role_changed', { type: 'user', id: 'usr_1' })).toBe('/console/team');
    expect(consoleAddressOf('team.invited', { type: 'invitation', id: 'inv_1' })).toBe('/console/team');
    for (const [action, type] of [
      ['export.requested', 'exportJob'],
      ['export_schedule.created', 'exportSchedule'],
      ['export.signing_secret_rotated', 'exportSigningSecret'],
    ] as const)
      expect(consoleAddressOf(action, { type, id: 'x_1' })).toBe('/console/exports');
  });

  it('a workspace-wide setting by its action: the wallet, the program clock; others have none', () => {
    expect(consoleAddressOf('wallet_branding.updated', { type: 'workspace', id: 'ws_1' })).toBe('/console/wallet');
    expect(consoleAddressOf('program.clock_advanced', { type: 'workspace', id: 'ws_1' })).toBe(to.program);
    expect(consoleAddressOf('portal.cors_updated', { type: 'workspace', id: 'ws_1' })).toBeNull();
    expect(consoleAddressOf('workspace.created', { type: 'workspace', id: 'ws_1' })).toBeNull();
  });

  it('none for what the console has no page of, what is gone, or a redacted id', () => {
    expect(consoleAddressOf('reward.updated', { type: 'reward', id: 'rwd_1' })).toBeNull();
    expect(consoleAddressOf('mcp.tool_called', { type: 'mcpTool', id: 'earn_points' })).toBeNull();
    expect(consoleAddressOf('campaign.deleted', { type: 'campaign', id: 'cmp_1' })).toBeNull();
    expect(consoleAddressOf('webhook_endpoint.deleted', { type: 'webhookEndpoint', id: 'whe_1' })).toBeNull();
    expect(consoleAddressOf('member.points_adjusted', { type: 'member', id: '[redacted]' })).toBeNull();
  });

  it('encodes an id into its path segment', () => {
    expect(consoleAddressOf('object_type.updated', { type: 'objectType', id: 'a:b' })).toBe('/console/object-types/a%3Ab');
    expect(consoleAddressOf('member.erased', { type: 'member', id: 'm/1' })).toBe('/console/members/m%2F1');
  });
});
