/**
 * `npm run points:backfill -- <workspaceId> --cut-over <ISO 8601>`: rebuilds the points counters of
 * a workspace whose ledger is older than them (decision 0084), a page of members at a time, printing
 * where it stands after each page. Stopped anywhere, the same command resumes; run again once done,
 * it changes nothing. It talks to the table named by `TABLE_NAME` (`AWS_REGION`, and
 * `DYNAMODB_ENDPOINT` for DynamoDB Local), with the credentials of the shell.
 */
import { parseArgs } from 'node:util';
import { backfillPoints } from '../shared/members';

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { 'cut-over': { type: 'string' }, 'page-size': { type: 'string', default: '25' }, pages: { type: 'string' } },
});
const [workspaceId] = positionals;
if (!workspaceId || !process.env.TABLE_NAME) {
  console.error('Usage: TABLE_NAME=<table> npm run points:backfill -- <workspaceId> --cut-over <ISO 8601> [--page-size 25] [--pages <n>]');
  process.exit(2);
}
const cutOver = values['cut-over'];
const pageSize = Number(values['page-size']);
const pages = values.pages === undefined ? Number.POSITIVE_INFINITY : Number(values.pages);
for (let page = 0; page < pages; page++) {
  const progress = await backfillPoints(workspaceId, { ...(cutOver ? { cutOver } : {}), pageSize, pages: 1 });
  console.log(`${progress.done ? 'Done' : 'Counted'}: ${progress.members} members, cut-over ${progress.cutOver}`);
  if (progress.done) break;
}
