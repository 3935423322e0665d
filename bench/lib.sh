# The benchmark itself; sourced by bench/run.sh after the private install.

# name | per-call expression | pgbench statement
CANDIDATES=(
	"floor|1|SELECT 1;"
	"nextval|nextval('bench_seq')|SELECT nextval('bench_seq');"
	"gen_random_uuid|gen_random_uuid()|SELECT gen_random_uuid();"
	"uid_next|uid_next()|SELECT uid_next();"
	"uuid7|uuid7()|SELECT uuid7();"
	"uid_ticket_next|uid_ticket_next('bench_t')|SELECT uid_ticket_next('bench_t');"
)
# name | primary key column definition
INSERT_CANDIDATES=(
	"bigserial|id bigserial PRIMARY KEY"
	"uid_next|id bigint PRIMARY KEY DEFAULT uid_next()"
	"uuid7|id uuid PRIMARY KEY DEFAULT uuid7()"
	"gen_random_uuid|id uuid PRIMARY KEY DEFAULT gen_random_uuid()"
)

# IDs that leave the database: name | expression over a column of bench_ids |
# its floor, the same statement returning that column unchanged.  The
# explicit key is the one in uid.mask_key (bench_start_server).
BENCH_KEY=2b7e151628aed2a6abf7158809cf4f3c
EXPOSING_CANDIDATES=(
	"floor|1|floor"
	"uid_next|uid_next()|floor"
	"floor(i)|i|floor(i)"
	"uid_to_text|uid_to_text(i)|floor(i)"
	"uid_mask|uid_mask(i)|floor(i)"
	"uid_mask(key)|uid_mask(i, '\\x$BENCH_KEY'::bytea)|floor(i)"
	"floor(ti)|ti|floor(ti)"
	"uid_from_text|uid_from_text(ti)|floor(ti)"
	"floor(mi)|mi|floor(mi)"
	"uid_unmask|uid_unmask(mi)|floor(mi)"
	"uid_unmask(key)|uid_unmask(mi, '\\x$BENCH_KEY'::bytea)|floor(mi)"
	"floor(u)|u|floor(u)"
	"uuid_to_text|uuid_to_text(u)|floor(u)"
	"uuid7_mask|uuid7_mask(u)|floor(u)"
	"uuid7_mask(key)|uuid7_mask(u, '\\x$BENCH_KEY'::bytea)|floor(u)"
	"floor(tu)|tu|floor(tu)"
	"uuid_from_text|uuid_from_text(tu)|floor(tu)"
	"floor(mu)|mu|floor(mu)"
	"uuid7_unmask|uuid7_unmask(mu)|floor(mu)"
	"uuid7_unmask(key)|uuid7_unmask(mu, '\\x$BENCH_KEY'::bytea)|floor(mu)"
)

q() { psql -X -q -At -v ON_ERROR_STOP=1 -d bench "$@"; }
# a query whose output keeps its header row (for the report tables)
qh() { psql -X -q -A -P footer=off -v ON_ERROR_STOP=1 -d bench "$@"; }

# Rotate an array by the round number, so no candidate always runs first.
rotated() {
	local r=$1; shift
	local a=("$@") n=$# i
	for ((i = 0; i < n; i++)); do echo "${a[$(((i + r) % n))]}"; done
}

bench_start_server() {
	B=$(mktemp -d /tmp/uid-bench-data.XXXXXX)
	trap 'pg_ctl -D "$B/data" -m immediate stop >/dev/null 2>&1 || true; rm -rf "$B"' EXIT
	initdb -D "$B/data" -A trust --encoding=UTF8 --locale=C.UTF-8 >/dev/null
	cat >> "$B/data/postgresql.conf" <<CONF
listen_addresses = ''
unix_socket_directories = '$B'
shared_preload_libraries = 'uid'
uid.worker_id = 1
uid.mask_key = '$BENCH_KEY'
uid.lease_database = 'bench'
shared_buffers = 1GB
max_wal_size = 8GB
checkpoint_timeout = 1h
autovacuum = off
jit = off
max_connections = 50
CONF
	pg_ctl -D "$B/data" -l "$B/server.log" -w start >/dev/null
	export PGHOST=$B PGPORT=5432
	createdb bench
	q <<'SQL'
CREATE EXTENSION uid;
CREATE EXTENSION pgstattuple;
CREATE SEQUENCE bench_seq;
SELECT uid_ticket_create('bench_t', 1, 2);
SELECT uid_ticket_create('bench_tb', 1, 2, 100);
CREATE TABLE result (suite text, candidate text, clients int, round int, metric text, value float8);
-- Milliseconds one statement takes, measured inside the server.
CREATE FUNCTION bench_ms(stmt text) RETURNS float8 LANGUAGE plpgsql AS $$
DECLARE t0 timestamptz;
BEGIN
    t0 := clock_timestamp();
    EXECUTE stmt;
    RETURN extract(epoch FROM clock_timestamp() - t0) * 1000;
END $$;
SQL
	HAVE_UUID7=$(q -c "SELECT count(*) FROM pg_proc WHERE proname = 'uuid7'")
}

have() { [ "$1" != uuid7 ] || [ "$HAVE_UUID7" != 0 ]; }

# Tickets taken in blocks of 100: ns per ticket (one call per block).
bench_ticket_blocks() {
	local r ms
	echo "ticket blocks: $ROUNDS rounds of $((N / 100)) blocks of 100"
	for ((r = 1; r <= ROUNDS; r++)); do
		ms=$(q -c "SELECT bench_ms('SELECT count(f) FROM (SELECT (uid_ticket_next_block(''bench_tb'')).count AS f FROM generate_series(1, $((N / 100)))) s')")
		record percall ticket_block_100 1 "$r" ns_per_call "$ms * 1e6 / $N"
	done
}

