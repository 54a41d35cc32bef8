import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { type BuildOptions, type OutputFile, build, buildSync } from 'esbuild';
import { CONDITION_FIELDS, OPS_BY_KIND } from '../../shared/program/campaign-rules';
import { SCOPES } from '../../shared/platform/contract/scopes';
import { AUDIT_ACTIONS } from '../../shared/audit/entities';
import { FIELD_TYPES } from '../../shared/objects/entities';

/**
 * The console (shared/console, Preact) as static files: one script and one stylesheet named by
 * their content hash, and the page that loads them. Built the same way for the local runtime (kept
 * in memory) and for the bucket CloudFront serves, so what is tested is what ships.
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const CONSOLE_PATH = '/console';
export const CONSOLE_ASSETS_PATH = `${CONSOLE_PATH}/assets/`;

/**
 * Scripts, styles, data and API calls from this origin only; no inline script or style, no frames,
 * no plugins, forms posting nowhere else.
 */
export const CONSOLE_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export interface ConsoleFile {
  readonly body: Buffer;
  readonly gzip: Buffer;
  readonly contentType: string;
  /** Content-hashed assets never change under their name; the page itself is always checked again. */
  readonly immutable: boolean;
}

export interface ConsoleBuild {
  /** By path, e.g. `/console/assets/app-3FZK2Q.js`; the page is `CONSOLE_PATH`. */
  readonly files: ReadonlyMap<string, ConsoleFile>;
  readonly page: ConsoleFile;
}

const file = (body: Buffer, contentType: string, immutable: boolean): ConsoleFile => ({ body, gzip: gzipSync(body, { level: 9 }), contentType, immutable });

const TYPES: Record<string, string> = { '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8' };

const OPTIONS: BuildOptions & { write: false } = {
  entryPoints: { app: 'shared/console/main.tsx' },
  absWorkingDir: ROOT,
  bundle: true,
  format: 'esm',
  target: 'es2022',
  platform: 'browser',
  minify: true,
  jsx: 'automatic',
  jsxImportSource: 'preact',
  entryNames: '[name]-[hash]',
  outdir: 'console-out',
  write: false,
  legalComments: 'none',
  define: {
    'PLATFORM.scopes': JSON.stringify(SCOPES),
    'PLATFORM.auditActions': JSON.stringify(AUDIT_ACTIONS),
    'PLATFORM.fieldTypes': JSON.stringify(FIELD_TYPES),
    'PLATFORM.conditionFields': JSON.stringify(CONDITION_FIELDS),
    'PLATFORM.opsByKind': JSON.stringify(OPS_BY_KIND),
  },
  logLevel: 'warning',
};

/** For the local runtime (in the background while it starts). */
export const buildConsole = async (): Promise<ConsoleBuild> => assemble((await build(OPTIONS)).outputFiles);

/** For `cdk synth`, whose constructs are built synchronously (about 100 ms). */
export const buildConsoleSync = (): ConsoleBuild => assemble(buildSync(OPTIONS).outputFiles);

function assemble(outputs: OutputFile[]): ConsoleBuild {
  const files = new Map<string, ConsoleFile>();
  for (const o of outputs) {
    const name = o.path.slice(o.path.lastIndexOf('/') + 1);
    files.set(CONSOLE_ASSETS_PATH + name, file(Buffer.from(o.contents), TYPES[name.slice(name.lastIndexOf('.'))] ?? 'application/octet-stream', true));
  }
  const asset = (ext: string) => [...files.keys()].find((p) => p.endsWith(ext))!;
  const page = file(Buffer.from(pageHtml(asset('.js'), asset('.css')), 'utf8'), 'text/html; charset=utf-8', false);
  files.set(CONSOLE_PATH, page);
  return { files, page };
}

function pageHtml(script: string, style: string): string {
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<title>Loyalty console</title>',
    `<link rel="stylesheet" href="${style}">`,
    `<script type="module" src="${script}"></script>`,
    '</head>',
    '<body><div id="app"></div></body>',
    '</html>',
  ].join('\n');
}
