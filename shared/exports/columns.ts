import type { Item } from '../platform/data/items';
import { fromMinor } from '../platform/money';
import type { OperationalEntity } from './entities';
import { counterOf } from '../overview';

/**
 * The columns of an operational export, in order, as data: the CSV header row and the keys of each
 * JSONL line. Members are exported with their profile (an operational export loads the workspace's
 * own members into its other systems); secrets are never among the attributes read.
 */
export interface ColumnSet {
  source: 'members' | 'orders' | 'ledger';
  attributes: readonly string[];
  columns: readonly string[];
  row: (item: Item) => Record<string, string | number | boolean | null>;
}

const text = (v: unknown): string | null => (v === undefined || v === null ? null : String(v));

const LEDGER_COLUMNS = [
  'id',
  'memberId',
  'sequence',
  'createdAt',
  'type',
  'amount',
  'balanceAfter',
  'reportFigure',
  'sourceType',
  'orderId',
  'externalOrderId',
  'campaignId',
  'apiKeyId',
  'reason',
] as const;

/**
 * The ledger journal: every entry with its type and source, and the points report's figure it
 * counts in (`reportFigure`: issuedBase, redeemed, expired, ...), so the report reconciles with it.
 */
const ledger: ColumnSet = {
  source: 'ledger',
  attributes: ['id', 'memberId', 'rev', 'createdAt', 'type', 'amount', 'balanceAfter', 'reason', 'source'],
  columns: LEDGER_COLUMNS,
  row: (e) => {
    const source = (e.source ?? {}) as Record<string, unknown>;
    return {
      id: e.id,
      memberId: e.memberId,
      sequence: e.rev,
      createdAt: e.createdAt,
      type: e.type,
      amount: e.amount,
      balanceAfter: e.balanceAfter,
      reportFigure: counterOf({ type: String(e.type), amount: Number(e.amount), source: { type: String(source.type) }, createdAt: String(e.createdAt) }),
      sourceType: text(source.type),
      orderId: text(source.orderId),
      externalOrderId: text(source.externalOrderId),
      campaignId: text(source.campaignId),
      apiKeyId: text(source.apiKeyId),
      reason: text(e.reason),
    };
  },
};

export const COLUMNS: Readonly<Record<OperationalEntity, ColumnSet>> = {
  members: {
    source: 'members',
    attributes: [
      'id',
      'externalId',
      'email',
      'firstName',
      'lastName',
      'phone',
      'birthDate',
      'status',
      'tier',
      'balance',
      'pending',
      'lifetime',
      'orderCount',
      'tags',
      'customAttributes',
      'createdAt',
      'updatedAt',
    ],
    columns: [
      'id',
      'externalId',
      'email',
      'firstName',
      'lastName',
      'phone',
      'birthDate',
      'status',
      'tier',
      'pointsBalance',
      'pointsPending',
      'pointsLifetime',
      'orderCount',
      'tags',
      'customAttributes',
      'createdAt',
      'updatedAt',
    ],
    row: (m) => ({
      id: m.id,
      externalId: text(m.externalId),
      email: text(m.email),
      firstName: text(m.firstName),
      lastName: text(m.lastName),
      phone: text(m.phone),
      birthDate: text(m.birthDate),
      status: m.status,
      tier: m.tier,
      pointsBalance: m.balance ?? 0,
      pointsPending: m.pending ?? 0,
      pointsLifetime: m.lifetime ?? 0,
      orderCount: m.orderCount ?? 0,
      // Lists and maps travel as one JSON cell (CSV) or as themselves (JSONL, see `jsonlLine`).
      tags: JSON.stringify(m.tags ?? []),
      customAttributes: JSON.stringify(m.customAttributes ?? {}),
      createdAt: m.createdAt,
      updatedAt: m.updatedAt,
    }),
  },
  orders: {
    source: 'orders',
    attributes: [
      'id',
      'externalOrderId',
      'memberId',
      'storeId',
      'currency',
      'totalMinor',
      'refundedMinor',
      'status',
      'earned',
      'reversed',
      'occurredAt',
      'createdAt',
      'updatedAt',
    ],
    columns: [
      'id',
      'externalOrderId',
      'memberId',
      'storeId',
      'currency',
      'total',
      'refundedTotal',
      'status',
      'pointsEarned',
      'pointsReversed',
      'occurredAt',
      'createdAt',
      'updatedAt',
    ],
    row: (o) => ({
      id: o.id,
      externalOrderId: o.externalOrderId,
      memberId: o.memberId,
      storeId: text(o.storeId),
      currency: o.currency,
      total: fromMinor(o.totalMinor, o.currency),
      refundedTotal: fromMinor(o.refundedMinor ?? 0, o.currency),
      status: o.status,
      pointsEarned: o.earned ?? 0,
      pointsReversed: o.reversed ?? 0,
      occurredAt: o.occurredAt,
      createdAt: o.createdAt,
      updatedAt: o.updatedAt,
    }),
  },
  ledger,
};

/** A JSONL line: the CSV row with its JSON cells as the values they encode. */
export function jsonlLine(row: Record<string, unknown>): string {
  const out: Record<string, unknown> = { ...row };
  for (const key of ['tags', 'customAttributes']) if (typeof out[key] === 'string') out[key] = JSON.parse(out[key] as string);
  return `${JSON.stringify(out)}\n`;
}
