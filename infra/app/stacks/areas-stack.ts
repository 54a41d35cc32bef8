import { NestedStack, type NestedStackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { DECLARATIONS } from '../../../shared/http/declarations';
import { AreaFunctions } from '../constructs/area-functions';
import type { Exports } from '../constructs/exports';
import { webhookEnvironment } from '../constructs/webhooks';
import type { PlatformResources } from './shared-props';

export interface AreasStackProps extends NestedStackProps {
  readonly resources: PlatformResources;
  /** The workflows areas may start. */
  readonly exports: Exports;
  readonly imports: Exports;
}

/**
 * Capability "areas": one function per declared area with its role, log group and exactly the
 * access its declaration names. The routes that call them are `ApiStack`'s: a route is one resource
 * per endpoint, so the two grow apart and each keeps its own room under the resource limit.
 */
export class AreasStack extends NestedStack {
  readonly areaFunctions: AreaFunctions;

  constructor(scope: Construct, id: string, props: AreasStackProps) {
    super(scope, id, { description: 'Loyalty platform: area functions', ...props });
    const r = props.resources;
    // Construct id as in ApiStack before: the functions keep their logical IDs (a refactor maps them one to one).
    this.areaFunctions = new AreaFunctions(this, 'Functions', {
      table: r.table,
      mail: r.mail,
      queues: r.queues,
      walletSecret: r.walletSecret,
      secrets: r.secrets,
      // The webhook numbers the replay and test ping read.
      extras: { webhooks: { environment: webhookEnvironment() } },
    });

    // The secrets (page cursor key, origin header) are read at run time by the functions that
    // declare them: their configuration holds the ARNs only (PlatformFunction).
    for (const fn of Object.values(this.areaFunctions.functions)) fn.addEnvironment('PUBLIC_BASE_URL', r.publicBaseUrl);
    // Grants from the declared access.
    for (const d of DECLARATIONS) {
      r.exportBucket.grant(this.areaFunctions.functions[d.area], d.access);
      r.signingSecretsKey.grant(this.areaFunctions.functions[d.area], d.access);
      props.exports.grant(this.areaFunctions.functions[d.area], d.access);
      props.imports.grant(this.areaFunctions.functions[d.area], d.access);
    }
  }
}
