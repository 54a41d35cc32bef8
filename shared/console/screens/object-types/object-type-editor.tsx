import { useState } from 'preact/hooks';
import type { operations } from '../../../client/schema';
import { api, unwrap } from '../../api';
import { useSubmit } from '../../hooks/use-submit';
import { Failure } from '../../ui/feedback';
import { PLATFORM } from '../../platform';

type Body = operations['putObjectTypeDefinition']['requestBody']['content']['application/json'];
export type FieldDraft = Body['fields'][number];
type FieldType = FieldDraft['type'];

interface Existing {
  type: string;
  label: string;
  description: string | null;
  titleField: string | null;
  status: Body['status'];
  apiVisible: boolean;
  fields: FieldDraft[];
}

/** One field row as typed: the options of an enum as one comma-separated text. */
interface Row {
  id: number;
  field: FieldDraft;
  options: string;
}

let rowIds = 0;
const rowOf = (field: FieldDraft): Row => ({ id: ++rowIds, field, options: (field.options ?? []).join(', ') });

/** The field as the API takes it: options only for enums, split at commas. */
const fieldOf = ({ field, options }: Row): FieldDraft => {
  const { options: _ignored, ...rest } = field;
  if (field.type !== 'enum') return rest;
  return {
    ...rest,
    options: options
      .split(',')
      .map((o) => o.trim())
      .filter(Boolean),
  };
};

/** Creates a type (its key is chosen once) or replaces one; the API's refusals are shown in its words. */
export function ObjectTypeEditor({ existing, onSaved, onCancel }: { existing: Existing | undefined; onSaved: () => void; onCancel: () => void }) {
  const [key, setKey] = useState(existing?.type ?? '');
  const [label, setLabel] = useState(existing?.label ?? '');
  const [status, setStatus] = useState<Body['status']>(existing?.status ?? 'draft');
  const [apiVisible, setApiVisible] = useState(existing?.apiVisible ?? false);
  const [rows, setRows] = useState<Row[]>((existing?.fields ?? [{ key: '', type: 'text', required: true }]).map(rowOf));
  const { onSubmit, busy, error } = useSubmit(async () => {
    const body: Body = { label, status, apiVisible, fields: rows.map(fieldOf), ...(existing?.description ? { description: existing.description } : {}) };
    if (existing?.titleField && rows.some((r) => r.field.key === existing.titleField)) body.titleField = existing.titleField;
    await unwrap(api.PUT('/api/flash/objects/types/{type}', { params: { path: { type: key } }, body }));
    onSaved();
  });
  const title = existing ? `Edit ${existing.label}` : 'New object type';
  return (
    <form class="card" aria-labelledby="type-editor-title" onSubmit={onSubmit}>
      <h2 id="type-editor-title">{title}</h2>
      <label>
        Key
        <input
          name="key"
          required
          pattern="[a-z][a-z0-9_]*"
          disabled={!!existing}
          value={key}
          placeholder="repair_job"
          onInput={(e) => setKey(e.currentTarget.value)}
        />
      </label>
      <label>
        Label
        <input name="label" required maxLength={100} value={label} placeholder="Repair job" onInput={(e) => setLabel(e.currentTarget.value)} />
      </label>
      <label>
        Status
        <select name="status" value={status} onChange={(e) => setStatus(e.currentTarget.value as Body['status'])}>
          <option value="draft">Draft</option>
          <option value="published">Published</option>
        </select>
      </label>
      <label class="check">
        <input type="checkbox" checked={apiVisible} onChange={(e) => setApiVisible(e.currentTarget.checked)} />
        Visible to API keys (once published)
      </label>
      <FieldRows list={rows} onChange={setRows} />
      {error ? <Failure error={error} /> : null}
      <button type="submit" disabled={busy}>
        Save object type
      </button>{' '}
      <button type="button" onClick={onCancel}>
        Cancel
      </button>
    </form>
  );
}

function FieldRows({ list, onChange }: { list: Row[]; onChange: (rows: Row[]) => void }) {
  const set = (i: number, change: Partial<FieldDraft>) => onChange(list.map((r, j) => (j === i ? { ...r, field: { ...r.field, ...change } } : r)));
  const setOptions = (i: number, options: string) => onChange(list.map((r, j) => (j === i ? { ...r, options } : r)));
  return (
    <fieldset>
      <legend>Fields</legend>
      {list.map((r, i) => (
        <div class="field-row" key={r.id}>
          <label>
            Key of field {i + 1}
            <input required value={r.field.key} onInput={(e) => set(i, { key: e.currentTarget.value })} />
          </label>
          <label>
            Type of field {i + 1}
            <select value={r.field.type} onChange={(e) => set(i, { type: e.currentTarget.value as FieldType })}>
              {PLATFORM.fieldTypes.map((t) => (
                <option key={t} value={t}>
                  {t}
                </option>
              ))}
            </select>
          </label>
          {r.field.type === 'enum' ? (
            <label>
              Options of field {i + 1} (comma-separated)
              <input value={r.options} onInput={(e) => setOptions(i, e.currentTarget.value)} />
            </label>
          ) : null}
          <label class="check">
            <input type="checkbox" checked={r.field.required ?? false} onChange={(e) => set(i, { required: e.currentTarget.checked })} />
            Field {i + 1} is required
          </label>
          <button type="button" aria-label={`Remove field ${i + 1}`} onClick={() => onChange(list.filter((_, j) => j !== i))}>
            Remove
          </button>
        </div>
      ))}
      <button type="button" onClick={() => onChange([...list, rowOf({ key: '', type: 'text', required: false })])}>
        Add a field
      </button>
    </fieldset>
  );
}
