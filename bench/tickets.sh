#!/bin/bash
# Tickets/counters micro-benchmark (draft by the "tickets" helper; the lead may
# move it to bench/).  Run against a THROWAWAY server that preloads uid:
#   PGHOST=... PGPORT=... bash doc-drafts/tickets_bench.sh
# It drops and recreates the database "uid_tickets_bench".  Candidates
# alternate within each round; the medians of 5 rounds are printed.
set -euo pipefail
DB=uid_tickets_bench
P="psql -X -q -At -v ON_ERROR_STOP=1"
$P -d postgres -c "DROP DATABASE IF EXISTS $DB" -c "CREATE DATABASE $DB"
$P -d $DB >/dev/null <<'SQL'
CREATE EXTENSION uid;
CREATE SEQUENCE plain_seq;
SELECT uid_ticket_create('t', 1, 2);
SELECT uid_ticket_create('tb', 1, 2, 100);
CREATE FUNCTION bench(q text, n int) RETURNS float8 LANGUAGE plpgsql AS $$
DECLARE t0 timestamptz;
BEGIN t0 := clock_timestamp(); EXECUTE q;
      RETURN extract(epoch FROM clock_timestamp() - t0) * 1e9 / n; END $$;
SQL
N=200000
declare -A Q=(
  [floor]="SELECT count(x) FROM generate_series(1,$N) x"
  [nextval]="SELECT count(nextval('plain_seq')) FROM generate_series(1,$N)"
  [ticket_nextval_c]="SELECT count(uid_ticket._nextval('uid_ticket.t')) FROM generate_series(1,$N)"
  [uid_ticket_next]="SELECT count(uid_ticket_next('t')) FROM generate_series(1,$N)"
  [uid_ticket_next_block100]="SELECT count((uid_ticket_next_block('tb')).first) FROM generate_series(1,$N)")
names="floor nextval ticket_nextval_c uid_ticket_next uid_ticket_next_block100"
tmp=$(mktemp -d)
for r in 1 2 3 4 5; do
  for k in $names; do
    echo "$k $($P -d $DB -c "SELECT round(bench(\$q\$${Q[$k]}\$q\$, $N)::numeric, 1)")"
  done
done > $tmp/loop
echo "== ns per call in one backend ($N calls in one statement), median of 5"
for k in $names; do
  printf "%-26s %s\n" $k "$(awk -v k=$k '$1==k {print $2}' $tmp/loop | sort -n | sed -n 3p)"
done
echo "SELECT nextval('plain_seq');" > $tmp/nextval.sql
echo "SELECT uid_ticket_next('t');" > $tmp/ticket.sql
echo "SELECT * FROM uid_ticket_next_block('tb');" > $tmp/block.sql
echo "SELECT uid_counter_next('tenant' || (random() * 1000)::int, 'REQ');" > $tmp/counter_keys.sql
echo "SELECT uid_counter_next('acme', 'ONE');" > $tmp/counter_one.sql
jobs="nextval ticket block counter_keys counter_one"
for r in 1 2 3 4 5; do
  for c in 1 8; do
    for k in $jobs; do
      echo "$k $c $(pgbench -n -T 5 -c $c -j $c -f $tmp/$k.sql $DB 2>/dev/null | grep -oP 'tps = \K[0-9.]+' | head -1)"
    done
  done
done > $tmp/pgb
echo "== pgbench tps, one call per transaction, median of 5 rounds of 5 s"
for c in 1 8; do for k in $jobs; do
  printf "%-14s clients=%s %s\n" $k $c "$(awk -v k=$k -v c=$c '$1==k && $2==c {print $3}' $tmp/pgb | sort -n | sed -n 3p)"
done; done
rm -rf $tmp
