import { privacyArea, eraseMember, personalData } from '../../shared/privacy';
import { recordAccess } from '../../shared/audit';
import { defineArea } from '../../shared/http/area';
import { auditOf, principalOf } from '../../shared/http/principal';
import { ok } from '../../shared/http/responses';

export const handler = defineArea(privacyArea, {
  getMemberPersonalData: async (input) => {
    const workspaceId = principalOf(input.principal).workspaceId;
    const doc = await personalData(workspaceId, input.params.id);
    // Recorded before the data leaves; an export that cannot be recorded is not answered.
    await recordAccess(workspaceId, auditOf(input), 'member.personal_data_exported', { type: 'member', id: input.params.id }, new Date(), { required: true });
    return ok(doc);
  },
  eraseMember: async (input) => ok(await eraseMember(principalOf(input.principal).workspaceId, input.params.id, auditOf(input))),
  eraseMemberInConsole: async (input) => ok(await eraseMember(principalOf(input.principal).workspaceId, input.params.id, auditOf(input))),
});
