/*
 * advance_past_uid.c
 *		uid_advance_past(uid): generator.c's uid_advance_past(bigint), for
 *		those who may execute that (core/catalog.c says why the uid form
 *		follows the bigint form's privileges).  A file of its own beside
 *		generator.c, in the folder of the function it wraps, so that the
 *		wrapper moves with it.
 */
#include "postgres.h"

#include "fmgr.h"

#include "core/catalog.h"

/* generator.c; SQL-callable, so declared by no header */
extern Datum uid_advance_past(PG_FUNCTION_ARGS);

PG_FUNCTION_INFO_V1(uid_advance_past_uid);

Datum
uid_advance_past_uid(PG_FUNCTION_ARGS)
{
	UidCheckBigintFormOnce(fcinfo, "uid_advance_past");
	return uid_advance_past(fcinfo);
}
