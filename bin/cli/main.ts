import { Command, CommanderError } from 'commander';
import { registerEvents } from './commands/events';
import { registerExports } from './commands/exports';
import { registerKeys } from './commands/keys';
import { registerLogin } from './commands/login';
import { registerMembers } from './commands/members';
import { registerObjects } from './commands/objects';
import { registerWebhooks } from './commands/webhooks';
import { ApiError, CommandError, EXIT, UsageError } from './errors';
import { DEFAULT_BASE_URL } from './settings';

export function buildProgram(): Command {
  const program = new Command('loyalty')
    .description('The loyalty platform from the command line')
    .option('--base-url <url>', `API base URL (env LOYALTY_BASE_URL, default ${DEFAULT_BASE_URL})`)
    .option('--api-key <key>', 'API key fl_live_... (env LOYALTY_API_KEY)')
    .option('--json', 'print JSON for scripts')
    // Commander exits by itself on a usage error; thrown instead, so every exit code is decided in one place.
    .exitOverride()
    .showHelpAfterError('(add --help for usage)');
  registerLogin(program);
  registerKeys(program);
  registerObjects(program);
  registerMembers(program);
  registerEvents(program);
  registerWebhooks(program);
  registerExports(program);
  return program;
}

const say = (line: string) => process.stderr.write(line + '\n');

/** Prints an error the way the command asked (JSON or a line) on stderr and gives its exit code. */
export function report(e: unknown, json: boolean): number {
  if (e instanceof CommanderError) return e.exitCode === 0 ? EXIT.ok : EXIT.usage; // commander printed it
  if (e instanceof ApiError) {
    if (json) say(JSON.stringify({ error: { status: e.status, code: e.code, message: e.message, requestId: e.requestId ?? null, details: e.details } }));
    else {
      say(`Error: ${e.code}: ${e.message} (HTTP ${e.status}, request id ${e.requestId ?? 'unknown'})`);
      for (const d of e.details) say(`  ${[d.in, d.field].filter(Boolean).join(' ')}: ${d.message}`);
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
  const program = buildProgram();
  try {
    await program.parseAsync(argv as string[]);
    return EXIT.ok;
  } catch (e) {
    return report(e, program.opts().json === true || argv.includes('--json'));
  }
}
