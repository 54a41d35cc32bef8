import { useState } from 'preact/hooks';
import type { components } from '../../../client/schema';
import { api, unwrap } from '../../api';
import { useSubmit } from '../../hooks/use-submit';
import { Failure } from '../../ui/feedback';
import { FieldError, fieldErrors, NumberField } from '../../ui/fields';
import type { Campaign } from './drafts';

type Simulation = components['schemas']['CampaignSimulation'];

/** Tries an order on the live campaigns: the same evaluation a real order gets, and nothing is stored. */
export function SimulateOrder({ campaigns }: { campaigns: Campaign[] }) {
  const [total, setTotal] = useState(100);
  const [currency, setCurrency] = useState('EUR');
  const [memberId, setMemberId] = useState('');
  const [skus, setSkus] = useState('');
  const [result, setResult] = useState<Simulation>();
  const { onSubmit, busy, error } = useSubmit(async () => {
    setResult(undefined);
    const items = skus
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)
      .map((sku) => ({ sku }));
    const order = { total, currency, ...(items.length ? { items } : {}) };
    setResult((await unwrap(api.POST('/api/flash/campaigns/simulate', { body: { order, ...(memberId.trim() ? { memberId: memberId.trim() } : {}) } }))).data);
  });
  const errors = fieldErrors(error);
  return (
    <form class="card" noValidate onSubmit={onSubmit} aria-labelledby="simulate-title">
      <h3 id="simulate-title">Simulate an order</h3>
      <p>What an order would earn now with the live campaigns; nothing is recorded.</p>
      <NumberField label="Order total" name="simulateTotal" step="0.01" min={0} value={total} onValue={setTotal} error={errors['order.total']} />
      <label>
        Currency
        <input name="simulateCurrency" value={currency} aria-describedby="err-simulateCurrency" onInput={(e) => setCurrency(e.currentTarget.value)} />
        <FieldError id="err-simulateCurrency" message={errors['order.currency']} />
      </label>
      <label>
        Member id (optional: a new member otherwise)
        <input
          name="simulateMember"
          placeholder="mbr_…"
          value={memberId}
          aria-describedby="err-simulateMember"
          onInput={(e) => setMemberId(e.currentTarget.value)}
        />
        <FieldError id="err-simulateMember" message={errors.memberId} />
      </label>
      <label>
        Item SKUs (optional, comma-separated)
        <input name="simulateSkus" value={skus} onInput={(e) => setSkus(e.currentTarget.value)} />
      </label>
      {error ? <Failure error={error} /> : null}
      <button type="submit" disabled={busy}>
        Simulate
      </button>
      {result ? <SimulationResult result={result} campaigns={campaigns} /> : null}
    </form>
  );
}

function SimulationResult({ result, campaigns }: { result: Simulation; campaigns: Campaign[] }) {
  const nameOf = (id: string) => campaigns.find((c) => c.id === id)?.name ?? id;
  return (
    <section role="status" aria-labelledby="simulation-title" data-testid="simulation">
      <h4 id="simulation-title">The order would earn {result.totalPoints} points</h4>
      <p>Base points: {result.basePoints}</p>
      {result.grants.length === 0 ? (
        <p>No campaign grants anything for this order.</p>
      ) : (
        <ul>
          {result.grants.map((g) => (
            <li key={g.campaignId}>
              {nameOf(g.campaignId)}: +{g.points} points{g.poolId ? `, a coupon of ${g.poolId}` : ''} ({g.reason})
            </li>
          ))}
        </ul>
      )}
      <p>Total: {result.totalPoints} points</p>
    </section>
  );
}
