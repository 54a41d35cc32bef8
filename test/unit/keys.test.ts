import { describe, expect, it } from 'vitest';
import { ENTITIES, keyOf, skPrefix } from '../../shared/data/keys';

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
});
