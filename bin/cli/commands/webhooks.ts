import type { Command } from 'commander';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import type { components } from '../../../shared/client/index';
import { webhooksArea } from '../../../shared/webhooks';
import { describe, examples } from '../help';
import { allPages, asTyped, type Client, dataOf } from '../client';
import { contextOf, interrupted } from '../context';
import { UsageError } from '../errors';
import { startForwarder } from '../forwarder';
import type { Output } from '../output';

type Attempt = components['schemas']['WebhookAttempt'];

const attemptLine = (a: Attempt) =>
  [
    a.at,
    a.eventType,
    a.eventId,
    `attempt ${a.attempt}`,
    a.statusCode ?? a.error ?? '-',
    `${a.durationMs}ms`,
    a.state,
    a.nextRetryAt ? `next ${a.nextRetryAt}` : '',
  ]
    .filter(Boolean)
    .join('  ');

const positiveMs = (value: string, what: string): number => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 100) throw new UsageError(`${what} must be a whole number of milliseconds, at least 100`);
  return n;
};

/** Prints the log's attempts oldest first, then (following) every attempt that appears later, until interrupted. */
async function deliveries(out: Output, fetchPage: () => Promise<Attempt[]>, follow: boolean, intervalMs: number): Promise<void> {
  const first = (await fetchPage()).reverse();
  if (!follow) {
    out.result(first, () =>
      first.length
        ? first.forEach((a) => {
            out.line(attemptLine(a));
          })
        : out.line('No deliveries yet.'),
    );
    return;
  }
  const seen = new Set<string>();
  const show = (a: Attempt) => {
    seen.add(a.id);
    out.item(a, attemptLine(a));
  };
  first.forEach(show);
  out.line(`Following delivery attempts every ${intervalMs} ms; Ctrl-C to stop.`);
  const stop = interrupted();
  let stopped = false;
  void stop.then(() => (stopped = true));
  while (!stopped) {
    await Promise.race([sleep(intervalMs), stop]);
    if (stopped) break;
    // Newest first: the page holds everything new unless more than a page arrived within one interval.
    (await fetchPage())
      .reverse()
      .filter((a) => !seen.has(a.id))
      .forEach(show);
  }
}

/**
 * The description of the endpoint a `listen` creates: it names the process and the machine, so a
 * later `listen` on this machine can tell an endpoint whose listener is gone (killed with
 * SIGKILL, no chance to delete it) from one still in use, and remove it.
 */
const listenerDescription = (pid = process.pid): string => `loyalty webhooks listen (temporary, pid ${pid} on ${hostname()})`;
const LISTENER = /^loyalty webhooks listen \(temporary, pid (\d+) on (.+)\)$/;

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** Deletes the endpoints of listeners of this machine whose process is gone; answers their ids. */
async function removeStaleListeners(client: Client): Promise<string[]> {
  const list = await client.typed(webhooksArea.endpoints.listWebhookEndpoints);
  const endpoints = await allPages((query) => list.GET({ params: { query } }));
  const stale = endpoints.filter((e) => {
    const m = LISTENER.exec(e.description ?? '');
    return m !== null && m[2] === hostname() && !isAlive(Number(m[1]));
  });
  const remove = await client.typed(webhooksArea.endpoints.deleteWebhookEndpoint);
  for (const e of stale) dataOf(await remove.DELETE({ params: { path: { id: e.id } } }));
  return stale.map((e) => e.id);
}

