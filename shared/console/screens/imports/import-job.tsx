import { useRoute } from 'preact-iso/router';
import { useEffect, useState } from 'preact/hooks';
import type { components } from '../../../client/schema';
import { api, unwrap } from '../../api';
import { useSubmit } from '../../hooks/use-submit';
import { to } from '../../paths';
import { Confirmed } from '../../ui/confirmed';
import { Failure, Loading, when } from '../../ui/feedback';
import { TableHead } from '../../ui/tables';
import { progressText, rowsHandled } from './progress';

type Job = components['schemas']['ImportJob'];
type Preview = NonNullable<Job['preview']>;

const byId = (id: string) => ({ params: { path: { id } } });
/** How often an applying job is asked for its progress. */
const POLL_MS = 1500;

/**
 * One import job: preview its file (rows by outcome, totals, the first errors), apply it after a
 * confirmation and follow it on a progress bar, resume a failed one, undo a completed one.
 */
export function ImportJob() {
  const id = useRoute().params.id ?? '';
  const [job, setJob] = useState<Job>();
  const [error, setError] = useState<unknown>();
  const applying = job?.status === 'applying';
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let current = true;
    const load = () =>
      unwrap(api.GET('/api/flash/imports/{id}', byId(id))).then((d) => {
        if (!current) return;
        setJob(d.data);
        if (d.data.status === 'applying') timer = setTimeout(load, POLL_MS);
      }, setError);
    // Loaded once, then followed only while it applies (an apply started here turns the poll back on).
    if (job?.id !== id) void load();
    else if (applying) timer = setTimeout(load, POLL_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [id, applying]);
  return (
    <section aria-labelledby="import-title">
      <p>
        <a href={to.imports}>Back to the imports</a>
      </p>
      <h1 id="import-title">Import {id}</h1>
      {error ? <Failure error={error} /> : job ? <JobBody job={job} onChange={setJob} /> : <Loading what="the import job" />}
    </section>
  );
}

function JobBody({ job, onChange }: { job: Job; onChange: (job: Job) => void }) {
  const calls = {
    preview: () => api.POST('/api/flash/imports/{id}/preview', byId(job.id)),
    apply: () => api.POST('/api/flash/imports/{id}/apply', byId(job.id)),
    undo: () => api.POST('/api/flash/imports/{id}/undo', byId(job.id)),
  };
  const act: Act = (what) => async () => onChange((await unwrap(calls[what]())).data);
  const preview = useSubmit(act('preview'));
  const mayPreview = job.status === 'awaiting_upload' || job.status === 'previewed';
  return (
    <>
      <p role="status">
        {job.kind} ({job.format}), created {when(job.createdAt)}: <strong>{job.status}</strong>
        {job.error ? `: ${job.error}` : null}
      </p>
      {mayPreview ? (
        <p>
          <button type="button" disabled={preview.busy} onClick={() => preview.onSubmit()}>
            {job.preview ? 'Preview again' : 'Preview the file'}
          </button>
          {preview.error ? <Failure error={preview.error} /> : null}
        </p>
      ) : null}
      {job.preview ? <PreviewCard preview={job.preview} /> : null}
      {job.status === 'previewed' ? (
        <Confirmed open={{ text: 'Apply', label: `Apply import ${job.id}` }} legend="Apply the import?" confirm="Apply the import" run={act('apply')}>
          {job.preview?.valid ?? 0} valid rows will be written; the {job.preview?.invalid ?? 0} invalid rows are skipped.
        </Confirmed>
      ) : null}
      {job.status !== 'awaiting_upload' && job.status !== 'previewed' ? <Applied job={job} act={act} /> : null}
    </>
  );
}

function PreviewCard({ preview }: { preview: Preview }) {
  const t = preview.totals;
  return (
    <section class="card" aria-labelledby="preview-title">
      <h2 id="preview-title">Preview</h2>
      <p>
        {preview.rows} rows: {preview.valid} valid, {preview.invalid} invalid (checked {when(preview.previewedAt)}).
      </p>
      <dl>
        {Object.entries(preview.outcomes).map(([outcome, n]) => (
          <div key={outcome}>
            <dt>{outcome}</dt>
            <dd>{n}</dd>
          </div>
        ))}
        <dt>Members created</dt>
        <dd>{t.members}</dd>
        <dt>Points added</dt>
        <dd>{t.points}</dd>
        {t.pointsRemoved ? (
          <>
            <dt>Points taken away</dt>
            <dd>{t.pointsRemoved}</dd>
          </>
        ) : null}
      </dl>
      {preview.errors.length ? (
        <table>
          <caption>The first errors, by line of the file</caption>
          <TableHead columns={['Line', 'Field', 'Problem']} />
          <tbody>
            {preview.errors.map((e) => (
              <tr key={`${e.line}:${e.field}`}>
                <td>{e.line}</td>
                <td>{e.field}</td>
                <td>{e.message}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}

type Act = (what: 'preview' | 'apply' | 'undo') => () => Promise<void>;

/** The apply's progress while it runs, then its end: resume a failed job, undo a finished one. */
function Applied({ job, act }: { job: Job; act: Act }) {
  const p = job.progress;
  const text = progressText(p, Date.now());
  const resume = useSubmit(act('apply'));
  return (
    <section class="card" aria-labelledby="apply-title">
      <h2 id="apply-title">Apply</h2>
      <label for="import-progress">Rows applied</label>
      <progress id="import-progress" max={p.rows ?? undefined} value={p.rows === null ? undefined : rowsHandled(p)} aria-valuetext={text} />
      <p>
        {text}: {p.done} applied, {p.skipped} skipped (applied before), {p.failed} failed.
      </p>
      {job.completedAt ? <p>Ended {when(job.completedAt)}.</p> : null}
      {job.undo ? (
        <p>
          Undone: {job.undo.undone} rows taken back, {job.undo.kept} members kept (changed since).
        </p>
      ) : null}
      {job.status === 'failed' ? (
        <p>
          <button type="button" disabled={resume.busy} onClick={() => resume.onSubmit()}>
            Apply again to resume
          </button>
          {resume.error ? <Failure error={resume.error} /> : null}
        </p>
      ) : null}
      {job.status === 'completed' || job.status === 'failed' ? (
        <Confirmed open={{ text: 'Undo', label: `Undo import ${job.id}` }} legend="Undo the import?" confirm="Undo the import" run={act('undo')}>
          Every row the job applied is taken back; members it created are removed unless they changed since.
        </Confirmed>
      ) : null}
    </section>
  );
}
