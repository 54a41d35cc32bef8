import { useState } from 'preact/hooks';
import { api, unwrap } from '../../api';
import { useBroughtIntoView } from '../../hooks/use-brought-into-view';
import { useSubmit } from '../../hooks/use-submit';
import { Failure } from '../../ui/feedback';
import { errorAt, FieldError, fieldErrors, NumberField, TextField } from '../../ui/fields';
import { bodyOf, type Campaign, type CampaignForm, type ConditionField, type ConditionOp, copyForm, formOf, NEW_CONDITION, opFor } from './drafts';
import { PLATFORM } from '../../platform';
import { ConditionValue, useConditionChoices } from './condition-value';

type Errors = Record<string, string>;
type Edit = { form: CampaignForm; set: (change: Partial<CampaignForm>) => void; errors: Errors };

const TRIGGERS: { value: CampaignForm['trigger']; label: string }[] = [
  { value: 'order', label: 'An order' },
  { value: 'member_created', label: 'A new member' },
  { value: 'birthday', label: "A member's birthday" },
  { value: 'tag_added', label: 'A tag added to a member' },
  { value: 'inactivity', label: 'Inactivity (win-back)' },
];
const MAX_CONDITIONS = 20;
const kindOf = (field: ConditionField) => PLATFORM.conditionFields[field];

/** Creates a campaign or edits one (the version read goes with the change: a change made meanwhile is a 409, in the API's words). */
export function CampaignEditor({
  existing,
  copyOf,
  onSaved,
  onCancel,
}: {
  existing: Campaign | undefined;
  /** A new campaign that starts as a copy of this one (Duplicate). */
  copyOf?: Campaign;
  onSaved: () => void;
  onCancel: () => void;
}) {
  const [form, setForm] = useState<CampaignForm>(copyOf && !existing ? copyForm(copyOf) : formOf(existing));
  const { onSubmit, busy, error } = useSubmit(async () => {
    const body = bodyOf(form, kindOf);
    if (existing) await unwrap(api.PATCH('/api/flash/campaigns/{id}', { params: { path: { id: existing.id } }, body: { ...body, version: existing.version } }));
    else await unwrap(api.POST('/api/flash/campaigns', { body }));
    onSaved();
  });
  const edit: Edit = { form, set: (change) => setForm({ ...form, ...change }), errors: fieldErrors(error) };
  const title = existing ? `Edit ${existing.name}` : copyOf ? `New campaign from ${copyOf.name}` : 'New campaign';
  const view = useBroughtIntoView<HTMLFormElement>(existing?.id);
  return (
    <form ref={view} class="card" noValidate onSubmit={onSubmit} aria-labelledby="campaign-editor-title">
      <h3 id="campaign-editor-title">{title}</h3>
      <WhenFields {...edit} />
      <ConditionRows {...edit} />
      <EffectFields {...edit} />
      {error ? <Failure error={error} /> : null}
      <button type="submit" disabled={busy}>
        {existing ? 'Save campaign' : 'Create campaign'}
      </button>{' '}
      <button type="button" onClick={onCancel}>
        Cancel
      </button>
    </form>
  );
}

function WhenFields({ form, set, errors }: Edit) {
  return (
    <>
      <TextField label="Name" name="campaignName" value={form.name} onValue={(name) => set({ name })} error={errors.name} />
      <label>
        Status
        <select
          name="status"
          value={form.status}
          aria-describedby="err-status"
          onChange={(e) => set({ status: e.currentTarget.value as CampaignForm['status'] })}
        >
          <option value="draft">Draft: grants nothing yet</option>
          <option value="active">Active: grants</option>
          <option value="paused">Paused</option>
          <option value="ended">Ended (final)</option>
        </select>
        <FieldError id="err-status" message={errors.status} />
      </label>
      <TextField
        label="Starts at (optional)"
        name="startsAt"
        type="datetime-local"
        value={form.startsAt}
        onValue={(startsAt) => set({ startsAt })}
        error={errors.startsAt}
      />
      <TextField
        label="Ends at (optional)"
        name="endsAt"
        type="datetime-local"
        value={form.endsAt}
        onValue={(endsAt) => set({ endsAt })}
        error={errors.endsAt}
      />
      <label>
        Trigger
        <select name="trigger" value={form.trigger} onChange={(e) => set({ trigger: e.currentTarget.value as CampaignForm['trigger'] })}>
          {TRIGGERS.map((t) => (
            <option key={t.value} value={t.value}>
              {t.label}
            </option>
          ))}
        </select>
      </label>
      {form.trigger === 'inactivity' ? (
        <NumberField
          label="Days without an earn or spend"
          name="triggerDays"
          min={1}
          max={3650}
          value={form.triggerDays}
          onValue={(triggerDays) => set({ triggerDays })}
          error={errorAt(errors, 'trigger.days')}
        />
      ) : null}
    </>
  );
}