export function registerWebhooks(program: Command): void {
  registerTrigger(program);

  const webhooks = program.command('webhooks').description(describe('webhooks'));

  registerEndpointCommands(webhooks);

  webhooks
    .command('deliveries <endpointId>')
    .description('the delivery log of an endpoint, oldest first; --follow keeps printing new attempts')
    .option('--follow', 'poll the log and print new attempts as they appear, until Ctrl-C')
    .option('--interval <ms>', 'polling interval with --follow', '1000')
    .action(async (endpointId: string, o: { follow?: boolean; interval: string }, cmd: Command) => {
      const intervalMs = positiveMs(o.interval, '--interval');
      const { client, out } = contextOf(cmd);
      const log = await client.typed(webhooksArea.endpoints.listWebhookDeliveries);
      const page = async () => dataOf(await log.GET({ params: { path: { id: endpointId }, query: { limit: 200 } } })).data;
      await deliveries(out, page, o.follow === true, intervalMs);
    });

  webhooks
    .command('listen')
    .description('forward deliveries to a local URL through a temporary endpoint (local runtime)')
    .requiredOption('--forward-to <url>', 'where each signed delivery is POSTed, headers and body unchanged')
    .option('--events <events>', 'comma-separated event types', '*')
    .action(async (o: { forwardTo: string; events: string }, cmd: Command) => {
      let target: URL;
      try {
        target = new URL(o.forwardTo);
      } catch {
        throw new UsageError(`--forward-to must be a URL, e.g. http://127.0.0.1:4000/webhooks (got "${o.forwardTo}")`);
      }
      const { client, out } = contextOf(cmd);
      // Listening from the start, so a Ctrl-C while the endpoint is being created still deletes it.
      const stop = interrupted();
      const forwarder = await startForwarder(target, (f) =>
        out.item(f, `${new Date().toISOString()}  ${f.eventType}  ${f.webhookId}  -> ${f.status ?? `failed: ${f.error}`}`),
      );
      let endpoint: { id: string; secret: string };
      try {
        for (const stale of await removeStaleListeners(client)) out.line(`Removed endpoint ${stale}, left behind by a listen that was killed`);
        const eventTypes = o.events
          .split(',')
          .map((e) => e.trim())
          .filter(Boolean);
        const create = await client.typed(webhooksArea.endpoints.createWebhookEndpoint);
        ({ data: endpoint } = dataOf(await create.POST({ body: { url: forwarder.url, description: listenerDescription(), eventTypes: asTyped(eventTypes) } })));
      } catch (e) {
        await forwarder.close();
        throw e;
      }
      out.item(
        { ready: true, endpointId: endpoint.id, secret: endpoint.secret, listeningOn: forwarder.url, forwardTo: target.href },
        `Ready: endpoint ${endpoint.id} delivers to ${forwarder.url}, forwarded to ${target.href}\nSigning secret: ${endpoint.secret}\nCtrl-C to stop (the endpoint is deleted).`,
      );
      await stop;
      try {
        dataOf(await (await client.typed(webhooksArea.endpoints.deleteWebhookEndpoint)).DELETE({ params: { path: { id: endpoint.id } } }));
        out.line(`Deleted endpoint ${endpoint.id}`);
      } finally {
        await forwarder.close();
      }
    });
}

/** `trigger <event>`: the platform emits a sample event to the endpoints that subscribe to it. */
function registerTrigger(program: Command): void {
  examples(
    program
      .command('trigger <event>')
      .description(describe('trigger'))
      .action(async (eventType: string, _o: unknown, cmd: Command) => {
        const { client, out } = contextOf(cmd);
        const { data } = dataOf(await (await client.typed(webhooksArea.endpoints.triggerWebhookEvent)).POST({ body: { eventType: asTyped(eventType) } }));
        out.result(data, () =>
          out.line(
            data.deliveries.length
              ? `Sent a sample ${data.eventType} (webhook-id ${data.eventId}) to ${data.deliveries.map((d: { endpointId: string }) => d.endpointId).join(', ')}`
              : `No active endpoint subscribes to ${data.eventType}: nothing sent (subscribe one with \`loyalty webhooks listen\` or POST /api/v2/webhooks)`,
          ),
        );
      }),
    'loyalty trigger order.created',
    'loyalty trigger member.created --json',
  );
}

/** `webhooks list`, `webhooks delete` and `webhooks test`. */
function registerEndpointCommands(webhooks: Command): void {
  webhooks
    .command('list')
    .description('the subscribed endpoints (without secrets)')
    .action(async (_o: unknown, cmd: Command) => {
      const { client, out } = contextOf(cmd);
      const list = await client.typed(webhooksArea.endpoints.listWebhookEndpoints);
      const items = await allPages((query) => list.GET({ params: { query } }));
      out.result(items, () => (items.length ? out.table(items, ['id', 'url', 'status', 'eventTypes']) : out.line('No webhook endpoints.')));
    });

  examples(
    webhooks
      .command('delete <endpointId>')
      .description('remove an endpoint: no further deliveries, queued ones are dropped')
      .action(async (endpointId: string, _o: unknown, cmd: Command) => {
        const { client, out } = contextOf(cmd);
        dataOf(await (await client.typed(webhooksArea.endpoints.deleteWebhookEndpoint)).DELETE({ params: { path: { id: endpointId } } }));
        out.result({ id: endpointId, deleted: true }, () => out.line(`Deleted endpoint ${endpointId}`));
      }),
    'loyalty webhooks delete whe_01...',
  );

  webhooks
    .command('test <endpointId>')
    .description('send a webhook.ping to the endpoint through the whole pipeline')
    .action(async (endpointId: string, _o: unknown, cmd: Command) => {
      const { client, out } = contextOf(cmd);
      const { data } = dataOf(await (await client.typed(webhooksArea.endpoints.testWebhookEndpoint)).POST({ params: { path: { id: endpointId } } }));
      out.result(data, () => out.line(`Queued webhook.ping to ${endpointId}: delivery ${data.deliveryId}, webhook-id ${data.eventId}`));
    });
}
