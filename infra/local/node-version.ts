import { readFileSync } from 'node:fs';

/**
 * The Node.js the local runtime needs, as `engines.node` of package.json says (`>=22.13`: it uses
 * `node:sqlite`). `npm start` runs on the project's own Node (the `node` devDependency), so this
 * only speaks when the runtime is started directly with an older system Node.
 */
export function nodeVersionProblem(version: string, engines: string): string | undefined {
  const wanted = /^>=\s*(\d+)(?:\.(\d+))?/.exec(engines.trim());
  if (!wanted) return undefined;
  const [major, minor] = version.replace(/^v/, '').split('.').map(Number) as [number, number];
  const [needMajor, needMinor] = [Number(wanted[1]), Number(wanted[2] ?? 0)];
  if (major > needMajor || (major === needMajor && minor >= needMinor)) return undefined;
  return (
    `The local runtime needs Node.js ${engines.trim()} (it uses node:sqlite); this is Node.js ${version.replace(/^v/, '')}. ` +
    "Start it with `npm start`, which runs the project's own Node.js (installed by `npm ci`), or install Node.js 22.13 or later."
  );
}

/** Exits with one line when this Node is too old, before anything else is loaded or started. */
export function requireNodeVersion(): void {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { engines?: { node?: string } };
  const problem = nodeVersionProblem(process.version, pkg.engines?.node ?? '');
  if (!problem) return;
  process.stderr.write(`${problem}\n`);
  process.exit(1);
}
