export { type QueryDeps, registerQueryRoutes } from './routes.ts';
export { startQueryService } from './service.ts';
