import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AUDIT_ACTOR_TYPES, AUDIT_CATALOG } from '../../../../shared/audit/catalog';
import { AUDIT_ACTIONS, AUDIT_FAILURE_REASONS, AUDIT_OUTCOMES, AUDIT_TARGET_TYPES, type AuditAction, type AuditActor } from '../../../../shared/audit/entities';
import { actorOf, auditEntry, plainValue, REDACTED, SECRET_PREFIXES, type AuditInput } from '../../../../shared/audit/entry';
import { listAuditQuery } from '../../../../shared/audit/schemas';
import { idTimePrefix } from '../../../../shared/platform/ids';

const NOW = new Date('2026-03-04T05:06:07.089Z');
const ID = 'aud_01jnkv6a1h0000000000000000';

const input = (over: Partial<AuditInput> = {}): AuditInput => ({
  action: 'api_key.created',
  actor: { type: 'user', id: 'usr_01jnkv6a1h1234567890abcdef' },
  target: { type: 'apiKey', id: 'key_01jnkv6a1h1234567890abcdef' },
  requestId: 'req_01jnkv6a1h1234567890abcdef',
  ...over,
});

describe('audit catalog', () => {
  it('declares each action once, with the kind of its target and its outcome', () => {
    const table = Object.fromEntries(AUDIT_ACTIONS.map((a) => [a, `${AUDIT_CATALOG[a].target} ${AUDIT_CATALOG[a].outcome}`]));
    expect(table).toStrictEqual({
      'workspace.created': 'workspace success',
      'auth.login': 'user success',
      'auth.logout': 'user success',
      'auth.login_failed': 'user failure',
      'auth.password_changed': 'user success',
      'auth.session_ended': 'user success',
      'auth.password_reset': 'user success',
      'auth.email_changed': 'user success',
      'auth.mfa_enabled': 'user success',
      'auth.mfa_disabled': 'user success',
      'workspace.mfa_required': 'workspace success',
      'workspace.mfa_not_required': 'workspace success',
      'api_key.created': 'apiKey success',
      'api_key.revoked': 'apiKey success',
      'webhook_endpoint.created': 'webhookEndpoint success',
      'webhook_endpoint.updated': 'webhookEndpoint success',
      'webhook_endpoint.secret_rotated': 'webhookEndpoint success',
      'webhook_endpoint.deleted': 'webhookEndpoint success',
      'webhook_endpoint.dead_deliveries_replayed': 'webhookEndpoint success',
      'portal.cors_updated': 'workspace success',
      'program.updated': 'program success',
      'program.clock_advanced': 'workspace success',
      'campaign.created': 'campaign success',
      'campaign.updated': 'campaign success',
      'campaign.deleted': 'campaign success',
      'object_type.created': 'objectType success',
      'object_type.updated': 'objectType success',
      'mcp.method_called': 'mcpServer either',
      'mcp.tool_called': 'mcpTool either',
      'wallet_branding.updated': 'workspace success',
      // Data exports
      'export.requested': 'exportJob success',
      'export.link_issued': 'exportJob success',
      'export.signing_secret_rotated': 'exportSigningSecret success',
      'export_schedule.created': 'exportSchedule success',
      'export_schedule.deleted': 'exportSchedule success',
      // Data-subject export and erasure
      'member.personal_data_exported': 'member success',
      'member.erased': 'member success',
      // The team
      'team.invited': 'invitation success',
      'team.invitation_revoked': 'invitation success',
      'team.invitation_accepted': 'invitation success',
      'team.role_changed': 'user success',
      'team.sessions_ended': 'user success',
      'team.member_removed': 'user success',
      // Console: members
      'member.points_adjusted': 'member success',
      'member.ledger_entry_reversed': 'member success',
      // Rewards
      'reward.created': 'reward success',
      'reward.updated': 'reward success',
      'redemption.voided': 'redemption success',
    });
    expect(Object.keys(AUDIT_CATALOG).sort()).toEqual([...AUDIT_ACTIONS].sort());
    expect(new Set(AUDIT_ACTIONS).size).toBe(AUDIT_ACTIONS.length);
  });

  it('names actions `<subject>.<verb>` in snake_case and says when each is written', () => {
    for (const action of AUDIT_ACTIONS) {
      expect(action).toMatch(/^[a-z]+(_[a-z]+)*\.[a-z]+(_[a-z]+)*$/);
      expect(AUDIT_CATALOG[action].when.length, action).toBeGreaterThan(15);
      expect(AUDIT_TARGET_TYPES).toContain(AUDIT_CATALOG[action].target);
    }
  });

  it('pins the names of actors, targets, outcomes and failure reasons', () => {
    expect(AUDIT_ACTOR_TYPES).toEqual(['user', 'apiKey', 'anonymous']);
    expect(AUDIT_TARGET_TYPES).toEqual([
      'workspace',
      'user',
      'apiKey',
      'webhookEndpoint',
      'program',
      'campaign',
      'objectType',
      'mcpTool',
      'mcpServer',
      'exportJob',
      'exportSigningSecret',
      'exportSchedule',
      'member',
      'invitation',
      'reward',
      'redemption',
    ]);
    expect(AUDIT_OUTCOMES).toEqual(['success', 'failure']);
    expect(AUDIT_FAILURE_REASONS).toEqual(['wrong_password', 'wrong_code', 'tool_error', 'refused', 'invalid']);
  });

  it('is documented: every action on the audit trail page (docs/data.md)', () => {
    const readme = readFileSync(new URL('../../../../docs/data.md', import.meta.url), 'utf8');
    for (const action of AUDIT_ACTIONS) expect(readme, action).toContain(`\`${action}\``);
  });
});

