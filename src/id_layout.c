/*
 * id_layout.c
 *		Reading the fields of a uid and of a UUID (id_layout.h): the bottom
 *		layer, which the ID core, the tenure ledger, the forms and the
 *		uid-decode command all read IDs through.  Pure functions of their
 *		input; a problem is a return value.
 *
 * Builds in the server and, with -DFRONTEND, in the command and the unit
 * test (test/unit/decode_test.c).
 */
#ifndef FRONTEND
#include "postgres.h"
#else
#include "postgres_fe.h"
#endif

#include "id_layout.h"

/* ---- the Snowflake-style layout ---- */

bool
UidDecodeFields(int64 id, UidFields *f)
{
	if (id < 0)
		return false;
	f->ms_since_epoch = UidIdMs(id);
	f->unix_ms = f->ms_since_epoch + UID_EPOCH_MS;
	f->worker_id = (int) ((id >> UID_SEQ_BITS) & UID_MAX_WORKER);
	f->sequence = (int) (id & UID_MAX_SEQ);
	return true;
}

/* ---- UUIDs ---- */

/* 1582-10-15 (the Gregorian epoch of UUID versions 1 and 6) to 1970-01-01, in us */
#define UUID_GREGORIAN_TO_UNIX_US	INT64CONST(12219292800000000)

/*
 * The time of a v1 or v6 UUID in us since 1970, truncated to us.  60 bits
 * of 100 ns from 1582 end in year 5236: no overflow.
 */
static int64
UuidGregorianUnixUs(const uint8 *d, int version)
{
	uint64		t;

	if (version == 1)
		t = ((uint64) (d[6] & 0x0f) << 56) | ((uint64) d[7] << 48) |
			((uint64) d[4] << 40) | ((uint64) d[5] << 32) |
			((uint64) d[0] << 24) | ((uint64) d[1] << 16) |
			((uint64) d[2] << 8) | (uint64) d[3];
	else
		t = ((uint64) d[0] << 52) | ((uint64) d[1] << 44) |
			((uint64) d[2] << 36) | ((uint64) d[3] << 28) |
			((uint64) d[4] << 20) | ((uint64) d[5] << 12) |
			((uint64) (d[6] & 0x0f) << 8) | (uint64) d[7];
	return (int64) (t / 10) - UUID_GREGORIAN_TO_UNIX_US;
}

void
UuidDecodeFields(const uint8 *bytes, UuidFields *f)
{
	uint8		v = bytes[8];

	if ((v & 0x80) == 0)
		f->variant = 0;
	else if ((v & 0x40) == 0)
		f->variant = 2;
	else if ((v & 0x20) == 0)
		f->variant = 6;
	else
		f->variant = 7;
	f->version = f->variant == 2 ? bytes[6] >> 4 : -1;
	f->has_time = false;
	f->unix_us = 0;
	if (f->version == 7)
	{
		f->has_time = true;
		f->unix_us = (int64) (UuidBytesHigh64(bytes) >> 16) * 1000;
	}
	else if (f->version == 1 || f->version == 6)
	{
		f->has_time = true;
		f->unix_us = UuidGregorianUnixUs(bytes, f->version);
	}
}
