import { runMain } from '@bahi/server-kit';
import { startStandalone } from './standalone.ts';

runMain('bahi', async () => {
  const started = Date.now();
  const bahi = await startStandalone();
  console.log(
    [
      '',
      `  Bahi is running (standalone) at ${bahi.url}   [started in ${((Date.now() - started) / 1000).toFixed(1)} s]`,
      `  Sign in as ${bahi.config.BAHI_ADMIN_EMAIL} / ${bahi.config.BAHI_ADMIN_PASSWORD}   (set BAHI_ADMIN_EMAIL and BAHI_ADMIN_PASSWORD to change)`,
      `  Data: ${bahi.config.BAHI_DATA_DIR}   Stop with Ctrl+C.`,
      '',
    ].join('\n'),
  );
  return bahi;
});
