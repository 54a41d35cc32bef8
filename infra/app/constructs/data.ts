import { RemovalPolicy } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import { Construct, type IConstruct } from 'constructs';
import { templateRef } from './template-ref';
import { TABLE_SCHEMA } from '../../../shared/platform/data/table-schema';

/**
 * Logical ID of the single table in the CloudFormation template. Pinned: a changed logical ID makes
 * CloudFormation create a new (empty) table, so refactoring the construct tree must never move it.
 * `test/infra/stack.test.ts` fails if this changes.
 */
export const TABLE_LOGICAL_ID = 'LoyaltyTable';

/**
 * cdk-nag finding raised by `grantReadWriteData` (and the other table grants): the grant covers the
 * table and `<table>/index/*`, i.e. its GSIs. Acknowledged per role, with this id only.
 */
export const TABLE_INDEX_WILDCARD_FINDING = `AwsSolutions-IAM5[Resource::<${TABLE_LOGICAL_ID}.Arn>/index/*]`;

/** The same finding as a function in `scope`'s stack sees it (a nested stack gets the table ARN as a parameter). */
export const tableIndexWildcardFinding = (scope: IConstruct, table: dynamodb.ITable): string =>
  table instanceof dynamodb.Table
    ? `AwsSolutions-IAM5[Resource::${templateRef(scope, table.node.defaultChild as dynamodb.CfnTable, 'Arn')}/index/*]`
    : TABLE_INDEX_WILDCARD_FINDING;

/**
 * The single DynamoDB table of the platform, built from `TABLE_SCHEMA` (the same data the local
 * runtime uses to create the table in DynamoDB Local).
 */
export class Data extends Construct {
  readonly table: dynamodb.Table;

  constructor(scope: Construct, id: string) {
    super(scope, id);

    const str = dynamodb.AttributeType.STRING;
    this.table = new dynamodb.Table(this, 'Table', {
      partitionKey: { name: TABLE_SCHEMA.partitionKey, type: str },
      sortKey: { name: TABLE_SCHEMA.sortKey, type: str },
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      timeToLiveAttribute: TABLE_SCHEMA.ttlAttribute,
      stream: dynamodb.StreamViewType.NEW_AND_OLD_IMAGES,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      encryption: dynamodb.TableEncryption.AWS_MANAGED,
      deletionProtection: true,
      // Deleting or replacing the stack must never delete customer data.
      removalPolicy: RemovalPolicy.RETAIN,
    });

    for (const gsi of TABLE_SCHEMA.gsis) {
      this.table.addGlobalSecondaryIndex({
        indexName: gsi.indexName,
        partitionKey: { name: gsi.partitionKey, type: str },
        sortKey: { name: gsi.sortKey, type: str },
        projectionType: dynamodb.ProjectionType.ALL,
      });
    }

    (this.table.node.defaultChild as dynamodb.CfnTable).overrideLogicalId(TABLE_LOGICAL_ID);
  }
}
