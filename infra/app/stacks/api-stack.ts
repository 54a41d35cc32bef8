import { NestedStack, type NestedStackProps } from 'aws-cdk-lib';
import type * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import type { Area } from '../../../shared/http/declarations';
import { Api } from '../constructs/api';

export interface ApiStackProps extends NestedStackProps {
  readonly httpApi: apigw.IHttpApi;
  /** The area functions (`AreasStack`), one per declared area. */
  readonly functions: Readonly<Record<Area, lambda.IFunction>>;
  /** The API's custom domain for the distribution, when the deployment names one. */
  readonly originDomain?: apigw.IDomainName;
}

/**
 * Capability "API": the routes of the HTTP API (one per endpoint of the route table), their
 * integrations and invoke permissions, the stage and its access log. The API itself stays in the
 * root stack (its id is its public URL); the functions are `AreasStack`'s.
 */
export class ApiStack extends NestedStack {
  readonly api: Api;

  constructor(scope: Construct, id: string, props: ApiStackProps) {
    super(scope, id, { description: 'Loyalty platform: HTTP API routes', ...props });
    this.api = new Api(this, 'Api', {
      httpApi: props.httpApi,
      functions: props.functions,
      ...(props.originDomain ? { originDomain: props.originDomain } : {}),
    });
  }
}
