import { runMain } from '@bahi/server-kit';
import { startStandalone } from './standalone.ts';

runMain('bahi', async () => {
  const started = Date.now();
  const bahi = await startStandalone();
  console.log(
    [
      '',
      `  Bahi is running (standalone) at ${bahi.url}   [started in ${((Date.now() - started) / 1000).toFixed(1)} s]`,
      // The password is never printed: terminals are logged and shared (issue #16).
      `  Sign in as ${bahi.config.BAHI_ADMIN_EMAIL} with the first Admin's password (BAHI_ADMIN_PASSWORD; without it, the default in README.md)`,
      `  Data: ${bahi.config.BAHI_DATA_DIR}   Stop with Ctrl+C.`,
      ...(bahi.license.createdDevelopmentLicense
        ? [
            `  Created a development license valid until ${bahi.license.createdDevelopmentLicense.expiresAt.slice(0, 10)} in ${bahi.license.createdDevelopmentLicense.dir}`,
            '  (issue another with: npm run license -- issue --private-key <that dir>/private.pem --out <that dir>/license.jws)',
          ]
        : []),
      ...(bahi.license.isValid ? [] : [`  LICENSE NOT VALID: ${bahi.license.reason}`]),
      ...(bahi.demo ? [`  Loaded the demo business (${bahi.demo.writes} records).`] : []),
      '',
    ].join('\n'),
  );
  return bahi;
});
