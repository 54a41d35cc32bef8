import { afterEach, describe, expect, it, vi } from 'vitest';
import { Output, TABLE_WIDTH } from '../../../../bin/cli/output';

const printed = () => {
  const lines: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    lines.push(...String(chunk).split('\n').filter(Boolean));
    return true;
  });
  return lines;
};

afterEach(() => vi.restoreAllMocks());

describe('CLI tables', () => {
  it('fit 120 columns by cutting the widest columns, never an id', () => {
    const lines = printed();
    const id = `key_${'0'.repeat(26)}`;
    const memberId = `mbr_${'1'.repeat(26)}`;
    new Output(false).table([{ id, memberId, scopes: 'stores:read,'.repeat(20), note: 'x'.repeat(80) }], ['id', 'memberId', 'scopes', 'note']);
    expect(lines[0]).toMatch(/^ID\s+MEMBER ID\s+SCOPES\s+NOTE$/);
    expect(lines[1]!.startsWith(`${id}  ${memberId}  stores:read,`)).toBe(true);
    expect(lines[1]).toContain('…');
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(TABLE_WIDTH);
  });

  it('leaves a table that fits as it is', () => {
    const lines = printed();
    new Output(false).table([{ id: 'ord_1', total: '59.90' }], ['id', 'total']);
    expect(lines).toEqual(['ID     TOTAL', 'ord_1  59.90']);
  });
});