# bench_times(stmt): ms elapsed and ms on the backend's CPU
# (/proc/self/schedstat, which other load on the machine does not inflate)
# of one statement
bench_times_sql() {
	cat <<'SQL'
CREATE OR REPLACE FUNCTION bench_times(stmt text, OUT wall_ms float8, OUT cpu_ms float8)
LANGUAGE plpgsql AS $$
DECLARE t0 timestamptz; c0 bigint;
BEGIN
    c0 := split_part(pg_read_file('/proc/self/schedstat'), ' ', 1)::bigint;
    t0 := clock_timestamp();
    EXECUTE stmt;
    wall_ms := extract(epoch FROM clock_timestamp() - t0) * 1000;
    cpu_ms := (split_part(pg_read_file('/proc/self/schedstat'), ' ', 1)::bigint - c0) / 1e6;
END $$;
SQL
}

record() {	# suite candidate clients round metric value
	q -c "INSERT INTO result VALUES ('$1', '$2', $3, $4, '$5', $6)"
}

bench_percall() {
	local r c name expr ms n
	echo "per call: $ROUNDS rounds of $N calls each ($((N / 20)) for uid_ticket_next)"
	for ((r = 1; r <= ROUNDS; r++)); do
		while IFS= read -r c; do
			IFS='|' read -r name expr _ <<<"$c"
			have "$name" || continue
			# a ticket costs microseconds (a WAL flush per 32): fewer calls
			n=$N
			[ "$name" = uid_ticket_next ] && n=$((N / 20))
			ms=$(q -c "SELECT bench_ms('SELECT count(f) FROM (SELECT $(sed "s/'/''/g" <<<"$expr") AS f FROM generate_series(1, $n)) s')")
			record percall "$name" 1 "$r" ns_per_call "$ms * 1e6 / $n"
		done < <(rotated "$r" "${CANDIDATES[@]}")
	done
}

# Text forms and masking: each function over a column of an N-row table,
# against that column read unchanged (its floor), alternated in every round.
# Besides the elapsed time, the backend's own time on the CPU
# (/proc/self/schedstat), which other load on the machine does not inflate.
bench_exposing() {
	local r c name expr fl t
	echo "exposing: $ROUNDS rounds of $N rows per function"
	q <<SQL
CREATE TABLE bench_ids AS
SELECT i, u, uid_to_text(i) AS ti, uuid_to_text(u) AS tu, uid_mask(i) AS mi, uuid7_mask(u) AS mu
FROM (SELECT uid_next() AS i, uuid7() AS u FROM generate_series(1, $N)) s;
CREATE TABLE exposing_floor (candidate text PRIMARY KEY, floor text);
SQL
	bench_times_sql | q
	q -c "VACUUM ANALYZE bench_ids"
	for c in "${EXPOSING_CANDIDATES[@]}"; do
		IFS='|' read -r name _ fl <<<"$c"
		q -c "INSERT INTO exposing_floor VALUES ('$name', '$fl')"
	done
	for ((r = 1; r <= ROUNDS; r++)); do
		while IFS= read -r c; do
			IFS='|' read -r name expr _ <<<"$c"
			t=$(q -F ' ' -c "SELECT * FROM bench_times('SELECT count(f) FROM (SELECT $(sed "s/'/''/g" <<<"$expr") AS f FROM bench_ids) s')")
			record exposing "$name" 1 "$r" ns_per_call "${t% *} * 1e6 / $N"
			record exposing "$name" 1 "$r" cpu_ns_per_call "${t#* } * 1e6 / $N"
		done < <(rotated "$r" "${EXPOSING_CANDIDATES[@]}")
	done
	q -c "DROP TABLE bench_ids"
}

