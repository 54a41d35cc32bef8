import { describe, expect, it } from 'vitest';
import { isScope, missingScopes, PRESETS } from '../../../../shared/api-keys/scopes';
import { SCOPES } from '../../../../shared/platform/contract/scopes';

describe('API-key scopes', () => {
  it('isScope knows exactly the listed scopes', () => {
    for (const s of SCOPES) expect(isScope(s), s).toBe(true);
    for (const s of ['members:delete', 'MEMBERS:READ', 'members', '', 'admin']) expect(isScope(s), s).toBe(false);
  });

  it('presets: read-only is every :read scope; write adds every :write scope, never a manage or privacy scope', () => {
    expect(PRESETS['read-only']).toEqual(SCOPES.filter((s) => s.endsWith(':read') && s !== 'privacy:read'));
    expect(PRESETS['read-only']).toContain('consent:read');
    expect(PRESETS['read-only']).not.toContain('privacy:read');
    expect(PRESETS.write).toEqual(SCOPES.filter((s) => !s.endsWith(':manage') && !s.startsWith('privacy:')));
    expect(PRESETS.write).not.toContain('privacy:write');
    expect(PRESETS.write).not.toContain('privacy:read');
    expect(PRESETS.write).not.toContain('webhooks:manage');
    expect(PRESETS.write).not.toContain('api_keys:manage');
  });

  it('missingScopes: what the holder lacks of the wanted scopes, in canonical order, nothing for a subset', () => {
    expect(missingScopes(['members:read', 'api_keys:manage'], ['members:read'])).toEqual([]);
    expect(missingScopes(['members:read'], [])).toEqual([]);
    expect(missingScopes([], [])).toEqual([]);
    expect(missingScopes(['members:read'], ['privacy:write', 'members:write', 'members:read'])).toEqual(['members:write', 'privacy:write']);
    expect(missingScopes([], ['orders:read'])).toEqual(['orders:read']);
    expect(missingScopes(SCOPES, SCOPES)).toEqual([]);
    expect(missingScopes(['orders:read'], SCOPES)).toEqual(SCOPES.filter((s) => s !== 'orders:read'));
  });
});
