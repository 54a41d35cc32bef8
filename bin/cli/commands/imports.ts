import { type Command, Option } from 'commander';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import type { components } from '../../../shared/client/index';
import { IMPORT_FORMATS, IMPORT_KINDS, importsArea } from '../../../shared/imports';
import { type Client, dataOf } from '../client';
import { confirm, timeoutOption } from '../asking';
import { contextOf } from '../context';
import { CommandError, UsageError } from '../errors';
import { describe } from '../help';
import type { Output } from '../output';

type Job = components['schemas']['ImportJob'];
type Kind = (typeof IMPORT_KINDS)[number];
type Format = (typeof IMPORT_FORMATS)[number];

const POLL_MS = 500;

/** The format from `--format`, else the file's extension. */
function formatOf(file: string, given: Format | undefined): Format {
  if (given) return given;
  const ext = /\.(csv|jsonl|ndjson)$/i.exec(file)?.[1]?.toLowerCase();
  if (ext === 'csv') return 'csv';
  if (ext === 'jsonl' || ext === 'ndjson') return 'jsonl';
  throw new UsageError(`Cannot tell the format of ${file} from its name: pass --format csv or --format jsonl`);
}

/** Streams the file to the job's presigned link (the file store, not the API: a plain fetch). */
async function upload(url: string, file: string): Promise<number> {
  const size = (await stat(file).catch(() => undefined))?.size;
  if (size === undefined) throw new UsageError(`No file ${file}`);
  const body = Readable.toWeb(createReadStream(file)) as unknown as RequestInit['body'];
  const res = await fetch(url, { method: 'PUT', body, headers: { 'content-length': String(size) }, duplex: 'half' } as RequestInit).catch((e: Error) => {
    throw new CommandError(`Could not upload ${file}: ${e.message}`);
  });
  await res.arrayBuffer();
  if (!res.ok) throw new CommandError(`Could not upload ${file}: HTTP ${res.status}`);
  return size;
}

const count = (n: number) => n.toLocaleString('en-US');

/** `12,000 of 100,000 rows (12 %), 3 failed, about 2 min left`: the job's progress in words. */
export function progressLine(job: Pick<Job, 'id' | 'status' | 'progress'>, now = Date.now()): string {
  const p = job.progress;
  const processed = p.done + p.skipped + p.failed;
  const of =
    p.rows === null ? `${count(processed)} rows` : `${count(processed)} of ${count(p.rows)} rows (${p.rows ? Math.floor((processed / p.rows) * 100) : 100} %)`;
  const failed = p.failed ? `, ${count(p.failed)} failed` : '';
  const eta = p.estimatedCompletionAt ? Math.max(0, Math.round((Date.parse(p.estimatedCompletionAt) - now) / 1000)) : undefined;
  const left = eta === undefined ? '' : eta < 90 ? `, about ${eta} s left` : `, about ${Math.round(eta / 60)} min left`;
  return `Import ${job.id}: ${job.status}, ${of}${failed}${left}`;
}

function printPreview(out: Output, job: Job): void {
  const p = job.preview;
  if (!p) return;
  out.line(`Previewed ${count(p.rows)} rows: ${count(p.valid)} valid, ${count(p.invalid)} invalid`);
  out.line(
    `  would: ${Object.entries(p.outcomes)
      .map(([k, n]) => `${k} ${count(n)}`)
      .join(', ')}`,
  );
  const t = p.totals;
  const totals = [
    t.members ? `${count(t.members)} members created` : '',
    t.points ? `${count(t.points)} points added` : '',
    t.pointsRemoved ? `${count(t.pointsRemoved)} points taken away` : '',
    ...Object.entries(t.tiers).map(([tier, n]) => `${count(n)} in ${tier}`),
  ].filter(Boolean);
  if (totals.length) out.line(`  totals: ${totals.join(', ')}`);
  for (const e of p.errors) out.line(`  line ${e.line}${e.field ? ` ${e.field}` : ''}: ${e.message}`);
  if (p.invalid > p.errors.length) out.line(`  (${count(p.invalid - p.errors.length)} more invalid rows: the preview keeps the first ${p.errors.length})`);
}

/** Polls the job until it is no longer applying: a progress line on a terminal, nothing else meanwhile. */
async function follow(client: Client, out: Output, id: string, timeoutMs: number): Promise<Job> {
  const get = await client.typed(importsArea.endpoints.getImport);
  const spinner = await out.spinner(`Import ${id}: applying`);
  const deadline = Date.now() + timeoutMs;
  try {
    for (;;) {
      const { data: job } = dataOf(await get.GET({ params: { path: { id } } }));
      if (job.status !== 'applying') return job;
      if (Date.now() > deadline)
        throw new CommandError(`Import ${id} is still applying after ${timeoutMs / 1000} s; check it with \`loyalty import status ${id}\``);
      spinner.update(progressLine(job));
      await sleep(POLL_MS);
    }
  } finally {
    spinner.stop();
  }
}

