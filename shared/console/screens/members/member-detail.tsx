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
import { AdjustPoints } from './adjust-points';
import { MemberOrders } from './member-orders';
import { MemberRedemptions } from './member-redemptions';
import { MemberTags } from './member-tags';
import { Failure, Loading, when } from '../../ui/feedback';
import { Listing, TableHead } from '../../ui/tables';

type Member = components['schemas']['Member'];
type Tier = components['schemas']['TierStatus'];

/**
 * One member (`/console/members/:id`), what a support call needs: profile, tier, tags (editable),
 * orders with their refunds, points expiring by date, the points ledger, the balance explained at a
 * moment, and coupons; points adjusted with a reason and confirmed; erasure.
 */
export function MemberDetail() {
  const id = useRoute().params.id!;
  const [round, setRound] = useState(0);
  // What the last change did, said above the forms: the member reloads after it.
  const [notice, setNotice] = useState<string | null>(null);
  const profile = useLoad(() => unwrap(api.GET('/api/flash/members/{id}', { params: { path: { id } } })), [id, round]);
  const changed = (confirmation?: string) => {
    setNotice(confirmation ?? null);
    setRound((r) => r + 1);
  };
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
          {notice ? (
            <p class="card" role="status">
              {notice}
            </p>
          ) : null}
          {profile.data.data.erasedAt ? null : (
            <MemberTags id={id} tags={profile.data.data.member.tags} editable={may('POST /api/flash/members/{id}/tags')} onChanged={changed} />
          )}
          {profile.data.data.erasedAt ? (
            <p class="card" role="status">
              Erased {when(profile.data.data.erasedAt)}: the personal data is gone, the ledger stays.
            </p>
          ) : may('POST /api/flash/members/{id}/points') ? (
            <AdjustPoints id={id} onAdjusted={changed} />
          ) : null}
          <Expiring id={id} round={round} />
          <MemberOrders id={id} />
          {may('GET /api/flash/members/{id}/redemptions') ? <MemberRedemptions id={id} onVoided={changed} /> : null}
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
      <dt>Joined</dt>
      <dd>{when(member.createdAt)}</dd>
    </dl>
  );
}

/** Points by the date they expire, next first: what a member asks about before it is gone. */
function Expiring({ id, round }: { id: string; round: number }) {
  const points = useLoad(() => unwrap(api.GET('/api/flash/members/{id}/points', { params: { path: { id }, query: { limit: 1 } } })), [id, round]);
  return (
    <section class="card" aria-labelledby="expiring-title">
      <h2 id="expiring-title">Points expiring</h2>
      {points.state === 'loading' ? <Loading what="expiring points" /> : null}
      {points.state === 'failed' ? <Failure error={points.error} /> : null}
      {points.state === 'ready' ? (
        points.data.data.expiring.length ? (
          <table>
            <caption>Next dates first</caption>
            <TableHead columns={['Expires', 'Points']} />
            <tbody>
              {points.data.data.expiring.map((e) => (
                <tr key={e.expiresAt}>
                  <td>{when(e.expiresAt)}</td>
                  <td>{e.points}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <p>No points due to expire.</p>
        )
      ) : null}
    </section>
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
                  <td>{e.outsideTier ? `${e.type} (outside the tier)` : e.type}</td>
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
