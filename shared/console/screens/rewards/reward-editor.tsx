import { useState } from 'preact/hooks';
import { api, ApiFailure, unwrap } from '../../api';
import { useBroughtIntoView } from '../../hooks/use-brought-into-view';
import { useLoad } from '../../hooks/use-load';
import { useSubmit } from '../../hooks/use-submit';
import { Failure, Loading } from '../../ui/feedback';
import { errorAt, FieldError, fieldErrors, TextField } from '../../ui/fields';
import { benefitOf, bodyOf, formOf, type RewardForm } from './draft';
import { cardBenefit, pointsInWords, type Reward, STATUS_NAMES, statusMoves, stockInWords, TYPE_NAMES } from './words';

type Errors = Record<string, string>;
type Edit = { form: RewardForm; set: (change: Partial<RewardForm>) => void; errors: Errors };

/** The reward the address names, as read now (so a change goes with the version shown), with its status switches and its form. */
export function OpenReward({ id, onChanged, onCancel }: { id: string; onChanged: () => void; onCancel: () => void }) {
  const loaded = useLoad(() => unwrap(api.GET('/api/flash/rewards/{id}', { params: { path: { id } } })), [id]);
  if (loaded.state === 'loading') return <Loading what="the reward" />;
  if (loaded.state === 'failed') return <Failure error={loaded.error} />;
  const reward = loaded.data.data;
  const changed = () => {
    loaded.reload();
    onChanged();
  };
  return (
    <>
      <StatusSwitches reward={reward} onChanged={changed} onStale={loaded.reload} />
      <RewardEditor key={`${reward.id}:${reward.version}`} existing={reward} onSaved={changed} onCancel={onCancel} onStale={loaded.reload} />
    </>
  );
}

/** Activate, pause, archive: each sends the version shown, so a change made meanwhile is refused and the reward read again. */
function StatusSwitches({ reward, onChanged, onStale }: { reward: Reward; onChanged: () => void; onStale: () => void }) {
  const [next, setNext] = useState<Reward['status']>();
  const { onSubmit, busy, error } = useSubmit(async () => {
    if (!next) return;
    await unwrap(api.PATCH('/api/flash/rewards/{id}', { params: { path: { id: reward.id } }, body: { status: next, version: reward.version } }));
    onChanged();
  });
  const moves = statusMoves(reward.status);
  return (
    <section class="card" aria-labelledby="reward-status-title">
      <h2 id="reward-status-title">
        {reward.name}: {STATUS_NAMES[reward.status]}
      </h2>
      <p>
        {stockInWords(reward)} · version {reward.version}
      </p>
      {moves.length === 0 ? <p>An archived reward stays archived; create a new one to offer it again.</p> : null}
      <form class="filters" aria-label="Change the status" onSubmit={onSubmit}>
        {moves.map((m) => (
          <button key={m.to} type="submit" disabled={busy} aria-label={`${m.verb} ${reward.name}`} onClick={() => setNext(m.to)}>
            {m.verb}
          </button>
        ))}
      </form>
      {error ? <Stale error={error} onReload={onStale} /> : null}
    </section>
  );
}

/** A refusal in the API's words; a conflict (someone changed the reward since it was read) offers it as it is now. */
function Stale({ error, onReload }: { error: unknown; onReload?: () => void }) {
  const conflict = error instanceof ApiFailure && error.error.status === 409;
  return (
    <>
      <Failure error={error} />
      {conflict && onReload ? (
        <button type="button" onClick={onReload}>
          Reload the reward
        </button>
      ) : null}
    </>
  );
}

/** Creates a reward or edits one, beside the card a member sees as it is typed. */
export function RewardEditor(props: { existing: Reward | undefined; onSaved: () => void; onCancel: () => void; onStale?: () => void }) {
  const { existing } = props;
  const [form, setForm] = useState<RewardForm>(formOf(existing));
  const { onSubmit, busy, error } = useSubmit(async () => {
    const body = bodyOf(form);
    if (existing) await unwrap(api.PATCH('/api/flash/rewards/{id}', { params: { path: { id: existing.id } }, body: { ...body, version: existing.version } }));
    else await unwrap(api.POST('/api/flash/rewards', { body: { ...body, status: form.status } }));
    props.onSaved();
  });
  const edit: Edit = { form, set: (change) => setForm({ ...form, ...change }), errors: fieldErrors(error) };
  const view = useBroughtIntoView<HTMLFormElement>(existing?.id);
  return (
    <form ref={view} class="card" noValidate onSubmit={onSubmit} aria-labelledby="reward-editor-title">
      <h2 id="reward-editor-title">{existing ? `Edit ${existing.name}` : 'New reward'}</h2>
      <div class="branding">
        <div>
          <ShownFields {...edit} />
          <BenefitFields {...edit} />
          <LimitFields {...edit} isNew={!existing} />
        </div>
        <RewardCard form={form} />
      </div>
      {error ? <Stale error={error} onReload={props.onStale} /> : null}
      <button type="submit" disabled={busy}>
        {existing ? 'Save reward' : 'Create reward'}
      </button>{' '}
      <button type="button" onClick={props.onCancel}>
        Cancel
      </button>
    </form>
  );
}

