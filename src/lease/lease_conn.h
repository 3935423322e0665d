/*
 * lease_conn.h
 *		The lease worker's session with its store (lease_conn.c): in-process
 *		(SPI) or over libpq.
 */
#ifndef UID_LEASE_CONN_H
#define UID_LEASE_CONN_H

#include "postgres.h"

/* rows of a store statement, as text (NULL for SQL NULL), row-major */
typedef struct UidConnRows
{
	int			nrows;
	int			ncols;
	char	  **vals;
} UidConnRows;

#define UidConnValue(r, row, col) ((r)->vals[(row) * (r)->ncols + (col)])

extern void UidConnInit(bool remote);
extern bool UidConnRemote(void);
extern bool UidConnOpen(void);
extern void UidConnClose(void);
extern void UidConnBegin(void);
extern void UidConnCommit(void);
extern void UidConnAbortAfterError(void);
extern void UidConnSetFinal(void);
extern UidConnRows *UidConnExec(const char *sql, int nparams, const char *const *params);
extern UidConnRows *UidConnExecSecond(const char *sql, int nparams, const char *const *params,
									  char **why);

#endif							/* UID_LEASE_CONN_H */
