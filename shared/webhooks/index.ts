/**
 * The door of the webhooks area: what other areas, the HTTP layer, MCP, the functions and infra use of it,
 * named one by one. Files inside the area import each other directly (docs/architecture.md).
 */

export { retryDelaySeconds } from './backoff';
export { replayDeadDeliveries } from './bulk-replay';
export { eventCatalog } from './catalog';
export { webhooksArea } from './contract';
export type { WebhookOperations } from './contract';
export { attemptDelivery, classify, markDead } from './delivery';
export { deliveryBatch } from './delivery-batch';
export { deliveryIdOf } from './delivery-id';
export type { StoredSecret } from './entities';
export { fanOut } from './fanout';
export { deliveryMessageBody, jsonBody, outboxStreamItemSchema } from './messages';
export { allEndpoints, listAttempts } from './repository';
export { attemptSchema, endpointSchema } from './schemas';
export { exportSecretOwner, openSigningSecrets, overlapping, sealedSecret } from './secret-storage';
export { createEndpoint, deleteEndpoint, listDeliveries, listEndpoints, replayDelivery, sendTestPing, triggerSampleEvent, updateEndpoint } from './service';
export { newSecret, signatureHeader } from './signing';
export type { SigningSecret } from './types';
