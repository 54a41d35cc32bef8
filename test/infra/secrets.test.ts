import { type CfnElement, Stack } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';
import { beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_DISTRIBUTION_LOGICAL_ID } from '../../infra/app/constructs/console-hosting';
import { CURSOR_SECRET_LOGICAL_ID, type LoyaltyPlatformStack, ORIGIN_VERIFY_SECRET_LOGICAL_ID } from '../../infra/app/stack';
import { AREAS } from '../../shared/http/declarations';
import { SECRET_ARN_ENV, type SecretName } from '../../shared/platform/ports/secrets';
import { synthesizedApp } from '../support/synthesized-app';
import { declaredSecrets, type PlatformTemplates } from './templates';

/**
 * The run-time secrets (the page cursor key, the origin header's value) are in no function's
 * configuration: a function's environment holds a secret's ARN at most, and only the functions whose
 * access declares a secret may read it (GetSecretValue on exactly that secret).
 */

type Resource = { Type: string; Properties?: Record<string, any> };
type Statement = { Action: string | string[]; Resource: unknown; Effect: string };

const SECRET_IDS: Record<SecretName, string> = { pageCursors: CURSOR_SECRET_LOGICAL_ID, originVerify: ORIGIN_VERIFY_SECRET_LOGICAL_ID };

let stack: LoyaltyPlatformStack;
let resources: Record<string, Resource>;
let templates: PlatformTemplates;

beforeAll(() => {
  ({ stack, resources, templates } = synthesizedApp());
});

const logicalId = (c: IConstruct): string => Stack.of(stack).resolve(((c.node.defaultChild ?? c) as CfnElement).logicalId) as string;
const functions = () => ({ ...stack.areaFunctions.functions, ...stack.consumerFunctions }) as Record<string, IConstruct>;
const roleOf = (fn: IConstruct): string => (resources[logicalId(fn)]!.Properties!.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);
const secretIds = () => ofType('AWS::SecretsManager::Secret').map(([id]) => id);

/** Every statement of every IAM policy of the platform, with the roles it is attached to. */
const statements = () =>
  ofType('AWS::IAM::Policy').flatMap(([, p]) =>
    (p.Properties!.PolicyDocument.Statement as Statement[]).map((s) => ({ ...s, roles: (p.Properties!.Roles as { Ref: string }[]).map((r) => r.Ref) })),
  );

/** Whether a statement lets its roles read `secretId`'s value. */
const readsSecret = (s: Statement, secretId: string) =>
  [s.Action].flat().some((a) => a === 'secretsmanager:GetSecretValue' || a === 'secretsmanager:*' || a === '*') &&
  [s.Resource].flat().some((r) => r === '*' || JSON.stringify(r).includes(`"${secretId}"`));

describe('secrets in function configuration', () => {
  it('no function environment holds a secret value: no dynamic reference, a secret only as its bare ARN', () => {
    const secrets = secretIds();
    expect(secrets).toEqual(expect.arrayContaining(Object.values(SECRET_IDS)));
    const all = ofType('AWS::Lambda::Function');
    expect(all.length).toBeGreaterThan(AREAS.length);
    for (const [id, fn] of all) {
      const variables = (fn.Properties?.Environment?.Variables ?? {}) as Record<string, unknown>;
      for (const [name, value] of Object.entries(variables)) {
        const text = JSON.stringify(value);
        expect(text, `${id} ${name}`).not.toContain('{{resolve:');
        // A reference to a secret is its ARN (`Ref`), never anything built from it.
        for (const secret of secrets) if (text.includes(`"${secret}"`)) expect(value, `${id} ${name}`).toEqual({ Ref: secret });
      }
      // The names of the variables that held the values before are gone.
      expect(
        Object.keys(variables).filter((n) => /^(CURSOR_SECRET|ORIGIN_VERIFY_SECRET)$/.test(n)),
        id,
      ).toEqual([]);
    }
  });

  it("no template resolves a secret's value but for the distribution's origin header, which takes a literal value only", () => {
    const found: string[] = [];
    const walk = (value: unknown, path: string): void => {
      if (typeof value === 'string' && value.includes('{{resolve:')) found.push(path);
      else if (Array.isArray(value)) for (const v of value) walk(v, path);
      else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) walk(v, `${path}.${k}`);
    };
    for (const [id, r] of Object.entries(templates.root.Resources)) walk(r, id);
    for (const [stackId, t] of Object.entries(templates.nested)) for (const [id, r] of Object.entries(t.Resources)) walk(r, `${stackId}/${id}`);
    expect(found).toEqual([`${CONSOLE_DISTRIBUTION_LOGICAL_ID}.Properties.DistributionConfig.Origins.OriginCustomHeaders.HeaderValue.Fn::Join`]);
  });
});

describe('who may read each secret', () => {
  it('the page cursor key: the functions that list with cursors; the origin header: every area function (its HTTP layer)', () => {
    const holders = (name: SecretName) =>
      Object.entries(declaredSecrets())
        .filter(([, secrets]) => secrets.includes(name))
        .map(([fn]) => fn)
        .sort();
    expect(holders('originVerify')).toEqual([...AREAS].sort());
    const notListing = ['auth', 'portal', 'system', 'tracking', 'wallet', 'wallet-passes'];
    // import-begin lists a filtered bulk job's members through the members list (its signed cursors).
    expect(holders('pageCursors')).toEqual(
      [...AREAS.filter((a) => !notListing.includes(a)), 'export-section', 'import-begin', 'program-due', 'webhook-fanout'].sort(),
    );
  });

  it.each(Object.entries(SECRET_IDS))('%s: GetSecretValue only for the functions that declare it, each told its ARN', (name, secretId) => {
    const declared = declaredSecrets();
    const readers = new Set(statements().flatMap((s) => (readsSecret(s, secretId) ? s.roles : [])));
    for (const [fnName, fn] of Object.entries(functions())) {
      const declares = declared[fnName]!.includes(name as SecretName);
      expect(readers.has(roleOf(fn)), `${fnName} ${declares ? 'declares' : 'does not declare'} ${name}`).toBe(declares);
      const env = resources[logicalId(fn)]!.Properties!.Environment?.Variables ?? {};
      expect(env[SECRET_ARN_ENV[name as SecretName]], fnName).toEqual(declares ? { Ref: secretId } : undefined);
    }
    // No other role of the platform at all, and each grant is the one action on the one secret.
    const functionRoles = new Set(Object.values(functions()).map(roleOf));
    expect([...readers].filter((r) => !functionRoles.has(r))).toEqual([]);
    for (const s of statements().filter((st) => readsSecret(st, secretId))) {
      expect(s.Effect).toBe('Allow');
      expect([s.Action].flat()).toEqual(['secretsmanager:GetSecretValue']);
      expect([s.Resource].flat()).toEqual([{ Ref: secretId }]);
    }
  });

  it('no secret has a resource policy that would let anything else read it', () => {
    expect(ofType('AWS::SecretsManager::ResourcePolicy')).toEqual([]);
  });
});
