import { useState } from 'preact/hooks';
import { api, unwrap } from '../../api';
import { useSubmit } from '../../hooks/use-submit';
import { Failure } from '../../ui/feedback';

/** The member's tags, each removable, and a field to add one (keys as the API takes them: a-z, 0-9, _ and -). */
export function MemberTags({ id, tags, editable, onChanged }: { id: string; tags: string[]; editable: boolean; onChanged: (confirmation: string) => void }) {
  const [key, setKey] = useState('');
  const add = useSubmit(async () => {
    const tag = key.trim().toLowerCase();
    await unwrap(api.POST('/api/flash/members/{id}/tags', { params: { path: { id } }, body: { tags: [tag] } }));
    setKey('');
    onChanged(`Tagged ${tag}.`);
  });
  return (
    <section class="card" aria-labelledby="tags-title">
      <h2 id="tags-title">Tags</h2>
      {tags.length ? (
        <ul class="tags">
          {tags.map((t) => (
            <li key={t}>
              {t}
              {editable ? <RemoveTag id={id} tag={t} onRemoved={onChanged} /> : null}
            </li>
          ))}
        </ul>
      ) : (
        <p>No tags.</p>
      )}
      {editable ? (
        <form onSubmit={add.onSubmit}>
          <label>
            New tag
            <input name="tag" required maxLength={64} pattern="[a-zA-Z0-9_\-]+" value={key} onInput={(e) => setKey(e.currentTarget.value)} />
          </label>
          {add.error ? <Failure error={add.error} /> : null}
          <button type="submit" disabled={add.busy}>
            Add tag
          </button>
        </form>
      ) : null}
    </section>
  );
}

function RemoveTag({ id, tag, onRemoved }: { id: string; tag: string; onRemoved: (confirmation: string) => void }) {
  const { onSubmit, busy, error } = useSubmit(async () => {
    await unwrap(api.DELETE('/api/flash/members/{id}/tags/{tagKey}', { params: { path: { id, tagKey: tag } } }));
    onRemoved(`Removed the tag ${tag}.`);
  });
  return (
    <>
      {' '}
      <button type="button" aria-label={`Remove the tag ${tag}`} disabled={busy} onClick={onSubmit}>
        Remove
      </button>
      {error ? <Failure error={error} /> : null}
    </>
  );
}
