import { useState } from 'preact/hooks';
import type { components } from '../../client/schema';
import { api, unwrap } from '../api';
import { Empty, Failure, Loading, Pager, useCursor, useLoad, when } from '../components';
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
  const paging = useCursor();
  const query = { limit: 20, ...searchQuery(search), ...(paging.cursor ? { cursor: paging.cursor } : {}) };
  const list = useLoad(() => unwrap(api.GET('/api/flash/members', { params: { query } })), JSON.stringify(query));
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
          paging.first();
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
      {list.state === 'loading' ? <Loading what="members" /> : null}
      {list.state === 'failed' ? <Failure error={list.error} /> : null}
      {list.state === 'ready' && list.data.data.length === 0 ? (
        <Empty>{search.trim() ? `No member has the e-mail or externalId “${search.trim()}”.` : 'No members yet.'}</Empty>
      ) : null}
      {list.state === 'ready' && list.data.data.length > 0 ? (
        <>
          <MemberTable members={list.data.data} onOpen={setOpen} />
          <Pager nextCursor={list.data.nextCursor} paging={paging} />
        </>
      ) : null}
    </section>
  );
}

function MemberTable({ members, onOpen }: { members: Member[]; onOpen: (id: string) => void }) {
  return (
    <table>
      <caption>Newest first</caption>
      <thead>
        <tr>
          <th scope="col">Member</th>
          <th scope="col">E-mail</th>
          <th scope="col">externalId</th>
          <th scope="col">Tier</th>
          <th scope="col">Balance</th>
          <th scope="col">Joined</th>
        </tr>
      </thead>
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
