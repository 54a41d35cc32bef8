import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'vitest';
import { call } from './api';
import type { Tenant } from './fixtures';

/** Import jobs over HTTP: a job created and its file uploaded to the presigned link, previewed, applied. */

export async function importJob(t: Tenant, kind: string, format: string, file: string, extra: Record<string, unknown> = {}) {
  const created = await call('POST', '/api/v2/imports', { token: t.key, body: { kind, format, ...extra } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const job = created.body.data;
  expect(job).toMatchObject({ kind, format, status: 'awaiting_upload', preview: null });
  const put = await fetch(job.upload.url, { method: 'PUT', body: file });
  expect(put.status, await put.text()).toBe(200);
  return job.id as string;
}

export async function preview(t: Tenant, id: string) {
  const res = await call('POST', `/api/v2/imports/${id}/preview`, { token: t.key });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.data.status).toBe('previewed');
  return res.body.data;
}

/** Applies the job and waits for its workflow to end. */
export async function apply(t: Tenant, id: string) {
  const res = await call('POST', `/api/v2/imports/${id}/apply`, { token: t.key });
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  expect(res.body.data.status).toBe('applying');
  for (let i = 0; i < 300; i++) {
    const job = (await call('GET', `/api/v2/imports/${id}`, { token: t.key })).body.data;
    if (job.status !== 'applying') return job;
    await sleep(200);
  }
  throw new Error('import did not finish');
}
