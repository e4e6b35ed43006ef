import type { DomainEvent } from '@bahi/contracts';

/**
 * An aggregate's rules as one object (Emmett's and Chassaing's decider): the state before any
 * event, how an event changes it, and what a command decides on it. `decide` is pure: no clock,
 * no database, no network; whatever it needs arrives in the command. The command service loads
 * a stream, folds it with `evolve` from `initialState()`, and appends what `decide` returns.
 */
export interface Decider<Command, State> {
  initialState: () => State;
  evolve: (state: State, event: DomainEvent) => State;
  decide: (command: Command, state: State) => DomainEvent[];
}
