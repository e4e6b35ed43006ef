import { ConfigError } from './config.ts';

export interface Running {
  stop(): Promise<void>;
}

/**
 * Runs a service's start function as the process: prints configuration errors plainly
 * and exits 1, stops cleanly once on SIGINT/SIGTERM, and exits 1 on a failed start.
 */
export function runMain(name: string, start: () => Promise<Running>): void {
  let running: Running | undefined;
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    const started = Date.now();
    console.log(`${name}: ${signal} received, stopping`);
    const force = setTimeout(() => {
      console.error(`${name}: not stopped after 10 s, exiting anyway`);
      process.exit(1);
    }, 10_000);
    force.unref();
    try {
      await running?.stop();
      console.log(`${name}: stopped cleanly in ${Date.now() - started} ms`);
      process.exit(0);
    } catch (error) {
      console.error(`${name}: error while stopping`, error);
      process.exit(1);
    }
  };
  // `on`, not `once`: Ctrl+C reaches npm, tsx and node together, and a repeated signal
  // must not fall through to Node's default handler halfway through a clean stop.
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  start().then(
    (r) => {
      running = r;
    },
    (error) => {
      if (error instanceof ConfigError) console.error(`${name} cannot start. ${error.message}`);
      else console.error(`${name} failed to start:`, error);
      process.exit(1);
    },
  );
}
