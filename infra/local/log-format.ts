/**
 * The local runtime's two log formats. `json` is what Lambda writes (one JSON object a line: the
 * logger's lines, the EMF metric lines, the runtime's own lines); `pretty` renders each of those
 * lines as one short line for a person at a terminal. Only the local runtime loads this module.
 */
export type LogFormat = 'json' | 'pretty';

export const LOG_FORMAT_ENV = 'LOG_FORMAT';

/** `LOG_FORMAT` wins; otherwise pretty on a terminal, JSON when piped (as on AWS). Undefined: not a format. */
export function logFormatOf(env: NodeJS.ProcessEnv, stdoutIsTTY: boolean): LogFormat | undefined {
  const given = env[LOG_FORMAT_ENV]?.trim().toLowerCase();
  if (!given) return stdoutIsTTY ? 'pretty' : 'json';
  return given === 'json' || given === 'pretty' ? given : undefined;
}

/** Colours on a terminal; NO_COLOR switches them off, FORCE_COLOR on (https://no-color.org). */
export function colorsOf(env: NodeJS.ProcessEnv, isTTY: boolean): boolean {
  if (env.NO_COLOR) return false;
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false';
  return isTTY;
}

const SGR = { dim: 2, bold: 1, red: 31, green: 32, yellow: 33, cyan: 36, magenta: 35 } as const;
type Style = keyof typeof SGR;
type Paint = (style: Style, text: string) => string;
const painter = (colors: boolean): Paint => (colors ? (style, text) => `\u001b[${SGR[style]}m${text}\u001b[0m` : (_, text) => text);

type Line = Record<string, unknown>;

/** Fields no pretty line shows: the frame every JSON line has, and what Powertools adds elsewhere. */
const FRAME = new Set(['level', 'message', 'timestamp', 'xray_trace_id', 'service', 'sampling_rate', 'cold_start', 'tenant_id']);
const isFrame = (key: string) => FRAME.has(key) || key.startsWith('function_');

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isErrorLike = (v: unknown): v is { name?: string; message: string; stack?: string } =>
  isPlainObject(v) && typeof v.message === 'string' && (typeof v.stack === 'string' || typeof v.name === 'string');

/** Wall-clock time of the line, HH:MM:SS in the machine's time zone. */
function clockOf(value: unknown): string {
  const at = typeof value === 'string' || typeof value === 'number' ? new Date(value) : new Date();
  const d = Number.isNaN(at.getTime()) ? new Date() : at;
  return [d.getHours(), d.getMinutes(), d.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':');
}

