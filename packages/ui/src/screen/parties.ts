import type { CityRow, CustomFieldRow, PartyRow, ProductRow } from '@bahi/contracts';
import { api, formatAmount } from '@bahi/ui';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { addDecimal } from './decimal-text.ts';

/** The four kinds of party a master screen or picker shows (spec section 3). */
export type PartyKind = 'Funder' | 'Agent' | 'Collector' | 'Godown';
export const PARTY_PATH: Record<PartyKind, string> = {
  Funder: 'funders',
  Agent: 'agents',
  Collector: 'collectors',
  Godown: 'godowns',
};

// A city and a party as the masters' lists answer them: their routes' response schemas (issue #19).
export type City = CityRow;
export type Party = PartyRow;

export interface Page<T> {
  data: T[];
  totalItems: number;
}

/** Opening balance plus every movement on the party's normal side (spec section 3). */
export const currentBalance = (p: Pick<Party, 'opening_balance' | 'balance'>): string =>
  addDecimal(p.opening_balance ?? '0', p.balance?.amount ?? '0', 2);

/** A party's currency: its city's; godowns keep INR (ACCOUNTING.md section 2). */
export const partyCurrency = (p: Pick<Party, 'city'> | undefined, kind?: PartyKind): string =>
  kind === 'Godown' ? 'INR' : (p?.city?.currency_name ?? 'INR');

/** '1,234.00 AED': an amount with its currency. */
export const money = (amount: string | null | undefined, currency: string): string =>
  `${formatAmount(amount)} ${currency}`;

/** All cities, once for every screen (tabs, filters, forms). */
export const citiesQuery = () =>
  queryOptions({
    queryKey: ['masters', 'cities', 'all'],
    queryFn: ({ signal }) =>
      api.get<Page<City>>('/masters/cities', { limit: -1 }, signal).then((p) => p.data),
    staleTime: 60_000,
  });

export const useCities = () => useQuery(citiesQuery());

/** A page of parties of one kind, as the server finds them (search, city, as of a date). */
export const partiesQuery = (
  kind: PartyKind,
  params: { page?: number; limit?: number; search?: string; city_id?: string; asOf?: string },
) =>
  queryOptions({
    queryKey: ['masters', PARTY_PATH[kind], params],
    queryFn: ({ signal }) => api.get<Page<Party>>(`/masters/${PARTY_PATH[kind]}`, params, signal),
    placeholderData: keepPreviousData,
  });

/** What a picker offers while the user types: the first 20 matches, with balances. */
export const PICKER_LIMIT = 20;
export const partyOptionsQuery = (kind: PartyKind, search: string, cityId?: string) =>
  queryOptions({
    queryKey: ['parties', kind, { search, city_id: cityId ?? '' }],
    queryFn: ({ signal }) =>
      api.get<Page<Party>>(
        `/masters/${PARTY_PATH[kind]}`,
        { limit: PICKER_LIMIT, page: 1, search, city_id: cityId },
        signal,
      ),
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });

/** A product as GET /masters/products lists it (the route's response schema). */
export type Product = ProductRow;

/** All products, once for every form and filter. */
export const productsQuery = () =>
  queryOptions({
    queryKey: ['masters', 'products', 'all'],
    queryFn: ({ signal }) =>
      api.get<Page<Product>>('/masters/products', { limit: -1 }, signal).then((p) => p.data),
    staleTime: 60_000,
  });
export const useProducts = () => useQuery(productsQuery());

/** A custom field definition as GET /masters/custom-fields lists it (the route's response schema). */
export type CustomFieldDefinition = CustomFieldRow;
export type CustomFieldEntity = CustomFieldRow['entity_types'][number];

/** The custom field definitions (a plain list, spec section 7); shared with the settings screen's key. */
export const customFieldDefinitionsQuery = () =>
  queryOptions({
    queryKey: ['settings', 'custom-fields'],
    queryFn: ({ signal }) => api.get<CustomFieldDefinition[]>('/masters/custom-fields', undefined, signal),
  });
