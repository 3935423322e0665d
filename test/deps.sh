#!/usr/bin/env bash
# Installs the Debian 12 packages that building and testing uid need: the
# PostgreSQL 15 server and headers, pgTAP, pglogical (TAP 131), the Perl test modules,
# libfaketime, postgres_exporter (TAP 100), the engines the lease store tests
# run (Patroni, etcd, pgbouncer), the clients of adopted sequences (TAP 120:
# Hibernate with the JDBC driver and a JDK, PHP PDO, Perl DBD::Pg), spin for
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
	default-jdk-headless php-cli php-pgsql libdbd-pg-perl
