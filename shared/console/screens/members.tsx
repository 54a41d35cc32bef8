import { useState } from 'preact/hooks';
import type { components } from '../../client/schema';
import { api, unwrap } from '../api';
import { Listing, TableHead, usePaged, when } from '../components';
import { MemberDetail, nameOf } from './member-detail';

type Member = components['schemas']['Member'];

/** The search: an e-mail (it has an @) or an externalId finds the one member; nothing typed lists them all. */
const searchQuery = (text: string) => {
  const t = text.trim();
  if (!t) return {};
  return t.includes('@') ? { email: t } : { externalId: t };
};

export function Members() {
  const [typed, setTyped] = useState('');
  const [search, setSearch] = useState('');
  const [open, setOpen] = useState<string>();
  const query = { limit: 20, ...searchQuery(search) };
  const list = usePaged((page) => unwrap(api.GET('/api/flash/members', { params: { query: { ...query, ...page } } })), JSON.stringify(query));
  if (open) {
    return (
      <MemberDetail
        id={open}
        onBack={() => {
          setOpen(undefined);
          list.reload();
        }}
      />
    );
  }
  return (
    <section aria-labelledby="members-title">
      <h1 id="members-title">Members</h1>
      <form
        class="filters"
        aria-label="Find a member"
        onSubmit={(e) => {
          e.preventDefault();
          list.paging.first();
          setSearch(typed);
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
      <Listing list={list} what="members" empty={search.trim() ? `No member has the e-mail or externalId “${search.trim()}”.` : 'No members yet.'}>
        {(members) => <MemberTable members={members} onOpen={setOpen} />}
      </Listing>
    </section>
  );
}

function MemberTable({ members, onOpen }: { members: Member[]; onOpen: (id: string) => void }) {
  return (
    <table>
      <caption>Newest first</caption>
      <TableHead columns={['Member', 'E-mail', 'externalId', 'Tier', 'Balance', 'Joined']} />
      <tbody>
        {members.map((m) => (
          <tr key={m.id}>
            <td>
              <button type="button" class="link" onClick={() => onOpen(m.id)}>
                {nameOf(m)}
              </button>
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
