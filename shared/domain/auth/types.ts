import type { Role } from '../../records/accounts';

export const isAdminRole = (role: Role): boolean => role === 'owner' || role === 'admin';
