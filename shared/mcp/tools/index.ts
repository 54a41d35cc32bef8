import type { ToolDefinition } from '../registry';
import { campaignTools } from './campaigns';
import { commerceTools } from './commerce';
import { insightTools } from './insights';
import { memberTools } from './members';
import { objectTools } from './objects';
import { rewardTools } from './rewards';

/** THE tool registry: every tool of the MCP server, declared once (in the files next to this one). */
export const TOOLS: readonly ToolDefinition[] = [...memberTools, ...commerceTools, ...rewardTools, ...campaignTools, ...objectTools, ...insightTools];

export const toolNamed = (name: string): ToolDefinition | undefined => TOOLS.find((t) => t.name === name);
