import * as repo from './repository';
import { withOptimisticRetry } from '../platform/data/concurrency';
import { transactWrite } from './repository';
import { ID_PATTERN, newId } from '../platform/ids';
import { notFound } from '../platform/errors';
import { sealSteps, type WriteOptions } from '../platform/data/write-options';
import type { CreateStoreInput, Store, UpdateStoreInput } from './schemas';

const isStoreId = (id: string) => ID_PATTERN('sto').test(id);

function normalise(input: CreateStoreInput | UpdateStoreInput, base: Partial<Store>): Omit<Store, 'id' | 'createdAt' | 'updatedAt'> {
  const address = input.address === undefined ? base.address : input.address;
  return {
    name: input.name ?? base.name!,
    code: input.code === undefined ? (base.code ?? null) : input.code,
    address: address
      ? {
          line1: address.line1,
          line2: address.line2 ?? null,
          city: address.city,
          postalCode: address.postalCode ?? null,
          region: address.region ?? null,
          country: address.country,
        }
      : null,
    timezone: input.timezone === undefined ? (base.timezone ?? null) : input.timezone,
    currency: input.currency === undefined ? (base.currency ?? null) : input.currency,
    status: input.status ?? base.status ?? 'active',
  };
}

export async function createStore(workspaceId: string, input: CreateStoreInput, opts: WriteOptions<Store> = {}, now = new Date()): Promise<Store> {
  const at = now.toISOString();
  const store: Store = { id: newId('sto'), ...normalise(input, {}), createdAt: at, updatedAt: at };
  await transactWrite([repo.putStoreStep(workspaceId, store), ...sealSteps(opts, store)]);
  return store;
}

export async function getStore(workspaceId: string, storeId: string): Promise<Store> {
  const found = isStoreId(storeId) ? await repo.getStore(workspaceId, storeId) : undefined;
  if (!found) throw notFound('Store');
  const { version: _v, ...store } = found;
  return store;
}

export async function updateStore(workspaceId: string, storeId: string, input: UpdateStoreInput, now = new Date()): Promise<Store> {
  return withOptimisticRetry(async () => {
    const current = isStoreId(storeId) ? await repo.getStore(workspaceId, storeId) : undefined;
    if (!current) throw notFound('Store');
    const { version, ...base } = current;
    const next: Store = { ...base, ...normalise(input, base), updatedAt: now.toISOString() };
    await transactWrite([repo.replaceStoreStep(workspaceId, next, version)]);
    return next;
  });
}

export const listStores = (workspaceId: string, limit: number, cursor?: string, status?: string) => repo.listStores(workspaceId, limit, cursor, status);
