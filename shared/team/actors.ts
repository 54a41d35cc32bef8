import { keyNames } from '../api-keys';
import type { ActorDirectory } from '../audit';
import { userNames } from '../auth';

/**
 * Who the audit trail's actors are, as the workspace knows them now: its team members (name and
 * login e-mail) and its API keys (name and prefix, revoked ones too). A user who left the team is
 * not found, and the trail shows them by id alone.
 */
export const actorDirectory: ActorDirectory = async (workspaceId, ids) => {
  const [users, keys] = await Promise.all([userNames(workspaceId, ids.users), keyNames(workspaceId, ids.keys)]);
  return {
    users: new Map(users.map((u) => [u.id, { name: u.name ?? null, email: u.email }])),
    keys: new Map(keys.map((k) => [k.id, { name: k.name, prefix: k.prefix }])),
  };
};
