# The partitions suite (uid_partitions_maintain(), docs/partitioning.md);
# sourced by bench/run.sh after bench/lib.sh.  Two measurements, ratios
# only:
#   inserts  PARTN rows of uid_next() into a uid table partitioned by day
#            (the partitions of uid_partitions_maintain()), the same table
#            unpartitioned, and a bigserial table partitioned by day on a
#            timestamptz column (its key (id, created_at))
#   filter   the rows of one hour out of PARTN rows over 30 days, in a
#            bigint table partitioned by day: the natural filter
#            uid_time(id) >= t AND uid_time(id) < t + 1 hour against the
#            hand-written range id >= uid_first_at(t) AND id < uid_first_at(t + 1 hour);
#            PART_Q queries of hours spread over the 30 days, planned each
#            time (EXECUTE ... USING), so that planning and pruning count

bench_partitions() {
	local r c stmt
	echo "partitions: $ROUNDS_PART rounds of $PARTN-row inserts and $PART_Q one-hour queries"
	bench_times_sql | q
	q <<SQL
CREATE TABLE tf_part (id bigint PRIMARY KEY, pad int) PARTITION BY RANGE (id);
SELECT count(*) FROM uid_partitions_maintain('tf_part', ahead => 30, at_time => '2026-03-01');
INSERT INTO tf_part SELECT uid_from_time('2026-03-01'::timestamptz + (g::float8 / $PARTN) * interval '30 days') + g % 4096, g
FROM generate_series(0, $PARTN - 1) g;
VACUUM ANALYZE tf_part;
CREATE FUNCTION part_q(as_written boolean, n int) RETURNS bigint LANGUAGE plpgsql AS \$\$
DECLARE s bigint := 0; c bigint; t timestamptz;
BEGIN
    FOR i IN 1 .. n LOOP
        t := '2026-03-01'::timestamptz + ((i * 37) % 719) * interval '1 hour';
        IF as_written THEN
            EXECUTE 'SELECT count(*) FROM tf_part WHERE uid_time(id) >= \$1 AND uid_time(id) < \$1 + interval ''1 hour''' INTO c USING t;
        ELSE
            EXECUTE 'SELECT count(*) FROM tf_part WHERE id >= uid_first_at(\$1) AND id < uid_first_at(\$1 + interval ''1 hour'')' INTO c USING t;
        END IF;
        s := s + c;
    END LOOP;
    RETURN s;
END \$\$;
SQL
	for ((r = 1; r <= ROUNDS_PART; r++)); do
		for c in $(rotated "$r" uid_daily uid_plain ts_daily); do
			case $c in
			uid_daily) q -c "DROP TABLE IF EXISTS p_$c; CREATE TABLE p_$c (id uid PRIMARY KEY DEFAULT uid_next(), pad int) PARTITION BY RANGE (id);
			                 SELECT count(*) FROM uid_partitions_maintain('p_$c', ahead => 2, at_time => now() - interval '1 day')" >/dev/null ;;
			uid_plain) q -c "DROP TABLE IF EXISTS p_$c; CREATE TABLE p_$c (id uid PRIMARY KEY DEFAULT uid_next(), pad int)" ;;
			ts_daily) q -c "DROP TABLE IF EXISTS p_$c; CREATE TABLE p_$c (id bigserial, created_at timestamptz NOT NULL DEFAULT now(), pad int,
			                   PRIMARY KEY (id, created_at)) PARTITION BY RANGE (created_at);
			                 DO \$\$ BEGIN FOR k IN -1 .. 1 LOOP
			                     EXECUTE format('CREATE TABLE p_ts_daily_%s PARTITION OF p_ts_daily FOR VALUES FROM (%L) TO (%L)',
			                                    k + 1, date_trunc('day', now(), 'UTC') + k * interval '1 day',
			                                    date_trunc('day', now(), 'UTC') + (k + 1) * interval '1 day');
			                 END LOOP; END \$\$" >/dev/null ;;
			esac
			q -c "CHECKPOINT"
			bench_suite_record partitions "$c" "$r" insert "INSERT INTO p_$c (pad) SELECT g FROM generate_series(1, $PARTN) g"
		done
		for c in $(rotated "$r" natural hand); do
			bench_suite_record partitions "$c" "$r" hour_queries "SELECT part_q($([ "$c" = natural ] && echo true || echo false), $PART_Q)"
		done
	done
	q -c "SELECT part_q(true, 50) = part_q(false, 50)" | grep -qx t ||
		{ echo "bench: the natural and hand-written filters disagree" >&2; return 1; }
}

bench_report_partitions() {
	echo "## Partitions by the time in the IDs"
	echo
	echo "Inserts of $PARTN rows of uid_next() into a uid table partitioned by day (uid_partitions_maintain()),"
	echo "the same table unpartitioned, and a bigserial table partitioned by day on a timestamptz"
	echo "column (key (id, created_at)); ratio = candidate / unpartitioned. Then $PART_Q queries of one hour"
	echo "out of $PARTN rows over 30 days (daily partitions, bigint key): the natural filter on uid_time(id)"
	echo "against the hand-written range on id; ratio = natural / hand-written. Medians of $ROUNDS_PART rounds;"
	echo "_ms: elapsed, _cpu_ms: the backend's time on the CPU."
	echo
	bench_md_table <<<"$(qh -c "SELECT u.candidate, u.metric, round((u.v / b.v)::numeric, 3) AS ratio
	  FROM med u JOIN med b ON b.suite = u.suite AND b.metric = u.metric
	   AND b.candidate = CASE WHEN u.metric LIKE 'insert%' THEN 'uid_plain' ELSE 'hand' END
	  WHERE u.suite = 'partitions' AND u.candidate IN ('uid_daily', 'ts_daily', 'natural')
	  ORDER BY u.metric, u.candidate" |
		sed 's/^/| /; s/$/ |/')"
	echo
}
