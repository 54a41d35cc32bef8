import { type Command, Option } from 'commander';
import { PRESETS, apiKeysArea } from '../../../shared/api-keys';
import { type Scope, SCOPES } from '../../../shared/platform/contract/scopes';
import { confirm } from '../asking';
import { describe } from '../help';
import { allPages, asTyped, dataOf } from '../client';
import { contextOf } from '../context';
import { UsageError } from '../errors';

const COLUMNS = ['id', 'name', 'prefix', 'scopes', 'createdAt', 'lastUsedAt'] as const;

export function registerKeys(program: Command): void {
  const keys = program.command('keys').description(describe('keys'));

  keys
    .command('create')
    .description('create an API key; its secret is shown once')
    .requiredOption('--name <name>', 'what the key is for')
    .addOption(new Option('--preset <preset>', 'every :read scope, or every :read and :write scope').choices(Object.keys(PRESETS)))
    .option('--scopes <scopes>', `comma-separated scopes (${SCOPES.join(', ')})`)
    .action(async (o: { name: string; preset?: keyof typeof PRESETS; scopes?: string }, cmd: Command) => {
      if ((o.preset === undefined) === (o.scopes === undefined)) throw new UsageError('Give exactly one of --preset or --scopes');
      const { client, out } = contextOf(cmd);
      const body = o.preset
        ? { name: o.name, preset: o.preset }
        : {
            name: o.name,
            scopes: asTyped<Scope[]>(
              o
                .scopes!.split(',')
                .map((s) => s.trim())
                .filter(Boolean),
            ),
          };
      const { data } = dataOf(await (await client.typed(apiKeysArea.endpoints.createApiKey)).POST({ body }));
      out.result(data, () => {
        out.line(`Created ${data.id} (${data.name}) with ${data.scopes.join(', ')}`);
        out.line(data.key);
        out.line('Store the key now: it is not shown again.');
      });
    });

  keys
    .command('list')
    .description('list API keys (without their secrets)')
    .action(async (_o: unknown, cmd: Command) => {
      const { client, out } = contextOf(cmd);
      const list = await client.typed(apiKeysArea.endpoints.listApiKeys);
      const items = await allPages((query) => list.GET({ params: { query } }));
      out.result(items, () => (items.length ? out.table(items, COLUMNS) : out.line('No API keys.')));
    });

  keys
    .command('revoke <id>')
    .description('revoke an API key: it gets 401 from the next request on; asks first unless --yes')
    .option('-y, --yes', 'revoke without asking (scripts)')
    .action(async (id: string, o: { yes?: boolean }, cmd: Command) => {
      const { client, out } = contextOf(cmd);
      if (!o.yes) await confirm(`Revoke API key ${id}? Every request with it fails from then on. [y/N] `, 'Not revoked');
      dataOf(await (await client.typed(apiKeysArea.endpoints.revokeApiKey)).DELETE({ params: { path: { id } } }));
      out.result({ id, revoked: true }, () => out.line(`Revoked ${id}`));
    });
}
