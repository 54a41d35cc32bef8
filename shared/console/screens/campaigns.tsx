import { useState } from 'preact/hooks';
import { api, unwrap } from '../api';
import { Confirmed, Failure, Listing, TableHead, usePaged, useSubmit } from '../components';
import { type Campaign, describeEffect, describeTrigger } from '../drafts';
import { CampaignEditor } from './campaign-editor';
import { SimulateOrder } from './campaign-simulator';

/** What is open under the list: a campaign being created or edited. */
type Open = { kind: 'new' } | { kind: 'edit'; campaign: Campaign } | undefined;

/** The program's campaigns: listed with what they granted, created, edited, paused, deleted, and tried on an order. */
export function Campaigns() {
  const [open, setOpen] = useState<Open>();
  const list = usePaged((page) => unwrap(api.GET('/api/flash/campaigns', { params: { query: { limit: 50, ...page } } })), '');
  const changed = () => {
    setOpen(undefined);
    list.reload();
  };
  return (
    <section class="card" aria-labelledby="campaigns-title">
      <h2 id="campaigns-title">Campaigns</h2>
      <p>Rules that reward more than the earn rate when an order meets their conditions. Only active campaigns grant.</p>
      <p>
        <button type="button" onClick={() => setOpen({ kind: 'new' })}>
          New campaign
        </button>
      </p>
      <Listing list={list} what="campaigns" empty="No campaigns yet: create one to reward more than the earn rate.">
        {(campaigns) => <CampaignTable campaigns={campaigns} onEdit={(c) => setOpen({ kind: 'edit', campaign: c })} onChanged={changed} />}
      </Listing>
      {open ? (
        <CampaignEditor
          key={open.kind === 'edit' ? `${open.campaign.id}:${open.campaign.version}` : 'new'}
          existing={open.kind === 'edit' ? open.campaign : undefined}
          onSaved={changed}
          onCancel={() => setOpen(undefined)}
        />
      ) : null}
      <SimulateOrder campaigns={list.state === 'ready' ? list.data.data : []} />
    </section>
  );
}

function CampaignTable({ campaigns, onEdit, onChanged }: { campaigns: Campaign[]; onEdit: (c: Campaign) => void; onChanged: () => void }) {
  return (
    <table>
      <caption>Higher priority first in each evaluation</caption>
      <TableHead columns={['Name', 'Status', 'Trigger', 'Effect', 'Grants', 'Points granted']} actions />
      <tbody>
        {campaigns.map((c) => (
          <tr key={c.id}>
            <td>{c.name}</td>
            <td>{c.status}</td>
            <td>{describeTrigger(c.trigger)}</td>
            <td>{describeEffect(c.effect)}</td>
            <td>{c.grants}</td>
            <td>{c.pointsGranted}</td>
            <td>
              <button type="button" aria-label={`Edit ${c.name}`} onClick={() => onEdit(c)}>
                Edit
              </button>{' '}
              <PauseOrActivate campaign={c} onChanged={onChanged} /> <DeleteCampaign campaign={c} onDeleted={onChanged} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** An active campaign pauses, a draft or paused one goes live; the version read is sent, so a change made meanwhile is a 409. */
function PauseOrActivate({ campaign, onChanged }: { campaign: Campaign; onChanged: () => void }) {
  const next = campaign.status === 'active' ? 'paused' : 'active';
  const { onSubmit, busy, error } = useSubmit(async () => {
    await unwrap(api.PATCH('/api/flash/campaigns/{id}', { params: { path: { id: campaign.id } }, body: { status: next, version: campaign.version } }));
    onChanged();
  });
  if (campaign.status === 'ended') return null;
  const verb = next === 'paused' ? 'Pause' : 'Activate';
  return (
    <>
      <button type="button" aria-label={`${verb} ${campaign.name}`} disabled={busy} onClick={() => onSubmit()}>
        {verb}
      </button>
      {error ? <Failure error={error} /> : null}
    </>
  );
}

function DeleteCampaign({ campaign, onDeleted }: { campaign: Campaign; onDeleted: () => void }) {
  return (
    <Confirmed
      open={{ text: 'Delete', label: `Delete ${campaign.name}` }}
      legend={`Confirm deleting ${campaign.name}`}
      confirm="Delete campaign"
      run={async () => {
        await unwrap(api.DELETE('/api/flash/campaigns/{id}', { params: { path: { id: campaign.id } } }));
        onDeleted();
      }}
    >
      It grants nothing from now on; points it granted stay in the members' ledgers.
    </Confirmed>
  );
}
