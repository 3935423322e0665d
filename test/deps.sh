#!/usr/bin/env bash
# Installs the Debian 12 packages that building and testing uid need: the
# PostgreSQL 15 server and headers, pgTAP, pglogical (TAP 131), the Perl test modules,
# libfaketime, postgres_exporter and sudo (TAP 100), the engines the lease store tests
# run (Patroni, etcd, pgbouncer), the clients of adopted sequences (TAP 120:
# Hibernate with the JDBC driver and a JDK, PHP PDO, Perl DBD::Pg) and of
# the uid type (TAP 121: those, node-postgres and psycopg2), spin for
# the lease model (test/model), and
# what test/build-pg.sh needs to build PostgreSQL 16 to 19 from source
# (bison, flex, OpenSSL and zlib headers), and what test/build-citus.sh needs
# to build Citus (lz4 and zstd headers).  Needs root.  Safe to run again.
set -euo pipefail
PG_MAJOR=${PG_MAJOR:-15}
if [ "$(id -u)" != 0 ]; then
	echo "test/deps.sh: run as root (sudo) to install packages" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q --no-install-recommends \
	build-essential ca-certificates \
	"postgresql-$PG_MAJOR" "postgresql-server-dev-$PG_MAJOR" postgresql-contrib libssl-dev \
	"postgresql-$PG_MAJOR-pgtap" "postgresql-$PG_MAJOR-pglogical" libtap-parser-sourcehandler-pgtap-perl \
	libipc-run-perl faketime libfaketime prometheus-postgres-exporter \
	bison flex zlib1g-dev xz-utils liblz4-dev libzstd-dev \
	patroni python3-etcd etcd-server pgbouncer spin \
	libhibernate3-java libjavassist-java libslf4j-java libpostgresql-jdbc-java \
	default-jdk-headless php-cli php-pgsql libdbd-pg-perl \
	nodejs python3-psycopg2 sudo
# TAP 100 runs postgres_exporter as Debian's service does, as the OS user
# prometheus (peer authentication over the Unix socket): the test runs as
# postgres, which may start that one program as prometheus and nothing else
cat >/etc/sudoers.d/uid-test-exporter <<'SUDOERS'
postgres ALL=(prometheus) NOPASSWD:SETENV: /usr/bin/prometheus-postgres-exporter
SUDOERS
chmod 0440 /etc/sudoers.d/uid-test-exporter
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