function ended(out: Output, job: Job): void {
  out.result(job, () => out.line(progressLine(job)));
  if (job.status === 'failed') throw new CommandError(`Import ${job.id} failed: ${job.error ?? 'no reason given'}; apply it again to resume`);
}

interface StartOptions {
  kind: Kind;
  format?: Format;
  countLifetime?: boolean;
  notify?: boolean;
  previewOnly?: boolean;
  yes?: boolean;
  timeout: string;
}

async function start(file: string, o: StartOptions, cmd: Command): Promise<void> {
  const format = formatOf(file, o.format);
  const timeout = timeoutOption(o.timeout);
  const { client, out } = contextOf(cmd);
  const create = await client.typed(importsArea.endpoints.createImport);
  const body = { kind: o.kind, format, ...(o.countLifetime ? { countLifetime: true } : {}), ...(o.notify ? { notify: true } : {}) };
  const { data: created } = dataOf(await create.POST({ body }));
  if (!created.upload) throw new CommandError(`Import ${created.id} has no upload link`);
  const bytes = await upload(created.upload.url, file);
  out.line(`Created import ${created.id} (${o.kind}, ${format}) and uploaded ${file} (${count(bytes)} bytes)`);
  const { data: previewed } = dataOf(await (await client.typed(importsArea.endpoints.previewImport)).POST({ params: { path: { id: created.id } } }));
  printPreview(out, previewed);
  if (o.previewOnly) return out.result(previewed, () => out.line(`Apply it with \`loyalty import apply ${created.id}\``));
  const valid = previewed.preview?.valid ?? 0;
  if (!o.yes) await confirm(`Apply the ${count(valid)} valid rows of import ${created.id}? [y/N] `, 'Not applied');
  await applyAndFollow(client, out, created.id, timeout);
}

async function applyAndFollow(client: Client, out: Output, id: string, timeoutMs: number): Promise<void> {
  dataOf(await (await client.typed(importsArea.endpoints.applyImport)).POST({ params: { path: { id } } }));
  ended(out, await follow(client, out, id, timeoutMs));
}

export function registerImports(program: Command): void {
  const imports = program.command('import').description(describe('import'));

  imports
    .command('start <file>')
    .description('upload a CSV or JSON Lines file, preview every row, then apply it (asks first unless --yes) with its progress')
    .addOption(new Option('--kind <kind>', 'what the file holds (docs/migration.md)').choices(IMPORT_KINDS).makeOptionMandatory())
    .addOption(new Option('--format <format>', 'file format (default: from the extension)').choices(IMPORT_FORMATS))
    .option('--count-lifetime', 'balances: count the points toward lifetime points and the tier')
    .option('--notify', 'balances: send loyalty.points_earned for each row')
    .option('--preview-only', 'stop after the preview (apply later with `loyalty import apply <id>`)')
    .option('-y, --yes', 'apply without asking (scripts)')
    .option('--timeout <seconds>', 'give up following after this long (the job goes on)', '3600')
    .action(start);

  imports
    .command('apply <id>')
    .description('apply a previewed import (or resume a failed one) and follow its progress')
    .option('--timeout <seconds>', 'give up following after this long (the job goes on)', '3600')
    .action(async (id: string, o: { timeout: string }, cmd: Command) => {
      const { client, out } = contextOf(cmd);
      await applyAndFollow(client, out, id, timeoutOption(o.timeout));
    });

  imports
    .command('status <id>')
    .description('an import job: status, progress (rows, errors, time left) and its preview')
    .option('--follow', 'while it applies: follow its progress until it ends')
    .option('--timeout <seconds>', 'with --follow: give up after this long', '3600')
    .action(async (id: string, o: { follow?: boolean; timeout: string }, cmd: Command) => {
      const { client, out } = contextOf(cmd);
      const { data: job } = dataOf(await (await client.typed(importsArea.endpoints.getImport)).GET({ params: { path: { id } } }));
      if (o.follow && job.status === 'applying') return ended(out, await follow(client, out, id, timeoutOption(o.timeout)));
      out.result(job, () => {
        out.line(progressLine(job));
        printPreview(out, job);
        if (job.undo) out.line(`Undone: ${count(job.undo.undone)} rows taken back, ${count(job.undo.kept)} members kept`);
        if (job.error) out.line(`Error: ${job.error}`);
      });
    });

  imports
    .command('undo <id>')
    .description('undo an applied import as a whole (asks first unless --yes)')
    .option('-y, --yes', 'undo without asking (scripts)')
    .action(async (id: string, o: { yes?: boolean }, cmd: Command) => {
      const { client, out } = contextOf(cmd);
      if (!o.yes)
        await confirm(
          `Undo import ${id}? Its balances, tiers, points and tags are taken back, and the members it created removed if untouched. [y/N] `,
          'Not undone',
        );
      const { data: job } = dataOf(await (await client.typed(importsArea.endpoints.undoImport)).POST({ params: { path: { id } } }));
      out.result(job, () =>
        out.line(`Import ${job.id}: ${job.status}, ${count(job.undo?.undone ?? 0)} rows taken back, ${count(job.undo?.kept ?? 0)} members kept`),
      );
    });
}
