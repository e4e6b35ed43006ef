import { type Projection, type TypedEvent, typed } from './projection.ts';

type PartyKind = 'Funder' | 'Agent' | 'Collector' | 'Godown';
type PartyEvent = Extract<TypedEvent, { type: `${PartyKind}${'Created' | 'Updated' | 'Deleted'}` }>;
const PARTY = /^(Funder|Agent|Collector|Godown)(Created|Updated|Deleted)$/;
const isParty = (event: TypedEvent): event is PartyEvent => PARTY.test(event.type);

/** Cities, products, the parties (funders, agents, collectors, godowns) and users as rows. */
export const masters: Projection = {
  name: 'masters',
  tables: ['cities', 'products', 'parties', 'users'],
  async apply(tx, events) {
    for (const recorded of events) {
      const event = typed(recorded);
      const at = event.metadata.recordedAt;
      if (isParty(event)) {
        const [, kind, change] = PARTY.exec(event.type)!;
        const data = event.data;
        if (change === 'Deleted' || !('name' in data)) {
          await tx.updateTable('parties').set({ deleted: true }).where('id', '=', data.id).execute();
          continue;
        }
        const row = {
          id: data.id,
          kind: kind as PartyKind,
          name: data.name,
          city_id: 'city_id' in data ? data.city_id : null,
          joining_date: data.joining_date,
          address: data.address,
          narration: data.narration,
          phone: data.phone,
          opening_balance: data.opening_balance,
          salary_per_month: 'salary_per_month' in data ? data.salary_per_month : null,
        };
        await tx
          .insertInto('parties')
          .values({ ...row, created_at: at })
          .onConflict((oc) => oc.column('id').doUpdateSet(row))
          .execute();
        continue;
      }
      switch (event.type) {
        case 'CityCreated':
        case 'CityUpdated': {
          const { id, name, currency_name, rate } = event.data;
          const row = { id, name, currency_name, rate };
          await tx
            .insertInto('cities')
            .values({ ...row, created_at: at })
            .onConflict((oc) => oc.column('id').doUpdateSet(row))
            .execute();
          break;
        }
        case 'CityDeleted':
          await tx.updateTable('cities').set({ deleted: true }).where('id', '=', event.data.id).execute();
          break;
        case 'ProductCreated':
        case 'ProductUpdated': {
          const row = { id: event.data.id, name: event.data.name };
          await tx
            .insertInto('products')
            .values({ ...row, created_at: at })
            .onConflict((oc) => oc.column('id').doUpdateSet(row))
            .execute();
          break;
        }
        case 'ProductDeleted':
          await tx.updateTable('products').set({ deleted: true }).where('id', '=', event.data.id).execute();
          break;
        case 'UserCreated':
        case 'UserUpdated': {
          const { id, name, email, phone, role, is_active } = event.data;
          const row = { id, name, email, phone, role, is_active };
          await tx
            .insertInto('users')
            .values({ ...row, created_at: at })
            .onConflict((oc) => oc.column('id').doUpdateSet(row))
            .execute();
          break;
        }
        case 'UserDeleted':
          await tx.updateTable('users').set({ deleted: true }).where('id', '=', event.data.id).execute();
          break;
      }
    }
  },
};
