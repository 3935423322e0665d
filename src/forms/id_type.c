/*
 * id_type.c
 *		The I/O functions of the uid type: bigint's own, called through
 *		entry points of this library.
 *
 * The type is bigint under another name (sql/parts/id_type.sql), so these
 * hand their call to int8in, int8out, int8recv and int8send unchanged.
 * They are C functions of this library, not LANGUAGE internal entries
 * naming the built-ins, because of how often PostgreSQL looks an I/O
 * function up: the JSON encoder and logical replication call the output
 * (and the apply the input) function by OID once per value, and a
 * LANGUAGE internal function whose OID is not a built-in one is found by
 * a linear search of the server's table of built-in function names
 * (fmgr_lookupByName): measured, that search took half of json_agg()'s
 * time over a uid column.  A C function is found in a hash table.
 */
#include "postgres.h"

#include "fmgr.h"
#include "utils/fmgrprotos.h"

PG_FUNCTION_INFO_V1(uid_in);
PG_FUNCTION_INFO_V1(uid_out);
PG_FUNCTION_INFO_V1(uid_recv);
PG_FUNCTION_INFO_V1(uid_send);

Datum
uid_in(PG_FUNCTION_ARGS)
{
	return int8in(fcinfo);
}

Datum
uid_out(PG_FUNCTION_ARGS)
{
	return int8out(fcinfo);
}

Datum
uid_recv(PG_FUNCTION_ARGS)
{
	return int8recv(fcinfo);
}

Datum
uid_send(PG_FUNCTION_ARGS)
{
	return int8send(fcinfo);
}
