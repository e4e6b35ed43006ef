export type { Projection } from './projection.ts';
export { ProjectionRunner } from './projection-runner.ts';
export { allProjections, type Projector, startProjector } from './projector.ts';
export { startProjectorService } from './service.ts';
