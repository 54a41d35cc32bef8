import { keyOf } from '../platform/data/keys';
import { getItem, putItem } from '../platform/data/items';

/** A member portal session as stored: only the SHA-256 of its token, never the token. */
export interface ConsumerSessionRecord {
  tokenHash: string;
  workspaceId: string;
  memberId: string;
  createdAt: string;
  /** Epoch seconds; also the table's TTL attribute. */
  expiresAt: number;
}

export async function putConsumerSession(session: ConsumerSessionRecord): Promise<void> {
  await putItem({
    Item: { ...keyOf('consumerSession', { tokenHash: session.tokenHash }), entity: 'consumerSession', ...session },
    ConditionExpression: 'attribute_not_exists(pk)',
  });
}

export async function getConsumerSession(tokenHash: string): Promise<ConsumerSessionRecord | undefined> {
  const item = await getItem<ConsumerSessionRecord & { pk?: string; sk?: string; entity?: string }>(keyOf('consumerSession', { tokenHash }));
  if (!item) return undefined;
  const { pk: _pk, sk: _sk, entity: _e, ...rest } = item;
  return rest;
}
