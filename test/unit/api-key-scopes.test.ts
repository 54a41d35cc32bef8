import { describe, expect, it } from 'vitest';
import { isScope, PRESETS, SCOPES } from '../../shared/domain/api-keys/scopes';

describe('API-key scopes', () => {
  it('isScope knows exactly the listed scopes', () => {
    for (const s of SCOPES) expect(isScope(s), s).toBe(true);
    for (const s of ['members:delete', 'MEMBERS:READ', 'members', '', 'admin']) expect(isScope(s), s).toBe(false);
  });

  it('presets: read-only is every :read scope; write adds every :write scope, never a manage scope', () => {
    expect(PRESETS['read-only']).toEqual(SCOPES.filter((s) => s.endsWith(':read')));
    expect(PRESETS['read-only']).toContain('privacy:read');
    expect(PRESETS.write).toEqual(SCOPES.filter((s) => !s.endsWith(':manage')));
    expect(PRESETS.write).not.toContain('webhooks:manage');
    expect(PRESETS.write).not.toContain('api_keys:manage');
  });
});
