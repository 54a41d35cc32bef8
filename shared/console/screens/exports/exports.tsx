import { useEffect, useState } from 'preact/hooks';
import type { components } from '../../../client/schema';
import { api, unwrap } from '../../api';
import { type Loaded, useLoad } from '../../hooks/use-load';
import { useSubmit } from '../../hooks/use-submit';
import { useMay } from '../../permissions';
import { Confirmed } from '../../ui/confirmed';
import { Failure, Loading, when } from '../../ui/feedback';
import { FileFormatField } from '../../ui/fields';
import { Listing, TableHead } from '../../ui/tables';

type Job = components['schemas']['ExportJob'];
type OperationalJob = components['schemas']['OperationalExportJob'];
type Schedule = components['schemas']['ExportSchedule'];
type Entity = OperationalJob['entity'];
type Format = OperationalJob['format'];

export function Exports() {
  const files = useLoad(() => unwrap(api.GET('/api/flash/exports')), []);
  const may = useMay();
  return (
    <section aria-labelledby="exports-title">
      <h1 id="exports-title">Exports</h1>
      {may('GET /api/flash/account/data-export') ? <Archive /> : null}
      <Operational onFinished={files.reload} />
      <Files list={files} />
      <Schedules />
    </section>
  );
}

/** A fresh download link (valid minutes only), asked for when the person wants the file. */
function DownloadLink({ jobId, label, ask = 'Get a download link for' }: { jobId: string; label: string; ask?: string }) {
  const [url, setUrl] = useState<string>();
  const [error, setError] = useState<unknown>();
  if (url) return <a href={url}>Download {label}</a>;
  return (
    <>
      <button
        type="button"
        onClick={() => unwrap(api.GET('/api/flash/exports/{id}/download', { params: { path: { id: jobId } } })).then((d) => setUrl(d.data.url), setError)}
      >
        {ask} {label}
      </button>
      {error ? <Failure error={error} /> : null}
    </>
  );
}

function Archive() {
  const jobs = useLoad(() => unwrap(api.GET('/api/flash/account/data-export')).then((r) => ({ data: r.data.jobs })), []);
  const {
    onSubmit: start,
    busy,
    error,
  } = useSubmit(async () => {
    await unwrap(api.POST('/api/flash/account/data-export'));
    jobs.reload();
  });
  return (
    <section class="card" aria-labelledby="archive-title">
      <h2 id="archive-title">Workspace archive</h2>
      <p>Everything of the workspace in one JSON document: members (pseudonymous), orders and campaigns.</p>
      <button type="button" disabled={busy} onClick={() => start()}>
        Start an archive
      </button>{' '}
      <button type="button" onClick={jobs.reload}>
        Refresh
      </button>
      {error ? <Failure error={error} /> : null}
      <Listing list={jobs} what="archive jobs" empty="No archive made yet.">
        {(made) => <JobTable jobs={made} />}
      </Listing>
    </section>
  );
}

