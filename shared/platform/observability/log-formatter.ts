import { LogFormatter, LogItem } from '@aws-lambda-powertools/logger';
import type { LogAttributes, UnformattedAttributes } from '@aws-lambda-powertools/logger/types';

/**
 * Powertools' JSON lines without the fields nobody reads: `service` (the same on every line of a
 * function; the log group names it), `sampling_rate`, `cold_start`, `function_*` and `tenant_id`.
 * What remains: level, message, timestamp, the X-Ray trace id when there is one, then the line's own
 * fields. Errors keep Powertools' shape (name, location, message, stack).
 */
export class LeanLogFormatter extends LogFormatter {
  formatAttributes(attributes: UnformattedAttributes, additional: LogAttributes): LogItem {
    return new LogItem({
      attributes: {
        level: attributes.logLevel,
        message: attributes.message,
        timestamp: this.formatTimestamp(attributes.timestamp),
        // Empty keys are dropped before printing, so an absent trace id leaves no field.
        xray_trace_id: attributes.xRayTraceId,
      },
    }).addAttributes(additional);
  }
}
