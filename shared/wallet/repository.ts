import type { QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import {
  type DeviceRegistration,
  walletBrandingEntity,
  type WalletBrandingRecord,
  walletDeviceEntity,
  walletPassEntity,
  type WalletPassRecord,
  type WalletPlatform,
  walletRegistrationEntity,
  type WalletRegistrationRecord,
  walletSerialEntity,
  type WalletSerialRecord,
} from './entities';
import { keyOf, type PrimaryKey } from '../platform/data/keys';
import { deleteItem, getItem, isConditionFailed, updateItem, type Item } from '../platform/data/items';
import { queryRaw } from '../platform/data/queries';
import { transactWrite, type TransactStep } from '../platform/data/transactions';

/** Wallet passes, their serial lookups and device registrations. */

/** The record of an item read, if there was one. */
const recordOf = <R>(entity: { fromItem(item: Item): R }, item: Item | undefined): R | undefined => (item ? entity.fromItem(item) : undefined);

async function queryAll<R>(entity: { fromItem(item: Item): R }, input: Omit<QueryCommandInput, 'TableName'>): Promise<R[]> {
  const out: R[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await queryRaw({ ...input, ConsistentRead: true, ...(start ? { ExclusiveStartKey: start } : {}) });
    for (const item of page.Items ?? []) out.push(entity.fromItem(item));
    start = page.LastEvaluatedKey;
  } while (start);
  return out;
}

const passKey = (p: Pick<WalletPassRecord, 'workspaceId' | 'memberId' | 'platform'>) =>
  keyOf('walletPass', { workspaceId: p.workspaceId, memberId: p.memberId, platform: p.platform });

export async function getPass(workspaceId: string, memberId: string, platform: WalletPlatform): Promise<WalletPassRecord | undefined> {
  return recordOf(walletPassEntity, await getItem(passKey({ workspaceId, memberId, platform })));
}

export async function listMemberPasses(workspaceId: string, memberId: string): Promise<WalletPassRecord[]> {
  const pk = keyOf('walletPass', { workspaceId, memberId, platform: 'apple' }).pk;
  return queryAll(walletPassEntity, {
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': pk, ':prefix': 'WALLETPASS#' },
  });
}

/** The attribute holding when a token was issued (epoch seconds), one per token hash. */
const issuedAtName = (hash: string) => `tokenAt_${hash}`;

/** When a token of the pass was issued (epoch seconds); undefined for a token stored before issue times were. */
export function tokenIssuedAt(pass: WalletPassRecord, hash: string): number | undefined {
  const at = (pass as unknown as Record<string, unknown>)[issuedAtName(hash)];
  return typeof at === 'number' ? at : undefined;
}

class PassExists extends Error {}

/** The issue time of a new pass's tokens: its creation. */
const issuedAtOf = (pass: WalletPassRecord) =>
  Object.fromEntries(pass.authTokenHashes.map((h) => [issuedAtName(h), Math.floor(Date.parse(pass.createdAt) / 1000)]));

/**
 * The member's pass and its serial lookup, both new, in one transaction. False when the member
 * already has a pass on this platform (a concurrent issue won): the caller reads that one.
 */
export async function createPass(pass: WalletPassRecord, serialHash: string): Promise<boolean> {
  const lookup: WalletSerialRecord = { serial: pass.serial, workspaceId: pass.workspaceId, memberId: pass.memberId, platform: pass.platform };
  try {
    await transactWrite([
      {
        op: { Put: { Item: { ...walletPassEntity.toItem(pass), ...issuedAtOf(pass) }, ConditionExpression: 'attribute_not_exists(pk)' } },
        onConditionFailed: () => new PassExists(),
      },
      {
        op: { Put: { Item: walletSerialEntity.toItem(lookup, { serialHash }), ConditionExpression: 'attribute_not_exists(pk)' } },
      },
    ]);
    return true;
  } catch (err) {
    if (err instanceof PassExists) return false;
    throw err;
  }
}

/**
 * Adds one token hash to the pass, and when it was issued, atomically (`list_append`): issues
 * running at the same time each add their own, none overwrites another. Conditional on the serial,
 * so it never creates a pass.
 */
export async function addAuthToken(pass: WalletPassRecord, hash: string, issuedAt: number): Promise<void> {
  await updateItem(
    {
      Key: passKey(pass),
      UpdateExpression: 'SET authTokenHashes = list_append(authTokenHashes, :h), #at = :t',
      // Not there yet: a re-send of an attempt that was applied fails here and is recognised.
      ConditionExpression: 'serial = :s AND NOT contains(authTokenHashes, :one)',
      ExpressionAttributeNames: { '#at': issuedAtName(hash) },
      ExpressionAttributeValues: { ':h': [hash], ':one': hash, ':s': pass.serial, ':t': issuedAt },
      ReturnValues: 'NONE',
    },
    { appliedIn: (stored) => ((stored as WalletPassRecord | undefined)?.authTokenHashes ?? []).includes(hash) },
  );
}

/**
 * Drops `hash` if it is the pass's oldest token (the list is in issue order) and was issued before
 * `issuedBefore` (a token without a time predates them). False otherwise: nothing else is ever
 * removed by mistake, and a token just handed out is never removed.
 */
export async function dropOldestAuthToken(pass: WalletPassRecord, hash: string, issuedBefore: number): Promise<boolean> {
  try {
    await updateItem(
      {
        Key: passKey(pass),
        UpdateExpression: 'REMOVE authTokenHashes[0], #at',
        ConditionExpression: 'serial = :s AND authTokenHashes[0] = :h AND (attribute_not_exists(#at) OR #at < :before)',
        ExpressionAttributeNames: { '#at': issuedAtName(hash) },
        ExpressionAttributeValues: { ':h': hash, ':s': pass.serial, ':before': issuedBefore },
        ReturnValues: 'NONE',
      },
      { appliedIn: (stored) => !((stored as WalletPassRecord | undefined)?.authTokenHashes ?? []).includes(hash) },
    );
    return true;
  } catch (err) {
    if (isConditionFailed(err)) return false;
    throw err;
  }
}

/**
 * Records new content: true if this call moved the pass from `pass.contentHash` to `contentHash`,
 * false if another writer changed it first (that one pushes; this one has nothing left to do).
 */
export async function updatePassContent(pass: WalletPassRecord, contentHash: string, lastModified: number): Promise<boolean> {
  try {
    await updateItem(
      {
        Key: passKey(pass),
        UpdateExpression: 'SET contentHash = :new, lastModified = :lm',
        ConditionExpression: 'contentHash = :old',
        ExpressionAttributeValues: { ':new': contentHash, ':lm': lastModified, ':old': pass.contentHash },
      },
      {
        appliedIn: (stored) =>
          (stored as WalletPassRecord | undefined)?.contentHash === contentHash && (stored as WalletPassRecord).lastModified === lastModified,
      },
    );
    return true;
  } catch (err) {
    if (isConditionFailed(err)) return false;
    throw err;
  }
}

export async function getSerial(serialHash: string): Promise<WalletSerialRecord | undefined> {
  return recordOf(walletSerialEntity, await getItem(keyOf('walletSerial', { serialHash })));
}

/** Marks serial lookups gone: from then on the serial answers 410 whatever else remains. */
export async function markSerialGone(serialHash: string, at: string): Promise<void> {
  try {
    await updateItem(
      {
        Key: keyOf('walletSerial', { serialHash }),
        UpdateExpression: 'SET goneAt = if_not_exists(goneAt, :at)',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':at': at },
      },
      { appliedIn: (stored) => stored !== undefined && 'goneAt' in (stored as object) },
    );
  } catch (err) {
    if (!isConditionFailed(err)) throw err;
  }
}

