import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../../bin/cli/errors';
import { parseDefinitions, planChanges, type DefinedType } from '../../../../bin/cli/object-types';

const yaml = `
types:
  - type: repair_job
    label: " Repair job "
    status: published
    apiVisible: true
    fields:
      - { key: title, type: text, required: true }
      - { key: state, type: enum, options: [open, done] }
`;

/** As the API stores the definition above (label trimmed, `required` defaulted, the default title field resolved). */
const stored: DefinedType = {
  type: 'repair_job',
  label: 'Repair job',
  description: null,
  titleField: 'title',
  status: 'published',
  apiVisible: true,
  fields: [
    { key: 'title', type: 'text', required: true },
    { key: 'state', type: 'enum', required: false, options: ['open', 'done'] },
  ],
};

describe('object type files', () => {
  it('reads { types }, a list or one definition, in YAML or JSON', () => {
    const [one] = parseDefinitions(yaml, 'f.yaml');
    expect(one).toMatchObject({ type: 'repair_job', label: 'Repair job' });
    const { description: _, ...asFile } = stored;
    expect(parseDefinitions(JSON.stringify([asFile, { ...asFile, type: 'other' }]), 'f.json').map((d) => d.type)).toEqual(['repair_job', 'other']);
    expect(parseDefinitions(JSON.stringify(asFile), 'f.json')).toHaveLength(1);
  });

  it('refuses with every problem named: bad type keys, duplicates, what the API schema refuses', () => {
    const { description: _, ...asFile } = stored;
    const text = JSON.stringify({ types: [{ ...asFile, type: 'Nope' }, { ...asFile, fields: [] }, asFile, { ...asFile, label: 'Again' }] });
    const e = (() => {
      try {
        parseDefinitions(text, 'f.json');
      } catch (err) {
        return err as Error;
      }
    })();
    expect(e).toBeInstanceOf(UsageError);
    expect(e!.message).toContain('types.0.type: must start with a-z');
    expect(e!.message).toContain('types.1.fields: must define at least one field');
    expect(e!.message).toContain('types.3.type: "repair_job" is defined twice');
    // Worded as the API words validation details.
    expect(() => parseDefinitions(JSON.stringify({ type: 'a', fields: [{ key: 'x', type: 'text', colour: 'red' }] }), 'f.json')).toThrow(
      /types\.0\.label: required\n {2}types\.0\.fields\.0\.colour: unknown field\n {2}types\.0\.status: required\n {2}types\.0\.apiVisible: required/,
    );
    expect(() => parseDefinitions('types: [', 'f.yaml')).toThrow(/f\.yaml is not valid YAML or JSON/);
    expect(() => parseDefinitions('[]', 'f.json')).toThrow(/defines no object types/);
  });
});

describe('planned changes', () => {
  const desired = parseDefinitions(yaml, 'f.yaml');

  it('nothing when the stored type equals the file once normalised the way the API does', () => {
    expect(planChanges(desired, [stored])).toEqual([]);
    // A stored type not in the file is left alone.
    expect(planChanges(desired, [stored, { ...stored, type: 'other' }])).toEqual([]);
  });

  it('a new type lists everything it sets', () => {
    const [plan] = planChanges(desired, []);
    expect(plan!.action).toBe('create');
    expect(plan!.changes).toEqual([
      '+ label "Repair job"',
      '+ description none',
      '+ titleField "title"',
      '+ status "published"',
      '+ apiVisible true',
      '+ field title (text, required)',
      '+ field state (enum, optional, options open|done)',
    ]);
  });

  it('an existing type lists each difference: properties, fields added, changed, removed, reordered', () => {
    const was: DefinedType = {
      ...stored,
      label: 'Jobs',
      apiVisible: false,
      fields: [
        { key: 'state', type: 'enum', required: false, options: ['open'] },
        { key: 'title', type: 'text', required: true },
        { key: 'notes', type: 'text', required: false },
      ],
    };
    const [plan] = planChanges(desired, [was]);
    expect(plan).toMatchObject({ type: 'repair_job', action: 'update' });
    expect(plan!.changes).toEqual([
      '~ label: "Jobs" -> "Repair job"',
      '~ apiVisible: false -> true',
      '~ field state: enum, optional, options open -> enum, optional, options open|done',
      '- field notes (text, optional)',
      '~ field order: title, state',
    ]);
  });
});