function ShownFields({ form, set, errors }: Edit) {
  return (
    <>
      <TextField label="Name" name="name" value={form.name} onValue={(name) => set({ name })} error={errors.name} />
      <TextField
        label="Description (optional)"
        name="description"
        value={form.description}
        onValue={(description) => set({ description })}
        error={errors.description}
      />
      <TextField
        label="Image (https URL, optional)"
        name="imageUrl"
        type="url"
        value={form.imageUrl}
        onValue={(imageUrl) => set({ imageUrl })}
        error={errors.imageUrl}
      />
      <TextField
        label="Price in points"
        name="pointsCost"
        type="number"
        value={form.pointsCost}
        onValue={(pointsCost) => set({ pointsCost })}
        error={errors.pointsCost}
      />
    </>
  );
}

function BenefitFields({ form, set, errors }: Edit) {
  const at = (f: string) => errorAt(errors, `benefit.${f}`);
  return (
    <>
      <label>
        What it gives
        <select name="type" value={form.type} aria-describedby="err-benefit" onChange={(e) => set({ type: e.currentTarget.value as RewardForm['type'] })}>
          {Object.entries(TYPE_NAMES).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
        <FieldError id="err-benefit" message={errors.benefit ?? errors['benefit.type']} />
      </label>
      {form.type === 'fixed_discount' || form.type === 'percent_discount' ? (
        <TextField label="Currency" name="currency" value={form.currency} onValue={(currency) => set({ currency })} error={at('currency')} hint="EUR" />
      ) : null}
      {form.type === 'fixed_discount' ? (
        <TextField label="Amount off" name="amount" type="number" value={form.amount} onValue={(amount) => set({ amount })} error={at('amount')} />
      ) : null}
      {form.type === 'percent_discount' ? (
        <>
          <TextField label="Percent off" name="percent" type="number" value={form.percent} onValue={(percent) => set({ percent })} error={at('percent')} />
          <TextField
            label="At most (optional)"
            name="maxDiscount"
            type="number"
            value={form.maxDiscount}
            onValue={(maxDiscount) => set({ maxDiscount })}
            error={at('maxDiscount')}
          />
        </>
      ) : null}
      {form.type === 'free_product' ? <TextField label="Product SKU" name="sku" value={form.sku} onValue={(sku) => set({ sku })} error={at('sku')} /> : null}
    </>
  );
}

function LimitFields({ form, set, errors, isNew }: Edit & { isNew: boolean }) {
  return (
    <>
      <TextField label="Stock (blank: unlimited)" name="stock" type="number" value={form.stock} onValue={(stock) => set({ stock })} error={errors.stock} />
      <TextField
        label="Per member (blank: no limit)"
        name="perMemberLimit"
        type="number"
        value={form.perMemberLimit}
        onValue={(perMemberLimit) => set({ perMemberLimit })}
        error={errors.perMemberLimit}
      />
      {isNew ? (
        <label>
          Starts as
          <select name="status" value={form.status} onChange={(e) => set({ status: e.currentTarget.value as Reward['status'] })}>
            <option value="draft">Draft: not redeemable yet</option>
            <option value="active">Active: redeemable</option>
          </select>
        </label>
      ) : null}
    </>
  );
}

/**
 * The card a member sees, as typed: picture, name, description, what it gives and its price. The
 * console's policy loads no picture from another site, so the picture's place names its file.
 */
function RewardCard({ form }: { form: RewardForm }) {
  const cost = Number(form.pointsCost);
  const picture = form.imageUrl.trim();
  return (
    <figure class="pass-preview" aria-labelledby="reward-card-caption">
      <figcaption id="reward-card-caption">What a member sees</figcaption>
      <div class="reward-card" data-testid="reward-card">
        {picture ? <span class="reward-picture">Picture: {picture.split('/').pop() || picture}</span> : null}
        <strong>{form.name.trim() || 'The reward’s name'}</strong>
        {form.description.trim() ? <span>{form.description}</span> : null}
        <span>{cardBenefit(benefitOf(form))}</span>
        <span>{form.pointsCost.trim() && Number.isFinite(cost) ? `For ${pointsInWords(cost)}` : 'For … points'}</span>
      </div>
    </figure>
  );
}
