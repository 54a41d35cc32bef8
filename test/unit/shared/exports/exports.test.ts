import { describe, expect, it } from 'vitest';
import { jsonlLine } from '../../../../shared/exports/columns';
import { dataHandling } from '../../../../shared/exports/data-handling';
import { noticeBody, noticeIdOf } from '../../../../shared/exports/notice';
import { SECTIONS } from '../../../../shared/exports/sections';
import { downloadFilename } from '../../../../shared/exports/types';
import type { ExportJobRecord } from '../../../../shared/exports/entities';
import { describeFailure } from '../../../../shared/exports/workflow';
import { ID_PATTERN } from '../../../../shared/platform/ids';
import { config } from '../../../../shared/platform/config';

const job = (over: Partial<ExportJobRecord> = {}): ExportJobRecord => ({
  id: 'exp_01jnkv6a1h1234567890abcdef',
  workspaceId: 'ws_01jnkv6a1h1234567890abcdef',
  kind: 'operational',
  status: 'completed',
  rowCount: 3,
  createdAt: '2026-03-04T05:06:07.089Z',
  startedAt: '2026-03-04T05:06:08.000Z',
  completedAt: '2026-03-04T05:06:09.000Z',
  error: null,
  deadlineAt: 0,
  objectKey: 'exports/ws/exp/members.csv',
  dataset: 'members',
  format: 'csv',
  capped: false,
  webhookUrl: 'https://example.com/hook',
  ...over,
});

describe('archive sections', () => {
  it('read no personal attribute and no secret from the table', () => {
    const personal = [
      'email',
      'firstName',
      'lastName',
      'phone',
      'birthDate',
      'customAttributes',
      'externalId',
      'searchText',
      'address',
      'code',
      'codes',
      'secrets',
      'keyHash',
      'passwordHash',
    ];
    for (const [name, def] of Object.entries(SECTIONS)) {
      for (const attribute of def.attributes) expect(personal, `${name} reads ${attribute}`).not.toContain(attribute);
      for (const attribute of def.followedBy?.attributes ?? []) expect(personal, `${name} (followed by) reads ${attribute}`).not.toContain(attribute);
    }
  });

  it('write pseudonymous member records even from an item that holds more', () => {
    const record = SECTIONS.members.record(
      {
        id: 'mbr_1',
        email: 'a@b.c',
        firstName: 'Ann',
        status: 'active',
        tier: 'gold',
        balance: 5,
        pending: 1,
        lifetime: 9,
        orderCount: 2,
        tags: ['vip'],
        createdAt: 'c',
        updatedAt: 'u',
      },
      new Date(),
    );
    expect(record).toEqual({
      id: 'mbr_1',
      status: 'active',
      tier: 'gold',
      points: { balance: 5, pending: 1, lifetime: 9 },
      orderCount: 2,
      tagCount: 1,
      createdAt: 'c',
      updatedAt: 'u',
    });
  });

  it('the data-handling notes state the caps, retention and link lifetime in force', () => {
    const text = dataHandling().facts.join(' ');
    expect(text).toContain(`at most ${config.exports.archiveSectionCap.toLocaleString('en-US')} records`);
    expect(text).toContain(`${config.exports.retentionDays} days`);
    expect(text).toContain(`${config.exports.linkTtlSeconds / 60} minutes`);
  });
});

describe('job failures', () => {
  it('say which error and why, from a Lambda error, a plain cause or a time-out, never a stack', () => {
    expect(
      describeFailure({ Error: 'SectionBroken', Cause: JSON.stringify({ errorType: 'SectionBroken', errorMessage: 'index unreadable', trace: ['at x'] }) }),
    ).toBe('SectionBroken: index unreadable');
    expect(describeFailure({ Error: 'NoSuchBucket', Cause: 'The specified bucket does not exist' })).toBe('NoSuchBucket: The specified bucket does not exist');
    expect(describeFailure({ Error: 'States.Timeout' })).toBe('A step of the export timed out');
    expect(describeFailure(undefined)).toBe('Error');
    expect(describeFailure({ Error: 'E', Cause: 'x'.repeat(2000) }).length).toBe(500);
  });
});

describe('completion notices', () => {
  it('carry one webhook-id per job (the same on every retry), thin data, and the link only when completed', () => {
    const id = noticeIdOf(job().id);
    expect(id).toMatch(ID_PATTERN('evt'));
    const now = new Date('2026-03-04T05:07:00.000Z');
    const done = JSON.parse(noticeBody(job(), now, { url: 'https://s3/x', expiresAt: 'later' }));
    expect(done).toEqual({
      id,
      type: 'export.completed',
      created_at: now.toISOString(),
      data: {
        jobId: job().id,
        entity: 'members',
        format: 'csv',
        status: 'completed',
        rowCount: 3,
        capped: false,
        error: null,
        url: 'https://s3/x',
        expiresAt: 'later',
      },
    });
    const failed = JSON.parse(noticeBody(job({ status: 'failed', error: 'The export failed: X', rowCount: null }), now));
    expect(failed.type).toBe('export.failed');
    expect(failed.data.url).toBeUndefined();
  });

  it('files are named after the job', () => {
    expect(downloadFilename(job())).toBe('members-2026-03-04-exp_01jnkv6a1h1234567890abcdef.csv');
    expect(downloadFilename(job({ kind: 'archive' }))).toBe('workspace-export-2026-03-04-exp_01jnkv6a1h1234567890abcdef.json');
  });
});

describe('JSONL lines', () => {
  it('hold the same keys as the CSV row, lists and maps as themselves', () => {
    expect(jsonlLine({ id: 'mbr_1', tags: '["vip"]', customAttributes: '{"a":1}', email: 'x@y.z' })).toBe(
      '{"id":"mbr_1","tags":["vip"],"customAttributes":{"a":1},"email":"x@y.z"}\n',
    );
  });
});
