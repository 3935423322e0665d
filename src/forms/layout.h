/*
 * layout.h
 *		Reading Snowflake-style IDs back (layout.c): the check every function
 *		taking an ID makes, and the SQL functions the time-filter rewrite
 *		recognises by their address.
 */
#ifndef UID_LAYOUT_H
#define UID_LAYOUT_H

#include "postgres.h"

#include "fmgr.h"

/* Raises an error for a negative value (22003): uid values never are. */
extern void UidCheckId(int64 id);

extern PGDLLEXPORT Datum uid_time(PG_FUNCTION_ARGS);
extern PGDLLEXPORT Datum uid_decode(PG_FUNCTION_ARGS);

#endif							/* UID_LAYOUT_H */
