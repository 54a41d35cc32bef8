/**
 * Apple's update protocol, pure: pass modification times, the opaque `passesUpdatedSince` tag and
 * `If-Modified-Since`. Times are epoch ms in whole seconds, because `Last-Modified` is an HTTP date
 * (second resolution): a change within the second of the previous one moves the time one second on,
 * so a device holding the previous version never gets a 304 for a new one.
 */

export function nextLastModified(previous: number | undefined, nowMs: number): number {
  const now = Math.floor(nowMs / 1000) * 1000;
  return previous === undefined ? now : Math.max(now, previous + 1000);
}

/** The tag handed to devices is the latest modification time (epoch ms) of the passes listed. */
export const TAG_PATTERN = /^\d{1,15}$/;

export interface PassVersion {
  serial: string;
  lastModified: number;
}

/**
 * The device's serials changed after `since` (all of them without a tag), and the tag to send back
 * next time; undefined when nothing changed (the call then answers 204).
 */
export function updatedSince(passes: readonly PassVersion[], since: string | undefined): { serialNumbers: string[]; lastUpdated: string } | undefined {
  const sinceMs = since === undefined ? undefined : Number(since);
  const changed = passes.filter((p) => sinceMs === undefined || p.lastModified > sinceMs);
  if (changed.length === 0) return undefined;
  const latest = Math.max(...passes.map((p) => p.lastModified), sinceMs ?? 0);
  return { serialNumbers: [...new Set(changed.map((p) => p.serial))].sort(), lastUpdated: String(latest) };
}

export const httpDate = (ms: number): string => new Date(ms).toUTCString();

/** True when the device's copy (its `If-Modified-Since`) is as new as the pass: answer 304. */
export function notModified(lastModified: number, ifModifiedSince: string | undefined): boolean {
  if (!ifModifiedSince) return false;
  const since = Date.parse(ifModifiedSince);
  return Number.isFinite(since) && lastModified <= since;
}
