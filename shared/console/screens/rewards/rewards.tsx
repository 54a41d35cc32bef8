import { useLocation, useRoute } from 'preact-iso/router';
import { api, unwrap } from '../../api';
import { usePaged } from '../../hooks/use-paged';
import { NEW_REWARD, to } from '../../paths';
import { useMay } from '../../permissions';
import { Listing, TableHead } from '../../ui/tables';
import { OpenReward, RewardEditor } from './reward-editor';
import { pointsInWords, type Reward, STATUS_NAMES, stockInWords, TYPE_NAMES } from './words';

const STATUSES = Object.keys(STATUS_NAMES) as Reward['status'][];
const statusOf = (s: string | undefined): Reward['status'] | undefined => STATUSES.find((x) => x === s);

/**
 * The rewards catalog: the list, narrowed by status (in the address, so Back returns to it), and
 * under it the reward the address names (`/console/rewards/:id`, `new` for a new one) to edit, with
 * the card a member sees. A role without rewards:manage sees the list only.
 */
export function Rewards() {
  const open = useRoute().params.id;
  const { query, route } = useLocation();
  const status = statusOf(query.status);
  const list = usePaged(
    (page) => unwrap(api.GET('/api/flash/rewards', { params: { query: { limit: 50, ...(status ? { status } : {}), ...page } } })),
    [status],
  );
  const manage = useMay()('POST /api/flash/rewards');
  const back = status ? `${to.rewards}?${new URLSearchParams({ status })}` : to.rewards;
  const close = () => route(back, true);
  const saved = () => {
    close();
    list.reload();
  };
  return (
    <section aria-labelledby="rewards-title">
      <h1 id="rewards-title">Rewards</h1>
      <p>What members spend their points on. Only an active reward can be redeemed.</p>
      <div class="filters">
        <label>
          Status
          <select
            name="status"
            value={status ?? ''}
            onChange={(e) => {
              list.paging.first();
              const s = statusOf(e.currentTarget.value);
              route(s ? `${to.rewards}?${new URLSearchParams({ status: s })}` : to.rewards, true);
            }}
          >
            <option value="">Any status</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {STATUS_NAMES[s]}
              </option>
            ))}
          </select>
        </label>
        {manage ? <a href={to.reward(NEW_REWARD)}>New reward</a> : null}
      </div>
      <Listing list={list} what="rewards" empty={status ? `No ${STATUS_NAMES[status].toLowerCase()} rewards.` : 'No rewards yet.'}>
        {(rewards) => <RewardTable rewards={rewards} manage={manage} />}
      </Listing>
      {manage && open === NEW_REWARD ? <RewardEditor key="new" existing={undefined} onSaved={saved} onCancel={close} /> : null}
      {manage && open && open !== NEW_REWARD ? <OpenReward id={open} onChanged={list.reload} onCancel={close} /> : null}
    </section>
  );
}

function RewardTable({ rewards, manage }: { rewards: Reward[]; manage: boolean }) {
  return (
    <table>
      <caption>Newest first</caption>
      <TableHead columns={['Name', 'Type', 'Price', 'Stock', 'Status']} />
      <tbody>
        {rewards.map((r) => (
          <tr key={r.id}>
            <td>{manage ? <a href={to.reward(r.id)}>{r.name}</a> : r.name}</td>
            <td>{TYPE_NAMES[r.benefit.type]}</td>
            <td>{pointsInWords(r.pointsCost)}</td>
            <td>{stockInWords(r)}</td>
            <td>{STATUS_NAMES[r.status]}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
