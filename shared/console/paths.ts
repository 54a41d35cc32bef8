/**
 * The console's addresses, for links and navigation: the routes in app.tsx match these (relative to
 * ROOT). A detail's address carries its id, so it can be linked, reloaded and closed with Back.
 */
export const ROOT = '/console';

const under = (path: string, id: string) => `${ROOT}${path}/${encodeURIComponent(id)}`;

export const to = {
  members: `${ROOT}/members`,
  member: (id: string) => under('/members', id),
  program: `${ROOT}/program`,
  campaign: (id: string) => under('/program/campaigns', id),
  rewards: `${ROOT}/rewards`,
  reward: (id: string) => under('/rewards', id),
  objectTypes: `${ROOT}/object-types`,
  objectType: (key: string) => under('/object-types', key),
  webhooks: `${ROOT}/webhooks`,
  deliveries: (endpointId: string) => `${under('/webhooks', endpointId)}/deliveries`,
  imports: `${ROOT}/imports`,
  importJob: (id: string) => under('/imports', id),
  audit: `${ROOT}/audit`,
  /** The signed-in person's own page (their sessions): every role has it, so it is outside the navigation. */
  account: `${ROOT}/account`,
} as const;

/** The address of a new campaign's editor (no campaign id starts so). */
export const NEW_CAMPAIGN = 'new';

/** The address of a new reward's form (no reward id starts so). */
export const NEW_REWARD = 'new';
