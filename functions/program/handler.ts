import { programArea } from '../../shared/program';
import * as clock from '../../shared/program';
import { DUE_JOBS, runDueProgramWork } from '../../shared/campaigns';
import { pointsFoldJob } from '../../shared/overview';
import * as program from '../../shared/program';
import { defineArea } from '../../shared/http/area';
import { sealed } from '../../shared/http/operation';
import { auditOf, principalOf } from '../../shared/http/principal';
import { ok } from '../../shared/http/responses';

export const handler = defineArea(programArea, {
  getProgram: async ({ principal }) => ok(await program.getProgram(principalOf(principal).workspaceId)),
  putProgram: async (input) => ok(await program.putProgram(principalOf(input.principal).workspaceId, input.body, auditOf(input))),
  getClock: async ({ principal }) => ok(await clock.getClock(principalOf(principal).workspaceId)),
  // The clock's advance runs the due work (points, tiers, campaign triggers, the points report's
  // month folds) as the schedule does, composed here.
  advanceClock: sealed(ok, (input, write) =>
    clock.advanceClock(
      principalOf(input.principal).workspaceId,
      input.body.days,
      auditOf(input),
      (workspaceId, now) => runDueProgramWork(workspaceId, now, [...DUE_JOBS, pointsFoldJob]),
      write,
    ),
  ),
});
