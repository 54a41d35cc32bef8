import { describe, expect, it } from 'vitest';
import { withConsoleTwins } from '../../../../../shared/platform/contract/admin-twins';

describe('withConsoleTwins', () => {
  const operations = {
    listThings: { method: 'GET', path: '/api/v2/things', summary: 'List', responses: { 200: null } },
    useThing: { method: 'POST', path: '/api/v2/things/{id}/use', summary: 'Use', responses: { 200: null } },
  } as const;

  it('makes each operation an API-key endpoint with its scope, and a console twin only where a permission is given', () => {
    const endpoints = withConsoleTwins(operations, {
      listThings: { scope: 'rewards:read', permission: 'rewards:read' },
      useThing: { scope: 'rewards:redeem' },
    });
    expect(endpoints).toEqual({
      listThings: { ...operations.listThings, auth: ['apiKey'], scope: 'rewards:read' },
      adminListThings: { ...operations.listThings, path: '/api/flash/things', auth: ['adminSession'], permission: 'rewards:read' },
      useThing: { ...operations.useThing, auth: ['apiKey'], scope: 'rewards:redeem' },
    });
  });
});
