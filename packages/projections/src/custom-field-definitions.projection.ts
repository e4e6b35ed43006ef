import { type Projection, typed } from './projection.ts';

/** The custom field definitions as they stand: what transaction forms show and what the command side checks. */
export const customFieldDefinitions: Projection = {
  name: 'custom_field_definitions',
  tables: ['custom_field_definitions'],
  async apply(tx, events) {
    for (const recorded of events) {
      const event = typed(recorded);
      if (event.type === 'CustomFieldDefinitionCreated' || event.type === 'CustomFieldDefinitionUpdated') {
        const d = event.data;
        const row = {
          id: d.id,
          name: d.name,
          type: d.type,
          is_required: d.is_required,
          options: d.options === null ? null : JSON.stringify(d.options),
          entity_types: JSON.stringify(d.entity_types),
          deleted: false,
          updated_at: event.metadata.recordedAt,
        };
        await tx
          .insertInto('custom_field_definitions')
          .values(row)
          .onConflict((oc) => oc.column('id').doUpdateSet(row))
          .execute();
      } else if (event.type === 'CustomFieldDefinitionDeleted') {
        await tx
          .updateTable('custom_field_definitions')
          .set({ deleted: true, updated_at: event.metadata.recordedAt })
          .where('id', '=', event.data.id)
          .execute();
      }
    }
  },
};
