/**
 * The runbook sections of docs/operations.md, one per kind of alarm. Each alarm's description ends
 * with its section's link, so the notification an operator receives says where to start; the anchors
 * are the GitHub anchors of the section headings (a test checks that each heading exists).
 */
export const RUNBOOK_FILE = 'docs/operations.md';

export const RUNBOOK_SECTIONS = {
  api5xxRate: 'api-5xx-rate',
  apiLatency: 'api-p99-latency',
  functionErrors: 'function-errors',
  functionThrottles: 'function-throttles',
  deadLetterNotEmpty: 'dlq-not-empty',
  deadLetterOldestMessage: 'dlq-oldest-message',
  queueOldestMessage: 'queue-oldest-message',
  streamIteratorAge: 'stream-iterator-age',
  workflowFailures: 'workflow-failures',
  tableThrottling: 'dynamodb-throttling',
  tableSystemErrors: 'dynamodb-system-errors',
  scheduleFailedInvocations: 'schedule-failed-invocations',
} as const;

export type RunbookSection = keyof typeof RUNBOOK_SECTIONS;

/** `Runbook: docs/operations.md#<anchor>` */
export const runbookLink = (section: RunbookSection): string => `Runbook: ${RUNBOOK_FILE}#${RUNBOOK_SECTIONS[section]}`;

/** An alarm description: what happened, then the runbook link (CloudWatch keeps 1024 characters). */
export function alarmDescription(what: string, section: RunbookSection): string {
  const text = `${what.trim()} ${runbookLink(section)}`;
  if (text.length > 1024) throw new Error(`alarm description over 1024 characters: ${text.slice(0, 80)}...`);
  return text;
}
