import type { ImportJobRecord } from './entities';
import { estimatedCompletionAt } from './progress';
import type { ImportJob } from './schemas';

/** A stored job as answered at `now`: its chunks' counts summed into progress, with the ETA while it applies. */
export function toImportJob(j: ImportJobRecord, now = new Date()): ImportJob {
  const counts = Object.values(j.chunks);
  const sum = (k: 'done' | 'skipped' | 'failed') => counts.reduce((s, c) => s + c[k], 0);
  const rows = j.preview?.rows ?? null;
  const done = sum('done');
  const skipped = sum('skipped');
  const failed = sum('failed');
  return {
    id: j.id,
    kind: j.kind,
    format: j.format,
    status: j.status,
    countLifetime: j.countLifetime,
    notify: j.notify,
    filter: (j.filter ?? null) as ImportJob['filter'],
    change: j.change ?? null,
    preview: j.preview,
    progress: {
      rows,
      chunks: j.chunkCount,
      chunksDone: counts.length,
      done,
      skipped,
      failed,
      estimatedCompletionAt: estimatedCompletionAt({ status: j.status, startedAt: j.startedAt, rows, processed: done + skipped + failed }, now),
    },
    undo: j.undo ?? null,
    error: j.error,
    createdAt: j.createdAt,
    startedAt: j.startedAt,
    completedAt: j.completedAt,
    undoneAt: j.undoneAt,
  };
}
