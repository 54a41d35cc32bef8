import { useState } from 'preact/hooks';
import type { components } from '../../../client/schema';
import { api, unwrap } from '../../api';
import { usePaged } from '../../hooks/use-paged';
import { useSubmit } from '../../hooks/use-submit';
import { Confirmed } from '../../ui/confirmed';
import { CopyButton } from '../../ui/copy-button';
import { Failure, when } from '../../ui/feedback';
import { Listing, TableHead } from '../../ui/tables';
import { PLATFORM } from '../../platform';
import { useMayGrant } from '../../permissions';

type ApiKey = components['schemas']['ApiKey'];
type Scope = ApiKey['scopes'][number];
const PRESETS = ['read-only', 'write'] as const;

export function ApiKeys() {
  const [made, setMade] = useState<{ name: string; key: string }>();
  const list = usePaged((page) => unwrap(api.GET('/api/v2/api-keys', { params: { query: { limit: 20, ...page } } })), []);
  return (
    <section aria-labelledby="keys-title">
      <h1 id="keys-title">API keys</h1>
      <CreateKey
        onCreated={(k) => {
          setMade(k);
          list.paging.first();
          list.reload();
        }}
      />
      {made ? <ShownOnce made={made} onDone={() => setMade(undefined)} /> : null}
      <Listing list={list} what="API keys" empty="No API keys yet: create one above.">
        {(keys) => <KeyTable keys={keys} onRevoked={list.reload} />}
      </Listing>
    </section>
  );
}

function CreateKey({ onCreated }: { onCreated: (k: { name: string; key: string }) => void }) {
  const [name, setName] = useState('');
  const [access, setAccess] = useState<(typeof PRESETS)[number] | 'custom'>('read-only');
  const [scopes, setScopes] = useState<Scope[]>([]);
  const {
    onSubmit: submit,
    busy,
    error,
  } = useSubmit(async () => {
    const body = access === 'custom' ? { name, scopes } : { name, preset: access };
    const created = await unwrap(api.POST('/api/v2/api-keys', { body }));
    onCreated({ name: created.data.name, key: created.data.key });
    setName('');
  });
  return (
    <form onSubmit={submit} class="card" aria-labelledby="create-key-title">
      <h2 id="create-key-title">Create a key</h2>
      <label>
        Name
        <input name="name" required maxLength={100} value={name} onInput={(e) => setName(e.currentTarget.value)} />
      </label>
      <label>
        Access
        <select name="access" value={access} onChange={(e) => setAccess(e.currentTarget.value as typeof access)}>
          <option value="read-only">Read only (every :read scope)</option>
          <option value="write">Read and write (every :read and :write scope)</option>
          <option value="custom">Chosen scopes</option>
        </select>
      </label>
      {access === 'custom' ? <ScopePicker chosen={scopes} onChange={setScopes} /> : null}
      {error ? <Failure error={error} /> : null}
      <button type="submit" disabled={busy}>
        Create key
      </button>
    </form>
  );
}

/** The scopes the person may grant (a privacy scope only with the permission it reaches into). */
function ScopePicker({ chosen, onChange }: { chosen: Scope[]; onChange: (s: Scope[]) => void }) {
  const mayGrant = useMayGrant();
  return (
    <fieldset class="scopes">
      <legend>Scopes</legend>
      {PLATFORM.scopes.filter(mayGrant).map((scope) => (
        <label key={scope} class="check">
          <input
            type="checkbox"
            checked={chosen.includes(scope)}
            onChange={(e) => onChange(e.currentTarget.checked ? [...chosen, scope] : chosen.filter((s) => s !== scope))}
          />
          {scope}
        </label>
      ))}
    </fieldset>
  );
}

/** The new key, shown this once: the platform keeps only its hash. */
function ShownOnce({ made, onDone }: { made: { name: string; key: string }; onDone: () => void }) {
  return (
    <section class="card shown-once" aria-labelledby="shown-once-title">
      <h2 id="shown-once-title">Key “{made.name}” created</h2>
      <p>Copy it now: it is shown only this once.</p>
      <p>
        <code data-testid="new-key">{made.key}</code>
      </p>
      <CopyButton text={made.key} what="key" />{' '}
      <button type="button" onClick={onDone}>
        Done
      </button>
    </section>
  );
}

function KeyTable({ keys, onRevoked }: { keys: ApiKey[]; onRevoked: () => void }) {
  return (
    <table>
      <caption>Keys of this workspace</caption>
      <TableHead columns={['Name', 'Starts with', 'Scopes', 'Created', 'Last used']} actions />
      <tbody>
        {keys.map((k) => (
          <tr key={k.id}>
            <td>{k.name}</td>
            <td>
              <code>{k.prefix}</code>
            </td>
            <td>{k.scopes.length}</td>
            <td>{when(k.createdAt)}</td>
            <td>{k.lastUsedAt ? when(k.lastUsedAt) : 'Never'}</td>
            <td>
              <Revoke apiKey={k} onRevoked={onRevoked} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Revoking asks first: the key stops working at once for every app that uses it. */
function Revoke({ apiKey, onRevoked }: { apiKey: ApiKey; onRevoked: () => void }) {
  return (
    <Confirmed
      open={{ text: 'Revoke', label: `Revoke ${apiKey.name}` }}
      legend={`Confirm revoking ${apiKey.name}`}
      confirm="Revoke key"
      run={async () => {
        await unwrap(api.DELETE('/api/v2/api-keys/{id}', { params: { path: { id: apiKey.id } } }));
        onRevoked();
      }}
    >
      Apps using “{apiKey.name}” stop working at once.
    </Confirmed>
  );
}