const registrationKey = (r: Pick<WalletRegistrationRecord, 'workspaceId' | 'memberId' | 'serial' | 'deviceHash'>) =>
  keyOf('walletRegistration', { workspaceId: r.workspaceId, memberId: r.memberId, serial: r.serial, deviceHash: r.deviceHash });
const deviceKey = (r: Pick<WalletRegistrationRecord, 'deviceHash' | 'passTypeId' | 'serial'>) =>
  keyOf('walletDevice', { deviceHash: r.deviceHash, passTypeId: r.passTypeId, serial: r.serial });

export async function getRegistration(
  r: Pick<WalletRegistrationRecord, 'workspaceId' | 'memberId' | 'serial' | 'deviceHash'>,
): Promise<WalletRegistrationRecord | undefined> {
  return recordOf(walletRegistrationEntity, await getItem(registrationKey(r)));
}

/** The registration (pass side, for pushes) and its device lookup (for the device's list call), together. */
export async function putRegistration(r: WalletRegistrationRecord): Promise<void> {
  const device = { workspaceId: r.workspaceId, memberId: r.memberId, serial: r.serial, passTypeId: r.passTypeId, createdAt: r.createdAt };
  await transactWrite([
    { op: { Put: { Item: walletRegistrationEntity.toItem(r) } } },
    { op: { Put: { Item: walletDeviceEntity.toItem(device, { deviceHash: r.deviceHash }) } } },
  ]);
}

export async function deleteRegistration(
  r: Pick<WalletRegistrationRecord, 'workspaceId' | 'memberId' | 'serial' | 'deviceHash' | 'passTypeId'>,
): Promise<void> {
  await transactWrite([{ op: { Delete: { Key: registrationKey(r) } } }, { op: { Delete: { Key: deviceKey(r) } } }]);
}

