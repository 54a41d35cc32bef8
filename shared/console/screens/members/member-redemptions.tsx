import { api, unwrap } from '../../api';
import { usePaged } from '../../hooks/use-paged';
import { useMay } from '../../permissions';
import { Confirmed } from '../../ui/confirmed';
import { when } from '../../ui/feedback';
import { Listing, TableHead } from '../../ui/tables';

/**
 * The member's reward redemptions, newest first: what was taken, its code and where it stands; an
 * unused one can be voided (its points given back) by a person whose role may redeem.
 */
export function MemberRedemptions({ id, onVoided }: { id: string; onVoided: (confirmation: string) => void }) {
  const list = usePaged((page) => unwrap(api.GET('/api/flash/members/{id}/redemptions', { params: { path: { id }, query: { limit: 10, ...page } } })), [id]);
  const mayVoid = useMay()('POST /api/flash/redemptions/{id}/void');
  return (
    <section class="card" aria-labelledby="redemptions-title">
      <h2 id="redemptions-title">Rewards redeemed</h2>
      <Listing list={list} what="redemptions" empty="No rewards redeemed yet.">
        {(redemptions) => (
          <table>
            <caption>Newest first</caption>
            <TableHead columns={['Reward', 'When', 'Points', 'Code', 'Status']} actions={mayVoid} />
            <tbody>
              {redemptions.map((r) => (
                <tr key={r.id}>
                  <td>{r.rewardName}</td>
                  <td>{when(r.createdAt)}</td>
                  <td>{r.pointsSpent}</td>
                  <td>{r.couponCode ? <code>{r.couponCode}</code> : '—'}</td>
                  <td data-testid={`redemption-status-${r.id}`}>
                    {r.status === 'used' ? `used${r.externalOrderId ? ` on ${r.externalOrderId}` : ''}` : r.status}
                  </td>
                  {mayVoid ? (
                    <td>
                      {r.status === 'issued' ? (
                        <Confirmed
                          open={{ text: 'Void', label: `Void ${r.rewardName} of ${when(r.createdAt)}` }}
                          legend={`Confirm voiding ${r.rewardName}`}
                          confirm="Void redemption"
                          run={async () => {
                            await unwrap(api.POST('/api/flash/redemptions/{id}/void', { params: { path: { id: r.id } } }));
                            list.reload();
                            onVoided(`Voided ${r.rewardName}: ${r.pointsSpent} points given back.`);
                          }}
                        >
                          The {r.pointsSpent} points go back to the member and the code stops working.
                        </Confirmed>
                      ) : null}
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Listing>
    </section>
  );
}
