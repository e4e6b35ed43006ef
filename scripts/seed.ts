/**
 * npm run seed -- --scale small [--url http://localhost:3000] [--email <admin>] [--password <pw>]
 *
 * Builds the demo business through the HTTP API of a running Bahi (standalone or the gateway
 * of a distributed one), as its first Admin. `small` is four months of a three-city business
 * (about a thousand records). `large` is twelve units of it over two years at sixteen times
 * the activity (about a million events, 36 cities, hundreds of parties), the units written
 * concurrently; expect it to take an hour or more (bench/queries does it in-process).
 */
import { parseArgs } from 'node:util';
import { type Call, SCALES, seedScale } from '@bahi/command';

const { values } = parseArgs({
  options: {
    scale: { type: 'string', default: 'small' },
    url: { type: 'string', default: process.env.BAHI_URL ?? 'http://localhost:3000' },
    email: { type: 'string', default: process.env.BAHI_ADMIN_EMAIL ?? 'admin@bahi.local' },
    password: { type: 'string', default: process.env.BAHI_ADMIN_PASSWORD ?? 'bahi-admin-2026' },
  },
});
const scale = SCALES[values.scale as keyof typeof SCALES];
if (!scale) {
  console.error(`seed: --scale must be one of: ${Object.keys(SCALES).join(', ')}`);
  process.exit(2);
}
const base = values.url!.replace(/\/$/, '');
const login = await fetch(`${base}/api/auth/login`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ email: values.email, password: values.password }),
}).catch((e: Error) => {
  console.error(`seed: cannot reach ${base}: ${e.message}`);
  process.exit(1);
});
if (login.status !== 200) {
  console.error(
    `seed: sign-in as ${values.email} failed (${login.status}): ${((await login.json()) as { message: string }).message}`,
  );
  process.exit(1);
}
let { token } = (await login.json()) as { token: string };
const call: Call = async (method, path, body) => {
  const send = () =>
    fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  let res = await send();
  if (res.status === 401) {
    // A long seed outlives its sign-in: sign in again and resend.
    const again = await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: values.email, password: values.password }),
    });
    token = ((await again.json()) as { token: string }).token;
    res = await send();
  }
  return { status: res.status, body: (await res.json()) as { id?: string; message?: string } };
};
const started = Date.now();
let shown = started;
const { writes } = await seedScale(call, scale, new Date().toISOString().slice(0, 10), (n) => {
  if (Date.now() - shown < 10_000) return;
  shown = Date.now();
  console.log(`seed: ${n} records, ${(n / ((shown - started) / 1000)).toFixed(0)}/s`);
});
console.log(`seed: ${writes} records written in ${((Date.now() - started) / 1000).toFixed(1)} s to ${base}`);
