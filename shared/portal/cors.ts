import * as z from 'zod';
import { config } from '../platform/config';
import * as repo from './cors-repository';
import { withOptimisticRetry } from '../platform/data/concurrency';
import { audited, diffOf, type AuditContext } from '../audit';
import { forgetAllowList } from './cors-origins';

/** The hosts that count as local (http allowed): exactly these names, no other loopback or private address. */
export const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** A host as a browser sends it: dot-separated labels of letters, digits, hyphens (and underscores), or an IPv6 literal. */
const HOST = /^(?:[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?\.)*[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$|^\[[0-9a-f:.]+\]$/;

/**
 * An origin exactly as a browser sends it: scheme, host and port only (no path, no trailing slash,
 * lower case, no default port). `https`, or `http` on a loopback host for development. A wildcard is
 * matched literally by the URL parser, so it would allow no page at all: it is refused, not stored.
 */
export function originProblem(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'an origin like https://shop.example.com';
  }
  if (url.hostname.includes('*')) return 'one origin per entry: a wildcard (*) matches no origin';
  if (!HOST.test(url.hostname)) return 'a host name of letters, digits, hyphens and dots';
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK.has(url.hostname))) return 'https (http only for localhost, 127.0.0.1 and [::1])';
  if (url.origin !== value) return `exactly the origin as a browser sends it: ${url.origin}`;
  return undefined;
}

const originSchema = z
  .string()
  .max(200)
  .superRefine((v, ctx) => {
    const problem = originProblem(v);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

export const corsSettingsBody = z.strictObject({
  allowedOrigins: z
    .array(originSchema)
    .max(config.portal.cors.maxOrigins)
    .refine((a) => new Set(a).size === a.length, { message: 'each origin once' })
    .describe('Origins (scheme://host[:port]) whose pages may call the consumer routes from a browser; empty: none'),
});
export type CorsSettingsInput = z.infer<typeof corsSettingsBody>;

export const corsSettingsSchema = z.object({ allowedOrigins: z.array(z.string()), updatedAt: z.string().nullable() }).meta({ id: 'CorsSettings' });
export type CorsSettings = z.infer<typeof corsSettingsSchema>;

export async function getCorsSettings(workspaceId: string): Promise<CorsSettings> {
  const stored = await repo.getCorsSettings(workspaceId);
  return { allowedOrigins: stored?.origins ?? [], updatedAt: stored?.updatedAt ?? null };
}

export async function putCorsSettings(workspaceId: string, input: CorsSettingsInput, audit: AuditContext, now = new Date()): Promise<CorsSettings> {
  const at = now.toISOString();
  await withOptimisticRetry(async () => {
    const current = await repo.getCorsSettings(workspaceId);
    await repo.putCorsSettings(workspaceId, input.allowedOrigins, at, current, [
      audited(
        workspaceId,
        audit,
        'portal.cors_updated',
        { type: 'workspace', id: workspaceId },
        now,
        diffOf({ allowedOrigins: current?.origins ?? [] }, { allowedOrigins: input.allowedOrigins }),
      ),
    ]);
  });
  forgetAllowList(workspaceId);
  return { allowedOrigins: input.allowedOrigins, updatedAt: at };
}
