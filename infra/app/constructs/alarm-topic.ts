import { type IAspect, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as sns from 'aws-cdk-lib/aws-sns';
import { Construct, type IConstruct } from 'constructs';

export interface AlarmTopicProps {
  /** Subscribed by e-mail (the recipient confirms once); none: subscribe a chat or pager integration by hand. */
  readonly email?: string;
}

/**
 * The one topic every alarm of the stack notifies, on ALARM and on OK. Encrypted with its own
 * customer managed key: CloudWatch cannot publish to a topic encrypted with the AWS managed SNS
 * key (its policy cannot grant CloudWatch), so this key's policy does, for alarms of this account
 * only. TLS only.
 */
export class AlarmTopic extends Construct {
  readonly topic: sns.Topic;
  readonly key: kms.Key;

  constructor(scope: Construct, id: string, props: AlarmTopicProps = {}) {
    super(scope, id);
    const stack = Stack.of(this);
    // Alarms of this account and region only (confused deputy).
    const fromOwnAlarms = {
      StringEquals: { 'aws:SourceAccount': stack.account },
      ArnLike: { 'aws:SourceArn': `arn:${stack.partition}:cloudwatch:${stack.region}:${stack.account}:alarm:*` },
    };
    const cloudWatch = new iam.ServicePrincipal('cloudwatch.amazonaws.com');

    this.key = new kms.Key(this, 'Key', {
      description: 'Loyalty platform: encrypts the alarm topic',
      enableKeyRotation: true,
      // Encrypts nothing but notifications in flight.
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.key.addToResourcePolicy(
      new iam.PolicyStatement({
        sid: 'CloudWatchAlarmsPublishToTheTopic',
        principals: [cloudWatch],
        actions: ['kms:Decrypt', 'kms:GenerateDataKey*'],
        resources: ['*'],
        conditions: fromOwnAlarms,
      }),
    );

    this.topic = new sns.Topic(this, 'Topic', {
      displayName: 'Loyalty platform alarms',
      masterKey: this.key,
      enforceSSL: true,
    });
    this.topic.addToResourcePolicy(
      new iam.PolicyStatement({
        sid: 'CloudWatchAlarmsPublish',
        principals: [cloudWatch],
        actions: ['sns:Publish'],
        resources: [this.topic.topicArn],
        conditions: fromOwnAlarms,
      }),
    );
    if (props.email) {
      const subscription = new sns.Subscription(this, 'Email', { topic: this.topic, protocol: sns.SubscriptionProtocol.EMAIL, endpoint: props.email });
      Validations.of(subscription.node.defaultChild as sns.CfnSubscription).acknowledge({
        id: 'Serverless-SNSRedrivePolicy',
        reason:
          'An alarm notification that cannot be mailed is worth nothing later: the alarm state and its history stay in ' +
          'CloudWatch (and on the dashboard), and a dead-letter queue of notifications would be one more queue nobody reads.',
      });
    }
  }
}

/**
 * Gives every alarm in its scope an alarm and an OK action on the topic, wherever the alarm is built
 * (the pipelines' own alarms too, and any alarm added later), so none can be left notifying no one.
 */
export class NotifyOnEveryAlarm implements IAspect {
  private readonly action: SnsAction;
  private readonly done = new WeakSet<cloudwatch.AlarmBase>();

  constructor(topic: sns.ITopic) {
    this.action = new SnsAction(topic);
  }

  visit(node: IConstruct): void {
    if (!(node instanceof cloudwatch.AlarmBase) || this.done.has(node)) return;
    this.done.add(node);
    node.addAlarmAction(this.action);
    node.addOkAction(this.action);
  }
}
