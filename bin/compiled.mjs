// The project's entry points (the command-line tool, the local runtime) compiled into one file each and
// kept until a source they were built from changes. A start through tsx compiles or looks up each
// TypeScript module one by one (about 1 s of CPU for the tool, more for the runtime); one compiled file
// loads in a fraction of that. Packages stay outside the file (loaded from node_modules as usual), and
// each source keeps its own `import.meta.url`, so files it reads next to itself are found as before.
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CACHE = join(ROOT, 'node_modules', '.cache', 'loyalty-entries');

const filesOf = (name) => ({ bundle: join(CACHE, `${name}.mjs`), manifest: join(CACHE, `${name}.json`) });

/** True when the compiled file exists and none of its sources changed after it was built. */
function isFresh({ bundle, manifest }) {
  try {
    const { builtAt, inputs } = JSON.parse(readFileSync(manifest, 'utf8'));
    return existsSync(bundle) && inputs.length > 0 && inputs.every((file) => statSync(join(ROOT, file)).mtimeMs < builtAt);
  } catch {
    return false;
  }
}

/** Every project source's `import.meta.url` stays its own (not the compiled file's). */
const ownImportMeta = {
  name: 'own-import-meta',
  setup(build) {
    build.onLoad({ filter: /\.[cm]?ts$/ }, async ({ path }) => {
      if (path.includes('/node_modules/')) return undefined;
      const source = await readFile(path, 'utf8');
      return { contents: source.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(path).href)), loader: 'ts' };
    });
  },
};

/** Builds into files of this process, then renames them into place: parallel starts never read half a file. */
async function build(entry, { bundle, manifest }) {
  const esbuild = await import('esbuild');
  // Stamped before reading the sources: one edited during the build is newer, so the next start builds again.
  const builtAt = Date.now();
  mkdirSync(CACHE, { recursive: true });
  const own = `${process.pid}-${Math.random().toString(36).slice(2)}`;
  const result = await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: [entry],
    outfile: `${bundle}.${own}`,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    plugins: [ownImportMeta],
    metafile: true,
    logLevel: 'silent',
  });
  const inputs = Object.keys(result.metafile.inputs).filter((file) => !file.startsWith('node_modules/'));
  writeFileSync(`${manifest}.${own}`, JSON.stringify({ builtAt, inputs }));
  renameSync(`${bundle}.${own}`, bundle);
  renameSync(`${manifest}.${own}`, manifest);
}

/**
 * Imports `entry` (a path from the project root) compiled; undefined when it cannot be compiled here
 * (no esbuild, a read-only folder): the caller then loads the sources through tsx.
 */
export async function importCompiled(entry) {
  const files = filesOf(entry.replace(/[^A-Za-z0-9]+/g, '-'));
  try {
    if (!isFresh(files)) await build(entry, files);
  } catch {
    return undefined;
  }
  return import(pathToFileURL(files.bundle).href);
}
