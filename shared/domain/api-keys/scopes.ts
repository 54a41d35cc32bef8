/** The one canonical list of API-key scopes. Routes, presets and the OpenAPI document all read it. */
export const SCOPES = [
  'stores:read',
  'stores:write',
  'members:read',
  'members:write',
  'orders:read',
  'orders:write',
  'catalog:read',
  'catalog:write',
  'coupons:read',
  'coupons:write',
  'tracking:read',
  'tracking:write',
  'ambassador:read',
  'ambassador:write',
  'objects:read',
  'objects:write',
  'webhooks:manage',
  'api_keys:manage',
  'privacy:read',
  // Data-subject erasure
  'privacy:write',
  'consent:read',
] as const;

export type Scope = (typeof SCOPES)[number];

export const PRESETS = {
  'read-only': SCOPES.filter((s) => s.endsWith(':read')),
  write: SCOPES.filter((s) => s.endsWith(':read') || s.endsWith(':write')),
} as const satisfies Record<string, readonly Scope[]>;

export type Preset = keyof typeof PRESETS;

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}
