import {
  type MfaState,
  resetTokenEntity,
  type ResetTokenRecord,
  sessionEntity,
  type SessionRecord,
  type User,
  userEntity,
  type UserRecord,
  type Workspace,
  workspaceEntity,
  type WorkspaceRecord,
} from './entities';
import { conflict, gone, notFound, RESET_TOKEN_GONE } from '../platform/errors';
import { indexPartition, keyOf } from '../platform/data/keys';
import { StaleRead } from '../platform/data/concurrency';
import { deleteItem, getItem, isConditionFailed, putItem, updateItem, type Item } from '../platform/data/items';
import { transactWrite, type TransactStep } from '../platform/data/transactions';
import { batchGetItems, queryRaw } from '../platform/data/queries';

/** Workspaces, users and everything that proves who a user is (e-mail, sessions, reset tokens). */

/** The record of an item read, if there was one. */
const recordOf = <R>(entity: { fromItem(item: Item): R }, item: Item | undefined): R | undefined => (item ? entity.fromItem(item) : undefined);

const emailTaken = () => conflict('An account with this e-mail already exists');

/** `steps` (the audit entry) are items of the same transaction, here and in the writes below. */
export async function createWorkspaceWithOwner(
  input: {
    workspace: Workspace;
    owner: UserRecord;
    session: SessionRecord;
  },
  steps: TransactStep[],
): Promise<void> {
  const { workspace, owner, session } = input;
  await transactWrite([
    {
      op: {
        Put: {
          Item: { ...keyOf('loginEmail', { email: owner.email }), entity: 'loginEmail', workspaceId: workspace.id, userId: owner.id },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      onConditionFailed: emailTaken,
    },
    {
      op: {
        Put: {
          Item: workspaceEntity.toItem(workspace),
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    },
    { op: { Put: { Item: userEntity.toItem(owner) } } },
    { op: { Put: { Item: sessionEntity.toItem(session) } } },
    ...steps,
  ]);
}

/** The workspace as answered (a workspace stored before sandboxes existed is live). */
export async function getWorkspace(workspaceId: string): Promise<Workspace | undefined> {
  const w = await getWorkspaceRecord(workspaceId);
  return w ? publicWorkspace(w) : undefined;
}

export const publicWorkspace = (w: WorkspaceRecord): Workspace => ({ id: w.id, name: w.name, createdAt: w.createdAt, sandbox: w.sandbox ?? false });

export async function getWorkspaceRecord(workspaceId: string): Promise<WorkspaceRecord | undefined> {
  return recordOf(workspaceEntity, await getItem(keyOf('workspace', { workspaceId })));
}

/**
 * Moves a sandbox clock from `fromOffsetMs` to `toOffsetMs`: conditional on the stored offset, so two
 * advances never both apply to the same reading (the loser is told to read again).
 */
export async function setClockOffset(workspaceId: string, fromOffsetMs: number, toOffsetMs: number, steps: TransactStep[]): Promise<void> {
  await transactWrite([
    {
      op: {
        Update: {
          Key: keyOf('workspace', { workspaceId }),
          UpdateExpression: 'SET clockOffsetMs = :to',
          ConditionExpression: 'sandbox = :yes AND (clockOffsetMs = :from OR (attribute_not_exists(clockOffsetMs) AND :from = :zero))',
          ExpressionAttributeValues: { ':to': toOffsetMs, ':from': fromOffsetMs, ':yes': true, ':zero': 0 },
        },
      },
      onConditionFailed: () => new StaleRead('workspace clock'),
    },
    ...steps,
  ]);
}

export async function getUser(workspaceId: string, userId: string): Promise<UserRecord | undefined> {
  return recordOf(userEntity, await getItem(keyOf('user', { workspaceId, userId })));
}

/** The names and e-mails of these users (one batch read of those attributes only); users no longer there are left out. */
export async function userNames(workspaceId: string, userIds: readonly string[]): Promise<{ id: string; name?: string | null; email: string }[]> {
  return batchGetItems(
    userIds.map((userId) => keyOf('user', { workspaceId, userId })),
    { consistent: false, attributes: ['id', 'name', 'email'] },
  );
}

export async function findUserByEmail(email: string): Promise<UserRecord | undefined> {
  const login = await getItem<{ workspaceId: string; userId: string }>(keyOf('loginEmail', { email }));
  return login ? getUser(login.workspaceId, login.userId) : undefined;
}

/** A new session and `steps` (its audit entry), in one transaction. */
export async function putSession(session: SessionRecord, steps: TransactStep[]): Promise<void> {
  await transactWrite([{ op: { Put: { Item: sessionEntity.toItem(session) } } }, ...steps]);
}

export async function getSession(tokenHash: string): Promise<SessionRecord | undefined> {
  return recordOf(sessionEntity, await getItem(keyOf('session', { tokenHash })));
}

/** Revokes one session (signing out) with `steps` (its audit entry); a session already gone stays gone. */
export async function deleteSession(tokenHash: string, steps: TransactStep[]): Promise<void> {
  await transactWrite([{ op: { Delete: { Key: keyOf('session', { tokenHash }) } } }, ...steps]);
}

/**
 * A user's sessions, newest first, at most `limit` (gsi1 of the session items). Sessions a new
 * generation revoked, and those past their end that TTL has not yet removed, are among them: the
 * caller judges each.
 */
export async function listUserSessions(workspaceId: string, userId: string, limit: number): Promise<SessionRecord[]> {
  const out = await queryRaw({
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk',
    ExpressionAttributeValues: { ':pk': indexPartition('session', 'gsi1', { workspaceId, userId }) },
    ScanIndexForward: false,
    Limit: limit,
  });
  return (out.Items ?? []).map((item) => sessionEntity.fromItem(item as Item));
}

/**
 * Ends every session of a user at once: a new session generation, so each older session is refused
 * from the next request (`steps`: the audit entry, in the same transaction).
 */
export async function endUserSessions(workspaceId: string, userId: string, now: string, steps: TransactStep[]): Promise<void> {
  await transactWrite([
    {
      op: {
        Update: {
          Key: keyOf('user', { workspaceId, userId }),
          UpdateExpression: 'SET sessionGeneration = sessionGeneration + :one, updatedAt = :now, version = version + :one',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':one': 1, ':now': now },
        },
      },
      onConditionFailed: () => notFound('Team member'),
    },
    ...steps,
  ]);
}

/**
 * Moves a browser session's lastSeenAt forward, at most once per `resolutionSeconds`: an active
 * console costs one write a minute, not one per request. Not for a session that is gone (signed out).
 */
export async function touchBrowserSession(tokenHash: string, seenAt: number, resolutionSeconds: number): Promise<void> {
  try {
    await updateItem(
      {
        Key: keyOf('session', { tokenHash }),
        UpdateExpression: 'SET browser.lastSeenAt = :seen',
        ConditionExpression: 'attribute_exists(pk) AND browser.lastSeenAt < :before',
        ExpressionAttributeValues: { ':seen': seenAt, ':before': seenAt - resolutionSeconds },
        ReturnValues: 'NONE',
      },
      { appliedIn: (stored) => (stored as { browser?: { lastSeenAt?: number } } | undefined)?.browser?.lastSeenAt === seenAt },
    );
  } catch (err) {
    if (!isConditionFailed(err)) throw err;
  }
}

const userKey = (u: Pick<User, 'workspaceId' | 'id'>) => keyOf('user', { workspaceId: u.workspaceId, userId: u.id });

/** The SET clause that voids every outstanding reset token of a user (needs `:zero` and `:one`). */
const BUMP_CREDENTIALS = 'credentialsVersion = if_not_exists(credentialsVersion, :zero) + :one';

const resetTokenGone = () => gone(RESET_TOKEN_GONE);

/** Condition: the user's `credentialsVersion` is still `:cv` (absent counts as 0). */
const credentialsUnchanged = (cv: number) => (cv === 0 ? 'attribute_not_exists(credentialsVersion) OR credentialsVersion = :cv' : 'credentialsVersion = :cv');

/** Optimistic update of name/e-mail; a changed e-mail moves its uniqueness item in the same transaction. */
export async function updateProfile(current: UserRecord, changes: { name?: string | null; email?: string }, now: string, steps: TransactStep[]): Promise<void> {
  const sets = ['updatedAt = :now', 'version = version + :one'];
  const values: Record<string, unknown> = { ':now': now, ':one': 1, ':v': current.version };
  if (changes.name !== undefined) {
    sets.push('#name = :name');
    values[':name'] = changes.name;
  }
  const emailChanges = changes.email !== undefined && changes.email !== current.email;
  if (emailChanges) {
    // A new e-mail voids the reset tokens mailed to the old one.
    sets.push('email = :email', BUMP_CREDENTIALS);
    values[':email'] = changes.email;
    values[':zero'] = 0;
  }
  await transactWrite([
    {
      op: {
        Update: {
          Key: userKey(current),
          UpdateExpression: `SET ${sets.join(', ')}`,
          ConditionExpression: 'version = :v',
          ExpressionAttributeNames: changes.name !== undefined ? { '#name': 'name' } : undefined,
          ExpressionAttributeValues: values,
        },
      },
      onConditionFailed: () => conflict('The profile changed meanwhile; read it again and retry'),
    },
    ...(emailChanges
      ? [
          {
            op: {
              Put: {
                Item: { ...keyOf('loginEmail', { email: changes.email! }), entity: 'loginEmail', workspaceId: current.workspaceId, userId: current.id },
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
            onConditionFailed: emailTaken,
          },
          {
            op: {
              Delete: {
                Key: keyOf('loginEmail', { email: current.email }),
                ConditionExpression: 'userId = :uid',
                ExpressionAttributeValues: { ':uid': current.id },
              },
            },
          },
        ]
      : []),
    ...steps,
  ]);
}

/**
 * New password and a new session generation (revokes every session of an older generation);
 * `keepSession` is moved to the new generation in the same transaction.
 */
export async function replacePassword(
  current: UserRecord,
  passwordHash: string,
  now: string,
  keepSession: string | undefined,
  steps: TransactStep[],
): Promise<void> {
  const generation = current.sessionGeneration + 1;
  await transactWrite([
    {
      op: {
        Update: {
          Key: userKey(current),
          UpdateExpression: `SET passwordHash = :h, sessionGeneration = :g, ${BUMP_CREDENTIALS}, updatedAt = :now, version = version + :one`,
          ConditionExpression: 'version = :v',
          ExpressionAttributeValues: { ':h': passwordHash, ':g': generation, ':now': now, ':one': 1, ':zero': 0, ':v': current.version },
        },
      },
      onConditionFailed: () => conflict('The account changed meanwhile; retry'),
    },
    ...(keepSession
      ? [
          {
            op: {
              Update: {
                Key: keyOf('session', { tokenHash: keepSession }),
                UpdateExpression: 'SET generation = :g',
                ConditionExpression: 'attribute_exists(pk)',
                ExpressionAttributeValues: { ':g': generation },
              },
            },
          },
        ]
      : []),
    ...steps,
  ]);
}

export async function putResetToken(token: ResetTokenRecord): Promise<void> {
  await putItem({ Item: resetTokenEntity.toItem(token) });
}

export async function getResetToken(tokenHash: string): Promise<ResetTokenRecord | undefined> {
  return recordOf(resetTokenEntity, await getItem(keyOf('resetToken', { tokenHash })));
}

/**
 * Marks the token used, sets the password and bumps the credentials version in one transaction, so
 * a token works exactly once and only while the account's credentials are those it was issued for.
 */
export async function consumeResetToken(token: ResetTokenRecord, user: UserRecord, passwordHash: string, now: Date, steps: TransactStep[]): Promise<void> {
  const nowIso = now.toISOString();
  const cv = token.credentialsVersion ?? 0;
  await transactWrite([
    {
      op: {
        Update: {
          Key: keyOf('resetToken', { tokenHash: token.tokenHash }),
          UpdateExpression: 'SET usedAt = :now',
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(usedAt) AND expiresAt > :epoch',
          ExpressionAttributeValues: { ':now': nowIso, ':epoch': Math.floor(now.getTime() / 1000) },
        },
      },
      onConditionFailed: resetTokenGone,
    },
    {
      op: {
        Update: {
          Key: userKey(user),
          UpdateExpression: `SET passwordHash = :h, sessionGeneration = sessionGeneration + :one, ${BUMP_CREDENTIALS}, updatedAt = :now, version = version + :one`,
          ConditionExpression: `attribute_exists(pk) AND (${credentialsUnchanged(cv)})`,
          ExpressionAttributeValues: { ':h': passwordHash, ':now': nowIso, ':one': 1, ':zero': 0, ':cv': cv },
        },
      },
      onConditionFailed: resetTokenGone,
    },
    ...steps,
  ]);
}

/**
 * Reserves one login attempt of one e-mail in one fixed window, before its password is checked: an
 * atomic conditional ADD that refuses once `limit` attempts hold a reservation, so parallel attempts
 * can never all pass a read-then-check. A success deletes the counter (`clearLoginFailures`), so what
 * it holds are the failed attempts and those still being checked. Resolves false when it is full.
 */
export async function reserveLoginAttempt(emailHash: string, window: number, limit: number, expiresAt: number): Promise<boolean> {
  try {
    await updateItem({
      Key: keyOf('loginThrottle', { emailHash, window }),
      UpdateExpression: 'SET entity = :e, expiresAt = :x ADD failures :one',
      ConditionExpression: 'attribute_not_exists(failures) OR failures < :limit',
      ExpressionAttributeValues: { ':e': 'loginThrottle', ':x': expiresAt, ':one': 1, ':limit': limit },
      ReturnValues: 'NONE',
    });
    return true;
  } catch (err) {
    if (isConditionFailed(err)) return false;
    throw err;
  }
}

/** Stamps the last failed attempt on the counter (its reservation already counted it). */
export async function noteLoginFailure(emailHash: string, window: number, at: string, expiresAt: number): Promise<void> {
  await updateItem(
    {
      Key: keyOf('loginThrottle', { emailHash, window }),
      UpdateExpression: 'SET entity = :e, expiresAt = :x, lastFailedAt = :at',
      ExpressionAttributeValues: { ':e': 'loginThrottle', ':x': expiresAt, ':at': at },
      ReturnValues: 'NONE',
    },
    { appliedIn: (stored) => stored?.lastFailedAt === at },
  );
}

export async function clearLoginFailures(emailHash: string, window: number): Promise<void> {
  await deleteItem({ Key: keyOf('loginThrottle', { emailHash, window }) });
}

// --- Two-factor sign-in ---

/** A second factor that no longer holds: the code's step or the recovery code was taken meanwhile, or two-factor was turned off. */
export class MfaCodeTaken extends Error {}

/** Hands out a new secret to confirm (replacing one not confirmed); refused once two-factor is on. */
export async function putPendingMfa(user: Pick<User, 'workspaceId' | 'id'>, pending: { secret: string; startedAt: string }): Promise<void> {
  await transactWrite([
    {
      op: {
        Update: {
          Key: userKey(user),
          UpdateExpression: 'SET mfaPending = :p',
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(mfa)',
          ExpressionAttributeValues: { ':p': pending },
        },
      },
      onConditionFailed: () => conflict('Two-factor sign-in is already on: turn it off first to enrol another device'),
    },
  ]);
}

/** Turns two-factor on with the secret that was handed out (still the pending one), with `steps` (its audit entry). */
export async function enableMfa(user: Pick<User, 'workspaceId' | 'id'>, mfa: MfaState, steps: TransactStep[]): Promise<void> {
  await transactWrite([
    {
      op: {
        Update: {
          Key: userKey(user),
          UpdateExpression: 'SET mfa = :m REMOVE mfaPending',
          ConditionExpression: 'mfaPending.secret = :s AND attribute_not_exists(mfa)',
          ExpressionAttributeValues: { ':m': mfa, ':s': mfa.secret },
        },
      },
      onConditionFailed: () => conflict('The enrolment changed meanwhile (confirmed elsewhere, or started again): start it again'),
    },
    ...steps,
  ]);
}

/** Turns two-factor off (the secret and the unused recovery codes go), with `steps` (its audit entry). */
export async function disableMfa(user: Pick<User, 'workspaceId' | 'id'>, secret: string, steps: TransactStep[]): Promise<void> {
  await transactWrite([
    {
      op: {
        Update: {
          Key: userKey(user),
          UpdateExpression: 'REMOVE mfa, mfaPending',
          ConditionExpression: 'mfa.secret = :s',
          ExpressionAttributeValues: { ':s': secret },
        },
      },
      onConditionFailed: () => conflict('Two-factor sign-in changed meanwhile; read it again'),
    },
    ...steps,
  ]);
}

export interface MfaChallengeRecord {
  tokenHash: string;
  workspaceId: string;
  userId: string;
  /** The sign-in's throttle counter: wrong codes count where wrong passwords do. */
  emailHash: string;
  /** Whether the sign-in ends in a console (cookie) session. */
  browser: boolean;
  /** Epoch seconds; also the table's TTL attribute. */
  expiresAt: number;
}

export async function putMfaChallenge(challenge: MfaChallengeRecord): Promise<void> {
  await putItem({ Item: { ...keyOf('mfaChallenge', { tokenHash: challenge.tokenHash }), entity: 'mfaChallenge', ...challenge } });
}

export async function getMfaChallenge(tokenHash: string): Promise<MfaChallengeRecord | undefined> {
  const item = await getItem<MfaChallengeRecord>(keyOf('mfaChallenge', { tokenHash }));
  return item
    ? {
        tokenHash: item.tokenHash,
        workspaceId: item.workspaceId,
        userId: item.userId,
        emailHash: item.emailHash,
        browser: item.browser,
        expiresAt: item.expiresAt,
      }
    : undefined;
}

/** What a second factor takes from the user when it is accepted: the code's step, or one recovery code. */
export type MfaUse = { step: number } | { recoveryHash: string };

/** The user write that takes a second factor, conditional so each code is taken once, parallel uses included. */
function takeSecondFactor(user: Pick<User, 'workspaceId' | 'id'>, secret: string, use: MfaUse): TransactStep {
  const update =
    'step' in use
      ? {
          UpdateExpression: 'SET mfa.lastStep = :step',
          ConditionExpression: 'mfa.secret = :s AND mfa.lastStep < :step',
          ExpressionAttributeValues: { ':s': secret, ':step': use.step },
        }
      : {
          UpdateExpression: 'REMOVE mfa.recovery.#h',
          ConditionExpression: 'mfa.secret = :s AND attribute_exists(mfa.recovery.#h)',
          ExpressionAttributeNames: { '#h': use.recoveryHash },
          ExpressionAttributeValues: { ':s': secret },
        };
  return { op: { Update: { Key: userKey(user), ...update } }, onConditionFailed: () => new MfaCodeTaken() };
}

/**
 * Ends a challenge in a session: the second factor taken, the challenge deleted and the session with
 * `steps` (its audit entry) written, all or nothing. A challenge already used is refused.
 */
export async function completeMfaSignIn(
  challenge: MfaChallengeRecord,
  user: Pick<User, 'workspaceId' | 'id'>,
  secret: string,
  use: MfaUse,
  session: SessionRecord,
  steps: TransactStep[],
): Promise<void> {
  await transactWrite([
    takeSecondFactor(user, secret, use),
    {
      op: { Delete: { Key: keyOf('mfaChallenge', { tokenHash: challenge.tokenHash }), ConditionExpression: 'attribute_exists(pk)' } },
      onConditionFailed: () => new MfaCodeTaken(),
    },
    { op: { Put: { Item: sessionEntity.toItem(session) } } },
    ...steps,
  ]);
}

/** Whether every user of the workspace must sign in with a second factor, with `steps` (its audit entry). */
export async function setMfaRequired(workspaceId: string, required: boolean, steps: TransactStep[]): Promise<void> {
  await transactWrite([
    {
      op: {
        Update: {
          Key: keyOf('workspace', { workspaceId }),
          UpdateExpression: 'SET mfaRequired = :r',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':r': required },
        },
      },
      onConditionFailed: () => notFound('Workspace'),
    },
    ...steps,
  ]);
}
