import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { type BuildOptions, type Metafile, type OutputFile, build, buildSync } from 'esbuild';

/**
 * The console (shared/console, Preact) as static files: the entry script, one chunk per screen and
 * the chunks they share, and one stylesheet, each named by its content hash under the assets path,
 * and the page that loads the entry. Built the same way for the local runtime (kept in memory) and
 * for the bucket CloudFront serves, so what is tested is what ships.
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const CONSOLE_PATH = '/console';
export const CONSOLE_ASSETS_PATH = `${CONSOLE_PATH}/assets/`;
const ENTRY = 'shared/console/main.tsx';

/**
 * Scripts, styles, data and API calls from this origin only; no inline script or style, no frames,
 * no plugins, forms posting nowhere else. The one other address it may call is the bucket's
 * (`uploadOrigin`): an import file is PUT from the browser straight to its presigned link.
 */
export const consoleContentSecurityPolicy = (uploadOrigin: string): string =>
  [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    ['connect-src', "'self'", uploadOrigin].filter(Boolean).join(' '),
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
  /** The script the page loads, e.g. `/console/assets/app-3FZK2Q.js`; the screens' chunks are the other scripts. */
  readonly entry: string;
}

const file = (body: Buffer, contentType: string, immutable: boolean): ConsoleFile => ({ body, gzip: gzipSync(body, { level: 9 }), contentType, immutable });

const TYPES: Record<string, string> = { '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8' };

const OPTIONS: BuildOptions & { write: false; metafile: true } = {
  entryPoints: { app: ENTRY },
  absWorkingDir: ROOT,
  bundle: true,
  // Each screen's dynamic import() becomes its own chunk, loaded when the screen is first shown.
  splitting: true,
  format: 'esm',
  target: 'es2022',
  platform: 'browser',
  minify: true,
  jsx: 'automatic',
  jsxImportSource: 'preact',
  entryNames: '[name]-[hash]',
  chunkNames: '[name]-[hash]',
  outdir: 'console-out',
  write: false,
  metafile: true,
  legalComments: 'none',
  logLevel: 'warning',
};

/** For the local runtime (in the background while it starts). */
export const buildConsole = async (): Promise<ConsoleBuild> => assemble(await build(OPTIONS));

/** For `cdk synth`, whose constructs are built synchronously (about 100 ms). */
export const buildConsoleSync = (): ConsoleBuild => assemble(buildSync(OPTIONS));

const assetPath = (outputPath: string) => CONSOLE_ASSETS_PATH + outputPath.slice(outputPath.lastIndexOf('/') + 1);

function assemble({ outputFiles, metafile }: { outputFiles: OutputFile[]; metafile: Metafile }): ConsoleBuild {
  const files = new Map<string, ConsoleFile>();
  for (const o of outputFiles) {
    const path = assetPath(o.path);
    files.set(path, file(Buffer.from(o.contents), TYPES[path.slice(path.lastIndexOf('.'))] ?? 'application/octet-stream', true));
  }
  // The page loads the entry (named by the metafile, not by the order of the outputs) and its stylesheet,
  // and preloads the chunks the entry imports, so they load beside it instead of after it.
  const [entry, meta] = Object.entries(metafile.outputs).find(([, o]) => o.entryPoint === ENTRY)!;
  const preload = meta.imports.filter((i) => i.kind === 'import-statement').map((i) => assetPath(i.path));
  const page = file(Buffer.from(pageHtml(assetPath(entry), assetPath(meta.cssBundle!), preload), 'utf8'), 'text/html; charset=utf-8', false);
  files.set(CONSOLE_PATH, page);
  return { files, page, entry: assetPath(entry) };
}

function pageHtml(script: string, style: string, preload: string[]): string {
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<title>Loyalty console</title>',
    `<link rel="stylesheet" href="${style}">`,
    ...preload.map((chunk) => `<link rel="modulepreload" href="${chunk}">`),
    `<script type="module" src="${script}"></script>`,
    '</head>',
    '<body><div id="app"></div></body>',
    '</html>',
  ].join('\n');
}
