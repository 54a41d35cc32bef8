/**
 * The MCP server SDK's Node shim as the bundles get it (esbuild `alias`, see BUNDLING in
 * ../options.ts). The SDK's own shim makes Ajv (about 150 KiB minified, compiled with `eval`-style
 * code generation) its default JSON Schema validator; this one makes it the SDK's own
 * `@cfworker/json-schema` validator (about 20 KiB), which validates the same drafts. The server
 * needs a validator only for elicitation answers, which none of its tools request.
 */
export { default as process } from 'node:process';
export { CfWorkerJsonSchemaValidator as DefaultJsonSchemaValidator } from '@modelcontextprotocol/server/validators/cf-worker';
