import { type CfnResource, Names, Stack } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';

/**
 * How the template of `scope`'s stack writes an attribute of `resource` in cdk-nag's notation (a
 * finding id names it): `<LogicalId.Attr>` in the resource's own stack; in a nested stack, the
 * parameter CDK passes the value in as (`<referenceto<unique id><Attr>>`). Acknowledgements name
 * findings by these ids, so a grant on a root resource in a nested stack acknowledges the right one.
 */
export function templateRef(scope: IConstruct, resource: CfnResource, attr: string): string {
  const own = Stack.of(resource);
  if (Stack.of(scope) === own) return `<${own.resolve(resource.logicalId) as string}.${attr}>`;
  if (Stack.of(scope).nestedStackParent !== own) throw new Error('templateRef: only the parent stack and its nested stacks are supported');
  return `<referenceto${Names.nodeUniqueId(resource.node)}${attr}>`;
}