/** A value as it reads in `key=value`: bare when it is one word, quoted otherwise. */
function scalar(v: unknown): string {
  if (typeof v === 'string') return /^[^\s"=]+$/.test(v) ? v : JSON.stringify(v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v) ?? String(v);
}

/** `key=value` for one-line fields; multi-line text, nested objects and stacks go below, indented. */
function fieldsOf(line: Line, skip: ReadonlySet<string>, paint: Paint, showStack: boolean): { inline: string[]; below: string[] } {
  const inline: string[] = [];
  const below: string[] = [];
  for (const [key, value] of Object.entries(line)) {
    if (isFrame(key) || skip.has(key) || value === undefined || value === null || value === '') continue;
    if (isErrorLike(value)) {
      inline.push(`${key}=${scalar(`${value.name ?? 'Error'}: ${value.message}`)}`);
      if (showStack && value.stack)
        below.push(
          ...value.stack
            .split('\n')
            .slice(1)
            .map((s) => paint('dim', `    ${s.trim()}`)),
        );
    } else if (typeof value === 'string' && value.includes('\n')) {
      below.push(...value.split('\n').map((s) => `    ${s}`));
    } else if (isPlainObject(value)) {
      below.push(...Object.entries(value).map(([k, v]) => `  ${k}: ${typeof v === 'string' ? v : scalar(v)}`));
    } else {
      inline.push(`${key}=${scalar(value)}`);
    }
  }
  return { inline, below };
}

const join = (head: (string | undefined | false)[], below: string[] = []) => [head.filter(Boolean).join(' '), ...below].join('\n');

function levelMark(level: unknown, paint: Paint): string | undefined {
  if (level === 'WARN') return paint('yellow', 'WARN');
  if (level === 'ERROR' || level === 'CRITICAL') return paint('red', String(level));
  if (level === 'DEBUG' || level === 'TRACE') return paint('dim', String(level));
  return undefined;
}

const statusStyle = (status: number): Style => (status >= 500 ? 'red' : status >= 400 ? 'yellow' : 'green');

/** The access line of `shared/http/request-context.ts`: `12:03:04 POST /api/v2/orders 422 4ms VALIDATION_FAILED`. */
function renderRequest(line: Line, paint: Paint): string {
  const status = Number(line.status);
  const path = typeof line.path === 'string' ? line.path : String(line.routeKey ?? '').replace(/^\S+\s+/, '');
  return join([
    paint('dim', clockOf(line.timestamp)),
    paint('bold', String(line.method)),
    path,
    paint(statusStyle(status), String(line.status ?? '-')),
    paint('dim', `${line.durationMs ?? '?'}ms`),
    typeof line.errorCode === 'string' && paint(statusStyle(status), line.errorCode),
  ]);
}

/**
 * How the fields of a background event read, in this order; any other field follows as key=value.
 * Enumerations read as their value, counts and durations with their unit.
 */
const EVENT_FIELDS: [key: string, show: (v: unknown) => string][] = [
  ['eventType', String],
  ['kind', String],
  ['platform', String],
  ['outcome', String],
  ['endpointId', (v) => `→ ${String(v)}`],
  ['status', (v) => (typeof v === 'number' ? `HTTP ${v}` : String(v))],
  ['attempt', (v) => `attempt ${String(v)}`],
  ['devices', (v) => `${String(v)} device${v === 1 ? '' : 's'}`],
  ['rows', (v) => `${String(v)} row${v === 1 ? '' : 's'}`],
  ['durationMs', (v) => `${String(v)}ms`],
  ['nextAttemptInSeconds', (v) => `next in ${String(v)}s`],
];
const EVENT_KEYS = new Set(['event', 'correlationId', ...EVENT_FIELDS.map(([k]) => k)]);

function eventStyle(event: string, level: unknown): Style {
  if (level === 'ERROR' || /\.(dead|failed)$/.test(event)) return 'red';
  if (level === 'WARN' || /\.retry_scheduled$/.test(event)) return 'yellow';
  return 'cyan';
}

/** A background event (a line with `event`): `12:03:04 webhook.delivered order.created → ep_1 HTTP 200 attempt 1 38ms`. */
function renderEvent(line: Line, paint: Paint): string {
  const event = String(line.event);
  const known = EVENT_FIELDS.filter(([key]) => line[key] !== undefined && line[key] !== null && line[key] !== '').map(([key, show]) => show(line[key]));
  const { inline, below } = fieldsOf(line, EVENT_KEYS, paint, line.level === 'ERROR');
  return join(
    [
      paint('dim', clockOf(line.timestamp)),
      paint(eventStyle(event, line.level), event),
      ...known,
      ...inline,
      line.correlationId !== undefined && paint('dim', `correlationId=${scalar(line.correlationId)}`),
    ],
    below,
  );
}

interface MetricDirective {
  Dimensions?: string[][];
  Metrics?: { Name: string; Unit?: string }[];
}

/** A CloudWatch EMF object on one line: `12:03:04 metric OrdersRecorded=1 operation=createOrder`. */
function renderMetric(line: Line, paint: Paint): string {
  const aws = line._aws as { Timestamp?: number; CloudWatchMetrics?: MetricDirective[] };
  const metrics: string[] = [];
  const dimensions = new Set<string>();
  for (const directive of aws.CloudWatchMetrics ?? []) {
    for (const m of directive.Metrics ?? []) {
      const value = line[m.Name];
      const shown = Array.isArray(value) ? value.join(',') : String(value);
      metrics.push(`${m.Name}=${shown}${m.Unit === 'Milliseconds' ? 'ms' : ''}`);
    }
    for (const set of directive.Dimensions ?? []) for (const d of set) dimensions.add(d);
  }
  // The service dimension is the same on every metric of the platform.
  const dims = [...dimensions].filter((d) => d !== 'service' && line[d] !== undefined).map((d) => `${d}=${scalar(line[d])}`);
  return join([paint('dim', clockOf(aws.Timestamp)), paint('magenta', 'metric'), ...metrics, ...dims]);
}

/** A step of the runtime starting or stopping: `12:03:04 ✓ DynamoDB Local 1830ms`. */
function renderStep(line: Line, paint: Paint): string {
  const { inline, below } = fieldsOf(line, new Set(['step', 'durationMs']), paint, true);
  const mark = line.step === 'stop' ? paint('dim', '■') : paint('green', '✓');
  return join(
    [
      paint('dim', clockOf(line.timestamp)),
      mark,
      String(line.message),
      ...inline,
      line.durationMs !== undefined && paint('dim', `${String(line.durationMs)}ms`),
    ],
    below,
  );
}

function renderMessage(line: Line, paint: Paint): string {
  const level = levelMark(line.level, paint);
  const { inline, below } = fieldsOf(line, new Set(), paint, line.level === 'ERROR' || line.level === 'CRITICAL' || line.level === 'WARN');
  return join([paint('dim', clockOf(line.timestamp)), level, String(line.message ?? ''), ...inline.map((f) => paint('dim', f))], below);
}

export const isMetricLine = (line: Line): boolean =>
  isPlainObject(line._aws) && Array.isArray((line._aws as { CloudWatchMetrics?: unknown }).CloudWatchMetrics);
export const isRequestLine = (line: Line): boolean => line.message === 'request' && typeof line.method === 'string' && line.status !== undefined;

/** One structured line as a person reads it (may span lines: a stack, a mail's text). */
export function renderPretty(line: Line, opts: { colors: boolean }): string {
  const paint = painter(opts.colors);
  if (isMetricLine(line)) return renderMetric(line, paint);
  if (isRequestLine(line)) return renderRequest(line, paint);
  if (typeof line.event === 'string') return renderEvent(line, paint);
  if (line.step === 'start' || line.step === 'stop') return renderStep(line, paint);
  return renderMessage(line, paint);
}

export const LOG_METRICS_ENV = 'LOG_METRICS';

/** Metric lines (EMF) are for CloudWatch; a person at a terminal sees them only when asking (`LOG_METRICS=1`). */
export const metricsShownOf = (env: NodeJS.ProcessEnv): boolean => ['1', 'true', 'yes'].includes(env[LOG_METRICS_ENV]?.trim().toLowerCase() ?? '');

/** Whether a line of output is a metric line (a JSON object with an EMF directive). */
export function isMetricText(text: string): boolean {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{') || !trimmed.includes('"_aws"')) return false;
  try {
    const parsed: unknown = JSON.parse(trimmed);
    return isPlainObject(parsed) && isMetricLine(parsed);
  } catch {
    return false;
  }
}

/** One line of output in pretty mode: JSON objects are rendered, anything else passes unchanged. */
export function prettyLine(text: string, opts: { colors: boolean }): string {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{')) return text;
  let parsed: unknown;
  try {
    parsed = JSON.parse(trimmed);
  } catch {
    return text;
  }
  return isPlainObject(parsed) ? renderPretty(parsed, opts) : text;
}
