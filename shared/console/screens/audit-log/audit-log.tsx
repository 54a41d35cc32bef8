import { useLocation } from 'preact-iso/router';
import { useEffect, useState } from 'preact/hooks';
import type { components, operations } from '../../../client/schema';
import { api, unwrap } from '../../api';
import { to } from '../../paths';
import { usePaged } from '../../hooks/use-paged';
import { when } from '../../ui/feedback';
import { Listing, TableHead } from '../../ui/tables';
import { PLATFORM } from '../../platform';
import { Changes } from './changes';

type Query = NonNullable<operations['listAuditEntries']['parameters']['query']>;
type Entry = components['schemas']['AuditEntry'];

/** What the log is narrowed by, all in the address (so a filtered log can be linked, reloaded and left with Back). */
const FILTERS = ['action', 'actor', 'targetType', 'targetId', 'from', 'to'] as const;
type Filters = Record<(typeof FILTERS)[number], string>;

/** A date input's day as the instant its local day starts (`to` is exclusive: the day after). */
const dayStart = (day: string, plusDays = 0): string | undefined => {
  if (!day) return undefined;
  const d = new Date(`${day}T00:00:00`);
  d.setDate(d.getDate() + plusDays);
  return d.toISOString();
};

/** The API's query for the filters (the list's and the CSV file's alike). */
function queryOf(f: Filters): Omit<Query, 'limit' | 'cursor'> {
  const action = PLATFORM.auditActions.find((a) => a === f.action);
  const targetType = PLATFORM.auditTargetTypes.find((t) => t === f.targetType);
  return {
    ...(action ? { action } : {}),
    ...(f.actor.trim() ? { actor: f.actor.trim() } : {}),
    ...(targetType ? { targetType } : {}),
    ...(f.targetId.trim() ? { targetId: f.targetId.trim() } : {}),
    ...(f.from ? { from: dayStart(f.from) } : {}),
    ...(f.to ? { to: dayStart(f.to, 1) } : {}),
  };
}

const addressOf = (f: Partial<Filters>) => {
  const kept = Object.entries(f).filter(([, v]) => v?.trim()) as [string, string][];
  return kept.length ? `${to.audit}?${new URLSearchParams(kept)}` : to.audit;
};

const csvAddressOf = (f: Filters) => {
  const q = Object.entries(queryOf(f)).filter(([, v]) => v !== undefined) as [string, string][];
  return `/api/flash/audit/export${q.length ? `?${new URLSearchParams(q)}` : ''}`;
};

export function AuditLog() {
  const { query, route } = useLocation();
  const applied = Object.fromEntries(FILTERS.map((k) => [k, query[k] ?? ''])) as Filters;
  const key = addressOf(applied);
  const [typed, setTyped] = useState(applied);
  // The form shows the address's filters, also when the address changes (Back, a name clicked).
  useEffect(() => setTyped(applied), [key]);
  const list = usePaged((page) => unwrap(api.GET('/api/flash/audit', { params: { query: { limit: 25, ...queryOf(applied), ...page } } })), [key]);
  const set = (k: keyof Filters) => (e: Event) => setTyped({ ...typed, [k]: (e.currentTarget as HTMLInputElement).value });
  return (
    <section aria-labelledby="audit-title">
      <h1 id="audit-title">Audit log</h1>
      <form
        class="filters"
        aria-label="Filter the audit log"
        onSubmit={(e) => {
          e.preventDefault();
          list.paging.first();
          route(addressOf(typed), true);
          list.reload();
        }}
      >
        <label>
          Action
          <select name="action" value={typed.action} onChange={set('action')}>
            <option value="">Every action</option>
            {PLATFORM.auditActions.map((a) => (
              <option key={a} value={a}>
                {a}
              </option>
            ))}
          </select>
        </label>
        <label>
          Who (user or key id)
          <input name="actor" placeholder="usr_… or key_…" value={typed.actor} onInput={set('actor')} />
        </label>
        <label>
          Target type
          <select name="targetType" value={typed.targetType} onChange={set('targetType')}>
            <option value="">Any target</option>
            {PLATFORM.auditTargetTypes.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </label>
        <label>
          Target id
          <input name="targetId" placeholder="mbr_…, cmp_…, rwd_…" value={typed.targetId} onInput={set('targetId')} />
        </label>
        <label>
          From
          <input type="date" name="from" value={typed.from} onInput={set('from')} />
        </label>
        <label>
          To
          <input type="date" name="to" value={typed.to} onInput={set('to')} />
        </label>
        <button type="submit">Apply filters</button>
      </form>
      <p>
        <a href={csvAddressOf(applied)} download>
          Download these entries as CSV
        </a>
      </p>
      <Listing list={list} what="the audit log" empty="No entries match these filters.">
        {(entries) => <Entries entries={entries} actorAddress={(actor) => addressOf({ ...applied, actor })} />}
      </Listing>
    </section>
  );
}

/** Who acted, by name: a team member's name (else e-mail), a key's name and prefix; by id once they are gone. */
function Actor({ actor, address }: { actor: Entry['actor']; address: (id: string) => string }) {
  if (actor.type === 'anonymous') return <>Anonymous</>;
  const label =
    actor.type === 'user' ? (actor.name ?? actor.email ?? 'Former team member') : actor.name !== null ? `API key “${actor.name}”` : 'Unknown API key';
  const detail = actor.type === 'user' ? (actor.name !== null ? actor.email : null) : actor.prefix !== null ? `${actor.prefix}…` : null;
  return (
    <>
      <a href={address(actor.id)} title="Only this actor’s entries">
        {label}
      </a>
      {detail ? <small> {detail}</small> : null}
      {label === 'Former team member' || label === 'Unknown API key' ? <code> {actor.id}</code> : null}
    </>
  );
}

function Target({ target }: { target: Entry['target'] }) {
  return (
    <>
      {target.type}{' '}
      {target.href ? (
        <a href={target.href}>
          <code>{target.id}</code>
        </a>
      ) : (
        <code>{target.id}</code>
      )}
    </>
  );
}

function Entries({ entries, actorAddress }: { entries: Entry[]; actorAddress: (id: string) => string }) {
  return (
    <table>
      <caption>Newest first</caption>
      <TableHead columns={['When', 'Action', 'Who', 'Target', 'What changed', 'Outcome']} />
      <tbody>
        {entries.map((e) => (
          <tr key={e.id}>
            <td>{when(e.occurredAt)}</td>
            <td>
              <code>{e.action}</code>
            </td>
            <td>
              <Actor actor={e.actor} address={actorAddress} />
            </td>
            <td>
              <Target target={e.target} />
            </td>
            <td>{e.changes ? <Changes changes={e.changes} /> : '—'}</td>
            <td>{e.outcome === 'failure' && e.reason ? `failure (${e.reason})` : e.outcome}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
