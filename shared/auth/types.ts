import type { Role } from './entities';

export const isAdminRole = (role: Role): boolean => role === 'owner' || role === 'admin';
