import { randomUUID } from 'node:crypto';
import type { Command } from 'commander';
import type { components } from '../../../shared/client/index';
import { membersArea } from '../../../shared/members';
import { ordersArea } from '../../../shared/orders';
import { currencyExponent } from '../../../shared/platform/money';
import { allPages, type Client, dataOf } from '../client';
import { describe } from '../help';
import { contextOf } from '../context';
import { ApiError, UsageError } from '../errors';
import type { Output } from '../output';

type Order = components['schemas']['Order'];
type Points = components['schemas']['Member']['points'];

/** In the currency's own decimals (59.90 EUR, 1200 JPY), as a receipt shows it. */
const decimal = (amount: number, currency: string) => amount.toFixed(currencyExponent(currency));
const money = (amount: number, currency: string) => `${decimal(amount, currency)} ${currency}`;

const COLUMNS = ['id', 'externalOrderId', 'memberId', 'total', 'currency', 'status', 'refundStatus', 'points', 'occurredAt'] as const;
const row = (o: Order) => ({ ...o, total: decimal(o.total, o.currency), points: o.points.net });

/** A decimal in major units as people type it (59.90); the API checks the currency's decimals. */
const amountOf = (value: string, what: string): number => {
  if (!/^\d{1,13}(\.\d{1,6})?$/.test(value)) throw new UsageError(`${what} must be an amount such as 59.90 (got "${value}")`);
  return Number(value);
};

/** `sku:quantity[:unitPrice]`; the sku may itself hold colons, the numbers are the last fields. */
type Item = { sku: string; quantity: number; unitPrice?: number };
const itemOf = (value: string, items: Item[] = []): Item[] => {
  const m = /^(.+?):(\d{1,6})(?::([^:]+))?$/.exec(value);
  if (!m) throw new UsageError(`--item must be sku:quantity[:unitPrice], e.g. MUG-BLK:1:30.00 (got "${value}")`);
  const [, sku, quantity, unitPrice] = m;
  return [...items, { sku: sku!, quantity: Number(quantity), ...(unitPrice === undefined ? {} : { unitPrice: amountOf(unitPrice, '--item unit price') }) }];
};

/**
 * The member's points after the order, or why they are missing: the order's answer does not carry
 * them. The order is recorded by then, so a failed look-up (a key without members:read, the network)
 * must not fail the command: a retry without the same external id would record a second order.
 */
async function pointsOf(client: Client, memberId: string): Promise<Points | string> {
  try {
    return dataOf(await (await client.typed(membersArea.endpoints.getMember)).GET({ params: { path: { id: memberId } } })).data.points;
  } catch (e) {
    return e instanceof ApiError && e.status === 403 ? 'the key lacks members:read' : `not read: ${(e as Error).message}`;
  }
}

function printOrder(out: Output, o: Order): void {
  out.line(`${o.id}  ${o.externalOrderId}`);
  out.line(`  member       ${o.memberId}`);
  out.line(`  total        ${money(o.total, o.currency)}${o.refundedTotal ? ` (refunded ${money(o.refundedTotal, o.currency)}, ${o.refundStatus})` : ''}`);
  out.line(`  status       ${o.status}`);
  out.line(`  points       ${o.points.earned} earned${o.points.pending ? ' (pending)' : ''}${o.points.reversed ? `, ${o.points.reversed} reversed` : ''}`);
  out.line(`  occurredAt   ${o.occurredAt}`);
}

