/*
 * uuid7.h
 *		The UUIDv7 generator (uuid7.c): its shared memory, its last issued
 *		time, and the SQL functions the time-filter rewrite recognises by
 *		their address.
 */
#ifndef UID_UUID7_H
#define UID_UUID7_H

#include "postgres.h"

#include "fmgr.h"

extern Size UidUuid7ShmemSize(void);
extern void UidUuid7ShmemInit(void);
extern int64 UidUuid7LastMs(void);

extern PGDLLEXPORT Datum uuid7_time(PG_FUNCTION_ARGS);
extern PGDLLEXPORT Datum uid_decode_uuid(PG_FUNCTION_ARGS);
extern PGDLLEXPORT Datum uid_compat_uuid_extract_timestamp(PG_FUNCTION_ARGS);

#endif							/* UID_UUID7_H */
