import { describe, expect, it } from 'vitest';
import { newId } from '../../../../shared/platform/ids';
import { createEndpointBody, subscribesTo } from '../../../../shared/webhooks/schemas';
import { deliveryIdOf } from '../../../../shared/webhooks/delivery-id';
import { describeIssues } from '../../../../shared/platform/validation/validation';
import { deliveryMessageBody, deliveryMessageSchema, outboxStreamItemSchema } from '../../../../shared/webhooks/messages';

const eventId = newId('evt');
const endpointId = newId('whe');
const message = {
  workspaceId: newId('ws'),
  endpointId,
  deliveryId: deliveryIdOf(eventId, endpointId),
  eventId,
  eventType: 'member.created',
  payload: JSON.stringify({ id: eventId, type: 'member.created', created_at: new Date().toISOString(), data: {} }),
  trigger: 'event',
};

const outboxItem = {
  pk: 'WS#x#OUTBOX#y',
  sk: 'OUTBOX',
  entity: 'outbox',
  workspaceId: message.workspaceId,
  expiresAt: 1_900_000_000,
  events: [{ id: eventId, type: 'member.created', created_at: '2025-01-02T03:04:05.678Z', data: { resource_id: 'mbr_1' } }],
};

describe('delivery message schema', () => {
  it('accepts what the fan-out, replay and test ping send, and ignores fields a newer producer adds', () => {
    expect(deliveryMessageSchema.parse(message)).toEqual(message);
    for (const trigger of ['event', 'replay', 'test']) expect(deliveryMessageSchema.safeParse({ ...message, trigger }).success).toBe(true);
    expect(deliveryMessageBody.parse(JSON.stringify({ ...message, addedLater: 1 }))).toEqual(message);
  });

  it.each([
    ['a missing field', { ...message, payload: undefined }, 'payload'],
    ['a number for a string', { ...message, eventType: 42 }, 'eventType'],
    ['an unknown trigger', { ...message, trigger: 'retry' }, 'trigger'],
    ['an id of the wrong kind', { ...message, endpointId: newId('ws') }, 'endpointId'],
    ['an id with a key separator', { ...message, workspaceId: `${message.workspaceId}#OTHER` }, 'workspaceId'],
    ['an empty payload', { ...message, payload: '' }, 'payload'],
    ['an array', [message], '(root)'],
    ['null', null, '(root)'],
  ])('rejects %s', (_, value, path) => {
    const result = deliveryMessageSchema.safeParse(value);
    expect(result.success).toBe(false);
    expect(describeIssues(result.error!).join('\n')).toContain(path);
  });

  it('a body must be JSON of that shape', () => {
    for (const body of ['', 'not json', '{"workspaceId":', '"a string"', '42', JSON.stringify({ ...message, deliveryId: 'dlv_x' })]) {
      const result = deliveryMessageBody.safeParse(body);
      expect(result.success, body).toBe(false);
    }
    expect(describeIssues(deliveryMessageBody.safeParse('nope').error!)).toEqual(['(root): not valid JSON']);
  });

  it('issues name paths, never the values', () => {
    const secret = 'whsec_do-not-log-me';
    const issues = describeIssues(deliveryMessageSchema.safeParse({ ...message, eventId: secret }).error!);
    expect(issues).toEqual([expect.stringMatching(/^eventId: /)]);
    expect(issues.join()).not.toContain(secret);
  });
});

describe('outbox stream item schema', () => {
  it('accepts an outbox item as the table stream carries it (unmarshalled)', () => {
    const parsed = outboxStreamItemSchema.parse(outboxItem);
    expect(parsed).toEqual({ entity: 'outbox', workspaceId: outboxItem.workspaceId, events: outboxItem.events });
  });

  it.each([
    ['another entity', { ...outboxItem, entity: 'member' }],
    ['no workspace', { ...outboxItem, workspaceId: undefined }],
    ['events not a list', { ...outboxItem, events: { 0: outboxItem.events[0] } }],
    ['an event without a type', { ...outboxItem, events: [{ ...outboxItem.events[0], type: undefined }] }],
    ['an event with a bad id', { ...outboxItem, events: [{ ...outboxItem.events[0], id: 'evt_first' }] }],
    ['an event with a bad time', { ...outboxItem, events: [{ ...outboxItem.events[0], created_at: 'yesterday' }] }],
    ['an event whose data is a list', { ...outboxItem, events: [{ ...outboxItem.events[0], data: ['x'] }] }],
  ])('rejects %s', (_, value) => {
    expect(outboxStreamItemSchema.safeParse(value).success).toBe(false);
  });
});

describe('subscriptions', () => {
  it('an endpoint takes the events it lists, or every event with "*"', () => {
    expect(subscribesTo(['member.created'], 'member.created')).toBe(true);
    expect(subscribesTo(['member.created'], 'order.created')).toBe(false);
    expect(subscribesTo(['*'], 'order.created')).toBe(true);
    expect(subscribesTo(['*'], 'an.event.added.later')).toBe(true);
    expect(subscribesTo([], 'member.created')).toBe(false);
  });

  it('"*" is accepted alone only; named events stay checked against the catalog', () => {
    const body = (eventTypes: unknown) => createEndpointBody.safeParse({ url: 'https://example.com/hook', eventTypes });
    expect(body(['*']).success).toBe(true);
    expect(body(['member.created', 'order.created']).success).toBe(true);
    expect(body(['*', 'member.created']).error?.issues[0]?.message).toBe('"*" takes every event: list it alone');
    expect(body(['*', '*']).success).toBe(false);
    expect(body(['member.exploded']).success).toBe(false);
    expect(body(['**']).success).toBe(false);
    expect(body([]).success).toBe(false);
  });
});
