import { useState } from 'preact/hooks';
import { api, unwrap } from '../../api';
import { useSubmit } from '../../hooks/use-submit';
import { Failure } from '../../ui/feedback';

type Direction = 'earn' | 'deduct';

/** What the screen says once an adjustment is booked: what moved, where the balance stands, and whether the tier saw it. */
export function adjustedSentence(type: Direction, amount: number, balance: number, countTowardTier: boolean): string {
  const moved = type === 'earn' ? `Added ${amount} points` : `Deducted ${amount} points`;
  const kept = type === 'earn' && !countTowardTier ? ', kept out of the tier' : '';
  return `${moved}${kept}. The balance is now ${balance}.`;
}

/**
 * A manual earn or deduction with its reason; an earn may be kept out of the tier (a goodwill
 * gesture). `onAdjusted` gets the sentence to confirm it with: the screen reloads the member, so the
 * confirmation lives above this form.
 */
export function AdjustPoints({ id, onAdjusted }: { id: string; onAdjusted: (confirmation: string) => void }) {
  const [type, setType] = useState<Direction>('earn');
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [towardTier, setTowardTier] = useState(true);
  const { onSubmit, busy, error } = useSubmit(async () => {
    const goodwill = type === 'earn' && !towardTier;
    const res = await unwrap(
      api.POST('/api/flash/members/{id}/points', {
        params: { path: { id } },
        body: { type, amount: Number(amount), reason, ...(goodwill ? { countTowardTier: false } : {}) },
      }),
    );
    setAmount('');
    setReason('');
    setTowardTier(true);
    onAdjusted(adjustedSentence(type, Number(amount), res.data.points.balance, !goodwill));
  });
  return (
    <form class="card" aria-labelledby="adjust-title" onSubmit={onSubmit}>
      <h2 id="adjust-title">Adjust points</h2>
      <label>
        Direction
        <select name="type" value={type} onChange={(e) => setType(e.currentTarget.value as Direction)}>
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
      {type === 'earn' ? (
        <label class="check">
          <input type="checkbox" name="countTowardTier" checked={towardTier} onChange={(e) => setTowardTier(e.currentTarget.checked)} />
          Count toward the tier (clear it for a goodwill gesture: the points are spendable but lift no tier)
        </label>
      ) : null}
      {error ? <Failure error={error} /> : null}
      <button type="submit" disabled={busy}>
        Adjust points
      </button>
    </form>
  );
}
