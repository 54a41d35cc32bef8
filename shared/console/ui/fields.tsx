import { ApiFailure } from '../api';
import { PLATFORM } from '../platform';

/** The API's message for each field of a refusal (`details[].field`, e.g. `points.expiry.days`). */
export function fieldErrors(error: unknown): Record<string, string> {
  if (!(error instanceof ApiFailure)) return {};
  return Object.fromEntries((error.error.details ?? []).filter((d) => d.field).map((d) => [d.field!, d.message]));
}

/** The message for `field` or for a part of it (`points.warnDays` holds `points.warnDays.1`). */
export const errorAt = (errors: Record<string, string>, field: string): string | undefined =>
  errors[field] ?? Object.entries(errors).find(([f]) => f.startsWith(`${field}.`))?.[1];

/** A field's refusal next to it; the field names it with aria-describedby. */
export function FieldError({ id, message }: { id: string; message: string | undefined }) {
  return message ? (
    <span id={id} class="field-error">
      {message}
    </span>
  ) : null;
}

/** A labelled number input with the API's message for its field next to it (empty is NaN: sent as null, which the API refuses by name). */
export function NumberField(props: {
  label: string;
  name: string;
  value: number | null | undefined;
  onValue: (n: number) => void;
  error: string | undefined;
  min?: number;
  max?: number;
  step?: string;
}) {
  const id = `err-${props.name}`;
  return (
    <label>
      {props.label}
      <input
        type="number"
        name={props.name}
        min={props.min}
        max={props.max}
        step={props.step}
        // An empty or half-typed number (NaN) leaves the input as typed.
        value={props.value == null || Number.isNaN(props.value) ? undefined : props.value}
        aria-describedby={id}
        onInput={(e) => props.onValue(e.currentTarget.valueAsNumber)}
      />
      <FieldError id={id} message={props.error} />
    </label>
  );
}

/** A new password's field with the rule said before the first try (the field names it with aria-describedby). */
export function NewPasswordField({ label, value, onInput }: { label: string; value: string; onInput: (value: string) => void }) {
  return (
    <>
      <label>
        {label}
        <input
          type="password"
          name="password"
          autoComplete="new-password"
          required
          aria-describedby="password-rule"
          value={value}
          onInput={(e) => onInput(e.currentTarget.value)}
        />
      </label>
      <p id="password-rule" class="hint">
        At least {PLATFORM.minPasswordLength} characters; a phrase of a few words is easy to remember and hard to guess.
      </p>
    </>
  );
}

/** The file formats of exports and imports, in words: one list, so both screens offer the same. */
export function FileFormatField<F extends 'csv' | 'jsonl'>({ value, onValue }: { value: F; onValue: (format: F) => void }) {
  return (
    <label>
      Format
      <select name="format" value={value} onChange={(e) => onValue(e.currentTarget.value as F)}>
        <option value="csv">CSV</option>
        <option value="jsonl">JSON Lines</option>
      </select>
    </label>
  );
}

/** A code from an authenticator app: the keyboard and autofill phones offer for one-time codes. */
export function OneTimeCodeField({ label, value, onValue }: { label: string; value: string; onValue: (value: string) => void }) {
  return (
    <label>
      {label}
      <input
        name="code"
        autoComplete="one-time-code"
        inputMode="numeric"
        pattern="[0-9 ]*"
        maxLength={7}
        required
        value={value}
        onInput={(e) => onValue(e.currentTarget.value)}
      />
    </label>
  );
}

/** A labelled text input with its error beside it (`hint`: a placeholder, e.g. the format asked for). */
export function TextField(p: {
  label: string;
  name: string;
  value: string;
  onValue: (v: string) => void;
  error: string | undefined;
  type?: string;
  hint?: string;
}) {
  return (
    <label>
      {p.label}
      <input
        type={p.type ?? 'text'}
        name={p.name}
        value={p.value}
        placeholder={p.hint}
        aria-describedby={`err-${p.name}`}
        onInput={(e) => p.onValue(e.currentTarget.value)}
      />
      <FieldError id={`err-${p.name}`} message={p.error} />
    </label>
  );
}
