export * from './cash.ts';
export * from './events.ts';
export * from './masters.ts';
export * from './months.ts';
export * from './operations.ts';
export * from './primitives.ts';
export * from './responses.ts';
export * from './transactions.ts';