# $CAPN IDs in one statement: uid_next() per row against the same statement
# with a constant, and uid_next_batch($CAPN) read to the end in the select
# list (value per call, as a caller that reads everything) against
# generate_series(1, $CAPN) in the same place.
bench_bulk_cap() {
	local r ms_c ms_u ms_cs ms_b
	echo "bulk cap: $ROUNDS rounds of $CAPN IDs"
	for ((r = 1; r <= ROUNDS; r++)); do
		ms_c=$(q -c "SELECT bench_ms('SELECT count(f) FROM (SELECT 1 AS f FROM generate_series(1, $CAPN)) s')")
		ms_u=$(q -c "SELECT bench_ms('SELECT count(f) FROM (SELECT uid_next() AS f FROM generate_series(1, $CAPN)) s')")
		ms_cs=$(q -c "SELECT bench_ms('SELECT count(f) FROM (SELECT generate_series(1, $CAPN) AS f) s')")
		ms_b=$(q -c "SET uid.max_batch = $CAPN;
			SELECT bench_ms('SELECT count(f) FROM (SELECT uid_next_batch($CAPN) AS f) s')")
		record bulk floor 1 "$r" ms "$ms_c"
		record bulk uid_next 1 "$r" ms "$ms_u"
		record bulk floor_srf 1 "$r" ms "$ms_cs"
		record bulk uid_next_batch 1 "$r" ms "$ms_b"
	done
}

bench_report_bulk_cap() {
	echo "## Bulk: $CAPN IDs in one statement vs the layout cap (4096 per ms)"
	echo
	echo "At the cap the IDs take 1000 ms; pct_of_cap_by_extra = 1000 ms / (ms - floor_ms)."
	echo "uid_next: one call per row, floor the same statement with a constant;"
	echo "uid_next_batch: uid_next_batch($CAPN) read to the end in the select list,"
	echo "floor generate_series(1, $CAPN) in its place."
	echo
	qh -F ' | ' -c "
	  SELECT u.candidate, round(c.v::numeric, 0) AS floor_ms, round(u.v::numeric, 0) AS ms,
	         round((u.v - c.v)::numeric, 0) AS extra_ms,
	         round((100 * ($CAPN / 4096.0) / (u.v - c.v))::numeric, 1) AS pct_of_cap_by_extra,
	         round(($CAPN / u.v)::numeric, 0) AS ids_per_ms
	  FROM med u JOIN med c ON c.suite = 'bulk'
	       AND c.candidate = CASE u.candidate WHEN 'uid_next' THEN 'floor' ELSE 'floor_srf' END
	  WHERE u.suite = 'bulk' AND u.candidate IN ('uid_next', 'uid_next_batch')
	  ORDER BY u.candidate" |
		sed 's/^/| /; s/$/ |/' | bench_md_table
}

bench_pgbench() {
	local r c name stmt clients tps f
	f=$(mktemp)
	echo "pgbench: $ROUNDS_PGB rounds of ${PGB_T}s per candidate and client count"
	for clients in 1 2 8; do
		for ((r = 1; r <= ROUNDS_PGB; r++)); do
			while IFS= read -r c; do
				IFS='|' read -r name _ stmt <<<"$c"
				have "$name" || continue
				echo "$stmt" >"$f"
				# prepared: parse and plan once, so the run measures the call
				# itself, not the catalog lookup of a function name per statement
				tps=$(pgbench -n -M prepared -c "$clients" -j "$clients" -T "$PGB_T" -f "$f" bench 2>/dev/null |
					sed -n 's/^tps = \([0-9.]*\) (without initial connection time)/\1/p')
				record pgbench "$name" "$clients" "$r" tps "${tps:-0}"
			done < <(rotated "$r" "${CANDIDATES[@]}")
		done
	done
	rm -f "$f"
}

bench_inserts() {
	local r c name col
	echo "inserts: $ROUNDS_INS rounds of $INSN rows"
	for ((r = 1; r <= ROUNDS_INS; r++)); do
		while IFS= read -r c; do
			IFS='|' read -r name col <<<"$c"
			have "$name" || continue
			q -c "DROP TABLE IF EXISTS ins; CREATE TABLE ins ($col, pad int); CHECKPOINT"
			record insert "$name" 1 "$r" ms \
				"$(q -c "SELECT bench_ms('INSERT INTO ins (pad) SELECT g FROM generate_series(1, $INSN) g')")"
			q -c "INSERT INTO result SELECT 'insert', '$name', 1, $r, 'index_mb', pg_relation_size('ins_pkey') / 1048576.0;
			      INSERT INTO result SELECT 'insert', '$name', 1, $r, 'leaf_density', avg_leaf_density FROM pgstatindex('ins_pkey')"
		done < <(rotated "$r" "${INSERT_CANDIDATES[@]}")
	done
	q -c "DROP TABLE IF EXISTS ins"
}

# WAL bytes and fsyncs (WAL syncs plus uid.hwm writes) per million calls.
bench_durability() {
	local name expr r
	echo "durability: $DURN calls"
	for r in 1 2; do
		for name in nextval uid_next; do
			[ "$name" = nextval ] && expr="nextval('bench_seq')" || expr="uid_next()"
			q -c "CHECKPOINT" -c "SELECT pg_stat_reset_shared('wal')"
			# measure in one session; the results are written after the WAL
			# counters are read, so they do not count their own WAL
			q >/dev/null <<SQL
SELECT reserve_writes AS hwm0 FROM uid_stats \\gset
SELECT count($expr) FROM generate_series(1, $DURN);
SELECT pg_stat_force_next_flush();
SELECT wal_bytes AS wb, wal_sync AS ws FROM pg_stat_wal \\gset
SELECT reserve_writes AS hwm1 FROM uid_stats \\gset
INSERT INTO result VALUES
  ('durability', '$name', 1, $r, 'wal_bytes_per_M', :wb * 1e6 / $DURN),
  ('durability', '$name', 1, $r, 'wal_syncs_per_M', :ws * 1e6 / $DURN),
  ('durability', '$name', 1, $r, 'hwm_fsyncs_per_M', (:hwm1 - :hwm0) * 1e6 / $DURN);
SQL
		done
	done
}

# Time filters on IDs (src/tables/time_filter.c): each natural filter against the
# hand-written index form on the same column, run in pairs back to back so
# that both see the same load, and the natural filter with
# uid.rewrite_time_filters = off (PostgreSQL's plan for it as written).
# name | the hand-written form it is compared with | filter (:'t' is t)
TF_CANDIDATES=(
	"uid_time(id) >= t|id >= uid_from_time(t)|uid_time(id) >= :'t'"
	"(uid_decode(id)).ts >= t|id >= uid_from_time(t)|(uid_decode(id)).ts >= :'t'"
	"id >= uid_from_time(t)|id >= uid_from_time(t)|id >= uid_from_time(:'t')"
	"uuid7_time(u) >= t|u >= uuid7_from_time(t)|uuid7_time(u) >= :'t'"
	"uuid_extract_timestamp(u) >= t|u >= uuid7_from_time(t)|uuid_extract_timestamp(u) >= :'t'"
	"u >= uuid7_from_time(t)|u >= uuid7_from_time(t)|u >= uuid7_from_time(:'t')"
	"uuid7_time(v) >= t|v >= uuid7_from_time(t)|uuid7_time(v) >= :'t'"
	"uuid_extract_timestamp(v) >= t|v >= uuid7_from_time(t)|uuid_extract_timestamp(v) >= :'t'"
	"v >= uuid7_from_time(t)|v >= uuid7_from_time(t)|v >= uuid7_from_time(:'t')"
	"uid_time(id) >= now() - 7.2 h|id >= uid_from_time(now() - 7.2 h)|uid_time(id) >= now() - interval '7.2 hours'"
	"id >= uid_from_time(now() - 7.2 h)|id >= uid_from_time(now() - 7.2 h)|id >= uid_from_time(now() - interval '7.2 hours')"
)

bench_tf_setup_functions() {
	q <<'SQL'
CREATE TABLE tf_plan (suite text, candidate text, baseline text, rewrite boolean, plan text,
                      PRIMARY KEY (suite, candidate, rewrite));
CREATE FUNCTION bench_tf_ms(stmt text, rewrite boolean) RETURNS float8 LANGUAGE plpgsql AS $$
BEGIN
    PERFORM set_config('uid.rewrite_time_filters', rewrite::text, true);
    RETURN bench_ms(stmt);
END $$;
-- A filter and its hand-written form, n times each, interleaved (each
-- first in turn) so that both see the same load: mean ms of each.  Both run
-- once untimed first: a new session reads the catalogs on its first query.
CREATE FUNCTION bench_tf_pair(stmt text, base text, n int,
                              OUT ms float8, OUT base_ms float8) LANGUAGE plpgsql AS $$
BEGIN
    PERFORM bench_ms(stmt);
    PERFORM bench_ms(base);
    ms := 0;
    base_ms := 0;
    FOR i IN 1..n LOOP
        IF i % 2 = 1 THEN
            ms := ms + bench_ms(stmt);
            base_ms := base_ms + bench_ms(base);
        ELSE
            base_ms := base_ms + bench_ms(base);
            ms := ms + bench_ms(stmt);
        END IF;
    END LOOP;
    ms := ms / n;
    base_ms := base_ms / n;
END $$;
-- The scan nodes of a statement's plan: "Index Only Scan", or
-- "Append: 1 x Index Only Scan (31 pruned at start)".
CREATE FUNCTION bench_tf_plan(stmt text, rewrite boolean) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    line text;
    scans text[] := '{}';
    removed int := 0;
    appended boolean := false;
BEGIN
    PERFORM set_config('uid.rewrite_time_filters', rewrite::text, true);
    FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || stmt LOOP
        IF line ~ 'Append' THEN appended := true; END IF;
        IF line ~ 'Subplans Removed' THEN removed := substring(line FROM '\d+')::int; END IF;
        IF line ~ 'Scan' THEN
            scans := scans || regexp_replace(line, '^[ >-]*((Parallel )?(Index Only |Index |Bitmap Heap |Seq )Scan).*$', '\1');
        END IF;
    END LOOP;
    IF appended THEN
        RETURN format('Append: %s x %s (%s pruned at start)', cardinality(scans), scans[1], removed);
    END IF;
    RETURN scans[1];
END $$;
SQL
}

# The statement of a candidate on table $1 at time $3 ($2: its name).
tf_statement() {
	local c name base filter
	for c in "${TF_CANDIDATES[@]}"; do
		IFS='|' read -r name base filter <<<"$c"
		if [ "$name" = "$2" ]; then
			echo "SELECT count(*) FROM $1 WHERE ${filter//:\'t\'/\'$3\'}"
			return
		fi
	done
}

# A table of TFN rows over the last 30 days (a row every 1.3 s), with the
# ID as primary key and a btree on a UUIDv7 of the same time, u; v holds the
# same UUIDs in a column declared v7-only (CHECK (uuid7_time(v) IS NOT
# NULL)), with a btree of its own.  And the same rows partitioned by day on
# the ID.  Filters select the last 1%.
bench_time_filters() {
	local r c name base filter stmt bstmt t tbl k
	echo "time filters: $TFN rows, $ROUNDS_TF rounds of $TF_REPS x $TF_PAIRS pairs per filter"
	bench_tf_setup_functions
	q <<SQL
CREATE TABLE tfb (id bigint PRIMARY KEY, u uuid NOT NULL, pad int,
                  v uuid NOT NULL CHECK (uuid7_time(v) IS NOT NULL));
INSERT INTO tfb
SELECT uid_from_time(ts) + g % 4096, u, g, u
FROM generate_series(1, $TFN) g,
     LATERAL (SELECT now() - interval '30 days' + g * (interval '30 days' / $TFN) AS ts) s,
     LATERAL (SELECT uuid7(ts) AS u) w;
CREATE INDEX tfb_u ON tfb (u);
CREATE INDEX tfb_v ON tfb (v);
CREATE TABLE tfbp (id bigint NOT NULL, u uuid NOT NULL, pad int, v uuid NOT NULL) PARTITION BY RANGE (id);
DO \$\$
DECLARE d date;
BEGIN
    FOR d IN SELECT generate_series(current_date - 31, current_date, interval '1 day')::date LOOP
        EXECUTE format('CREATE TABLE %I PARTITION OF tfbp FOR VALUES FROM (%s) TO (%s)',
                       'tfbp_' || to_char(d, 'YYYYMMDD'),
                       uid_from_time(d::timestamptz), uid_from_time((d + 1)::timestamptz));
    END LOOP;
END \$\$;
ALTER TABLE tfbp ADD PRIMARY KEY (id);
INSERT INTO tfbp SELECT * FROM tfb;
VACUUM ANALYZE tfb;
VACUUM ANALYZE tfbp;
SQL
	# t: the time of the row 1% from the end (as now() - 7.2 h selects)
	t=$(q -c "SELECT uid_time(id) FROM tfb ORDER BY id DESC OFFSET $((TFN / 100)) LIMIT 1")
	echo "t = $t"
	for ((r = 1; r <= ROUNDS_TF; r++)); do
		for tbl in tfb tfbp; do
			while IFS= read -r c; do
				IFS='|' read -r name base filter <<<"$c"
				# the partitioned copy has no index on u or v
				[ "$tbl" = tfbp ] && [[ "$base" != id* ]] && continue
				[ "$name" = "$base" ] && continue
				stmt=$(tf_statement "$tbl" "$name" "$t")
				bstmt=$(tf_statement "$tbl" "$base" "$t")
				# interleaved with the hand-written form
				for ((k = 1; k <= TF_REPS; k++)); do
					q -c "WITH p AS (SELECT * FROM bench_tf_pair(\$q\$$stmt\$q\$, \$q\$$bstmt\$q\$, $TF_PAIRS))
					      INSERT INTO result
					      SELECT 'tf_$tbl', m.c, 1, $r, m.metric, m.v
					      FROM p, LATERAL (VALUES ('$name', 'ms', p.ms), ('$base', 'ms', p.base_ms),
					                              ('$name', 'x_hand', p.ms / p.base_ms)) m(c, metric, v)"
				done
				# off: the filter as written (fewer runs: some take seconds)
				for ((k = 1; k <= TF_REPS_OFF; k++)); do
					q -c "INSERT INTO result SELECT 'tf_$tbl', '$name', 1, $r, 'ms_off',
					        bench_tf_ms(\$q\$$stmt\$q\$, false)"
				done
				if [ "$r" = 1 ]; then
					q -c "INSERT INTO tf_plan VALUES
					        ('tf_$tbl', '$name', '$base', true, bench_tf_plan(\$q\$$stmt\$q\$, true)),
					        ('tf_$tbl', '$name', '$base', false, bench_tf_plan(\$q\$$stmt\$q\$, false))
					      ON CONFLICT DO NOTHING;
					      INSERT INTO tf_plan VALUES
					        ('tf_$tbl', '$base', '$base', true, bench_tf_plan(\$q\$$bstmt\$q\$, true))
					      ON CONFLICT DO NOTHING"
				fi
			done < <(rotated "$r" "${TF_CANDIDATES[@]}")
		done
	done
}

bench_report_time_filters() {
	local tbl title
	for tbl in tfb tfbp; do
		if [ $tbl = tfb ]; then
			title="$TFN rows, id bigint PRIMARY KEY, u uuid (btree), the last 1% by time"
		else
			title="the same rows partitioned by day on id (32 partitions, primary key on each)"
		fi
		echo
		echo "## Time filters: $title"
		echo
		echo "Each filter runs $ROUNDS_TF x $TF_REPS x $TF_PAIRS times interleaved with the hand-written form on"
		echo "the same column (planning included); ms: median of the means of $TF_PAIRS runs; x_hand: median"
		echo "of the ratios of those means. off: with"
		echo "uid.rewrite_time_filters = off, PostgreSQL's plan for the filter as written"
		echo "($ROUNDS_TF x $TF_REPS_OFF runs). v: the same UUIDs as u in a column declared v7-only."
		echo
		qh -F ' | ' -c "
		  WITH m AS (SELECT candidate, metric, percentile_cont(0.5) WITHIN GROUP (ORDER BY value) AS v
		             FROM result WHERE suite = 'tf_$tbl' GROUP BY 1, 2)
		  SELECT p.candidate AS filter,
		         off.plan AS plan_off, round(moff.v::numeric, 1) AS ms_off,
		         p.plan, round(mon.v::numeric, 1) AS ms,
		         coalesce(round(mx.v::numeric, 2), 1) AS x_hand
		  FROM tf_plan p
		  LEFT JOIN tf_plan off ON off.suite = p.suite AND off.candidate = p.candidate AND NOT off.rewrite
		  JOIN m mon ON mon.candidate = p.candidate AND mon.metric = 'ms'
		  LEFT JOIN m moff ON moff.candidate = p.candidate AND moff.metric = 'ms_off'
		  LEFT JOIN m mx ON mx.candidate = p.candidate AND mx.metric = 'x_hand'
		  WHERE p.suite = 'tf_$tbl' AND p.rewrite
		  ORDER BY p.baseline, p.candidate = p.baseline, p.candidate" | sed 's/^/| /; s/$/ |/' | bench_md_table
	done
}

# The tenure ledger (sql/uid--1.3.sql, "Tenure ledger"): uid_audit() over a
# table of $AUDN uid ids against a sequential scan of the same table
# (count of the column), alternated in every round; uid_whence() per call
# against uid_decode() of the same ids.  The ledger is made by hand in the
# database bench (uid.lease_database of the bench server): 16 worker ids,
# each with a tenure per day over 30 days, the ids spread over them.
bench_tenure() {
	local r c ms
	echo "tenure ledger: $ROUNDS_AUD rounds of uid_audit() over $AUDN rows; uid_whence() x $WHN"
	q -c "SELECT uid_lease_table_sql(current_user)" | q
	q <<SQL
INSERT INTO uid_lease.tenure (worker_id, token, system_identifier, timeline, host, port, started_at, first_ms, last_ms, ended_at, ended_how)
SELECT w, d * 16 + w + 1, 1, 1, 'bench', 5432, now(), 1767225600000 + d::bigint * 86400000, 1767225600000 + (d + 1)::bigint * 86400000 - 1, now(), 'released'
FROM generate_series(0, 15) AS w, generate_series(0, 29) AS d;
CREATE TABLE bench_audit (id bigint);
INSERT INTO bench_audit
SELECT ((g::bigint * 30 * 86400000 / $AUDN) << 22) | ((g % 16) << 12) | (g % 4096)
FROM generate_series(0, $AUDN - 1) AS g;
VACUUM ANALYZE bench_audit;
SQL
	q -c "SELECT pg_size_pretty(pg_total_relation_size('bench_audit'))" | sed 's/^/  table: /'
	record tenure ledger_bytes_per_row 1 1 bytes "(SELECT pg_total_relation_size('uid_lease.tenure')::float8 / count(*) FROM uid_lease.tenure)"
	for ((r = 1; r <= ROUNDS_AUD; r++)); do
		for c in $(rotated "$r" scan audit); do
			case $c in
			scan) ms=$(q -c "SELECT bench_ms('SELECT count(id) FROM bench_audit')") ;;
			audit) ms=$(q -c "SELECT bench_ms('SELECT count(*) FROM uid_audit(''bench_audit'', ''id'')')") ;;
			esac
			record tenure "$c" 1 "$r" ms "$ms"
		done
		for c in $(rotated "$r" decode whence); do
			case $c in
			decode) ms=$(q -c "SELECT bench_ms('SELECT count((SELECT (uid_decode(id)).worker_id)) FROM (SELECT id FROM bench_audit LIMIT $WHN) s')") ;;
			whence) ms=$(q -c "SELECT bench_ms('SELECT count((SELECT count(*) FROM uid_whence(id))) FROM (SELECT id FROM bench_audit LIMIT $WHN) s')") ;;
			esac
			record tenure "$c" 1 "$r" us_per_call "$ms * 1000 / $WHN"
		done
	done
	q -c "SELECT count(*) FROM uid_audit('bench_audit', 'id') WHERE kind <> 'total'" | sed 's/^/  unexplained or future rows (0 expected): /'
}

