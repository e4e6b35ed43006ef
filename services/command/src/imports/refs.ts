import type { MasterKind } from '@bahi/domain';
import type { RefType } from './columns.ts';

/**
 * Names where the API takes ids (issue #31): the masters a row of an import may name, looked up
 * by id or by name - a party (funder, agent, collector) among those of the row's city - with a
 * message naming the candidates when none or several match.
 */

/** A city as the import looks it up by name. */
export interface CityLookup {
  id: string;
  name: string;
  currency_name: string;
  /** As its stream has it (transactions: the rate the decider posts at). */
  rate?: string;
}

/** A master a row may name, as the read side has it. */
export interface RefLookup {
  id: string;
  name: string;
  city_id: string | null;
}

export interface RefIndex {
  byId: Map<string, RefLookup>;
  byName: Map<string, RefLookup[]>;
}

export const nameKey = (name: string) => name.normalize('NFC').replace(/\s+/g, ' ').trim().toLowerCase();

export function refIndex(rows: readonly RefLookup[]): RefIndex {
  const byName = new Map<string, RefLookup[]>();
  for (const row of rows) {
    const key = nameKey(row.name);
    byName.set(key, [...(byName.get(key) ?? []), row]);
  }
  return { byId: new Map(rows.map((r) => [r.id, r])), byName };
}

export const REF_KIND: Record<RefType, Exclude<MasterKind, 'User' | 'CustomFieldDefinition' | 'City'>> = {
  funder: 'Funder',
  agent: 'Agent',
  collector: 'Collector',
  product: 'Product',
  godown: 'Godown',
};
const OF_CITY: ReadonlySet<RefType> = new Set(['funder', 'agent', 'collector']);

/**
 * A master by its id or its name; for a party, among those of the row's city (when the city was
 * read). A message naming the candidates when none or several match.
 */
export function lookUpRef(
  type: RefType,
  text: string,
  city: { id: string; name: string } | undefined,
  index: RefIndex,
  cityNames: ReadonlyMap<string, string>,
): RefLookup | string {
  const byIdHit = index.byId.get(text.toLowerCase());
  if (byIdHit) return byIdHit;
  const all = index.byName.get(nameKey(text)) ?? [];
  const inCity = OF_CITY.has(type) && city ? all.filter((r) => r.city_id === city.id) : all;
  const where = OF_CITY.has(type) && city ? ` of ${city.name}` : '';
  const label = (r: RefLookup) =>
    `${r.name}${OF_CITY.has(type) && r.city_id ? ` (${cityNames.get(r.city_id) ?? r.city_id}, id ${r.id})` : ` (id ${r.id})`}`;
  if (inCity.length === 1) return inCity[0]!;
  if (inCity.length > 1)
    return `${inCity.length} ${type}s${where} are named "${text}": ${inCity.map(label).join('; ')}. Write the id of the one you mean instead of the name.`;
  const shown = text.slice(0, 60);
  if (all.length > 0)
    return `No ${type}${where} is named "${shown}" (${all.length === 1 ? 'there is one' : `there are ${all.length}`} in another city: ${all.slice(0, 5).map(label).join('; ')}).`;
  const known = [...index.byName.values()]
    .flat()
    .filter((r) => !(OF_CITY.has(type) && city) || r.city_id === city?.id)
    .map((r) => r.name);
  return `No ${type}${where} is named "${shown}" in Bahi${known.length ? ` (${type}s${where}: ${known.slice(0, 10).join(', ')}${known.length > 10 ? ', …' : ''})` : ''}.`;
}
