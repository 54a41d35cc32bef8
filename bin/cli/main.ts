import { Command, CommanderError } from 'commander';
import { COMMANDS, type CommandName } from './catalog';
import { ApiError, CommandError, EXIT, UsageError } from './errors';
import { DEFAULT_BASE_URL } from './settings';

// Imported, not read next to this file: the tool also runs compiled into one file elsewhere (bin/compiled-cli.mjs).
import packageJson from '../../package.json' with { type: 'json' };

const VERSION = packageJson.version;

/** The program with its global options; every command's help shows them too. */
function baseProgram(): Command {
  return (
    new Command('loyalty')
      .description('The loyalty platform from the command line')
      .version(VERSION, '-v, --version', 'print the version of the tool')
      .option('--base-url <url>', `API base URL (env LOYALTY_BASE_URL, default ${DEFAULT_BASE_URL})`)
      .option('--api-key <key>', 'API key fl_live_... (env LOYALTY_API_KEY)')
      .option('--json', 'print JSON for scripts')
      .configureHelp({ showGlobalOptions: true })
      // Commander exits by itself on a usage error; thrown instead, so every exit code is decided in one place.
      .exitOverride()
      .showHelpAfterError('(add --help for usage)')
      .addHelpText(
        'after',
        '\nExamples:\n  $ loyalty members create --email ada@example.com\n  $ loyalty orders create --member mbr_... --total 59.90 --currency EUR\n  $ loyalty webhooks listen --forward-to http://127.0.0.1:4000/hooks\n',
      )
  );
}

/** The first word of argv that is not a global option or its value: the command asked for. */
function commandOf(argv: readonly string[]): string | undefined {
  const args = argv.slice(2);
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--base-url' || a === '--api-key') i++;
    else if (!a.startsWith('-')) return a === 'help' ? args[i + 1] : a;
  }
  return undefined;
}

/**
 * The program for this invocation: the command asked for, loaded with its module, or (for
 * `--help`, `--version` or an unknown command) every command as a name and description only.
 */
export async function buildProgram(argv: readonly string[] = []): Promise<Command> {
  const program = baseProgram();
  const asked = commandOf(argv);
  if (asked && asked in COMMANDS) {
    (await COMMANDS[asked as CommandName].load())(program);
    (await import('./examples')).addExamples(program);
    return program;
  }
  for (const [name, { description }] of Object.entries(COMMANDS)) program.command(name).description(description).helpOption(false);
  return program;
}

const say = (line: string) => process.stderr.write(`${line}\n`);

/** Prints an error the way the command asked (JSON or a line) on stderr and gives its exit code. */
export function report(e: unknown, json: boolean): number {
  if (e instanceof CommanderError) return e.exitCode === 0 ? EXIT.ok : EXIT.usage; // commander printed it
  if (e instanceof ApiError) {
    if (json)
      say(
        JSON.stringify({
          error: { status: e.status, code: e.code, message: e.message, requestId: e.requestId ?? null, details: e.details, docUrl: e.docUrl ?? null },
        }),
      );
    else {
      say(`Error: ${e.code}: ${e.message} (HTTP ${e.status}, request id ${e.requestId ?? 'unknown'})`);
      for (const d of e.details) say(`  ${[d.in, d.field].filter(Boolean).join(' ')}: ${d.message}`);
      if (e.docUrl) say(`See ${e.docUrl}`);
    }
    return EXIT.api;
  }
  const code = e instanceof UsageError ? EXIT.usage : EXIT.api;
  const message = e instanceof UsageError || e instanceof CommandError ? e.message : `Unexpected failure: ${(e as Error)?.stack ?? String(e)}`;
  say(json ? JSON.stringify({ error: { code: code === EXIT.usage ? 'USAGE' : 'FAILED', message } }) : `Error: ${message}`);
  return code;
}

/** Runs one invocation and answers its exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  const program = await buildProgram(argv);
  try {
    await program.parseAsync(argv as string[]);
    return EXIT.ok;
  } catch (e) {
    return report(e, program.opts().json === true || argv.includes('--json'));
  }
}
