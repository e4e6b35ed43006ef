import type { CUSTOM_FIELD_ENTITY_TYPES, CUSTOM_FIELD_TYPES, CustomFieldRow } from '@bahi/contracts';
import { api } from '@bahi/ui';
import { queryOptions } from '@bahi/ui/screen';

export type FieldType = (typeof CUSTOM_FIELD_TYPES)[number];
export type EntityType = (typeof CUSTOM_FIELD_ENTITY_TYPES)[number];

/** A definition as GET /masters/custom-fields lists it (the route's response schema). */
export type CustomField = CustomFieldRow;

/** Spec section 3: how each type is named on screen. */
export const TYPE_LABEL: Record<FieldType, string> = {
  TEXT: 'Text',
  NUMBER: 'Number',
  DATE: 'Date',
  BOOLEAN: 'Yes / No',
  SELECT: 'Dropdown Select',
};

/** GET /masters/custom-fields: a plain list (spec section 7). */
export const customFieldsQuery = () =>
  queryOptions({
    queryKey: ['settings', 'custom-fields'],
    queryFn: ({ signal }) => api.get<CustomField[]>('/masters/custom-fields', undefined, signal),
  });
