/**
 * Workspaces, users and what proves who a user is, as the table stores them. These are plain
 * declarations, below the domain, so the data layer can name them without importing the domain;
 * the auth area builds and checks them.
 */
import * as z from 'zod';
import { defineEntity } from '../platform/data/entity';

export const ROLES = ['owner', 'admin', 'member'] as const;
export type Role = (typeof ROLES)[number];

const workspaceFields = {
  id: z.string(),
  name: z.string(),
  createdAt: z.string(),
  /** A sandbox workspace: its API keys start `fl_test_` and an admin can move its program clock. */
  sandbox: z.boolean(),
};
export type Workspace = z.infer<z.ZodObject<typeof workspaceFields>>;

/** A workspace as stored: a sandbox also keeps how far its clock was moved ahead of real time. */
export const workspaceEntity = defineEntity({
  name: 'workspace',
  schema: z.object({
    ...workspaceFields,
    /** ms the sandbox clock runs ahead of real time (absent: 0; never on a live workspace). */
    clockOffsetMs: z.number().optional(),
  }),
  keys: (w) => ({ workspaceId: w.id }),
});
export type WorkspaceRecord = z.infer<typeof workspaceEntity.schema>;

const userFields = {
  id: z.string(),
  workspaceId: z.string(),
  email: z.string(),
  name: z.string().nullable(),
  role: z.enum(ROLES),
  createdAt: z.string(),
  updatedAt: z.string(),
};
export type User = z.infer<z.ZodObject<typeof userFields>>;

/** A user as stored: with the secret parts that never leave the domain. */
export const userEntity = defineEntity({
  name: 'user',
  schema: z.object({
    ...userFields,
    passwordHash: z.string(),
    /** Sessions of an older generation are revoked (bumped by password change and reset). */
    sessionGeneration: z.number(),
    /**
     * Bumped by every change of what proves the account (password reset, password change, e-mail
     * change); a reset token is valid only for the number it was issued under. Absent means 0.
     */
    credentialsVersion: z.number().optional(),
    version: z.number(),
  }),
  keys: (u) => ({ workspaceId: u.workspaceId, userId: u.id }),
});
export type UserRecord = z.infer<typeof userEntity.schema>;

const browserSessionSchema = z.object({
  /** Sent back in a header by every cookie-authenticated write (the cookie alone proves nothing). */
  csrfToken: z.string(),
  /** Epoch seconds of the last request seen (at the resolution of `config.browserSession.seenResolutionSeconds`). */
  lastSeenAt: z.number(),
});
export type BrowserSessionState = z.infer<typeof browserSessionSchema>;

export const sessionEntity = defineEntity({
  name: 'session',
  schema: z.object({
    tokenHash: z.string(),
    workspaceId: z.string(),
    userId: z.string(),
    generation: z.number(),
    createdAt: z.string(),
    /** Epoch seconds; also the table's TTL attribute. */
    expiresAt: z.number(),
    /** A browser session (the console's cookie): what only it has. */
    browser: browserSessionSchema.optional(),
  }),
  keys: (s) => ({ tokenHash: s.tokenHash }),
});
export type SessionRecord = z.infer<typeof sessionEntity.schema>;

export const resetTokenEntity = defineEntity({
  name: 'resetToken',
  schema: z.object({
    tokenHash: z.string(),
    workspaceId: z.string(),
    userId: z.string(),
    expiresAt: z.number(),
    usedAt: z.string().optional(),
    /** The user's `credentialsVersion` when the token was mailed (absent: 0). */
    credentialsVersion: z.number().optional(),
  }),
  keys: (t) => ({ tokenHash: t.tokenHash }),
});
export type ResetTokenRecord = z.infer<typeof resetTokenEntity.schema>;
