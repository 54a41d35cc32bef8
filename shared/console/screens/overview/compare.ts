/**
 * A figure against the period of equal length before it, as the Overview shows it: the change in
 * per cent, rounded to a whole number ("+12 % vs previous 30 days"); the change in points when the
 * period before had none (no per cent of nothing).
 */
export function changeLabel(current: number, previous: number, days: number): string {
  const against = `vs previous ${days === 1 ? 'day' : `${days.toLocaleString('en')} days`}`;
  const diff = current - previous;
  if (diff === 0) return `no change ${against}`;
  const sign = diff > 0 ? '+' : '−';
  if (previous === 0) return `${sign}${Math.abs(diff).toLocaleString('en')} ${against} (none before)`;
  const pct = Math.round((Math.abs(diff) / Math.abs(previous)) * 100);
  return `${sign}${pct.toLocaleString('en')} % ${against}`;
}

/** Days of a period (`yyyy-mm-dd` bounds), both ends included. */
export const periodDays = (from: string, to: string): number => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
