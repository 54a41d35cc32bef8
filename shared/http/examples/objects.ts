import type { objectsArea } from '../../objects';
import type { AreaExamples } from './types';
import { at, ids, objectRecord, objectType } from './world';

const definition = {
  ...objectType,
  status: 'published',
  apiVisible: true,
  recordCount: 1280,
  version: 2,
  createdAt: '2026-03-03T09:00:00.000Z',
  updatedAt: at.now,
} as const;
const summary = { type: objectType.type, label: objectType.label, description: objectType.description, titleField: objectType.titleField };
const recordParams = { type: objectType.type, recordId: ids.record };

export const objectsExamples: AreaExamples<typeof objectsArea> = {
  listObjectTypeDefinitions: { responses: { 200: { data: [definition] } } },
  putObjectTypeDefinition: {
    summary: 'Define vehicles, published to the API',
    params: { type: objectType.type },
    request: {
      label: 'Vehicle',
      description: "A member's registered car, for service reminders",
      fields: [
        { key: 'plate', type: 'text', required: true, label: 'Number plate' },
        { key: 'model', type: 'text', label: 'Model' },
        { key: 'fuel', type: 'enum', options: ['petrol', 'diesel', 'electric'], label: 'Fuel' },
        { key: 'owner', type: 'member_ref', required: true, label: 'Owner' },
      ],
      titleField: 'plate',
      status: 'published',
      apiVisible: true,
    },
    responses: { 200: { data: definition } },
  },
  listObjectTypes: { responses: { 200: { data: [summary] } } },
  getObjectType: { params: { type: objectType.type }, responses: { 200: { data: objectType } } },
  browseObjectRecords: { params: { type: objectType.type }, query: { limit: 25 }, responses: { 200: { data: [objectRecord], nextCursor: null } } },
  listObjectRecords: {
    summary: "A member's electric vehicles",
    params: { type: objectType.type },
    query: { memberId: ids.member, f_fuel: 'electric', sortBy: 'title_asc', limit: 20 },
    responses: { 200: { data: [{ id: objectRecord.id, data: objectRecord.data }], total: 1 } },
  },
  createObjectRecord: {
    params: { type: objectType.type },
    request: { data: objectRecord.data },
    responses: { 201: { data: { id: objectRecord.id, data: objectRecord.data } } },
  },
  getObjectRecord: { params: recordParams, responses: { 200: { data: objectRecord } } },
  updateObjectRecord: {
    summary: 'Change one field, keep the others',
    params: recordParams,
    request: { data: { model: 'Difference Engine S' } },
    responses: { 200: { data: { ...objectRecord, data: { ...objectRecord.data, model: 'Difference Engine S' }, updatedAt: at.now } } },
  },
  deleteObjectRecord: { params: recordParams, responses: {} },
};
