import { useState } from 'preact/hooks';
import type { components, operations } from '../../../client/schema';
import { api, unwrap } from '../../api';
import { usePaged } from '../../hooks/use-paged';
import { when } from '../../ui/feedback';
import { Listing, TableHead } from '../../ui/tables';
import { PLATFORM } from '../../platform';

type Query = NonNullable<operations['listAuditEntries']['parameters']['query']>;
type Entry = components['schemas']['AuditEntry'];

/** A date input's day as the instant its local day starts (`to` is exclusive: the day after). */
const dayStart = (day: string, plusDays = 0): string | undefined => {
  if (!day) return undefined;
  const d = new Date(`${day}T00:00:00`);
  d.setDate(d.getDate() + plusDays);
  return d.toISOString();
};

export function AuditLog() {
  const [filters, setFilters] = useState<{ action: string; actor: string; from: string; to: string }>({ action: '', actor: '', from: '', to: '' });
  const [applied, setApplied] = useState(filters);
  const query: Query = {
    limit: 25,
    ...(applied.action ? { action: applied.action as Query['action'] } : {}),
    ...(applied.actor ? { actor: applied.actor } : {}),
    ...(applied.from ? { from: dayStart(applied.from) } : {}),
    ...(applied.to ? { to: dayStart(applied.to, 1) } : {}),
  };
  const list = usePaged((page) => unwrap(api.GET('/api/flash/audit', { params: { query: { ...query, ...page } } })), [JSON.stringify(query)]);
  const set = (k: keyof typeof filters) => (e: Event) => setFilters({ ...filters, [k]: (e.currentTarget as HTMLInputElement).value });
  return (
    <section aria-labelledby="audit-title">
      <h1 id="audit-title">Audit log</h1>
      <form
        class="filters"
        aria-label="Filter the audit log"
        onSubmit={(e) => {
          e.preventDefault();
          list.paging.first();
          setApplied(filters);
        }}
      >
        <label>
          Action
          <select name="action" value={filters.action} onChange={set('action')}>
            <option value="">Every action</option>
            {PLATFORM.auditActions.map((a) => (
              <option key={a} value={a}>
                {a}
              </option>
            ))}
          </select>
        </label>
        <label>
          Actor id
          <input name="actor" placeholder="usr_… or key_…" value={filters.actor} onInput={set('actor')} />
        </label>
        <label>
          From
          <input type="date" name="from" value={filters.from} onInput={set('from')} />
        </label>
        <label>
          To
          <input type="date" name="to" value={filters.to} onInput={set('to')} />
        </label>
        <button type="submit">Apply filters</button>
      </form>
      <Listing list={list} what="the audit log" empty="No entries match these filters.">
        {(entries) => <Entries entries={entries} />}
      </Listing>
    </section>
  );
}

function Entries({ entries }: { entries: Entry[] }) {
  return (
    <table>
      <caption>Newest first</caption>
      <TableHead columns={['When', 'Action', 'Actor', 'Target', 'Outcome']} />
      <tbody>
        {entries.map((e) => (
          <tr key={e.id}>
            <td>{when(e.occurredAt)}</td>
            <td>
              <code>{e.action}</code>
            </td>
            <td>{'id' in e.actor && e.actor.id ? <code>{e.actor.id}</code> : e.actor.type}</td>
            <td>
              {e.target.type} <code>{e.target.id}</code>
            </td>
            <td>{e.outcome}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
