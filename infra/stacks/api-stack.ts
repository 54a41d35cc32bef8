import { NestedStack, type NestedStackProps } from 'aws-cdk-lib';
import type * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { DECLARATIONS } from '../../shared/contracts/index';
import { Api } from '../constructs/api';
import { AreaFunctions } from '../constructs/area-functions';
import type { Exports } from '../constructs/exports';
import { webhookEnvironment } from '../constructs/webhooks';
import type { PlatformResources } from './shared-props';

export interface ApiStackProps extends NestedStackProps {
  readonly resources: PlatformResources;
  readonly httpApi: apigw.IHttpApi;
  /** Signs page cursors (shared/data/cursor.ts). */
  readonly cursorSecret: secretsmanager.ISecret;
  /** The workflows areas may start. */
  readonly exports: Exports;
}

/**
 * Capability "API and areas": one function per declared area, the routes of the HTTP API (the API
 * itself stays in the root stack: its id is its public URL), the stage and its access log.
 */
export class ApiStack extends NestedStack {
  readonly areaFunctions: AreaFunctions;
  readonly api: Api;

  constructor(scope: Construct, id: string, props: ApiStackProps) {
    super(scope, id, { description: 'Loyalty platform: HTTP API routes and area functions', ...props });
    const r = props.resources;
    this.areaFunctions = new AreaFunctions(this, 'Functions', {
      table: r.table,
      mail: r.mail,
      queues: r.queues,
      walletSecret: r.walletSecret,
      // The webhook numbers the replay and test ping read.
      extras: { webhooks: { environment: webhookEnvironment() } },
    });
    this.api = new Api(this, 'Api', { httpApi: props.httpApi, functions: this.areaFunctions.functions });

    // A dynamic reference: CloudFormation resolves it at deploy time, so the value is in no template.
    const cursorKey = props.cursorSecret.secretValue.unsafeUnwrap();
    for (const fn of Object.values(this.areaFunctions.functions)) {
      fn.addEnvironment('PUBLIC_BASE_URL', r.publicBaseUrl);
      fn.addEnvironment('CURSOR_SECRET', cursorKey);
    }
    // Grants from the declared access.
    for (const d of DECLARATIONS) {
      r.exportBucket.grant(this.areaFunctions.functions[d.area], d.access);
      r.signingSecretsKey.grant(this.areaFunctions.functions[d.area], d.access);
      props.exports.grant(this.areaFunctions.functions[d.area], d.access);
    }
  }
}
