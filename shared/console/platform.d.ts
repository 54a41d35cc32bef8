import type { components, operations } from '../client/schema';

declare global {
  /**
   * Lists the platform declares once (API-key scopes, audit actions, object field types), put into the bundle by its
   * build (infra/console/build.ts) so the console imports no domain code; typed from the OpenAPI document.
   */
  const PLATFORM: {
    readonly scopes: readonly components['schemas']['ApiKey']['scopes'][number][];
    readonly auditActions: readonly NonNullable<NonNullable<operations['listAuditEntries']['parameters']['query']>['action']>[];
    readonly fieldTypes: readonly operations['putObjectTypeDefinition']['requestBody']['content']['application/json']['fields'][number]['type'][];
  };
}
