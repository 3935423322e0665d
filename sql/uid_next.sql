-- uid_next() and uid_next_batch(): generation on a preloaded server
-- (uid.worker_id = 7 in test/uid_test.conf).
SET timezone = 'UTC';

-- DEFAULT uid_next() on a primary key just works.
CREATE TABLE orders (id bigint PRIMARY KEY DEFAULT uid_next(), item text);
INSERT INTO orders (item) SELECT 'item ' || g FROM generate_series(1, 10000) g;
SELECT count(*) AS rows, count(DISTINCT id) AS distinct_ids FROM orders;

-- Insertion order is ID order: IDs are strictly increasing.
SELECT bool_and(id > prev) AS strictly_increasing
FROM (SELECT id, lag(id) OVER (ORDER BY item_no) AS prev
      FROM (SELECT id, substr(item, 6)::int AS item_no FROM orders) o) s
WHERE prev IS NOT NULL;

-- Every ID carries this server's worker id, and a time close to now.
SELECT bool_and((uid_decode(id)).worker_id = 7) AS worker_7,
       bool_and(uid_time(id) BETWEEN now() - interval '1 minute' AND clock_timestamp() + interval '1 second') AS recent
FROM orders;

-- Decoding uid_next() gives the current time (ms precision).
SELECT abs(extract(epoch FROM (uid_decode(uid_next())).ts - clock_timestamp())) < 5 AS ts_is_now;

-- Sequence numbers stay within 12 bits and no (ms, sequence) pair repeats.
SELECT max((uid_decode(id)).sequence) <= 4095 AS seq_in_range,
       count(DISTINCT ((uid_decode(id)).ms_since_epoch, (uid_decode(id)).sequence)) = count(*) AS no_repeat
FROM orders;

-- A range scan by time with uid_from_time.
SELECT count(*) = 10000 AS range_scan
FROM orders
WHERE id >= uid_from_time(now() - interval '1 hour')
  AND id < uid_from_time(clock_timestamp() + interval '1 second');

-- uid_next works in a read-only transaction (it writes no table).
BEGIN READ ONLY;
SELECT uid_next() > 0 AS in_read_only;
COMMIT;

-- uid_next_batch: count IDs, strictly increasing, all above earlier IDs.
CREATE TEMP TABLE before AS SELECT uid_next() AS id;
CREATE TEMP TABLE batch AS SELECT row_number() OVER () AS n, id FROM uid_next_batch(10000) AS id;
SELECT count(*) AS n, count(DISTINCT id) AS distinct_ids,
       min(id) > (SELECT id FROM before) AS after_earlier
FROM batch;
SELECT bool_and(id > prev) AS batch_increasing
FROM (SELECT id, lag(id) OVER (ORDER BY n) AS prev FROM batch) s WHERE prev IS NOT NULL;
SELECT uid_next() > (SELECT max(id) FROM batch) AS next_after_batch;
SELECT count(*) FROM uid_next_batch(0);
SELECT uid_next_batch(NULL);

-- A caller that stops reading early uses about what it read, not the rest
-- of a millisecond: 200 calls that read one ID of 10000 each, then one that
-- reads 100.  ids_issued counts every ID claimed, read or not.
SELECT ids_issued AS issued_before FROM uid_stats \gset
DO $$
DECLARE
	x bigint;
BEGIN
	FOR i IN 1..200 LOOP
		SELECT uid_next_batch(10000) INTO x LIMIT 1;
	END LOOP;
END $$;
SELECT ids_issued - :issued_before BETWEEN 200 AND 400 AS limit_1_uses_at_most_2_each
FROM uid_stats;
SELECT ids_issued AS issued_before FROM uid_stats \gset
SELECT count(*) AS read FROM (SELECT uid_next_batch(10000) LIMIT 100) s;
SELECT ids_issued - :issued_before BETWEEN 100 AND 200 AS limit_100_uses_at_most_200
FROM uid_stats;
-- read to the end in the select list, a batch is whole and increasing
SELECT count(*) AS n, count(DISTINCT id) AS distinct_ids,
       bool_and(id > prev) AS increasing
FROM (SELECT id, lag(id) OVER (ORDER BY n) AS prev
      FROM (SELECT row_number() OVER () AS n, id
            FROM (SELECT uid_next_batch(10000) AS id) b) s) t;

-- Bad input: negative count, above uid.max_batch.
SELECT count(*) FROM uid_next_batch(-1);
SELECT count(*) FROM uid_next_batch(10001);
SET uid.max_batch = 20000;  -- superuser only
SELECT count(*) FROM uid_next_batch(10001);
RESET uid.max_batch;

-- Settings are validated.
SET uid.clock_max_wait_ms = 10;  -- sighup: not settable in a session
SHOW uid.worker_id;
SET uid.worker_id = 3;           -- postmaster: fixed at start
SET uid.no_such_setting = 1;     -- the uid. prefix is reserved
-- what a standby asks this server for: computed when read, read-only
WITH issued AS MATERIALIZED (SELECT uid_next() AS id)
SELECT current_setting('uid.issued_through')
       ~ '^worker=7 reserved_ms=[0-9]+ clock_ms=[0-9]+$' AS issued_through_shape,
       split_part(split_part(current_setting('uid.issued_through'), ' ', 2), '=', 2)::bigint
       >= (uid_decode(id)).ms_since_epoch AS reservation_covers_last_id
FROM issued;
SET uid.issued_through = 'worker=1 reserved_ms=0 clock_ms=0';

-- The stats view counts what was issued.
SELECT worker_id, ids_issued >= 20000 AS counted, batch_calls >= 3 AS batches,
       clock_refusals, last_issued_at <= reserved_until AS reservation_ahead
FROM uid_stats;

-- Volatility: uid_next() is evaluated per row, never folded.
SELECT count(DISTINCT x) FROM (SELECT uid_next() AS x FROM generate_series(1, 5)) s;
DROP TABLE orders;

-- uid_stats is for members of pg_monitor; another role is told which grant it lacks
CREATE ROLE uid_not_monitor;
SET ROLE uid_not_monitor;
SELECT worker_id FROM uid_stats;
RESET ROLE;
GRANT pg_monitor TO uid_not_monitor;
SET ROLE uid_not_monitor;
SELECT count(*) AS monitor_reads FROM uid_stats;
RESET ROLE;
DROP ROLE uid_not_monitor;
