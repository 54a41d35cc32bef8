import { describe, expect, it } from 'vitest';
import { csvCell, csvLines, neutraliseCell } from '../../../../shared/platform/csv';

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

describe('csvCell and csvLines (RFC 4180)', () => {
  it('quotes a cell with a comma, a quote or a line break, doubling its quotes', () => {
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('one\ntwo')).toBe('"one\ntwo"');
    expect(csvCell('one\rtwo')).toBe('"one\rtwo"');
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('')).toBe('');
  });

  it('neutralises a formula before quoting; numbers and null as they are', () => {
    expect(csvCell('=1,2')).toBe(`"'=1,2"`);
    expect(csvCell('@x')).toBe("'@x");
    expect(csvCell(-5)).toBe('-5');
    expect(csvCell(0)).toBe('0');
    expect(csvCell(null)).toBe('');
  });

  it('ends every line with CRLF', () => {
    expect(
      csvLines([
        ['a', 1],
        [null, 'b,c'],
      ]),
    ).toBe('a,1\r\n,"b,c"\r\n');
    expect(csvLines([])).toBe('');
  });
});
