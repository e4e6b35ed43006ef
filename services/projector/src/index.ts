export type { Projection } from './projection.ts';
export { ProjectionRunner } from './projection-runner.ts';
export { allProjections, type Projector, startProjector } from './projector.ts';
export {
  claimRequestedRebuild,
  RebuildRefused,
  type RebuildReport,
  rebuildProjections,
  requestRebuild,
  resolveProjections,
  resumeProjection,
} from './rebuild.ts';
export { startProjectorService } from './service.ts';
