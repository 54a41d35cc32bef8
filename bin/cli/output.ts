export interface Spinner {
  update(text: string): void;
  stop(): void;
}

const cell = (v: unknown): string => (v === null || v === undefined ? '-' : Array.isArray(v) ? v.join(',') : String(v));

/**
 * What a command prints: the API's data as JSON with `--json` (one document, or one line per item for
 * commands that stream), short lines and tables otherwise. Spinners only on a terminal, never with --json.
 */
export class Output {
  constructor(readonly json: boolean) {}

  /** The command's result: `value` as JSON, or `human()` prints it for people. */
  result(value: unknown, human: () => void): void {
    if (this.json) process.stdout.write(JSON.stringify(value, null, 2) + '\n');
    else human();
  }

  /** One item of a stream (a delivery attempt, a forwarded event): a JSON line, or `human`. */
  item(value: unknown, human: string): void {
    process.stdout.write((this.json ? JSON.stringify(value) : human) + '\n');
  }

  line(text = ''): void {
    if (!this.json) process.stdout.write(text + '\n');
  }

  table(rows: readonly Record<string, unknown>[], columns: readonly string[]): void {
    const cells = rows.map((r) => columns.map((c) => cell(r[c])));
    const widths = columns.map((c, i) => Math.max(c.length, ...cells.map((r) => r[i]!.length)));
    const fmt = (r: readonly string[]) => r.map((v, i) => v.padEnd(widths[i]!)).join('  ').trimEnd();
    this.line(fmt(columns.map((c) => c.toUpperCase())));
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
