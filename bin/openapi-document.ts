/**
 * Renders the OpenAPI document, as the platform builds it from the contracts, to the file named by
 * the first argument: run by the bundling of the system function, which ships the file next to its
 * bundle and serves it (`SHIPPED_FILES` in infra/build/bundling/options.ts).
 */
import { writeFileSync } from 'node:fs';
import { buildOpenApiDocument } from '../shared/http/openapi';

const [target] = process.argv.slice(2);
if (!target) throw new Error('Usage: tsx bin/openapi-document.ts <file>');
writeFileSync(target, JSON.stringify(buildOpenApiDocument()));
