// A reports worker process for the crash test: the real BullMQ worker on its own queue and
// key prefix, optionally pausing mid-job so the test can kill it there.
import { memoryEffects } from '../effects.ts';
import { outboxTransport } from '../whatsapp.ts';
import { startReportsWorker } from '../worker.ts';

const env = process.env;
const worker = startReportsWorker({
  redisUrl: env.REDIS_URL!,
  queueName: env.TEST_QUEUE!,
  prefix: env.TEST_PREFIX!,
  lockDurationMs: Number(env.TEST_LOCK_MS ?? 2000),
  pauseMs: Number(env.TEST_PAUSE_MS ?? 0),
  effects: memoryEffects(),
  transport: outboxTransport,
});
process.on('SIGTERM', () => void worker.stop().then(() => process.exit(0)));
process.stdout.write('worker started\n');
