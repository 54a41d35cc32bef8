/**
 * When an applying job should finish, at the pace of its rows so far (rows done, skipped or failed
 * since it started): what `GET` of the job, the console's bar and the CLI's bar show as the ETA.
 * Null when it cannot be told yet (no rows counted, no row total, not applying).
 */
export function estimatedCompletionAt(job: { status: string; startedAt: string | null; rows: number | null; processed: number }, now: Date): string | null {
  if (job.status !== 'applying' || !job.startedAt || job.rows === null || job.processed <= 0) return null;
  const elapsed = Math.max(0, now.getTime() - Date.parse(job.startedAt));
  const remaining = Math.max(0, job.rows - job.processed);
  const ms = Math.ceil((elapsed * remaining) / job.processed / 1000) * 1000;
  return new Date(now.getTime() + ms).toISOString();
}
