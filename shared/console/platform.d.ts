import type { components, operations } from '../client/schema';

type Condition = NonNullable<operations['createCampaign']['requestBody']['content']['application/json']['conditions']>[number];
type ConditionField = Condition['field'];
type ConditionOp = Condition['op'];
type ConditionKind = 'number' | 'string' | 'boolean' | 'list';

declare global {
  /**
   * Lists the platform declares once (API-key scopes, audit actions, object field types, campaign condition fields
   * with the kind of value each holds and the operators each kind takes), put into the bundle by its
   * build (infra/build/console.ts) so the console imports no domain code; typed from the OpenAPI document.
   */
  const PLATFORM: {
    readonly scopes: readonly components['schemas']['ApiKey']['scopes'][number][];
    readonly auditActions: readonly NonNullable<NonNullable<operations['listAuditEntries']['parameters']['query']>['action']>[];
    readonly fieldTypes: readonly operations['putObjectTypeDefinition']['requestBody']['content']['application/json']['fields'][number]['type'][];
    readonly conditionFields: Readonly<Record<ConditionField, ConditionKind>>;
    readonly opsByKind: Readonly<Record<ConditionKind, readonly ConditionOp[]>>;
  };
}
