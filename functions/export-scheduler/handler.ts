import type { ScheduledEvent } from 'aws-lambda';
import { workflowsFromConfig } from '../../shared/platform/adapters/workflows';
import { tick } from '../../shared/exports';
import { logger } from '../../shared/platform/observability/logger';
import { traced } from '../../shared/platform/observability/tracing';

/** The export schedules' tick (EventBridge schedule; locally the local scheduler): starts every due run once. */
const handle = async (event: ScheduledEvent): Promise<{ started: number; failed: number }> => {
  const { started, failed } = await tick(workflowsFromConfig(), new Date(event.time ?? Date.now()));
  logger.info('export schedules tick', { started: started.length, failed });
  // A failed schedule is retried on the next tick (its period stays due), not by re-running this one.
  return { started: started.length, failed };
};

export const handler = traced(handle);
