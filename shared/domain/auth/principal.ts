import type { Scope } from '../api-keys/scopes';
import type { Role } from './types';

/** Who is calling, resolved from the bearer credential. The workspace id always comes from here. */
export type Principal =
  | { kind: 'session'; workspaceId: string; userId: string; role: Role; tokenHash: string; expiresAt: number }
  | { kind: 'apiKey'; workspaceId: string; keyId: string; scopes: Scope[] };

export type SessionPrincipal = Extract<Principal, { kind: 'session' }>;
