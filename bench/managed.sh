# The managed edition suite (uid_managed, managed/, docs/managed.md); sourced
# by bench/run.sh after bench/lib.sh.  On the bench server, where uid is
# loaded, uid_managed is installed as its plain script twice: into schema
# um with worker id 2 (uid's is 1), and into um0 with none (then every call
# of um0.uid_next() checks for publications and subscriptions).  Candidates,
# alternated in every round:
#   per call   SELECT count(f) FROM (SELECT <fn> AS f FROM generate_series(1, MGN)) s
#              (MGN / 4 for um0.uid_next()): gen_random_uuid(), uuidv7() where
#              PostgreSQL has it (18), nextval(), uid's uid_next() and uuid7(),
#              uid_managed's uid_next() and uuid7(); elapsed and the backend's
#              time on the CPU
#   pgbench    SELECT <fn>; with 8 clients, -M prepared, MG_PGB_T seconds each
#   inserts    MGINSN rows into a table whose primary key defaults to each:
#              time and the size of the primary key's index
# Reported against gen_random_uuid() and nextval() (bigserial for inserts)
# of the same run.

# name | expression | primary key column definition (none: not inserted)
MG_CANDIDATES=(
	"nextval|nextval('bench_seq')|id bigserial PRIMARY KEY"
	"gen_random_uuid|gen_random_uuid()|id uuid PRIMARY KEY DEFAULT gen_random_uuid()"
	"uuidv7 (PostgreSQL)|pg_catalog.uuidv7()|id uuid PRIMARY KEY DEFAULT pg_catalog.uuidv7()"
	"uid uid_next|public.uid_next()|id bigint PRIMARY KEY DEFAULT public.uid_next()"
	"uid uuid7|public.uuid7()|id uuid PRIMARY KEY DEFAULT public.uuid7()"
	"uid_managed uid_next|um.uid_next()|id bigint PRIMARY KEY DEFAULT um.uid_next()"
	"uid_managed uuid7|um.uuid7()|id uuid PRIMARY KEY DEFAULT um.uuid7()"
	"uid_managed uid_next, no worker id|um0.uid_next()|"
)

bench_managed_setup() {
	local d
	d=$(mktemp -d)
	bash "$top/managed/build.sh" "$d" >/dev/null
	q -v schema=um -f "$d/uid_managed--1.0.sql" >/dev/null
	q -v schema=um0 -f "$d/uid_managed--1.0.sql" >/dev/null
	rm -rf "$d"
	q -c "SELECT um.uid_managed_set_worker_id(2)" >/dev/null
	bench_times_sql | q
	HAVE_UUIDV7=$(q -c "SELECT count(*) FROM pg_proc WHERE proname = 'uuidv7' AND pronamespace = 'pg_catalog'::regnamespace AND pronargs = 0")
}

# Whether candidate $1 runs on this server.
bench_managed_have() { [[ "$1" != uuidv7* ]] || [ "$HAVE_UUIDV7" != 0 ]; }

