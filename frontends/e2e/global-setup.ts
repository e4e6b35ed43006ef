import { buildFrontends } from '../build.ts';

/** The e2e tests drive the built frontends: build them when their sources changed. */
export default async function setup(): Promise<void> {
  await buildFrontends();
}
