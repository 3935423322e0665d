# The adoption suite (uid_adopt(), src/adopt.c); sourced by bench/run.sh
# after bench/lib.sh.  Three databases besides bench:
#   adopt_none  uid installed, no sequence adopted (the planner hook's one
#               check finds nothing)
#   adopt_on    uid installed and the sequence adopted_seq adopted (every
#               planned statement is searched for sequence calls)
#   adopt_size  tables of ADOPT_SIZES rows that are adopted and unadopted
# Measurements are recorded in bench's result table like every other suite.

ADOPT_DBS=(adopt_none adopt_on)

qd() { local db=$1; shift; psql -X -q -At -v ON_ERROR_STOP=1 -d "$db" "$@"; }

# What every adoption database holds: uid, pgbench's tables (scale 1), a
# plain sequence, and bench_ms() and bench_planned_ms().
bench_adopt_setup() {
	local db
	for db in "${ADOPT_DBS[@]}" adopt_size; do
		createdb "$db"
		qd "$db" <<'SQL'
CREATE EXTENSION uid;
CREATE SEQUENCE plain_seq;
CREATE FUNCTION bench_ms(stmt text) RETURNS float8 LANGUAGE plpgsql AS $$
DECLARE t0 timestamptz;
BEGIN
    t0 := clock_timestamp();
    EXECUTE stmt;
    RETURN extract(epoch FROM clock_timestamp() - t0) * 1000;
END $$;
-- ms elapsed and ms on the CPU (/proc/self/schedstat, which other load on
-- the machine does not inflate) of n statements each parsed and planned
-- anew (EXECUTE keeps no plan): pgbench -S's query, without the client
CREATE FUNCTION bench_planned(n int, OUT wall_ms float8, OUT cpu_ms float8)
LANGUAGE plpgsql AS $$
DECLARE t0 timestamptz; c0 bigint; b int;
BEGIN
    c0 := split_part(pg_read_file('/proc/self/schedstat'), ' ', 1)::bigint;
    t0 := clock_timestamp();
    FOR i IN 1..n LOOP
        EXECUTE 'SELECT abalance FROM pgbench_accounts WHERE aid = $1' INTO b USING 1 + i % 100000;
    END LOOP;
    wall_ms := extract(epoch FROM clock_timestamp() - t0) * 1000;
    cpu_ms := (split_part(pg_read_file('/proc/self/schedstat'), ' ', 1)::bigint - c0) / 1e6;
END $$;
SQL
	done
	for db in "${ADOPT_DBS[@]}"; do
		pgbench -i -q -s 1 "$db" >/dev/null 2>&1
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
SELECT setval('t${n}_id_seq', $n);
ALTER TABLE t$n ADD PRIMARY KEY (id);
VACUUM ANALYZE t$n;
SQL
	done
	for ((r = 1; r <= ROUNDS_ADOPT; r++)); do
		while IFS= read -r n; do
			# each in a session of its own, as an operator runs it
			ms=$(qd adopt_size -c "SELECT bench_ms('SELECT count(*) FROM uid_adopt(''t$n'')')")
			record adopt_size "$n" 1 "$r" adopt_ms "$ms"
			ms=$(qd adopt_size -c "SELECT bench_ms('SELECT count(*) FROM uid_unadopt(''t$n'')')")
			record adopt_size "$n" 1 "$r" unadopt_ms "$ms"
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
	local r c db name expr div n ms
	echo "adopt per call: $ROUNDS rounds of $N calls each (N / 100 with INCREMENT 50)"
	for ((r = 1; r <= ROUNDS; r++)); do
		while IFS= read -r c; do
			IFS='|' read -r db name expr div <<<"$c"
			# INCREMENT 50 reserves 100 IDs a call: as many IDs as the others
			n=$((N / div))
			ms=$(qd "$db" -c "SELECT bench_ms('SELECT count(f) FROM (SELECT $(sed "s/'/''/g" <<<"$expr") AS f FROM generate_series(1, $n)) s')")
			record adopt_percall "$db/$name" 1 "$r" ns_per_call "$ms * 1e6 / $n"
		done < <(rotated "$r" "${ADOPT_PERCALL[@]}")
	done
}

