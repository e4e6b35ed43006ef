export * from './jobs.ts';
export * from './queues.ts';
export * from './recipient.ts';
export * from './report-source.ts';
export * from './reports.ts';
export * from './sends.ts';
export * from './store.ts';