/** All conditions must hold: a row each, its operators those its field takes. */
function ConditionRows({ form, set, errors }: Edit) {
  const setRow = (i: number, change: Partial<CampaignForm['conditions'][number]>) =>
    set({ conditions: form.conditions.map((c, j) => (j === i ? { ...c, ...change } : c)) });
  const choicesOf = useConditionChoices();
  return (
    <fieldset>
      <legend>Conditions (all must hold)</legend>
      {form.conditions.length === 0 ? <p class="meta">No conditions: every order of the trigger qualifies.</p> : null}
      {form.conditions.map((c, i) => {
        const n = i + 1;
        const error = errorAt(errors, `conditions.${i}`);
        return (
          <div key={i} class="condition">
            <select
              aria-label={`Field of condition ${n}`}
              value={c.field}
              onChange={(e) => setRow(i, fieldChange(e.currentTarget.value as ConditionField, c.op))}
            >
              {Object.keys(PLATFORM.conditionFields).map((f) => (
                <option key={f} value={f}>
                  {f}
                </option>
              ))}
            </select>{' '}
            <select aria-label={`Operator of condition ${n}`} value={c.op} onChange={(e) => setRow(i, { op: e.currentTarget.value as ConditionOp })}>
              {PLATFORM.opsByKind[kindOf(c.field)].map((op) => (
                <option key={op} value={op}>
                  {op}
                </option>
              ))}
            </select>{' '}
            <ConditionValue
              n={n}
              op={c.op}
              value={c.value}
              choices={choicesOf(c.field)}
              onValue={(value) => setRow(i, { value })}
              describedBy={`err-condition-${i}`}
            />{' '}
            <button type="button" aria-label={`Remove condition ${n}`} onClick={() => set({ conditions: form.conditions.filter((_, j) => j !== i) })}>
              Remove
            </button>
            <FieldError id={`err-condition-${i}`} message={error} />
          </div>
        );
      })}
      <button type="button" disabled={form.conditions.length >= MAX_CONDITIONS} onClick={() => set({ conditions: [...form.conditions, NEW_CONDITION] })}>
        Add a condition
      </button>
      <p class="meta">`in` takes a comma-separated list; order.isFirst compares with true or false.</p>
    </fieldset>
  );
}

const fieldChange = (field: ConditionField, op: ConditionOp) => ({ field, op: opFor(PLATFORM.opsByKind[kindOf(field)], op) });

function EffectFields({ form, set, errors }: Edit) {
  return (
    <>
      <label>
        Effect
        <select name="effect" value={form.effect} onChange={(e) => set({ effect: e.currentTarget.value as CampaignForm['effect'] })}>
          <option value="bonus_points">Bonus points</option>
          <option value="multiplier">Multiply the order's points</option>
          <option value="coupon">A coupon from a pool</option>
        </select>
      </label>
      {form.effect === 'bonus_points' ? (
        <NumberField
          label="Bonus points"
          name="bonusPoints"
          min={1}
          value={form.points}
          onValue={(points) => set({ points })}
          error={errors['effect.points']}
        />
      ) : null}
      {form.effect === 'multiplier' ? (
        <NumberField
          label="Factor"
          name="factor"
          step="0.01"
          min={0}
          max={100}
          value={form.factor}
          onValue={(factor) => set({ factor })}
          error={errors['effect.factor']}
        />
      ) : null}
      {form.effect === 'coupon' ? (
        <TextField label="Coupon pool (cpl_…)" name="poolId" value={form.poolId} onValue={(poolId) => set({ poolId })} error={errors['effect.poolId']} />
      ) : null}
      <NumberField
        label="Grants per member (empty: no limit)"
        name="perMember"
        min={1}
        value={form.perMember}
        onValue={(perMember) => set({ perMember })}
        error={errors['limits.perMember']}
      />
      <NumberField
        label="Points budget (empty: no limit)"
        name="totalPoints"
        min={1}
        value={form.totalPoints}
        onValue={(totalPoints) => set({ totalPoints })}
        error={errors['limits.totalPoints']}
      />
      <NumberField
        label="Priority (higher goes first)"
        name="priority"
        min={0}
        max={1000}
        value={form.priority}
        onValue={(priority) => set({ priority })}
        error={errors.priority}
      />
      <label class="check">
        <input type="checkbox" name="stackable" checked={form.stackable} onChange={(e) => set({ stackable: e.currentTarget.checked })} />
        Stackable: grants alongside other campaigns (unchecked: applies alone)
      </label>
    </>
  );
}
