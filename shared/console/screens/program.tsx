import { useState } from 'preact/hooks';
import type { components } from '../../client/schema';
import { api, ApiFailure, unwrap } from '../api';
import { Failure, Loading, useLoad, useSubmit, when } from '../components';

type Program = components['schemas']['Program'];
type Level = Program['tiers']['levels'][number];
type Draft = Pick<Program, 'earn' | 'tiers' | 'version'>;

export function ProgramRules() {
  const loaded = useLoad(() => unwrap(api.GET('/api/flash/program')), 'program');
  return (
    <section aria-labelledby="program-title">
      <h1 id="program-title">Program</h1>
      <p>How orders earn points and the tiers members climb. A change applies to what happens next; recorded orders keep their points.</p>
      {loaded.state === 'loading' ? <Loading what="the program" /> : null}
      {loaded.state === 'failed' ? <Failure error={loaded.error} /> : null}
      {loaded.state === 'ready' ? <RulesForm saved={loaded.data.data} /> : null}
    </section>
  );
}

/** The API's message for one field (`tiers.levels.1.threshold`), shown next to that field. */
function fieldErrors(error: unknown): Record<string, string> {
  if (!(error instanceof ApiFailure)) return {};
  return Object.fromEntries((error.error.details ?? []).filter((d) => d.field).map((d) => [d.field!, d.message]));
}

function FieldError({ id, message }: { id: string; message: string | undefined }) {
  return message ? (
    <span id={id} class="field-error">
      {message}
    </span>
  ) : null;
}

function RulesForm({ saved }: { saved: Program }) {
  const [draft, setDraft] = useState<Draft>({ earn: saved.earn, tiers: saved.tiers, version: saved.version });
  const [updatedAt, setUpdatedAt] = useState(saved.updatedAt);
  const { onSubmit, busy, error } = useSubmit(async () => {
    const next = (await unwrap(api.PUT('/api/flash/program', { body: draft }))).data;
    setDraft({ earn: next.earn, tiers: next.tiers, version: next.version });
    setUpdatedAt(next.updatedAt);
  });
  const errors = fieldErrors(error);
  const setLevel = (i: number, change: Partial<Level>) =>
    setDraft({ ...draft, tiers: { ...draft.tiers, levels: draft.tiers.levels.map((l, j) => (j === i ? { ...l, ...change } : l)) } });
  return (
    <form class="card" onSubmit={onSubmit} aria-label="Program rules">
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
          onInput={(e) => setDraft({ ...draft, earn: { ...draft.earn, pointsPerUnit: Number(e.currentTarget.value) } })}
        />
        <FieldError id="err-points" message={errors['earn.pointsPerUnit']} />
      </label>
      <label>
        Rounding of an order's points
        <select
          name="rounding"
          value={draft.earn.rounding}
          onChange={(e) => setDraft({ ...draft, earn: { ...draft.earn, rounding: e.currentTarget.value as Program['earn']['rounding'] } })}
        >
          <option value="floor">Down</option>
          <option value="round">To the nearest</option>
          <option value="ceil">Up</option>
        </select>
      </label>
      <h2>Tiers</h2>
      <table>
        <caption>From the first tier (threshold 0) up; thresholds increase</caption>
        <thead>
          <tr>
            <th scope="col">Key</th>
            <th scope="col">Name</th>
            <th scope="col">Threshold</th>
          </tr>
        </thead>
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
      {error ? <Failure error={error} /> : null}
      <p class="meta">{updatedAt ? `Saved ${when(updatedAt)}, version ${draft.version}` : 'The defaults apply: nothing saved yet.'}</p>
      <button type="submit" disabled={busy}>
        Save the program
      </button>
    </form>
  );
}
