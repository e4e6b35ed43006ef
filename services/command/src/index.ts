export { bootstrapFirstAdmin } from './auth/bootstrap.ts';
export { openCredentials } from './auth/credentials.ts';
export { createLoginLimiter } from './auth/login-limiter.ts';
export { type CommandDeps, createCommandDeps, loadSignedInUser, PUBLIC_API_PATHS } from './deps.ts';
export { setStreamCacheSize } from './execute.ts';
export { licenseNotice, watchLicense } from './notifications/license-watch.ts';
export { registerCommandRoutes } from './routes.ts';
export { type Call, SCALES, seedBusiness, seedScale } from './seed.ts';
export { startCommandService } from './service.ts';
