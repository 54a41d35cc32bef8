import type { Command } from 'commander';
import { readFile } from 'node:fs/promises';
import { objectsArea } from '../../../shared/objects';
import { describe } from '../help';
import { dataOf } from '../client';
import { contextOf } from '../context';
import { UsageError } from '../errors';

export function registerObjects(program: Command): void {
  const objects = program.command('objects').description(describe('objects'));

  objects
    .command('apply <file>')
    .description('create or update the object types a YAML or JSON file defines; shows the difference first')
    .option('--dry-run', 'show what would change, change nothing')
    .action(async (file: string, o: { dryRun?: boolean }, cmd: Command) => {
      const text = await readFile(file, 'utf8').catch((e: NodeJS.ErrnoException) => {
        throw new UsageError(`Cannot read ${file}: ${e.code ?? e.message}`);
      });
      const { parseDefinitions, planChanges } = await import('../object-types');
      const desired = parseDefinitions(text, file);
      const { client, out } = contextOf(cmd);
      const { data: current } = dataOf(await (await client.typed(objectsArea.endpoints.listObjectTypeDefinitions)).GET());
      const plan = planChanges(desired, current);
      const unchanged = desired.filter((d) => !plan.some((p) => p.type === d.type)).map((d) => d.type);
      if (!o.dryRun) {
        // One type at a time, in file order: a refusal (409 while records exist) stops before the rest.
        const put = await client.typed(objectsArea.endpoints.putObjectTypeDefinition);
        for (const change of plan) {
          const { type, ...body } = change.definition;
          dataOf(await put.PUT({ params: { path: { type } }, body }));
        }
      }
      const result = { applied: !o.dryRun && plan.length > 0, changes: plan.map(({ definition: _, ...c }) => c), unchanged };
      out.result(result, () => {
        if (!plan.length) return out.line(`Nothing to change: ${desired.length} object type${desired.length === 1 ? '' : 's'} already as defined.`);
        for (const c of plan) {
          out.line(`${c.action === 'create' ? '+' : '~'} ${c.type}${c.action === 'create' ? ' (new)' : ''}`);
          for (const line of c.changes) out.line(`    ${line}`);
        }
        out.line(o.dryRun ? `Dry run: ${plan.length} type(s) would change.` : `Applied: ${plan.length} type(s) changed, ${unchanged.length} unchanged.`);
      });
    });
}
