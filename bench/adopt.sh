# The adoption suite (uid_adopt(), src/tables/adopt.c); sourced by bench/run.sh
# after bench/lib.sh.  Databases besides bench, each with uid installed:
#   adopt_none  no sequence adopted (the planner hook's one check finds
#               nothing)
#   adopt_on    the sequences adopted_seq and adopted_seq50 adopted (every
#               planned statement is searched for sequence calls)
#   adopt_a, adopt_b  pgbench's tables; in every round one of them has its
#               sequence toggle_seq adopted and the other not, in turn, so
#               that what tells the two databases apart cancels out
#   adopt_size  tables of ADOPT_SIZES rows that are adopted and unadopted
# Measurements are recorded in bench's result table like every other suite.

ADOPT_DBS=(adopt_none adopt_on adopt_a adopt_b)

qd() { local db=$1; shift; psql -X -q -At -v ON_ERROR_STOP=1 -d "$db" "$@"; }

# record_times suite candidate round metric factor db statement: runs the
# statement in the database with bench_times() and records both times
# (metric and cpu_metric), each multiplied by factor.
record_times() {
	local t stmt=${7//\'/\'\'}
	t=$(qd "$6" -F ' ' -c "SELECT * FROM bench_times('$stmt')")
	record "$1" "$2" 1 "$3" "$4" "${t% *} * $5"
	record "$1" "$2" 1 "$3" "cpu_$4" "${t#* } * $5"
}

# What every adoption database holds: uid, a plain sequence, bench_times()
# and bench_planned().
bench_adopt_setup() {
	local db
	for db in "${ADOPT_DBS[@]}" adopt_size; do
		createdb "$db"
		qd "$db" <<'SQL'
CREATE EXTENSION uid;
CREATE SEQUENCE plain_seq;
-- n statements each parsed and planned anew (EXECUTE keeps no plan):
-- pgbench -S's query, without the client
CREATE FUNCTION bench_planned(n int) RETURNS void LANGUAGE plpgsql AS $$
DECLARE b int;
BEGIN
    FOR i IN 1..n LOOP
        EXECUTE 'SELECT abalance FROM pgbench_accounts WHERE aid = $1' INTO b USING 1 + i % 100000;
    END LOOP;
END $$;
SQL
		bench_times_sql | qd "$db"
	done
	for db in adopt_a adopt_b; do
		pgbench -i -q -s 1 "$db" >/dev/null 2>&1
		qd "$db" -c "CREATE SEQUENCE toggle_seq"
	done
	qd adopt_on >/dev/null <<'SQL'
CREATE SEQUENCE adopted_seq;
CREATE SEQUENCE adopted_seq50 INCREMENT 50;
SELECT count(*) FROM uid_adopt('adopted_seq');
SELECT count(*) FROM uid_adopt('adopted_seq50');
SQL
}

# 1. uid_adopt() and uid_unadopt() of a bigserial primary key, by row count.
bench_adopt_size() {
	local n r c ms
	echo "adopt by size: tables of ${ADOPT_SIZES[*]} rows"
	for n in "${ADOPT_SIZES[@]}"; do
		# the rows first, the key after: the fast way to build a big table
		qd adopt_size <<SQL
CREATE TABLE t$n (id bigserial, pad int NOT NULL DEFAULT 0);
INSERT INTO t$n (id) SELECT g FROM generate_series(1, $n) g;
SELECT setval('t${n}_id_seq', $n) \\g /dev/null
ALTER TABLE t$n ADD PRIMARY KEY (id);
VACUUM ANALYZE t$n;
SQL
	done
	for ((r = 1; r <= ROUNDS_ADOPT; r++)); do
		while IFS= read -r n; do
			# each in a session of its own, as an operator runs it
			record_times adopt_size "$n" "$r" adopt_ms 1 adopt_size "SELECT count(*) FROM uid_adopt('t$n')"
			record_times adopt_size "$n" "$r" unadopt_ms 1 adopt_size "SELECT count(*) FROM uid_unadopt('t$n')"
		done < <(rotated "$r" "${ADOPT_SIZES[@]}")
	done
	# check: the largest table took new IDs while adopted
	c=$(qd adopt_size -c "SELECT count(*) FROM uid_adopt('t${ADOPT_SIZES[-1]}')" \
		-c "INSERT INTO t${ADOPT_SIZES[-1]} DEFAULT VALUES RETURNING (id > ${ADOPT_SIZES[-1]})::int")
	[ "${c##*$'\n'}" = 1 ] || { echo "adopted table did not take a uid ID" >&2; return 1; }
	qd adopt_size -c "SELECT count(*) FROM uid_unadopt('t${ADOPT_SIZES[-1]}')" >/dev/null
}

# 2 and 3c. Per call, one backend: database | candidate | expression | calls
ADOPT_PERCALL=(
	"adopt_on|uid_next|uid_next()|1"
	"adopt_on|nextval(adopted)|nextval('adopted_seq')|1"
	"adopt_on|nextval(adopted, INCREMENT 50)|nextval('adopted_seq50')|100"
	"adopt_on|nextval(plain)|nextval('plain_seq')|1"
	"adopt_none|nextval(plain)|nextval('plain_seq')|1"
	"adopt_none|uid_next|uid_next()|1"
)

bench_adopt_percall() {
	local r c db name expr div n
	echo "adopt per call: $ROUNDS rounds of $N calls each (N / 100 with INCREMENT 50)"
	for ((r = 1; r <= ROUNDS; r++)); do
		while IFS= read -r c; do
			IFS='|' read -r db name expr div <<<"$c"
			# INCREMENT 50 reserves 100 IDs a call: as many IDs as the others
			n=$((N / div))
			record_times adopt_percall "$db/$name" "$r" ns_per_call "1e6 / $n" "$db" \
				"SELECT count(f) FROM (SELECT $expr AS f FROM generate_series(1, $n)) s"
		done < <(rotated "$r" "${ADOPT_PERCALL[@]}")
	done
}

# 3. Statements that use no sequence: pgbench -S, -M prepared (planned
# once) and -M simple (planned every time, so the hook searches every
# statement), and the same query planned anew $PLANN times in the server;
# in adopt_a and adopt_b, one of them adopted in each round (candidate
# adopt_on), the other not (adopt_none).
bench_adopt_overhead() {
	local r c on off kind mode db tps
	local cands=()
	for kind in adopt_none adopt_on; do
		for mode in simple prepared planned; do cands+=("$kind|$mode"); done
	done
	echo "adopt overhead: $ROUNDS_ADOPT_PGB rounds of ${ADOPT_PGB_T}s pgbench -S and $PLANN statements planned in the server, per database"
	for ((r = 1; r <= ROUNDS_ADOPT_PGB; r++)); do
		on=adopt_a off=adopt_b
		[ $((r % 2)) = 0 ] && on=adopt_b off=adopt_a
		[ "$r" = 1 ] || qd "$off" -c "SELECT count(*) FROM uid_unadopt('toggle_seq')" >/dev/null
		qd "$on" -c "SELECT count(*) FROM uid_adopt('toggle_seq')" >/dev/null
		while IFS= read -r c; do
			IFS='|' read -r kind mode <<<"$c"
			db=$off
			[ "$kind" = adopt_on ] && db=$on
			if [ "$mode" = planned ]; then
				record_times adopt_planned "$kind" "$r" ns_per_stmt "1e6 / $PLANN" "$db" "SELECT bench_planned($PLANN)"
				continue
			fi
			tps=$(pgbench -n -S -M "$mode" -c 1 -j 1 -T "$ADOPT_PGB_T" "$db" 2>/dev/null |
				sed -n 's/^tps = \([0-9.]*\) (without initial connection time)/\1/p')
			record adopt_pgbench "$kind" 1 "$r" "tps_$mode" "${tps:-0}"
		done < <(rotated "$r" "${cands[@]}")
	done
}

bench_adopt() {
	bench_adopt_setup
	bench_adopt_size
	bench_adopt_percall
	bench_adopt_overhead
	qd bench -c "DROP DATABASE adopt_size" 2>/dev/null || dropdb adopt_size
}

bench_report_adopt() {
	local small=${ADOPT_SIZES[0]}
	echo "## Adoption: uid_adopt() by table size"
	echo
	echo "A bigserial primary key of each size adopted and unadopted $ROUNDS_ADOPT times (sizes"
	echo "alternated), each call in a session of its own; ms elapsed and (cpu_) on the"
	echo "backend's CPU; x_$small: the median over the median for $small rows. Target: adopt x_$small about 1 (max(id) is read through the"
	echo "index, the rest is metadata)."
	echo
	qh -F ' | ' -c "
	  WITH m AS (SELECT candidate::bigint AS n, metric, v FROM med WHERE suite = 'adopt_size')
	  SELECT m.n AS rows_, m.metric, round(m.v::numeric, 1) AS ms,
	         round((m.v / b.v)::numeric, 2) AS x_$small
	  FROM m JOIN m b ON b.n = $small AND b.metric = m.metric
	  ORDER BY m.metric, m.n" | sed 's/^/| /; s/$/ |/; s/rows_/rows/' | bench_md_table
	echo
	echo "## Adoption: per call, one backend ($N calls; INCREMENT 50: $((N / 100)) calls, 100 IDs each)"
	echo
	echo "adopt_on: a database with adopted sequences (nextval() goes through"
	echo "uid_sequence_nextval(), which hands a plain sequence to PostgreSQL's nextval());"
	echo "adopt_none: a database without; x_uid_next: over uid_next() in the same database,"
	echo "x_plain_none: over a plain nextval() where nothing is adopted; elapsed and (cpu_)"
	echo "on the backend's CPU. Targets: adopted nextval x_uid_next <= 1.2;"
	echo "adopt_on/nextval(plain) x_plain_none: what the detour costs a plain sequence."
	echo
	qh -F ' | ' -c "
	  SELECT m.candidate, round(m.v::numeric, 1) AS ns_per_call,
	         round((m.v / CASE WHEN m.candidate LIKE '%INCREMENT 50%' THEN 100 ELSE 1 END)::numeric, 1) AS ns_per_id,
	         round((m.v / u.v)::numeric, 2) AS x_uid_next,
	         round((m.v / p.v)::numeric, 2) AS x_plain_none,
	         round(c.v::numeric, 1) AS cpu_ns_per_call,
	         round((c.v / cu.v)::numeric, 2) AS cpu_x_uid_next,
	         round((c.v / cp.v)::numeric, 2) AS cpu_x_plain_none
	  FROM med m
	  JOIN med u ON u.suite = m.suite AND u.metric = m.metric AND u.candidate = split_part(m.candidate, '/', 1) || '/uid_next'
	  JOIN med p ON p.suite = m.suite AND p.metric = m.metric AND p.candidate = 'adopt_none/nextval(plain)'
	  JOIN med c ON c.suite = m.suite AND c.metric = 'cpu_' || m.metric AND c.candidate = m.candidate
	  JOIN med cu ON cu.suite = m.suite AND cu.metric = c.metric AND cu.candidate = u.candidate
	  JOIN med cp ON cp.suite = m.suite AND cp.metric = c.metric AND cp.candidate = p.candidate
	  WHERE m.suite = 'adopt_percall' AND m.metric = 'ns_per_call' ORDER BY m.candidate" | sed 's/^/| /; s/$/ |/' | bench_md_table
	echo
	echo "## Adoption: statements that use no sequence"
	echo
	echo "Two databases alike, one of them with an adopted sequence in each round (adopt_on),"
	echo "the other not (adopt_none), in turn; $ROUNDS_ADOPT_PGB rounds. pgbench -S, 1 client, ${ADOPT_PGB_T}s runs"
	echo "alternated, tps; planned: pgbench -S's query parsed and planned anew $PLANN times in"
	echo "the server, ns per statement elapsed and (cpu_) on the backend's CPU. x_none: the cost (time, or 1/tps) over the database without adoption."
	echo "Target: x_none <= 1.01."
	echo
	qh -F ' | ' -c "
	  SELECT m.candidate AS database, m.metric,
	         round(m.v::numeric, 1) AS value,
	         round((CASE WHEN m.metric LIKE 'tps%' THEN b.v / m.v ELSE m.v / b.v END)::numeric, 3) AS x_none
	  FROM med m JOIN med b ON b.suite = m.suite AND b.metric = m.metric AND b.candidate = 'adopt_none'
	  WHERE m.suite IN ('adopt_pgbench', 'adopt_planned')
	  ORDER BY m.metric, m.candidate DESC" | sed 's/^/| /; s/$/ |/' | bench_md_table
}
