import { keyOf, skPrefix } from '../keys';
import { getItem, prefixPage, StaleRead, type Page, type TransactStep } from '../table';

const key = (workspaceId: string, campaignId: string) => keyOf('campaign', { workspaceId, campaignId });

/**
 * What the table needs of a campaign: its id and version (the domain validates the rest and reads
 * it back as its own type).
 */
export interface CampaignRecord {
  id: string;
  version: number;
}

const strip = <T extends CampaignRecord>({ pk: _pk, sk: _sk, entity: _e, workspaceId: _w, ...rest }: Record<string, unknown>) => rest as unknown as T;

export async function getCampaign<T extends CampaignRecord>(workspaceId: string, campaignId: string): Promise<T | undefined> {
  const item = await getItem<Record<string, unknown>>(key(workspaceId, campaignId));
  return item ? strip<T>(item) : undefined;
}

/** A new campaign (its id is new: the condition only guards against an id clash). */
export function putCampaignStep(workspaceId: string, campaign: CampaignRecord): TransactStep {
  return {
    op: {
      Put: {
        Item: { ...key(workspaceId, campaign.id), entity: 'campaign', workspaceId, ...campaign },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
  };
}

/**
 * Whole-item replace of a campaign we read, conditional on its version. The grant counters are
 * carried over from the read, so a grant committed meanwhile changes the version too (and the
 * replace re-reads).
 */
export function replaceCampaignStep(workspaceId: string, next: CampaignRecord, expectedVersion: number): TransactStep {
  return {
    op: {
      Put: {
        Item: { ...key(workspaceId, next.id), entity: 'campaign', workspaceId, ...next },
        ConditionExpression: 'version = :v',
        ExpressionAttributeValues: { ':v': expectedVersion },
      },
    },
    onConditionFailed: () => new StaleRead('campaign'),
  };
}

export function deleteCampaignStep(workspaceId: string, campaignId: string, expectedVersion: number): TransactStep {
  return {
    op: { Delete: { Key: key(workspaceId, campaignId), ConditionExpression: 'version = :v', ExpressionAttributeValues: { ':v': expectedVersion } } },
    onConditionFailed: () => new StaleRead('campaign'),
  };
}

export async function listCampaigns<T extends CampaignRecord>(workspaceId: string, limit: number, cursor?: string, status?: string): Promise<Page<T>> {
  const { pk } = keyOf('workspace', { workspaceId });
  const page = await prefixPage<Record<string, unknown>>(pk, skPrefix('campaign'), { limit, cursor, filters: [{ attr: 'status', op: '=', value: status }] });
  return { ...page, items: page.items.map((i) => strip<T>(i)) };
}

/** Every campaign of the workspace (what an evaluation reads; a workspace holds at most a few hundred). */
export async function allCampaigns<T extends CampaignRecord>(workspaceId: string): Promise<T[]> {
  const { pk } = keyOf('workspace', { workspaceId });
  const out: T[] = [];
  let cursor: string | undefined;
  do {
    const page = await prefixPage<Record<string, unknown>>(pk, skPrefix('campaign'), { limit: 200, cursor });
    out.push(...page.items.map((i) => strip<T>(i)));
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return out;
}
