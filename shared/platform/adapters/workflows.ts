import { runtimeConfig } from '../config';
import type { Workflows } from '../ports/workflows';
import { provided } from './provided';
import { SfnWorkflows } from './sfn-workflows';

let sfn: Workflows | undefined;

/** The process's workflow starter: the local runtime's in-process runner, else Step Functions. */
export function workflowsFromConfig(): Workflows {
  if (provided.workflows) return provided.workflows;
  sfn ??= new SfnWorkflows(runtimeConfig().AWS_REGION);
  return sfn;
}
