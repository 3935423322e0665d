/*
 * catalog.h
 *		uid's own objects in the catalog (catalog.c).
 */
#ifndef UID_CATALOG_H
#define UID_CATALOG_H

#include "postgres.h"

#include "fmgr.h"

extern Oid	UidExtensionSchema(void);
extern Oid	UidRelationOwner(Oid relid);
extern Oid	UidIdTypeOid(void);
extern bool UidIsIdType(Oid type);

/* The uid form of a function follows the right to execute its bigint form. */
extern void UidCheckBigintForm(const char *name);
extern void UidCheckBigintFormOnce(FunctionCallInfo fcinfo, const char *name);

#endif							/* UID_CATALOG_H */
