/**
 * Event store schema, as frozen migrations: a shipped entry is never edited, a change is
 * a new entry. Every statement is plain Postgres 15 SQL so it runs on the server and on
 * PGlite alike.
 */
export const GLOBAL_APPEND_LOCK = 7_406_113_001; // pg_advisory_lock key of the position critical section
export const MIGRATIONS_LOCK = 7_406_113_000;
export const SEAL_LOCK = 7_406_113_002; // pg_advisory_xact_lock key: one sealer at a time (seal.ts)
export const NOTIFY_CHANNEL = 'bahi_es_appended';

export const eventStoreMigrations: ReadonlyArray<{ version: number; name: string; sql: string }> = [
  {
    version: 1,
    name: 'events, streams and the append function',
    sql: `
CREATE TABLE es.streams (
  stream_id text PRIMARY KEY,
  version bigint NOT NULL
);

CREATE TABLE es.events (
  global_position bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  transaction_id xid8 NOT NULL,
  event_id uuid NOT NULL,
  stream_id text NOT NULL,
  stream_version bigint NOT NULL,
  type text NOT NULL,
  data jsonb NOT NULL,
  metadata jsonb NOT NULL,
  CONSTRAINT events_event_id_key UNIQUE (event_id),
  CONSTRAINT events_stream_version_key UNIQUE (stream_id, stream_version)
);

-- One round trip per append. p_expected: a version >= 0, -1 = no stream, -2 = any.
-- Why two locks:
--  * a transaction-scoped advisory lock per stream queues writers of one stream until the
--    previous one has committed, so the version check below reads the committed version;
--  * a session-scoped global lock held only while the transaction id is assigned and the
--    rows are inserted (not through the commit) makes global_position order equal
--    transaction-id order. A reader of $all that only passes rows whose transaction_id is
--    below pg_snapshot_xmin(pg_current_snapshot()) can then never pass a position that a
--    transaction still open could fill. Commits (the fsync) stay outside the global lock,
--    so concurrent appends still share group commits.
CREATE FUNCTION es.append(p_stream text, p_expected bigint, p_events jsonb)
RETURNS TABLE (out_status text, out_version bigint, out_position bigint)
LANGUAGE plpgsql AS $fn$
#variable_conflict use_column
DECLARE
  v_count integer := jsonb_array_length(p_events);
  v_current bigint;
  v_stored integer;
  v_stored_here integer;
  v_position bigint;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended('bahi.es.stream:' || p_stream, 0));

  SELECT count(*)::integer, count(*) FILTER (WHERE e.stream_id = p_stream)::integer
    INTO v_stored, v_stored_here
    FROM es.events e
   WHERE e.event_id IN (SELECT (x->>'id')::uuid FROM jsonb_array_elements(p_events) x);
  IF v_stored > 0 THEN
    IF v_stored = v_count AND v_stored_here = v_count THEN
      -- Every event is already stored in this stream: a retried append, stored once.
      RETURN QUERY
        SELECT 'duplicate'::text, s.version, max(e.global_position)
          FROM es.events e JOIN es.streams s ON s.stream_id = e.stream_id
         WHERE e.event_id IN (SELECT (x->>'id')::uuid FROM jsonb_array_elements(p_events) x)
         GROUP BY s.version;
    ELSE
      RETURN QUERY SELECT 'duplicate_elsewhere'::text, NULL::bigint, NULL::bigint;
    END IF;
    RETURN;
  END IF;

  SELECT s.version INTO v_current FROM es.streams s WHERE s.stream_id = p_stream;
  IF (p_expected = -1 AND v_current IS NOT NULL)
     OR (p_expected >= 0 AND v_current IS DISTINCT FROM p_expected) THEN
    RETURN QUERY SELECT 'wrong_expected_version'::text, v_current, NULL::bigint;
    RETURN;
  END IF;
  v_current := coalesce(v_current, -1);

  PERFORM pg_advisory_lock(${GLOBAL_APPEND_LOCK});
  BEGIN
    INSERT INTO es.streams (stream_id, version) VALUES (p_stream, v_current + v_count)
      ON CONFLICT (stream_id) DO UPDATE SET version = EXCLUDED.version;
    WITH inserted AS (
      INSERT INTO es.events (transaction_id, event_id, stream_id, stream_version, type, data, metadata)
      SELECT pg_current_xact_id(), (x.value->>'id')::uuid, p_stream, v_current + x.ord,
             x.value->>'type', x.value->'data', x.value->'metadata'
        FROM jsonb_array_elements(p_events) WITH ORDINALITY AS x(value, ord)
       ORDER BY x.ord
      RETURNING global_position
    )
    SELECT max(global_position) INTO v_position FROM inserted;
  EXCEPTION WHEN OTHERS OR query_canceled THEN
    -- A session lock outlives the failed transaction: release it or every writer stalls.
    PERFORM pg_advisory_unlock(${GLOBAL_APPEND_LOCK});
    RAISE;
  END;
  PERFORM pg_advisory_unlock(${GLOBAL_APPEND_LOCK});

  RETURN QUERY SELECT 'ok'::text, v_current + v_count, v_position;
END
$fn$;
`,
  },
  {
    version: 2,
    name: 'append without a pre-check on the hot path',
    // The duplicate-id pre-check of version 1 ran on every append, and plpgsql cached its
    // plan: planned while es.events was empty, it kept scanning the whole table as the
    // table grew (until an ANALYZE). Retried appends are now found where they fail: the
    // version check (a retry arrives after the stream moved on) or the unique event id.
    sql: `
CREATE OR REPLACE FUNCTION es.append(p_stream text, p_expected bigint, p_events jsonb)
RETURNS TABLE (out_status text, out_version bigint, out_position bigint)
LANGUAGE plpgsql AS $fn$
#variable_conflict use_column
DECLARE
  v_count integer := jsonb_array_length(p_events);
  v_current bigint;
  v_position bigint;
  v_constraint text;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended('bahi.es.stream:' || p_stream, 0));

  SELECT s.version INTO v_current FROM es.streams s WHERE s.stream_id = p_stream;
  IF (p_expected = -1 AND v_current IS NOT NULL)
     OR (p_expected >= 0 AND v_current IS DISTINCT FROM p_expected) THEN
    RETURN QUERY SELECT * FROM es.append_retried(p_stream, p_events, v_current);
    RETURN;
  END IF;
  v_current := coalesce(v_current, -1);

  PERFORM pg_advisory_lock(${GLOBAL_APPEND_LOCK});
  BEGIN
    INSERT INTO es.streams (stream_id, version) VALUES (p_stream, v_current + v_count)
      ON CONFLICT (stream_id) DO UPDATE SET version = EXCLUDED.version;
    WITH inserted AS (
      INSERT INTO es.events (transaction_id, event_id, stream_id, stream_version, type, data, metadata)
      SELECT pg_current_xact_id(), (x.value->>'id')::uuid, p_stream, v_current + x.ord,
             x.value->>'type', x.value->'data', x.value->'metadata'
        FROM jsonb_array_elements(p_events) WITH ORDINALITY AS x(value, ord)
       ORDER BY x.ord
      RETURNING global_position
    )
    SELECT max(global_position) INTO v_position FROM inserted;
  EXCEPTION
    WHEN unique_violation THEN
      PERFORM pg_advisory_unlock(${GLOBAL_APPEND_LOCK});
      GET STACKED DIAGNOSTICS v_constraint = CONSTRAINT_NAME;
      IF v_constraint = 'events_event_id_key' THEN
        RETURN QUERY SELECT * FROM es.append_retried(p_stream, p_events, NULLIF(v_current, -1));
        RETURN;
      END IF;
      RAISE;
    WHEN OTHERS OR query_canceled THEN
      -- A session lock outlives the failed transaction: release it or every writer stalls.
      PERFORM pg_advisory_unlock(${GLOBAL_APPEND_LOCK});
      RAISE;
  END;
  PERFORM pg_advisory_unlock(${GLOBAL_APPEND_LOCK});

  RETURN QUERY SELECT 'ok'::text, v_current + v_count, v_position;
END
$fn$;

-- The cold path: an append that failed its version check or hit a stored event id. If all
-- its ids are stored in this stream it is a retry, answered with the original result.
CREATE FUNCTION es.append_retried(p_stream text, p_events jsonb, p_current bigint)
RETURNS TABLE (out_status text, out_version bigint, out_position bigint)
LANGUAGE plpgsql AS $fn$
#variable_conflict use_column
DECLARE
  v_ids uuid[] := ARRAY(SELECT (x->>'id')::uuid FROM jsonb_array_elements(p_events) x);
  v_stored integer;
  v_stored_here integer;
  v_position bigint;
BEGIN
  SELECT count(*)::integer, count(*) FILTER (WHERE e.stream_id = p_stream)::integer, max(e.global_position)
    INTO v_stored, v_stored_here, v_position
    FROM es.events e
   WHERE e.event_id = ANY (v_ids);
  IF v_stored = 0 THEN
    RETURN QUERY SELECT 'wrong_expected_version'::text, p_current, NULL::bigint;
  ELSIF v_stored = cardinality(v_ids) AND v_stored_here = v_stored THEN
    RETURN QUERY SELECT 'duplicate'::text, (SELECT s.version FROM es.streams s WHERE s.stream_id = p_stream), v_position;
  ELSE
    RETURN QUERY SELECT 'duplicate_elsewhere'::text, NULL::bigint, NULL::bigint;
  END IF;
END
$fn$;
`,
  },
  {
    version: 3,
    name: 'the seal: the chain over the log, by position',
    // Written by seal.ts in log order shortly after the events are appended (docs/event-store.md,
    // "The seal"); not by es.append, so appends do not wait for it (docs/decisions.md).
    sql: `
CREATE TABLE es.chain (
  global_position bigint PRIMARY KEY,
  hash text NOT NULL CHECK (hash ~ '^[0-9a-f]{64}$')
);
`,
  },
  {
    version: 4,
    name: 'a stream read after a session lock, in one round trip',
    // A write reads each master it names, and the period close, under a shared session lock it
    // holds until it answers (services/command/src/write-scope.ts): the lock, then the read.
    // Two statements were two round trips per master (bench/command-mix: a sale made 21). In one
    // plpgsql function they are one, and still in that order: a VOLATILE function's queries each
    // take a fresh snapshot (READ COMMITTED), so the read sees whatever committed while the lock
    // was waited for - a delete whose holder let go of the exclusive lock just now.
    sql: `
CREATE FUNCTION es.read_stream_after_shared_lock(p_lock text, p_stream text, p_from_version bigint)
RETURNS TABLE (position_text text, id text, stream_id text, version_text text, type text, data jsonb, metadata jsonb)
LANGUAGE plpgsql VOLATILE AS $fn$
BEGIN
  PERFORM pg_advisory_lock_shared(hashtextextended(p_lock, 0));
  RETURN QUERY
    SELECT e.global_position::text, e.event_id::text, e.stream_id, e.stream_version::text, e.type, e.data, e.metadata
      FROM es.events e
     WHERE e.stream_id = p_stream AND e.stream_version >= p_from_version
     ORDER BY e.stream_version;
END
$fn$;
`,
  },
];