bench_report_tenure() {
	echo "## Tenure ledger"
	echo
	echo "uid_audit() over $AUDN rows against a sequential scan of the same table (medians of $ROUNDS_AUD rounds);"
	echo "uid_whence() per call against uid_decode() per call (local store, 480 tenures)."
	echo
	bench_md_table <<<"$(qh -c "SELECT a.candidate, round(a.v::numeric, 1) AS value, a.metric,
	    round((a.v / b.v)::numeric, 2) AS ratio
	  FROM med a JOIN med b ON b.suite = a.suite AND b.metric = a.metric
	   AND b.candidate = CASE a.metric WHEN 'ms' THEN 'scan' ELSE 'decode' END
	  WHERE a.suite = 'tenure' AND a.metric IN ('ms', 'us_per_call') ORDER BY a.metric, a.candidate" |
		sed 's/^/| /; s/$/ |/')"
	echo
	echo "Ledger size: $(q -c "SELECT round(v) FROM med WHERE suite = 'tenure' AND metric = 'bytes'") bytes per tenure, with its primary key index."
	echo
}

# The uid type against bigint, as keys filled by uid_next(): $IDN-row
# inserts (and the size of the primary key they build), json_agg() of the
# whole table, and $IDL lookups by an int8 parameter (a PL/pgSQL loop: its
# statement is prepared once, with the parameter typed bigint, as a driver
# sends it).  Besides the elapsed time, the backend's time on the CPU
# (/proc/self/schedstat), which other load on the machine does not inflate.
bench_id_type() {
	local r c t
	echo "id type: $ROUNDS_ID rounds of $IDN rows and $IDL lookups per type"
	bench_times_sql | q
	for c in bigint uid; do
		q -c "CREATE TABLE look_$c (id $c PRIMARY KEY, pad int);
		      INSERT INTO look_$c SELECT 121354151570051072 + g, g FROM generate_series(0, $IDN - 1) g;
		      CREATE FUNCTION look_$c(n int) RETURNS bigint LANGUAGE plpgsql AS \$\$
		      DECLARE k bigint; s bigint := 0; p int;
		      BEGIN
		          FOR i IN 1 .. n LOOP
		              k := 121354151570051072 + (i::bigint * 7919) % $IDN;
		              SELECT pad INTO p FROM look_$c WHERE id = k;
		              s := s + p;
		          END LOOP;
		          RETURN s;
		      END \$\$"
		q -c "VACUUM ANALYZE look_$c"
	done
	for ((r = 1; r <= ROUNDS_ID; r++)); do
		for c in $(rotated "$r" bigint uid); do
			q -c "DROP TABLE IF EXISTS ids_$c; CREATE TABLE ids_$c (id $c PRIMARY KEY DEFAULT uid_next(), pad int); CHECKPOINT"
			bench_id_type_record "$c" "$r" insert "INSERT INTO ids_$c (pad) SELECT g FROM generate_series(1, $IDN) g"
			q -c "VACUUM ANALYZE ids_$c"
			record id_type "$c" 1 "$r" pkey_bytes "(SELECT pg_relation_size('ids_${c}_pkey'))"
		done
		for c in $(rotated "$r" bigint uid); do
			bench_id_type_record "$c" "$r" json_agg "SELECT length(json_agg(t)::text) FROM ids_$c t"
		done
		for c in $(rotated "$r" bigint uid); do
			bench_id_type_record "$c" "$r" lookups "SELECT look_$c($IDL)"
		done
	done
}

