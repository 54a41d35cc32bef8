import type { Area } from '../../infra/routes';
import { apiKeysContract } from './api-keys';
import { authContract } from './auth';
import type { AreaContract } from './contract';
import { membersContract } from './members';
import { ambassadorContract } from './ambassador';
import { capturesContract } from './captures';
import { catalogContract } from './catalog';
import { couponsContract } from './coupons';
import { objectsContract } from './objects';
import { tagsContract } from './tags';
import { trackingContract } from './tracking';
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
  catalog: catalogContract,
  tags: tagsContract,
  captures: capturesContract,
  coupons: couponsContract,
  ambassador: ambassadorContract,
  tracking: trackingContract,
};
