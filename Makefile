# uid: PGXS build.  `make && make install`, then `make installcheck`;
# test/run.sh runs every suite against a private install (see README).

EXTENSION   = uid
MODULE_big  = uid
OBJS = \
	src/uid.o \
	src/pq_wait.o \
	src/id_layout.o \
	src/core/preload.o \
	src/core/raise.o \
	src/core/refused_settings.o \
	src/core/generator.o \
	src/core/topology.o \
	src/core/clock.o \
	src/core/wal_removal.o \
	src/core/stats.o \
	src/core/stats_sql.o \
	src/core/random.o \
	src/core/uuid7.o \
	src/core/catalog.o \
	src/core/advance_past_uid.o \
	src/floor/floor.o \
	src/floor/hwm.o \
	src/floor/wal_floor.o \
	src/floor/primary_watch.o \
	src/lease/lease.o \
	src/lease/lease_settings.o \
	src/lease/lease_worker.o \
	src/lease/lease_conn.o \
	src/lease/lease_store.o \
	src/lease/lease_failure.o \
	src/lease/tenure.o \
	src/forms/layout.o \
	src/forms/text_forms.o \
	src/forms/id_type.o \
	src/forms/typeid.o \
	src/forms/decode_text.o \
	src/forms/ff1.o \
	src/forms/decode.o \
	src/forms/mask.o \
	src/tables/tickets.o \
	src/tables/counters.o \
	src/tables/time_filter.o \
	src/tables/adopt.o \
	src/tables/audit.o \
	src/tables/owner_read.o \
	src/tables/owner_ddl.o \
	src/tables/owner_ddl_1_3.o \
	src/tables/partitions.o

# CREATE EXTENSION uid runs the install script of default_version
# (uid.control) alone: sql/uid--1.5.sql, built from the parts in sql/parts/,
# one per C file whose functions it declares and named after it
# (test/unit/sql_parts.sh), in the order below (a part may use the objects
# of the parts before it), so that it is complete on its own and each
# object is written once.  The upgrade from 1.4 is built from what
# changes in place (sql/parts/from-1.4.sql) and the parts whose objects are
# new or replaced in 1.5 (UID_UPGRADE_1_4_PARTS; those parts write every
# function and view as CREATE OR REPLACE).  The scripts of released
# versions stay as they shipped (DATA), for ALTER EXTENSION uid UPDATE from
# 1.0 to 1.4 and CREATE EXTENSION uid VERSION '1.0', '1.2', '1.3' or '1.4'; how a
# release is cut: docs/development.md ("Cutting a release").
UID_PARTS = header preload generator operator_families id_type id_type_comment time_filter layout \
	uuid7 lease ticket_tables counter_schema counter_span counter_tables raise tickets counters \
	stats_sql stats_view text_forms mask typeid decode_text owner_read adopt owner_ddl audit tenure \
	tenure_overlaps catch_up advance_past_uid name_guard name_guard_trigger default_guard wal_removal partitions
UID_UPGRADE_1_4_PARTS = from-1.4 partitions
DATA        = sql/uid--1.0.sql sql/uid--1.0--1.1.sql sql/uid--1.1--1.2.sql sql/uid--1.2.sql \
	sql/uid--1.2--1.3.sql sql/uid--1.3.sql sql/uid--1.3--1.4.sql sql/uid--1.4.sql
DATA_built  = sql/uid--1.5.sql sql/uid--1.4--1.5.sql