# one statement of a suite (bench_id_type, bench_partitions): its wall and
# CPU milliseconds, recorded as <what>_ms and <what>_cpu_ms
bench_suite_record() {
	local suite=$1 c=$2 r=$3 what=$4 stmt=$5 t
	t=$(q -F ' ' -c "SELECT * FROM bench_times('$(sed "s/'/''/g" <<<"$stmt")')")
	record "$suite" "$c" 1 "$r" "${what}_ms" "${t% *}"
	record "$suite" "$c" 1 "$r" "${what}_cpu_ms" "${t#* }"
}
bench_id_type_record() { bench_suite_record id_type "$@"; }

bench_report_id_type() {
	echo "## The uid type against bigint"
	echo
	echo "Keys filled by uid_next(): $IDN-row inserts, the primary key they build, json_agg() of the"
	echo "whole table (two columns: the key and an integer), and $IDL lookups by an int8 parameter (a"
	echo "PL/pgSQL loop: one prepared statement, generic plan, keys 121354151570051072 + 0 .. $IDN - 1)."
	echo "_ms: elapsed; _cpu_ms: the backend's own time on the CPU. Medians of $ROUNDS_ID rounds;"
	echo "ratio = uid / bigint."
	echo
	bench_md_table <<<"$(qh -c "SELECT u.metric, round(b.v::numeric, 1) AS bigint, round(u.v::numeric, 1) AS uid,
	    round((u.v / b.v)::numeric, 3) AS ratio
	  FROM med u JOIN med b ON b.suite = u.suite AND b.metric = u.metric AND b.candidate = 'bigint'
	  WHERE u.suite = 'id_type' AND u.candidate = 'uid' ORDER BY u.metric" |
		sed 's/^/| /; s/$/ |/')"
	echo
}

