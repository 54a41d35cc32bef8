import * as z from 'zod';

/**
 * What differs per deployment of the stack (read when the CDK app is built, never by a function):
 * today the address the alarm topic notifies. A CDK context value wins over the environment.
 */
const alarmEmail = z.email({ message: 'must be an e-mail address' });

/**
 * The e-mail address subscribed to the alarm topic: the `alarmEmail` context value, else
 * `ALARM_EMAIL`, else none (the topic has no subscription; operators may subscribe anything to it).
 * An address that is not one fails synthesis rather than deploying an alarm nobody receives.
 */
export function alarmEmailOf(contextValue: unknown, env: Readonly<Record<string, string | undefined>> = process.env): string | undefined {
  const [source, value] = contextValue !== undefined && contextValue !== '' ? ['context alarmEmail', contextValue] : ['ALARM_EMAIL', env.ALARM_EMAIL];
  if (value === undefined || value === '') return undefined;
  const parsed = alarmEmail.safeParse(value);
  if (!parsed.success) throw new Error(`${source}=${JSON.stringify(value)} must be an e-mail address`);
  return parsed.data;
}
