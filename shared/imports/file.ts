/**
 * An import file read as it streams from the bucket: records one line at a time, never the whole
 * file in memory. A CSV file's first non-blank line is its header.
 */
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import type { ImportFormat } from './entities';
import { headerOf, recordOf, type RawRecord } from './rows';

/** The file's data records in order, each numbered with its line; blank lines are skipped. */
export async function* recordsOf(format: ImportFormat, body: Readable): AsyncGenerator<RawRecord> {
  const lines = createInterface({ input: body, crlfDelay: Number.POSITIVE_INFINITY });
  let header: string[] | null = format === 'csv' ? null : [];
  let line = 0;
  for await (const text of lines) {
    line++;
    if (text.trim() === '') continue;
    if (header === null) {
      header = headerOf(text);
      if (!header) {
        yield { line, errors: [{ line, field: '(header)', message: 'has a quote that is not closed' }] };
        return;
      }
      continue;
    }
    yield recordOf(format, text, line, header);
  }
}
