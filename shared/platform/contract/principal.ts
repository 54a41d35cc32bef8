import type { Scope } from './scopes';
import type { Role } from './roles';

/** Who is calling, resolved from the bearer credential. The workspace id always comes from here. */
export type Principal =
  | {
      kind: 'session';
      workspaceId: string;
      userId: string;
      role: Role;
      tokenHash: string;
      expiresAt: number;
      /** A browser session (the console's cookie): its CSRF token and when it ends if left idle (epoch seconds). */
      browser?: { csrfToken: string; idleExpiresAt: number };
      /** The workspace requires two-factor sign-in and the user has none: only enrolment routes are open. */
      mustEnrolMfa?: true;
    }
  | { kind: 'apiKey'; workspaceId: string; keyId: string; scopes: Scope[] };

export type SessionPrincipal = Extract<Principal, { kind: 'session' }>;
