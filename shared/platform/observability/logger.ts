import { Logger } from '@aws-lambda-powertools/logger';
import { LeanLogFormatter } from './log-formatter';

/**
 * One structured JSON logger per process. Request id, route and workspace are appended per request;
 * bodies, headers and credentials are never logged.
 */
export const logger = new Logger({ serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'loyalty-platform', logFormatter: new LeanLogFormatter() });
