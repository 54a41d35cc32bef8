import { randomUUID } from 'node:crypto';
import { type Command, Option } from 'commander';
import type { components } from '../../../shared/client/index';
import { currencyExponent } from '../../../shared/platform/money';
import { rewardsArea } from '../../../shared/rewards';
import { allPages, dataOf } from '../client';
import { contextOf } from '../context';
import { UsageError } from '../errors';
import { describe } from '../help';

type Reward = components['schemas']['Reward'];
type Benefit = components['schemas']['RewardBenefit'];

const STATUSES = ['draft', 'active', 'paused', 'archived'] as const;
const COLUMNS = ['id', 'name', 'benefit', 'pointsCost', 'remaining', 'status'] as const;

const minorOf = (amount: number, currency: string) => `${(amount / 10 ** currencyExponent(currency)).toFixed(currencyExponent(currency))} ${currency}`;

/** What a reward gives, as the table shows it. */
export function benefitText(b: Benefit): string {
  if (b.type === 'fixed_discount') return `${minorOf(b.amount, b.currency)} off`;
  if (b.type === 'percent_discount') return `${b.percent}% off${b.maxDiscount ? ` (at most ${minorOf(b.maxDiscount.amount, b.maxDiscount.currency)})` : ''}`;
  if (b.type === 'free_shipping') return 'free shipping';
  return `free ${b.sku}`;
}

const row = (r: Reward) => ({ ...r, benefit: benefitText(r.benefit), remaining: r.remaining ?? 'unlimited' });

const wholeOf = (value: string, what: string): number => {
  if (!/^\d{1,9}$/.test(value)) throw new UsageError(`${what} must be a whole number (got "${value}")`);
  return Number(value);
};

/** An amount in major units (5.00) in the currency's minor units (500), as the API takes it. */
const minorUnits = (value: string, currency: string | undefined, what: string): number => {
  if (!currency) throw new UsageError(`${what} needs --currency, e.g. EUR`);
  if (!/^\d{1,10}(\.\d{1,3})?$/.test(value)) throw new UsageError(`${what} must be an amount such as 5.00 (got "${value}")`);
  return Math.round(Number(value) * 10 ** currencyExponent(currency.toUpperCase()));
};

interface BenefitOptions {
  amount?: string;
  percent?: string;
  max?: string;
  currency?: string;
  freeShipping?: boolean;
  freeProduct?: string;
}

/** The one benefit the options name (exactly one of --amount, --percent, --free-shipping, --free-product). */
export function benefitOf(o: BenefitOptions): Benefit {
  const given = [o.amount, o.percent, o.freeShipping, o.freeProduct].filter((x) => x !== undefined);
  if (given.length !== 1) throw new UsageError('give exactly one of --amount, --percent, --free-shipping, --free-product');
  const currency = o.currency?.toUpperCase();
  if (o.amount !== undefined) return { type: 'fixed_discount', amount: minorUnits(o.amount, currency, '--amount'), currency: currency! };
  if (o.percent !== undefined) {
    const maxDiscount = o.max === undefined ? null : { amount: minorUnits(o.max, currency, '--max'), currency: currency! };
    return { type: 'percent_discount', percent: wholeOf(o.percent, '--percent'), maxDiscount };
  }
  if (o.freeShipping) return { type: 'free_shipping' };
  return { type: 'free_product', sku: o.freeProduct! };
}

export function registerRewards(program: Command): void {
  const rewards = program.command('rewards').description(describe('rewards'));

  rewards
    .command('list')
    .description('the rewards catalog, newest first')
    .addOption(new Option('--status <status>', 'only rewards in this status').choices(STATUSES))
    .action(async (o: { status?: (typeof STATUSES)[number] }, cmd: Command) => {
      const { client, out } = contextOf(cmd);
      const list = await client.typed(rewardsArea.endpoints.listRewards);
      const items = await allPages((page) => list.GET({ params: { query: { ...page, ...(o.status ? { status: o.status } : {}) } } }));
      out.result(items, () => (items.length ? out.table(items.map(row), COLUMNS) : out.line('No rewards.')));
    });

  registerCreate(rewards);

  rewards
    .command('redeem <rewardId>')
    .description("spend a member's points on a reward; prints the code it issued")
    .requiredOption('--member <memberId>', 'the member who spends the points (mbr_...)')
    .option('--idempotency-key <key>', 'reuse to retry safely; default: a new one per invocation')
    .action(async (rewardId: string, o: { member: string; idempotencyKey?: string }, cmd: Command) => {
      const { client, out } = contextOf(cmd);
      const idempotencyKey = o.idempotencyKey ?? randomUUID();
      const redeem = await client.typed(rewardsArea.endpoints.redeemReward);
      const { data } = dataOf(
        await redeem.POST({ params: { path: { id: rewardId }, header: { 'Idempotency-Key': idempotencyKey } }, body: { memberId: o.member } }),
      );
      out.result({ ...data, idempotencyKey }, () => {
        out.line(`Redeemed ${data.rewardName} for ${data.memberId}: redemption ${data.id}, ${data.pointsSpent} points spent`);
        out.line(`  code         ${data.couponCode ?? '- (the reward issues no code)'}`);
        out.line(`Idempotency-Key: ${idempotencyKey}`);
      });
    });
}

/** `rewards create`: a reward from its name, price and one benefit. */
function registerCreate(rewards: Command): void {
  rewards
    .command('create')
    .description('add a reward to the catalog (a draft unless --status active)')
    .requiredOption('--name <name>', 'what members see, e.g. "5 € off"')
    .requiredOption('--points <n>', 'its price in points')
    .option('--amount <amount>', 'a fixed discount in major units, e.g. 5.00 (with --currency)')
    .option('--percent <n>', 'a percent discount, 1-100 (--max caps it)')
    .option('--max <amount>', 'the most a percent discount takes off, e.g. 20.00 (with --currency)')
    .option('--currency <code>', 'ISO 4217 code of --amount or --max, e.g. EUR')
    .option('--free-shipping', 'free shipping')
    .option('--free-product <sku>', 'one unit of this product for free')
    .option('--stock <n>', 'redemptions possible in all; default: unlimited')
    .option('--per-member <n>', 'redemptions one member may hold; default: no limit')
    .addOption(new Option('--status <status>', 'draft (default) or active').choices(['draft', 'active']))
    .option('--idempotency-key <key>', 'reuse to retry safely; default: a new one per invocation')
    .action(
      async (
        o: BenefitOptions & { name: string; points: string; stock?: string; perMember?: string; status?: 'draft' | 'active'; idempotencyKey?: string },
        cmd: Command,
      ) => {
        const body = {
          name: o.name,
          pointsCost: wholeOf(o.points, '--points'),
          benefit: benefitOf(o),
          ...(o.stock === undefined ? {} : { stock: wholeOf(o.stock, '--stock') }),
          ...(o.perMember === undefined ? {} : { perMemberLimit: wholeOf(o.perMember, '--per-member') }),
          ...(o.status ? { status: o.status } : {}),
        };
        const { client, out } = contextOf(cmd);
        const idempotencyKey = o.idempotencyKey ?? randomUUID();
        const create = await client.typed(rewardsArea.endpoints.createReward);
        const { data } = dataOf(await create.POST({ params: { header: { 'Idempotency-Key': idempotencyKey } }, body }));
        out.result({ ...data, idempotencyKey }, () => {
          out.line(`Created reward ${data.id} (${data.status}): ${data.name}, ${benefitText(data.benefit)} for ${data.pointsCost} points`);
          out.line(`Idempotency-Key: ${idempotencyKey}`);
        });
      },
    );
}
