import { useLocation, useRoute } from 'preact-iso/router';
import { useState } from 'preact/hooks';
import type { components, operations } from '../../../client/schema';
import { api, unwrap } from '../../api';
import { to } from '../../paths';
import { useLoad } from '../../hooks/use-load';
import { usePaged } from '../../hooks/use-paged';
import { useSubmit } from '../../hooks/use-submit';
import { Confirmed } from '../../ui/confirmed';
import { CopyButton } from '../../ui/copy-button';
import { Failure, Loading, when } from '../../ui/feedback';
import { Listing, TableHead } from '../../ui/tables';
import { DeliveryLog } from './webhook-deliveries';

type Endpoint = components['schemas']['WebhookEndpoint'];
type EventChoice = operations['adminCreateWebhookEndpoint']['requestBody']['content']['application/json']['eventTypes'][number];
type Shown = { title: string; secret: string };
const ALL_EVENTS: EventChoice = '*';

/** Webhook endpoints: create (secret shown once), rotate, disable, delete, test; the delivery log of one at its address (`/console/webhooks/:id/deliveries`). */
export function Webhooks() {
  const [shown, setShown] = useState<Shown>();
  const logOf = useRoute().params.id;
  const { route } = useLocation();
  const list = usePaged((page) => unwrap(api.GET('/api/flash/webhooks', { params: { query: { limit: 20, ...page } } })), []);
  const changed = (s?: Shown) => {
    if (s) setShown(s);
    list.reload();
  };
  const deleted = (id: string) => {
    // The log of an endpoint that is gone closes with it.
    if (id === logOf) route(to.webhooks, true);
    list.reload();
  };
  return (
    <section aria-labelledby="webhooks-title">
      <h1 id="webhooks-title">Webhooks</h1>
      <CreateEndpoint
        onCreated={(s) => {
          list.paging.first();
          changed(s);
        }}
      />
      {shown ? <SecretShownOnce shown={shown} onDone={() => setShown(undefined)} /> : null}
      <Listing list={list} what="webhook endpoints" empty="No webhook endpoints yet: add one above.">
        {(endpoints) => <EndpointTable endpoints={endpoints} onChanged={changed} onDeleted={deleted} />}
      </Listing>
      {logOf ? <DeliveryLog key={logOf} endpointId={logOf} url={list.state === 'ready' ? list.data.data.find((e) => e.id === logOf)?.url : undefined} /> : null}
    </section>
  );
}

function CreateEndpoint({ onCreated }: { onCreated: (s: Shown) => void }) {
  const catalog = useLoad(() => unwrap(api.GET('/api/flash/events/catalog')), []);
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<EventChoice[]>([]);
  const { onSubmit, busy, error } = useSubmit(async () => {
    const made = await unwrap(api.POST('/api/flash/webhooks', { body: { url, description, eventTypes: events } }));
    onCreated({ title: `Endpoint ${made.data.url} created`, secret: made.data.secret });
    setUrl('');
    setDescription('');
    setEvents([]);
  });
  const toggle = (event: EventChoice, on: boolean) =>
    setEvents(on ? [...events.filter((e) => (event === ALL_EVENTS ? false : e !== ALL_EVENTS)), event] : events.filter((e) => e !== event));
  return (
    <form onSubmit={onSubmit} class="card" aria-labelledby="create-endpoint-title">
      <h2 id="create-endpoint-title">Add an endpoint</h2>
      <label>
        URL
        <input name="url" type="url" required maxLength={2048} placeholder="https://…" value={url} onInput={(e) => setUrl(e.currentTarget.value)} />
      </label>
      <label>
        Description
        <input name="description" maxLength={500} value={description} onInput={(e) => setDescription(e.currentTarget.value)} />
      </label>
      <fieldset class="scopes">
        <legend>Events</legend>
        <label class="check">
          <input type="checkbox" checked={events.includes(ALL_EVENTS)} onChange={(e) => toggle(ALL_EVENTS, e.currentTarget.checked)} />
          Every event, including events added later
        </label>
        {catalog.state === 'loading' ? <Loading what="the event catalog" /> : null}
        {catalog.state === 'failed' ? <Failure error={catalog.error} /> : null}
        {catalog.state === 'ready'
          ? catalog.data.data.events
              .map(({ event, label }) => ({ event: event as EventChoice, label }))
              .map((e) => (
                <label key={e.event} class="check">
                  <input type="checkbox" checked={events.includes(e.event)} onChange={(ev) => toggle(e.event, ev.currentTarget.checked)} />
                  <code>{e.event}</code> {e.label}
                </label>
              ))
          : null}
      </fieldset>
      {error ? <Failure error={error} /> : null}
      <button type="submit" disabled={busy}>
        Create endpoint
      </button>
    </form>
  );
}

