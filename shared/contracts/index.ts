import type { Area } from '../../infra/routes';
import { apiKeysContract } from './api-keys';
import { authContract } from './auth';
import type { AreaContract } from './contract';
import { membersContract } from './members';
import { objectsContract } from './objects';
import { ordersContract } from './orders';
import { programContract } from './program';
import { storesContract } from './stores';
import { systemContract } from './system';
import { webhooksContract } from './webhooks';

/** Every area's contract: the source of the OpenAPI document. */
export const CONTRACTS: Record<Area, AreaContract> = {
  system: systemContract,
  auth: authContract,
  'api-keys': apiKeysContract,
  program: programContract,
  stores: storesContract,
  members: membersContract,
  orders: ordersContract,
  webhooks: webhooksContract,
  objects: objectsContract,
};
