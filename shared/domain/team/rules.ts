import { AppError } from '../../errors';
import type { Role } from '../../records/accounts';
import type { SessionPrincipal } from '../auth/principal';

/**
 * Owners and admins manage the team (the route's `adminSession` already checked that); `owner`
 * is an owner's to give and to take: an admin can neither grant it nor change or remove an owner.
 */
export function assertMayGrant(principal: SessionPrincipal, role: Role, field: string): void {
  if (role !== 'owner' || principal.role === 'owner') return;
  throw new AppError('FORBIDDEN', 'Only an owner may grant or remove the owner role', [
    { in: field === 'id' ? 'path' : 'body', field, message: 'needs an owner' },
  ]);
}
