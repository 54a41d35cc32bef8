import { SCOPES, type Scope } from '../platform/contract/scopes';

/**
 * Scopes no preset carries: erasure is irreversible, and the data-subject export hands out all of a
 * member's personal data at once. A key gets them only when they are named one by one.
 */
export const NAMED_ONLY: readonly Scope[] = ['privacy:read', 'privacy:write'];

const inPresets = (s: Scope) => !NAMED_ONLY.includes(s);

export const PRESETS = {
  'read-only': SCOPES.filter((s) => s.endsWith(':read') && inPresets(s)),
  // Everything but running the account (`:manage`): a checkout's key redeems rewards as it issues coupons that cost points.
  write: SCOPES.filter((s) => !s.endsWith(':manage') && inPresets(s)),
} as const satisfies Record<string, readonly Scope[]>;

export type Preset = keyof typeof PRESETS;

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

/** The scopes of `wanted` that `held` lacks, in the canonical order (empty: `wanted` is a subset). */
export function missingScopes(held: readonly Scope[], wanted: readonly Scope[]): Scope[] {
  return SCOPES.filter((s) => wanted.includes(s) && !held.includes(s));
}
