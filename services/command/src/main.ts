import { runMain } from '@bahi/server-kit';
import { startCommandService } from './service.ts';

runMain('bahi command', () => startCommandService());
