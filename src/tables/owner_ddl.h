/*
 * owner_ddl.h
 *		Changing another role's table as its owner (owner_ddl.c): the check
 *		that a statement recursing into partitions and inheritance children
 *		reaches only tables of the same owner.
 */
#ifndef UID_OWNER_DDL_H
#define UID_OWNER_DDL_H

#include "postgres.h"

extern void UidCheckMembersOwner(Oid relid, Oid owner);

#endif							/* UID_OWNER_DDL_H */
