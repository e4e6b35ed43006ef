export * from './config.ts';
export * from './distributed-service.ts';
export * from './health.ts';
export * from './http-app.ts';
export * from './main-runner.ts';
export * from './storage.ts';
