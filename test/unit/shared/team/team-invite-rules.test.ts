import { describe, expect, it } from 'vitest';
import { mayStillInvite, rolesThatMayInvite } from '../../../../shared/team/rules';

describe('who may (still) invite as a role', () => {
  it('an owner invites anyone, an admin anyone but an owner, a member nobody', () => {
    expect(rolesThatMayInvite('owner')).toEqual(['owner']);
    expect(rolesThatMayInvite('admin')).toEqual(['owner', 'admin']);
    expect(rolesThatMayInvite('member')).toEqual(['owner', 'admin']);
  });

  it("an invitation outlives its inviter's change only while the new role could still send it", () => {
    expect(mayStillInvite(undefined, 'member')).toBe(false);
    expect(mayStillInvite('member', 'member')).toBe(false);
    expect(mayStillInvite('admin', 'member')).toBe(true);
    expect(mayStillInvite('admin', 'admin')).toBe(true);
    expect(mayStillInvite('admin', 'owner')).toBe(false);
    expect(mayStillInvite('owner', 'owner')).toBe(true);
    expect(mayStillInvite('owner', 'member')).toBe(true);
  });
});
