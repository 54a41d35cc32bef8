import { describe, expect, it } from 'vitest';
import { routes } from '../../../../../shared/http/declarations';
import {
  assertMayGrantScopes,
  assertWithinPointsCeiling,
  missingPermission,
  PERMISSION_NAMES,
  PERMISSIONS,
  permissionsOf,
  POINTS_ADJUSTMENT_CEILING,
  ROLE_PERMISSIONS,
  roleMay,
  rolesWith,
  SCOPE_NEEDS,
} from '../../../../../shared/platform/contract/permissions';
import { ROLES } from '../../../../../shared/platform/contract/roles';
import type { AppError } from '../../../../../shared/platform/errors';

/** Declared for the rewards area, whose routes attach them. */
// The member screen's redemptions and their void need rewards:read and rewards:redeem; the catalog's screen is still to come.
const AWAITING_ROUTES = ['rewards:manage'];

describe('the built-in roles', () => {
  it('lists the roles in their order', () => {
    expect(ROLES).toEqual(['owner', 'admin', 'marketer', 'support', 'analyst', 'developer', 'member']);
  });

  it('gives owner and admin every permission and member none', () => {
    expect(permissionsOf('owner')).toEqual(PERMISSION_NAMES);
    expect(permissionsOf('admin')).toEqual(PERMISSION_NAMES);
    expect(permissionsOf('member')).toEqual([]);
  });

  it('gives each job role exactly its job, in the declared order', () => {
    expect(permissionsOf('marketer')).toEqual([
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
    ]);
    expect(permissionsOf('support')).toEqual([
      'overview:read',
      'members:read',
      'members:tag',
      'members:adjust_points',
      'program:read',
      'campaigns:read',
      'rewards:read',
      'rewards:redeem',
    ]);
    expect(permissionsOf('analyst')).toEqual(['overview:read', 'reports:read', 'exports:run', 'audit:read', 'program:read', 'campaigns:read', 'rewards:read']);
    expect(permissionsOf('developer')).toEqual([
      'overview:read',
      'program:read',
      'clock:advance',
      'campaigns:read',
      'objects:read',
      'objects:manage',
      'webhooks:manage',
      'api_keys:manage',
      'settings:cors',
    ]);
  });

  it('keeps the job roles away from keys, the team, erasure and the whole-workspace export', () => {
    for (const role of ['marketer', 'support', 'analyst'] as const) expect(roleMay(role, 'api_keys:manage'), role).toBe(false);
    for (const role of ['marketer', 'support', 'analyst', 'developer'] as const) {
      for (const p of ['team:manage', 'members:erase', 'exports:workspace', 'program:manage'] as const) expect(roleMay(role, p), `${role} ${p}`).toBe(false);
    }
    for (const role of ['marketer', 'analyst', 'developer'] as const) expect(roleMay(role, 'members:adjust_points'), role).toBe(false);
    for (const role of ['marketer', 'analyst', 'developer'] as const) expect(roleMay(role, 'members:read'), role).toBe(false);
  });

  it('names the roles that hold a permission, in the roles order', () => {
    expect(rolesWith('team:manage')).toEqual(['owner', 'admin']);
    expect(rolesWith('members:adjust_points')).toEqual(['owner', 'admin', 'support']);
    expect(rolesWith('overview:read')).toEqual(['owner', 'admin', 'marketer', 'support', 'analyst', 'developer']);
    expect(rolesWith('exports:run')).toEqual(['owner', 'admin', 'analyst']);
  });

  it('describes every permission and lists it once', () => {
    expect(new Set(PERMISSION_NAMES).size).toBe(PERMISSION_NAMES.length);
    for (const p of PERMISSION_NAMES) expect(PERMISSIONS[p].length, p).toBeGreaterThan(5);
    for (const role of ROLES) for (const p of ROLE_PERMISSIONS[role]) expect(PERMISSION_NAMES, `${role} ${p}`).toContain(p);
  });
});

