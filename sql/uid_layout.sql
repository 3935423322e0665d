-- uid_decode(bigint), uid_time(bigint), uid_from_time(timestamptz):
-- the layout, the pinned epoch, and bad input side by side.
SET timezone = 'UTC';

-- The epoch is 2026-01-01T00:00:00Z: ID 0 is its first ID.
SELECT uid_time(0) AS epoch, uid_from_time('2026-01-01 00:00:00+00') AS zero;
SELECT * FROM uid_decode(0);

-- Every field at its boundaries: ms 1, worker 1023, sequence 4095.
SELECT * FROM uid_decode((1::bigint << 22) | (1023 << 12) | 4095);
-- The largest bigint is the last ID of the layout (time part 2^41 - 1).
SELECT * FROM uid_decode(9223372036854775807);
SELECT uid_time(9223372036854775807);

-- A composed ID decodes to its parts.
SELECT (d).ts, (d).worker_id, (d).sequence, (d).ms_since_epoch
FROM (SELECT uid_decode((123456789::bigint << 22) | (5 << 12) | 42) AS d) s;

-- uid_from_time gives the lowest ID of the millisecond, rounding down.
SELECT uid_from_time('2026-01-01 00:00:00.001+00') = (1::bigint << 22) AS one_ms,
       uid_from_time('2026-01-01 00:00:00.0019+00') = (1::bigint << 22) AS rounds_down,
       uid_time(uid_from_time('2030-06-15 12:34:56.789+00')) AS round_trip;
-- The last representable millisecond.
SELECT uid_time(uid_from_time('2095-09-07 15:47:35.551+00')) AS last_ms;

-- Works in WHERE on the composite result (one row, not a set).
SELECT count(*) FROM (VALUES ((7::bigint << 22) | (5 << 12)), ((8::bigint << 22) | (6 << 12))) v(id)
WHERE (uid_decode(id)).worker_id = 5;

-- NULL in, NULL out.
SELECT uid_time(NULL), uid_from_time(NULL), (uid_decode(NULL::bigint)).ts IS NULL AS decode_null;

-- Bad input: negative IDs, times outside the layout, infinity.
SELECT uid_decode(-1);
SELECT uid_time(-9223372036854775808);
SELECT uid_from_time('2025-12-31 23:59:59.999+00');
SELECT uid_from_time('2095-09-07 15:47:35.552+00');
SELECT uid_from_time('infinity');
SELECT uid_from_time('-infinity');

-- IMMUTABLE decoders serve in expression indexes and generated columns.
CREATE TABLE layout_t (
    id bigint PRIMARY KEY,
    created timestamptz GENERATED ALWAYS AS (uid_time(id)) STORED
);
CREATE INDEX layout_t_worker ON layout_t (((uid_decode(id)).worker_id));
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT id FROM layout_t WHERE (uid_decode(id)).worker_id = 3;
SELECT id FROM layout_t WHERE (uid_decode(id)).worker_id = 3;
RESET enable_seqscan;
INSERT INTO layout_t VALUES (uid_from_time('2026-03-01 10:00:00+00') | (3 << 12));
SELECT id, created FROM layout_t;
DROP TABLE layout_t;
