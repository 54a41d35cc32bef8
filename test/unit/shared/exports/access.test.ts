import { describe, expect, it } from 'vitest';
import { assertMayExport } from '../../../../shared/exports/access';
import type { Role } from '../../../../shared/platform/contract/roles';
import type { AppError } from '../../../../shared/platform/errors';

const refusal = (role: Role, job: Parameters<typeof assertMayExport>[1]) => {
  try {
    assertMayExport(role, job);
  } catch (error) {
    return { status: (error as AppError).status, details: (error as AppError).details };
  }
  return 'ok';
};

describe('assertMayExport (what an export holds, against the role)', () => {
  it('lets an analyst export orders and the ledger, not the members or the workspace archive', () => {
    expect(refusal('analyst', { kind: 'operational', dataset: 'orders' })).toBe('ok');
    expect(refusal('analyst', { kind: 'operational', dataset: 'ledger' })).toBe('ok');
    expect(refusal('analyst', { kind: 'operational', dataset: 'members' })).toEqual({
      status: 403,
      details: [{ in: 'header', field: 'authorization', message: 'missing permission members:read' }],
    });
    expect(refusal('analyst', { kind: 'archive', dataset: null })).toEqual({
      status: 403,
      details: [{ in: 'header', field: 'authorization', message: 'missing permission exports:workspace' }],
    });
  });

  it('lets an owner or admin export anything, a support agent the members only as far as this rule goes', () => {
    for (const role of ['owner', 'admin'] as const) {
      expect(refusal(role, { kind: 'archive', dataset: null })).toBe('ok');
      expect(refusal(role, { kind: 'operational', dataset: 'members' })).toBe('ok');
    }
    expect(refusal('support', { kind: 'operational', dataset: 'members' })).toBe('ok');
    expect(refusal('support', { kind: 'archive', dataset: null })).not.toBe('ok');
  });
});
