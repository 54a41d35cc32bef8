import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { eventDataSchema, EVENTS, STAGES } from '../../../../../shared/platform/events/registry';

const PERSONAL = /e-?mail|name|phone|address|birth|@/i;

describe('event registry', () => {
  it('declares at least the loyalty-core events, each with label, stage and a thin example', () => {
    expect(Object.keys(EVENTS)).toEqual(
      expect.arrayContaining(['member.created', 'loyalty.points_earned', 'loyalty.tier_upgraded', 'order.created', 'order.refunded']),
    );
    for (const [type, def] of Object.entries(EVENTS)) {
      expect(STAGES, type).toContain(def.stage);
      expect(def.label.length).toBeGreaterThan(3);
      expect(eventDataSchema.safeParse(def.example).success, type).toBe(true);
      expect(JSON.stringify(def.example)).not.toMatch(PERSONAL);
    }
    expect(EVENTS['member.created'].stage).toBe('acquisition');
    expect(EVENTS['loyalty.tier_upgraded'].stage).toBe('loyalty');
  });

  it('names an emitter that really emits each event', () => {
    for (const [type, def] of Object.entries(EVENTS)) {
      const file = def.emittedBy.split(' ')[0]!;
      const source = readFileSync(new URL(`../../../../../${file}`, import.meta.url), 'utf8');
      expect(source, `${type} in ${file}`).toContain(`'${type}'`);
    }
  });

  it('refuses personal data in an event payload', () => {
    expect(eventDataSchema.safeParse({ resource_id: 'mbr_1', member_ref: 'mbr_1', email: 'a@b.c' }).success).toBe(false);
  });
});
