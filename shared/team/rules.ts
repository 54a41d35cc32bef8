import { AppError } from '../platform/errors';
import { ROLES, type Role } from '../platform/contract/roles';
import { roleMay } from '../platform/contract/permissions';
import type { SessionPrincipal } from '../platform/contract/principal';

/**
 * The roles holding `team:manage` (owners and admins) manage the team (the route's permission
 * already checked that); `owner`
 * is an owner's to give and to take: an admin can neither grant it nor change or remove an owner.
 */
export function assertMayGrant(principal: SessionPrincipal, role: Role, field: string): void {
  if (role !== 'owner' || principal.role === 'owner') return;
  throw new AppError('FORBIDDEN', 'Only an owner may grant or remove the owner role', [
    { in: field === 'id' ? 'path' : 'body', field, message: 'needs an owner' },
  ]);
}

/**
 * The roles whose holder may invite someone as `role`: those that manage the team, an owner anyone,
 * an admin anyone but an owner (the rule above). An invitation stands only while its inviter still
 * holds one of them.
 */
export function rolesThatMayInvite(role: Role): Role[] {
  return ROLES.filter((r) => roleMay(r, 'team:manage') && (role !== 'owner' || r === 'owner'));
}

/** Whether an inviter now holding `inviterRole` (`undefined`: removed from the team) may still invite as `role`. */
export const mayStillInvite = (inviterRole: Role | undefined, role: Role): boolean =>
  inviterRole !== undefined && rolesThatMayInvite(role).includes(inviterRole);
