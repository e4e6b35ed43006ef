export { type CommandDeps, registerCommandRoutes } from './routes.ts';
export { startCommandService } from './service.ts';
