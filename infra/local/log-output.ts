import { isMetricText, prettyLine } from './log-format';

/**
 * Where the local runtime's output goes. Everything is written as JSON lines (the handlers' logger,
 * Powertools Metrics' EMF lines, the runtime's own lines below), exactly as on AWS; in pretty mode
 * the runtime's stdout and stderr render each line on its way out, so nothing else needs to know.
 */

type Level = 'INFO' | 'WARN' | 'ERROR';

/** An Error as the logger writes it (name, message, stack), so both kinds of lines read alike. */
const plain = (value: unknown): unknown => (value instanceof Error ? { name: value.name, message: value.message, stack: value.stack } : value);

/** A line of the runtime itself, in the logger's shape: level, message, timestamp, fields. */
export function runtimeLine(level: Level, message: string, fields: Record<string, unknown> = {}): string {
  const own = Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, plain(v)]));
  return JSON.stringify({ level, message, timestamp: new Date().toISOString(), ...own });
}

/**
 * The runtime's own messages (startup, supervision, the file mailer). Not subject to
 * POWERTOOLS_LOG_LEVEL: what the runtime says about itself is always shown.
 */
export const say = {
  info: (message: string, fields?: Record<string, unknown>) => void process.stdout.write(`${runtimeLine('INFO', message, fields)}\n`),
  warn: (message: string, fields?: Record<string, unknown>) => void process.stderr.write(`${runtimeLine('WARN', message, fields)}\n`),
  error: (message: string, fields?: Record<string, unknown>) => void process.stderr.write(`${runtimeLine('ERROR', message, fields)}\n`),
};

/** Runs one step of starting or stopping and says it is done, with the time it took. */
export async function step<T>(message: string, run: () => Promise<T> | T, phase: 'start' | 'stop' = 'start'): Promise<T> {
  const since = Date.now();
  const result = await run();
  say.info(message, { step: phase, durationMs: Date.now() - since });
  return result;
}

/**
 * Renders what is written to `stream` line by line (JSON lines pretty, anything else unchanged);
 * metric lines are left out unless `metrics` asks for them.
 * Partial writes wait for their newline; the rest is flushed when the process exits.
 */
export function renderStream(stream: NodeJS.WriteStream, opts: { colors: boolean; metrics?: boolean }): () => void {
  const shown = (l: string) => opts.metrics === true || !isMetricText(l);
  const original = stream.write;
  const write = (text: string, cb?: (err?: Error | null) => void): boolean => (original as (t: string, c?: typeof cb) => boolean).call(stream, text, cb);
  let pending = '';
  const patched = (chunk: unknown, encoding?: unknown, cb?: unknown): boolean => {
    const done = (typeof encoding === 'function' ? encoding : cb) as ((err?: Error | null) => void) | undefined;
    pending +=
      typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString(typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
    const lines = pending.split('\n');
    pending = lines.pop()!;
    const kept = lines.filter(shown);
    if (kept.length === 0) {
      if (done) queueMicrotask(() => done());
      return true;
    }
    return write(kept.map((l) => `${prettyLine(l, opts)}\n`).join(''), done);
  };
  stream.write = patched as typeof stream.write;
  const flush = () => {
    if (pending && shown(pending)) write(`${prettyLine(pending, opts)}\n`);
    pending = '';
  };
  process.on('exit', flush);
  return () => {
    flush();
    process.off('exit', flush);
    stream.write = original;
  };
}

/** Pretty mode for the whole process: both streams render, each with its own colour decision. */
export function renderOutputPretty(colors: { stdout: boolean; stderr: boolean }, metrics = false): () => void {
  const undo = [renderStream(process.stdout, { colors: colors.stdout, metrics }), renderStream(process.stderr, { colors: colors.stderr, metrics })];
  return () => {
    for (const u of undo) u();
  };
}
