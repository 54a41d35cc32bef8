import { exportSettings } from '../platform/config';
import { ARCHIVE_SECTIONS } from './schemas';
import { SECTIONS } from './sections';

/**
 * The data-handling notes answered with the job list (spec 2.5): what the archive holds and leaves
 * out, the caps, how long files are kept and how links expire. Built from the same definitions and
 * numbers the export runs with, so it cannot say something the archive does not do.
 */
export function dataHandling(): { summary: string; facts: string[] } {
  const s = exportSettings();
  return {
    summary:
      'One JSON document per job, opening with a manifest of its sections; pseudonymous: no per-member personal data and no secrets. ' +
      'Personal data of a member is available per member from GET /api/v2/members/{id}/personal-data.',
    facts: [
      `The archive is one JSON document whose first key is "manifest" (generatedAt, and per section its name, recordCount and capped), followed by the sections ${ARCHIVE_SECTIONS.join(', ')}.`,
      ...ARCHIVE_SECTIONS.map((name) => `Section ${SECTIONS[name].holds}.`),
      'Left out: e-mail addresses, names, phone numbers, postal addresses, birth dates, external member ids and custom attributes of members; tags (only their count); order line items; coupon codes; captures and tracking events; custom-object records.',
      'Left out: every credential and secret (API keys, session and password-reset tokens, password hashes, webhook and export signing secrets, wallet credentials).',
      `Each section holds at most ${s.archiveSectionCap.toLocaleString('en-US')} records, newest first; a section cut there says capped: true and its recordCount is what the archive holds.`,
      'At most one archive job is pending or running per workspace; requesting another meanwhile returns that job (deduped: true).',
      `A job that has not finished ${Math.round(s.jobDeadlineSeconds / 3600)} hours after it was requested is marked failed.`,
      `Files are deleted ${s.retentionDays} days after they are written.`,
      `A download link is valid for ${Math.round(s.linkTtlSeconds / 60)} minutes; ask for a new one at any time (each request is audited).`,
      'Every export request and every download link request is recorded in the audit trail.',
    ],
  };
}
