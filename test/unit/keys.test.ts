import { describe, expect, it } from 'vitest';
import { ENTITIES, indexKeyAttributes, indexSortKey, keyOf, skPrefix } from '../../shared/data/keys';

describe('key layouts', () => {
  it('every tenant entity is keyed by the workspace first', () => {
    for (const [name, layout] of Object.entries(ENTITIES)) {
      if ('global' in layout || 'local' in layout) continue;
      expect(layout.pk, name).toMatch(/^WS#\{workspaceId\}/);
      for (const gsi of ['gsi1', 'gsi2', 'gsi3'] as const) {
        const t = (layout as Partial<Record<'gsi1' | 'gsi2' | 'gsi3', { pk: string }>>)[gsi];
        if (t) expect(t.pk, `${name}.${gsi}`).toMatch(/^WS#\{workspaceId\}#/);
      }
    }
  });

  it('local-runtime entities are only the queue driver and stream poller state', () => {
    const local = Object.entries(ENTITIES).filter(([, l]) => 'local' in l).map(([n]) => n).sort();
    expect(local).toEqual(['localQueueMessage', 'localStreamCheckpoint']);
  });

  it('the only global entities are credential lookups, keyed by a hash or the login e-mail', () => {
    const global = Object.entries(ENTITIES).filter(([, l]) => 'global' in l);
    expect(global.map(([n]) => n).sort()).toEqual(['apiKeyHash', 'loginEmail', 'loginThrottle', 'resetToken', 'session']);
    for (const [, layout] of global) expect(layout.pk).toMatch(/\{(keyHash|tokenHash|email|emailHash)\}/);
  });

  it('fills templates and refuses a missing part', () => {
    expect(keyOf('user', { workspaceId: 'ws_1', userId: 'usr_2' })).toEqual({ pk: 'WS#ws_1', sk: 'USER#usr_2' });
    expect(() => keyOf('user', { workspaceId: '', userId: 'usr_2' })).toThrow(/workspaceId/);
    expect(skPrefix('apiKey')).toBe('APIKEY#');
    expect(skPrefix('workspace')).toBe('WORKSPACE');
  });

  it('fills one GSI sort key, and lists the GSI key attributes an entity carries', () => {
    expect(indexSortKey('objectRecord', 'gsi2', { updatedAt: '2026-01-02T03:04:05.000Z', recordId: 'rec_1' })).toEqual({
      attribute: 'gsi2sk',
      value: 'U#2026-01-02T03:04:05.000Z#rec_1',
    });
    expect(indexSortKey('objectRecord', 'gsi3', { titleKey: '2#', recordId: 'rec_1' })).toEqual({ attribute: 'gsi3sk', value: 'T#2##rec_1' });
    expect(() => indexSortKey('objectRecord', 'gsi3', { recordId: 'rec_1' })).toThrow(/titleKey/);
    expect(() => indexSortKey('member', 'gsi2', { memberId: 'mbr_1' })).toThrow(/no gsi2/);
    expect(indexKeyAttributes('objectRecord')).toEqual(['gsi1pk', 'gsi1sk', 'gsi2pk', 'gsi2sk', 'gsi3pk', 'gsi3sk']);
    expect(indexKeyAttributes('member')).toEqual(['gsi1pk', 'gsi1sk']);
    expect(indexKeyAttributes('user')).toEqual([]);
  });
});
