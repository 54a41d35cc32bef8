import { useState } from 'preact/hooks';
import type { components, operations } from '../../../client/schema';
import { api, unwrap } from '../../api';
import { useBroughtIntoView } from '../../hooks/use-brought-into-view';
import { usePaged } from '../../hooks/use-paged';
import { useSubmit } from '../../hooks/use-submit';
import { Failure, when } from '../../ui/feedback';
import { Listing, TableHead } from '../../ui/tables';

type Attempt = components['schemas']['WebhookAttempt'];
type Status = NonNullable<NonNullable<operations['adminListWebhookDeliveries']['parameters']['query']>['status']>;
const STATUSES: Status[] = ['delivered', 'retrying', 'failed', 'dead', 'cancelled'];

/** One endpoint's delivery log (named by its URL, or its id when the list's page does not hold it): filtered by status or to one delivery's attempts, replays one or every dead one. */
export function DeliveryLog({ endpointId, url }: { endpointId: string; url: string | undefined }) {
  const view = useBroughtIntoView<HTMLElement>(endpointId);
  const [status, setStatus] = useState<Status | ''>('');
  const [applied, setApplied] = useState<{ status: Status | ''; deliveryId?: string }>({ status: '' });
  const filters = {
    limit: 25,
    ...(applied.status ? { status: applied.status } : {}),
    ...(applied.deliveryId ? { deliveryId: applied.deliveryId } : {}),
  };
  const log = usePaged(
    (page) => unwrap(api.GET('/api/flash/webhooks/{id}/deliveries', { params: { path: { id: endpointId }, query: { ...filters, ...page } } })),
    [JSON.stringify(filters)],
  );
  const narrow = (next: typeof applied) => {
    log.paging.first();
    setApplied(next);
  };
  return (
    <section ref={view} class="card" aria-labelledby="log-title">
      <h2 id="log-title">Delivery log of {url ?? endpointId}</h2>
      <form
        class="filters"
        aria-label="Filter the delivery log"
        onSubmit={(e) => {
          e.preventDefault();
          narrow({ status });
        }}
      >
        <label>
          Status
          <select name="status" value={status} onChange={(e) => setStatus(e.currentTarget.value as Status | '')}>
            <option value="">Every status</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
        <button type="submit">Show deliveries</button>{' '}
        <button type="button" onClick={log.reload}>
          Refresh
        </button>
      </form>
      <ReplayDead endpointId={endpointId} onQueued={log.reload} />
      {applied.deliveryId ? (
        <p>
          Attempts of <code>{applied.deliveryId}</code>{' '}
          <button type="button" onClick={() => narrow({ status: applied.status })}>
            Show every delivery
          </button>
        </p>
      ) : null}
      <Listing list={log} what="the delivery log" empty="No deliveries match.">
        {(attempts) => (
          <Attempts endpointId={endpointId} attempts={attempts} onAttemptsOf={(deliveryId) => narrow({ status: '', deliveryId })} onReplayed={log.reload} />
        )}
      </Listing>
    </section>
  );
}

/** Every dead delivery of the endpoint again, in bounded calls: the button sends the next call while the API says more are left. */
function ReplayDead({ endpointId, onQueued }: { endpointId: string; onQueued: () => void }) {
  const [done, setDone] = useState<string>();
  const { onSubmit, busy, error } = useSubmit(async () => {
    const { data } = await unwrap(api.POST('/api/flash/webhooks/{id}/deliveries/replay-dead', { params: { path: { id: endpointId } } }));
    const noun = data.queued === 1 ? 'dead delivery' : 'dead deliveries';
    setDone(`Queued ${data.queued} ${noun} again${data.more ? '; more are left: replay again' : ''}`);
    onQueued();
  });
  return (
    <div>
      <button type="button" disabled={busy} onClick={() => onSubmit()}>
        Replay every dead delivery
      </button>
      {done ? <p role="status">{done}</p> : null}
      {error ? <Failure error={error} /> : null}
    </div>
  );
}

/** The states that end a delivery's chain: only then may it be replayed (the API refuses a live one with 409). */
const FINAL: readonly Attempt['state'][] = ['delivered', 'failed', 'dead', 'cancelled'];

/**
 * Replay is offered on the newest row of each delivery on the page, and only when that row left the
 * delivery final: an older row's state is history, and a retrying one is still being sent.
 */
function replayableRows(attempts: Attempt[]): Set<string> {
  const seen = new Set<string>();
  const rows = new Set<string>();
  for (const a of attempts) {
    if (seen.has(a.deliveryId)) continue;
    seen.add(a.deliveryId);
    if (FINAL.includes(a.state)) rows.add(a.id);
  }
  return rows;
}

function Attempts(props: { endpointId: string; attempts: Attempt[]; onAttemptsOf: (deliveryId: string) => void; onReplayed: () => void }) {
  const replayable = replayableRows(props.attempts);
  return (
    <table>
      <caption>Newest first: one row per attempt</caption>
      <TableHead columns={['When', 'Event', 'Attempt', 'Answer', 'Duration', 'Response', 'State']} actions />
      <tbody>
        {props.attempts.map((a) => (
          <tr key={a.id}>
            <td>{when(a.at)}</td>
            <td>
              <code>{a.eventType}</code>
              <div class="meta">{a.deliveryId}</div>
            </td>
            <td>
              {a.attempt} ({a.trigger})
            </td>
            <td>{a.statusCode ?? a.error}</td>
            <td>{a.durationMs} ms</td>
            <td>{a.responseExcerpt ? <code>{a.responseExcerpt}</code> : '—'}</td>
            <td>{a.state}</td>
            <td>
              <button type="button" aria-label={`Attempts of ${a.deliveryId}`} onClick={() => props.onAttemptsOf(a.deliveryId)}>
                Attempts
              </button>
              {replayable.has(a.id) ? (
                <>
                  {' '}
                  <ReplayOne endpointId={props.endpointId} deliveryId={a.deliveryId} onReplayed={props.onReplayed} />
                </>
              ) : null}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function ReplayOne({ endpointId, deliveryId, onReplayed }: { endpointId: string; deliveryId: string; onReplayed: () => void }) {
  const { onSubmit, busy, error } = useSubmit(async () => {
    await unwrap(api.POST('/api/flash/webhooks/{id}/deliveries/{deliveryId}/replay', { params: { path: { id: endpointId, deliveryId } } }));
    onReplayed();
  });
  return (
    <>
      <button type="button" aria-label={`Replay ${deliveryId}`} disabled={busy} onClick={() => onSubmit()}>
        Replay
      </button>
      {error ? <Failure error={error} /> : null}
    </>
  );
}
