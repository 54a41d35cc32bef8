import { examplesOf } from './examples/index';

// OpenAPI objects are free-form JSON.
type Json = Record<string, any>;

/**
 * Puts each operation's declared examples (`shared/http/examples`) into the document: the
 * request body's, each JSON success response's, and each path or query parameter's. Operations
 * without declared examples (a test's own route table) are left as they are.
 */
export function addExamples(paths: Json): void {
  for (const item of Object.values(paths)) {
    for (const op of Object.values(item as Json) as Json[]) {
      const examples = examplesOf(op.operationId);
      if (!examples) continue;
      const summary = examples.summary ?? op.summary;
      const body = op.requestBody?.content?.['application/json'];
      if (body && examples.request !== undefined) body.examples = { [op.operationId]: { summary, value: examples.request } };
      for (const [status, value] of Object.entries(examples.responses)) {
        const media = op.responses?.[status]?.content?.['application/json'];
        if (media) media.examples = { [op.operationId]: { summary, value } };
      }
      for (const param of (op.parameters ?? []) as Json[]) addParameterExample(param, op.operationId, examples);
    }
  }
}

/**
 * A parameter's example. An optional one is shown but not pre-selected (`x-disabled`, which the
 * reference console honours): ticked filters would make the console's first Send of a list answer
 * an empty page. Required and path parameters are filled in, so the request can be sent as shown.
 */
function addParameterExample(param: Json, operationId: string, examples: NonNullable<ReturnType<typeof examplesOf>>): void {
  const value = param.in === 'query' ? examples.query?.[param.name] : param.in === 'path' ? examples.params?.[param.name] : undefined;
  if (value === undefined) return;
  if (param.in === 'query' && !param.required) param.examples = { [operationId]: { summary: 'Example', value, 'x-disabled': true } };
  else param.example = value;
}
