import { describe, expect, it } from 'vitest';
import type { FieldDef } from '../../../../shared/objects/definitions';
import { looksPersonal, personalFieldsOf } from '../../../../shared/objects/personal-fields';

describe('personal values of custom-object records', () => {
  it('recognises e-mail addresses anywhere and phone numbers, not dates, short numbers or plain words', () => {
    for (const v of [
      'jane@example.com',
      'Write to Jane.Doe+x@mail.example.org please',
      '+49 30 1234567',
      '030/1234567',
      '(030) 123-4567',
      'call +44 20 7946 0958 after six',
    ])
      expect(looksPersonal(v), v).toBe(true);
    for (const v of ['2026-11-27', '27.11.2026', 'B-AL 1815', 'order 12345', 'no contact given', '123', 'jane at example', 42, null])
      expect(looksPersonal(v), String(v)).toBe(false);
  });

  it('names marked fields, e-mail fields and e-mail- or phone-like text; never member references, dates or empty fields', () => {
    const fields = [
      { key: 'notes', type: 'text', required: false, personal: true },
      { key: 'reply', type: 'email', required: false },
      { key: 'contact', type: 'text', required: false },
      { key: 'plate', type: 'text', required: false },
      { key: 'day', type: 'date', required: false },
      { key: 'grade', type: 'enum', required: false, options: ['a'], personal: true },
      { key: 'member', type: 'member_ref', required: false, personal: true },
      { key: 'empty', type: 'text', required: false, personal: true },
    ] as FieldDef[];
    const data = { notes: 'likes tea', reply: 'x@example.com', contact: '+49 170 1234567', plate: 'B-AL 1815', day: '2026-11-27', grade: 'a', member: 'mbr_1' };
    expect(personalFieldsOf(fields, data)).toEqual(['notes', 'reply', 'contact', 'grade']);
  });
});
