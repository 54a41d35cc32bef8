import { AppError } from '../errors';
import { ROLES, type Role } from './roles';
import type { Scope } from './scopes';

/**
 * What a console session may do: every route a signed-in user calls (an `adminSession` route)
 * declares the one permission it needs, as an API-key route declares its scope, and a role is a
 * set of permissions. The route table, the HTTP chain, the console's navigation, the OpenAPI
 * document and docs/team.md all read these declarations.
 */
export const PERMISSIONS = {
  'overview:read': "The overview: the workspace's running totals",
  'reports:read': 'Reports: points liability and activity',
  'exports:run': "Exports of orders and the ledger (CSV, JSONL): start, schedule, download; the members' export needs members:read too",
  'exports:workspace': "The whole workspace's archive (members pseudonymous, orders, campaigns)",
  'imports:run': 'Import jobs (members, balances, tiers, points, tags): create, preview, apply, undo',
  'audit:read': 'The audit trail',
  'members:read': 'Find members; see their profile, orders, points history, coupons and balance explanations',
  'members:tag': "Add and remove a member's tags",
  'members:adjust_points': "Adjust a member's points and reverse ledger entries, within the role's ceiling",
  'members:erase': "Erase a member's personal data (cannot be undone)",
  'program:read': "The program's rules and the sandbox clock",
  'program:manage': "Change the program's rules",
  'clock:advance': "Advance a sandbox's clock",
  'campaigns:read': 'Campaigns',
  'campaigns:manage': 'Create, change and delete campaigns',
  'campaigns:simulate': 'Simulate campaigns on a sample order',
  'rewards:read': 'The rewards catalog and redemptions',
  'rewards:manage': 'Create and change rewards',
  'rewards:redeem': 'Redeem a reward for a member and void a redemption',
  'wallet:branding': "The wallet cards' branding",
  'objects:read': 'Object types and their records',
  'objects:manage': 'Define object types',
  'webhooks:manage': 'Webhook endpoints, deliveries, test events and the export-signing secret',
  'api_keys:manage': 'Create and revoke API keys',
  'settings:cors': "The member portal's allowed origins (CORS)",
  'team:manage': 'Invite team members, change their roles, remove them',
} as const satisfies Record<string, string>;

export type Permission = keyof typeof PERMISSIONS;

/** Every permission, in the declared order. */
export const PERMISSION_NAMES = Object.keys(PERMISSIONS) as Permission[];

const EVERYTHING: readonly Permission[] = PERMISSION_NAMES;

/** Each built-in role's permissions: the one place a role's job is written down. */
export const ROLE_PERMISSIONS: Readonly<Record<Role, readonly Permission[]>> = {
  owner: EVERYTHING,
  admin: EVERYTHING,
  marketer: [
    'overview:read',
    'reports:read',
    'program:read',
    'clock:advance',
    'campaigns:read',
    'campaigns:manage',
    'campaigns:simulate',
    'rewards:read',
    'rewards:manage',
    'wallet:branding',
  ],
  support: ['overview:read', 'members:read', 'members:tag', 'members:adjust_points', 'program:read', 'campaigns:read', 'rewards:read', 'rewards:redeem'],
  analyst: ['overview:read', 'reports:read', 'exports:run', 'audit:read', 'program:read', 'campaigns:read', 'rewards:read'],
  developer: [
    'overview:read',
    'program:read',
    'clock:advance',
    'campaigns:read',
    'objects:read',
    'objects:manage',
    'webhooks:manage',
    'api_keys:manage',
    'settings:cors',
  ],
  // The first releases' console-less role: kept with no permission (decision 0091).
  member: [],
};

/** What one role holds, in the declared order. */
export const permissionsOf = (role: Role): Permission[] => PERMISSION_NAMES.filter((p) => ROLE_PERMISSIONS[role].includes(p));

export const roleMay = (role: Role, permission: Permission): boolean => ROLE_PERMISSIONS[role].includes(permission);

/** The roles that hold a permission, in the roles' order. */
export const rolesWith = (permission: Permission): Role[] => ROLES.filter((r) => roleMay(r, permission));

/** The refusal of a session whose role lacks the route's permission (403, the permission named). */
export function missingPermission(role: Role, permission: Permission): AppError {
  return new AppError('FORBIDDEN', `Your role (${role}) lacks the permission ${permission}: ${PERMISSIONS[permission].toLowerCase()}`, [
    { in: 'header', field: 'authorization', message: `missing permission ${permission}` },
  ]);
}

/**
 * API-key scopes that reach further than managing keys: a session may put one on a key only when
 * its role holds the permission beside it (a developer mints integration keys, not keys that erase
 * members or hand out all of one member's data).
 */
export const SCOPE_NEEDS: Readonly<Partial<Record<Scope, Permission>>> = { 'privacy:read': 'members:read', 'privacy:write': 'members:erase' };

/** Refuses (403) a key for `scopes` that a session of `role` may not grant, naming each scope and the permission it needs. */
export function assertMayGrantScopes(role: Role, scopes: readonly Scope[]): void {
  const beyond = scopes.flatMap((s) => {
    const needs = SCOPE_NEEDS[s];
    return needs && !roleMay(role, needs) ? [`${s} (needs ${needs})`] : [];
  });
  if (beyond.length === 0) return;
  throw new AppError('FORBIDDEN', `Your role (${role}) cannot grant these scopes: ${beyond.join(', ')}`, [
    { in: 'body', field: 'scopes', message: `beyond the role: ${beyond.join(', ')}` },
  ]);
}

/**
 * The most points one manual adjustment or reversal may move, per role; a role not listed has no
 * ceiling. A larger change is for someone whose role has none.
 */
export const POINTS_ADJUSTMENT_CEILING: Readonly<Partial<Record<Role, number>>> = { support: 1000 };

/** Refuses (403) a manual change of `points` (either sign) above the role's ceiling; `at` names what asked for it. */
export function assertWithinPointsCeiling(role: Role, points: number, at: { in: 'body' | 'path'; field: string }): void {
  const ceiling = POINTS_ADJUSTMENT_CEILING[role];
  if (ceiling === undefined || Math.abs(points) <= ceiling) return;
  throw new AppError('FORBIDDEN', `Your role (${role}) may adjust at most ${ceiling} points at once, not ${Math.abs(points)}: ask an owner or admin`, [
    { ...at, message: `above the ${role} ceiling of ${ceiling} points` },
  ]);
}
