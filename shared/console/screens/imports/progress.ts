/** What an applying import job's progress bar says: rows handled of the file's rows, and the time left. */

export interface ImportProgress {
  rows: number | null;
  done: number;
  skipped: number;
  failed: number;
  estimatedCompletionAt: string | null;
}

const count = (n: number) => n.toLocaleString('en-US');

/** Rows handled so far: applied, skipped as applied before, or failed. */
export const rowsHandled = (p: ImportProgress): number => p.done + p.skipped + p.failed;

/** "about 20 s left", "about 3 min left", or nothing before the first chunk gives a pace (or once it is due). */
export function timeLeft(estimatedCompletionAt: string | null, now: number): string | undefined {
  if (!estimatedCompletionAt) return undefined;
  const seconds = Math.ceil((Date.parse(estimatedCompletionAt) - now) / 1000);
  if (!(seconds > 0)) return undefined;
  return seconds < 90 ? `about ${seconds} s left` : `about ${Math.round(seconds / 60)} min left`;
}

/** The bar's aria-valuetext and visible text: "800 of 1,204 rows, about 20 s left". */
export function progressText(p: ImportProgress, now: number): string {
  const rows = p.rows === null ? `${count(rowsHandled(p))} rows` : `${count(rowsHandled(p))} of ${count(p.rows)} rows`;
  const left = timeLeft(p.estimatedCompletionAt, now);
  return left ? `${rows}, ${left}` : rows;
}