# 3. Statements that use no sequence: pgbench -S in each database, -M
# prepared (planned once) and -M simple (planned every time, so the hook
# searches every statement), and the same query planned anew in the server.
bench_adopt_overhead() {
	local r c db mode tps t
	local cands=()
	for db in "${ADOPT_DBS[@]}"; do
		for mode in simple prepared; do cands+=("$db|$mode"); done
	done
	echo "adopt overhead: $ROUNDS_ADOPT_PGB rounds of ${ADOPT_PGB_T}s pgbench -S per database and mode"
	for ((r = 1; r <= ROUNDS_ADOPT_PGB; r++)); do
		while IFS= read -r c; do
			IFS='|' read -r db mode <<<"$c"
			tps=$(pgbench -n -S -M "$mode" -c 1 -j 1 -T "$ADOPT_PGB_T" "$db" 2>/dev/null |
				sed -n 's/^tps = \([0-9.]*\) (without initial connection time)/\1/p')
			record adopt_pgbench "$db" 1 "$r" "tps_$mode" "${tps:-0}"
		done < <(rotated "$r" "${cands[@]}")
	done
	echo "adopt overhead: $ROUNDS rounds of $PLANN statements planned in the server"
	for ((r = 1; r <= ROUNDS; r++)); do
		while IFS= read -r db; do
			# one untimed run: a new session reads the catalogs first
			t=$(qd "$db" -F ' ' -c "SELECT * FROM bench_planned(100)" -c "SELECT * FROM bench_planned($PLANN)" | tail -1)
			record adopt_planned "$db" 1 "$r" ns_per_stmt "${t% *} * 1e6 / $PLANN"
			record adopt_planned "$db" 1 "$r" cpu_ns_per_stmt "${t#* } * 1e6 / $PLANN"
		done < <(rotated "$r" "${ADOPT_DBS[@]}")
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
	echo "alternated), each call in a session of its own; x_$small: the median over the"
	echo "median for $small rows. Target: adopt x_$small about 1 (max(id) is read through the"
	echo "index, the rest is metadata)."
	echo
	qh -F ' | ' -c "
	  SELECT a.candidate::bigint AS rows_, round(a.v::numeric, 1) AS adopt_ms,
	         round((a.v / a0.v)::numeric, 2) AS adopt_x_$small,
	         round(u.v::numeric, 1) AS unadopt_ms,
	         round((u.v / u0.v)::numeric, 2) AS unadopt_x_$small
	  FROM med a
	  JOIN med u ON u.suite = 'adopt_size' AND u.candidate = a.candidate AND u.metric = 'unadopt_ms'
	  JOIN med a0 ON a0.suite = 'adopt_size' AND a0.candidate = '$small' AND a0.metric = 'adopt_ms'
	  JOIN med u0 ON u0.suite = 'adopt_size' AND u0.candidate = '$small' AND u0.metric = 'unadopt_ms'
	  WHERE a.suite = 'adopt_size' AND a.metric = 'adopt_ms'
	  ORDER BY 1" | sed 's/^/| /; s/$/ |/; s/rows_/rows/' | bench_md_table
	echo
	echo "## Adoption: per call, one backend ($N calls; INCREMENT 50: $((N / 100)) calls, 100 IDs each)"
	echo
	echo "adopt_on: a database with adopted sequences (nextval() goes through"
	echo "uid_sequence_nextval(), which hands a plain sequence to PostgreSQL's nextval());"
	echo "adopt_none: a database without. Targets: adopted nextval x_uid_next <= 1.2;"
	echo "adopt_on/nextval(plain) x_plain_here: what the detour costs a plain sequence."
	echo
	qh -F ' | ' -c "
	  SELECT m.candidate, round(m.v::numeric, 1) AS ns_per_call,
	         round((m.v / CASE WHEN m.candidate LIKE '%INCREMENT 50%' THEN 100 ELSE 1 END)::numeric, 1) AS ns_per_id,
	         round((m.v / u.v)::numeric, 2) AS x_uid_next,
	         round((m.v / p.v)::numeric, 2) AS x_plain_here
	  FROM med m
	  JOIN med u ON u.suite = 'adopt_percall' AND u.candidate = split_part(m.candidate, '/', 1) || '/uid_next'
	  JOIN med p ON p.suite = 'adopt_percall' AND p.candidate = 'adopt_none/nextval(plain)'
	  WHERE m.suite = 'adopt_percall' ORDER BY m.candidate" | sed 's/^/| /; s/$/ |/' | bench_md_table
	echo
	echo "## Adoption: statements that use no sequence"
	echo
	echo "pgbench -S, 1 client, ${ADOPT_PGB_T}s runs alternated ($ROUNDS_ADOPT_PGB rounds), tps; planned:"
	echo "pgbench -S's query parsed and planned anew $PLANN times in the server, ns per statement"
	echo "elapsed and (cpu_) on the backend's CPU ($ROUNDS rounds). x_none: the cost (time, or 1/tps) over the database without adoption."
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
