import { useRoute } from 'preact-iso/router';
import { useState } from 'preact/hooks';
import type { operations } from '../../../client/schema';
import { api, unwrap } from '../../api';
import { to } from '../../paths';
import { useLoad } from '../../hooks/use-load';
import { Listing, TableHead } from '../../ui/tables';
import { ObjectRecords } from './object-records';
import { type FieldDraft, ObjectTypeEditor } from './object-type-editor';

type AdminType = operations['listObjectTypeDefinitions']['responses'][200]['content']['application/json']['data'][number];

/** What the screen shows under the list: a type being created or edited. A type's records have their address (`/console/object-types/:key`). */
type Editing = { kind: 'new' } | { kind: 'edit'; type: AdminType } | undefined;

export function ObjectTypes() {
  const browsed = useRoute().params.key;
  const list = useLoad(() => unwrap(api.GET('/api/flash/objects/types')), []);
  const [editing, setEditing] = useState<Editing>();
  return (
    <section aria-labelledby="types-title">
      <h1 id="types-title">Object types</h1>
      <p>
        <button type="button" onClick={() => setEditing({ kind: 'new' })}>
          New object type
        </button>
      </p>
      <Listing list={list} what="object types" empty="No object types yet: define one to keep your own data next to members.">
        {(types) => <TypeTable types={types} onEdit={(type) => setEditing({ kind: 'edit', type })} />}
      </Listing>
      {editing ? (
        <ObjectTypeEditor
          key={editing.kind === 'edit' ? editing.type.type : 'new'}
          existing={editing.kind === 'edit' ? { ...editing.type, fields: editing.type.fields as FieldDraft[] } : undefined}
          onSaved={() => {
            setEditing(undefined);
            list.reload();
          }}
          onCancel={() => setEditing(undefined)}
        />
      ) : null}
      {browsed && list.state === 'ready' ? <Browsed types={list.data.data} type={browsed} /> : null}
    </section>
  );
}

/** The records of the type the address names, or why there are none to show. */
function Browsed({ types, type }: { types: AdminType[]; type: string }) {
  const found = types.find((t) => t.type === type);
  if (!found) {
    return (
      <p role="alert" class="card">
        This workspace has no object type <code>{type}</code>.
      </p>
    );
  }
  return <ObjectRecords key={found.type} type={found.type} label={found.label} titleField={found.titleField} />;
}

function TypeTable({ types, onEdit }: { types: AdminType[]; onEdit: (t: AdminType) => void }) {
  return (
    <table>
      <caption>Object types of this workspace</caption>
      <TableHead columns={['Label', 'Key', 'Status', 'API', 'Fields', 'Records']} actions />
      <tbody>
        {types.map((t) => (
          <tr key={t.type}>
            <td>{t.label}</td>
            <td>
              <code>{t.type}</code>
            </td>
            <td>{t.status}</td>
            <td>{t.apiVisible ? 'Visible' : 'Hidden'}</td>
            <td>{t.fields.length}</td>
            <td>{t.recordCount}</td>
            <td>
              <button type="button" aria-label={`Edit ${t.label}`} onClick={() => onEdit(t)}>
                Edit
              </button>{' '}
              <a href={to.objectType(t.type)} aria-label={`Browse the records of ${t.label}`}>
                Records
              </a>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
