import { useLocation } from 'preact-iso/router';
import { useEffect, useState } from 'preact/hooks';
import type { components } from '../../../client/schema';
import { api, unwrap } from '../../api';
import { to } from '../../paths';
import { useLoad } from '../../hooks/use-load';
import { usePaged } from '../../hooks/use-paged';
import { when } from '../../ui/feedback';
import { Listing, TableHead } from '../../ui/tables';
import { nameOf } from './member-name';

type Member = components['schemas']['Member'];

/** What the list is narrowed by, all in the address (so Back from a member returns to the same list). */
const FILTERS = ['search', 'tier', 'status', 'tag'] as const;
type Filters = Record<(typeof FILTERS)[number], string>;

const STATUSES = [
  { value: 'active', label: 'Active' },
  { value: 'unenrolled', label: 'Unenrolled' },
] as const;

/** The API's query for the filters: the search is free text (part of a name, e-mail, phone or externalId). */
function queryOf(f: Filters) {
  const q = f.search.trim();
  const status = STATUSES.find((s) => s.value === f.status)?.value;
  return {
    ...(q ? { q } : {}),
    ...(f.tier ? { tier: f.tier } : {}),
    ...(status ? { status } : {}),
    ...(f.tag.trim() ? { tag: f.tag.trim() } : {}),
  };
}

const addressOf = (f: Filters) => {
  const kept = Object.entries(f).filter(([, v]) => v.trim());
  return kept.length ? `${to.members}?${new URLSearchParams(kept)}` : to.members;
};

/** The list, found by the address's search and filters; tiers by their names. */
export function Members() {
  const { query, route } = useLocation();
  const applied = Object.fromEntries(FILTERS.map((k) => [k, query[k] ?? ''])) as Filters;
  const key = addressOf(applied);
  const [typed, setTyped] = useState(applied);
  // The form shows the address's filters, also when the address changes (Back, the navigation).
  useEffect(() => setTyped(applied), [key]);
  const tiers = useLoad(() => unwrap(api.GET('/api/flash/program')).then((p) => p.data.tiers.levels), []);
  const tierName = (k: string) => (tiers.state === 'ready' ? (tiers.data.find((l) => l.key === k)?.name ?? k) : k);
  const list = usePaged((page) => unwrap(api.GET('/api/flash/members', { params: { query: { limit: 20, ...queryOf(applied), ...page } } })), [key]);
  const set = (k: keyof Filters) => (e: { currentTarget: { value: string } }) => setTyped({ ...typed, [k]: e.currentTarget.value });
  const narrowed = key !== to.members;
  return (
    <section aria-labelledby="members-title">
      <h1 id="members-title">Members</h1>
      <form
        class="filters"
        aria-label="Find members"
        onSubmit={(e) => {
          e.preventDefault();
          list.paging.first();
          route(addressOf(typed), true);
          // The same search again (or the whole list again) reads afresh.
          list.reload();
        }}
      >
        <label>
          Name, e-mail, phone or externalId
          <input name="search" type="search" value={typed.search} placeholder="Ada, @example.com, crm-10042" onInput={set('search')} />
        </label>
        <label>
          Tier
          <select name="tier" value={typed.tier} onChange={set('tier')}>
            <option value="">Any tier</option>
            {tiers.state === 'ready'
              ? tiers.data.map((l) => (
                  <option key={l.key} value={l.key}>
                    {l.name}
                  </option>
                ))
              : null}
          </select>
        </label>
        <label>
          Status
          <select name="status" value={typed.status} onChange={set('status')}>
            <option value="">Any status</option>
            {STATUSES.map((s) => (
              <option key={s.value} value={s.value}>
                {s.label}
              </option>
            ))}
          </select>
        </label>
        <label>
          Tag
          <input name="tag" value={typed.tag} placeholder="vip" onInput={set('tag')} />
        </label>
        <button type="submit">Search</button>
      </form>
      <Listing list={list} what="members" empty={narrowed ? 'No member matches this search.' : 'No members yet.'}>
        {(members) => <MemberTable members={members} tierName={tierName} />}
      </Listing>
    </section>
  );
}

function MemberTable({ members, tierName }: { members: Member[]; tierName: (key: string) => string }) {
  return (
    <table>
      <caption>Newest first</caption>
      <TableHead columns={['Member', 'E-mail', 'externalId', 'Tier', 'Balance', 'Joined']} />
      <tbody>
        {members.map((m) => (
          <tr key={m.id}>
            <td>
              <a href={to.member(m.id)}>{nameOf(m)}</a>
              {m.status === 'unenrolled' ? ' (unenrolled)' : null}
            </td>
            <td>{m.email ?? '—'}</td>
            <td>{m.externalId ? <code>{m.externalId}</code> : '—'}</td>
            <td>{tierName(m.tier)}</td>
            <td>{m.points.balance}</td>
            <td>{when(m.createdAt)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
