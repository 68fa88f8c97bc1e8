-- The event log: one row per thread event, gapless seq per thread (spec 2.5).
-- `thread_heads` holds each thread's last seq; an append bumps it in the same statement that inserts the
-- rows, so the head row's lock serialises writers of one thread across every replica, and the primary key
-- (thread_id, seq) is the backstop against a duplicate seq.
CREATE TABLE thread_heads (
  thread_id text PRIMARY KEY,
  last_seq integer NOT NULL CHECK (last_seq >= 0)
);

-- `data` and `scope` are `json`, not `jsonb`: rows are written once and read back whole, `json` keeps the
-- text as the daemon sent it (key order, and `\u0000` in command output, which `jsonb` refuses) and costs
-- only a syntax check on insert.
CREATE TABLE thread_events (
  thread_id text NOT NULL,
  seq integer NOT NULL CHECK (seq > 0),
  id text NOT NULL,
  type text NOT NULL,
  turn_id text,
  scope json NOT NULL,
  data json NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (thread_id, seq)
);

-- One append, in one statement and one round trip. `p_rows`: [{t, k, i, ty, tu, sc, d}] with `k` the row's
-- 1-based place among its thread's rows in this batch and `sc`, `d` the scope and data as JSON *text* (a
-- string inside the batch: json_to_recordset cannot de-escape a `\u0000` inside an object, a `::json` cast
-- of the text keeps it); `p_heads`: [{t, n, e}] with `n` the thread's row count
-- and `e` the seq its first row must get (null: whatever is next). A thread whose head does not match its
-- `e` fails the whole append with SQLSTATE AT409 and stores nothing (exactly-once re-sends, batchApplier).
-- Heads are locked in thread order, so two appends touching the same threads never deadlock. Every thread
-- appended to is announced on channel `ats_events` as `<origin> <first seq> <last seq> <thread id>`, sent at commit.
CREATE FUNCTION ats_append_events(p_rows json, p_heads json, p_origin text)
RETURNS TABLE (thread_id text, first_seq integer, created_ms bigint)
LANGUAGE plpgsql AS $$
DECLARE
  v_now timestamptz := date_trunc('milliseconds', clock_timestamp());
  v_threads text[];
  v_firsts integer[];
  v_counts integer[];
  v_expected integer[];
BEGIN
  WITH h AS (
    SELECT x.t, x.n, x.e FROM json_to_recordset(p_heads) AS x(t text, n integer, e integer)
  ), heads AS (
    INSERT INTO thread_heads AS th (thread_id, last_seq)
    SELECT h.t, h.n FROM h ORDER BY h.t
    ON CONFLICT ON CONSTRAINT thread_heads_pkey DO UPDATE SET last_seq = th.last_seq + EXCLUDED.last_seq
    RETURNING th.thread_id, th.last_seq
  ), firsts AS (
    SELECT heads.thread_id, heads.last_seq - h.n + 1 AS first_seq, h.n, h.e
    FROM heads JOIN h ON h.t = heads.thread_id
  ), ins AS (
    INSERT INTO thread_events (thread_id, seq, id, type, turn_id, scope, data, created_at)
    SELECT r.t, f.first_seq + r.k - 1, r.i, r.ty, r.tu, r.sc::json, r.d::json, v_now
    FROM json_to_recordset(p_rows) AS r(t text, k integer, i text, ty text, tu text, sc text, d text)
    JOIN firsts f ON f.thread_id = r.t
  )
  SELECT array_agg(f.thread_id), array_agg(f.first_seq), array_agg(f.n), array_agg(f.e)
  INTO v_threads, v_firsts, v_counts, v_expected
  FROM firsts f;

  FOR i IN 1 .. coalesce(array_length(v_threads, 1), 0) LOOP
    IF v_expected[i] IS NOT NULL AND v_expected[i] <> v_firsts[i] THEN
      RAISE EXCEPTION 'batch for % expects seq % next but the store is at %', v_threads[i], v_expected[i], v_firsts[i] - 1
        USING ERRCODE = 'AT409',
              DETAIL = json_build_object('threadId', v_threads[i], 'expectedFirstSeq', v_expected[i], 'storedLastSeq', v_firsts[i] - 1)::text;
    END IF;
    PERFORM pg_notify('ats_events', p_origin || ' ' || v_firsts[i] || ' ' || (v_firsts[i] + v_counts[i] - 1) || ' ' || v_threads[i]);
  END LOOP;

  RETURN QUERY SELECT u.t, u.f, (extract(epoch FROM v_now) * 1000)::bigint FROM unnest(v_threads, v_firsts) AS u(t, f);
END;
$$;
