import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CommandTestApp, commandTestApp } from './testing/command-app.ts';

describe('masters through the command API', () => {
  let t: CommandTestApp;
  let manager: string;
  let viewer: string;
  let collector: string;

  beforeAll(async () => {
    t = await commandTestApp();
    manager = await t.signedInAs('Manager');
    viewer = await t.signedInAs('Viewer');
    collector = await t.signedInAs('Collector');
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  const create = async (kind: string, body: unknown, token = manager) => {
    const res = await t.call('POST', `/api/masters/${kind}`, token, body);
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: string; position: string };
  };
  const eventsOf = async (stream: string) =>
    (await t.eventStore.readStream(stream)).map((e) => [e.type, e.data]);

  it('creates, updates and deletes a city, answering the id and the position written', async () => {
    const { id, position } = await create('cities', { name: ' Karachi ', currency_name: 'PKR', rate: '0.3' });
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(BigInt(position)).toBeGreaterThan(0n);
    const put = await t.call('PUT', `/api/masters/cities/${id}`, manager, {
      name: 'Karachi',
      currency_name: 'PKR',
      rate: 0.31,
    });
    expect(put.statusCode).toBe(200);
    expect(BigInt(put.json().position)).toBeGreaterThan(BigInt(position));
    // The same data again records nothing new.
    const same = await t.call('PUT', `/api/masters/cities/${id}`, manager, {
      name: 'Karachi',
      currency_name: 'PKR',
      rate: '0.3100',
    });
    expect(same.json().position).toBe(put.json().position);
    expect((await t.call('DELETE', `/api/masters/cities/${id}`, manager)).statusCode).toBe(200);
    expect(await eventsOf(`city-${id}`)).toEqual([
      ['CityCreated', { id, name: 'Karachi', currency_name: 'PKR', rate: '0.3000' }],
      ['CityUpdated', { id, name: 'Karachi', currency_name: 'PKR', rate: '0.3100' }],
      ['CityDeleted', { id }],
    ]);
    const again = await t.call('DELETE', `/api/masters/cities/${id}`, manager);
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual({ message: 'City not found.' });
  });

  it('keeps decimals exact and refuses more decimal places than the field holds', async () => {
    const { id } = await create('cities', { name: 'Dubai', currency_name: 'AED', rate: '22.6543' });
    expect((await eventsOf(`city-${id}`))[0]![1]).toMatchObject({ rate: '22.6543' });
    const res = await t.call('POST', '/api/masters/cities', manager, {
      name: 'Dubai',
      currency_name: 'AED',
      rate: '22.65431',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([{ msg: 'Rate can have at most 4 decimal places', path: 'rate' }]);
  });

  it('answers a malformed payload with 400 and every problem with its path, storing nothing', async () => {
    const before = await t.eventStore.headPosition();
    const res = await t.call('POST', '/api/masters/funders', manager, {
      name: '',
      city_id: 'nope',
      opening_balance: 'ten',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      message: 'The request is not valid.',
      errors: expect.arrayContaining([
        { msg: 'Name is required', path: 'name' },
        { msg: 'Choose a city that exists', path: 'city_id' },
        { msg: 'Opening balance must be a number', path: 'opening_balance' },
      ]),
    });
    const notJson = await t.app.inject({
      method: 'POST',
      url: '/api/masters/cities',
      headers: { authorization: `Bearer ${manager}`, 'content-type': 'application/json' },
      payload: '{"name": "Kar',
    });
    expect(notJson.statusCode).toBe(400);
    expect(notJson.json().message).toEqual(expect.any(String));
    const plainText = await t.call('POST', '/api/masters/cities', manager, 'not json at all');
    expect(plainText.statusCode).toBe(415);
    expect(plainText.json().message).toEqual(expect.any(String));
    expect((await t.call('POST', '/api/masters/cities', manager, [1, 2])).statusCode).toBe(400);
    expect(await t.eventStore.headPosition()).toBe(before);
  });

  it('needs the city of a funder, agent or collector to exist', async () => {
    const res = await t.call('POST', '/api/masters/agents', manager, {
      name: 'Ravi',
      city_id: '00000000-0000-4000-8000-000000000000',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      message: 'City not found.',
      errors: [{ msg: 'City not found', path: 'city_id' }],
    });
  });

  it('records each master kind with its defaults', async () => {
    const { id: cityId } = await create('cities', { name: 'Mumbai', currency_name: 'INR', rate: 1 });
    const funder = await create('funders', { name: 'Asha', city_id: cityId, phone: '+91 98200 00000' });
    const agent = await create('agents', { name: 'Vikram', city_id: cityId, opening_balance: -250.5 });
    const collector = await create('collectors', {
      name: 'Imran',
      city_id: cityId,
      salary_per_month: '15000',
    });
    const godown = await create('godowns', { name: 'Bhiwandi', joining_date: '2026-04-01T00:00:00.000Z' });
    const product = await create('products', { name: 'Cumin' });
    expect((await eventsOf(`funder-${funder.id}`))[0]![1]).toEqual({
      id: funder.id,
      name: 'Asha',
      city_id: cityId,
      joining_date: null,
      address: null,
      narration: null,
      phone: '+91 98200 00000',
      opening_balance: '0.00',
    });
    expect((await eventsOf(`agent-${agent.id}`))[0]![1]).toMatchObject({ opening_balance: '-250.50' });
    expect((await eventsOf(`collector-${collector.id}`))[0]![1]).toMatchObject({
      salary_per_month: '15000.00',
    });
    expect((await eventsOf(`godown-${godown.id}`))[0]![1]).toMatchObject({ joining_date: '2026-04-01' });
    expect((await eventsOf(`product-${product.id}`))[0]![1]).toEqual({ id: product.id, name: 'Cumin' });
  });

  it('refuses to delete a city that parties still refer to, naming them, and allows it once they are gone', async () => {
    const { id: cityId } = await create('cities', { name: 'Surat', currency_name: 'INR', rate: 1 });
    const f1 = await create('funders', { name: 'F1', city_id: cityId });
    await create('funders', { name: 'F2', city_id: cityId });
    await create('collectors', { name: 'C1', city_id: cityId });
    const refused = await t.call('DELETE', `/api/masters/cities/${cityId}`, manager);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(
      'City "Surat" cannot be deleted: 1 collector, 2 funders still refer to it.',
    );
    // Moving a funder to another city releases it.
    const { id: other } = await create('cities', { name: 'Nagpur', currency_name: 'INR', rate: 1 });
    expect(
      (await t.call('PUT', `/api/masters/funders/${f1.id}`, manager, { name: 'F1', city_id: other }))
        .statusCode,
    ).toBe(200);
    expect((await t.call('DELETE', `/api/masters/cities/${cityId}`, manager)).json().message).toMatch(
      /1 collector, 1 funder/,
    );
  });

  it('answers 404 for an unknown kind or id', async () => {
    expect((await t.call('POST', '/api/masters/planets', manager, { name: 'Mars' })).statusCode).toBe(404);
    expect((await t.call('PUT', '/api/masters/products/123', manager, { name: 'x' })).json()).toEqual({
      message: 'Product not found.',
    });
    const res = await t.call('PUT', '/api/masters/products/00000000-0000-4000-8000-000000000000', manager, {
      name: 'x',
    });
    expect(res.statusCode).toBe(404);
  });

  it('lets Viewers and Collectors change no master, and Managers no user', async () => {
    for (const token of [viewer, collector]) {
      const res = await t.call('POST', '/api/masters/products', token, { name: 'Salt' });
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toMatch(/cannot change masters/);
    }
    const res = await t.call('POST', '/api/masters/users', manager, {
      name: 'X',
      email: 'x@test.local',
      password: 'secret-pw',
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ message: 'Your role (Manager) cannot change users.' });
    expect((await t.call('POST', '/api/masters/custom-fields', viewer, {})).statusCode).toBe(403);
  });

  it('keeps emails unique whatever their case, and frees an email when its user is deleted', async () => {
    const first = await create(
      'users',
      { name: 'A', email: 'Same@Test.Local', password: 'secret-pw' },
      t.adminToken,
    );
    const dup = await t.call('POST', '/api/masters/users', t.adminToken, {
      name: 'B',
      email: 'same@test.local',
      password: 'secret-pw',
    });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toEqual({ message: 'A user with this email already exists.' });
    expect((await t.call('DELETE', `/api/masters/users/${first.id}`, t.adminToken)).statusCode).toBe(200);
    await create('users', { name: 'B', email: 'same@test.local', password: 'secret-pw' }, t.adminToken);
  });

  it('changes a password only when one is given, and keeps an Admin from locking themselves out', async () => {
    const { id } = await create(
      'users',
      { name: 'P', email: 'p@test.local', password: 'first-pw' },
      t.adminToken,
    );
    const base = { name: 'P', email: 'p@test.local', role: 'Viewer', is_active: true };
    expect(
      (await t.call('PUT', `/api/masters/users/${id}`, t.adminToken, { ...base, password: '' })).statusCode,
    ).toBe(200);
    await t.login('p@test.local', 'first-pw');
    const short = await t.call('PUT', `/api/masters/users/${id}`, t.adminToken, {
      ...base,
      password: '12345',
    });
    expect(short.statusCode).toBe(400);
    expect(short.json().errors).toEqual([
      { msg: 'Password must be at least 6 characters', path: 'password' },
    ]);
    expect(
      (await t.call('PUT', `/api/masters/users/${id}`, t.adminToken, { ...base, password: 'second-pw' }))
        .statusCode,
    ).toBe(200);
    await t.login('p@test.local', 'second-pw');
    expect((await t.eventStore.readStream(`user-${id}`)).map((e) => e.type)).toEqual([
      'UserCreated',
      'UserPasswordChanged',
    ]);

    const adminId = (await t.deps.tokens.verify(t.adminToken)).userId;
    const self = await t.call('DELETE', `/api/masters/users/${adminId}`, t.adminToken);
    expect(self.statusCode).toBe(409);
    expect(self.json().message).toBe('You cannot delete your own account.');
    const demote = await t.call('PUT', `/api/masters/users/${adminId}`, t.adminToken, {
      name: 'Administrator',
      email: 'admin@test.local',
      role: 'Viewer',
      is_active: true,
    });
    expect(demote.statusCode).toBe(409);
  });

  it('validates custom field definitions: options only for dropdowns, at least one form', async () => {
    const noOptions = await t.call('POST', '/api/masters/custom-fields', manager, {
      name: 'Grade',
      type: 'SELECT',
      entity_types: ['Purchase'],
    });
    expect(noOptions.statusCode).toBe(400);
    expect(noOptions.json().errors).toEqual([
      { msg: 'A dropdown field needs at least one option', path: 'options' },
    ]);
    const noForms = await t.call('POST', '/api/masters/custom-fields', manager, {
      name: 'Lot',
      type: 'TEXT',
      entity_types: [],
    });
    expect(noForms.json().errors).toEqual([
      { msg: 'Choose at least one form to apply the field to', path: 'entity_types' },
    ]);
    const text = await create('custom-fields', {
      name: 'Lot',
      type: 'TEXT',
      options: ['ignored'],
      entity_types: ['Purchase', 'Sale', 'Purchase'],
    });
    expect((await eventsOf(`custom-field-${text.id}`))[0]![1]).toEqual({
      id: text.id,
      name: 'Lot',
      type: 'TEXT',
      is_required: false,
      options: null,
      entity_types: ['Purchase', 'Sale'],
    });
  });
});
