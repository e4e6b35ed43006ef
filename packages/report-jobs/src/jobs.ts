import type { ReportFormat, ReportSource } from './report-source.ts';

/** Who asked: notifications go to their role, and only they (or an Admin) may fetch the file. */
export interface Requester {
  id: string;
  name: string;
  role: 'Admin' | 'Manager' | 'Collector' | 'Viewer';
}

interface JobBase {
  source: ReportSource;
  requester: Requester;
  /** The event-store position the report was read at (the head of the log when asked). */
  position: string;
  /**
   * The sealed chain head at that position (issue #30; docs/event-store.md, "The seal"), printed
   * on the file's footer and covered by its verification code. Absent when the log keeps no
   * chain (EventStoreDB) or the seal could not reach the position in time.
   */
  chainHead?: string;
  /** When it was read (ISO); printed on the file. */
  readAt: string;
}
export interface RenderJob extends JobBase {
  kind: 'render';
  format: ReportFormat;
}
export interface WhatsAppJob extends JobBase {
  kind: 'whatsapp';
  /** E.164, e.g. +919876543210. */
  recipient: string;
  /**
   * Send now (Settings > WhatsApp outbox): this job sends again a send that is in the outbox or
   * failed. Its records (and its file) go under that send's id, with its first requester, so
   * the outbox row changes in place; the job's own id only keeps this attempt apart.
   */
  resend?: { sendId: string; requestedBy: string };
}
export type ReportJob = RenderJob | WhatsAppJob;

export type JobState = 'waiting' | 'active' | 'completed' | 'failed' | 'unknown';

/** A job being worked on, as the processor sees it under either queue. */
export interface JobContext {
  id: string;
  data: ReportJob;
  /** Attempts made before this one. */
  attemptsMade: number;
  attempts: number;
}

/** What the query side uses: add a job (once per id) and ask about it. */
export interface JobQueue {
  add(jobId: string, job: ReportJob): Promise<void>;
  state(jobId: string): Promise<{ state: JobState; failedReason?: string | undefined }>;
  /** Drops a finished job, so the same id can run again (its file expired before it). */
  forget(jobId: string): Promise<void>;
  /** How many workers take jobs from this queue now (0: a job added would wait for one). */
  workers(): Promise<number>;
  close(): Promise<void>;
}

export const JOB_ATTEMPTS = 5;
/** Exponential backoff between attempts: 1 s, 2 s, 4 s, ... */
export const BACKOFF_MS = 1000;

/** A failure no retry can mend (a bad job, a refused number): the job fails at once. */
export class PermanentJobError extends Error {}

export type Processor = (job: JobContext) => Promise<unknown>;
