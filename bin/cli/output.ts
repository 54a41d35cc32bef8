export interface Spinner {
  update(text: string): void;
  stop(): void;
}

const cell = (v: unknown): string => (v === null || v === undefined ? '-' : Array.isArray(v) ? v.join(',') : String(v));

/** The widest a table row may be: a 120-column terminal. */
export const TABLE_WIDTH = 120;

/** A field name as a column header: words apart, upper case. */
export const headerOf = (column: string): string => column.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toUpperCase();

const clip = (value: string, width: number): string => (value.length <= width ? value : `${value.slice(0, Math.max(0, width - 1))}…`);

/** An id column (`id`, `memberId`...): never cut, it is what the next command is given. */
const isIdColumn = (column: string): boolean => column === 'id' || column.endsWith('Id');

/** Narrows the widest column that may be cut, one character at a time, until the row fits (never below its header). */
function fitWidths(widths: number[], headers: readonly string[], whole: readonly boolean[]): number[] {
  const fitted = [...widths];
  const total = () => fitted.reduce((a, b) => a + b, 0) + 2 * (fitted.length - 1);
  while (total() > TABLE_WIDTH) {
    const widest = fitted.reduce((best, w, i) => (!whole[i] && (best < 0 || w > fitted[best]!) ? i : best), -1);
    if (widest < 0 || fitted[widest]! <= Math.max(headers[widest]!.length, 8)) break;
    fitted[widest]!--;
  }
  return fitted;
}

/**
 * What a command prints: the API's data as JSON with `--json` (one document, or one line per item for
 * commands that stream), short lines and tables otherwise. Spinners only on a terminal, never with --json.
 */
export class Output {
  constructor(readonly json: boolean) {}

  /** The command's result: `value` as JSON, or `human()` prints it for people. */
  result(value: unknown, human: () => void): void {
    if (this.json) process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
    else human();
  }

  /** One item of a stream (a delivery attempt, a forwarded event): a JSON line, or `human`. */
  item(value: unknown, human: string): void {
    process.stdout.write(`${this.json ? JSON.stringify(value) : human}\n`);
  }

  line(text = ''): void {
    if (!this.json) process.stdout.write(`${text}\n`);
  }

  /**
   * Columns headed in words (`externalOrderId` -> `EXTERNAL ORDER ID`); the widest columns are cut
   * (ending in `…`) until a row fits `TABLE_WIDTH`, ids never. `--json` has every value whole.
   */
  table(rows: readonly Record<string, unknown>[], columns: readonly string[]): void {
    const headers = columns.map(headerOf);
    const cells = rows.map((r) => columns.map((c) => cell(r[c])));
    const widths = fitWidths(
      headers.map((h, i) => Math.max(h.length, ...cells.map((r) => r[i]!.length))),
      headers,
      columns.map(isIdColumn),
    );
    const fmt = (r: readonly string[]) =>
      r
        .map((v, i) => clip(v, widths[i]!).padEnd(widths[i]!))
        .join('  ')
        .trimEnd();
    this.line(fmt(headers));
    for (const r of cells) this.line(fmt(r));
  }

  /**
   * Loaded only for a terminal: scripts do not pay for it. A terminal that reports no width (some
   * pseudo-terminals) gets none either: the spinner's line arithmetic would flood it.
   */
  async spinner(text: string): Promise<Spinner> {
    if (this.json || !process.stdout.isTTY || !process.stdout.columns) return { update: () => undefined, stop: () => undefined };
    const { default: ora } = await import('ora');
    const s = ora({ text, stream: process.stdout }).start();
    return { update: (t) => void (s.text = t), stop: () => void s.stop() };
  }
}
