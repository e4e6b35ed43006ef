import { customFieldDefinitions, type Projector, startProjector } from '@bahi/projections';
import { ProjectionBehindError } from '@bahi/read-db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { definitionsCurrentAt } from './definitions-current.ts';
import { type CommandTestApp, commandTestApp } from './testing/command-app.ts';

/** The read-your-writes check of custom field definitions, with a projector that lags. */
describe('definitionsCurrentAt', () => {
  let t: CommandTestApp;
  let projector: Projector | undefined;
  const project = () => {
    projector = startProjector({
      eventStore: t.eventStore,
      readDb: t.deps.readDb,
      projections: [customFieldDefinitions],
    });
  };
  const write = async (url: string, body: unknown) => {
    const res = await t.call('POST', url, t.adminToken, body);
    expect(res.statusCode, res.body).toBe(201);
    return BigInt(res.json().position);
  };

  beforeAll(async () => {
    t = await commandTestApp({ projector: false });
    project();
    const made = await write('/api/masters/custom-fields', {
      name: 'Grade',
      type: 'TEXT',
      entity_types: ['Sale'],
    });
    await definitionsCurrentAt(t.deps, made); // the projector reaches it
    await projector!.stop(); // from here on the read model lags
  });
  afterAll(async () => {
    await projector?.stop();
    await t.close();
  });

  it('does not wait for the projector when no definition was written since its checkpoint', async () => {
    const city = await write('/api/masters/cities', { name: 'Kabul', currency_name: 'AFN', rate: '0.4' });
    // The projector is stopped (beforeAll): had it waited, the wait would end in ProjectionBehindError.
    await expect(definitionsCurrentAt(t.deps, city)).resolves.toBeUndefined();
  });

  it('waits for the projector when a definition was written since its checkpoint', async () => {
    const made = await write('/api/masters/custom-fields', {
      name: 'Lot',
      type: 'TEXT',
      is_required: true,
      entity_types: ['Sale'],
    });
    await write('/api/masters/cities', { name: 'Herat', currency_name: 'AFN', rate: '0.4' });
    // The projector is stopped: the wait ends in "still being brought up to date".
    await expect(definitionsCurrentAt(t.deps, made)).rejects.toBeInstanceOf(ProjectionBehindError);
    project();
    await definitionsCurrentAt(t.deps, made);
    const names = await t.deps.readDb.selectFrom('custom_field_definitions').select('name').execute();
    expect(names.map((n) => n.name).sort()).toEqual(['Grade', 'Lot']);
  });
});
