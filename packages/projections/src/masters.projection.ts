import type { Projection } from './projection.ts';

const PARTY = /^(Funder|Agent|Collector|Godown)(Created|Updated|Deleted)$/;
type Data = Record<string, string | boolean | null>;

/** Cities, products, the parties (funders, agents, collectors, godowns) and users as rows. */
export const masters: Projection = {
  name: 'masters',
  tables: ['cities', 'products', 'parties', 'users'],
  async apply(tx, events) {
    for (const event of events) {
      const data = event.data as Data;
      const at = event.metadata.recordedAt;
      const [, kind, change] = PARTY.exec(event.type) ?? [];
      if (kind && change) {
        if (change === 'Deleted') {
          await tx
            .updateTable('parties')
            .set({ deleted: true })
            .where('id', '=', data.id as string)
            .execute();
          continue;
        }
        const row = {
          id: data.id as string,
          kind: kind as 'Funder',
          name: data.name as string,
          city_id: (data.city_id as string | undefined) ?? null,
          joining_date: data.joining_date as string | null,
          address: data.address as string | null,
          narration: data.narration as string | null,
          phone: data.phone as string | null,
          opening_balance: data.opening_balance as string,
          salary_per_month: (data.salary_per_month as string | undefined) ?? null,
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
          const row = {
            id: data.id as string,
            name: data.name as string,
            currency_name: data.currency_name as string,
            rate: data.rate as string,
          };
          await tx
            .insertInto('cities')
            .values({ ...row, created_at: at })
            .onConflict((oc) => oc.column('id').doUpdateSet(row))
            .execute();
          break;
        }
        case 'CityDeleted':
          await tx
            .updateTable('cities')
            .set({ deleted: true })
            .where('id', '=', data.id as string)
            .execute();
          break;
        case 'ProductCreated':
        case 'ProductUpdated': {
          const row = { id: data.id as string, name: data.name as string };
          await tx
            .insertInto('products')
            .values({ ...row, created_at: at })
            .onConflict((oc) => oc.column('id').doUpdateSet(row))
            .execute();
          break;
        }
        case 'ProductDeleted':
          await tx
            .updateTable('products')
            .set({ deleted: true })
            .where('id', '=', data.id as string)
            .execute();
          break;
        case 'UserCreated':
        case 'UserUpdated': {
          const row = {
            id: data.id as string,
            name: data.name as string,
            email: data.email as string,
            phone: data.phone as string | null,
            role: data.role as string,
            is_active: data.is_active as boolean,
          };
          await tx
            .insertInto('users')
            .values({ ...row, created_at: at })
            .onConflict((oc) => oc.column('id').doUpdateSet(row))
            .execute();
          break;
        }
        case 'UserDeleted':
          await tx
            .updateTable('users')
            .set({ deleted: true })
            .where('id', '=', data.id as string)
            .execute();
          break;
      }
    }
  },
};