function JobTable({ jobs }: { jobs: Job[] }) {
  return (
    <table>
      <caption>Archive jobs, newest first</caption>
      <TableHead columns={['Started', 'Status', 'Records', 'File']} />
      <tbody>
        {jobs.map((j) => (
          <tr key={j.id}>
            <td>{when(j.createdAt)}</td>
            <td>{j.error ? `${j.status}: ${j.error}` : j.status}</td>
            <td>{j.rowCount ?? '—'}</td>
            <td>{j.status === 'completed' ? <DownloadLink jobId={j.id} label={`archive ${j.id}`} /> : '—'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Starts one operational export and follows it until it ends (a job takes seconds). */
/** The members' export holds their personal data: offered only to a person who may read members. */
const useMembersExport = () => useMay()('GET /api/flash/members');

function Operational({ onFinished }: { onFinished: () => void }) {
  const members = useMembersExport();
  const [entity, setEntity] = useState<Entity>(members ? 'members' : 'orders');
  const [format, setFormat] = useState<Format>('csv');
  const [jobId, setJobId] = useState<string>();
  const {
    onSubmit: submit,
    busy,
    error,
  } = useSubmit(async () => setJobId((await unwrap(api.POST('/api/flash/exports', { body: { entity, format } }))).data.id));
  return (
    <form class="card" onSubmit={submit} aria-labelledby="operational-title">
      <h2 id="operational-title">Members or orders as a file</h2>
      <label>
        What
        <select name="entity" value={entity} onChange={(e) => setEntity(e.currentTarget.value as Entity)}>
          {members ? <option value="members">Members</option> : null}
          <option value="orders">Orders</option>
          <option value="ledger">Points journal (every ledger entry)</option>
        </select>
      </label>
      <FileFormatField value={format} onValue={setFormat} />
      <button type="submit" disabled={busy}>
        Start the export
      </button>
      {error ? <Failure error={error} /> : null}
      {jobId ? <JobProgress key={jobId} jobId={jobId} onFinished={onFinished} /> : null}
    </form>
  );
}

function JobProgress({ jobId, onFinished }: { jobId: string; onFinished: () => void }) {
  const [job, setJob] = useState<OperationalJob>();
  const [error, setError] = useState<unknown>();
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = () =>
      unwrap(api.GET('/api/flash/exports/{id}', { params: { path: { id: jobId } } })).then((d) => {
        setJob(d.data);
        if (d.data.status === 'pending' || d.data.status === 'running') timer = setTimeout(poll, 1000);
        else onFinished();
      }, setError);
    void poll();
    return () => clearTimeout(timer);
  }, [jobId]);
  if (error) return <Failure error={error} />;
  if (!job) return <Loading what="the export" />;
  return (
    <p role="status">
      Export {job.id}: {job.status}
      {job.status === 'completed' ? (
        <>
          , {job.rowCount} rows{job.capped ? ' (cut at the row cap)' : ''}. <DownloadLink jobId={job.id} label={`${job.entity}.${job.format}`} />
        </>
      ) : null}
      {job.error ? `: ${job.error}` : null}
    </p>
  );
}

/**
 * The files of operational exports, by hand or by a schedule, until the bucket deletes them: each
 * with its expiry and a fresh link (every link is minted anew and audited; the old one lapses).
 */
function Files({ list }: { list: Loaded<{ data: OperationalJob[] }> & { reload: () => void } }) {
  return (
    <section class="card" aria-labelledby="files-title">
      <h2 id="files-title">Export files</h2>
      <button type="button" onClick={list.reload}>
        Reload the file list
      </button>
      <Listing list={list} what="export files" empty="No members, orders or journal exported yet.">
        {(jobs) => <FileTable jobs={jobs} />}
      </Listing>
    </section>
  );
}

function FileTable({ jobs }: { jobs: OperationalJob[] }) {
  const now = Date.now();
  const members = useMembersExport();
  return (
    <table>
      <caption>Operational exports and scheduled runs, newest first</caption>
      <TableHead columns={['Started', 'What', 'By', 'Status', 'Rows', 'File kept until', 'File']} />
      <tbody>
        {jobs.map((j) => {
          const name = `${j.entity}.${j.format}`;
          const expired = j.fileExpiresAt !== null && Date.parse(j.fileExpiresAt) <= now;
          return (
            <tr key={j.id}>
              <td>{when(j.createdAt)}</td>
              <td>{name}</td>
              <td>{j.scheduleId ? 'Schedule' : 'Hand'}</td>
              <td>{j.error ? `${j.status}: ${j.error}` : j.status}</td>
              <td>{j.rowCount ?? '—'}</td>
              <td>{j.fileExpiresAt ? when(j.fileExpiresAt) : '—'}</td>
              <td>
                {j.status !== 'completed' ? (
                  '—'
                ) : expired ? (
                  'Expired'
                ) : j.entity === 'members' && !members ? (
                  'Not for your role'
                ) : (
                  <DownloadLink jobId={j.id} label={`${name} ${j.id}`} ask="Get a fresh link for" />
                )}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

function Schedules() {
  const list = useLoad(() => unwrap(api.GET('/api/flash/exports/schedules', { params: { query: { limit: 50 } } })), []);
  return (
    <section class="card" aria-labelledby="schedules-title">
      <h2 id="schedules-title">Schedules</h2>
      <NewSchedule onCreated={list.reload} />
      <Listing list={list} what="schedules" empty="No export runs on a schedule.">
        {(schedules) => (
          <ul class="plain-list">
            {schedules.map((s) => (
              <ScheduleRow key={s.id} schedule={s} onDeleted={list.reload} />
            ))}
          </ul>
        )}
      </Listing>
    </section>
  );
}

const describeSchedule = (s: Schedule) =>
  `${s.entity} as ${s.format.toUpperCase()}, ${s.frequency === 'weekly' ? `every ${s.weekday}` : 'every day'} at ${String(s.hour).padStart(2, '0')}:00 ${s.timezone}`;

/** Deleting asks first: no more runs (files already made stay until they expire). */
function ScheduleRow({ schedule, onDeleted }: { schedule: Schedule; onDeleted: () => void }) {
  const described = describeSchedule(schedule);
  return (
    <li>
      {described}{' '}
      <Confirmed
        open={{ text: 'Delete', label: `Delete the schedule: ${described}` }}
        legend={`Confirm deleting the schedule: ${described}`}
        confirm="Delete schedule"
        run={async () => {
          await unwrap(api.DELETE('/api/flash/exports/schedules/{id}', { params: { path: { id: schedule.id } } }));
          onDeleted();
        }}
      >
        It runs no more; files it already made stay until they expire.
      </Confirmed>
    </li>
  );
}

function NewSchedule({ onCreated }: { onCreated: () => void }) {
  const [entity, setEntity] = useState<Entity>('orders');
  const [weekly, setWeekly] = useState(false);
  const [hour, setHour] = useState(6);
  const [timezone, setTimezone] = useState(Intl.DateTimeFormat().resolvedOptions().timeZone);
  const {
    onSubmit: submit,
    busy,
    error,
  } = useSubmit(async () => {
    const body = {
      entity,
      format: 'csv' as const,
      frequency: weekly ? ('weekly' as const) : ('daily' as const),
      hour,
      timezone,
      ...(weekly ? { weekday: 'monday' as const } : {}),
    };
    await unwrap(api.POST('/api/flash/exports/schedules', { body }));
    onCreated();
  });
  return (
    <form onSubmit={submit} class="filters" aria-label="New schedule">
      <label>
        Export
        <select name="schedule-entity" value={entity} onChange={(e) => setEntity(e.currentTarget.value as Entity)}>
          <option value="orders">Orders (CSV)</option>
          {useMembersExport() ? <option value="members">Members (CSV)</option> : null}
          <option value="ledger">Points journal (CSV)</option>
        </select>
      </label>
      <label>
        How often
        <select name="frequency" value={weekly ? 'weekly' : 'daily'} onChange={(e) => setWeekly(e.currentTarget.value === 'weekly')}>
          <option value="daily">Every day</option>
          <option value="weekly">Every Monday</option>
        </select>
      </label>
      <label>
        Hour
        <input type="number" name="hour" min={0} max={23} value={hour} onInput={(e) => setHour(Number(e.currentTarget.value))} />
      </label>
      <label>
        Time zone
        <input name="timezone" value={timezone} onInput={(e) => setTimezone(e.currentTarget.value)} />
      </label>
      <button type="submit" disabled={busy}>
        Add the schedule
      </button>
      {error ? <Failure error={error} /> : null}
    </form>
  );
}
