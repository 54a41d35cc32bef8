import { programContract } from '../../shared/contracts/program';
import * as program from '../../shared/domain/program/service';
import { defineArea } from '../../shared/http/area';
import { principalOf } from '../../shared/http/principal';
import { ok } from '../../shared/http/responses';

export const handler = defineArea('program', programContract, {
  'GET /api/flash/program': async ({ principal }) => ok(await program.getProgram(principalOf(principal).workspaceId)),
  'PUT /api/flash/program': async ({ principal, body }) => ok(await program.putProgram(principalOf(principal).workspaceId, body)),
});
