import { ledgerEntryEntity, type LedgerEntryRecord } from './entities';
import { keyOf, skPrefix } from '../platform/data/keys';
import { queryPage, type Page } from '../platform/data/queries';

/** A page of a member's ledger, oldest first (revision order: what a replay needs). */
export async function ledgerFromOldest(workspaceId: string, memberId: string, limit: number, cursor?: string): Promise<Page<LedgerEntryRecord>> {
  const { pk } = keyOf('member', { workspaceId, memberId });
  const prefix = skPrefix('ledgerEntry');
  const page = await queryPage<Record<string, unknown>>({
    partition: { attr: 'pk', value: pk },
    cursor,
    limit,
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': pk, ':prefix': prefix },
    ScanIndexForward: true,
  });
  return { ...page, items: page.items.map(ledgerEntryEntity.fromItem) };
}
