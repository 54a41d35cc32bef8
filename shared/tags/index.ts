/**
 * The door of the tags area: what other areas, the HTTP layer, MCP, the functions and infra use of it,
 * named one by one. Files inside the area import each other directly (docs/architecture.md).
 */

export { tagsArea } from './contract';
export { memberTagsGoneSteps, tagKnown } from './repository';
export { listTagsQuery, memberTagSchema, memberTagsSchema, tagMemberBody, tagResultSchema, tagSchema } from './schemas';
export { listTags, memberTags, tagMember, untagMember } from './service';
