import { api, unwrap } from '../../api';
import { useBroughtIntoView } from '../../hooks/use-brought-into-view';
import { usePaged } from '../../hooks/use-paged';
import { when } from '../../ui/feedback';
import { Listing } from '../../ui/tables';

/** A value of a record as text: strings as they are, anything else as JSON. */
const shown = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));

/** The live records of one type, newest first, page by page (drafts and hidden types too). */
export function ObjectRecords({ type, label, titleField }: { type: string; label: string; titleField: string | null }) {
  const list = usePaged(
    (page) => unwrap(api.GET('/api/flash/objects/types/{type}/records', { params: { path: { type }, query: { limit: 20, ...page } } })),
    [type],
  );
  const view = useBroughtIntoView<HTMLElement>(type);
  return (
    <section ref={view} class="card" aria-labelledby="records-title">
      <h2 id="records-title">Records of {label}</h2>
      <Listing list={list} what="records" empty={<>No records of {label} yet: they are created through the API.</>}>
        {(records) => (
          <table>
            <caption>Newest first</caption>
            <thead>
              <tr>
                <th scope="col">Record</th>
                {titleField ? <th scope="col">{titleField}</th> : null}
                <th scope="col">Data</th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {records.map((r) => (
                <tr key={r.id}>
                  <td>
                    <code>{r.id}</code>
                  </td>
                  {titleField ? <td>{titleField in r.data ? shown(r.data[titleField]) : '—'}</td> : null}
                  <td>
                    {Object.entries(r.data).map(([k, v]) => (
                      <span key={k} class="pair">
                        {k}: {shown(v)}
                      </span>
                    ))}
                  </td>
                  <td>{when(r.createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Listing>
    </section>
  );
}
