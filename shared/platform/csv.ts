/**
 * CSV injection (OWASP): a spreadsheet opening the file runs a cell that begins with `=`, `+`, `-`
 * or `@` as a formula, and a leading tab or carriage return can hide such a start. Such a text cell
 * is written with a single quote in front, which spreadsheets show as text. Numbers are written as
 * numbers (a negative balance stays `-5`); JSONL files carry the values unchanged.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export const neutraliseCell = (value: string): string => (FORMULA_START.test(value) ? `'${value}` : value);

/** A cell as RFC 4180 writes it: neutralised text, quoted (quotes doubled) when it holds a comma, quote or line break. */
export function csvCell(value: string | number | null): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  const text = neutraliseCell(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** Lines of cells, each ended by CRLF. */
export const csvLines = (rows: readonly (readonly (string | number | null)[])[]): string => rows.map((r) => `${r.map(csvCell).join(',')}\r\n`).join('');
