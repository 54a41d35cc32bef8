/**
 * The door of the stores area: what other areas, the HTTP layer, MCP, the functions and infra use of it,
 * named one by one. Files inside the area import each other directly (docs/architecture.md).
 */

export { storesArea } from './contract';
export { STORE_STATUSES } from './entities';
export { getStore as getStoreRecord } from './repository';
export { storeSchema } from './schemas';
export { createStore, getStore, listStores, updateStore } from './service';
