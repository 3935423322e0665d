#!/usr/bin/env bash
# Installs the Debian 12 packages uid needs, in two sets:
#
#   bash test/deps.sh demo   what building uid and starting a server need
#                            (test/demo.sh): the PostgreSQL 15 server and
#                            headers, the C tool chain, the OpenSSL headers
#   bash test/deps.sh        that and what the tests need (test/run.sh,
#                            .ci/run): pgTAP, pglogical (TAP 131), the Perl
#                            test modules, libfaketime, postgres_exporter
#                            and sudo (TAP 100, with test/exporter.sh),
#                            the engines the lease store tests run
#                            (Patroni, etcd, pgbouncer), the clients of
#                            adopted sequences (TAP 120: Hibernate with the
#                            JDBC driver and a JDK, PHP PDO, Perl DBD::Pg) and
#                            of the uid type (TAP 121: those, node-postgres
#                            and psycopg2; TAP 122, the clients that type a
#                            column by its OID: asyncpg with SQLAlchemy,
#                            psycopg 3, Go's pgx v4 and lib/pq, ActiveRecord
#                            6.1, ruby-pg, PgJDBC, Rust's tokio-postgres),
#                            spin for the lease model
#                            (test/model), what test/build-pg.sh needs to
#                            build PostgreSQL 16 to 19 from source (bison,
#                            flex, zlib headers), and what
#                            test/build-citus.sh needs to build Citus (lz4
#                            and zstd headers)
#
# Needs root.  Safe to run again.
set -euo pipefail
PG_MAJOR=${PG_MAJOR:-15}
if [ "$(id -u)" != 0 ]; then
	echo "test/deps.sh: run as root (or with sudo) to install packages" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
demo_packages=(build-essential ca-certificates
	"postgresql-$PG_MAJOR" "postgresql-server-dev-$PG_MAJOR" libssl-dev)
case "${1:-all}" in
demo | all) ;;
*)
	echo "usage: bash test/deps.sh [demo]" >&2
	exit 2
	;;
esac
apt-get update -q
if [ "${1:-all}" = demo ]; then
	apt-get install -y -q --no-install-recommends "${demo_packages[@]}"
	exit 0
fi
apt-get install -y -q --no-install-recommends "${demo_packages[@]}" \
	postgresql-contrib \
	"postgresql-$PG_MAJOR-pgtap" "postgresql-$PG_MAJOR-pglogical" libtap-parser-sourcehandler-pgtap-perl \
	"postgresql-$PG_MAJOR-cron" "postgresql-$PG_MAJOR-partman" \
	libipc-run-perl faketime libfaketime prometheus-postgres-exporter \
	bison flex zlib1g-dev xz-utils liblz4-dev libzstd-dev libkrb5-dev \
	patroni python3-etcd etcd-server pgbouncer spin \
	libhibernate3-java libjavassist-java libslf4j-java libpostgresql-jdbc-java \
	default-jdk-headless php-cli php-pgsql libdbd-pg-perl \
	nodejs python3-psycopg2 \
	python3-asyncpg python3-sqlalchemy python3-psycopg \
	golang-go golang-github-jackc-pgx-v4-dev golang-github-lib-pq-dev \
	ruby-activerecord ruby-pg \
	cargo rustc librust-tokio-postgres-dev librust-tokio-dev sudo
# TAP 122 keeps its Go and Rust builds (and their build caches) here, keyed by the
# source's checksum, for the test's user: a clone's first run builds it
install -d -o postgres -g postgres /var/cache/uid-clients
# TAP 100 runs postgres_exporter as Debian's service does, as the OS user
# prometheus (peer authentication over the Unix socket).  The test runs as
# postgres, which may run one root-owned script as prometheus and nothing
# else: test/exporter.sh, which checks its arguments and starts the exporter
# with an environment and arguments of its own (its header says why).  The
# rule has no SETENV (sudo's env_reset stays in force): the rule of earlier
# versions, which let the caller pass LD_PRELOAD to the exporter, is removed.
rm -f /etc/sudoers.d/uid-test-exporter
install -d -o root -g root -m 0755 /usr/local/lib/uid-test
install -o root -g root -m 0755 "$(dirname "${BASH_SOURCE[0]}")/exporter.sh" /usr/local/lib/uid-test/exporter
rule=$(mktemp)
echo 'postgres ALL=(prometheus) NOPASSWD: /usr/local/lib/uid-test/exporter' >"$rule"
visudo -c -q -f "$rule"
install -o root -g root -m 0440 "$rule" /etc/sudoers.d/uid-test-prometheus
rm -f "$rule"
# and no sudoers file that names uid lets the caller keep or set its
# environment
for f in /etc/sudoers.d/*; do
	if grep -q uid "$f" && grep -qE 'SETENV|env_keep|!env_reset' "$f"; then
		echo "test/deps.sh: $f lets the caller pass its environment to a command of uid's tests" >&2
		exit 1
	fi
done
# node-postgres (TAP 121): Debian's node-pg, which needs Debian's nodejs;
# where another nodejs is installed (NodeSource's, which Debian's node-*
# packages do not accept), npm's pg into /var/cache/uid-npm, where the test
# looks too
if apt-get install -s -q --no-install-recommends node-pg >/dev/null 2>&1; then
	apt-get install -y -q --no-install-recommends node-pg
elif ! NODE_PATH=/var/cache/uid-npm/node_modules node -e 'require("pg")' 2>/dev/null; then
	command -v npm >/dev/null || apt-get install -y -q --no-install-recommends npm
	npm install --prefix /var/cache/uid-npm --no-audit --no-fund pg@8
fi
