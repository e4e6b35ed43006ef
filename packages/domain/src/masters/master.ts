import type { DomainEvent, EventData, EventType } from '@bahi/contracts';
import type { Decider } from '../decider.ts';
import { conflict, notFound } from '../errors.ts';

/**
 * The masters (cities, products, parties, users, custom-field definitions) share one life:
 * created, updated, deleted. One decider serves them all, parameterised by kind.
 */
export const MASTER_KINDS = {
  City: { label: 'City', stream: 'city' },
  Product: { label: 'Product', stream: 'product' },
  Funder: { label: 'Funder', stream: 'funder' },
  Agent: { label: 'Agent', stream: 'agent' },
  Godown: { label: 'Godown', stream: 'godown' },
  Collector: { label: 'Collector', stream: 'collector' },
  User: { label: 'User', stream: 'user' },
  CustomFieldDefinition: { label: 'Custom field', stream: 'custom-field' },
} as const;

export type MasterKind = keyof typeof MASTER_KINDS;
export type MasterData<K extends MasterKind> = EventData<`${K}Created` & EventType>;

export type MasterState<K extends MasterKind> =
  | { status: 'none' }
  | { status: 'active'; data: MasterData<K> }
  | { status: 'deleted'; data: MasterData<K> };

/** Who refers to a master: looked up by the caller and passed in, never read here. */
export interface Reference {
  kind: string;
  count: number;
}

export type MasterCommand<K extends MasterKind> =
  | { type: 'Create'; data: MasterData<K> }
  | { type: 'Update'; data: MasterData<K> }
  | { type: 'Delete'; id: string; references: readonly Reference[] };

export const masterStreamId = (kind: MasterKind, id: string) => `${MASTER_KINDS[kind].stream}-${id}`;

export const initialMasterState = <K extends MasterKind>(): MasterState<K> => ({ status: 'none' });

export function evolveMaster<K extends MasterKind>(
  kind: K,
  state: MasterState<K>,
  event: DomainEvent,
): MasterState<K> {
  switch (event.type) {
    case `${kind}Created`:
    case `${kind}Updated`:
      return { status: 'active', data: event.data as MasterData<K> };
    case `${kind}Deleted`:
      return state.status === 'none' ? state : { status: 'deleted', data: state.data };
    default:
      return state; // events of other kinds in the same stream (e.g. UserPasswordChanged)
  }
}

const plural = (label: string, n: number) =>
  `${n} ${n === 1 ? label.toLowerCase() : `${label.toLowerCase().replace(/y$/, 'ie')}s`}`;

function sameData(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export function decideMaster<K extends MasterKind>(
  kind: K,
  command: MasterCommand<K>,
  state: MasterState<K>,
): DomainEvent[] {
  const { label } = MASTER_KINDS[kind];
  switch (command.type) {
    case 'Create':
      if (state.status !== 'none')
        throw conflict(`${label} ${(command.data as { id: string }).id} already exists.`);
      return [{ type: `${kind}Created`, data: command.data } as DomainEvent];
    case 'Update':
      if (state.status !== 'active') throw notFound(`${label} not found.`);
      if (sameData(state.data, command.data)) return []; // nothing changed: nothing to record
      return [{ type: `${kind}Updated`, data: command.data } as DomainEvent];
    case 'Delete': {
      if (state.status !== 'active') throw notFound(`${label} not found.`);
      const refs = command.references.filter((r) => r.count > 0);
      if (refs.length > 0) {
        const who = refs.map((r) => plural(r.kind, r.count)).join(', ');
        throw conflict(`${label} "${displayName(state.data)}" cannot be deleted: ${who} still refer to it.`);
      }
      return [{ type: `${kind}Deleted`, data: { id: command.id } } as DomainEvent];
    }
    default: {
      const unhandled: never = command;
      throw new Error(`Unhandled command ${JSON.stringify(unhandled)}`);
    }
  }
}

function displayName(data: unknown): string {
  return String((data as { name?: unknown }).name ?? '');
}

/** A master's own stream (`<kind>-<id>`): created, updated, deleted. */
export const masterDecider = <K extends MasterKind>(kind: K): Decider<MasterCommand<K>, MasterState<K>> => ({
  initialState: initialMasterState,
  evolve: (state, event) => evolveMaster(kind, state, event),
  decide: (command, state) => decideMaster(kind, command, state),
});
