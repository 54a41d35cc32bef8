import type { Role } from './accounts';

export const isAdminRole = (role: Role): boolean => role === 'owner' || role === 'admin';
