import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { memberEntity } from '../../../../../shared/members/entities';
import { defineEntity, layoutAttributes, withoutKeys } from '../../../../../shared/platform/data/entity';
import { ENTITIES } from '../../../../../shared/platform/data/keys';
import { productEntity } from '../../../../../shared/catalog/entities';

const SHARED = join(__dirname, '../../../../../shared');

/** Every declaration of every area's entities.ts: the registry the layout rules below iterate. */
async function declarations(): Promise<{ name: string; keyAttributes: readonly string[] }[]> {
  const areas = readdirSync(SHARED, { withFileTypes: true }).filter((d) => d.isDirectory() && readdirSync(join(SHARED, d.name)).includes('entities.ts'));
  const modules = await Promise.all(areas.map((a) => import(join(SHARED, a.name, 'entities.ts')) as Promise<Record<string, unknown>>));
  return modules.flatMap((m) =>
    Object.values(m).filter((v): v is { name: string; keyAttributes: readonly string[] } => typeof (v as { toItem?: unknown })?.toItem === 'function'),
  );
}

describe('defineEntity', () => {
  const thingSchema = z.object({ id: z.string(), workspaceId: z.string(), brandId: z.string().nullable() });
  const thing = defineEntity({
    name: 'product',
    keys: (t: z.infer<typeof thingSchema>) => ({ workspaceId: t.workspaceId, productId: t.id, brandId: t.brandId ?? '' }),
    when: { gsi3: (t) => t.brandId !== null },
    beside: { version: (_, c: { version?: number }) => c.version },
  });

  it('writes a sparse index only while its condition holds, and leaves out what lies beside without a value', () => {
    expect(thing.toItem({ id: 'prd_1', workspaceId: 'ws_1', brandId: null }, {})).toStrictEqual({
      pk: 'WS#ws_1#PRODUCT#prd_1',
      sk: 'PRODUCT',
      gsi1pk: 'WS#ws_1#PRODUCTS',
      gsi1sk: 'prd_1',
      entity: 'product',
      id: 'prd_1',
      workspaceId: 'ws_1',
      brandId: null,
    });
    expect(thing.toItem({ id: 'prd_1', workspaceId: 'ws_1', brandId: 'brd_2' }, { version: 3 })).toMatchObject({
      gsi3pk: 'WS#ws_1#BRAND#brd_2#PRODUCTS',
      gsi3sk: 'prd_1',
      version: 3,
    });
  });

  it('reads back the record: every key of its layout, entity and what lies beside dropped, anything else kept', () => {
    const item = thing.toItem({ id: 'prd_1', workspaceId: 'ws_1', brandId: 'brd_2' }, { version: 3 });
    expect(thing.fromItem({ ...item, extra: 1 })).toStrictEqual({ id: 'prd_1', workspaceId: 'ws_1', brandId: 'brd_2', extra: 1 });
    expect(() => thingSchema.strict().parse(thing.fromItem({ ...item, extra: 1 }))).toThrow(/extra/);
    expect(thingSchema.strict().parse(thing.fromItem(item))).toStrictEqual({ id: 'prd_1', workspaceId: 'ws_1', brandId: 'brd_2' });
    expect(thing.keyAttributes).toEqual(['pk', 'sk', 'gsi1pk', 'gsi1sk', 'gsi3pk', 'gsi3sk', 'entity', 'version']);
    expect(thing.keyOf({ id: 'prd_1', workspaceId: 'ws_1', brandId: null }, {})).toEqual({ pk: 'WS#ws_1#PRODUCT#prd_1', sk: 'PRODUCT' });
  });

  it('a member read anywhere drops the keys of all three of its indexes and the request that wrote it', () => {
    const item = {
      pk: 'p',
      sk: 's',
      entity: 'member',
      gsi1pk: 'a',
      gsi1sk: 'b',
      gsi2pk: 'c',
      gsi2sk: 'd',
      gsi3pk: 'e',
      gsi3sk: 'f',
      lastRequestId: 'r',
      id: 'mbr_1',
    };
    expect(memberEntity.fromItem(item)).toStrictEqual({ id: 'mbr_1' });
    expect(productEntity.fromItem({ pk: 'p', sk: 's', entity: 'product', gsi1pk: 'a', gsi1sk: 'b', gsi3pk: 'e', gsi3sk: 'f', id: 'prd_1' })).toStrictEqual({
      id: 'prd_1',
    });
  });

  it('withoutKeys drops every key attribute of the table, whatever the type', () => {
    expect(withoutKeys({ pk: 'p', sk: 's', entity: 'x', gsi1pk: 1, gsi1sk: 1, gsi2pk: 1, gsi2sk: 1, gsi3pk: 1, gsi3sk: 1, a: 1 })).toStrictEqual({ a: 1 });
    expect(layoutAttributes('order')).toEqual(['pk', 'sk', 'gsi1pk', 'gsi1sk', 'gsi2pk', 'gsi2sk']);
  });
});

describe('the registry of declarations', () => {
  it('declares each stored type once, each on a layout of the key registry', async () => {
    const all = await declarations();
    expect(all.length).toBeGreaterThanOrEqual(30);
    const names = all.map((d) => d.name);
    expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
    for (const n of names) expect(Object.keys(ENTITIES), n).toContain(n);
    const keys = names.map((n) => `${ENTITIES[n as keyof typeof ENTITIES].pk} ${ENTITIES[n as keyof typeof ENTITIES].sk}`);
    expect(keys.filter((k, i) => keys.indexOf(k) !== i)).toEqual([]);
  });

  it('every declared tenant type is keyed by the workspace first, in its primary key and every index', async () => {
    for (const { name } of await declarations()) {
      const layout = ENTITIES[name as keyof typeof ENTITIES] as Record<string, unknown>;
      if ('global' in layout) continue;
      for (const [part, template] of Object.entries(layout)) {
        if (part === 'pk') expect(template, name).toMatch(/^WS#\{workspaceId\}/);
        if (part.startsWith('gsi')) expect((template as { pk: string }).pk, `${name}.${part}`).toMatch(/^WS#\{workspaceId\}#/);
      }
    }
  });
});
