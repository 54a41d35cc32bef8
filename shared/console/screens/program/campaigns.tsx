import { useLocation, useRoute } from 'preact-iso/router';
import { api, unwrap } from '../../api';
import { useLoad } from '../../hooks/use-load';
import { NEW_CAMPAIGN, to } from '../../paths';
import { usePaged } from '../../hooks/use-paged';
import { useSubmit } from '../../hooks/use-submit';
import { Confirmed } from '../../ui/confirmed';
import { Failure, Loading } from '../../ui/feedback';
import { Listing, TableHead } from '../../ui/tables';
import { type Campaign, campaignSentence } from './drafts';
import { CampaignEditor } from './campaign-editor';
import { SimulateOrder } from './campaign-simulator';
import { useMay } from '../../permissions';

/**
 * The program's campaigns: listed with what they granted, created, edited, paused, deleted, and tried
 * on an order. The editor is the address `/console/program/campaigns/:id` (`new` for a new one), so
 * it can be linked and reloaded, and Back closes it.
 */
export function Campaigns() {
  const open = useRoute().params.id;
  const { route, query } = useLocation();
  const tiers = useLoad(() => unwrap(api.GET('/api/flash/program')).then((p) => p.data.tiers.levels), []);
  const tierName = (key: string) => (tiers.state === 'ready' ? (tiers.data.find((l) => l.key === key)?.name ?? key) : key);
  const list = usePaged((page) => unwrap(api.GET('/api/flash/campaigns', { params: { query: { limit: 50, ...page } } })), []);
  const close = () => route(to.program, true);
  const may = useMay();
  const manage = may('POST /api/flash/campaigns');
  const changed = () => {
    if (open) close();
    list.reload();
  };
  return (
    <section class="card" aria-labelledby="campaigns-title">
      <h2 id="campaigns-title">Campaigns</h2>
      <p>Rules that reward more than the earn rate when an order meets their conditions. Only active campaigns grant.</p>
      {manage ? (
        <p>
          <a href={to.campaign(NEW_CAMPAIGN)}>New campaign</a>
        </p>
      ) : null}
      <Listing list={list} what="campaigns" empty="No campaigns yet: create one to reward more than the earn rate.">
        {(campaigns) => <CampaignTable campaigns={campaigns} tierName={tierName} onChanged={changed} manage={manage} />}
      </Listing>
      {manage && open === NEW_CAMPAIGN && !query.from ? <CampaignEditor key="new" existing={undefined} onSaved={changed} onCancel={close} /> : null}
      {manage && open === NEW_CAMPAIGN && query.from ? <OpenCampaign id={query.from} copy onSaved={changed} onCancel={close} /> : null}
      {manage && open && open !== NEW_CAMPAIGN ? <OpenCampaign id={open} onSaved={changed} onCancel={close} /> : null}
      {may('POST /api/flash/campaigns/simulate') ? <SimulateOrder campaigns={list.state === 'ready' ? list.data.data : []} /> : null}
    </section>
  );
}

/** A campaign's editor, on the campaign as read now (so it edits the version it shows); `copy`: a new campaign that starts as a copy of it. */
function OpenCampaign({ id, copy, onSaved, onCancel }: { id: string; copy?: boolean; onSaved: () => void; onCancel: () => void }) {
  const loaded = useLoad(() => unwrap(api.GET('/api/flash/campaigns/{id}', { params: { path: { id } } })), [id]);
  if (loaded.state === 'loading') return <Loading what="the campaign" />;
  if (loaded.state === 'failed') return <Failure error={loaded.error} />;
  const campaign = loaded.data.data;
  if (copy) return <CampaignEditor key={`copy:${campaign.id}`} existing={undefined} copyOf={campaign} onSaved={onSaved} onCancel={onCancel} />;
  return <CampaignEditor key={`${campaign.id}:${campaign.version}`} existing={campaign} onSaved={onSaved} onCancel={onCancel} />;
}

/** `manage`: the person may change campaigns (else the list has no actions). */
function CampaignTable({
  campaigns,
  tierName,
  onChanged,
  manage,
}: {
  campaigns: Campaign[];
  tierName: (key: string) => string;
  onChanged: () => void;
  manage: boolean;
}) {
  return (
    <table>
      <caption>Higher priority first in each evaluation</caption>
      <TableHead columns={['Name', 'Status', 'What it does', 'Grants', 'Points granted']} actions={manage} />
      <tbody>
        {campaigns.map((c) => (
          <tr key={c.id}>
            <td>{c.name}</td>
            <td>{c.status}</td>
            <td>{campaignSentence(c, tierName)}</td>
            <td>{c.grants}</td>
            <td>{c.pointsGranted}</td>
            {manage ? (
              <td>
                <a href={to.campaign(c.id)} aria-label={`Edit ${c.name}`}>
                  Edit
                </a>{' '}
                <a href={`${to.campaign(NEW_CAMPAIGN)}?${new URLSearchParams({ from: c.id })}`} aria-label={`Duplicate ${c.name}`}>
                  Duplicate
                </a>{' '}
                <PauseOrActivate campaign={c} onChanged={onChanged} /> <DeleteCampaign campaign={c} onDeleted={onChanged} />
              </td>
            ) : null}
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
