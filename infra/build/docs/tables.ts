import { DECLARATIONS } from '../../../shared/http/declarations';
import { routesOf } from '../../../shared/platform/contract/endpoint';
import { EVENTS, type EventType } from '../../../shared/platform/events/registry';
import { TOOLS } from '../../../shared/mcp/tools/index';
import { PERMISSION_NAMES, PERMISSIONS, roleMay } from '../../../shared/platform/contract/permissions';
import { ROLES } from '../../../shared/platform/contract/roles';

/**
 * The reference tables of the docs, rendered from the declarations (endpoints from the contracts,
 * MCP tools from their registry, events from the event registry). Each sits in its page between
 * `<!-- generated:<name> -->` and `<!-- /generated -->`; `npm run docs:tables` writes them and a
 * unit test fails when a page differs from what the declarations say.
 */

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');

function credentialOf(route: { auth: readonly string[]; scope?: string; permission?: string }): string {
  const kinds = route.auth.map((a) =>
    a === 'apiKey' && route.scope ? `API key \`${route.scope}\`` : a === 'apiKey' ? 'API key' : a === 'adminSession' ? `session \`${route.permission}\`` : a,
  );
  return kinds.join(' or ');
}

/** Every endpoint, by area: method, path, credential, summary. */
export function endpointsTable(): string {
  return DECLARATIONS.map((declaration) => {
    const rows = routesOf(declaration).map((r) => `| \`${r.method}\` | \`${r.path}\` | ${credentialOf(r)} | ${cell(r.summary)} |`);
    return [`### ${declaration.area}`, '', '| Method | Path | Credential | Summary |', '|---|---|---|---|', ...rows].join('\n');
  }).join('\n\n');
}

/** The MCP tools by scope, in the registry's order. */
export function mcpToolsTable(): string {
  const byScope = new Map<string, string[]>();
  for (const tool of TOOLS) byScope.set(tool.scope, [...(byScope.get(tool.scope) ?? []), `\`${tool.name}\` (${cell(tool.title)})`]);
  return ['| Scope | Tools |', '|---|---|', ...[...byScope].map(([scope, tools]) => `| \`${scope}\` | ${tools.join(', ')} |`)].join('\n');
}

/** The webhook events of the catalog: key, stage, label. */
export function eventsTable(): string {
  const rows = (Object.keys(EVENTS) as EventType[]).map((e) => `| \`${e}\` | ${EVENTS[e].stage} | ${cell(EVENTS[e].label)} |`);
  return ['| Event | Stage | What happened |', '|---|---|---|', ...rows].join('\n');
}

/**
 * The roles by permission: one row per permission (what it covers and the console routes that
 * need it), one column per built-in role.
 */
export function permissionsTable(): string {
  const routes = DECLARATIONS.flatMap((d) => routesOf(d));
  const rows = PERMISSION_NAMES.map((p) => {
    const needed = routes.filter((r) => r.permission === p).map((r) => `\`${r.method} ${r.path}\``);
    const marks = ROLES.map((role) => (roleMay(role, p) ? 'yes' : ''));
    return `| \`${p}\` | ${cell(PERMISSIONS[p])} | ${marks.join(' | ')} | ${needed.join(', ') || 'no route yet'} |`;
  });
  return [`| Permission | What it covers | ${ROLES.join(' | ')} | Routes |`, `|---|---|${ROLES.map(() => ':-:|').join('')}---|`, ...rows].join('\n');
}

/** Which block goes into which page. */
export const GENERATED_BLOCKS = [
  { file: 'docs/endpoints.md', name: 'endpoints', render: endpointsTable },
  { file: 'docs/mcp.md', name: 'mcp-tools', render: mcpToolsTable },
  { file: 'docs/webhooks.md', name: 'events', render: eventsTable },
  { file: 'docs/team.md', name: 'permissions', render: permissionsTable },
] as const;

const markers = (name: string) => [`<!-- generated:${name} (npm run docs:tables) -->`, '<!-- /generated -->'] as const;

/** The block of `name` in `page` (undefined when its markers are missing). */
export function blockIn(page: string, name: string): string | undefined {
  const [open, close] = markers(name);
  const start = page.indexOf(open);
  const end = page.indexOf(close, start);
  return start < 0 || end < 0 ? undefined : page.slice(start + open.length, end).trim();
}

/** `page` with the block of `name` replaced by `content` (the markers must be there). */
export function withBlock(page: string, name: string, content: string): string {
  const [open, close] = markers(name);
  const start = page.indexOf(open);
  const end = page.indexOf(close, start);
  if (start < 0 || end < 0) throw new Error(`no ${open} ... ${close} in the page`);
  return `${page.slice(0, start + open.length)}\n${content}\n${page.slice(end)}`;
}
