import { useRoute } from 'preact-iso/router';
import { useState } from 'preact/hooks';
import type { components } from '../../../client/schema';
import { api, unwrap } from '../../api';
import { to } from '../../paths';
import { useLoad } from '../../hooks/use-load';
import { usePaged } from '../../hooks/use-paged';
import { useSubmit } from '../../hooks/use-submit';
import { useMay } from '../../permissions';
import { nameOf } from './member-name';
import { ExplainPanel } from './explain-panel';
import { Failure, Loading, when } from '../../ui/feedback';
import { Listing, TableHead } from '../../ui/tables';

type Member = components['schemas']['Member'];
type Tier = components['schemas']['TierStatus'];

/** One member (`/console/members/:id`): profile, tier, tags, points ledger, the balance explained at a moment, and coupons; points adjusted with a reason; erasure. */
export function MemberDetail() {
  const id = useRoute().params.id!;
  const [round, setRound] = useState(0);
  const profile = useLoad(() => unwrap(api.GET('/api/flash/members/{id}', { params: { path: { id } } })), [id, round]);
  const changed = () => setRound((r) => r + 1);
  const may = useMay();
  return (
    <section aria-labelledby="member-title">
      <p>
        <a href={to.members}>← All members</a>
      </p>
      {profile.state === 'loading' ? <Loading what="the member" /> : null}
      {profile.state === 'failed' ? <Failure error={profile.error} /> : null}
      {profile.state === 'ready' ? (
        <>
          <h1 id="member-title">{nameOf(profile.data.data.member)}</h1>
          <Profile member={profile.data.data.member} tier={profile.data.data.tier} />
          {profile.data.data.erasedAt ? (
            <p class="card" role="status">
              Erased {when(profile.data.data.erasedAt)}: the personal data is gone, the ledger stays.
            </p>
          ) : may('POST /api/flash/members/{id}/points') ? (
            <AdjustPoints id={id} onAdjusted={changed} />
          ) : null}
          <Ledger id={id} round={round} />
          <ExplainPanel id={id} />
          <Coupons id={id} />
          {profile.data.data.erasedAt || !may('POST /api/flash/members/{id}/erasure') ? null : <Erase member={profile.data.data.member} onErased={changed} />}
        </>
      ) : null}
    </section>
  );
}

function Profile({ member, tier }: { member: Member; tier: Tier }) {
  return (
    <dl class="card facts">
      <dt>Member id</dt>
      <dd>
        <code>{member.id}</code>
      </dd>
      <dt>E-mail</dt>
      <dd>{member.email ?? '—'}</dd>
      <dt>externalId</dt>
      <dd>{member.externalId ?? '—'}</dd>
      <dt>Status</dt>
      <dd>{member.status}</dd>
      <dt>Points</dt>
      <dd>
        <span data-testid="balance">{member.points.balance}</span> spendable, {member.points.pending} pending, {member.points.lifetime} lifetime
      </dd>
      <dt>Tier</dt>
      <dd>
        {tier.current.name}
        {tier.next ? ` (${tier.remaining} to ${tier.next.name})` : ' (top tier)'}
      </dd>
      <dt>Tags</dt>
      <dd>{member.tags.length ? member.tags.join(', ') : 'None'}</dd>
      <dt>Joined</dt>
      <dd>{when(member.createdAt)}</dd>
    </dl>
  );
}

function AdjustPoints({ id, onAdjusted }: { id: string; onAdjusted: () => void }) {
  const [type, setType] = useState<'earn' | 'deduct'>('earn');
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const { onSubmit, busy, error } = useSubmit(async () => {
    await unwrap(api.POST('/api/flash/members/{id}/points', { params: { path: { id } }, body: { type, amount: Number(amount), reason } }));
    setAmount('');
    setReason('');
    onAdjusted();
  });
  return (
    <form class="card" aria-labelledby="adjust-title" onSubmit={onSubmit}>
      <h2 id="adjust-title">Adjust points</h2>
      <label>
        Direction
        <select name="type" value={type} onChange={(e) => setType(e.currentTarget.value as typeof type)}>
          <option value="earn">Add points</option>
          <option value="deduct">Deduct points</option>
        </select>
      </label>
      <label>
        Number of points
        <input name="amount" type="number" min={1} step={1} required value={amount} onInput={(e) => setAmount(e.currentTarget.value)} />
      </label>
      <label>
        Reason
        <input name="reason" required maxLength={500} value={reason} onInput={(e) => setReason(e.currentTarget.value)} />
      </label>
      {error ? <Failure error={error} /> : null}
      <button type="submit" disabled={busy}>
        Adjust points
      </button>
    </form>
  );
}

