import { useState } from 'preact/hooks';
import type { components } from '../../../client/schema';
import { api, unwrap } from '../../api';
import { useSubmit } from '../../hooks/use-submit';
import { Failure, when } from '../../ui/feedback';
import { TableHead } from '../../ui/tables';

type PointsAt = components['schemas']['PointsAtMoment'];

const WINDOWS: Record<PointsAt['tier']['window'], string> = {
  lifetime: 'over the member’s lifetime',
  rolling_365_days: 'over the 365 days before',
  calendar_year: 'in the calendar year',
};

/** A datetime-local value (the reader's time zone, to the second) as an instant; '' is now. */
const instantOf = (local: string): string | undefined => (local ? new Date(local).toISOString() : undefined);

/**
 * The member's points as they stood at a moment the user picks (empty: now), replayed from the
 * ledger: balance, pending, lifetime, the open lots with their expiry, what waited, and the tier
 * with the metric and window that decided it.
 */
export function ExplainPanel({ id }: { id: string }) {
  const [moment, setMoment] = useState('');
  const [answer, setAnswer] = useState<PointsAt>();
  const { onSubmit, busy, error } = useSubmit(async () => {
    const at = instantOf(moment);
    const res = await unwrap(api.GET('/api/flash/members/{id}/explain', { params: { path: { id }, query: at ? { at } : {} } }));
    setAnswer(res.data);
  });
  return (
    <section class="card" aria-labelledby="explain-title">
      <h2 id="explain-title">Explain the balance</h2>
      <form onSubmit={onSubmit}>
        <label>
          At (empty: now)
          <input name="at" type="datetime-local" step={1} value={moment} onInput={(e) => setMoment(e.currentTarget.value)} />
        </label>
        <button type="submit" disabled={busy}>
          Explain
        </button>
      </form>
      {error ? <Failure error={error} /> : null}
      {answer ? <Explained x={answer} /> : null}
    </section>
  );
}

function Explained({ x }: { x: PointsAt }) {
  return (
    <div data-testid="explained">
      <dl class="facts">
        <dt>At</dt>
        <dd>{when(x.at)}</dd>
        <dt>Points</dt>
        <dd>
          <span data-testid="explained-balance">{x.points.balance}</span> spendable, <span data-testid="explained-pending">{x.points.pending}</span> pending,{' '}
          {x.points.lifetime} lifetime
        </dd>
        <dt>Tier</dt>
        <dd data-testid="explained-tier">
          {x.tier.key}: {x.tier.value} {x.tier.metric === 'order_count' ? 'orders' : 'points'} {WINDOWS[x.tier.window]}
          {x.tier.windowFrom ? ` (from ${when(x.tier.windowFrom)})` : ''}
          {x.tier.retainedUntil ? `, kept until ${when(x.tier.retainedUntil)}` : ''}
        </dd>
        <dt>Ledger</dt>
        <dd>
          {x.ledger.replayed} entries replayed{x.ledger.truncated ? ' (the most one explanation reads: later entries not included)' : ''}
        </dd>
      </dl>
      {x.lots.length ? (
        <table>
          <caption>Open lots, spent in this order</caption>
          <TableHead columns={['Points', 'Earned', 'Expires', 'Order']} />
          <tbody>
            {x.lots.map((l) => (
              <tr key={l.entryId}>
                <td>{l.points}</td>
                <td>{when(l.earnedAt)}</td>
                <td>{l.expiresAt ? when(l.expiresAt) : 'Never'}</td>
                <td>{l.orderId ?? '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p>No open lots.</p>
      )}
      {x.waiting.length ? (
        <table>
          <caption>Waiting to become spendable</caption>
          <TableHead columns={['Points', 'Order', 'Spendable from']} />
          <tbody>
            {x.waiting.map((w) => (
              <tr key={w.orderId}>
                <td>{w.points}</td>
                <td>{w.orderId}</td>
                <td>{when(w.activatesAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </div>
  );
}
