export { customFieldDefinitions } from './custom-field-definitions.projection.ts';
export { journal } from './journal.projection.ts';
export { masterReferences } from './master-references.projection.ts';
export { masters } from './masters.projection.ts';
export type { Projection, ProjectorLog } from './projection.ts';
export { ProjectionRunner } from './projection-runner.ts';
export { allProjections, type Projector, startProjector } from './projector.ts';
export {
  failingEvent,
  listQuarantined,
  QuarantineRefused,
  quarantineEvent,
} from './quarantine.ts';
export {
  claimRequestedRebuild,
  RebuildRefused,
  rebuildProjections,
  requestRebuild,
  resolveProjections,
} from './rebuild.ts';
export { recoverInterruptedRebuilds } from './rebuild-lock.ts';
export { recordStreams } from './record-streams.projection.ts';
export { resumeProjection } from './resume.ts';
