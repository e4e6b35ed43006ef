export { lockDataDir } from './data-dir-lock.ts';
export { type Standalone, startStandalone } from './standalone.ts';
