/**
 * The door of the overview area: what other areas, the HTTP layer, MCP, the functions and infra use of it,
 * named one by one. Files inside the area import each other directly (docs/architecture.md).
 */

export { overviewArea } from './contract';
export { overview } from './figures';
export { counterOf, dayMoves } from './points-day';
export { pointsDaySteps } from './points-repository';
export { pointsReportOf } from './reports';
export { figuresStep } from './repository';
