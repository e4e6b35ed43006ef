import { type CustomFieldData, parseCalendarDate } from '@bahi/contracts';
import { invalid } from '../errors.ts';

/** A custom field definition as its events carry it (`CustomFieldDefinitionCreated`). */
export type CustomFieldDefinition = CustomFieldData;
export type CustomFieldEntity = CustomFieldData['entity_types'][number];

const LABEL: Record<CustomFieldEntity, string> = {
  Purchase: 'purchases',
  Sale: 'sales',
  PurchaseReturn: 'purchase returns',
  SaleReturn: 'sale returns',
};
const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

const empty = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/**
 * A transaction's custom field values checked against the definitions that apply to its
 * kind (looked up by the caller): unknown fields refused, required ones present, each value
 * of its field's type (a dropdown's among its options). Returns the values as stored:
 * trimmed text, numbers as text, dates as YYYY-MM-DD, booleans; empty optional ones left out.
 */
export function checkCustomFields(
  entity: CustomFieldEntity,
  values: Record<string, unknown>,
  definitions: readonly CustomFieldDefinition[],
): Record<string, string | boolean> {
  const applying = new Map(definitions.filter((d) => d.entity_types.includes(entity)).map((d) => [d.id, d]));
  const errors: Array<{ msg: string; path: string }> = [];
  const out: Record<string, string | boolean> = {};
  for (const key of Object.keys(values)) {
    if (!applying.has(key) && !empty(values[key])) {
      errors.push({
        msg: `This custom field does not apply to ${LABEL[entity]}`,
        path: `custom_fields.${key}`,
      });
    }
  }
  for (const def of applying.values()) {
    const value = values[def.id];
    const path = `custom_fields.${def.id}`;
    if (empty(value)) {
      if (def.is_required) errors.push({ msg: `${def.name} is required`, path });
      continue;
    }
    switch (def.type) {
      case 'TEXT':
        if (typeof value !== 'string') errors.push({ msg: `${def.name} must be text`, path });
        else out[def.id] = value.trim();
        break;
      case 'NUMBER': {
        const text =
          typeof value === 'number' && Number.isFinite(value)
            ? String(value)
            : typeof value === 'string'
              ? value.trim()
              : '';
        if (!NUMBER.test(text)) errors.push({ msg: `${def.name} must be a number`, path });
        else out[def.id] = text;
        break;
      }
      case 'DATE': {
        const day = typeof value === 'string' ? parseCalendarDate(value.trim()) : undefined;
        if (!day) {
          errors.push({ msg: `${def.name} must be a date`, path });
        } else out[def.id] = day;
        break;
      }
      case 'BOOLEAN':
        if (value === true || value === 'true') out[def.id] = true;
        else if (value === false || value === 'false') out[def.id] = false;
        else errors.push({ msg: `${def.name} must be yes or no`, path });
        break;
      case 'SELECT':
        if (typeof value !== 'string' || !(def.options ?? []).includes(value)) {
          errors.push({ msg: `${def.name} must be one of: ${(def.options ?? []).join(', ')}`, path });
        } else out[def.id] = value;
        break;
    }
  }
  if (errors.length > 0) throw invalid('Some custom fields are not valid.', errors);
  return out;
}
