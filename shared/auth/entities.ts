/**
 * Workspaces, users and what proves who a user is, as the table stores them. These are plain
 * declarations, below the domain, so the data layer can name them without importing the domain;
 * the auth area builds and checks them.
 */

export const ROLES = ['owner', 'admin', 'member'] as const;
export type Role = (typeof ROLES)[number];

export interface Workspace {
  id: string;
  name: string;
  createdAt: string;
  /** A sandbox workspace: its API keys start `fl_test_` and an admin can move its program clock. */
  sandbox: boolean;
}

/** A workspace as stored: a sandbox also keeps how far its clock was moved ahead of real time. */
export interface WorkspaceRecord extends Workspace {
  /** ms the sandbox clock runs ahead of real time (absent: 0; never on a live workspace). */
  clockOffsetMs?: number;
}

export interface User {
  id: string;
  workspaceId: string;
  email: string;
  name: string | null;
  role: Role;
  createdAt: string;
  updatedAt: string;
}

/** A user as stored: with the secret parts that never leave the domain. */
export interface UserRecord extends User {
  passwordHash: string;
  /** Sessions of an older generation are revoked (bumped by password change and reset). */
  sessionGeneration: number;
  /**
   * Bumped by every change of what proves the account (password reset, password change, e-mail
   * change); a reset token is valid only for the number it was issued under. Absent means 0.
   */
  credentialsVersion?: number;
  version: number;
}

export interface SessionRecord {
  tokenHash: string;
  workspaceId: string;
  userId: string;
  generation: number;
  createdAt: string;
  /** Epoch seconds; also the table's TTL attribute. */
  expiresAt: number;
  /** A browser session (the console's cookie): what only it has. */
  browser?: BrowserSessionState;
}

export interface BrowserSessionState {
  /** Sent back in a header by every cookie-authenticated write (the cookie alone proves nothing). */
  csrfToken: string;
  /** Epoch seconds of the last request seen (at the resolution of `config.browserSession.seenResolutionSeconds`). */
  lastSeenAt: number;
}

export interface ResetTokenRecord {
  tokenHash: string;
  workspaceId: string;
  userId: string;
  expiresAt: number;
  usedAt?: string;
  /** The user's `credentialsVersion` when the token was mailed (absent: 0). */
  credentialsVersion?: number;
}
