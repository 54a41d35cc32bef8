import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { call, uniqueEmail } from '../support/api';
import { newMember, tenant, type Tenant } from '../support/fixtures';
import { wholeTable } from '../support/table';

/**
 * Erasure reaches custom-object records, over HTTP against the running platform: the personal
 * fields of every record that references the erased member (marked `personal`, e-mail fields, and
 * unmarked text that looks like an e-mail or a phone number) are cleared from the record, its
 * search copies, its value-index entries and its title key, so neither free-text search nor any
 * filtered list finds them and the table holds them nowhere; the export names them beforehand.
 */

const visitType = {
  label: 'Service visit',
  status: 'published',
  apiVisible: true,
  titleField: 'contact',
  fields: [
    // Unmarked text holding an e-mail, and the title: its title key (sort index) must go too.
    { key: 'contact', type: 'text', required: true },
    { key: 'reply_to', type: 'email' },
    { key: 'notes', type: 'text', personal: true },
    // Unmarked text holding a phone number.
    { key: 'callback', type: 'text' },
    { key: 'plate', type: 'text' },
    { key: 'visited_on', type: 'date' },
    { key: 'state', type: 'enum', options: ['open', 'done'] },
    { key: 'customer', type: 'member_ref', required: true },
  ],
};

const PERSONAL = ['contact', 'reply_to', 'notes', 'callback'];

/** A record of the member whose values are all unique to it. */
async function visitOf(t: Tenant, memberId: string) {
  const tag = randomUUID().slice(0, 8);
  const data = {
    contact: `Reach ${tag} at ${uniqueEmail(`contact-${tag}`)}`,
    reply_to: uniqueEmail(`reply-${tag}`),
    notes: `Prefers mornings ${tag}`,
    callback: `+49 30 ${String(Date.now()).slice(-6)}${Math.floor(Math.random() * 90 + 10)}`,
    plate: `B-${tag}`,
    visited_on: '2026-11-27',
    state: 'open',
    customer: memberId,
  };
  const res = await call('POST', '/api/v2/objects/service_visit/records', { token: t.key, body: { data } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { id: res.body.data.id as string, data, tag };
}

const list = async (t: Tenant, query: string) => {
  const res = await call('GET', `/api/v2/objects/service_visit/records?${query}`, { token: t.key });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as { id: string; data: Record<string, unknown> }[];
};

describe('erasure of custom-object records that reference the member', () => {
  it('the export names the personal fields; erasure clears them everywhere, and search no longer finds them', async () => {
    const t = await tenant('privacy-records');
    const put = await call('PUT', '/api/flash/objects/types/service_visit', { token: t.token, body: visitType });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body.data.fields.find((f: { key: string }) => f.key === 'notes')).toMatchObject({ personal: true });
    expect(
      (await call('GET', '/api/v2/objects/service_visit', { token: t.key })).body.data.fields.find((f: { key: string }) => f.key === 'notes').personal,
    ).toBe(true);
    const m = await newMember(t.key, { email: uniqueEmail('records') });
    const bystander = await newMember(t.key, { email: uniqueEmail('records-other') });
    const visits = [await visitOf(t, m.id), await visitOf(t, m.id)];
    const kept = await visitOf(t, bystander.id);
    const [first] = visits;
    const personalValues = visits.flatMap((v) => PERSONAL.map((k) => v.data[k as keyof typeof v.data] as string));

    // Before: free text finds the record by its e-mails and phone; the export lists the personal fields.
    expect((await list(t, `q=${encodeURIComponent(first!.data.reply_to)}`)).map((r) => r.id)).toEqual([first!.id]);
    expect((await list(t, `q=${encodeURIComponent(first!.data.callback)}`)).map((r) => r.id)).toEqual([first!.id]);
    const exported = (await call('GET', `/api/v2/members/${m.id}/personal-data`, { token: t.key })).body.data;
    expect(exported.customObjectRecords).toEqual(
      visits.map((v) => expect.objectContaining({ type: 'service_visit', id: v.id, data: v.data, personalFields: PERSONAL })),
    );

    expect((await call('POST', `/api/v2/members/${m.id}/erasure`, { token: t.key })).status).toBe(200);

    // The records keep their business data and the member reference; the personal fields are gone.
    for (const v of visits) {
      const rec = await call('GET', `/api/v2/objects/service_visit/records/${v.id}`, { token: t.key });
      expect(rec.body.data.data).toEqual({ plate: v.data.plate, visited_on: '2026-11-27', state: 'open', customer: m.id });
    }
    // Free text finds nothing by any erased value, while the kept business data still matches.
    for (const value of [first!.data.reply_to, first!.data.contact.split(' ').pop()!, first!.data.callback, first!.data.notes, first!.tag]) {
      const hits = (await list(t, `q=${encodeURIComponent(value.toLowerCase())}`)).filter((r) => r.id !== kept.id);
      expect(
        hits.map((r) => r.id),
        value,
      ).toEqual(value === first!.tag ? [first!.id] : []);
    }
    // Lists served by the value index (member, enum) and by the sort indexes carry no erased value.
    const lists = [await list(t, `memberId=${m.id}`), await list(t, 'f_state=open'), await list(t, 'sortBy=title_asc'), await list(t, 'sortBy=updated_desc')];
    for (const l of lists) for (const v of personalValues) expect(JSON.stringify(l)).not.toContain(v);
    expect((await list(t, `memberId=${m.id}`)).map((r) => r.id).sort()).toEqual(visits.map((v) => v.id).sort());
    expect((await list(t, 'sortBy=title_asc')).map((r) => r.id).at(-1)).not.toBe(kept.id);

    // Stored nowhere: record, search copies, value entries, title keys.
    const table = await wholeTable();
    for (const v of personalValues)
      expect(
        table.filter((i) => i.includes(v.toLowerCase()) || i.includes(v)),
        v,
      ).toEqual([]);
    // The bystander's record keeps everything.
    expect((await call('GET', `/api/v2/objects/service_visit/records/${kept.id}`, { token: t.key })).body.data.data).toEqual(kept.data);
    expect((await list(t, `q=${encodeURIComponent(kept.data.reply_to)}`)).map((r) => r.id)).toEqual([kept.id]);

    // The export after erasure: the records, without personal values.
    const after = (await call('GET', `/api/v2/members/${m.id}/personal-data`, { token: t.key })).body.data;
    expect(after.customObjectRecords.map((r: { personalFields: string[] }) => r.personalFields)).toEqual([[], []]);
    // A repeat of the erasure changes nothing more.
    const before = await call('GET', `/api/v2/objects/service_visit/records/${first!.id}`, { token: t.key });
    expect((await call('POST', `/api/v2/members/${m.id}/erasure`, { token: t.key })).body.data.alreadyErased).toBe(true);
    expect((await call('GET', `/api/v2/objects/service_visit/records/${first!.id}`, { token: t.key })).body.data).toEqual(before.body.data);
  });
});
