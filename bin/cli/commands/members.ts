import { randomUUID } from 'node:crypto';
import type { Command } from 'commander';
import { membersArea } from '../../../shared/contracts/members';
import { contextOf } from '../context';
import { UsageError } from '../errors';
import type { Output } from '../output';

type Member = Record<string, any>;

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

const positiveInteger = (value: string): number => {
  if (!/^[1-9]\d{0,9}$/.test(value)) throw new UsageError(`points must be a whole number, at least 1 (got "${value}")`);
  return Number(value);
};

export function registerMembers(program: Command): void {
  const members = program.command('members').description('members (API key with members:read)');

  members
    .command('get <id>')
    .description('a member with points, tier and status')
    .action(async (id: string, _o: unknown, cmd: Command) => {
      const { client, out } = contextOf(cmd);
      const { data } = await client.call(membersArea.endpoints.getMember, { params: { id } });
      out.result(data, () => printMember(out, data));
    });

  members
    .command('find')
    .description('find members by e-mail or external id (exact)')
    .option('--email <email>')
    .option('--external-id <externalId>')
    .action(async (o: { email?: string; externalId?: string }, cmd: Command) => {
      if (!o.email && !o.externalId) throw new UsageError('Give --email or --external-id');
      const { client, out } = contextOf(cmd);
      const items = await client.all<Member>(membersArea.endpoints.listMembers, { query: { email: o.email, externalId: o.externalId } });
      out.result(items, () => (items.length ? out.table(items.map(row), COLUMNS) : out.line('No member matches.')));
    });

  const points = program.command('points').description("change a member's points (API key with members:write)");
  for (const type of ['earn', 'deduct'] as const) {
    points
      .command(`${type} <memberId> <points>`)
      .description(type === 'earn' ? 'add points to the balance' : 'take points from the balance (never below zero)')
      .option('--reason <reason>', 'why, kept in the ledger', `Manual ${type}`)
      .option('--idempotency-key <key>', 'reuse to retry safely; default: a new one per invocation')
      .action(async (memberId: string, amountText: string, o: { reason: string; idempotencyKey?: string }, cmd: Command) => {
        const amount = positiveInteger(amountText);
        const { client, out } = contextOf(cmd);
        const idempotencyKey = o.idempotencyKey ?? randomUUID();
        const { data } = await client.call(membersArea.endpoints.changeMemberPoints, {
          params: { id: memberId },
          body: { type, amount, reason: o.reason },
          headers: { 'idempotency-key': idempotencyKey },
        });
        out.result({ ...data, idempotencyKey }, () => {
          out.line(`${type === 'earn' ? 'Earned' : 'Deducted'} ${amount} points for ${memberId}: balance ${data.points.balance}, tier ${data.tier}`);
          out.line(`Idempotency-Key: ${idempotencyKey}`);
        });
      });
  }
}
