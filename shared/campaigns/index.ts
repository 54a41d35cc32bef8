/**
 * The door of the campaigns area: what other areas, the HTTP layer, MCP, the functions and infra use of it,
 * named one by one. Files inside the area import each other directly (docs/architecture.md).
 */

export { campaignsArea } from './contract';
export { campaignNames, createCampaign, deleteCampaign, getCampaign, listCampaigns, updateCampaign, withTallies } from './definitions';
export { DUE_JOBS, runAllDueProgramWork, runDueProgramWork } from './due-work';
export { CONDITION_FIELDS, DAY_NAMES, OPS_BY_KIND } from './evaluation';
export { memberTriggers, ordersWithCampaigns } from './hooks';
export { campaignSchema, campaignSimulationSchema, createCampaignBody, listCampaignsQuery, simulateCampaignsBody, updateCampaignBody } from './schemas';
export { simulateCampaigns } from './simulation';
