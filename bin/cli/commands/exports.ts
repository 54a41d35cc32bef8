import { type Command, Option } from 'commander';
import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import type { components } from '../../../shared/client/index';
import { OPERATIONAL_ENTITIES, OPERATIONAL_FORMATS, exportsArea } from '../../../shared/exports';
import { type Client, dataOf } from '../client';
import { describe } from '../help';
import { timeoutOption } from '../asking';
import { contextOf } from '../context';
import { CommandError, UsageError } from '../errors';
import type { Output } from '../output';

type Job = components['schemas']['OperationalExportJob'];

const POLL_MS = 500;

async function waitFor(client: Client, out: Output, id: string, timeoutMs: number): Promise<Job> {
  const get = await client.typed(exportsArea.endpoints.getOperationalExport);
  const spinner = await out.spinner(`Export ${id}: pending`);
  const deadline = Date.now() + timeoutMs;
  try {
    for (;;) {
      const { data: job } = dataOf(await get.GET({ params: { path: { id } } }));
      if (job.status === 'completed') return job;
      if (job.status === 'failed') throw new CommandError(`Export ${id} failed: ${job.error ?? 'no reason given'}`);
      if (Date.now() > deadline)
        throw new CommandError(`Export ${id} is still ${job.status} after ${timeoutMs / 1000} s; check it later with \`loyalty exports get ${id}\``);
      spinner.update(`Export ${id}: ${job.status}`);
      await sleep(POLL_MS);
    }
  } finally {
    spinner.stop();
  }
}

/**
 * Fetches a fresh presigned link through the typed client, then streams the file to `file` with a
 * plain fetch: the link points at the file store, not the API (no document describes it), and the
 * body is written as it arrives rather than parsed.
 */
async function download(client: Client, id: string, file: string): Promise<number> {
  const { data } = dataOf(await (await client.typed(exportsArea.endpoints.getExportDownload)).GET({ params: { path: { id } } }));
  const res = await fetch(data.url).catch((e: Error) => {
    throw new CommandError(`Could not download export ${id}: ${e.message}`);
  });
  if (!res.ok || !res.body) throw new CommandError(`Could not download export ${id}: HTTP ${res.status}`);
  let bytes = 0;
  const counted = Readable.fromWeb(res.body as import('node:stream/web').ReadableStream).on('data', (c: Buffer) => (bytes += c.length));
  await pipeline(counted, createWriteStream(file));
  return bytes;
}

export function registerExports(program: Command): void {
  const exports = program.command('exports').description(describe('exports'));

  exports
    .command('start')
    .description('start a CSV or JSONL export; --wait follows it, --output downloads the file')
    .addOption(new Option('--entity <entity>', 'what to export').choices(OPERATIONAL_ENTITIES).default('members'))
    .addOption(new Option('--format <format>', 'file format').choices(OPERATIONAL_FORMATS).default('csv'))
    .option('--wait', 'wait until the job completes (a spinner on a terminal)')
    .option('--output <file>', 'with --wait: write the file here')
    .option('--timeout <seconds>', 'with --wait: give up after this long', '600')
    .action(
      async (
        o: { entity: (typeof OPERATIONAL_ENTITIES)[number]; format: (typeof OPERATIONAL_FORMATS)[number]; wait?: boolean; output?: string; timeout: string },
        cmd: Command,
      ) => {
        if (o.output && !o.wait) throw new UsageError('--output needs --wait (the file exists only once the job completes)');
        const timeoutMs = timeoutOption(o.timeout);
        const { client, out } = contextOf(cmd);
        const start = await client.typed(exportsArea.endpoints.startOperationalExport);
        const { data: started } = dataOf(await start.POST({ body: { entity: o.entity, format: o.format } }));
        if (!o.wait)
          return out.result(started, () =>
            out.line(`Started export ${started.id} (${o.entity}, ${o.format}); follow it with \`loyalty exports get ${started.id}\``),
          );
        const job = await waitFor(client, out, started.id, timeoutMs);
        const bytes = o.output ? await download(client, job.id, o.output) : undefined;
        out.result({ ...job, ...(o.output ? { output: o.output, bytes } : {}) }, () => {
          out.line(`Export ${job.id} completed: ${job.rowCount} rows${job.capped ? ' (capped)' : ''}`);
          if (o.output) out.line(`Wrote ${o.output} (${bytes} bytes)`);
        });
      },
    );

  exports
    .command('get <id>')
    .description('an operational export job')
    .action(async (id: string, _o: unknown, cmd: Command) => {
      const { client, out } = contextOf(cmd);
      const { data } = dataOf(await (await client.typed(exportsArea.endpoints.getOperationalExport)).GET({ params: { path: { id } } }));
      out.result(data, () =>
        out.line(
          `${data.id}  ${data.entity}  ${data.format}  ${data.status}${data.rowCount === null ? '' : `  ${data.rowCount} rows`}${data.error ? `  ${data.error}` : ''}`,
        ),
      );
    });

  exports
    .command('download <id>')
    .description('download a completed export')
    .requiredOption('--output <file>', 'where to write it')
    .action(async (id: string, o: { output: string }, cmd: Command) => {
      const { client, out } = contextOf(cmd);
      const bytes = await download(client, id, o.output);
      out.result({ id, output: o.output, bytes }, () => out.line(`Wrote ${o.output} (${bytes} bytes)`));
    });
}
