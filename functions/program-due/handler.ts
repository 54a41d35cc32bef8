import { secretStoreFromConfig } from '../../shared/platform/adapters/secret-store';
import { useSecretStore } from '../../shared/platform/ports/secrets';
import type { ScheduledEvent } from 'aws-lambda';
import { DUE_JOBS, runAllDueProgramWork } from '../../shared/campaigns';
import { pointsFoldJob } from '../../shared/overview';
import { logger } from '../../shared/platform/observability/logger';
import { traced } from '../../shared/platform/observability/tracing';

// Pages through the table with cursors (its access declares the `pageCursors` secret).
useSecretStore(secretStoreFromConfig);

/** The program's due work (EventBridge schedule; locally the local scheduler): every workspace on the list, at its program time. */
const handle = async (event: ScheduledEvent): Promise<{ workspaces: number; failed: number }> => {
  // Last, the points report's month folds: they read what the other jobs booked.
  const outcome = await runAllDueProgramWork(new Date(event.time ?? Date.now()), [...DUE_JOBS, pointsFoldJob]);
  logger.info('program due work', outcome);
  // A failed workspace is retried on the next run (its work stays due), not by re-running this one.
  return outcome;
};

export const handler = traced(handle);
