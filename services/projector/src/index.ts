export { startProjectorService } from './service.ts';
