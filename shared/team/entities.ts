/**
 * Invitations to a workspace's team, as the table stores them. Plain declarations below the
 * domain, so the data layer can name them without importing it; the team area builds and checks them.
 */
import * as z from 'zod';
import { ROLES } from '../platform/contract/roles';
import { defineEntity } from '../platform/data/entity';

/** What an invitation is now. `expired` is never stored: a pending invitation past `expiresAt` reads as it. */
export const INVITATION_STATUSES = ['pending', 'accepted', 'revoked', 'expired'] as const;
export type InvitationStatus = (typeof INVITATION_STATUSES)[number];

const invitationFields = () => ({
  id: z.string(),
  email: z.string(),
  role: z.enum(ROLES),
  /** The user who invited. */
  invitedBy: z.string(),
  createdAt: z.string(),
  expiresAt: z.string(),
  acceptedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
  /** The user the acceptance created. */
  userId: z.string().nullable(),
});
export type Invitation = z.infer<z.ZodObject<ReturnType<typeof invitationFields>>> & { status: InvitationStatus };

/** As stored: the status is one of the stored ones, and the record names its workspace. */
export const invitationRecordSchema = () =>
  z.object({
    ...invitationFields(),
    status: z.enum(['pending', 'accepted', 'revoked']),
    workspaceId: z.string(),
  });
export type InvitationRecord = z.infer<ReturnType<typeof invitationRecordSchema>>;

export const invitationEntity = /* @__PURE__ */ defineEntity({
  name: 'invitation',
  keys: (i: InvitationRecord) => ({ workspaceId: i.workspaceId, invitationId: i.id }),
});

/** The link token's lookup item: only the token's hash is stored, never the token. */
export const invitationTokenRecordSchema = () =>
  z.object({
    tokenHash: z.string(),
    workspaceId: z.string(),
    invitationId: z.string(),
    /** Epoch seconds; also the table's TTL attribute. */
    expiresAt: z.number(),
  });
export type InvitationTokenRecord = z.infer<ReturnType<typeof invitationTokenRecordSchema>>;

export const invitationTokenEntity = /* @__PURE__ */ defineEntity({
  name: 'invitationToken',
  keys: (t: InvitationTokenRecord) => ({ tokenHash: t.tokenHash }),
});
