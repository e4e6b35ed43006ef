export { type Standalone, startStandalone } from './standalone.ts';
