import { useState } from 'preact/hooks';
import type { components } from '../../../client/schema';
import { api, unwrap } from '../../api';
import { expiryWith, parseDays } from './drafts';
import { useLoad } from '../../hooks/use-load';
import { useSubmit } from '../../hooks/use-submit';
import { Failure, Loading, when } from '../../ui/feedback';
import { errorAt, FieldError, fieldErrors, NumberField } from '../../ui/fields';
import { TableHead } from '../../ui/tables';
import { Campaigns } from './campaigns';
import { EarnRulesFields } from './earn-rules';
import { useMay } from '../../permissions';

type Program = components['schemas']['Program'];
type Level = Program['tiers']['levels'][number];
type Expiry = Program['points']['expiry'];
type Policy = Expiry['policy'];
type Draft = Pick<Program, 'earn' | 'tiers' | 'points' | 'orders' | 'timeZone' | 'version'>;
type Errors = Record<string, string>;
type Edit = { draft: Draft; set: (d: Draft) => void; errors: Errors };

export function ProgramRules() {
  const loaded = useLoad(() => unwrap(api.GET('/api/flash/program')), []);
  return (
    <section aria-labelledby="program-title">
      <h1 id="program-title">Program</h1>
      <p>
        How orders earn points, how points age, the tiers members climb and the campaigns that reward more. A change applies to what happens next; recorded
        orders keep their points.
      </p>
      {loaded.state === 'loading' ? <Loading what="the program" /> : null}
      {loaded.state === 'failed' ? <Failure error={loaded.error} /> : null}
      {loaded.state === 'ready' ? <RulesForm saved={loaded.data.data} /> : null}
      <Campaigns />
    </section>
  );
}

const draftOf = (p: Program): Draft => ({ earn: p.earn, tiers: p.tiers, points: p.points, orders: p.orders, timeZone: p.timeZone, version: p.version });

function RulesForm({ saved }: { saved: Program }) {
  const [draft, setDraft] = useState<Draft>(draftOf(saved));
  const [warnText, setWarnText] = useState(saved.points.warnDays.join(', '));
  const [updatedAt, setUpdatedAt] = useState(saved.updatedAt);
  const { onSubmit, busy, error } = useSubmit(async () => {
    const body = { ...draft, points: { ...draft.points, warnDays: parseDays(warnText) } };
    const next = (await unwrap(api.PUT('/api/flash/program', { body }))).data;
    setDraft(draftOf(next));
    setWarnText(next.points.warnDays.join(', '));
    setUpdatedAt(next.updatedAt);
  });
  const edit: Edit = { draft, set: setDraft, errors: fieldErrors(error) };
  // Who may read the rules but not change them sees them as they are, with nothing to save.
  const mayChange = useMay()('PUT /api/flash/program');
  return (
    <form class="card" noValidate onSubmit={onSubmit} aria-label="Program rules">
      <fieldset class="bare" disabled={!mayChange}>
        <EarnFields {...edit} />
        <PointsFields {...edit} warnText={warnText} onWarnText={setWarnText} />
        <TierFields {...edit} />
        <TierLadder {...edit} />
      </fieldset>
      {error ? <Failure error={error} /> : null}
      <p class="meta">{updatedAt ? `Saved ${when(updatedAt)}, version ${draft.version}` : 'The defaults apply: nothing saved yet.'}</p>
      {mayChange ? (
        <button type="submit" disabled={busy}>
          Save the program
        </button>
      ) : (
        <p class="meta">Your role reads the program; an owner or admin changes it.</p>
      )}
    </form>
  );
}

function EarnFields({ draft, set, errors }: Edit) {
  return (
    <>
      <h2>Earning</h2>
      <label>
        Points per 1.00 spent
        <input
          type="number"
          name="pointsPerUnit"
          step="0.0001"
          min={0}
          value={draft.earn.pointsPerUnit}
          aria-describedby="err-points"
          onInput={(e) => set({ ...draft, earn: { ...draft.earn, pointsPerUnit: Number(e.currentTarget.value) } })}
        />
        <FieldError id="err-points" message={errors['earn.pointsPerUnit']} />
      </label>
      <label>
        Rounding of an order's points
        <select
          name="rounding"
          value={draft.earn.rounding}
          onChange={(e) => set({ ...draft, earn: { ...draft.earn, rounding: e.currentTarget.value as Program['earn']['rounding'] } })}
        >
          <option value="floor">Down</option>
          <option value="round">To the nearest</option>
          <option value="ceil">Up</option>
        </select>
      </label>
      <NumberField
        label="Campaigns grant on orders sent up to this many days after they were placed"
        name="backdatingLimitDays"
        min={0}
        value={draft.orders.backdatingLimitDays}
        onValue={(days) => set({ ...draft, orders: { backdatingLimitDays: days } })}
        error={errors['orders.backdatingLimitDays']}
      />
      <EarnRulesFields earn={draft.earn} onEarn={(earn) => set({ ...draft, earn })} errors={errors} />
    </>
  );
}

