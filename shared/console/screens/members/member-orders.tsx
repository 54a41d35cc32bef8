import { api, unwrap } from '../../api';
import { usePaged } from '../../hooks/use-paged';
import { when } from '../../ui/feedback';
import { Listing, TableHead } from '../../ui/tables';

/** An amount in major units of its currency, as the shop wrote it (e.g. 49,90 €). */
export const moneyText = (amount: number, currency: string): string => {
  try {
    return new Intl.NumberFormat(undefined, { style: 'currency', currency }).format(amount);
  } catch {
    return `${amount} ${currency}`;
  }
};

const refundText = (o: { refundStatus: 'none' | 'partial' | 'full'; refundedTotal: number; currency: string }): string =>
  o.refundStatus === 'none' ? '—' : `${o.refundStatus === 'full' ? 'Refunded' : 'Partly refunded'}: ${moneyText(o.refundedTotal, o.currency)}`;

/** The member's orders, newest first: what they paid, what was refunded, and the points each left them. */
export function MemberOrders({ id }: { id: string }) {
  const list = usePaged((page) => unwrap(api.GET('/api/flash/members/{id}/receipts', { params: { path: { id }, query: { limit: 10, ...page } } })), [id]);
  return (
    <section class="card" aria-labelledby="orders-title">
      <h2 id="orders-title">Orders</h2>
      <Listing list={list} what="orders" empty="No orders yet.">
        {(orders) => (
          <table>
            <caption>Newest first</caption>
            <TableHead columns={['Order', 'When', 'Total', 'Status', 'Refunds', 'Points']} />
            <tbody>
              {orders.map((o) => (
                <tr key={o.id}>
                  <td>
                    <code>{o.externalOrderId}</code>
                  </td>
                  <td>{when(o.occurredAt)}</td>
                  <td>{moneyText(o.total, o.currency)}</td>
                  <td>{o.status}</td>
                  <td>{refundText(o)}</td>
                  <td>
                    {o.points.net}
                    {o.points.reversed ? ` (${o.points.earned} earned, ${o.points.reversed} taken back)` : ''}
                    {o.points.pending ? ', pending' : ''}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Listing>
    </section>
  );
}
