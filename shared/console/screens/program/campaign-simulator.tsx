import { useState } from 'preact/hooks';
import type { components } from '../../../client/schema';
import { api, unwrap } from '../../api';
import { useSubmit } from '../../hooks/use-submit';
import { Failure } from '../../ui/feedback';
import { FieldError, fieldErrors, NumberField } from '../../ui/fields';
import { TableHead } from '../../ui/tables';
import type { Campaign } from './drafts';

type Simulation = components['schemas']['CampaignSimulation'];
type Outcome = components['schemas']['CampaignVerdict']['outcome'];

/** Each outcome in words, for the list of every campaign the order met. */
const OUTCOME: Record<Outcome, string> = {
  granted: 'Granted',
  not_live: 'Not live',
  backdated: 'Order too old',
  outside_window: 'Outside its dates',
  condition_failed: 'A condition fails',
  not_stackable: 'Not stackable',
  member_limit: 'Member limit reached',
  budget_spent: 'Budget spent',
  pool_empty: 'Pool empty',
  pool_unavailable: 'Pool unavailable',
  nothing_to_grant: 'Nothing to grant',
};

const listed = (text: string) =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/** The member as typed: an e-mail is looked up, anything else is taken as a member id. */
const memberOf = (text: string) => (text.includes('@') ? { member: { email: text } } : text ? { memberId: text } : {});

/** Tries an order on the campaigns: the evaluation a real order gets, with why each campaign grants or not; nothing is stored. */
export function SimulateOrder({ campaigns }: { campaigns: Campaign[] }) {
  const [total, setTotal] = useState(100);
  const [currency, setCurrency] = useState('EUR');
  const [member, setMember] = useState('');
  const [when, setWhen] = useState('');
  const [skus, setSkus] = useState('');
  const [brands, setBrands] = useState('');
  const [result, setResult] = useState<Simulation>();
  const { onSubmit, busy, error } = useSubmit(async () => {
    setResult(undefined);
    const items = [...listed(skus).map((sku) => ({ sku })), ...listed(brands).map((brand) => ({ brand }))];
    // The input is a local date and time: the browser's time zone gives it its instant.
    const occurredAt = when ? { occurredAt: new Date(when).toISOString() } : {};
    const order = { total, currency, ...(items.length ? { items } : {}), ...occurredAt, ...memberOf(member.trim()) };
    setResult((await unwrap(api.POST('/api/flash/campaigns/simulate', { body: { order } }))).data);
  });
  const errors = fieldErrors(error);
  return (
    <form class="card" noValidate onSubmit={onSubmit} aria-labelledby="simulate-title">
      <h3 id="simulate-title">Simulate an order</h3>
      <p>What an order would earn with the campaigns, counting the member's grants so far, budgets and coupon stock; nothing is recorded.</p>
      <NumberField label="Order total" name="simulateTotal" step="0.01" min={0} value={total} onValue={setTotal} error={errors['order.total']} />
      <label>
        Currency
        <input name="simulateCurrency" value={currency} aria-describedby="err-simulateCurrency" onInput={(e) => setCurrency(e.currentTarget.value)} />
        <FieldError id="err-simulateCurrency" message={errors['order.currency']} />
      </label>
      <label>
        Placed at (your time; empty: now)
        <input type="datetime-local" name="simulateAt" value={when} aria-describedby="err-simulateAt" onInput={(e) => setWhen(e.currentTarget.value)} />
        <FieldError id="err-simulateAt" message={errors['order.occurredAt']} />
      </label>
      <label>
        Member e-mail or id (optional: a new member otherwise)
        <input
          name="simulateMember"
          placeholder="ada@example.com or mbr_…"
          value={member}
          aria-describedby="err-simulateMember"
          onInput={(e) => setMember(e.currentTarget.value)}
        />
        <FieldError id="err-simulateMember" message={errors['order.member.email'] ?? errors['order.memberId']} />
      </label>
      <label>
        Item SKUs (optional, comma-separated)
        <input name="simulateSkus" value={skus} onInput={(e) => setSkus(e.currentTarget.value)} />
      </label>
      <label>
        Item brands (optional, comma-separated)
        <input name="simulateBrands" value={brands} onInput={(e) => setBrands(e.currentTarget.value)} />
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
  const nameOf = (id: string) => campaigns.find((c) => c.id === id)?.name ?? result.campaigns.find((c) => c.campaignId === id)?.name ?? id;
  return (
    <section role="status" aria-labelledby="simulation-title" data-testid="simulation">
      <h4 id="simulation-title">The order would earn {result.totalPoints} points</h4>
      <p>
        Base points: {result.basePoints}. Placed at {new Date(result.occurredAt).toLocaleString()}, by{' '}
        {result.memberId ? `member ${result.memberId}` : 'a new member'}.
      </p>
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
      {result.campaigns.length ? (
        <table aria-label="Why each campaign grants or not">
          <TableHead columns={['Campaign', 'Outcome', 'Why']} />
          <tbody>
            {result.campaigns.map((c) => (
              <tr key={c.campaignId}>
                <td>{c.name}</td>
                <td>{OUTCOME[c.outcome]}</td>
                <td>{c.reason}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}