export function registerOrders(program: Command): void {
  const orders = program.command('orders').description(describe('orders'));

  registerOrderCreate(orders);

  orders
    .command('list')
    .description("orders, newest first; a member's with --member")
    .option('--member <memberId>', 'only this member (mbr_...)')
    .action(async (o: { member?: string }, cmd: Command) => {
      const { client, out } = contextOf(cmd);
      const list = await client.typed(ordersArea.endpoints.listOrders);
      const items = await allPages((page) => list.GET({ params: { query: { ...page, memberId: o.member } } }));
      out.result(items, () => (items.length ? out.table(items.map(row), COLUMNS) : out.line('No orders.')));
    });

  orders
    .command('refund <externalOrderId>')
    .description('refund an order (by its id in your system) fully or partly and reverse its points')
    .option('--amount <amount>', 'amount to refund, e.g. 30.00; default: everything still refundable')
    .option('--reason <reason>', 'why, kept with the refund')
    .option('--idempotency-key <key>', 'reuse to retry safely; default: a new one per invocation')
    .action(async (externalOrderId: string, o: { amount?: string; reason?: string; idempotencyKey?: string }, cmd: Command) => {
      const amount = o.amount === undefined ? undefined : amountOf(o.amount, '--amount');
      const { client, out } = contextOf(cmd);
      const idempotencyKey = o.idempotencyKey ?? randomUUID();
      const refund = await client.typed(ordersArea.endpoints.refundOrder);
      const { data } = dataOf(
        await refund.POST({
          params: { path: { externalOrderId }, header: { 'Idempotency-Key': idempotencyKey } },
          body: { ...(amount === undefined ? {} : { amount }), ...(o.reason ? { reason: o.reason } : {}) },
        }),
      );
      out.result({ ...data, idempotencyKey }, () => {
        const { order, refund } = data;
        out.line(
          `Refunded ${money(refund.amount, order.currency)} of ${order.externalOrderId} (${order.id}): ${refund.pointsReversed} points reversed, refund ${refund.id}`,
        );
        printOrder(out, order);
        out.line(`Idempotency-Key: ${idempotencyKey}`);
      });
    });
}

/** `orders create`: record an order and print the points it earned. */
function registerOrderCreate(orders: Command): void {
  orders
    .command('create')
    .description('record an order and award its points')
    .requiredOption('--member <memberId>', 'the member (mbr_...)')
    .requiredOption('--total <amount>', 'order total in major units, e.g. 59.90')
    .requiredOption('--currency <code>', 'ISO 4217 code, e.g. EUR')
    .option('--external-id <id>', "the order's id in your system; default: a new one")
    .option('--occurred-at <iso>', 'when the order was placed (ISO 8601 with offset); default: now')
    .option('--item <sku:qty[:unitPrice]>', 'an order line; repeat for more', itemOf)
    .option('--idempotency-key <key>', 'reuse to retry safely; default: a new one per invocation')
    .action(
      async (
        o: {
          member: string;
          total: string;
          currency: string;
          externalId?: string;
          occurredAt?: string;
          item?: Item[];
          idempotencyKey?: string;
        },
        cmd: Command,
      ) => {
        const total = amountOf(o.total, '--total');
        const { client, out } = contextOf(cmd);
        const idempotencyKey = o.idempotencyKey ?? randomUUID();
        const body = {
          externalOrderId: o.externalId ?? `cli-${randomUUID()}`,
          memberId: o.member,
          currency: o.currency,
          total,
          occurredAt: o.occurredAt ?? new Date().toISOString(),
          ...(o.item ? { items: o.item } : {}),
        };
        const create = await client.typed(ordersArea.endpoints.createOrder);
        const { data, duplicate } = dataOf(await create.POST({ params: { header: { 'Idempotency-Key': idempotencyKey } }, body }));
        const points = await pointsOf(client, data.memberId);
        const memberPoints = typeof points === 'string' ? null : points;
        out.result({ ...data, duplicate, memberPoints, idempotencyKey }, () => {
          out.line(duplicate ? `Already recorded: ${data.externalOrderId} is ${data.id}; nothing was awarded again` : `Recorded order ${data.id}`);
          printOrder(out, data);
          out.line(`  balance      ${memberPoints ? `${memberPoints.balance} (pending ${memberPoints.pending})` : `- (${points})`}`);
          out.line(`Idempotency-Key: ${idempotencyKey}`);
        });
      },
    );
}