# pg_regress: every sql/*.sql that is not an install or upgrade script.
REGRESS      = $(sort $(notdir $(basename $(filter-out sql/$(EXTENSION)--%,$(wildcard sql/*.sql)))))
# The test database is UTF8 with the C locale (and the temporary server's
# locale C), whatever the machine's: the expected output does not depend on it.
REGRESS_OPTS = --temp-instance=tmp_check --temp-config=test/uid_test.conf \
	--load-extension=$(EXTENSION) --encoding=UTF8 --no-locale

# Isolation specs live in test/isolation/{specs,expected}.
ISOLATION      = $(sort $(notdir $(basename $(wildcard test/isolation/specs/*.spec))))
ISOLATION_OPTS = --inputdir=test/isolation --temp-instance=tmp_check_iso \
	--temp-config=test/uid_test.conf --load-extension=$(EXTENSION) \
	--encoding=UTF8 --no-locale

# Perl TAP tests (PostgreSQL::Test::Cluster) live in test/t.  They take
# minutes; "TAP_TESTS= make installcheck" (as with "pgxn check") runs
# pg_regress and the isolation specs only.
TAP_TESTS  ?= 1
PROVE_TESTS = $(sort $(wildcard test/t/*.pl))
PROVE_FLAGS = -I test/t

PG_CPPFLAGS = -I$(srcdir)/src
# libpq, for the lease worker's remote store (as contrib/dblink does)
PG_CPPFLAGS += -I$(libpq_srcdir)
SHLIB_LINK_INTERNAL += $(libpq)
# AES from OpenSSL's libcrypto, for uid_mask() and uuid7_mask() (src/forms/ff1.c)
SHLIB_LINK += -lcrypto
# -Wno-unused-parameter: fmgr functions and GUC hooks take arguments they may not use.
PG_CFLAGS   = -Wall -Wextra -Werror -Wno-unused-parameter

EXTRA_CLEAN = tmp_install tmp_upgrade_from_* tmp_summary tmp_suite_*.log

# uid-decode: the command that reads IDs without a server
# (tools/uid-decode/), built from the decoding code the extension links
# (src/id_layout.c, src/forms/decode.c), installed into the server's bindir; its manual page
# goes to the server's manual directory (pg_config --mandir).  Below,
# "make install" also links both where a shell and man(1) look.
SCRIPTS_built = uid-decode
UID_VERSION := $(shell sed -n "s/^default_version *= *'\(.*\)'/\1/p" $(dir $(firstword $(MAKEFILE_LIST)))uid.control)

PG_CONFIG ?= pg_config
PGXS := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)

# PGXS tracks header dependencies only in a server built with
# --enable-depend: the compiler writes each object's list of headers
# (src/*/*.d, -MMD) as it builds it, with an empty rule per header (-MP) so
# that removing a header breaks nothing.  For the objects only: the bitcode
# and the programs without a server are built from the same sources.
$(OBJS): override CPPFLAGS += -MMD -MP
-include $(OBJS:.o=.d)
EXTRA_CLEAN += $(OBJS:.o=.d)

.PHONY: test
test:
	bash test/run.sh

# uid_managed, the edition in SQL and PL/pgSQL for servers that load no C
# extension (docs/managed.md): the plain script and the pg_tle install.
.PHONY: managed
managed: managed/build/uid_managed--1.0.sql managed/build/uid_managed_pgtle.sql
managed/build/uid_managed--1.0.sql managed/build/uid_managed_pgtle.sql &: managed/uid_managed.sql.in managed/build.sh
	bash managed/build.sh

# One suite at a time (test/run.sh runs them all against a private install
# by passing bindir=...).
sql/uid--1.5.sql: $(UID_PARTS:%=sql/parts/%.sql)
	cat $^ >$@
sql/uid--1.4--1.5.sql: $(UID_UPGRADE_1_4_PARTS:%=sql/parts/%.sql)
	cat $^ >$@

# Programs without a server (-DFRONTEND): uid-decode and the unit tests.
# PostgreSQL's libpgcommon and libpgport give them its snprintf and
# byte-order helpers.
FRONTEND_LIBS = $(LDFLAGS) -L$(pkglibdir) -L$(libdir) -lpgcommon -lpgport -lcrypto -lm

UID_DECODE_SRCS = src/id_layout.c src/forms/decode.c src/forms/ff1.c
UID_DECODE_HDRS = src/id_layout.h src/forms/decode.h src/forms/ff1.h
uid-decode: tools/uid-decode/uid_decode.c $(UID_DECODE_SRCS) $(UID_DECODE_HDRS) uid.control
	$(CC) $(CFLAGS) -DFRONTEND -DUID_VERSION='"$(UID_VERSION)"' $(CPPFLAGS) -o $@ \
		tools/uid-decode/uid_decode.c $(UID_DECODE_SRCS) $(FRONTEND_LIBS)

# The unit tests (test/unit/) need no server.
test/unit/ff1_test: test/unit/ff1_test.c test/unit/unit_tap.h src/forms/ff1.c src/forms/ff1.h
	$(CC) $(CFLAGS) -DFRONTEND $(CPPFLAGS) -o $@ test/unit/ff1_test.c src/forms/ff1.c $(FRONTEND_LIBS)
test/unit/decode_test: test/unit/decode_test.c test/unit/unit_tap.h $(UID_DECODE_SRCS) $(UID_DECODE_HDRS)
	$(CC) $(CFLAGS) -DFRONTEND $(CPPFLAGS) -o $@ test/unit/decode_test.c $(UID_DECODE_SRCS) $(FRONTEND_LIBS)
EXTRA_CLEAN += test/unit/ff1_test test/unit/decode_test

.PHONY: check-unit
check-unit: test/unit/ff1_test test/unit/decode_test uid-decode $(OBJS) $(DATA_built)
	test/unit/ff1_test
	test/unit/decode_test
	bash test/unit/uid_decode_test.sh ./uid-decode
	bash test/unit/install_links.sh '$(PG_CONFIG)'
	bash test/unit/meta_test.sh
	bash test/unit/file_graph.sh $(OBJS)
	bash test/unit/header_names.sh $(OBJS)
	bash test/unit/source_map.sh
	bash test/unit/guarantees_tap.sh
	bash test/unit/metrics_table.sh
	bash test/unit/sql_operators.sh
	bash test/unit/sql_parts.sh $(OBJS)
	bash test/unit/error_table.sh '$(PG_CONFIG)'
	bash test/unit/doc_tables.sh

# The PGXN release: uid-<version>.zip, the committed tree of HEAD (git
# archive) with the built install and upgrade scripts, once META.json
# agrees with uid.control.
UID_DIST = uid-$(shell sed -n 's/.*"version": *"\([^"]*\)".*/\1/p' META.json | head -n 1)
.PHONY: dist
dist: $(DATA_built)
	bash test/unit/meta_test.sh >/dev/null || { bash test/unit/meta_test.sh | grep '^not ok'; exit 1; }
	rm -rf tmp_dist $(UID_DIST).zip && mkdir tmp_dist
	git archive --format=tar --prefix=$(UID_DIST)/ HEAD | tar -C tmp_dist -xf -
	cp $(DATA_built) tmp_dist/$(UID_DIST)/sql/
	cd tmp_dist && zip -qrX ../$(UID_DIST).zip $(UID_DIST)
	rm -rf tmp_dist
	@echo "wrote $(UID_DIST).zip"

# The manual page of uid-decode, next to the server's own.
install: install-man install-links
.PHONY: install-man install-links
install-man:
	$(MKDIR_P) '$(DESTDIR)$(mandir)/man1'
	$(INSTALL_DATA) docs/uid-decode.1 '$(DESTDIR)$(mandir)/man1/uid-decode.1'

# The server's bindir and mandir are on no user's PATH or MANPATH where
# several servers are installed side by side (Debian and Ubuntu:
# /usr/lib/postgresql/NN/bin), so "make install" links uid-decode into
# $(UID_LINK_PREFIX)/bin and its manual page into
# $(UID_LINK_PREFIX)/share/man/man1, where "uid-decode" and "man uid-decode"
# find them.  With DESTDIR, the links go below it and point to the final
# paths.  A file there that is not a link (a server installed into that
# prefix has uid-decode there already) is left alone, and a prefix that
# cannot be written (make install as a user into a server of one's own)
# is skipped with a note: the command is still in $(bindir).
# "make install UID_LINK_PREFIX=" makes no link (the Debian package does
# not: it links through update-alternatives, debian/rules).
UID_LINK_PREFIX ?= /usr/local
install-links: install-man
ifneq ($(UID_LINK_PREFIX),)
	@for l in '$(bindir)/uid-decode $(UID_LINK_PREFIX)/bin' \
			'$(mandir)/man1/uid-decode.1 $(UID_LINK_PREFIX)/share/man/man1'; do \
		set -- $$l; to=$$1; dir=$(DESTDIR)$$2; link=$$dir/$$(basename "$$to"); \
		if [ -e "$$link" ] && [ ! -L "$$link" ]; then \
			echo "uid-decode: $$link exists and is no link: left as it is"; \
		elif $(MKDIR_P) "$$dir" 2>/dev/null && ln -sfn "$$to" "$$link" 2>/dev/null; then \
			echo "uid-decode: linked $$link -> $$to"; \
		else \
			echo "uid-decode: cannot write $$dir: not linked; uid-decode is $$to" \
				"(make install UID_LINK_PREFIX=dir links it elsewhere)"; \
		fi; \
	done
endif

.PHONY: installcheck-regress installcheck-isolation installcheck-tap
installcheck-regress:
	$(pg_regress_installcheck) $(REGRESS_OPTS) $(REGRESS)
installcheck-isolation:
	$(pg_isolation_regress_installcheck) $(ISOLATION_OPTS) $(ISOLATION)
installcheck-tap:
	$(prove_installcheck)
