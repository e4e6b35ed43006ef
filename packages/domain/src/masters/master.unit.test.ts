import type { DomainEvent } from '@bahi/contracts';
import { describe, it } from 'vitest';
import { givenWhenThen } from '../testing.ts';
import { type MasterKind, masterDecider } from './master.ts';

const decider = <K extends MasterKind>(kind: K) => givenWhenThen(masterDecider(kind));

const cityId = '6a1d1a53-58f6-4b4e-9f0f-0d3c9d0f2a11';
const karachi = { id: cityId, name: 'Karachi', currency_name: 'PKR', rate: '0.3000' };
const created: DomainEvent = { type: 'CityCreated', data: karachi };
const city = decider('City');

describe('a master (city as the example; every kind shares the decider)', () => {
  it('is created once', () => {
    city([]).when({ type: 'Create', data: karachi }).thenEvents([created]);
  });

  it('refuses a second creation with the same id', () => {
    city([created])
      .when({ type: 'Create', data: karachi })
      .thenRefused('conflict', /already exists/);
  });

  it('records an update with the whole new data', () => {
    const data = { ...karachi, rate: '0.3100' };
    city([created])
      .when({ type: 'Update', data })
      .thenEvents([{ type: 'CityUpdated', data }]);
  });

  it('records nothing when an update changes nothing', () => {
    city([created])
      .when({ type: 'Update', data: { ...karachi } })
      .thenEvents([]);
  });

  it('refuses to update what does not exist or was deleted', () => {
    city([]).when({ type: 'Update', data: karachi }).thenRefused('not_found', 'City not found.');
    city([created, { type: 'CityDeleted', data: { id: cityId } }])
      .when({ type: 'Update', data: karachi })
      .thenRefused('not_found', 'City not found.');
  });

  it('is deleted when nothing refers to it', () => {
    city([created])
      .when({ type: 'Delete', id: cityId, references: [{ kind: 'Funder', count: 0 }] })
      .thenEvents([{ type: 'CityDeleted', data: { id: cityId } }]);
  });

  it('refuses deletion while records refer to it, naming them', () => {
    city([created])
      .when({
        type: 'Delete',
        id: cityId,
        references: [
          { kind: 'Funder', count: 3 },
          { kind: 'Agent', count: 1 },
          { kind: 'Collector', count: 0 },
        ],
      })
      .thenRefused('conflict', 'City "Karachi" cannot be deleted: 3 funders, 1 agent still refer to it.');
  });

  it('refuses to delete twice', () => {
    city([created, { type: 'CityDeleted', data: { id: cityId } }])
      .when({ type: 'Delete', id: cityId, references: [] })
      .thenRefused('not_found', 'City not found.');
  });

  it('cannot be created again after deletion (ids are never reused)', () => {
    city([created, { type: 'CityDeleted', data: { id: cityId } }])
      .when({ type: 'Create', data: karachi })
      .thenRefused('conflict', /already exists/);
  });

  it('uses the right names for other kinds', () => {
    const product = { id: cityId, name: 'Cumin' };
    decider('Product')([{ type: 'ProductCreated', data: product }])
      .when({ type: 'Delete', id: cityId, references: [{ kind: 'Purchase', count: 2 }] })
      .thenRefused('conflict', 'Product "Cumin" cannot be deleted: 2 purchases still refer to it.');
  });
});
