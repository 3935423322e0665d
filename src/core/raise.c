/*
 * raise.c
 *		uid_raise(): the errors of uid's own PL/pgSQL functions (tickets,
 *		counters), raised without the error context of the functions that
 *		raise them.
 *
 * A RAISE in PL/pgSQL reports, besides its message, one CONTEXT line per
 * frame of PL/pgSQL and SPI between the caller's statement and the RAISE
 * ("PL/pgSQL function uid_ticket._absent(text) line 14 at RAISE", "SQL
 * statement ...", "PL/pgSQL function uid_ticket_next(text) line 9 at
 * PERFORM"): the inside of uid, which says nothing to the caller.  The
 * context lines are added by the callbacks on error_context_stack, which
 * errfinish() calls as the error is raised (elog.c); this function raises
 * with that stack empty, so the error carries its message, detail and hint
 * only.  The stack is not restored here: the error does not return, and
 * whoever catches it (PG_TRY, a PL/pgSQL EXCEPTION block, the top level)
 * restores its own stack (PG_CATCH sets error_context_stack back to what it
 * was at PG_TRY), so an EXCEPTION block in a caller catches the error with
 * its SQLSTATE as it would a RAISE.
 *
 * SQL declares it twice: uid_raise() in the extension's schema, and
 * uid_counter._raise() for the counter functions that run as the
 * extension's owner, which call nothing in the extension's schema by name
 * (sql/parts/raise.sql).
 */
#include "postgres.h"

#include "fmgr.h"
#include "utils/builtins.h"

PG_FUNCTION_INFO_V1(uid_raise);

/*
 * uid_raise(sqlstate, message, detail, hint): ERROR with that SQLSTATE and
 * text, detail and hint when not NULL.  A malformed SQLSTATE would be
 * uid's own bug: the error is then XX000 with the text as given, so that the
 * message is never lost.
 */
Datum
uid_raise(PG_FUNCTION_ARGS)
{
	const char *state = PG_ARGISNULL(0) ? NULL : text_to_cstring(PG_GETARG_TEXT_PP(0));
	const char *message = PG_ARGISNULL(1) ? "(no message)" : text_to_cstring(PG_GETARG_TEXT_PP(1));
	const char *detail = PG_ARGISNULL(2) ? NULL : text_to_cstring(PG_GETARG_TEXT_PP(2));
	const char *hint = PG_ARGISNULL(3) ? NULL : text_to_cstring(PG_GETARG_TEXT_PP(3));
	int			code = ERRCODE_INTERNAL_ERROR;

	if (state != NULL && strlen(state) == 5 &&
		strspn(state, "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ") == 5)
		code = MAKE_SQLSTATE(state[0], state[1], state[2], state[3], state[4]);

	error_context_stack = NULL;
	ereport(ERROR,
			(errcode(code),
			 errmsg_internal("%s", message),
			 detail ? errdetail_internal("%s", detail) : 0,
			 hint ? errhint("%s", hint) : 0));
	PG_RETURN_VOID();
}