# the view med: the median of every measurement over the rounds
bench_medians() {
	q -c "CREATE VIEW med AS SELECT suite, candidate, clients, metric,
	          percentile_cont(0.5) WITHIN GROUP (ORDER BY value) AS v, count(*) AS n
	      FROM result GROUP BY 1, 2, 3, 4"
}

bench_report() {
	local out=$1
	bench_medians
	{
	echo "# uid benchmark"
	echo
	echo "$(date -u '+%Y-%m-%d %H:%M UTC'); $(nproc) cores; $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //');"
	echo "PostgreSQL $(q -c 'SHOW server_version'); medians of $ROUNDS rounds (pgbench: $ROUNDS_PGB, inserts: $ROUNDS_INS)."
	echo
	echo "## Per call, one backend ($N calls per statement)"
	echo
	echo "ticket_block_100 is per ticket, taking blocks of 100 with uid_ticket_next_block()."
	echo
	qh -F ' | ' -c "
	  SELECT candidate, round(v::numeric, 1) AS ns_per_call,
	         round((v / (SELECT v FROM med WHERE suite='percall' AND candidate='floor'))::numeric, 2) AS x_floor,
	         round((v / (SELECT v FROM med WHERE suite='percall' AND candidate='nextval'))::numeric, 2) AS x_nextval,
	         round((v / NULLIF((SELECT v FROM med WHERE suite='percall' AND candidate='gen_random_uuid'), 0))::numeric, 2) AS x_gen_random_uuid
	  FROM med WHERE suite = 'percall' ORDER BY v" | sed 's/^/| /; s/$/ |/' | bench_md_table
	echo
	echo "## IDs that leave the database: per call, one backend ($N rows)"
	echo
	echo "Each function runs over a column of an $N-row table; its floor is the same statement"
	echo "returning that column unchanged. above_floor: the function's own cost, ns; x_floor: the"
	echo "statement's time over the floor's; x_uid_next: the cost above the floor over uid_next()'s"
	echo "(over the plain floor). Elapsed time, and (cpu_) the backend's time on the CPU, which"
	echo "other load on the machine does not inflate. Targets: text forms x_floor <= 1.5; masking"
	echo "above_floor <= 400 ns."
	echo
	qh -F ' | ' -c "
	  WITH w AS (SELECT candidate, v FROM med WHERE suite = 'exposing' AND metric = 'ns_per_call'),
	  c AS (SELECT candidate, v FROM med WHERE suite = 'exposing' AND metric = 'cpu_ns_per_call'),
	  n AS (SELECT (SELECT v FROM w WHERE candidate = 'uid_next') - (SELECT v FROM w WHERE candidate = 'floor') AS w_next,
	               (SELECT v FROM c WHERE candidate = 'uid_next') - (SELECT v FROM c WHERE candidate = 'floor') AS c_next)
	  SELECT w.candidate, f.floor, round(w.v::numeric, 1) AS ns_per_call,
	         round((w.v - wf.v)::numeric, 1) AS above_floor,
	         round((w.v / wf.v)::numeric, 2) AS x_floor,
	         round(((w.v - wf.v) / n.w_next)::numeric, 2) AS x_uid_next,
	         round((c.v - cf.v)::numeric, 1) AS cpu_above_floor,
	         round((c.v / cf.v)::numeric, 2) AS cpu_x_floor,
	         round(((c.v - cf.v) / n.c_next)::numeric, 2) AS cpu_x_uid_next
	  FROM w JOIN exposing_floor f ON f.candidate = w.candidate JOIN w wf ON wf.candidate = f.floor
	  JOIN c ON c.candidate = w.candidate JOIN c cf ON cf.candidate = f.floor, n
	  WHERE f.floor <> w.candidate
	  ORDER BY f.floor, w.v" | sed 's/^/| /; s/$/ |/' | bench_md_table
	echo
	bench_report_bulk_cap
	echo
	echo "## pgbench: \`SELECT <fn>;\`, ${PGB_T}s runs, -M prepared, tps"
	echo
	qh -F ' | ' -c "
	  SELECT m.candidate, m.clients, round(m.v::numeric, 0) AS tps,
	         round((m.v / f.v)::numeric, 3) AS x_floor_tps
	  FROM med m JOIN med f ON f.suite = 'pgbench' AND f.candidate = 'floor' AND f.clients = m.clients
	  WHERE m.suite = 'pgbench' ORDER BY m.clients, m.v DESC" | sed 's/^/| /; s/$/ |/' | bench_md_table
	echo
	echo "## Inserts: $INSN rows into a table whose primary key defaults to each"
	echo
	qh -F ' | ' -c "
	  SELECT t.candidate, round(t.v::numeric, 0) AS ms,
	         round((t.v / b.v)::numeric, 3) AS x_bigserial_time,
	         round((t.v / NULLIF(g.v, 0))::numeric, 3) AS x_gen_random_uuid_time,
	         round(s.v::numeric, 1) AS index_mb, round(d.v::numeric, 1) AS leaf_density
	  FROM med t
	  JOIN med b ON b.suite = 'insert' AND b.candidate = 'bigserial' AND b.metric = 'ms'
	  LEFT JOIN med g ON g.suite = 'insert' AND g.candidate = 'gen_random_uuid' AND g.metric = 'ms'
	  JOIN med s ON s.suite = 'insert' AND s.candidate = t.candidate AND s.metric = 'index_mb'
	  JOIN med d ON d.suite = 'insert' AND d.candidate = t.candidate AND d.metric = 'leaf_density'
	  WHERE t.suite = 'insert' AND t.metric = 'ms' ORDER BY t.v" | sed 's/^/| /; s/$/ |/' | bench_md_table
	echo
	echo "## Durability: per million calls (one statement)"
	echo
	qh -F ' | ' -c "
	  SELECT candidate,
	         round(max(v) FILTER (WHERE metric = 'wal_bytes_per_M')::numeric, 0) AS wal_bytes,
	         round(max(v) FILTER (WHERE metric = 'wal_syncs_per_M')::numeric, 1) AS wal_fsyncs,
	         round(max(v) FILTER (WHERE metric = 'hwm_fsyncs_per_M')::numeric, 1) AS uid_hwm_fsyncs
	  FROM med WHERE suite = 'durability' GROUP BY candidate ORDER BY candidate" |
		sed 's/^/| /; s/$/ |/' | bench_md_table
	bench_report_time_filters
	echo
	bench_report_adopt
	echo
	bench_report_tenure
	bench_report_id_type
	bench_report_partitions
	echo
	bench_report_managed
	echo
	bench_report_wal_floor
	} | tee "$out/report.md"
	q -c "\copy result TO '$out/results.csv' WITH (FORMAT csv, HEADER)"
}

