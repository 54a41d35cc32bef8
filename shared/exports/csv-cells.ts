/**
 * CSV injection (OWASP): a spreadsheet opening the file runs a cell that begins with `=`, `+`, `-`
 * or `@` as a formula, and a leading tab or carriage return can hide such a start. Such a text cell
 * is written with a single quote in front, which spreadsheets show as text. Numbers are written as
 * numbers (a negative balance stays `-5`); JSONL files carry the values unchanged.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export const neutraliseCell = (value: string): string => (FORMULA_START.test(value) ? `'${value}` : value);
