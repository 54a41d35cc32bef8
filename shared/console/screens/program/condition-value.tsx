import { api, unwrap } from '../../api';
import { useLoad } from '../../hooks/use-load';
import { useMay } from '../../permissions';
import { PLATFORM } from '../../platform';

export interface Choice {
  value: string;
  label: string;
}

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const WEEKDAYS: Choice[] = PLATFORM.weekdays.map((d) => ({ value: d, label: capital(d) }));

/**
 * The values a condition's field offers when they are known, so a manager picks rather than types
 * (a misspelt day never grants): the weekdays, and the program's tiers by name. Other fields are typed.
 */
export function useConditionChoices(): (field: string) => Choice[] | undefined {
  const may = useMay();
  const mayReadProgram = may('GET /api/flash/program');
  const program = useLoad(() => (mayReadProgram ? unwrap(api.GET('/api/flash/program')) : Promise.resolve(undefined)), [mayReadProgram]);
  const tiers = program.state === 'ready' && program.data ? program.data.data.tiers.levels.map((l) => ({ value: l.key, label: l.name })) : undefined;
  return (field) => (field === 'date.weekday' ? WEEKDAYS : field === 'member.tier' ? tiers : undefined);
}

const listOf = (value: string) =>
  value
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);

/**
 * A condition's value: chosen from its field's choices when they are known (a select, or a
 * checkbox per choice for `in`, kept as the comma-separated list the form sends), else typed. A
 * value saved before the lists that is not among the choices stays shown as it is, marked unknown.
 */
export function ConditionValue({
  n,
  op,
  value,
  choices,
  onValue,
  describedBy,
}: {
  n: number;
  op: string;
  value: string;
  choices: Choice[] | undefined;
  onValue: (value: string) => void;
  describedBy: string;
}) {
  if (!choices) {
    return <input aria-label={`Value of condition ${n}`} aria-describedby={describedBy} value={value} onInput={(e) => onValue(e.currentTarget.value)} />;
  }
  const picked = listOf(value);
  const all = [...choices, ...picked.filter((v) => !choices.some((c) => c.value === v)).map((v) => ({ value: v, label: `${v} (unknown)` }))];
  if (op === 'in') {
    const toggle = (v: string, on: boolean) => onValue(all.flatMap((c) => ((c.value === v ? on : picked.includes(c.value)) ? [c.value] : [])).join(','));
    return (
      <fieldset class="choices" aria-describedby={describedBy}>
        <legend>Values of condition {n}</legend>
        {all.map((c) => (
          <label key={c.value}>
            <input type="checkbox" checked={picked.includes(c.value)} onChange={(e) => toggle(c.value, e.currentTarget.checked)} /> {c.label}
          </label>
        ))}
      </fieldset>
    );
  }
  return (
    <select aria-label={`Value of condition ${n}`} aria-describedby={describedBy} value={value} onChange={(e) => onValue(e.currentTarget.value)}>
      {value === '' ? <option value="">Choose…</option> : null}
      {all.map((c) => (
        <option key={c.value} value={c.value}>
          {c.label}
        </option>
      ))}
    </select>
  );
}