# psql's unaligned output with a header row -> a Markdown table
bench_md_table() {
	awk 'NR == 1 { print; n = split($0, a, "|"); s = "|"; for (i = 2; i < n; i++) s = s "---|"; print s; next } { print }'
}

bench_plots() {
	local out=$1
	command -v gnuplot >/dev/null || { echo "(gnuplot not installed: no plots)"; return 0; }
	q -F ' ' -c "SELECT candidate, clients, v FROM med WHERE suite = 'pgbench' ORDER BY candidate, clients" |
		awk 'BEGIN { p = "" } { if ($1 != p && p != "") print "\n"; if ($1 != p) print "# " $1; p = $1; print $2, $3 }' \
		>"$out/pgbench.dat"
	local names
	names=$(q -c "SELECT string_agg(DISTINCT candidate, ' ' ORDER BY candidate) FROM med WHERE suite = 'pgbench'")
	gnuplot <<GP
set terminal png size 800,500 noenhanced
set output '$out/pgbench.png'
set title 'pgbench SELECT <fn> (-M prepared): tps by clients'
set xlabel 'clients'; set ylabel 'tps'; set key right bottom; set logscale x 2
set xrange [0.8:10]; set yrange [0:*]
set xtics ("1" 1, "2" 2, "8" 8)
plot for [i=0:$(( $(wc -w <<<"$names") - 1 ))] '$out/pgbench.dat' index i using 1:2 with linespoints title word('$names', i+1)
GP
	q -F ' ' -c "SELECT candidate, v FROM med WHERE suite = 'insert' AND metric = 'index_mb' ORDER BY v" >"$out/index.dat"
	gnuplot <<GP
set terminal png size 800,500 noenhanced
set output '$out/index_size.png'
set title 'primary key index size after $INSN inserts (MB)'
set style fill solid; set boxwidth 0.6; set yrange [0:*]
plot '$out/index.dat' using 0:2:xtic(1) with boxes notitle
GP
}

