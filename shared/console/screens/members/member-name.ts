import type { components } from '../../../client/schema';

/** How the list and the detail name a member: the name, else the e-mail, the externalId, the id. */
export const nameOf = (m: components['schemas']['Member']): string => [m.firstName, m.lastName].filter(Boolean).join(' ') || m.email || m.externalId || m.id;
