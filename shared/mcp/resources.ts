import { ProtocolError, ProtocolErrorCode, type RequestId } from '@modelcontextprotocol/server';
import type { Scope } from '../platform/contract/scopes';
import { AppError } from '../platform/errors';
import * as types from '../objects';
import { eventCatalog } from '../webhooks';
import { note, type McpRequestState } from './state';

/**
 * Resources an agent reads before it writes: each custom object type's schema and the webhook
 * event catalog, behind the same scopes as their REST routes (`objects:read`, `webhooks:manage`).
 */

export const EVENT_CATALOG_URI = 'events://catalog';
const TYPE_URI = /^objects:\/\/types\/([a-z][a-z0-9_]{0,63})$/;
const typeUri = (type: string) => `objects://types/${type}`;

const allows = (state: McpRequestState, scope: Scope) => state.ctx.principal.scopes.includes(scope);

export async function listResources(state: McpRequestState) {
  const resources: { uri: string; name: string; title: string; description: string; mimeType: string }[] = [];
  if (allows(state, 'webhooks:manage')) {
    resources.push({
      uri: EVENT_CATALOG_URI,
      name: 'event-catalog',
      title: 'Webhook event catalog',
      description: 'The events that fire, the delivery envelope and the signature headers',
      mimeType: 'application/json',
    });
  }
  if (allows(state, 'objects:read')) {
    for (const t of await types.apiObjectTypes(state.ctx.workspaceId)) {
      resources.push({
        uri: typeUri(t.type),
        name: t.type,
        title: `${t.label} (object type)`,
        description: `Fields of the custom object type ${t.type}`,
        mimeType: 'application/json',
      });
    }
  }
  return { resources };
}

export const resourceTemplates = (state: McpRequestState) =>
  allows(state, 'objects:read')
    ? [
        {
          uriTemplate: 'objects://types/{type}',
          name: 'object-type',
          title: 'Custom object type schema',
          description: 'The fields of a custom object type',
          mimeType: 'application/json',
        },
      ]
    : [];

export async function readResource(state: McpRequestState, uri: string, id: RequestId) {
  const refuse = (scope: Scope) => {
    note(state, id, 'refused', 'FORBIDDEN');
    return new ProtocolError(ProtocolErrorCode.InvalidParams, `This API key lacks the scope ${scope}`);
  };
  const json = (value: unknown) => ({ contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(value) }] });
  if (uri === EVENT_CATALOG_URI) {
    if (!allows(state, 'webhooks:manage')) throw refuse('webhooks:manage');
    note(state, id, 'ok');
    return json(eventCatalog());
  }
  const match = TYPE_URI.exec(uri);
  if (match) {
    if (!allows(state, 'objects:read')) throw refuse('objects:read');
    try {
      const detail = types.typeDetail(await types.apiObjectType(state.ctx.workspaceId, match[1]!));
      note(state, id, 'ok');
      return json(detail);
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== 'NOT_FOUND') throw error;
    }
  }
  note(state, id, 'invalid', 'NOT_FOUND');
  throw new ProtocolError(ProtocolErrorCode.ResourceNotFound, `Resource not found: ${uri}`);
}
