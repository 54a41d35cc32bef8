import { isConditionFailed, updateItem, type Item } from './items';

/**
 * Sets `fields` on the item at `key` only while its `status` is one of `from` (a job that moved on is
 * never written back): the item after the change, or undefined when it was elsewhere (or gone).
 */
export async function updateFromStatus(key: { pk: string; sk: string }, from: readonly string[], fields: Record<string, unknown>): Promise<Item | undefined> {
  const names: Record<string, string> = { '#status': 'status' };
  const values: Record<string, unknown> = {};
  const sets = Object.entries(fields).map(([k, v], i) => {
    names[`#f${i}`] = k;
    values[`:f${i}`] = v;
    return `#f${i} = :f${i}`;
  });
  const allowed = from.map((s, i) => {
    values[`:from${i}`] = s;
    return `:from${i}`;
  });
  try {
    return await updateItem<Item>({
      Key: key,
      UpdateExpression: `SET ${sets.join(', ')}`,
      ConditionExpression: `attribute_exists(pk) AND #status IN (${allowed.join(', ')})`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    });
  } catch (err) {
    if (isConditionFailed(err)) return undefined;
    throw err;
  }
}
