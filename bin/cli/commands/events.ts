import type { Command } from 'commander';
import { webhooksArea } from '../../../shared/webhooks';
import { describe } from '../help';
import { dataOf } from '../client';
import { contextOf } from '../context';

export function registerEvents(program: Command): void {
  program
    .command('events')
    .description(describe('events'))
    .command('list')
    .description('the events that fire, with their stage')
    .action(async (_o: unknown, cmd: Command) => {
      const { client, out } = contextOf(cmd);
      const { data } = dataOf(await (await client.typed(webhooksArea.endpoints.getEventCatalog)).GET());
      out.result(data.events, () => out.table(data.events, ['event', 'stage', 'label']));
    });
}
