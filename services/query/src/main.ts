import { runMain } from '@bahi/server-kit';
import { startQueryService } from './service.ts';

runMain('bahi query', () => startQueryService());
