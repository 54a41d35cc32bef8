import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';

/** A stream record's image (DynamoDB attribute-value JSON) as a plain object. */
export const fromStreamImage = <T>(image: Record<string, unknown>): T => unmarshall(image as Record<string, AttributeValue>) as T;
