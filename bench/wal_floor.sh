# The WAL suite (issued time in the WAL, src/floor/wal_floor.c); sourced by
# bench/run.sh after bench/lib.sh.  A streaming standby of the bench server
# is started for it (WALSTANDBY), named in synchronous_standby_names; a
# session's synchronous_commit says whether its reservations wait for it
# (on) or not (local).  Candidates, alternated in every round:
#   wal_off    uid.wal_reservations = off: uid.hwm only, as before 1.4
#   wal_on     records written and flushed locally (no standby waited for)
#   wal_sync   records written, flushed and waited for on the standby
# each at the default reserve window (1 s: what a reservation costs per ID
# at work) and at the smallest (10 ms: a reservation every 5 ms, so that
# the cost per reservation can be read off).  Then the WAL volume: uid's
# records and all WAL, over a few seconds of uid_next() at the cap and of
# single-row inserts at a steady rate.

WALSTANDBY=

wal_candidates=(wal_off wal_on wal_sync)

# Sets a sighup setting on the bench server and waits until a new session sees it.
bench_wal_set() {
	q -c "ALTER SYSTEM SET $1 = '$2'" -c "SELECT pg_reload_conf()" >/dev/null
	until [ "$(q -c "SELECT setting FROM pg_settings WHERE name = '$1'")" = "$2" ]; do :; done
}

bench_wal_standby() {
	WALSTANDBY=$B/standby
	pg_basebackup -D "$WALSTANDBY" -R -X stream -c fast >/dev/null
	cat >>"$WALSTANDBY/postgresql.conf" <<CONF
port = 5433
unix_socket_directories = '$B'
synchronous_standby_names = ''
CONF
	pg_ctl -D "$WALSTANDBY" -l "$B/standby.log" -w start >/dev/null
	trap 'pg_ctl -D "$WALSTANDBY" -m immediate stop >/dev/null 2>&1 || true; pg_ctl -D "$B/data" -m immediate stop >/dev/null 2>&1 || true; rm -rf "$B"' EXIT
	bench_wal_set synchronous_standby_names '*'
	until [ "$(q -c "SELECT count(*) FROM pg_stat_replication WHERE sync_state = 'sync'")" = 1 ]; do :; done
}

# ns per uid_next() for one candidate, and the reservations it made (uid's
# records in the WAL of the run; for wal_off, which writes none, those of
# wal_on at the same window, read by the report).
bench_wal_percall() {	# candidate window round
	local sc=on
	[ "$1" = wal_on ] && sc=local
	q >/dev/null <<SQL
SET synchronous_commit = $sc;
SELECT pg_current_wal_insert_lsn() AS l0 \gset
SELECT bench_ms('SELECT count(f) FROM (SELECT uid_next() AS f FROM generate_series(1, $WALN)) s') AS ms \gset
SELECT pg_current_wal_flush_lsn() AS l1 \gset
INSERT INTO result
SELECT 'wal', '$1/$2', 1, $3, 'ns_per_id', :ms * 1e6 / $WALN
UNION ALL SELECT 'wal', '$1/$2', 1, $3, 'ms', :ms
UNION ALL SELECT 'wal', '$1/$2', 1, $3, 'reservations',
  CASE WHEN :'l1'::pg_lsn > :'l0'::pg_lsn
       THEN (SELECT count(*) FROM pg_get_wal_records_info(:'l0', :'l1') WHERE resource_manager = 'uid')
       ELSE 0 END;
SQL
}

# WAL volume over WALSECS seconds: all WAL and uid's records (pg_walinspect).
bench_wal_volume() {	# what statement-per-loop
	q >/dev/null <<SQL
SET synchronous_commit = local;
SELECT pg_current_wal_insert_lsn() AS l0 \gset
DO \$\$
DECLARE t1 timestamptz := clock_timestamp() + interval '$WALSECS seconds';
BEGIN
    WHILE clock_timestamp() < t1 LOOP
        $2;
    END LOOP;
END \$\$;
SELECT pg_current_wal_insert_lsn() AS l1 \gset
INSERT INTO result
SELECT 'wal_volume', '$1', 1, 1, 'all_bytes_per_hour', pg_wal_lsn_diff(:'l1', :'l0') * 3600 / $WALSECS
UNION ALL
SELECT 'wal_volume', '$1', 1, 1, 'uid_bytes_per_hour', coalesce(sum(record_length), 0) * 3600 / $WALSECS
FROM pg_get_wal_records_info(:'l0', :'l1') WHERE resource_manager = 'uid'
UNION ALL
SELECT 'wal_volume', '$1', 1, 1, 'uid_record_bytes', max(record_length)
FROM pg_get_wal_records_info(:'l0', :'l1') WHERE resource_manager = 'uid';
SQL
}

