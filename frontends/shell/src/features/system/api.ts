import type {
  BackupManifestRow as Backup,
  BackupsStatus,
  FailingEvent,
  ProjectionState,
  ProjectionsStatus,
  QuarantinedEvent as Quarantined,
  RebuildRow as Rebuild,
  ChainVerificationResult as Verification,
  VerifyProgress,
} from '@bahi/contracts';
import { api } from '@bahi/ui';
import { queryOptions } from '@bahi/ui/screen';

// GET /admin/projections and the failing event, typed by their routes' response schemas (issue #19).
export type { FailingEvent, ProjectionState, ProjectionsStatus, Quarantined, Rebuild, Verification };

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

export type { Backup, BackupsStatus };

/** GET /admin/backups: the standalone's backup directory and its last backup (404 when distributed). */
export const backupsQuery = () =>
  queryOptions({
    queryKey: ['settings', 'backups'],
    queryFn: ({ signal }) => api.get<BackupsStatus>('/admin/backups', undefined, signal),
    retry: false,
  });

/** POST /admin/backups: a backup now, answered once it is written. */
export const backUpNow = () => api.post<Backup>('/admin/backups');

/**
 * GET /admin/verify (issue #30): the chain recomputed over the whole log. Run when asked ("Verify
 * the books"), never on its own: it reads every event.
 */
export const verifyQuery = () =>
  queryOptions({
    queryKey: ['verify-books'], // not under 'settings': the live stream's refreshes must not rerun it
    queryFn: ({ signal }) => api.get<Verification>('/admin/verify', undefined, signal),
    enabled: false,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
    retry: false,
  });

/** GET /admin/verify/progress: polled while a verification runs, for "n of m events". */
export const verifyProgressQuery = (running: boolean) =>
  queryOptions({
    queryKey: ['verify-books', 'progress'],
    queryFn: ({ signal }) => api.get<VerifyProgress>('/admin/verify/progress', undefined, signal),
    enabled: running,
    refetchInterval: running ? 500 : false,
    retry: false,
  });
