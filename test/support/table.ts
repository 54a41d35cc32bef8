import { type DynamoDBDocumentClient, QueryCommand, ScanCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { inject } from 'vitest';
import { keyOf } from '../../shared/platform/data/keys';
import { hashPassword } from '../../shared/auth/password';
import type { Role } from '../../shared/platform/contract/roles';
import { newId } from '../../shared/platform/ids';
import { documentClientFor, runtimeOf, type RuntimeInfo } from './platform';
import { PASSWORD, uniqueEmail } from './api';

/** Direct access to the running platform's table, for arranging state no endpoint creates yet. */
export async function platformTable(): Promise<{ doc: DynamoDBDocumentClient; tableName: string; runtime: RuntimeInfo }> {
  const runtime = await runtimeOf(inject('dataDir'));
  return { doc: documentClientFor(runtime), tableName: runtime.tableName, runtime };
}

/** The items of one partition whose sort key starts with `prefix`, read consistently (one page). */
export async function partitionItems(pk: string, prefix: string): Promise<Record<string, unknown>[]> {
  const { doc, tableName } = await platformTable();
  const out = await doc.send(
    new QueryCommand({
      TableName: tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': pk, ':prefix': prefix },
      ConsistentRead: true,
    }),
  );
  return out.Items ?? [];
}

/** Every item of the shared table, as JSON text: what a check that a value is stored nowhere scans. */
export async function wholeTable(): Promise<string[]> {
  const { doc, tableName } = await platformTable();
  const items: string[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const out = await doc.send(new ScanCommand({ TableName: tableName, ExclusiveStartKey: start }));
    for (const i of out.Items ?? []) items.push(JSON.stringify(i));
    start = out.LastEvaluatedKey;
  } while (start);
  return items;
}

/**
 * Adds a user with the given role to a workspace, as a future invitation flow will: the user item
 * and its login e-mail item, written together.
 */
export async function addUser(
  workspaceId: string,
  role: Role,
  /** Another platform instance's table (default: the shared platform's). */
  table?: { doc: DynamoDBDocumentClient; tableName: string },
): Promise<{ email: string; password: string }> {
  const { doc, tableName } = table ?? (await platformTable());
  const email = uniqueEmail(role);
  const userId = newId('usr');
  const now = new Date().toISOString();
  await doc.send(
    new TransactWriteCommand({
      TransactItems: [
        { Put: { TableName: tableName, Item: { ...keyOf('loginEmail', { email }), entity: 'loginEmail', workspaceId, userId } } },
        {
          Put: {
            TableName: tableName,
            Item: {
              ...keyOf('user', { workspaceId, userId }),
              entity: 'user',
              id: userId,
              workspaceId,
              email,
              name: null,
              role,
              createdAt: now,
              updatedAt: now,
              passwordHash: await hashPassword(PASSWORD),
              sessionGeneration: 1,
              version: 1,
            },
          },
        },
      ],
    }),
  );
  return { email, password: PASSWORD };
}

/** Every item matching a filter, across all scan pages (test inspection only). */
export async function scanItems(
  FilterExpression: string,
  ExpressionAttributeValues: Record<string, unknown>,
  ExpressionAttributeNames?: Record<string, string>,
): Promise<any[]> {
  const { doc, tableName } = await platformTable();
  const items: any[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const out = await doc.send(
      new ScanCommand({ TableName: tableName, FilterExpression, ExpressionAttributeValues, ExpressionAttributeNames, ExclusiveStartKey: start }),
    );
    items.push(...(out.Items ?? []));
    start = out.LastEvaluatedKey;
  } while (start);
  return items;
}

/** Every item of one entity in a workspace, straight from the table. */
export const workspaceItems = (workspaceId: string, entity: string) => scanItems('entity = :e AND workspaceId = :w', { ':e': entity, ':w': workspaceId });

export interface OutboxEventItem {
  id: string;
  type: string;
  created_at: string;
  data: Record<string, unknown>;
}

/** The events a workspace's writes put in the outbox (what the stream carries to webhooks). */
export async function outboxEvents(workspaceId: string, type?: string): Promise<OutboxEventItem[]> {
  const events = (await workspaceItems(workspaceId, 'outbox')).flatMap((i) => i.events as OutboxEventItem[]);
  return type ? events.filter((e) => e.type === type) : events;
}