# One suite alone (bench_<suite>, then bench_report_<suite>), its report in
# $out/report.md and its measurements in $out/results.csv.
bench_one_suite() {
	local title=$1 suite=$2
	"bench_$suite"
	bench_medians
	echo
	{
	echo "# uid benchmark: $title"
	echo
	echo "$(date -u '+%Y-%m-%d %H:%M UTC'); $(nproc) cores; $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //');"
	echo "PostgreSQL $(q -c 'SHOW server_version'); load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)."
	echo
	"bench_report_$suite"
	} | tee "$out/report.md"
	q -c "\\copy result TO '$out/results.csv' WITH (FORMAT csv, HEADER)"
}

bench_main() {
	ROUNDS=7 N=1000000 CAPN=4096000 PGB_T=5 ROUNDS_PGB=3 ROUNDS_INS=3 INSN=1000000 DURN=1000000
	TFN=2000000 ROUNDS_TF=5 TF_REPS=4 TF_PAIRS=10 TF_REPS_OFF=2
	ADOPT_SIZES=(10000 1000000 10000000) ROUNDS_ADOPT=7 ROUNDS_ADOPT_PGB=6 ADOPT_PGB_T=4 PLANN=100000
	AUDN=10000000 ROUNDS_AUD=3 WHN=2000 IDN=1000000 IDL=200000 ROUNDS_ID=5
	WALN=10000000 WALSECS=10
	PARTN=1000000 ROUNDS_PART=5 PART_Q=500
	MGN=200000 ROUNDS_MG=3 MG_PGB_T=5 MGINSN=1000000
	# --quick, also after the name of one suite (--adopt --quick)
	if [[ " $* " == *" --quick "* ]]; then
		ROUNDS=3 N=200000 PGB_T=2 ROUNDS_PGB=1 ROUNDS_INS=1 INSN=200000 DURN=200000
		ROUNDS_TF=2 TF_REPS=2 TF_PAIRS=5 TF_REPS_OFF=1
		ADOPT_SIZES=(10000 1000000) ROUNDS_ADOPT=3 ROUNDS_ADOPT_PGB=2 ADOPT_PGB_T=2 PLANN=20000
		AUDN=1000000 ROUNDS_AUD=2 WHN=500 IDN=200000 IDL=50000 ROUNDS_ID=2
		WALN=3000000 WALSECS=3
		PARTN=200000 ROUNDS_PART=2 PART_Q=100
		MGN=50000 ROUNDS_MG=1 MG_PGB_T=2 MGINSN=100000
	fi
	local out="$top/bench/out"
	mkdir -p "$out"
	bench_start_server
	# one suite alone: --bulk-cap, --adopt, --tenure, --time-filters, --id-type, --wal, --partitions,
	# --managed
	case "${1:-}" in
	--bulk-cap) bench_one_suite "bulk generation" bulk_cap; return ;;
	--adopt) bench_one_suite "adoption" adopt; return ;;
	--tenure) bench_one_suite "tenure ledger" tenure; return ;;
	--time-filters) bench_one_suite "time filters" time_filters; return ;;
	--id-type) bench_one_suite "the uid type" id_type; return ;;
	--wal) bench_one_suite "issued time in the WAL" wal_floor; return ;;
	--partitions) bench_one_suite "partitions by the time in the IDs" partitions; return ;;
	--managed) bench_one_suite "the managed edition" managed; return ;;
	esac
	bench_percall
	bench_ticket_blocks
	bench_exposing
	bench_bulk_cap
	bench_pgbench
	bench_inserts
	bench_durability
	bench_time_filters
	bench_adopt
	bench_tenure
	bench_id_type
	bench_partitions
	bench_managed
	bench_wal_floor
	echo
	bench_report "$out"
	bench_plots "$out"
}