/** Removes one registration whose push token APNs refused, unless the device registered a new token meanwhile. */
export async function deleteRegistrationIfToken(r: WalletRegistrationRecord): Promise<void> {
  try {
    await deleteItem({ Key: registrationKey(r), ConditionExpression: 'pushToken = :t', ExpressionAttributeValues: { ':t': r.pushToken } });
    await deleteItem({ Key: deviceKey(r) });
  } catch (err) {
    if (!isConditionFailed(err)) throw err;
  }
}

export async function listPassRegistrations(workspaceId: string, memberId: string, serial: string): Promise<WalletRegistrationRecord[]> {
  const key = keyOf('walletRegistration', { workspaceId, memberId, serial, deviceHash: 'x' });
  return queryAll(walletRegistrationEntity, {
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': key.pk, ':prefix': `WALLETREG#${serial}#` },
  });
}

export async function listDeviceRegistrations(deviceHash: string, passTypeId: string): Promise<DeviceRegistration[]> {
  const key = keyOf('walletDevice', { deviceHash, passTypeId, serial: 'x' });
  return queryAll(walletDeviceEntity, {
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': key.pk, ':prefix': `REG#${passTypeId}#` },
  });
}

/**
 * A content version claimed in one attribute of an item: `claim` moves the attribute to `hash` and
 * is true for the one caller that did, so concurrent workers act on a version once; `release` gives
 * a claim back only while the attribute still holds that version, never undoing a newer claim.
 */
function versionClaim(attr: 'pushedHash' | 'syncedHash') {
  return {
    async claim(key: PrimaryKey, hash: string): Promise<boolean> {
      try {
        await updateItem({
          Key: key,
          UpdateExpression: `SET ${attr} = :h`,
          ConditionExpression: `attribute_exists(pk) AND (attribute_not_exists(${attr}) OR ${attr} <> :h)`,
          ExpressionAttributeValues: { ':h': hash },
        });
        return true;
      } catch (err) {
        if (isConditionFailed(err)) return false;
        throw err;
      }
    },
    async release(key: PrimaryKey, hash: string): Promise<void> {
      try {
        await updateItem(
          { Key: key, UpdateExpression: `REMOVE ${attr}`, ConditionExpression: `${attr} = :h`, ExpressionAttributeValues: { ':h': hash } },
          { appliedIn: () => true },
        );
      } catch (err) {
        if (!isConditionFailed(err)) throw err;
      }
    },
  };
}

const registrationPush = versionClaim('pushedHash');
const passSync = versionClaim('syncedHash');

/**
 * Claims the push of one content version to one device: true for the one caller that moves the
 * registration's `pushedHash` to `hash`, so a device gets each version once however many workers
 * look at the member. A push that must be retried gives its claim back (`releaseRegistrationPush`).
 */
export async function claimRegistrationPush(r: WalletRegistrationRecord, hash: string): Promise<boolean> {
  return registrationPush.claim(registrationKey(r), hash);
}

export async function releaseRegistrationPush(r: WalletRegistrationRecord, hash: string): Promise<void> {
  return registrationPush.release(registrationKey(r), hash);
}

/** The same claim for a pass kept up to date on the platform's side (Google's loyalty object). */
export async function claimPassSync(pass: WalletPassRecord, hash: string): Promise<boolean> {
  return passSync.claim(passKey(pass), hash);
}

export async function releasePassSync(pass: WalletPassRecord, hash: string): Promise<void> {
  return passSync.release(passKey(pass), hash);
}

/** Marks a pass as synced with `hash` without a claim (the issue call has just sent the object). */
export async function markPassSynced(pass: WalletPassRecord, hash: string): Promise<void> {
  await updateItem(
    { Key: passKey(pass), UpdateExpression: 'SET syncedHash = :h', ConditionExpression: 'attribute_exists(pk)', ExpressionAttributeValues: { ':h': hash } },
    { appliedIn: (s) => (s as { syncedHash?: string } | undefined)?.syncedHash === hash },
  );
}

export async function getBranding(workspaceId: string): Promise<WalletBrandingRecord | undefined> {
  return recordOf(walletBrandingEntity, await getItem(keyOf('walletBranding', { workspaceId })));
}

/** Replaces the branding, with `steps` (its audit entry) in the same transaction. */
export async function putBranding(workspaceId: string, branding: WalletBrandingRecord, steps: TransactStep[]): Promise<void> {
  await transactWrite([{ op: { Put: { Item: walletBrandingEntity.toItem(branding, { workspaceId }) } } }, ...steps]);
}
