import { userEntity, type UserRecord } from '../auth';
import type { Role } from '../platform/contract/roles';
import { invitationEntity, type InvitationRecord, invitationTokenEntity, type InvitationTokenRecord } from './entities';
import { conflict, gone, notFound } from '../platform/errors';
import { keyOf, skPrefix } from '../platform/data/keys';
import { getItem } from '../platform/data/items';
import { prefixPage, type Page } from '../platform/data/queries';
import { transactWrite, type TransactStep } from '../platform/data/transactions';

/**
 * The team of a workspace: its users (the auth area's records) and the invitations to join it.
 * Every write takes `steps` (its audit entry) into the same transaction.
 */

export const INVITATION_GONE = 'This invitation was already accepted, was revoked, or has expired';
const invitationGone = () => gone(INVITATION_GONE);
export const LAST_OWNER = 'The workspace must keep an owner: make another member owner first';
const lastOwner = () => conflict(LAST_OWNER);
const changedMeanwhile = () => conflict('The member changed meanwhile; read the team again and retry');

export async function listUsers(workspaceId: string, limit: number, cursor?: string): Promise<Page<UserRecord>> {
  const { pk } = keyOf('workspace', { workspaceId });
  const page = await prefixPage<Record<string, unknown>>(pk, skPrefix('user'), { limit, cursor });
  return { ...page, items: page.items.map(userEntity.fromItem) };
}

export async function listInvitations(workspaceId: string, limit: number, cursor?: string): Promise<Page<InvitationRecord>> {
  const { pk } = keyOf('workspace', { workspaceId });
  const page = await prefixPage<Record<string, unknown>>(pk, skPrefix('invitation'), { limit, cursor });
  return { ...page, items: page.items.map(invitationEntity.fromItem) };
}

export async function getInvitation(workspaceId: string, invitationId: string): Promise<InvitationRecord | undefined> {
  const item = await getItem(keyOf('invitation', { workspaceId, invitationId }));
  return item ? invitationEntity.fromItem(item) : undefined;
}

export async function getInvitationToken(tokenHash: string): Promise<InvitationTokenRecord | undefined> {
  const item = await getItem(keyOf('invitationToken', { tokenHash }));
  return item ? invitationTokenEntity.fromItem(item) : undefined;
}

