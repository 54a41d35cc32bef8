import { type Command, Option } from 'commander';
import { teamArea } from '../../../shared/team';
import { DEFAULT_INVITED_ROLE, type Role, ROLES } from '../../../shared/platform/contract/roles';
import { confirm } from '../asking';
import { describe, examples } from '../help';
import { allPages, dataOf } from '../client';
import { contextOf } from '../context';
import { UsageError } from '../errors';

const MEMBER_COLUMNS = ['id', 'email', 'name', 'role', 'createdAt'] as const;
const INVITATION_COLUMNS = ['id', 'email', 'role', 'status', 'expiresAt'] as const;
const { endpoints } = teamArea;

function registerMemberCommands(team: Command): void {
  examples(team.command('members'), 'loyalty team members', 'loyalty team members --json')
    .description('list the users of the workspace and their roles')
    .action(async (_o: unknown, cmd: Command) => {
      const { client, out } = contextOf(cmd);
      const list = await client.typed(endpoints.listTeamMembers);
      const items = await allPages((query) => list.GET({ params: { query } }));
      out.result(items, () => out.table(items, MEMBER_COLUMNS));
    });

  examples(team.command('role <userId> <role>'), 'loyalty team role usr_... admin')
    .description(`change a user's role (${ROLES.join(', ')}); only an owner grants or removes owner`)
    .action(async (id: string, role: string, _o: unknown, cmd: Command) => {
      if (!ROLES.includes(role as Role)) throw new UsageError(`The role is one of ${ROLES.join(', ')} (got "${role}")`);
      const { client, out } = contextOf(cmd);
      const patch = await client.typed(endpoints.changeTeamMemberRole);
      const { data } = dataOf(await patch.PATCH({ params: { path: { id } }, body: { role: role as Role } }));
      out.result(data, () => out.line(`${data.email} is now ${data.role}`));
    });

  examples(team.command('remove <userId>'), 'loyalty team remove usr_...', 'loyalty team remove usr_... --yes')
    .description('remove a user: their sessions end at once; asks first unless --yes')
    .option('-y, --yes', 'remove without asking (scripts)')
    .action(async (id: string, o: { yes?: boolean }, cmd: Command) => {
      const { client, out } = contextOf(cmd);
      if (!o.yes) await confirm(`Remove ${id} from the workspace? They are signed out at once. [y/N] `, 'Not removed');
      dataOf(await (await client.typed(endpoints.removeTeamMember)).DELETE({ params: { path: { id } } }));
      out.result({ id, removed: true }, () => out.line(`Removed ${id}`));
    });
}

function registerInvitationCommands(team: Command): void {
  examples(team.command('invite <email>'), 'loyalty team invite alan@example.com --role admin')
    .description('mail an invitation link (works once, expires) to join with a role')
    .addOption(new Option('--role <role>', 'the role the invitee gets').choices(ROLES).default(DEFAULT_INVITED_ROLE))
    .action(async (email: string, o: { role: Role }, cmd: Command) => {
      const { client, out } = contextOf(cmd);
      const { data } = dataOf(await (await client.typed(endpoints.invite)).POST({ body: { email, role: o.role } }));
      out.result(data, () => out.line(`Invited ${data.email} as ${data.role}: ${data.id}, the link works until ${data.expiresAt}`));
    });

  examples(team.command('invitations'), 'loyalty team invitations')
    .description('list invitations, newest first, with their status')
    .action(async (_o: unknown, cmd: Command) => {
      const { client, out } = contextOf(cmd);
      const list = await client.typed(endpoints.listInvitations);
      const items = await allPages((query) => list.GET({ params: { query } }));
      out.result(items, () => (items.length ? out.table(items, INVITATION_COLUMNS) : out.line('No invitations.')));
    });

  examples(team.command('revoke <invitationId>'), 'loyalty team revoke inv_...')
    .description('revoke a pending invitation: its link stops working')
    .action(async (id: string, _o: unknown, cmd: Command) => {
      const { client, out } = contextOf(cmd);
      dataOf(await (await client.typed(endpoints.revokeInvitation)).DELETE({ params: { path: { id } } }));
      out.result({ id, revoked: true }, () => out.line(`Revoked ${id}`));
    });
}

export function registerTeam(program: Command): void {
  const team = program.command('team').description(describe('team'));
  registerMemberCommands(team);
  registerInvitationCommands(team);
}
