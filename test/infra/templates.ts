import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { NestedStack, type Stack, Stage } from 'aws-cdk-lib';
import { CONSOLE_COPIER_ID_PREFIX } from '../../infra/app/constructs/console-hosting';
import { CONSUMERS } from '../../shared/platform/consumers/table';
import { areaAccess } from '../../shared/platform/contract/endpoint';
import { AREAS, declarationOf } from '../../shared/http/declarations';
import type { SecretName } from '../../shared/platform/ports/secrets';

/**
 * The platform's templates: the root stack's and one per nested stack. `merged` reads them as one
 * template (what the platform is, whichever stack holds a resource): every resource of every stack
 * under its logical ID, and every parameter CDK passes a value into a nested stack with (or output
 * it passes one out with) replaced by that value, so a reference reads as it did in one stack
 * (`{ Ref: 'LoyaltyTable' }` in a nested function's environment too).
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;
export type TemplateJson = { Resources: Record<string, Json>; Parameters?: Record<string, Json>; Outputs?: Record<string, Json> };

export interface PlatformTemplates {
  readonly root: TemplateJson;
  /** Nested stack construct id -> its template. */
  readonly nested: Readonly<Record<string, TemplateJson>>;
  readonly merged: TemplateJson;
}

const NESTED_STACK_TYPE = 'AWS::CloudFormation::Stack';

export function platformTemplates(root: Stack): PlatformTemplates {
  const assembly = Stage.of(root)!.synth();
  const read = (stack: Stack): TemplateJson => JSON.parse(readFileSync(join(assembly.directory, stack.templateFile), 'utf8')) as TemplateJson;
  const rootJson = read(root);
  const nestedStacks = root.node.findAll().filter((c): c is NestedStack => NestedStack.isNestedStack(c));
  if (nestedStacks.some((n) => n.nestedStackParent !== root)) throw new Error('platformTemplates: nested stacks are one level deep');
  const byResourceId = new Map(nestedStacks.map((n) => [root.resolve(n.nestedStackResource!.logicalId) as string, { id: n.node.id, json: read(n) }]));

  /** A value in the root's terms, with every nested stack output replaced by what it outputs. */
  const inRoot = (value: Json): Json =>
    mapRefs(value, (node) => {
      const att = node['Fn::GetAtt'] as [string, string] | undefined;
      const nested = att ? byResourceId.get(att[0]) : undefined;
      if (!att || !nested || !att[1].startsWith('Outputs.')) return undefined;
      return inNested(att[0], nested.json.Outputs![att[1].slice('Outputs.'.length)].Value);
    });
  /** A value of a nested template, with every parameter replaced by the value the root passes in. */
  const inNested = (resourceId: string, value: Json): Json => {
    const passed = (rootJson.Resources[resourceId].Properties?.Parameters ?? {}) as Record<string, Json>;
    return mapRefs(value, (node) => (typeof node.Ref === 'string' && node.Ref in passed ? inRoot(passed[node.Ref]) : undefined));
  };

  const merged: TemplateJson = { Resources: {}, Parameters: rootJson.Parameters ?? {}, Outputs: inRoot(rootJson.Outputs ?? {}) };
  const add = (id: string, resource: Json) => {
    if (id in merged.Resources) throw new Error(`logical ID ${id} is in two stacks`);
    merged.Resources[id] = resource;
  };
  for (const [id, r] of Object.entries(rootJson.Resources)) if (r.Type !== NESTED_STACK_TYPE) add(id, inRoot(r));
  for (const [resourceId, { json }] of byResourceId) {
    for (const [id, r] of Object.entries(json.Resources)) add(id, inNested(resourceId, r));
  }
  const nested = Object.fromEntries([...byResourceId.values()].map(({ id, json }) => [id, json]));
  return { root: rootJson, nested, merged };
}

/** Copies `value`, replacing each object `replace` returns a value for. */
function mapRefs(value: Json, replace: (node: Record<string, Json>) => Json | undefined): Json {
  if (Array.isArray(value)) return value.map((v) => mapRefs(v, replace));
  if (value === null || typeof value !== 'object') return value;
  const replaced = replace(value);
  if (replaced !== undefined) return replaced;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapRefs(v, replace)]));
}

/**
 * The platform's own functions (areas and consumers): every Lambda function but CDK's deployment-time
 * copier of the console build, whose runtime, role and settings are CDK's (test/infra/console.test.ts).
 */
export const platformFunctions = (resources: Record<string, Json>): [string, Json][] =>
  Object.entries(resources).filter(([id, r]) => r.Type === 'AWS::Lambda::Function' && !id.startsWith(CONSOLE_COPIER_ID_PREFIX));

/** The secrets each function (area or consumer, by name) declares it reads: an area's with its HTTP layer's, a consumer's row's. */
export function declaredSecrets(): Record<string, readonly SecretName[]> {
  return {
    ...Object.fromEntries(AREAS.map((area) => [area, areaAccess(declarationOf(area)).secrets ?? []])),
    ...Object.fromEntries(CONSUMERS.map((row) => [row.name, ('secrets' in row.access ? row.access.secrets : undefined) ?? []])),
  };
}
