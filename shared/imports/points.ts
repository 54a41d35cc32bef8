/**
 * A `points` row's effect: the ledger's one points change, an `adjustment` entry sourced `import`
 * with the row's reason, recorded like a manual points change: the entry names the API key that
 * created the job, and a job a user created writes `member.points_adjusted` with the change. Added points count toward lifetime points as a manual earn does; taken
 * points, like a manual deduct, never take the balance below zero. The undo reverses exactly the
 * entry the row booked, with the lifetime points it added.
 */
import { audited } from '../audit';
import { changePoints, NO_DELTA, takeBackOpeningBalance } from '../members';
import { newId } from '../platform/ids';
import type { BulkEffect } from './kind';
import type { PointsChange } from './points-rows';

export const pointsEffect: BulkEffect<PointsChange> = {
  async apply(job, memberId, change, record, ledger) {
    const ws = job.workspaceId;
    const lifetime = Math.max(change.points, 0);
    const actor = job.actor ?? null;
    await changePoints({
      store: ledger,
      workspaceId: ws,
      memberId,
      plan: () => {
        const id = newId('ple');
        const apiKeyId = actor?.type === 'apiKey' ? actor.id : null;
        const audit =
          actor?.type === 'user'
            ? [audited(ws, { actor, requestId: job.requestId ?? job.id }, 'member.points_adjusted', { type: 'member', id: memberId }, new Date())]
            : [];
        return {
          plan: {
            delta: { ...NO_DELTA, balance: change.points, lifetime },
            entry: {
              id,
              type: 'adjustment',
              reason: change.reason,
              source: { type: 'import', orderId: null, externalOrderId: null, apiKeyId, importJobId: job.id },
            },
            requireNonNegative: change.points < 0,
            requireActive: change.points > 0,
            steps: [record({ entryId: id, lifetime }), ...audit],
            result: () => undefined,
          },
        };
      },
    });
  },
  async undo(job, row, steps, reversals) {
    if (!row.entryId) throw new Error(`Row ${row.line} of ${job.id} names no entry`);
    await takeBackOpeningBalance(reversals, job.workspaceId, row.memberId, row.entryId, { countedLifetime: (row.lifetime ?? 0) > 0, steps });
  },
};
