import { programArea } from '../../shared/contracts/program';
import * as program from '../../shared/domain/program/service';
import { defineArea } from '../../shared/http/area';
import { auditOf, principalOf } from '../../shared/http/principal';
import { ok } from '../../shared/http/responses';

export const handler = defineArea(programArea, {
  getProgram: async ({ principal }) => ok(await program.getProgram(principalOf(principal).workspaceId)),
  putProgram: async (input) => ok(await program.putProgram(principalOf(input.principal).workspaceId, input.body, auditOf(input))),
});
