import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import type { Access } from '../../../shared/platform/contract/endpoint';

/**
 * The DynamoDB actions of each declared table access. Transactions need no action of their own:
 * TransactWriteItems is authorised per item (Put/Update/Delete/ConditionCheck). Never Scan, and no
 * DescribeTable or stream actions (only the stream consumer's event source adds those).
 */
export const TABLE_ACTIONS: Readonly<Record<Access['table'], readonly string[]>> = {
  none: [],
  read: ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query', 'dynamodb:ConditionCheckItem'],
  readWrite: [
    'dynamodb:GetItem',
    'dynamodb:BatchGetItem',
    'dynamodb:Query',
    'dynamodb:ConditionCheckItem',
    'dynamodb:PutItem',
    'dynamodb:UpdateItem',
    'dynamodb:DeleteItem',
    'dynamodb:BatchWriteItem',
  ],
};

/** Grants exactly the declared table access on the table and its indexes; false when none. */
export function grantTable(role: iam.IRole, table: dynamodb.ITable, level: Access['table']): boolean {
  const actions = TABLE_ACTIONS[level];
  if (actions.length === 0) return false;
  role.addToPrincipalPolicy(new iam.PolicyStatement({ actions: [...actions], resources: [table.tableArn, `${table.tableArn}/index/*`] }));
  return true;
}
