import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { useSubmit } from '../hooks/use-submit';
import { Failure } from './feedback';

/**
 * Ask, then act: the button opens a confirmation (a group named by `legend`, saying what follows);
 * its one action runs once per click, with its error in the API's words; Cancel closes it.
 */
export function Confirmed(props: {
  /** The opening button's text and accessible name, e.g. `Remove` and `Remove ada@example.com`. */
  open: { text: string; label: string };
  legend: string;
  children: ComponentChildren;
  /** The confirming button's text, e.g. `Remove member`. */
  confirm: string;
  run: () => Promise<void>;
}) {
  const [asking, setAsking] = useState(false);
  const { onSubmit, busy, error } = useSubmit(props.run);
  if (!asking) {
    return (
      <button type="button" aria-label={props.open.label} onClick={() => setAsking(true)}>
        {props.open.text}
      </button>
    );
  }
  return (
    <fieldset class="confirm">
      <legend>{props.legend}</legend>
      <p>{props.children}</p>
      <button type="button" class="danger" disabled={busy} onClick={() => onSubmit()}>
        {props.confirm}
      </button>{' '}
      <button type="button" onClick={() => setAsking(false)}>
        Cancel
      </button>
      {error ? <Failure error={error} /> : null}
    </fieldset>
  );
}
