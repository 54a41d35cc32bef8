import type { Context } from 'aws-lambda';
import { logger } from '../observability/logger';
import { traced } from '../observability/tracing';

/**
 * A workflow Task's Lambda handler (`arn:aws:states:::lambda:invoke`): the state's input is the
 * event, the returned value the state's result. A thrown error keeps its `name`, which is the error
 * code the workflow's Retry and Catch match (Lambda reports it as `errorType`).
 */
export function workflowTask<R>(state: string, step: (input: unknown) => Promise<R>) {
  return traced(async (event: unknown, _context?: Context): Promise<R> => {
    try {
      return await step(event);
    } catch (error) {
      logger.warn('workflow step failed', { state, error: error as Error });
      throw error;
    }
  });
}
