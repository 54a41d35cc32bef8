import { useLocation } from 'preact-iso/router';
import { useState } from 'preact/hooks';
import type { components } from '../../../client/schema';
import { api, unwrap } from '../../api';
import { useCursor } from '../../hooks/use-paged';
import { useLoad } from '../../hooks/use-load';
import { useSubmit } from '../../hooks/use-submit';
import { to } from '../../paths';
import { Failure, when } from '../../ui/feedback';
import { FileFormatField } from '../../ui/fields';
import { Listing, TableHead } from '../../ui/tables';

type Kind = components['schemas']['CreateImport']['kind'];
type Format = NonNullable<components['schemas']['CreateImport']['format']>;

const KINDS: { kind: Kind; label: string }[] = [
  { kind: 'members', label: 'Members (profiles)' },
  { kind: 'balances', label: 'Opening balances' },
  { kind: 'tiers', label: 'Tiers' },
  { kind: 'points', label: 'Points changes' },
  { kind: 'tags', label: 'Tags' },
];

/** The workspace's import jobs, newest first, and a new job from a file (docs/migration.md has the formats). */
export function Imports() {
  const paging = useCursor();
  const list = useLoad(() => unwrap(api.GET('/api/flash/imports', { params: { query: { limit: 20, cursor: paging.cursor } } })), [paging.cursor]);
  return (
    <section aria-labelledby="imports-title">
      <h1 id="imports-title">Imports</h1>
      <NewImport />
      <section class="card" aria-labelledby="import-jobs-title">
        <h2 id="import-jobs-title">Import jobs</h2>
        <Listing list={{ ...list, paging }} what="import jobs" empty="No import yet.">
          {(jobs) => (
            <table>
              <caption>Import jobs, newest first</caption>
              <TableHead columns={['Started', 'Kind', 'Status', 'Rows', 'Job']} />
              <tbody>
                {jobs.map((j) => (
                  <tr key={j.id}>
                    <td>{when(j.createdAt)}</td>
                    <td>{j.kind}</td>
                    <td>{j.status}</td>
                    <td>{j.progress.rows ?? '—'}</td>
                    <td>
                      <a href={to.importJob(j.id)}>Open {j.id}</a>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </Listing>
      </section>
    </section>
  );
}

/** Creates the job, sends the file straight to its upload link (the bucket allows the console's origin), then opens the job. */
function NewImport() {
  const { route } = useLocation();
  const [kind, setKind] = useState<Kind>('members');
  const [format, setFormat] = useState<Format>('csv');
  const [file, setFile] = useState<File>();
  const { onSubmit, busy, error } = useSubmit(async () => {
    if (!file) throw new Error('Choose a file to import');
    const job = (await unwrap(api.POST('/api/flash/imports', { body: { kind, format } }))).data;
    if (!job.upload) throw new Error('The job has no upload link');
    const put = await fetch(job.upload.url, { method: 'PUT', body: file });
    if (!put.ok) throw new Error(`The upload was refused (${put.status}); start a new import`);
    route(to.importJob(job.id));
  });
  return (
    <form class="card" onSubmit={onSubmit} aria-labelledby="new-import-title">
      <h2 id="new-import-title">Import a file</h2>
      <p>Choose what the file holds and the file; the next step checks every row without writing anything.</p>
      <label>
        What
        <select name="kind" value={kind} onChange={(e) => setKind(e.currentTarget.value as Kind)}>
          {KINDS.map((k) => (
            <option key={k.kind} value={k.kind}>
              {k.label}
            </option>
          ))}
        </select>
      </label>
      <FileFormatField value={format} onValue={setFormat} />
      <label>
        File
        <input type="file" name="file" accept=".csv,.jsonl,.txt,text/csv" required onChange={(e) => setFile(e.currentTarget.files?.[0])} />
      </label>
      <button type="submit" disabled={busy}>
        Upload the file
      </button>
      {error ? <Failure error={error} /> : null}
    </form>
  );
}
