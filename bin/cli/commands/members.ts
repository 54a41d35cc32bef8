import { randomUUID } from 'node:crypto';
import type { Command } from 'commander';
import type { components } from '../../../shared/client/index';
import { membersArea } from '../../../shared/members';
import { describe, examples } from '../help';
import { allPages, asTyped, dataOf } from '../client';
import { contextOf } from '../context';
import { UsageError } from '../errors';
import type { Output } from '../output';

type Member = components['schemas']['Member'];

const COLUMNS = ['id', 'email', 'externalId', 'status', 'tier', 'balance'] as const;
const row = (m: Member) => ({ ...m, balance: m.points?.balance });

function printMember(out: Output, m: Member): void {
  const name = [m.firstName, m.lastName].filter(Boolean).join(' ');
  out.line(`${m.id}${name ? `  ${name}` : ''}`);
  out.line(`  email        ${m.email ?? '-'}`);
  out.line(`  externalId   ${m.externalId ?? '-'}`);
  out.line(`  status       ${m.status}`);
  out.line(`  tier         ${m.tier}`);
  out.line(`  points       ${m.points.balance} (pending ${m.points.pending}, lifetime ${m.points.lifetime})`);
  out.line(`  orders       ${m.orderCount}`);
  if (m.tags?.length) out.line(`  tags         ${m.tags.join(', ')}`);
}

const positiveInteger = (value: string, what = 'points'): number => {
  if (!/^[1-9]\d{0,9}$/.test(value)) throw new UsageError(`${what} must be a whole number, at least 1 (got "${value}")`);
  return Number(value);
};

export function registerMembers(program: Command): void {
  const members = program.command('members').description(describe('members'));

  registerMemberCreate(members);

  examples(
    members
      .command('list')
      .description('members, newest first; filters narrow the list')
      .option('--tier <tier>')
      .option('--status <status>', 'active or unenrolled')
      .option('--tag <tag>')
      .option('--query <text>', 'part of e-mail, name, phone or external id')
      .option('--limit <n>', 'at most this many', '50')
      .action(async (o: { tier?: string; status?: string; tag?: string; query?: string; limit: string }, cmd: Command) => {
        const { client, out } = contextOf(cmd);
        const limit = positiveInteger(o.limit, '--limit');
        const list = await client.typed(membersArea.endpoints.listMembers);
        const { data } = dataOf(await list.GET({ params: { query: { tier: o.tier, status: asTyped(o.status), tag: o.tag, q: o.query, limit } } }));
        out.result(data, () => (data.length ? out.table(data.map(row), COLUMNS) : out.line('No members.')));
      }),
    'loyalty members list',
    'loyalty members list --tier gold --limit 10',
  );

  examples(
    members
      .command('get <id>')
      .description('a member with points, tier and status')
      .action(async (id: string, _o: unknown, cmd: Command) => {
        const { client, out } = contextOf(cmd);
        const { data } = dataOf(await (await client.typed(membersArea.endpoints.getMember)).GET({ params: { path: { id } } }));
        out.result(data, () => printMember(out, data));
      }),
    'loyalty members get mbr_01...',
    'loyalty members get mbr_01... --json',
  );

  examples(
    members
      .command('find')
      .description('find members by e-mail or external id (exact)')
      .option('--email <email>')
      .option('--external-id <externalId>')
      .action(async (o: { email?: string; externalId?: string }, cmd: Command) => {
        if (!o.email && !o.externalId) throw new UsageError('Give --email or --external-id');
        const { client, out } = contextOf(cmd);
        const list = await client.typed(membersArea.endpoints.listMembers);
        const items = await allPages((page) => list.GET({ params: { query: { ...page, email: o.email, externalId: o.externalId } } }));
        out.result(items, () => (items.length ? out.table(items.map(row), COLUMNS) : out.line('No member matches.')));
      }),
    'loyalty members find --email ada@example.com',
    'loyalty members find --external-id CRM-1',
  );

  registerPoints(program);
}

/** `points earn` and `points deduct`. */
function registerPoints(program: Command): void {
  const points = program.command('points').description(describe('points'));
  for (const type of ['earn', 'deduct'] as const) {
    const command = points
      .command(`${type} <memberId> <points>`)
      .description(type === 'earn' ? 'add points to the balance' : 'take points from the balance (never below zero)')
      .option('--reason <reason>', 'why, kept in the ledger', `Manual ${type}`)
      .option('--idempotency-key <key>', 'reuse to retry safely; default: a new one per invocation')
      .action(async (memberId: string, amountText: string, o: { reason: string; idempotencyKey?: string }, cmd: Command) => {
        const amount = positiveInteger(amountText);
        const { client, out } = contextOf(cmd);
        const idempotencyKey = o.idempotencyKey ?? randomUUID();
        const change = await client.typed(membersArea.endpoints.changeMemberPoints);
        const { data } = dataOf(
          await change.POST({ params: { path: { id: memberId }, header: { 'Idempotency-Key': idempotencyKey } }, body: { type, amount, reason: o.reason } }),
        );
        out.result({ ...data, idempotencyKey }, () => {
          out.line(`${type === 'earn' ? 'Earned' : 'Deducted'} ${amount} points for ${memberId}: balance ${data.points.balance}, tier ${data.tier}`);
          out.line(`Idempotency-Key: ${idempotencyKey}`);
        });
      });
    examples(
      command,
      `loyalty points ${type} mbr_01... 100 --reason "${type === 'earn' ? 'welcome' : 'correction'}"`,
      `loyalty points ${type} mbr_01... 100 --idempotency-key retry-1`,
    );
  }
}

/** `members create`: enrol a member. */
function registerMemberCreate(members: Command): void {
  examples(
    members
      .command('create')
      .description('enrol a member (API key with members:write); give --email or --external-id')
      .option('--email <email>')
      .option('--external-id <externalId>', 'the id in your system')
      .option('--first-name <firstName>')
      .option('--last-name <lastName>')
      .option('--idempotency-key <key>', 'reuse to retry safely; default: a new one per invocation')
      .action(async (o: { email?: string; externalId?: string; firstName?: string; lastName?: string; idempotencyKey?: string }, cmd: Command) => {
        if (!o.email && !o.externalId) throw new UsageError('Give --email or --external-id (or both)');
        const { client, out } = contextOf(cmd);
        const create = await client.typed(membersArea.endpoints.createMember);
        const { data } = dataOf(
          await create.POST({
            body: { email: o.email, externalId: o.externalId, firstName: o.firstName, lastName: o.lastName },
            params: { header: { 'Idempotency-Key': o.idempotencyKey ?? randomUUID() } },
          }),
        );
        out.result(data, () => {
          out.line(`Created ${data.id}`);
          printMember(out, data);
        });
      }),
    'loyalty members create --email ada@example.com --first-name Ada',
    'loyalty members create --external-id CRM-1 --json',
  );
}
