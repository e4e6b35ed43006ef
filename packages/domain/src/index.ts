export * from './decimal.ts';
export * from './errors.ts';
export * from './masters/master.ts';
