import { describe, expect, it } from 'vitest';
import { neutraliseCell } from '../../../../shared/exports/csv-cells';

describe('CSV cell neutraliser (OWASP CSV injection)', () => {
  it('puts a single quote before a cell that begins with = + - @ tab or CR', () => {
    for (const start of ['=', '+', '-', '@', '\t', '\r']) expect(neutraliseCell(`${start}1+1`), JSON.stringify(start)).toBe(`'${start}1+1`);
    expect(neutraliseCell('=')).toBe("'=");
    expect(neutraliseCell('\t=cmd')).toBe("'\t=cmd");
  });

  it('leaves every other cell as it is, including those characters later in the cell', () => {
    for (const v of ['', 'Ann', 'a=b', ' =1', '1-2', 'x@example.com', "'=already", '\n=1', '[]', '{"a":"=1"}', '＝1'])
      expect(neutraliseCell(v), JSON.stringify(v)).toBe(v);
  });
});
