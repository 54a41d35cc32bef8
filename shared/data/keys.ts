/**
 * Key layouts of every entity, as data. Templates name their parts in braces; `keyOf` fills them.
 *
 * Rule: every tenant entity's partition key starts with `WS#{workspaceId}`, and the workspace id
 * comes from the credential. The only global entities are the credential lookups, which exist
 * precisely to find the workspace of a presented secret or login e-mail; their keys are hashes
 * (or the e-mail), never guessable ids. A unit test enforces both halves of the rule.
 */
export const ENTITIES = {
  workspace: { pk: 'WS#{workspaceId}', sk: 'WORKSPACE' },
  user: { pk: 'WS#{workspaceId}', sk: 'USER#{userId}' },
  apiKey: { pk: 'WS#{workspaceId}', sk: 'APIKEY#{keyId}' },

  // Credential lookups (global by design, see above).
  loginEmail: { pk: 'EMAIL#{email}', sk: 'EMAIL', global: true },
  apiKeyHash: { pk: 'APIKEY#{keyHash}', sk: 'APIKEY', global: true },
  session: { pk: 'SESSION#{tokenHash}', sk: 'SESSION', global: true },
  resetToken: { pk: 'RESET#{tokenHash}', sk: 'RESET', global: true },
  loginThrottle: { pk: 'LOGINFAIL#{emailHash}#{window}', sk: 'LOGINFAIL', global: true },
} as const satisfies Record<string, { pk: string; sk: string; global?: true }>;

export type EntityName = keyof typeof ENTITIES;

type Placeholders<T extends string> = T extends `${string}{${infer P}}${infer Rest}` ? P | Placeholders<Rest> : never;
type Layout<E extends EntityName> = (typeof ENTITIES)[E];
export type KeyParams<E extends EntityName> = Record<Placeholders<Layout<E>['pk'] | Layout<E>['sk']>, string | number>;

export interface PrimaryKey {
  pk: string;
  sk: string;
}

function fill(template: string, params: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined || value === '') throw new Error(`key part ${name} missing for ${template}`);
    return String(value);
  });
}

export function keyOf<E extends EntityName>(entity: E, params: KeyParams<E>): PrimaryKey {
  const layout = ENTITIES[entity];
  const p = params as Record<string, string | number>;
  return { pk: fill(layout.pk, p), sk: fill(layout.sk, p) };
}

/** The sort-key prefix shared by all items of an entity in one partition (for begins_with queries). */
export function skPrefix(entity: EntityName): string {
  const sk: string = ENTITIES[entity].sk;
  const brace = sk.indexOf('{');
  return brace === -1 ? sk : sk.slice(0, brace);
}
