import type { Command } from 'commander';
import { text } from 'node:stream/consumers';
import { authArea } from '../../../shared/auth';
import { describe } from '../help';
import { dataOf } from '../client';
import { contextOf } from '../context';
import { UsageError } from '../errors';
import { forgetSession, storeSession } from '../sessions';

/** Reads a password from the terminal without echoing it. */
function promptHidden(prompt: string): Promise<string> {
  const stdin = process.stdin;
  process.stderr.write(prompt);
  stdin.setRawMode(true);
  stdin.resume();
  return new Promise((resolve, reject) => {
    let value = '';
    const done = (err?: Error) => {
      stdin.setRawMode(false);
      stdin.pause();
      stdin.off('data', onData);
      process.stderr.write('\n');
      if (err) reject(err);
      else resolve(value);
    };
    const onData = (chunk: Buffer) => {
      for (const ch of chunk.toString('utf8')) {
        if (ch === '\r' || ch === '\n') return done();
        if (ch === '\u0003') return done(new UsageError('Cancelled'));
        if (ch === '\u007f' || ch === '\b') value = value.slice(0, -1);
        else value += ch;
      }
    };
    stdin.on('data', onData);
  });
}

/** The second step of a sign-in with two-factor: the code given, or asked for. */
async function secondStep(client: ReturnType<typeof contextOf>['client'], challenge: string, given: string | undefined) {
  let code = given;
  if (code === undefined && process.stdin.isTTY) code = await promptHidden('Two-factor code: ');
  if (code === undefined) throw new UsageError('This account signs in with two-factor: pass the code of your authenticator app with --code');
  return dataOf(await (await client.typed(authArea.endpoints.completeMfaLogin)).POST({ body: { challenge, code } })).data;
}

export function registerLogin(program: Command): void {
  program
    .command('login')
    .description(describe('login'))
    .requiredOption('--email <email>')
    .option('--password-stdin', 'read the password from standard input (scripts); otherwise it is asked for')
    .option('--code <code>', 'the code of your authenticator app, for an account with two-factor sign-in; otherwise it is asked for')
    .action(async (o: { email: string; passwordStdin?: boolean; code?: string }, cmd: Command) => {
      let password: string;
      if (o.passwordStdin) password = (await text(process.stdin)).replace(/\r?\n$/, '');
      else if (process.stdin.isTTY) password = await promptHidden('Password: ');
      else throw new UsageError('No terminal to ask for the password: pipe it in with --password-stdin');
      const { client, out } = contextOf(cmd);
      const first = dataOf(await (await client.typed(authArea.endpoints.login)).POST({ body: { email: o.email, password } })).data;
      const data = 'mfa' in first ? await secondStep(client, first.mfa.challenge, o.code) : first;
      const file = await storeSession(client.baseUrl, { token: data.session.token, email: data.user.email, expiresAt: data.session.expiresAt });
      out.result({ user: data.user, workspace: data.workspace, expiresAt: data.session.expiresAt, storedIn: file }, () =>
        out.line(
          `Signed in as ${data.user.email} (${data.user.role}) to ${data.workspace.name} at ${client.baseUrl}; session kept in ${file} until ${data.session.expiresAt}`,
        ),
      );
    });

  program
    .command('logout')
    .description(describe('logout'))
    .action(async (_o: unknown, cmd: Command) => {
      const { client, out } = contextOf(cmd);
      const forgotten = await forgetSession(client.baseUrl);
      out.result({ forgotten }, () => out.line(forgotten ? `Forgot the session of ${client.baseUrl}` : `No stored session for ${client.baseUrl}`));
    });
}
