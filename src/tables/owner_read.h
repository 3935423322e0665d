/*
 * owner_read.h
 *		Reading a table another role may own without running that role's
 *		code with the caller's rights (owner_read.c): the caller's checks,
 *		and the security-restricted context a table is read in.
 */
#ifndef UID_OWNER_READ_H
#define UID_OWNER_READ_H

#include "postgres.h"

/* What UidBeginAs() changed, for UidEndAs(). */
typedef struct UidAsSave
{
	Oid			user;
	int			sec;
	int			nestlevel;
} UidAsSave;

extern void UidCheckSchemaUsage(Oid relid);
extern void UidRefuseRowSecurity(Oid relid, const char *whose);
extern Oid	UidReaderOf(Oid relid);
extern void UidBeginAs(Oid user, UidAsSave *save);
extern void UidEndAs(const UidAsSave *save);

#endif							/* UID_OWNER_READ_H */
