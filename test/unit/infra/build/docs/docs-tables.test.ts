import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { blockIn, endpointsTable, eventsTable, GENERATED_BLOCKS, mcpToolsTable, permissionsTable, withBlock } from '../../../../../infra/build/docs/tables';
import { PERMISSION_NAMES } from '../../../../../shared/platform/contract/permissions';
import { routes } from '../../../../../shared/http/declarations';
import { EVENTS } from '../../../../../shared/platform/events/registry';
import { TOOLS } from '../../../../../shared/mcp/tools/index';

const ROOT = new URL('../../../../../', import.meta.url);

describe('the reference tables of the docs are the declarations', () => {
  it.each(GENERATED_BLOCKS.map((b) => [b.file, b.name, b.render] as const))(
    '%s (%s) is what the declarations say; `npm run docs:tables` rewrites it',
    (file, name, render) => {
      const page = readFileSync(new URL(file, ROOT), 'utf8');
      expect(blockIn(page, name), `${file} has no generated ${name} block`).toBeDefined();
      expect(blockIn(page, name)).toBe(render());
    },
  );

  it('lists every endpoint, every tool and every event', () => {
    const endpoints = endpointsTable();
    for (const r of routes) expect(endpoints).toContain(`| \`${r.method}\` | \`${r.path}\` |`);
    const tools = mcpToolsTable();
    for (const t of TOOLS) expect(tools).toContain(`\`${t.name}\``);
    const events = eventsTable();
    for (const e of Object.keys(EVENTS)) expect(events).toContain(`| \`${e}\` |`);
  });

  it('has a row per permission, a column per role, and the routes that need it', () => {
    const rows = permissionsTable().split('\n');
    expect(rows[0]).toBe('| Permission | What it covers | owner | admin | marketer | support | analyst | developer | member | Routes |');
    expect(rows).toHaveLength(PERMISSION_NAMES.length + 2);
    expect(rows).toContain(
      "| `members:adjust_points` | Adjust a member's points and reverse ledger entries, within the role's ceiling | yes | yes |  | yes |  |  |  | `POST /api/flash/members/{id}/points`, `POST /api/flash/members/{id}/ledger/{entryId}/reverse` |",
    );
    expect(rows).toContain(
      '| `rewards:redeem` | Redeem a reward for a member and void a redemption | yes | yes |  | yes |  |  |  | `POST /api/flash/redemptions/{id}/void` |',
    );
    expect(rows).toContain('| `rewards:manage` | Create and change rewards | yes | yes | yes |  |  |  |  | no route yet |');
    expect(endpointsTable()).toContain('| `PUT` | `/api/flash/program` | session `program:manage` |');
  });

  it('a page whose block differs is detected and rewritten in place', () => {
    const page = 'before\n<!-- generated:events (npm run docs:tables) -->\n| stale |\n<!-- /generated -->\nafter\n';
    expect(blockIn(page, 'events')).not.toBe(eventsTable());
    const rewritten = withBlock(page, 'events', eventsTable());
    expect(blockIn(rewritten, 'events')).toBe(eventsTable());
    expect(rewritten.startsWith('before\n') && rewritten.endsWith('after\n')).toBe(true);
  });
});