bench_wal_floor() {
	local r c w
	q -c "CREATE EXTENSION IF NOT EXISTS pg_walinspect" \
	  -c "CREATE TABLE IF NOT EXISTS wal_rows (id bigint PRIMARY KEY, pad int)" >/dev/null
	bench_wal_standby
	echo "wal: $ROUNDS rounds of $WALN calls per candidate and window"
	for ((r = 1; r <= ROUNDS; r++)); do
		for w in 1000 10; do
			bench_wal_set uid.reserve_window_ms "$w"
			while IFS= read -r c; do
				if [ "$c" = wal_off ]; then bench_wal_set uid.wal_reservations off; else bench_wal_set uid.wal_reservations on; fi
				bench_wal_percall "$c" "$w" "$r"
			done < <(rotated "$r" "${wal_candidates[@]}")
		done
	done
	bench_wal_set uid.reserve_window_ms 1000
	bench_wal_set uid.wal_reservations on
	echo "wal volume: ${WALSECS}s each"
	bench_wal_volume "uid_next() at the cap" "PERFORM count(uid_next()) FROM generate_series(1, 4096)"
	bench_wal_volume "INSERT of one row with uid_next(), steady" \
		"INSERT INTO wal_rows VALUES (uid_next(), 0); PERFORM pg_sleep(0.001)"
}

bench_report_wal_floor() {
	echo "## Issued time in the WAL: cost per ID and per reservation"
	echo
	echo "ns per uid_next() over $WALN calls in one statement (median of $ROUNDS rounds),"
	echo "at the default reserve window (1000 ms) and at 10 ms; wal_off writes uid.hwm only,"
	echo "wal_on also a flushed WAL record per reservation, wal_sync also waits for a local"
	echo "streaming standby to flush it. per_reservation_us: the extra time over wal_off,"
	echo "divided by the reservations made."
	echo
	qh -F ' | ' -c "
	  SELECT t.candidate, round(t.v::numeric, 1) AS ns_per_id,
	         round((t.v / o.v)::numeric, 3) AS ratio_to_wal_off,
	         round(n.v::numeric, 0) AS reservations,
	         CASE WHEN t.candidate LIKE 'wal_off/%' THEN NULL
	              ELSE round(((m.v - om.v) * 1000 / greatest(n.v, 1))::numeric, 1) END AS per_reservation_us
	  FROM med t
	  JOIN med o ON o.suite = 'wal' AND o.metric = 'ns_per_id'
	       AND o.candidate = 'wal_off/' || split_part(t.candidate, '/', 2)
	  JOIN med n ON n.suite = 'wal' AND n.metric = 'reservations'
	       AND n.candidate = replace(t.candidate, 'wal_off/', 'wal_on/')
	  JOIN med m ON m.suite = 'wal' AND m.metric = 'ms' AND m.candidate = t.candidate
	  JOIN med om ON om.suite = 'wal' AND om.metric = 'ms' AND om.candidate = o.candidate
	  WHERE t.suite = 'wal' AND t.metric = 'ns_per_id'
	  ORDER BY split_part(t.candidate, '/', 2)::int DESC, t.candidate" |
		sed 's/^/| /; s/$/ |/' | bench_md_table
	echo
	echo "## Issued time in the WAL: volume (${WALSECS} s of each load, per hour)"
	echo
	qh -F ' | ' -c "
	  SELECT a.candidate AS load, round(a.v / 1048576) AS all_wal_mb_per_hour,
	         round((u.v / 1048576)::numeric, 2) AS uid_records_mb_per_hour,
	         round((100 * u.v / nullif(a.v, 0))::numeric, 3) AS uid_pct,
	         s.v AS record_bytes
	  FROM med a
	  JOIN med u ON u.suite = 'wal_volume' AND u.metric = 'uid_bytes_per_hour' AND u.candidate = a.candidate
	  JOIN med s ON s.suite = 'wal_volume' AND s.metric = 'uid_record_bytes' AND s.candidate = a.candidate
	  WHERE a.suite = 'wal_volume' AND a.metric = 'all_bytes_per_hour'
	  ORDER BY 1" |
		sed 's/^/| /; s/$/ |/' | bench_md_table
}
