/**
 * Workspaces, users and what proves who a user is, as the table stores them. These are plain
 * declarations, below the domain, so the data layer can name them without importing the domain;
 * the auth area builds and checks them.
 */
import * as z from 'zod';
import { defineEntity } from '../platform/data/entity';
import { ROLES } from '../platform/contract/roles';

const workspaceFields = () => ({
  id: z.string(),
  name: z.string(),
  createdAt: z.string(),
  /** A sandbox workspace: its API keys start `fl_test_` and an admin can move its program clock. */
  sandbox: z.boolean(),
});
export type Workspace = z.infer<z.ZodObject<ReturnType<typeof workspaceFields>>>;

/** A workspace as stored: a sandbox also keeps how far its clock was moved ahead of real time. */
export const workspaceRecordSchema = () =>
  z.object({
    ...workspaceFields(),
    /** ms the sandbox clock runs ahead of real time (absent: 0; never on a live workspace). */
    clockOffsetMs: z.number().optional(),
    /** Every user must sign in with a second factor (absent: false). */
    mfaRequired: z.boolean().optional(),
  });
export type WorkspaceRecord = z.infer<ReturnType<typeof workspaceRecordSchema>>;

export const workspaceEntity = /* @__PURE__ */ defineEntity({
  name: 'workspace',
  keys: (w: WorkspaceRecord) => ({ workspaceId: w.id }),
});

const userFields = () => ({
  id: z.string(),
  workspaceId: z.string(),
  email: z.string(),
  name: z.string().nullable(),
  role: z.enum(ROLES),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type User = z.infer<z.ZodObject<ReturnType<typeof userFields>>>;

const mfaSchema = () =>
  z.object({
    /** The base32 TOTP secret the user's authenticator app holds. */
    secret: z.string(),
    enabledAt: z.string(),
    /** The step of the last code accepted: that code and older ones are refused (no replay within a step). */
    lastStep: z.number(),
    /** The recovery codes not used yet, by hash (a map, so using one is one conditional REMOVE). */
    recovery: z.record(z.string(), z.literal(true)),
  });
export type MfaState = z.infer<ReturnType<typeof mfaSchema>>;

/** A user as stored: with the secret parts that never leave the domain. */
export const userRecordSchema = () =>
  z.object({
    ...userFields(),
    passwordHash: z.string(),
    /** Sessions of an older generation are revoked (bumped by password change and reset). */
    sessionGeneration: z.number(),
    /**
     * Bumped by every change of what proves the account (password reset, password change, e-mail
     * change); a reset token is valid only for the number it was issued under. Absent means 0.
     */
    credentialsVersion: z.number().optional(),
    version: z.number(),
    /** Two-factor sign-in, once confirmed: never answered, and only its own writes touch it (no `version` bump). */
    mfa: mfaSchema().optional(),
    /** A two-factor secret handed out and not yet confirmed with a code (a new enrolment replaces it). */
    mfaPending: z.object({ secret: z.string(), startedAt: z.string() }).optional(),
  });
export type UserRecord = z.infer<ReturnType<typeof userRecordSchema>>;

export const userEntity = /* @__PURE__ */ defineEntity({
  name: 'user',
  keys: (u: UserRecord) => ({ workspaceId: u.workspaceId, userId: u.id }),
});

const browserSessionSchema = () =>
  z.object({
    /** Sent back in a header by every cookie-authenticated write (the cookie alone proves nothing). */
    csrfToken: z.string(),
    /** Epoch seconds of the last request seen (at the resolution of `config.browserSession.seenResolutionSeconds`). */
    lastSeenAt: z.number(),
  });
export type BrowserSessionState = z.infer<ReturnType<typeof browserSessionSchema>>;

export const sessionRecordSchema = () =>
  z.object({
    tokenHash: z.string(),
    workspaceId: z.string(),
    userId: z.string(),
    generation: z.number(),
    createdAt: z.string(),
    /** Epoch seconds; also the table's TTL attribute. */
    expiresAt: z.number(),
    /** A browser session (the console's cookie): what only it has. */
    browser: browserSessionSchema().optional(),
    /** Signed in to a workspace that requires two-factor sign-in, without it: this session may only enrol. */
    enrolmentOnly: z.literal(true).optional(),
  });
export type SessionRecord = z.infer<ReturnType<typeof sessionRecordSchema>>;

export const sessionEntity = /* @__PURE__ */ defineEntity({
  name: 'session',
  keys: (s: SessionRecord) => ({ tokenHash: s.tokenHash, workspaceId: s.workspaceId, userId: s.userId, createdAt: s.createdAt }),
});

export const resetTokenRecordSchema = () =>
  z.object({
    tokenHash: z.string(),
    workspaceId: z.string(),
    userId: z.string(),
    expiresAt: z.number(),
    usedAt: z.string().optional(),
    /** The user's `credentialsVersion` when the token was mailed (absent: 0). */
    credentialsVersion: z.number().optional(),
  });
export type ResetTokenRecord = z.infer<ReturnType<typeof resetTokenRecordSchema>>;

export const resetTokenEntity = /* @__PURE__ */ defineEntity({
  name: 'resetToken',
  keys: (t: ResetTokenRecord) => ({ tokenHash: t.tokenHash }),
});
