import { describe, expect, it } from 'vitest';
import { AUDIT_CSV_COLUMNS, auditCsv, changesText } from '../../../../shared/audit/csv';
import type { ReadableEntry } from '../../../../shared/audit/readable';

const base: ReadableEntry = {
  id: 'aud_1',
  occurredAt: '2026-03-04T05:06:07.089Z',
  action: 'program.updated',
  outcome: 'success',
  reason: null,
  actor: { type: 'user', id: 'usr_1', name: 'Ada, the admin', email: 'ada@example.com' },
  target: { type: 'program', id: 'ws_1', href: '/console/program' },
  requestId: 'req_1',
};

describe('auditCsv', () => {
  it('a header, then one row per entry with the actor named, the address and the changes one per line', () => {
    const csv = auditCsv([
      {
        ...base,
        changes: [
          { field: 'earn.pointsPerUnit', before: 1, after: 2 },
          { field: 'timeZone', after: 'Europe/Berlin' },
        ],
      },
      {
        ...base,
        action: 'auth.login_failed',
        outcome: 'failure',
        reason: 'wrong_password',
        actor: { type: 'anonymous' },
        target: { type: 'user', id: 'usr_1', href: null },
      },
      {
        ...base,
        action: 'api_key.created',
        actor: { type: 'apiKey', id: 'key_1', name: '=cmd', prefix: 'fl_live_3kq9' },
        target: { type: 'apiKey', id: 'key_2', href: '/console/api-keys' },
      },
    ]);
    expect(csv.split('\r\n')).toStrictEqual([
      AUDIT_CSV_COLUMNS.join(','),
      '2026-03-04T05:06:07.089Z,program.updated,success,,user,usr_1,"Ada, the admin",ada@example.com,,program,ws_1,/console/program,"earn.pointsPerUnit: 1 -> 2\ntimeZone: (none) -> ""Europe/Berlin""",req_1',
      '2026-03-04T05:06:07.089Z,auth.login_failed,failure,wrong_password,anonymous,,,,,user,usr_1,,,req_1',
      "2026-03-04T05:06:07.089Z,api_key.created,success,,apiKey,key_1,'=cmd,,fl_live_3kq9,apiKey,key_2,/console/api-keys,,req_1",
      '',
    ]);
  });

  it('the header alone for no entries', () => {
    expect(auditCsv([])).toBe(`${AUDIT_CSV_COLUMNS.join(',')}\r\n`);
  });
});

describe('changesText', () => {
  it('each change as field: before -> after, JSON values, (none) for an absent side; nothing without changes', () => {
    expect(
      changesText([
        { field: 'gone', before: { a: [1] } },
        { field: 'n', before: null, after: 'x' },
      ]),
    ).toBe('gone: {"a":[1]} -> (none)\nn: null -> "x"');
    expect(changesText([])).toBe('');
    expect(changesText(undefined)).toBeNull();
  });
});
