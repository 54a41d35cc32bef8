import { useLocation } from 'preact-iso/router';
import { useEffect, useState } from 'preact/hooks';
import type { components } from '../../../client/schema';
import { api, unwrap } from '../../api';
import { to } from '../../paths';
import { usePaged } from '../../hooks/use-paged';
import { when } from '../../ui/feedback';
import { Listing, TableHead } from '../../ui/tables';
import { nameOf } from './member-name';

type Member = components['schemas']['Member'];

/** The search: an e-mail (it has an @) or an externalId finds the one member; nothing typed lists them all. */
const searchQuery = (text: string) => {
  const t = text.trim();
  if (!t) return {};
  return t.includes('@') ? { email: t } : { externalId: t };
};

/** The list, searched by the address's `search` (so Back from a member returns to the same search). */
export function Members() {
  const { query, route } = useLocation();
  const search = query.search ?? '';
  const [typed, setTyped] = useState(search);
  // The search field shows the address's search, also when the address changes (Back, the navigation).
  useEffect(() => setTyped(search), [search]);
  const list = usePaged((page) => unwrap(api.GET('/api/flash/members', { params: { query: { limit: 20, ...searchQuery(search), ...page } } })), [search]);
  return (
    <section aria-labelledby="members-title">
      <h1 id="members-title">Members</h1>
      <form
        class="filters"
        aria-label="Find a member"
        onSubmit={(e) => {
          e.preventDefault();
          list.paging.first();
          const t = typed.trim();
          route(t ? `${to.members}?${new URLSearchParams({ search: t })}` : to.members, true);
          // The same search again (or the whole list again) reads afresh.
          list.reload();
        }}
      >
        <label>
          E-mail or externalId
          <input name="search" value={typed} placeholder="ada@example.com or crm-10042" onInput={(e) => setTyped(e.currentTarget.value)} />
        </label>
        <button type="submit">Search</button>
      </form>
      <Listing list={list} what="members" empty={search ? `No member has the e-mail or externalId “${search}”.` : 'No members yet.'}>
        {(members) => <MemberTable members={members} />}
      </Listing>
    </section>
  );
}

function MemberTable({ members }: { members: Member[] }) {
  return (
    <table>
      <caption>Newest first</caption>
      <TableHead columns={['Member', 'E-mail', 'externalId', 'Tier', 'Balance', 'Joined']} />
      <tbody>
        {members.map((m) => (
          <tr key={m.id}>
            <td>
              <a href={to.member(m.id)}>{nameOf(m)}</a>
            </td>
            <td>{m.email ?? '—'}</td>
            <td>{m.externalId ? <code>{m.externalId}</code> : '—'}</td>
            <td>{m.tier}</td>
            <td>{m.points.balance}</td>
            <td>{when(m.createdAt)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
