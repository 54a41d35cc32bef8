/**
 * Invitations to a workspace's team, as the table stores them. Plain declarations below the
 * domain, so the data layer can name them without importing it; the team area builds and checks them.
 */
import type { Role } from '../auth/entities';

/** What an invitation is now. `expired` is never stored: a pending invitation past `expiresAt` reads as it. */
export const INVITATION_STATUSES = ['pending', 'accepted', 'revoked', 'expired'] as const;
export type InvitationStatus = (typeof INVITATION_STATUSES)[number];

export interface Invitation {
  id: string;
  email: string;
  role: Role;
  status: InvitationStatus;
  /** The user who invited. */
  invitedBy: string;
  createdAt: string;
  expiresAt: string;
  acceptedAt: string | null;
  revokedAt: string | null;
  /** The user the acceptance created. */
  userId: string | null;
}

/** As stored: the status is one of the stored ones, and the record names its workspace. */
export interface InvitationRecord extends Omit<Invitation, 'status'> {
  workspaceId: string;
  status: Exclude<InvitationStatus, 'expired'>;
}

/** The link token's lookup item: only the token's hash is stored, never the token. */
export interface InvitationTokenRecord {
  tokenHash: string;
  workspaceId: string;
  invitationId: string;
  /** Epoch seconds; also the table's TTL attribute. */
  expiresAt: number;
}
