import type { CaptureRecord } from './entities';
import { indexKeysOf, keyOf } from '../platform/data/keys';
import { StaleRead } from '../platform/data/concurrency';
import { getItem } from '../platform/data/items';
import type { TransactStep } from '../platform/data/transactions';
// The area's changes commit here: its services plan the steps and hand them over.
export { transactWrite } from '../platform/data/transactions';

export interface CaptureWindow {
  captureId: string;
  windowEndsAt: string;
}

export async function getCapture(workspaceId: string, captureId: string): Promise<CaptureRecord | undefined> {
  const item = await getItem<Record<string, unknown>>(keyOf('capture', { workspaceId, captureId }));
  if (!item) return undefined;
  const { pk: _pk, sk: _sk, entity: _e, gsi1pk: _gp, gsi1sk: _gs, ...rest } = item;
  return rest as unknown as CaptureRecord;
}

export async function getWindow(workspaceId: string, fingerprint: string): Promise<CaptureWindow | undefined> {
  return getItem<CaptureWindow>(keyOf('captureWindow', { workspaceId, fingerprint }));
}

export async function phoneOwner(workspaceId: string, phone: string): Promise<string | undefined> {
  return (await getItem<{ memberId: string }>(keyOf('capturePhone', { workspaceId, phone })))?.memberId;
}

/**
 * The capture and its dedupe window. The window opens only if none is open (absent or ended), so of
 * two concurrent submissions one commits and the other re-reads and answers the first.
 */
export function captureSteps(c: CaptureRecord, window: { fingerprint: string; endsAt: string; expiresAt: number }): TransactStep[] {
  return [
    {
      op: {
        Put: {
          // gsi1: the member's captures (what the data-subject export and erasure read).
          Item: {
            ...keyOf('capture', { workspaceId: c.workspaceId, captureId: c.id }),
            ...indexKeysOf('capture', { workspaceId: c.workspaceId, memberId: c.memberId, captureId: c.id }),
            entity: 'capture',
            ...c,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    },
    {
      op: {
        Put: {
          Item: {
            ...keyOf('captureWindow', { workspaceId: c.workspaceId, fingerprint: window.fingerprint }),
            entity: 'captureWindow',
            captureId: c.id,
            windowEndsAt: window.endsAt,
            expiresAt: window.expiresAt,
          },
          ConditionExpression: 'attribute_not_exists(pk) OR windowEndsAt <= :now',
          ExpressionAttributeValues: { ':now': c.createdAt },
        },
      },
      onConditionFailed: () => new StaleRead('capture'),
    },
  ];
}

/** Points a phone at a member: only where no lookup exists, or over the stale one we read. */
export function phoneLookupStep(workspaceId: string, phone: string, memberId: string, replacing: string | undefined): TransactStep {
  return {
    op: {
      Put: {
        Item: { ...keyOf('capturePhone', { workspaceId, phone }), entity: 'capturePhone', memberId },
        ConditionExpression: replacing ? 'memberId = :old' : 'attribute_not_exists(pk)',
        ...(replacing ? { ExpressionAttributeValues: { ':old': replacing } } : {}),
      },
    },
    onConditionFailed: () => new StaleRead('member'),
  };
}
