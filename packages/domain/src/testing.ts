import type { DomainEvent } from '@bahi/contracts';
import { expect } from 'vitest';
import type { Decider } from './decider.ts';
import { DomainError } from './errors.ts';

/**
 * Given these events, when this command, then these events (or this refusal): the decider the
 * command service runs (its initialState, evolve and decide), used by every decider's tests.
 */
export function givenWhenThen<C, S>(decider: Decider<C, S>) {
  return (given: readonly DomainEvent[]) => ({
    when(command: C) {
      const state = given.reduce(decider.evolve, decider.initialState());
      const run = () => decider.decide(command, state);
      return {
        thenEvents(expected: readonly DomainEvent[]) {
          expect(run()).toEqual(expected);
        },
        thenRefused(kind: DomainError['kind'], message: string | RegExp) {
          let error: unknown;
          try {
            run();
          } catch (e) {
            error = e;
          }
          expect(error, 'expected a refusal').toBeInstanceOf(DomainError);
          expect((error as DomainError).kind).toBe(kind);
          expect((error as DomainError).message).toMatch(message);
        },
      };
    },
  });
}