describe('the route table and the permissions', () => {
  const consoleRoutes = routes.filter((r) => r.auth.includes('adminSession'));

  it('declares one permission on every console-session route, and none elsewhere', () => {
    expect(consoleRoutes.length).toBeGreaterThan(40);
    for (const r of consoleRoutes) expect(PERMISSION_NAMES, r.operationId).toContain(r.permission);
    for (const r of routes.filter((x) => !x.auth.includes('adminSession'))) expect(r.permission, r.operationId).toBeUndefined();
  });

  it('needs every permission on some route, but those declared for areas still to come', () => {
    const used = new Set(consoleRoutes.map((r) => r.permission));
    expect(PERMISSION_NAMES.filter((p) => !used.has(p))).toEqual(AWAITING_ROUTES);
  });

  it('asks the permission of the job on the routes that matter', () => {
    const permissionOf = (id: string) => routes.find((r) => r.operationId === id)?.permission;
    expect(permissionOf('putProgram')).toBe('program:manage');
    expect(permissionOf('adjustMemberPoints')).toBe('members:adjust_points');
    expect(permissionOf('reverseLedgerEntryInConsole')).toBe('members:adjust_points');
    expect(permissionOf('eraseMemberInConsole')).toBe('members:erase');
    expect(permissionOf('startWorkspaceExport')).toBe('exports:workspace');
    expect(permissionOf('createApiKey')).toBe('api_keys:manage');
    expect(permissionOf('changeTeamMemberRole')).toBe('team:manage');
    expect(permissionOf('adminCreateWebhookEndpoint')).toBe('webhooks:manage');
    expect(permissionOf('listMemberRedemptionsInConsole')).toBe('rewards:read');
    expect(permissionOf('voidRedemptionInConsole')).toBe('rewards:redeem');
  });
});

describe('refusals', () => {
  const refusal = (f: () => void) => {
    try {
      f();
    } catch (error) {
      const e = error as AppError;
      return { status: e.status, code: e.code, message: e.message, details: e.details };
    }
    return undefined;
  };

  it('names the role, the missing permission and what it covers', () => {
    expect(
      refusal(() => {
        throw missingPermission('support', 'program:manage');
      }),
    ).toEqual({
      status: 403,
      code: 'FORBIDDEN',
      message: "Your role (support) lacks the permission program:manage: change the program's rules",
      details: [{ in: 'header', field: 'authorization', message: 'missing permission program:manage' }],
    });
  });

  it('holds support to its points ceiling, either sign, and no other role to any', () => {
    expect(POINTS_ADJUSTMENT_CEILING).toEqual({ support: 1000 });
    expect(refusal(() => assertWithinPointsCeiling('support', 1000, { in: 'body', field: 'amount' }))).toBeUndefined();
    expect(refusal(() => assertWithinPointsCeiling('support', -1000, { in: 'path', field: 'entryId' }))).toBeUndefined();
    expect(refusal(() => assertWithinPointsCeiling('support', 1001, { in: 'body', field: 'amount' }))).toEqual({
      status: 403,
      code: 'FORBIDDEN',
      message: 'Your role (support) may adjust at most 1000 points at once, not 1001: ask an owner or admin',
      details: [{ in: 'body', field: 'amount', message: 'above the support ceiling of 1000 points' }],
    });
    expect(refusal(() => assertWithinPointsCeiling('support', -1001, { in: 'path', field: 'entryId' }))?.details).toEqual([
      { in: 'path', field: 'entryId', message: 'above the support ceiling of 1000 points' },
    ]);
    expect(refusal(() => assertWithinPointsCeiling('admin', 1e9, { in: 'body', field: 'amount' }))).toBeUndefined();
    expect(refusal(() => assertWithinPointsCeiling('owner', -1e9, { in: 'body', field: 'amount' }))).toBeUndefined();
  });

  it('lets a session grant the privacy scopes only with the permissions they reach into', () => {
    expect(SCOPE_NEEDS).toEqual({ 'privacy:read': 'members:read', 'privacy:write': 'members:erase' });
    expect(refusal(() => assertMayGrantScopes('developer', ['members:read', 'members:write', 'orders:write', 'api_keys:manage']))).toBeUndefined();
    expect(refusal(() => assertMayGrantScopes('admin', ['privacy:read', 'privacy:write']))).toBeUndefined();
    expect(refusal(() => assertMayGrantScopes('developer', ['members:read', 'privacy:write', 'privacy:read']))).toEqual({
      status: 403,
      code: 'FORBIDDEN',
      message: 'Your role (developer) cannot grant these scopes: privacy:write (needs members:erase), privacy:read (needs members:read)',
      details: [{ in: 'body', field: 'scopes', message: 'beyond the role: privacy:write (needs members:erase), privacy:read (needs members:read)' }],
    });
    expect(refusal(() => assertMayGrantScopes('support', ['privacy:read']))).toBeUndefined();
    expect(refusal(() => assertMayGrantScopes('support', ['privacy:write']))?.message).toBe(
      'Your role (support) cannot grant these scopes: privacy:write (needs members:erase)',
    );
  });
});
