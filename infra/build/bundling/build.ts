import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { esbuildOptions, renderCommand, SHIPPED_FILES } from './options';

/**
 * Builds function bundles with esbuild's JS API and the options CDK uses (`./options.ts`), in one
 * esbuild call: for the cold-start benchmark and the bundle-budget test. CDK builds the deployed
 * bundles itself (`PlatformFunction`).
 */

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** Every function: `functions/<name>/handler.ts` (areas and webhook consumers), by name. */
export function functionEntries(): Record<string, string> {
  const dir = join(ROOT, 'functions');
  return Object.fromEntries(
    readdirSync(dir, { withFileTypes: true })
      .filter((d) => d.isDirectory() && existsSync(join(dir, d.name, 'handler.ts')))
      .map((d) => d.name)
      .sort()
      .map((name) => [name, join(dir, name, 'handler.ts')]),
  );
}

export interface BuiltBundle {
  /** `<outdir>/<name>/index.mjs` */
  file: string;
  bytes: number;
  /** Source files in the bundle (metafile input paths, relative to the project root) with their bytes in it. */
  inputs: Record<string, number>;
  /** Imports left in the bundle (node builtins and `LEFT_OUT_MODULES`), with how they are imported. */
  externalImports: { path: string; kind: esbuild.ImportKind | 'file-loader' }[];
  /** Files shipped next to the bundle (`SHIPPED_FILES`), by destination, with their bytes. */
  shipped: Record<string, number>;
}

/** Copies or renders a function's `SHIPPED_FILES` into its bundle folder, as CDK's bundling does. */
export function copyShippedFiles(name: string, bundleDir: string): Record<string, number> {
  const shipped: Record<string, number> = {};
  for (const file of SHIPPED_FILES[name] ?? []) {
    const target = join(bundleDir, file.to);
    mkdirSync(dirname(target), { recursive: true });
    if ('from' in file) copyFileSync(join(ROOT, file.from), target);
    else {
      const [command, ...args] = renderCommand(file, ROOT.replace(/\/$/, ''), target);
      execFileSync(command!, args, { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
    }
    shipped[file.to] = statSync(target).size;
  }
  return shipped;
}

/**
 * Bundles each entry (`name -> entry file`) to `<outdir>/<name>/index.mjs` (+ `.map`), as in a CDK
 * asset folder. Returns each bundle's size and contents, and the metafile (for `analyzeMetafile`).
 */
export async function buildBundles(
  entries: Record<string, string>,
  outdir: string,
): Promise<{ bundles: Record<string, BuiltBundle>; metafile: esbuild.Metafile }> {
  const result = await esbuild.build({ ...esbuildOptions(entries, outdir), metafile: true });
  const bundles: Record<string, BuiltBundle> = {};
  for (const name of Object.keys(entries)) {
    const file = join(outdir, name, 'index.mjs');
    const [, output] = Object.entries(result.metafile.outputs).find(([path]) => join(ROOT, path) === file) ?? [];
    if (!output) throw new Error(`esbuild wrote no ${file}`);
    bundles[name] = {
      file,
      bytes: output.bytes,
      inputs: Object.fromEntries(Object.entries(output.inputs).map(([path, { bytesInOutput }]) => [path, bytesInOutput])),
      externalImports: output.imports.filter((i) => i.external).map(({ path, kind }) => ({ path, kind })),
      shipped: copyShippedFiles(name, join(outdir, name)),
    };
  }
  return { bundles, metafile: result.metafile };
}