/** A signing secret, shown this once (at creation or rotation): the list never shows it again. */
function SecretShownOnce({ shown, onDone }: { shown: Shown; onDone: () => void }) {
  return (
    <section class="card shown-once" aria-labelledby="secret-title">
      <h2 id="secret-title">{shown.title}</h2>
      <p>Copy the signing secret now: it is shown only this once. Your receiver verifies each delivery's signature with it.</p>
      <p>
        <code data-testid="new-secret">{shown.secret}</code>
      </p>
      <CopyButton text={shown.secret} what="secret" />{' '}
      <button type="button" onClick={onDone}>
        Done
      </button>
    </section>
  );
}

function EndpointTable(props: { endpoints: Endpoint[]; onChanged: (s?: Shown) => void; onDeleted: (id: string) => void }) {
  const { endpoints } = props;
  return (
    <table>
      <caption>Endpoints of this workspace</caption>
      <TableHead columns={['URL', 'Events', 'Status', 'Created']} actions />
      <tbody>
        {endpoints.map((e) => (
          <tr key={e.id}>
            <td>
              <code>{e.url}</code>
              {e.description ? <div class="meta">{e.description}</div> : null}
            </td>
            <td>{e.eventTypes.includes(ALL_EVENTS) ? 'Every event' : e.eventTypes.join(', ')}</td>
            <td>
              {e.status}
              {e.disabledReason ? <div class="meta">{e.disabledReason}</div> : null}
            </td>
            <td>{when(e.createdAt)}</td>
            <td>
              <a href={to.deliveries(e.id)} aria-label={`Delivery log of ${e.url}`}>
                Delivery log
              </a>{' '}
              <EndpointActions endpoint={e} onChanged={props.onChanged} onDeleted={() => props.onDeleted(e.id)} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** One endpoint's writes, each sent once per click with its error in the API's words; the ones that stop or change deliveries ask first. */
function EndpointActions({ endpoint, onChanged, onDeleted }: { endpoint: Endpoint; onChanged: (s?: Shown) => void; onDeleted: () => void }) {
  const path = { params: { path: { id: endpoint.id } } };
  const [done, setDone] = useState<string>();
  const test = useSubmit(async () => {
    const sent = await unwrap(api.POST('/api/flash/webhooks/{id}/test', path));
    setDone(`Test event ${sent.data.eventId} queued`);
  });
  const enable = useSubmit(async () => {
    await unwrap(api.PATCH('/api/flash/webhooks/{id}', { ...path, body: { status: 'active' } }));
    onChanged();
  });
  const error = test.error ?? enable.error;
  return (
    <>
      <button type="button" aria-label={`Send test event to ${endpoint.url}`} disabled={test.busy} onClick={() => test.onSubmit()}>
        Send test event
      </button>{' '}
      <Confirmed
        open={{ text: 'Rotate secret', label: `Rotate secret of ${endpoint.url}` }}
        legend={`Confirm rotating the secret of ${endpoint.url}`}
        confirm="Rotate secret"
        run={async () => {
          const rotated = await unwrap(api.PATCH('/api/flash/webhooks/{id}', { ...path, body: { action: 'rotate_secret' } }));
          onChanged({ title: `New secret for ${endpoint.url}`, secret: rotated.data.secret ?? '' });
        }}
      >
        A new secret signs every delivery; the current one keeps signing beside it for 24 hours, then receivers that still verify with it refuse deliveries.
      </Confirmed>{' '}
      {endpoint.status === 'active' ? (
        <Confirmed
          open={{ text: 'Disable', label: `Disable ${endpoint.url}` }}
          legend={`Confirm disabling ${endpoint.url}`}
          confirm="Disable endpoint"
          run={async () => {
            await unwrap(api.PATCH('/api/flash/webhooks/{id}', { ...path, body: { status: 'disabled' } }));
            onChanged();
          }}
        >
          Nothing is sent while it is disabled: queued and retrying deliveries are cancelled, and events meanwhile are not delivered.
        </Confirmed>
      ) : (
        <button type="button" aria-label={`Enable ${endpoint.url}`} disabled={enable.busy} onClick={() => enable.onSubmit()}>
          Enable
        </button>
      )}{' '}
      <DeleteEndpoint endpoint={endpoint} onDeleted={onDeleted} />
      {done ? <p role="status">{done}</p> : null}
      {error ? <Failure error={error} /> : null}
    </>
  );
}

/** Deleting asks first: deliveries stop at once. */
function DeleteEndpoint({ endpoint, onDeleted }: { endpoint: Endpoint; onDeleted: () => void }) {
  return (
    <Confirmed
      open={{ text: 'Delete', label: `Delete ${endpoint.url}` }}
      legend={`Confirm deleting ${endpoint.url}`}
      confirm="Delete endpoint"
      run={async () => {
        await unwrap(api.DELETE('/api/flash/webhooks/{id}', { params: { path: { id: endpoint.id } } }));
        onDeleted();
      }}
    >
      No further deliveries; queued ones are dropped.
    </Confirmed>
  );
}