bench_managed() {
	local r c name expr col n t tps f
	echo "managed: $ROUNDS_MG rounds of $MGN calls, ${MG_PGB_T}s of pgbench with 8 clients and $MGINSN-row inserts per candidate"
	bench_managed_setup
	f=$(mktemp)
	for ((r = 1; r <= ROUNDS_MG; r++)); do
		while IFS= read -r c; do
			IFS='|' read -r name expr _ <<<"$c"
			bench_managed_have "$name" || continue
			n=$MGN
			[[ "$name" = *"no worker id" ]] && n=$((MGN / 4))
			t=$(q -F ' ' -c "SELECT * FROM bench_times('SELECT count(f) FROM (SELECT $(sed "s/'/''/g" <<<"$expr") AS f FROM generate_series(1, $n)) s')")
			record managed "$name" 1 "$r" ns_per_call "${t% *} * 1e6 / $n"
			record managed "$name" 1 "$r" cpu_ns_per_call "${t#* } * 1e6 / $n"
		done < <(rotated "$r" "${MG_CANDIDATES[@]}")
		while IFS= read -r c; do
			IFS='|' read -r name expr _ <<<"$c"
			bench_managed_have "$name" || continue
			echo "SELECT $expr;" >"$f"
			tps=$(pgbench -n -M prepared -c 8 -j 8 -T "$MG_PGB_T" -f "$f" bench 2>/dev/null |
				sed -n 's/^tps = \([0-9.]*\) (without initial connection time)/\1/p')
			record managed "$name" 8 "$r" tps "${tps:-0}"
		done < <(rotated "$r" "${MG_CANDIDATES[@]}")
		while IFS= read -r c; do
			IFS='|' read -r name _ col <<<"$c"
			bench_managed_have "$name" && [ -n "$col" ] || continue
			q -c "DROP TABLE IF EXISTS mg_ins; CREATE TABLE mg_ins ($col, pad int); CHECKPOINT"
			record managed "$name" 1 "$r" insert_ms \
				"$(q -c "SELECT bench_ms('INSERT INTO mg_ins (pad) SELECT g FROM generate_series(1, $MGINSN) g')")"
			q -c "INSERT INTO result SELECT 'managed', '$name', 1, $r, 'index_mb', pg_relation_size('mg_ins_pkey') / 1048576.0"
		done < <(rotated "$r" "${MG_CANDIDATES[@]}")
	done
	q -c "DROP TABLE IF EXISTS mg_ins"
	rm -f "$f"
}

bench_report_managed() {
	echo "## The managed edition (uid_managed) against the built-ins and uid"
	echo
	echo "uid loaded (uid.worker_id = 1); uid_managed installed as its plain script into schema um"
	echo "(worker id 2) and um0 (none: each call checks for publications and subscriptions)."
	echo "Medians of $ROUNDS_MG rounds, the candidates alternated in each. x_gen_random_uuid, x_nextval:"
	echo "the candidate's time over theirs, or their tps over the candidate's: above 1 is slower."
	echo
	echo "Per call: $MGN calls in one statement ($((MGN / 4)) for um0); elapsed, and (cpu_) the"
	echo "backend's time on the CPU, which other load on the machine does not inflate."
	echo
	bench_managed_table "'ns_per_call', 'cpu_ns_per_call'" 0
	echo
	echo "pgbench: SELECT <fn>; 8 clients, -M prepared, ${MG_PGB_T}s per round."
	echo
	bench_managed_table "'tps'" 0
	echo
	echo "Inserts: $MGINSN rows, the primary key defaulting to each (nextval: bigserial); index_mb:"
	echo "the primary key's size."
	echo
	bench_managed_table "'insert_ms', 'index_mb'" 1
	echo
	echo "Targets of the managed edition (read off the tables; nothing here fails): per call and"
	echo "inserts at most gen_random_uuid()'s time (x_gen_random_uuid <= 1) with bigint's index size"
	echo "(uid_managed uid_next's index_mb = nextval's); 8-client pgbench at least half of nextval()'s"
	echo "tps (x_nextval <= 2)."
}

# One table of the report: each metric of $1 (SQL literals), its ratios to
# gen_random_uuid() and nextval(), rounded to $2 decimals.
bench_managed_table() {
	bench_md_table <<<"$(qh -F ' | ' -c "
	  WITH m AS (SELECT candidate, metric, v FROM med WHERE suite = 'managed' AND metric IN ($1))
	  SELECT m.metric, m.candidate, round(m.v::numeric, $2) AS value,
	         round((CASE WHEN m.metric = 'tps' THEN g.v / m.v ELSE m.v / g.v END)::numeric, 2) AS x_gen_random_uuid,
	         round((CASE WHEN m.metric = 'tps' THEN n.v / m.v ELSE m.v / n.v END)::numeric, 2) AS x_nextval
	  FROM m JOIN m g ON g.metric = m.metric AND g.candidate = 'gen_random_uuid'
	  JOIN m n ON n.metric = m.metric AND n.candidate = 'nextval'
	  ORDER BY m.metric, CASE WHEN m.metric = 'tps' THEN -m.v ELSE m.v END" |
		sed 's/^/| /; s/$/ |/')"
}
