import type { RebuildReport } from '@bahi/contracts';
import { api } from '@bahi/ui';
import { queryOptions } from '@bahi/ui/screen';

/** One read model's checkpoint (GET /admin/projections). */
export interface ProjectionState {
  name: string;
  position: string;
  lag: string;
  status: 'running' | 'failed' | 'paused';
  error: string | null;
  updatedAt: string;
  /** A stopped projection: the event it cannot apply. */
  failingEvent?: { position: string; type: string; streamId: string };
}

export interface Rebuild {
  id: string;
  projections: string[];
  swap: boolean;
  status: 'requested' | 'running' | 'done' | 'failed';
  requestedBy: string;
  position: string;
  target: string;
  report: RebuildReport | null;
  error: string | null;
  requestedAt: string;
  updatedAt: string;
}

export interface Quarantined {
  projection: string;
  position: string;
  type: string;
  streamId: string;
  reason: string;
  error?: string | null;
  quarantinedAt: string;
  quarantinedBy: string | null;
}

export interface ProjectionsStatus {
  head: string;
  projections: ProjectionState[];
  quarantined: Quarantined[];
  rebuilds: Rebuild[];
}

export interface FailingEvent {
  projection: string;
  error: string | null;
  event: {
    position: string;
    type: string;
    streamId: string;
    streamVersion: string;
    data: unknown;
    metadata: unknown;
  };
}

/** A rebuild still under way (asked for, or being run by the projector). */
export const inProgress = (r: Rebuild | undefined): boolean =>
  r?.status === 'requested' || r?.status === 'running';

/**
 * GET /admin/projections: positions, lag, status, errors and the last 10 rebuilds. Polled every
 * second while a rebuild runs (its progress and, at the end, its report), every 10 s otherwise
 * (lag moves with every write; the live stream's 'settings' area refreshes it too).
 */
export const projectionsQuery = () =>
  queryOptions({
    queryKey: ['settings', 'projections'],
    queryFn: ({ signal }) => api.get<ProjectionsStatus>('/admin/projections', undefined, signal),
    refetchInterval: (query) => (query.state.data?.rebuilds.some(inProgress) ? 1000 : 10_000),
  });

/** GET /admin/projections/:name/failing-event: the event a stopped projection cannot apply, whole. */
export const failingEventQuery = (name: string) =>
  queryOptions({
    queryKey: ['settings', 'projections', 'failing-event', name],
    queryFn: ({ signal }) =>
      api.get<FailingEvent>(
        `/admin/projections/${encodeURIComponent(name)}/failing-event`,
        undefined,
        signal,
      ),
  });

/** POST /admin/projections/rebuild: none named = every projection; swap false = compare only. */
export const requestRebuild = (body: { projections?: string[]; swap: boolean }) =>
  api.post<{ id: string; message: string }>('/admin/projections/rebuild', body);

export const resumeProjection = (name: string) =>
  api.post<{ name: string; message: string }>(`/admin/projections/${encodeURIComponent(name)}/resume`);

export const quarantineEvent = (name: string, body: { position: string; reason: string }) =>
  api.post<{ message: string }>(`/admin/projections/${encodeURIComponent(name)}/quarantine`, body);

export type {
  BalanceDifference,
  ProjectionComparison,
  RebuildReport,
  TableComparison,
} from '@bahi/contracts';
