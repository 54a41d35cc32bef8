import { documentClient, writeClient } from '../../shared/platform/data/client';
import { notifyQueue } from './queue-signal';

/** The name the stream pollers sleep on: a write in this process wakes them. */
export const TABLE_WRITES = 'table-writes';

const WRITE_COMMANDS = /^(Put|Update|Delete|BatchWrite|TransactWrite)/;

/**
 * Lambda reads the table stream continuously; the local poller sleeps between polls. A write made
 * by a handler of this process wakes it at once, so an outbox item reaches the fan-out without
 * waiting for the next poll (writes from other processes still arrive by polling).
 */
export function wakeStreamPollersOnWrites(): void {
  for (const client of [documentClient(), writeClient()]) {
    client.middlewareStack.add(
      (next, context) => async (args) => {
        const out = await next(args);
        if (WRITE_COMMANDS.test(context.commandName ?? '')) notifyQueue(TABLE_WRITES);
        return out;
      },
      { step: 'initialize', name: 'localStreamWake', override: true },
    );
  }
}