/** The invitation and its token's lookup item, together. */
export async function createInvitation(invitation: InvitationRecord, token: InvitationTokenRecord, steps: TransactStep[]): Promise<void> {
  await transactWrite([
    {
      op: {
        Put: {
          Item: invitationEntity.toItem(invitation),
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    },
    { op: { Put: { Item: invitationTokenEntity.toItem(token) } } },
    ...steps,
  ]);
}

/** Only a pending invitation can be revoked; its link then answers 410. */
export async function revokeInvitation(workspaceId: string, invitationId: string, now: string, steps: TransactStep[]): Promise<void> {
  await transactWrite([
    {
      op: {
        Update: {
          Key: keyOf('invitation', { workspaceId, invitationId }),
          UpdateExpression: 'SET #status = :revoked, revokedAt = :now',
          ConditionExpression: 'attribute_exists(pk) AND #status = :pending',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':revoked': 'revoked', ':pending': 'pending', ':now': now },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        },
      },
      onConditionFailed: (stored) =>
        stored ? conflict(`The invitation is ${String(stored.status)}: only a pending one can be revoked`) : notFound('Invitation'),
    },
    ...steps,
  ]);
}

/**
 * Accepting: the invitation turns `accepted` only if it is still pending and unexpired (so its
 * token works once) and its inviter is still in the team with one of `inviterRoles` (else 410, as
 * a revoked one), and the user is created with its login e-mail, in one transaction. An e-mail
 * that already has an account (in any workspace: a login names one workspace) is a 409.
 */
export async function acceptInvitation(
  invitation: InvitationRecord,
  user: UserRecord,
  now: Date,
  inviterRoles: readonly Role[],
  steps: TransactStep[],
): Promise<void> {
  const nowIso = now.toISOString();
  const roles = Object.fromEntries(inviterRoles.map((r, i) => [`:r${i}`, r]));
  await transactWrite([
    {
      op: {
        ConditionCheck: {
          Key: keyOf('user', { workspaceId: invitation.workspaceId, userId: invitation.invitedBy }),
          ConditionExpression: `attribute_exists(pk) AND #role IN (${Object.keys(roles).join(', ')})`,
          ExpressionAttributeNames: { '#role': 'role' },
          ExpressionAttributeValues: roles,
        },
      },
      onConditionFailed: invitationGone,
    },
    {
      op: {
        Update: {
          Key: keyOf('invitation', { workspaceId: invitation.workspaceId, invitationId: invitation.id }),
          UpdateExpression: 'SET #status = :accepted, acceptedAt = :now, userId = :uid',
          ConditionExpression: 'attribute_exists(pk) AND #status = :pending AND expiresAt > :now',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':accepted': 'accepted', ':pending': 'pending', ':now': nowIso, ':uid': user.id },
        },
      },
      onConditionFailed: invitationGone,
    },
    {
      op: {
        Put: {
          Item: { ...keyOf('loginEmail', { email: user.email }), entity: 'loginEmail', workspaceId: user.workspaceId, userId: user.id },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      onConditionFailed: () => conflict('An account with this e-mail already exists'),
    },
    { op: { Put: { Item: userEntity.toItem(user) } } },
    ...steps,
  ]);
}

/**
 * Keeps the workspace's last owner: the change commits only while `otherOwner` is still an owner.
 * Two owners demoting each other at once: transactions are serializable, so the second one finds
 * its check failed (409) and one owner stays.
 */
function ownerStays(workspaceId: string, otherOwner: string): TransactStep {
  return {
    op: {
      ConditionCheck: {
        Key: keyOf('user', { workspaceId, userId: otherOwner }),
        ConditionExpression: '#role = :owner',
        ExpressionAttributeNames: { '#role': 'role' },
        ExpressionAttributeValues: { ':owner': 'owner' },
      },
    },
    onConditionFailed: lastOwner,
  };
}

/** `otherOwner`: when the member is an owner and stops being one, another owner that must stay one. */
export async function changeRole(user: UserRecord, role: Role, now: string, otherOwner: string | undefined, steps: TransactStep[]): Promise<void> {
  await transactWrite([
    {
      op: {
        Update: {
          Key: keyOf('user', { workspaceId: user.workspaceId, userId: user.id }),
          UpdateExpression: 'SET #role = :role, updatedAt = :now, version = version + :one',
          ConditionExpression: 'attribute_exists(pk) AND version = :v',
          ExpressionAttributeNames: { '#role': 'role' },
          ExpressionAttributeValues: { ':role': role, ':now': now, ':one': 1, ':v': user.version },
        },
      },
      onConditionFailed: changedMeanwhile,
    },
    ...(otherOwner ? [ownerStays(user.workspaceId, otherOwner)] : []),
    ...steps,
  ]);
}

/**
 * Removes the user and their login e-mail: every session of theirs is refused from the next request
 * (a session is honoured only while its user exists).
 */
export async function removeUser(user: UserRecord, otherOwner: string | undefined, steps: TransactStep[]): Promise<void> {
  await transactWrite([
    {
      op: {
        Delete: {
          Key: keyOf('user', { workspaceId: user.workspaceId, userId: user.id }),
          ConditionExpression: 'attribute_exists(pk) AND version = :v',
          ExpressionAttributeValues: { ':v': user.version },
        },
      },
      onConditionFailed: changedMeanwhile,
    },
    {
      op: {
        Delete: {
          Key: keyOf('loginEmail', { email: user.email }),
          ConditionExpression: 'attribute_not_exists(pk) OR userId = :uid',
          ExpressionAttributeValues: { ':uid': user.id },
        },
      },
    },
    ...(otherOwner ? [ownerStays(user.workspaceId, otherOwner)] : []),
    ...steps,
  ]);
}
