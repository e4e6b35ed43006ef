import { runMain } from '@bahi/server-kit';
import { startProjectorService } from './service.ts';

runMain('bahi projector', () => startProjectorService());
