import { useState } from 'preact/hooks';
import type { operations } from '../../client/schema';
import { api, unwrap } from '../api';
import { Listing, TableHead, useLoad } from '../components';
import { ObjectRecords } from './object-records';
import { type FieldDraft, ObjectTypeEditor } from './object-type-editor';

type AdminType = operations['listObjectTypeDefinitions']['responses'][200]['content']['application/json']['data'][number];

/** What the screen shows under the list: a type being created or edited, or the records of one. */
type Open = { kind: 'new' } | { kind: 'edit'; type: AdminType } | { kind: 'records'; type: AdminType } | undefined;

export function ObjectTypes() {
  const list = useLoad(() => unwrap(api.GET('/api/flash/objects/types')), '');
  const [open, setOpen] = useState<Open>();
  return (
    <section aria-labelledby="types-title">
      <h1 id="types-title">Object types</h1>
      <p>
        <button type="button" onClick={() => setOpen({ kind: 'new' })}>
          New object type
        </button>
      </p>
      <Listing list={list} what="object types" empty="No object types yet: define one to keep your own data next to members.">
        {(types) => <TypeTable types={types} onOpen={setOpen} />}
      </Listing>
      {open?.kind === 'new' || open?.kind === 'edit' ? (
        <ObjectTypeEditor
          key={open.kind === 'edit' ? open.type.type : 'new'}
          existing={open.kind === 'edit' ? { ...open.type, fields: open.type.fields as FieldDraft[] } : undefined}
          onSaved={() => {
            setOpen(undefined);
            list.reload();
          }}
          onCancel={() => setOpen(undefined)}
        />
      ) : null}
      {open?.kind === 'records' ? <ObjectRecords key={open.type.type} type={open.type.type} label={open.type.label} titleField={open.type.titleField} /> : null}
    </section>
  );
}

function TypeTable({ types, onOpen }: { types: AdminType[]; onOpen: (o: Open) => void }) {
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
              <button type="button" aria-label={`Edit ${t.label}`} onClick={() => onOpen({ kind: 'edit', type: t })}>
                Edit
              </button>{' '}
              <button type="button" aria-label={`Browse the records of ${t.label}`} onClick={() => onOpen({ kind: 'records', type: t })}>
                Records
              </button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
