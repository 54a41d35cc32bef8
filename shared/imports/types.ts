import type { ImportJobRecord } from './entities';
import type { ImportJob } from './schemas';

/** A stored job as answered: its chunks' counts summed into progress. */
export function toImportJob(j: ImportJobRecord): ImportJob {
  const counts = Object.values(j.chunks);
  const sum = (k: 'done' | 'skipped' | 'failed') => counts.reduce((s, c) => s + c[k], 0);
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
      rows: j.preview?.rows ?? null,
      chunks: j.chunkCount,
      chunksDone: counts.length,
      done: sum('done'),
      skipped: sum('skipped'),
      failed: sum('failed'),
    },
    undo: j.undo ?? null,
    error: j.error,
    createdAt: j.createdAt,
    startedAt: j.startedAt,
    completedAt: j.completedAt,
    undoneAt: j.undoneAt,
  };
}
