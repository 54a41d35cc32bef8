import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { documentClient, writeClient } from './client';

/**
 * Benchmark mode: an SDK middleware that counts the DynamoDB requests of this process, the items
 * they read and wrote and the capacity they consumed (it asks every request for
 * `ReturnConsumedCapacity: TOTAL`). Tests and benchmarks attach it with `countStoreCalls()`; no
 * function does, so production requests carry neither the middleware nor the extra parameter.
 */

/** One DynamoDB request as the counter saw it. */
export interface StoreCall {
  /** The API operation, e.g. `GetItem`, `TransactWriteItems`. */
  operation: string;
  /** Items the request read: a GetItem's key, a Query's scanned items, a transaction's condition checks. */
  itemsRead: number;
  /** Items the request wrote (Put, Update, Delete, also inside a transaction or batch). */
  itemsWritten: number;
  /** Read and write capacity units the table reported (0 for a failed request: DynamoDB reports none). */
  capacityUnits: number;
  failed: boolean;
}

export interface StoreCallTotals {
  calls: number;
  itemsRead: number;
  itemsWritten: number;
  capacityUnits: number;
  /** Requests per operation, e.g. `{ GetItem: 2, TransactWriteItems: 1 }`. */
  operations: Record<string, number>;
}

type Input = Record<string, unknown>;
type Output = Record<string, unknown> | undefined;

const count = (list: unknown) => (Array.isArray(list) ? list.length : 0);
/** Per table: a BatchGetItem's `{ Keys }`, a BatchWriteItem's list of put and delete requests. */
const perTable = (requests: unknown, items: (perTable: unknown) => unknown) =>
  Object.values((requests ?? {}) as Record<string, unknown>).reduce<number>((sum, r) => sum + count(items(r)), 0);

/** The items one request read and wrote, from its input (and, for queries, its output). */
export function itemsOf(operation: string, input: Input, output: Output): { itemsRead: number; itemsWritten: number } {
  switch (operation) {
    case 'GetItem':
      return { itemsRead: 1, itemsWritten: 0 };
    case 'PutItem':
    case 'UpdateItem':
    case 'DeleteItem':
      return { itemsRead: 0, itemsWritten: 1 };
    case 'Query':
    case 'Scan':
      return { itemsRead: Number(output?.ScannedCount ?? 0), itemsWritten: 0 };
    case 'BatchGetItem':
      return { itemsRead: perTable(input.RequestItems, (t) => (t as { Keys?: unknown }).Keys), itemsWritten: 0 };
    case 'BatchWriteItem':
      return { itemsRead: 0, itemsWritten: perTable(input.RequestItems, (t) => t) };
    case 'TransactGetItems':
      return { itemsRead: count(input.TransactItems), itemsWritten: 0 };
    case 'TransactWriteItems': {
      const items = (input.TransactItems ?? []) as Record<string, unknown>[];
      const checks = items.filter((i) => i.ConditionCheck !== undefined).length;
      return { itemsRead: checks, itemsWritten: items.length - checks };
    }
    default:
      return { itemsRead: 0, itemsWritten: 0 };
  }
}

/** Capacity units of a response's `ConsumedCapacity` (one entry, or a list for batches and transactions). */
export function capacityOf(output: Output): number {
  const consumed = output?.ConsumedCapacity;
  const entries = (Array.isArray(consumed) ? consumed : consumed ? [consumed] : []) as { CapacityUnits?: number }[];
  return entries.reduce((sum, e) => sum + (e.CapacityUnits ?? 0), 0);
}

export function totalsOf(calls: readonly StoreCall[]): StoreCallTotals {
  const operations: Record<string, number> = {};
  for (const c of calls) operations[c.operation] = (operations[c.operation] ?? 0) + 1;
  const sum = (f: (c: StoreCall) => number) => calls.reduce((s, c) => s + f(c), 0);
  return {
    calls: calls.length,
    itemsRead: sum((c) => c.itemsRead),
    itemsWritten: sum((c) => c.itemsWritten),
    capacityUnits: Math.round(sum((c) => c.capacityUnits) * 100) / 100,
    operations,
  };
}

export interface StoreCallCounter {
  /** Every request counted so far, oldest first. */
  readonly calls: StoreCall[];
  /** The requests `work` made (none of its own are left out; run one operation at a time). */
  during<T>(work: () => Promise<T>): Promise<{ result: T; totals: StoreCallTotals; calls: StoreCall[] }>;
}

/** Operations that accept `ReturnConsumedCapacity`. */
const REPORTS_CAPACITY = new Set([
  'GetItem',
  'PutItem',
  'UpdateItem',
  'DeleteItem',
  'Query',
  'Scan',
  'BatchGetItem',
  'BatchWriteItem',
  'TransactGetItems',
  'TransactWriteItems',
]);

const MIDDLEWARE_NAME = 'storeCallCounter';
/** Set on a command's middleware context by `uncounted`. */
const UNCOUNTED = 'uncountedStoreCall';

/**
 * Marks a command the counter leaves out: a read the store's environment makes for itself (the
 * local runtime's commit barrier), not part of any operation's cost.
 */
export function uncounted<C extends { middlewareStack: { add: (...args: never[]) => unknown } }>(command: C): C {
  type Stack = { add(mw: (next: (a: unknown) => unknown, ctx: Record<string, unknown>) => (a: unknown) => unknown, o: object): void };
  (command.middlewareStack as unknown as Stack).add(
    (next, context) => (args) => {
      context[UNCOUNTED] = true;
      return next(args);
    },
    { step: 'initialize', priority: 'high', name: UNCOUNTED, override: true },
  );
  return command;
}
const counters = new WeakMap<object, StoreCall[]>();

/**
 * Counts every request of the process's store clients (`documentClient()` and
 * `writeClient()`, or the given ones). Attaching twice returns the same counter.
 */
export function countStoreCalls(clients: DynamoDBDocumentClient[] = [documentClient(), writeClient()]): StoreCallCounter {
  const calls: StoreCall[] = counters.get(clients[0]!) ?? [];
  for (const client of clients) {
    if (counters.has(client)) continue;
    counters.set(client, calls);
    client.middlewareStack.add(
      (next, context) => async (args) => {
        const operation = String(context.commandName ?? '').replace(/Command$/, '');
        const asked = args.input as Input;
        if ((context as Record<string, unknown>)[UNCOUNTED]) return next(args);
        const input = REPORTS_CAPACITY.has(operation) && asked.ReturnConsumedCapacity === undefined ? { ...asked, ReturnConsumedCapacity: 'TOTAL' } : asked;
        try {
          const out = await next({ ...args, input });
          const output = out.output as Output;
          calls.push({ operation, ...itemsOf(operation, input, output), capacityUnits: capacityOf(output), failed: false });
          return out;
        } catch (err) {
          calls.push({ operation, ...itemsOf(operation, input, undefined), capacityUnits: 0, failed: true });
          throw err;
        }
      },
      { step: 'initialize', name: MIDDLEWARE_NAME, override: true },
    );
  }
  return {
    calls,
    async during(work) {
      const from = calls.length;
      const result = await work();
      const made = calls.slice(from);
      return { result, totals: totalsOf(made), calls: made };
    },
  };
}