function Ledger({ id, round }: { id: string; round: number }) {
  const list = usePaged(
    (page) =>
      unwrap(api.GET('/api/flash/members/{id}/points', { params: { path: { id }, query: { limit: 10, ...page } } })).then((p) => ({
        data: p.data.entries,
        nextCursor: p.nextCursor,
      })),
    [id, round],
  );
  return (
    <section class="card" aria-labelledby="ledger-title">
      <h2 id="ledger-title">Points ledger</h2>
      <Listing list={list} what="the ledger" empty="No points earned or spent yet.">
        {(entries) => (
          <table>
            <caption>Newest first</caption>
            <TableHead columns={['When', 'Type', 'Points', 'Balance after', 'Reason']} />
            <tbody>
              {entries.map((e) => (
                <tr key={e.id}>
                  <td>{when(e.createdAt)}</td>
                  <td>{e.type}</td>
                  <td>{e.amount > 0 ? `+${e.amount}` : e.amount}</td>
                  <td>{e.balanceAfter}</td>
                  <td>{e.reason ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Listing>
    </section>
  );
}

function Coupons({ id }: { id: string }) {
  const list = usePaged((page) => unwrap(api.GET('/api/flash/members/{id}/coupons', { params: { path: { id }, query: { limit: 10, ...page } } })), [id]);
  return (
    <section class="card" aria-labelledby="coupons-title">
      <h2 id="coupons-title">Coupons</h2>
      <Listing list={list} what="coupons" empty="No coupons issued to this member.">
        {(coupons) => (
          <table>
            <caption>Newest first</caption>
            <TableHead columns={['Code', 'Status', 'Issued', 'Valid until']} />
            <tbody>
              {coupons.map((c) => (
                <tr key={c.id}>
                  <td>
                    <code>{c.code}</code>
                  </td>
                  <td>{c.status}</td>
                  <td>{when(c.issuedAt)}</td>
                  <td>{when(c.validUntil)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Listing>
    </section>
  );
}

/** Erasure cannot be undone: the user types the member's e-mail (or id, for a member without one) first. */
function Erase({ member, onErased }: { member: Member; onErased: () => void }) {
  const expected = member.email ?? member.id;
  const [asking, setAsking] = useState(false);
  const [typed, setTyped] = useState('');
  const { onSubmit, busy, error } = useSubmit(async () => {
    await unwrap(api.POST('/api/flash/members/{id}/erasure', { params: { path: { id: member.id } } }));
    onErased();
  });
  if (!asking) {
    return (
      <p>
        <button type="button" class="danger" onClick={() => setAsking(true)}>
          Erase this member…
        </button>
      </p>
    );
  }
  return (
    <form class="card confirm" aria-labelledby="erase-title" onSubmit={onSubmit}>
      <h2 id="erase-title">Erase {nameOf(member)}</h2>
      <p>
        Their personal data is removed everywhere and cannot be brought back; the points ledger and order totals stay, without a name. Type{' '}
        <code>{expected}</code> to confirm.
      </p>
      <label>
        Type {member.email ? 'the member’s e-mail' : 'the member id'} to confirm
        <input name="confirm" autoComplete="off" value={typed} onInput={(e) => setTyped(e.currentTarget.value)} />
      </label>
      {error ? <Failure error={error} /> : null}
      <button type="submit" class="danger" disabled={busy || typed.trim() !== expected}>
        Erase member
      </button>{' '}
      <button type="button" onClick={() => setAsking(false)}>
        Cancel
      </button>
    </form>
  );
}
