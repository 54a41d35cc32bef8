/**
 * The door of the exports area: what other areas, the HTTP layer, MCP, the functions and infra use of it,
 * named one by one. Files inside the area import each other directly (docs/architecture.md).
 */

export { assertMayExport } from './access';
export { exportsArea } from './contract';
export { OPERATIONAL_ENTITIES, OPERATIONAL_FORMATS } from './entities';
export { downloadLink, exportsRunning, getOperationalJob, listArchiveJobs, listOperationalJobs, startArchiveExport, startOperationalExport } from './jobs';
export { notify } from './notice';
export { createSchedule, deleteSchedule, listSchedules, tick } from './schedules';
export { exportJobSchema, exportScheduleSchema, operationalJobSchema } from './schemas';
export { rotateSigningSecret } from './signing-secrets';
export { assemble, begin, buildSection, markCompleted, markFailed, writeRows } from './workflow';