function PointsFields({ draft, set, errors, warnText, onWarnText }: Edit & { warnText: string; onWarnText: (t: string) => void }) {
  const points = draft.points;
  const setPoints = (change: Partial<Program['points']>) => set({ ...draft, points: { ...points, ...change } });
  return (
    <fieldset>
      <legend>How points age</legend>
      <label>
        Expiry
        <select
          name="expiryPolicy"
          value={points.expiry.policy}
          onChange={(e) => setPoints({ expiry: expiryWith(points.expiry, e.currentTarget.value as Policy) })}
        >
          <option value="none">Points never expire</option>
          <option value="fixed_days">A number of days after each earn</option>
          <option value="end_of_month">Days after the earn, to the end of that month</option>
          <option value="inactivity_days">Days after the member's last earn or spend</option>
        </select>
      </label>
      {'days' in points.expiry ? (
        <NumberField
          label="Expiry days"
          name="expiryDays"
          min={1}
          max={3650}
          value={points.expiry.days}
          onValue={(days) => setPoints({ expiry: { ...(points.expiry as Exclude<Expiry, { policy: 'none' }>), days } })}
          error={errors['points.expiry.days']}
        />
      ) : null}
      <label>
        Warn this many days before an expiry (up to 5, e.g. 30, 7)
        <input name="warnDays" value={warnText} aria-describedby="err-warnDays" onInput={(e) => onWarnText(e.currentTarget.value)} />
        <FieldError id="err-warnDays" message={errorAt(errors, 'points.warnDays')} />
      </label>
      <NumberField
        label="Pending days before an order's points can be spent"
        name="pendingDays"
        min={0}
        max={3650}
        value={points.pendingDays}
        onValue={(pendingDays) => setPoints({ pendingDays })}
        error={errors['points.pendingDays']}
      />
      <label>
        Time zone of program dates
        <input name="timeZone" value={draft.timeZone} aria-describedby="err-timeZone" onInput={(e) => set({ ...draft, timeZone: e.currentTarget.value })} />
        <FieldError id="err-timeZone" message={errors.timeZone} />
      </label>
    </fieldset>
  );
}

function TierFields({ draft, set, errors }: Edit) {
  const setTiers = (change: Partial<Program['tiers']>) => set({ ...draft, tiers: { ...draft.tiers, ...change } });
  return (
    <>
      <h2>Tiers</h2>
      <label>
        Measured by
        <select name="metric" value={draft.tiers.metric} onChange={(e) => setTiers({ metric: e.currentTarget.value as Program['tiers']['metric'] })}>
          <option value="lifetime_points">Points earned</option>
          <option value="order_count">Completed orders</option>
        </select>
      </label>
      <label>
        Counted over
        <select name="window" value={draft.tiers.window} onChange={(e) => setTiers({ window: e.currentTarget.value as Program['tiers']['window'] })}>
          <option value="lifetime">The member's lifetime</option>
          <option value="rolling_365_days">The last 365 days</option>
          <option value="calendar_year">The calendar year</option>
        </select>
      </label>
      <NumberField
        label="Keep a reached tier at least this many days"
        name="retainDays"
        min={0}
        max={3650}
        value={draft.tiers.retainDays}
        onValue={(retainDays) => setTiers({ retainDays })}
        error={errors['tiers.retainDays']}
      />
      <label>
        After the retention, below the threshold
        <select
          name="downgrade"
          value={draft.tiers.downgrade}
          onChange={(e) => setTiers({ downgrade: e.currentTarget.value as Program['tiers']['downgrade'] })}
        >
          <option value="to_qualified">Down to the tier the metric reaches</option>
          <option value="one_level">One tier down</option>
        </select>
      </label>
    </>
  );
}

function TierLadder({ draft, set, errors }: Edit) {
  const setLevel = (i: number, change: Partial<Level>) =>
    set({ ...draft, tiers: { ...draft.tiers, levels: draft.tiers.levels.map((l, j) => (j === i ? { ...l, ...change } : l)) } });
  return (
    <table>
      <caption>From the first tier (threshold 0) up; thresholds increase</caption>
      <TableHead columns={['Key', 'Name', 'Threshold']} />
      <tbody>
        {draft.tiers.levels.map((l, i) => (
          <tr key={i}>
            <td>
              <input aria-label={`Key of tier ${i + 1}`} value={l.key} onInput={(e) => setLevel(i, { key: e.currentTarget.value })} />
              <FieldError id={`err-key-${i}`} message={errors[`tiers.levels.${i}.key`]} />
            </td>
            <td>
              <input aria-label={`Name of tier ${i + 1}`} value={l.name} onInput={(e) => setLevel(i, { name: e.currentTarget.value })} />
              <FieldError id={`err-name-${i}`} message={errors[`tiers.levels.${i}.name`]} />
            </td>
            <td>
              <input
                type="number"
                aria-label={`Threshold of tier ${i + 1}`}
                aria-describedby={`err-threshold-${i}`}
                value={l.threshold}
                onInput={(e) => setLevel(i, { threshold: Number(e.currentTarget.value) })}
              />
              <FieldError id={`err-threshold-${i}`} message={errors[`tiers.levels.${i}.threshold`]} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
