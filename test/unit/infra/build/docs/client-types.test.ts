import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CONSOLE_CONSTANTS_FILE, generateClientTypes, generateConsoleConstants, SCHEMA_FILE } from '../../../../../infra/build/docs/client-types';
import { CONDITION_FIELDS, DAY_NAMES, OPS_BY_KIND } from '../../../../../shared/campaigns/evaluation';
import { SCOPES } from '../../../../../shared/platform/contract/scopes';
import { DEFAULT_INVITED_ROLE, ROLES } from '../../../../../shared/platform/contract/roles';
import { SCOPE_NEEDS } from '../../../../../shared/platform/contract/permissions';
import { AUDIT_ACTIONS, AUDIT_TARGET_TYPES } from '../../../../../shared/audit/entities';
import { FIELD_TYPES } from '../../../../../shared/objects/entities';
import { config } from '../../../../../shared/platform/config/static';
import { routeKey, routes } from '../../../../../shared/http/declarations';

describe('the typed client (shared/client)', () => {
  // The types are committed so the CLI and any program type-check without a generator run; they
  // must be what openapi-typescript makes of the document the contracts build today.
  it('has the types openapi-typescript generates from the current OpenAPI document (else: npm run client:types)', () => {
    expect(readFileSync(SCHEMA_FILE, 'utf8') === generateClientTypes(), `${SCHEMA_FILE} is stale: run npm run client:types`).toBe(true);
  }, 180_000);
});

describe("the console's lists (shared/console/platform.ts)", () => {
  // Generated with the types: a scope, audit action, field type or condition added to the platform
  // reaches the console's forms only through this file, so it must be current.
  it('are what npm run client:types generates from the declarations today', () => {
    expect(readFileSync(CONSOLE_CONSTANTS_FILE, 'utf8') === generateConsoleConstants(), `${CONSOLE_CONSTANTS_FILE} is stale: run npm run client:types`).toBe(
      true,
    );
  });

  it('hold exactly the lists the platform declares', async () => {
    const { PLATFORM } = await import('../../../../../shared/console/platform');
    expect(PLATFORM).toEqual({
      roles: ROLES,
      invitedRole: DEFAULT_INVITED_ROLE,
      scopes: SCOPES,
      auditActions: AUDIT_ACTIONS,
      auditTargetTypes: AUDIT_TARGET_TYPES,
      fieldTypes: FIELD_TYPES,
      conditionFields: CONDITION_FIELDS,
      opsByKind: OPS_BY_KIND,
      weekdays: DAY_NAMES,
      minPasswordLength: config.auth.minPasswordLength,
    });
    expect(PLATFORM.opsByKind.list).toEqual(['contains', 'in']);
  });

  it("name every console route's permission, and only those", async () => {
    const { ROUTE_PERMISSIONS } = await import('../../../../../shared/console/platform');
    const consoleRoutes = routes.filter((r) => r.auth.includes('adminSession'));
    expect(Object.keys(ROUTE_PERMISSIONS)).toHaveLength(consoleRoutes.length);
    for (const r of consoleRoutes) expect(ROUTE_PERMISSIONS[routeKey(r) as keyof typeof ROUTE_PERMISSIONS], routeKey(r)).toBe(r.permission);
    expect(ROUTE_PERMISSIONS['PUT /api/flash/program']).toBe('program:manage');
  });

  it('name the scopes a session grants only with a permission', async () => {
    const { SCOPE_NEEDS: needs } = await import('../../../../../shared/console/platform');
    expect(needs).toEqual(SCOPE_NEEDS);
  });
});