describe('plainValue: ids pass, anything else is redacted', () => {
  it.each(['usr_01jnkv6a1h1234567890abcdef', 'req_01JNKV6A1H', 'repair_job', 'a', 'A.b:c-d_e9', 'x'.repeat(128), 'key_whsec_', 'my-fl_live_key'])(
    '%s is kept',
    (value) => {
      expect(plainValue(value)).toBe(value);
    },
  );

  it.each([
    ['empty', ''],
    ['too long', 'x'.repeat(129)],
    ['an e-mail', 'ada@example.com'],
    ['a leading @', '@ada'],
    ['a trailing @', 'ada@'],
    ['a space', 'ada lovelace'],
    ['a slash', 'a/b'],
    ['a newline at the end', 'abc\n'],
    ['an API key', `fl_live_${'A'.repeat(43)}`],
    ['a sandbox API key', `fl_test_${'A'.repeat(43)}`],
    ['a session token', `fl_sess_${'b'.repeat(43)}`],
    ['a reset token', `fl_reset_${'c'.repeat(43)}`],
    ['a webhook secret', 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'],
    ['a bare prefix', 'whsec_'],
  ])('%s is redacted', (_what, value) => {
    expect(plainValue(value)).toBe(REDACTED);
  });

  it('redacts what is not a string', () => {
    for (const value of [12345, null, undefined, { id: 'usr_1' }, ['usr_1']]) expect(plainValue(value)).toBe('[redacted]');
  });

  it('knows every secret prefix of the platform', () => {
    expect(SECRET_PREFIXES).toEqual(['fl_live_', 'fl_test_', 'fl_sess_', 'fl_reset_', 'fl_cs_', 'whsec_']);
  });
});

describe('actorOf', () => {
  it('names a session by its user and a key by its id, never the credential', () => {
    expect(actorOf({ kind: 'session', workspaceId: 'ws_1', userId: 'usr_1', role: 'owner', tokenHash: 'h'.repeat(64), expiresAt: 1 })).toStrictEqual({
      type: 'user',
      id: 'usr_1',
    });
    expect(actorOf({ kind: 'apiKey', workspaceId: 'ws_1', keyId: 'key_1', scopes: ['members:read'] })).toStrictEqual({ type: 'apiKey', id: 'key_1' });
  });
});

describe('auditEntry', () => {
  it('builds the entry: id, time, action, outcome, actor, target, request id', () => {
    expect(auditEntry(input(), NOW, ID)).toStrictEqual({
      id: ID,
      occurredAt: '2026-03-04T05:06:07.089Z',
      action: 'api_key.created',
      outcome: 'success',
      reason: null,
      actor: { type: 'user', id: 'usr_01jnkv6a1h1234567890abcdef' },
      target: { type: 'apiKey', id: 'key_01jnkv6a1h1234567890abcdef' },
      requestId: 'req_01jnkv6a1h1234567890abcdef',
    });
  });

  it('makes a time-ordered aud_ id from the entry’s own time', () => {
    const entry = auditEntry(input(), NOW);
    expect(entry.id).toMatch(/^aud_[0-9a-hjkmnp-tv-z]{26}$/);
    expect(entry.id.startsWith(idTimePrefix('aud', NOW.getTime()))).toBe(true);
    expect(auditEntry(input(), new Date(NOW.getTime() + 1)).id > entry.id).toBe(true);
  });

  it('records a failure with its reason, by anonymous', () => {
    const entry = auditEntry(
      input({ action: 'auth.login_failed', actor: { type: 'anonymous' }, target: { type: 'user', id: 'usr_1' }, reason: 'wrong_password' }),
      NOW,
      ID,
    );
    expect(entry).toStrictEqual({
      id: ID,
      occurredAt: NOW.toISOString(),
      action: 'auth.login_failed',
      outcome: 'failure',
      reason: 'wrong_password',
      actor: { type: 'anonymous' },
      target: { type: 'user', id: 'usr_1' },
      requestId: 'req_01jnkv6a1h1234567890abcdef',
    });
  });

  it('an API key as actor keeps its type and id', () => {
    expect(auditEntry(input({ actor: { type: 'apiKey', id: 'key_9' } }), NOW, ID).actor).toStrictEqual({ type: 'apiKey', id: 'key_9' });
  });

  it('drops whatever else the inputs carry: e-mails, names, hashes, secrets', () => {
    const leaky = {
      ...input(),
      email: 'ada@example.com',
      password: 'correct horse battery',
      actor: { type: 'user', id: 'usr_1', email: 'ada@example.com', name: 'Ada', tokenHash: 'f'.repeat(64) },
      target: { type: 'apiKey', id: 'key_1', key: `fl_live_${'A'.repeat(43)}`, keyHash: 'e'.repeat(64), name: 'Ops' },
    } as unknown as AuditInput;
    const entry = auditEntry(leaky, NOW, ID);
    expect(entry.actor).toStrictEqual({ type: 'user', id: 'usr_1' });
    expect(entry.target).toStrictEqual({ type: 'apiKey', id: 'key_1' });
    expect(Object.keys(entry).sort()).toEqual(['action', 'actor', 'id', 'occurredAt', 'outcome', 'reason', 'requestId', 'target']);
    const text = JSON.stringify(entry);
    for (const leak of ['ada@', 'correct horse', 'Ada', 'fl_live_', 'fff', 'eee', 'Ops']) expect(text).not.toContain(leak);
    const anonymous = auditEntry(
      {
        ...input({ action: 'auth.login_failed', target: { type: 'user', id: 'usr_1' }, reason: 'wrong_password' }),
        actor: { type: 'anonymous', id: 'ada@example.com' } as unknown as AuditActor,
      },
      NOW,
      ID,
    );
    expect(anonymous.actor).toStrictEqual({ type: 'anonymous' });
  });

  it('redacts a secret or an e-mail passed where an id belongs', () => {
    const entry = auditEntry(
      input({
        actor: { type: 'apiKey', id: `fl_live_${'A'.repeat(43)}` },
        target: { type: 'apiKey', id: 'ada@example.com' },
        requestId: `fl_sess_${'b'.repeat(43)}`,
      }),
      NOW,
      ID,
    );
    expect(entry.actor).toStrictEqual({ type: 'apiKey', id: '[redacted]' });
    expect(entry.target).toStrictEqual({ type: 'apiKey', id: '[redacted]' });
    expect(entry.requestId).toBe('[redacted]');
  });

  it('refuses an action outside the catalog, prototype names included', () => {
    expect(() => auditEntry(input({ action: 'auth.impersonated' as AuditAction }), NOW, ID)).toThrow('auth.impersonated is not in the audit catalog');
    expect(() => auditEntry(input({ action: 'toString' as AuditAction }), NOW, ID)).toThrow('toString is not in the audit catalog');
  });

  it('refuses a target of another kind than the action’s', () => {
    expect(() => auditEntry(input({ target: { type: 'user', id: 'usr_1' } }), NOW, ID)).toThrow('api_key.created targets a apiKey, not a user');
  });

  it('a failure action needs a known reason; a success action takes none', () => {
    const failed = input({ action: 'auth.login_failed', actor: { type: 'anonymous' }, target: { type: 'user', id: 'usr_1' } });
    expect(() => auditEntry(failed, NOW, ID)).toThrow('auth.login_failed needs a reason');
    expect(() => auditEntry({ ...failed, reason: 'bad_luck' as never }, NOW, ID)).toThrow('bad_luck is not an audit failure reason');
    expect(() => auditEntry(input({ reason: 'wrong_password' }), NOW, ID)).toThrow('api_key.created takes no reason');
  });

  it('a configuration change keeps its changes, each only as field, before and after', () => {
    const program = input({ action: 'program.updated', target: { type: 'program', id: 'ws_1' } });
    const changes = [
      { field: 'earn.rate', before: 1, after: 2, note: 'ada@example.com' },
      { field: 'timeZone', after: 'Europe/Berlin' },
      { field: 'gone', before: null },
    ];
    expect(auditEntry({ ...program, changes } as AuditInput, NOW, ID).changes).toStrictEqual([
      { field: 'earn.rate', before: 1, after: 2 },
      { field: 'timeZone', after: 'Europe/Berlin' },
      { field: 'gone', before: null },
    ]);
    expect(auditEntry({ ...program, changes: [] }, NOW, ID).changes).toStrictEqual([]);
    expect('changes' in auditEntry(program, NOW, ID)).toBe(false);
  });

  it('only the catalog’s configuration changes carry changes', () => {
    expect(AUDIT_ACTIONS.filter((a) => AUDIT_CATALOG[a].changes)).toStrictEqual([
      'program.updated',
      'campaign.created',
      'campaign.updated',
      'portal.cors_updated',
      'team.role_changed',
      'reward.created',
      'reward.updated',
    ]);
    expect(() => auditEntry(input({ changes: [{ field: 'name', after: 'x' }] }), NOW, ID)).toThrow('api_key.created records no changes');
  });

  it('refuses an actor type it does not know', () => {
    expect(() => auditEntry(input({ actor: { type: 'system' } as unknown as AuditActor }), NOW, ID)).toThrow('unknown audit actor type system');
  });
});

describe('listAuditQuery', () => {
  const parse = (q: Record<string, string>) => listAuditQuery.safeParse(q);
  const fields = (q: Record<string, string>) => {
    const r = parse(q);
    return r.success ? [] : r.error.issues.map((i) => i.path.join('.'));
  };

  it('takes the catalog actions, an actor id, a window and the page', () => {
    expect(parse({}).data).toStrictEqual({ limit: 50 });
    expect(
      parse({
        action: 'auth.login',
        actor: 'usr_01m8eqr3e38a6rgasbe4jwmz82',
        from: '2026-01-01T00:00:00Z',
        to: '2026-01-02T00:00:00+01:00',
        limit: '5',
        cursor: 'c',
      }).data,
    ).toStrictEqual({
      action: 'auth.login',
      actor: 'usr_01m8eqr3e38a6rgasbe4jwmz82',
      from: '2026-01-01T00:00:00Z',
      to: '2026-01-02T00:00:00+01:00',
      limit: 5,
      cursor: 'c',
    });
    for (const action of AUDIT_ACTIONS) expect(parse({ action }).success, action).toBe(true);
  });

  it('refuses other actions, empty or long actors, unknown parameters and an empty window', () => {
    expect(fields({ action: 'auth.impersonated' })).toEqual(['action']);
    expect(fields({ actor: '' })).toEqual(['actor']);
    expect(fields({ actor: 'x'.repeat(65) })).toEqual(['actor']);
    expect(fields({ workspaceId: 'ws_1' })).toEqual(['']);
    expect(fields({ from: '2026-01-02T00:00:00Z', to: '2026-01-02T00:00:00Z' })).toEqual(['to']);
    expect(fields({ from: '2026-01-02T00:00:00Z', to: '2026-01-02T00:00:00.001Z' })).toEqual([]);
    expect(fields({ from: '2026-01-02T00:00:00Z' })).toEqual([]);
    expect(fields({ to: '2026-01-02T00:00:00Z' })).toEqual([]);
  });
});

describe('idTimePrefix', () => {
  it('is the id prefix and ten characters of time: every id made at or after that ms sorts after it', () => {
    expect(idTimePrefix('aud', 0)).toBe('aud_0000000000');
    expect(idTimePrefix('aud', 31)).toBe('aud_000000000z');
    expect(idTimePrefix('aud', 32)).toBe('aud_0000000010');
    expect(idTimePrefix('aud', -5)).toBe('aud_0000000000');
    const t = Date.parse('2026-03-04T05:06:07.089Z');
    expect(idTimePrefix('aud', t) < idTimePrefix('aud', t + 1)).toBe(true);
  });
});
